use matrix_core::{Matrix, matrix};

matrix! {
    pub typedef char c2x2_t __attribute__((matrix_type(2, 2)));
    pub typedef signed char sc2x2_t __attribute__((matrix_type(2, 2)));

    /// C's `char` is `i8` on every target, so it mixes with `signed char`.
    pub fn add(c: c2x2_t, s: sc2x2_t) -> c2x2_t {
        c + s
    }
}

fn main() {
    let c: Matrix<i8, 2, 2> = c2x2_t::splat(100);
    let s: Matrix<i8, 2, 2> = sc2x2_t::splat(30);
    assert_eq!(add(c, s), Matrix::splat(-126));
}
