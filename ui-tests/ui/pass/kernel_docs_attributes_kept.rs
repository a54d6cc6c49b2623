//! Kernels keep their doc comments and attributes: with `missing_docs`
//! denied, a dropped doc would fail the build, and with the `cfg`s dropped,
//! the two `pick` kernels would clash.
#![deny(missing_docs)]

use matrix_core::matrix;

matrix! {
    /// A 2x2 float matrix.
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));

    /// Picks the top-left element.
    #[cfg(all())]
    #[inline]
    #[must_use]
    pub fn pick(m: m2x2_t) -> f32 {
        m[0][0]
    }

    /// Never compiled.
    #[cfg(any())]
    pub fn pick(m: m2x2_t) -> f32 {
        m[1][1]
    }
}

fn main() {
    assert_eq!(pick(m2x2_t::from_rows([[1.0, 2.0], [3.0, 4.0]])), 1.0);
}
