//! C's `<math.h>` functions inside kernels, with C's argument conversions.
use matrix_core::matrix;

matrix! {
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));
    pub typedef double d2x2_t __attribute__((matrix_type(2, 2)));

    pub fn rotation(angle: f32) -> m2x2_t {
        let mut m = (m2x2_t) 0;
        m[0][0] = cosf(angle);
        m[0][1] = -sinf(angle);
        m[1][0] = sinf(angle);
        m[1][1] = cosf(angle);
        m
    }

    pub fn length(m: d2x2_t) -> f64 {
        sqrt(m[0][0] * m[0][0] + m[1][0] * m[1][0])
    }

    pub fn mixed(x: f32, n: i32) -> f32 {
        // An `int` argument converts to `float`, a literal at expansion time.
        powf(x, 2) + fabsf(n as f32) + sqrtf(n) + fmaxf(floorf(x), ceilf(x)) + roundf(2.5)
    }

    pub fn angles(y: f64, x: f64) -> f64 {
        atan2(y, x) + fmin(asin(1.0), acos(0.0)) + exp(log(2.0)) + tan(atan(0.5))
    }

    pub fn float_forms(x: f32) -> f32 {
        tanf(x) + asinf(x) + acosf(x) + atanf(x) + atan2f(x, 1) + expf(x) + logf(1.0 + x) + fminf(x, 0)
    }
}

fn main() {
    let r = rotation(0.5);
    assert_eq!(r[(0, 0)], 0.5f32.cos());
    assert_eq!(r[(1, 0)], 0.5f32.sin());
    assert_eq!(length(d2x2_t::from_rows([[3.0, 0.0], [4.0, 0.0]])), 5.0);
    assert_eq!(mixed(1.5, 4), 2.25 + 4.0 + 2.0 + 2.0 + 3.0);
    let want = 2f64.atan2(3.0) + 1f64.asin().min(0f64.acos()) + 2f64.ln().exp() + 0.5f64.atan().tan();
    assert_eq!(angles(2.0, 3.0), want);
    let x = 0.25f32;
    let want = x.tan() + x.asin() + x.acos() + x.atan() + x.atan2(1.0) + x.exp() + (1.0 + x).ln() + x.min(0.0);
    assert_eq!(float_forms(x), want);
}
