use matrix_core::matrix;

matrix! {
    pub fn f(m: Matrix<bool, 2, 2>) -> Matrix<bool, 2, 2> {
        m
    }
}

fn main() {}
