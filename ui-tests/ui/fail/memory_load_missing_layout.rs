use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn load(src: &[f32]) -> m4x4_t {
        __builtin_matrix_load(src, 4, 4)
    }
}

fn main() {}
