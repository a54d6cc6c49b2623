use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef int i4x4_t __attribute__((matrix_type(4, 4)));

    pub fn mul(a: m4x4_t, i: i4x4_t) -> m4x4_t {
        a * i
    }
}

fn main() {}
