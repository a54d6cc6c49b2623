use matrix_core::matrix;

matrix! {
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));

    /// Rounding a double literal to float is not diagnosed (Clang is silent).
    pub fn add_tenth(a: m2x2_t) -> m2x2_t {
        a + 0.1
    }

    /// 1e40 overflows float to +inf: not diagnosed either.
    pub fn add_huge(a: m2x2_t) -> m2x2_t {
        a + 1e40
    }
}

fn main() {
    let a = m2x2_t::splat(1.0);
    assert_eq!(add_tenth(a)[(0, 0)], 1.0f32 + 0.1f32);
    assert_eq!(add_huge(a)[(1, 1)], f32::INFINITY);
}
