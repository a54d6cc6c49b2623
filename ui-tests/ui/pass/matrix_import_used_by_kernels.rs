//! `Matrix<T, R, C>` imported by the user and written only in kernel
//! signatures must count as a use of the import.
#![deny(unused_imports)]

use matrix_core::{Matrix, matrix};

matrix! {
    pub fn twice(m: Matrix<f32, 2, 2>) -> Matrix<f32, 2, 2> {
        m + m
    }
}

fn main() {
    let m = twice(matrix_core::Matrix::splat(1.0));
    assert_eq!(m.to_rows(), [[2.0, 2.0], [2.0, 2.0]]);
}
