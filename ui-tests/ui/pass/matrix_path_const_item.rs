use matrix_core::{Matrix, matrix};

matrix! {
    pub const N: usize = 3;

    /// `Matrix<T, R, C>` with a `const` item of the block as a dimension.
    pub fn sum(a: Matrix<f32, N, 4>, b: Matrix<f32, N, 4>) -> Matrix<f32, N, 4> {
        a + b
    }
}

fn main() {
    let a = Matrix::<f32, 3, 4>::splat(1.5);
    assert_eq!(sum(a, a), Matrix::splat(3.0));
}
