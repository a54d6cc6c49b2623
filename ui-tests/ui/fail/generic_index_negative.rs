use matrix_core::{Matrix, matrix};

// A negative subscript is outside every instance's range: refused at once.
matrix! {
    pub fn negative<const N: usize>(m: Matrix<f32, N, N>) -> f32 {
        m[0][-1]
    }
}

fn main() {}
