use matrix_core::matrix;

matrix! {
    pub fn t(s: f32) -> f32 {
        __builtin_matrix_transpose(s)
    }
}

fn main() {}
