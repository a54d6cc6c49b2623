use matrix_core::matrix;

matrix! {
    pub type c2x2_t = Matrix<char, 2, 2>;
}

fn main() {}
