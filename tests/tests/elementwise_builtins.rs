//! `__builtin_matrix_map`, `__builtin_matrix_zip`, `__builtin_matrix_fill`
//! and `__builtin_matrix_mad` (the seeds' extensions, after SYCL's
//! `joint_matrix` and the layout-aware intrinsics proposal), against a plain
//! scalar reference on many random inputs, on every backend this CPU runs.

use matrix_core::{Matrix, matrix};
use proptest::prelude::*;

matrix! {
    typedef float m3x4_t __attribute__((matrix_type(3, 4)));
    typedef int i3x4_t __attribute__((matrix_type(3, 4)));
    typedef double d3x4_t __attribute__((matrix_type(3, 4)));
    typedef float m4x2_t __attribute__((matrix_type(4, 2)));
    typedef float m3x2_t __attribute__((matrix_type(3, 2)));
    typedef signed char c3x4_t __attribute__((matrix_type(3, 4)));
    typedef unsigned char uc4x2_t __attribute__((matrix_type(4, 2)));
    typedef signed char c4x2_t __attribute__((matrix_type(4, 2)));
    typedef int i3x2_t __attribute__((matrix_type(3, 2)));

    fn square_plus_one(m: m3x4_t) -> m3x4_t {
        __builtin_matrix_map(m, |x| x * x + 1.0f32)
    }
    fn to_int(m: m3x4_t) -> i3x4_t {
        __builtin_matrix_map(m, |x| -> int { x })
    }
    fn clamp_then_scale(m: m3x4_t, lo: float, s: float) -> m3x4_t {
        __builtin_matrix_map(m, |x: float| { let y = if x < lo { lo } else { x }; y * 0.5f32 }) * s
    }
    fn fused_chain(a: m3x4_t, b: m3x4_t) -> m3x4_t {
        __builtin_matrix_map(a + b, |x| x * 2.0f32) - b
    }
    fn weighted(a: m3x4_t, b: d3x4_t) -> d3x4_t {
        __builtin_matrix_zip(a, b, |x, y| (double)x * y + 0.25)
    }
    fn larger(a: i3x4_t, b: i3x4_t) -> i3x4_t {
        __builtin_matrix_zip(a, b, |x, y| if x > y { x } else { y })
    }
    fn filled(m: m3x4_t, v: float) -> m3x4_t {
        __builtin_matrix_fill(m, v)
    }
    fn zeroed(m: i3x4_t) -> i3x4_t {
        __builtin_matrix_fill(m, 0)
    }
    fn mad(a: m3x4_t, b: m4x2_t, c: m3x2_t) -> m3x2_t {
        __builtin_matrix_mad(a, b, c)
    }
    #[fp_contract(fast)]
    fn mad_fast(a: m3x4_t, b: m4x2_t, c: m3x2_t) -> m3x2_t {
        __builtin_matrix_mad(a, b, c)
    }
    fn mad_ss(a: c3x4_t, b: c4x2_t, c: i3x2_t) -> i3x2_t {
        __builtin_matrix_mad(a, b, c)
    }
    fn mad_su(a: c3x4_t, b: uc4x2_t, c: i3x2_t) -> i3x2_t {
        __builtin_matrix_mad(a, b, c)
    }
}

/// `a * b + c` summed in the contract's order with `mul` and `add`.
fn reference_product<A, B, C, const M: usize, const K: usize, const N: usize>(
    a: &Matrix<A, M, K>,
    b: &Matrix<B, K, N>,
    c: &Matrix<C, M, N>,
    mul: impl Fn(A, B) -> C,
    add: impl Fn(C, C) -> C,
) -> Matrix<C, M, N>
where
    A: matrix_core::Element,
    B: matrix_core::Element,
    C: matrix_core::Element,
{
    Matrix::from_fn(|r, j| {
        let mut sum = mul(a[(r, 0)], b[(0, j)]);
        for k in 1..K {
            sum = add(sum, mul(a[(r, k)], b[(k, j)]));
        }
        add(sum, c[(r, j)])
    })
}

