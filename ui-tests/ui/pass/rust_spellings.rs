use matrix_core::{Matrix, matrix};

matrix! {
    pub typedef i32 mi2x2_t __attribute__((matrix_type(2, 2)));
    pub type f2x3_t = Matrix<f32, 2, 3>;
    pub type f3x2_t = Matrix<f32, 3, 2>;

    /// A Rust element spelling in a C typedef, and `type` aliases as typedefs.
    pub fn product(a: f2x3_t, b: f3x2_t) -> Matrix<f32, 2, 2> {
        a * b
    }

    pub fn wrap(m: mi2x2_t) -> mi2x2_t {
        m + m
    }
}

fn main() {
    let a = f2x3_t::from_fn(|r, c| (10 * r + c) as f32);
    let b = f3x2_t::from_fn(|r, c| (r + 2 * c + 1) as f32);
    assert_eq!(product(a, b).to_rows(), [[8.0, 14.0], [68.0, 134.0]]);
    let m: Matrix<i32, 2, 2> = mi2x2_t::splat(i32::MAX);
    assert_eq!(wrap(m), Matrix::splat(-2));
}
