// C functions pasted whole into a block compile without a warning: their
// parameters are assignable as in C (`mut`, with `unused_mut` allowed), a
// pointer is a slice, `void` has no result, `static` and `inline` are
// accepted.
#![deny(warnings)]

use matrix_core::matrix;

matrix! {
    typedef float m2 __attribute__((matrix_type(2, 2)));

    static inline float twice(float x) {
        return x * 2;
    }

    m2 scaled(m2 m, float s, int n) {
        while (n > 0) { s = twice(s); n--; }
        return m * s;
    }

    void store_scaled(const float *src, float *dst, float s) {
        m2 a = __builtin_matrix_column_major_load(src, 2, 2, 2);
        __builtin_matrix_column_major_store(scaled(a, s, 1), dst, 2);
    }

    int answer(void) {
        int digits[2] = {0};
        int n = 0;
        digits[n++] = 4;
        digits[n++] = 2;
        return digits[0] * 10 + digits[n - 1];
    }
}

fn main() {
    let mut out = [0.0f32; 4];
    store_scaled(&[1.0, 2.0, 3.0, 4.0], &mut out, 0.5);
    assert_eq!(out, [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(answer(), 42);
    assert_eq!(scaled(m2::splat(1.0), 1.0, 3), m2::splat(8.0));
}
