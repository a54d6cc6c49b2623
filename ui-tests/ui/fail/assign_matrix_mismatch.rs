use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn assign(a: m4x4_t, b: m4x4_t, mut c: m4x3_t) -> m4x3_t {
        c = a + b;
        c
    }
}

fn main() {}
