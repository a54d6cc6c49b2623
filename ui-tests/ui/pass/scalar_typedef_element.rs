use matrix_core::{Matrix, matrix};

matrix! {
    pub typedef double real;
    pub typedef real r2x2_t __attribute__((matrix_type(2, 2)));

    pub fn scale(m: r2x2_t, s: real) -> r2x2_t {
        m * s
    }
}

fn main() {
    let m: Matrix<f64, 2, 2> = r2x2_t::splat(1.5);
    let s: f64 = 2.0;
    assert_eq!(scale(m, s), Matrix::splat(3.0));
}
