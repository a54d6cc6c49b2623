use matrix_core::matrix;

matrix! {
    pub fn load(src: &[f32]) -> f32 {
        __builtin_matrix_column_major_load(src, -1, 4, 4)[0][0]
    }
}

fn main() {}
