use matrix_core::matrix;

matrix! {
    pub fn f() -> f32 {
        let z: Matrix<f32, 0, 2> = matrix_core::Matrix::splat(1.0);
        z[0][0]
    }
}

fn main() {}
