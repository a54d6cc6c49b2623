//! The README's quick start: a kernel, `Matrix` values, a call, the result
//! printed. `cargo run --example quickstart`.

use matrix_core::{Matrix, matrix};

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t { a * b + c }
}

fn main() {
    let a = m4x4_t::from_fn(|r, c| (r * 4 + c) as f32); // m4x4_t is Matrix<f32, 4, 4>
    let m = madd(a, Matrix::identity(), Matrix::splat(1.0));
    println!("{m}"); // [[1, 2, 3, 4], ...]
    assert_eq!(m[(2, 3)], 12.0); // row 2, column 3
}
