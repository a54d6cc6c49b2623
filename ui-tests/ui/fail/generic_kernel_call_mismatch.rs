use matrix_core::{Matrix, matrix};

matrix! {
    pub fn square<const N: usize>(x: Matrix<f32, N, N>) -> Matrix<f32, N, N> {
        x * x
    }
    // The call binds `N` to 3 by the first argument's rows; its columns
    // (4) then disagree.
    pub fn not_square(x: Matrix<f32, 3, 4>) -> Matrix<f32, 3, 4> {
        square(x)
    }
    // The result of `square(x)` is `N x N` of the caller's `N`.
    pub fn wrong_result<const N: usize>(x: Matrix<f32, N, N>) -> Matrix<f32, 3, 3> {
        square(x)
    }
}

fn main() {}
