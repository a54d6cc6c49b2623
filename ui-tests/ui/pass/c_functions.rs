// C functions pasted whole into a block compile without a warning: their
// parameters are assignable as in C (`mut`, with `unused_mut` allowed), a
// pointer is a slice that `+=`, `++` and `*p++ = v` move on (and that a
// `*const` parameter keeps still), `void` has no result, `static` and
// `inline` are accepted; C's `int i, j;` set later, numbers as conditions,
// comma initialisers, chained assignments, `(void) x;`, `sizeof`, `--n`,
// tables and constants at file scope (named in lower case, as C's are),
// array parameters,
// `static const` tables and `switch` (with fall through,
// and a function ending in one whose sections all return) draw no warning
// either.
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

    void square_tiles(const float *src, float *dst, int count) {
        while (count-- > 0) {
            m2 a = __builtin_matrix_column_major_load(src, 2, 2, 2);
            __builtin_matrix_column_major_store(a * a, dst, 2);
            src += 4;
            dst = dst + 4;
        }
    }

    void ramp(float *const out, const float *from, int n) {
        float *o = out;
        for (int i = 0; i < n; i++) *o++ = *from++ + i;
    }

    void reverse(float *v, int n) {
        int i, j;
        for (i = 0, j = n - 1; i < j; i++, j--) {
            float t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
    }

    int steps(int n, float x) {
        int k = 0, q;
        float a, b;
        while (n--) k++;
        if (!k || x) k += 10;
        do k *= 2; while (0);
        a = b = x;
        q = a + b;
        return k + q;
    }

    float axis(m2 m, int i) {
        float r = 0;
        switch (i) {
        case 0:
            r = m[0][0];
            break;
        case 1:
        case 2:
            r = m[1][1];
        default:
            r += 1;
        }
        return r;
    }

    int sign(int x) {
        switch (x > 0 ? 1 : x < 0 ? -1 : 0) {
        case 1: return 1;
        case -1: return -1;
        default: return 0;
        }
    }

    float weighted(const float rows[][2], int n, int unused) {
        static const float w[] = {0.75f, 0.25f};
        float acc = 0;
        int i, j;
        (void) unused;
        for (i = 0, j = n - 1; i < n; i++, j--) acc += rows[i][0] * w[0] + rows[j][1] * w[1];
        return acc;
    }

    unsigned long table_bytes(int k) {
        int t[] = {1, 2, 3};
        int n = sizeof(t) / sizeof(t[0]);
        return sizeof(t) + t[--n] + k;
    }

    static const float gains[] = {0.5f, 2};
    const int ngains = 2;

    float gained(float x) {
        for (int i = 0; i < ngains; i++) x *= gains[i];
        return x;
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
    let mut squares = [0.0f32; 8];
    square_tiles(&[1.0, 0.0, 0.0, 2.0, 0.0, 3.0, 3.0, 0.0], &mut squares, 2);
    assert_eq!(squares, [1.0, 0.0, 0.0, 4.0, 9.0, 0.0, 0.0, 9.0]);
    let mut ramped = [0.0f32; 3];
    ramp(&mut ramped, &[0.5, 0.5, 0.5], 3);
    assert_eq!(ramped, [0.5, 1.5, 2.5]);
    assert_eq!(scaled(m2::splat(1.0), 1.0, 3), m2::splat(8.0));
    let mut v = [1.0f32, 2.0, 3.0, 4.0, 5.0];
    reverse(&mut v, 5);
    assert_eq!(v, [5.0, 4.0, 3.0, 2.0, 1.0]);
    assert_eq!(steps(3, 0.0), 6);
    assert_eq!(steps(0, 1.75), 23);
    let m = m2::from_fn(|i, j| (i * 2 + j) as f32);
    assert_eq!([0, 1, 2, 3].map(|i| axis(m, i)), [0.0, 4.0, 4.0, 1.0]);
    assert_eq!([5, -5, 0].map(sign), [1, -1, 0]);
    assert_eq!(weighted(&[[4.0, 8.0], [0.0, 4.0]], 2, 0), 6.0);
    assert_eq!(table_bytes(1), 16);
    assert_eq!(gained(3.0), 3.0);
}
