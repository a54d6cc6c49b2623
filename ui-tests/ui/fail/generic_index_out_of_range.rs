use matrix_core::{Matrix, matrix};

// A constant subscript below a generic dimension is checked when rustc
// instantiates the kernel: `corner::<4>` is fine, `corner::<2>` fails, and
// so does `last_column::<3>`.
matrix! {
    pub fn corner<const N: usize>(m: Matrix<f32, N, N>) -> f32 {
        m[3][0]
    }
    pub fn last_column<const C: usize>(m: Matrix<f32, 2, C>) -> f32 {
        __builtin_matrix_extract(m, 1, 3)
    }
}

fn main() {
    let _ = corner(Matrix::<f32, 4, 4>::default());
    let _ = corner(Matrix::<f32, 2, 2>::default());
    let _ = last_column(Matrix::<f32, 2, 3>::default());
}
