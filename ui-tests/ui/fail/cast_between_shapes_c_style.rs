use matrix_core::matrix;

matrix! {
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));
    pub typedef float m3x4_t __attribute__((matrix_type(3, 4)));

    pub fn cast(c: m4x3_t) -> m3x4_t {
        (m3x4_t) c
    }
}

fn main() {}
