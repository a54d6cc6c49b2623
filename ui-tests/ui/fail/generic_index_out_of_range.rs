use matrix_core::{Matrix, matrix};

// A constant subscript below a generic dimension is checked when rustc
// instantiates the kernel: `corner::<4>` is fine, `corner::<2>` fails.
matrix! {
    pub fn corner<const N: usize>(m: Matrix<f32, N, N>) -> f32 {
        m[3][0]
    }
}

fn main() {
    let _ = corner(Matrix::<f32, 4, 4>::default());
    let _ = corner(Matrix::<f32, 2, 2>::default());
}
