use matrix_core::matrix;

matrix! {
    pub fn f(a: Matrix<f32, 2, 2, Diagonal>) -> float {
        a[0][0]
    }
}

fn main() {}