fn floats<const R: usize, const C: usize>() -> impl Strategy<Value = Matrix<f32, R, C>> {
    proptest::collection::vec(-1.0e3f32..1.0e3, R * C).prop_map(|v| Matrix::from_column_major(&v))
}

fn ints<
    T: matrix_core::Element + proptest::arbitrary::Arbitrary,
    const R: usize,
    const C: usize,
>() -> impl Strategy<Value = Matrix<T, R, C>> {
    proptest::collection::vec(any::<T>(), R * C).prop_map(|v| Matrix::from_column_major(&v))
}

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

proptest! {
    #[test]
    fn map_zip_and_fill_of_floats(a in floats::<3, 4>(), b in floats::<3, 4>(), lo in -10.0f32..10.0, s in -4.0f32..4.0) {
        prop_assert_eq!(square_plus_one(a), a.map(|x| x * x + 1.0));
        prop_assert_eq!(to_int(a), a.map(|x| x as i32));
        prop_assert_eq!(clamp_then_scale(a, lo, s), a.map(|x| (if x < lo { lo } else { x }) * 0.5 * s));
        prop_assert_eq!(fused_chain(a, b), Matrix::from_fn(|r, c| (a[(r, c)] + b[(r, c)]) * 2.0 - b[(r, c)]));
        let d = b.cast::<f64>();
        prop_assert_eq!(weighted(a, d), a.zip_map(d, |x, y| f64::from(x) * y + 0.25));
        prop_assert_eq!(filled(a, s), Matrix::splat(s));
    }

    #[test]
    fn zip_and_fill_of_integers(a in ints::<i32, 3, 4>(), b in ints::<i32, 3, 4>()) {
        prop_assert_eq!(larger(a, b), a.zip_map(b, |x, y| x.max(y)));
        prop_assert_eq!(zeroed(a), Matrix::zero());
    }

    #[test]
    fn mad_is_the_product_plus_the_addend(a in floats::<3, 4>(), b in floats::<4, 2>(), c in floats::<3, 2>()) {
        let expected = reference_product(&a, &b, &c, |x, y| x * y, |x, y| x + y);
        prop_assert_eq!(mad(a, b, c), expected);
        prop_assert_eq!(a.mad(&b, &c), expected);
        // Fused, each multiply-add rounds once instead of twice. Each of the
        // two sums of 5 terms is within gamma_5 = 5u/(1-5u) (u = EPSILON/2)
        // of the exact one, relative to the sum of the terms' magnitudes
        // (not to the result, which can cancel to almost nothing), so they
        // differ by at most about 5 EPSILON of it; 8 leaves room for the
        // rounding of the magnitude itself.
        let fast = mad_fast(a, b, c);
        let magnitude = reference_product(&a, &b, &c, |x, y| (x * y).abs(), |x, y| x + y.abs());
        for ((x, y), m) in fast.iter().zip(expected.iter()).zip(magnitude.iter()) {
            let bound = 8.0 * f32::EPSILON * m;
            prop_assert!((x - y).abs() <= bound, "{} vs {} (bound {})", x, y, bound);
        }
    }

    #[test]
    fn widening_mad_is_exact_in_i32(a in ints::<i8, 3, 4>(), b in ints::<i8, 4, 2>(), u in ints::<u8, 4, 2>(), c in ints::<i32, 3, 2>()) {
        let wide = |x: i32, y: i32| x.wrapping_mul(y);
        let expected = reference_product(&a.cast::<i32>(), &b.cast::<i32>(), &c, wide, i32::wrapping_add);
        prop_assert_eq!(mad_ss(a, b, c), expected);
        prop_assert_eq!(a.mad(&b, &c), expected);
        let expected = reference_product(&a.cast::<i32>(), &u.cast::<i32>(), &c, wide, i32::wrapping_add);
        prop_assert_eq!(mad_su(a, u, c), expected);
        prop_assert_eq!(a.mad(&u, &c), expected);
    }
}
