use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn twice(a: m4x4_t) -> m4x4_t {
        a + a
    }

    pub fn call(a: m4x4_t) -> m4x4_t {
        twice(a, a)
    }
}

fn main() {}
