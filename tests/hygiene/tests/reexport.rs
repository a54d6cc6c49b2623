//! `matrix!` re-exported by another crate (`matrix_hygiene_check`), used
//! by a crate that names neither `matrix_core` nor `mc`.

use matrix_hygiene_check::{Matrix, matrix};

matrix! {
    typedef double m3x3_t __attribute__((matrix_type(3, 3)));

    fn madd(a: m3x3_t, b: m3x3_t, c: m3x3_t) -> m3x3_t {
        a * b + c
    }
}

#[test]
fn a_reexported_macro_expands_against_its_own_crate() {
    let a = m3x3_t::from_fn(|r, c| (r * 3 + c) as f64);
    let m = madd(a, Matrix::identity(), Matrix::splat(0.5));
    assert_eq!(m[(2, 1)], 7.5);
}
