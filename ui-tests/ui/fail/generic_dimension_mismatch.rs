use matrix_core::{Matrix, matrix};

// Inside a generic kernel `N` is its own dimension: it matches neither
// another parameter nor a constant, as rustc sees it.
matrix! {
    pub fn swapped<const N: usize, const M: usize>(
        x: Matrix<f32, N, M>,
        y: Matrix<f32, M, N>,
    ) -> Matrix<f32, N, M> {
        x + y
    }
    pub fn against_constant<const N: usize>(
        x: Matrix<f32, N, N>,
        y: Matrix<f32, 3, 3>,
    ) -> Matrix<f32, N, N> {
        x * y
    }
    pub fn loaded<const N: usize>(src: &[f32]) -> Matrix<f32, N, N> {
        __builtin_matrix_column_major_load(src, N, 3, N)
    }
}

fn main() {}
