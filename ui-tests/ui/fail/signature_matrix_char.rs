use matrix_core::matrix;

matrix! {
    pub fn f(m: Matrix<char, 2, 2>) -> char {
        m[0][0]
    }
}

fn main() {}
