use matrix_core::matrix;

matrix! {
    pub typedef float m4x3r_t __attribute__((matrix_type(4, 3, row_major)));

    pub fn load(src: &[f32]) -> m4x3r_t {
        __builtin_matrix_row_major_load(src, 4, 3, 2)
    }
}

fn main() {}
