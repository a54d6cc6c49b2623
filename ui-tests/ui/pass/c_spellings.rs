use matrix_core::{Matrix, matrix};

matrix! {
    pub typedef unsigned long long ull_t __attribute__((matrix_type(2, 2)));
    pub typedef signed char sc_t __attribute__((matrix_type(2, 2)));
    pub typedef int8_t i8_t __attribute__((matrix_type(2, 2)));
    pub typedef long l_t __attribute__((matrix_type(2, 2)));
    pub typedef unsigned short us_t __attribute__((matrix_type(2, 2)));

    /// `signed char` and `int8_t` are one type: `i8`.
    pub fn mix(s: sc_t, i: i8_t) -> sc_t {
        s + i + i
    }

    pub fn wrap(u: ull_t) -> ull_t {
        u * 2
    }
}

fn main() {
    let s: Matrix<i8, 2, 2> = sc_t::splat(100);
    let i: Matrix<i8, 2, 2> = i8_t::splat(15);
    // 130 wraps to -126 in `signed char` arithmetic.
    assert_eq!(mix(s, i), Matrix::splat(-126));
    let u: Matrix<u64, 2, 2> = ull_t::splat(u64::MAX);
    assert_eq!(wrap(u), Matrix::splat(u64::MAX - 1));
    let _: Matrix<i64, 2, 2> = l_t::zero();
    let _: Matrix<u16, 2, 2> = us_t::zero();
}
