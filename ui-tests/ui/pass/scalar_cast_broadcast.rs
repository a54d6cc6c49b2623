use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    /// The specification's scalar-to-matrix conversion (clang-19 refuses it).
    pub fn twos() -> m4x4_t {
        2.0 as m4x4_t
    }

    /// The C spelling of the same cast, on a variable.
    pub fn splat(x: f32) -> m4x4_t {
        (m4x4_t) x
    }
}

fn main() {
    assert_eq!(twos(), m4x4_t::splat(2.0));
    assert_eq!(splat(-3.5), m4x4_t::splat(-3.5));
}
