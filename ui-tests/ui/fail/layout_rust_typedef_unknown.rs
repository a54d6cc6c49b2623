use matrix_core::matrix;

pub struct Diagonal;

matrix! {
    pub type M2 = Matrix<f32, 2, 2, Diagonal>;
}

fn main() {}
