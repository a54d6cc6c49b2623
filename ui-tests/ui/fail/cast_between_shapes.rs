use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn cast(a: m4x4_t) -> m4x3_t {
        a as m4x3_t
    }
}

fn main() {}
