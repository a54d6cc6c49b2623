use matrix_core::matrix;

use matrix_core::Matrix;

matrix! {
    pub fn f(m: Matrix<f32, 2>) -> f32 {
        m[0][0]
    }
}

fn main() {}
