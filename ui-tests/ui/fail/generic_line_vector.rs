use matrix_core::{Matrix, matrix};

matrix! {
    typedef float v4 __attribute__((ext_vector_type(4)));

    // A vector's length is a constant: a column of `N` rows is not a vector.
    pub fn column<const N: usize>(x: Matrix<f32, N, 4>) -> v4 {
        __builtin_matrix_column(x, 0)
    }
    // `x * v` needs `x` to have as many columns as `v` has elements.
    pub fn times<const N: usize>(x: Matrix<f32, 4, N>, v: v4) -> v4 {
        x * v
    }
}

fn main() {}
