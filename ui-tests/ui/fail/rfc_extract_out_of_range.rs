use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn extract(a: m4x4_t) -> f32 {
        __builtin_matrix_extract(a, 0, 4)
    }
}

fn main() {}
