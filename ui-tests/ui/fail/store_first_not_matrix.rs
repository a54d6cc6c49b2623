use matrix_core::matrix;

matrix! {
    pub fn store(s: f32, dst: &mut [f32]) {
        __builtin_matrix_column_major_store(s, dst, 4);
    }
}

fn main() {}
