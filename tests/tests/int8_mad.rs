//! The widening 8-bit multiply-accumulate at the sizes where it runs on the
//! int8 dot-product kernels (AMX, AVX-512 VNNI, AVX-VNNI, AVX2): in the DSL
//! (`__builtin_matrix_mad`, and a product of 8-bit matrices cast to `int`,
//! which takes the same path) and on `Matrix::mad`, every pair of signs,
//! column- and row-major operands, against a plain `i32` loop; on every
//! backend this CPU runs (the scalar and SSE2 backends take the widened
//! `i32` kernel, the others the int8 kernel the CPU has). Each kernel on
//! its own, the AMX one included, is tested in `matrix-core`'s unit tests
//! (`int8_kernels_on_every_int8_kernel_this_cpu_has`, and the AMX driver on
//! emulated tiles everywhere).

use matrix_core::{Element, Matrix, matrix};
use matrix_tests::Rng;

matrix! {
    type u16x64 = Matrix<u8, 16, 64>;
    type s16x64 = Matrix<i8, 16, 64>;
    type s64x16 = Matrix<i8, 64, 16>;
    type u64x16 = Matrix<u8, 64, 16>;
    type i16x16 = Matrix<i32, 16, 16>;
    typedef int w64x16 __attribute__((matrix_type(64, 16)));
    type u64x64 = Matrix<u8, 64, 64>;
    type s64x64 = Matrix<i8, 64, 64>;
    type i64x64 = Matrix<i32, 64, 64>;
    type u20x100r = Matrix<u8, 20, 100, RowMajor>;
    type s100x40 = Matrix<i8, 100, 40>;
    type i20x40r = Matrix<i32, 20, 40, RowMajor>;

    fn mad_us(a: u16x64, b: s64x16, c: i16x16) -> i16x16 {
        __builtin_matrix_mad(a, b, c)
    }
    fn mad_ss(a: s16x64, b: s64x16, c: i16x16) -> i16x16 {
        __builtin_matrix_mad(a, b, c)
    }
    fn mad_su(a: s16x64, b: u64x16, c: i16x16) -> i16x16 {
        __builtin_matrix_mad(a, b, c)
    }
    fn mad_uu(a: u16x64, b: u64x16, c: i16x16) -> i16x16 {
        __builtin_matrix_mad(a, b, c)
    }
    fn mad_64(a: u64x64, b: s64x64, c: i64x64) -> i64x64 {
        __builtin_matrix_mad(a, b, c)
    }
    // Ragged, with row-major operands and result.
    fn mad_ragged(a: u20x100r, b: s100x40, c: i20x40r) -> i20x40r {
        __builtin_matrix_mad(a, b, c)
    }
    // Written as C would: the casts widen, and the product takes the same
    // kernel.
    fn cast_product_add(c: i16x16, a: u16x64, b: s64x16) -> i16x16 {
        c + (w16x64) a * (w64x16) b
    }
    fn cast_product(a: s16x64, b: s64x16) -> i16x16 {
        (w16x64) a * (w64x16) b
    }
    typedef int w16x64 __attribute__((matrix_type(16, 64)));
}

/// `a * b + c` in `i32` with a plain loop.
fn plain<A, B, const M: usize, const K: usize, const N: usize>(
    a: &Matrix<A, M, K>,
    b: &Matrix<B, K, N>,
    c: &Matrix<i32, M, N>,
) -> Matrix<i32, M, N>
where
    A: Element + Into<i32>,
    B: Element + Into<i32>,
{
    Matrix::from_fn(|r, j| {
        (0..K).fold(c[(r, j)], |acc, k| {
            acc.wrapping_add(a[(r, k)].into() * b[(k, j)].into())
        })
    })
}

/// A random matrix; every third one has extreme values only (the corners of
/// the flipped-sign corrections).
fn random<T: matrix_tests::Scalar + Element, const R: usize, const C: usize>(
    rng: &mut Rng,
    extreme: Option<T>,
) -> Matrix<T, R, C> {
    match extreme {
        Some(x) => Matrix::splat(x),
        None => Matrix::from_column_major(&rng.vec::<T>(R * C)),
    }
}

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

#[test]
fn every_pair_of_signs_is_the_plain_loop() {
    let mut rng = Rng::new(8);
    for case in 0..24 {
        let (u, s) = match case % 3 {
            0 => (None, None),
            1 => (Some(255u8), Some(-128i8)),
            _ => (Some(128u8), Some(127i8)),
        };
        let (ua, sa) = (
            random::<u8, 16, 64>(&mut rng, u),
            random::<i8, 16, 64>(&mut rng, s),
        );
        let (ub, sb) = (
            random::<u8, 64, 16>(&mut rng, u),
            random::<i8, 64, 16>(&mut rng, s),
        );
        let c = random::<i32, 16, 16>(&mut rng, None);
        assert_eq!(mad_us(ua, sb, c), plain(&ua, &sb, &c), "u8*i8");
        assert_eq!(mad_ss(sa, sb, c), plain(&sa, &sb, &c), "i8*i8");
        assert_eq!(mad_su(sa, ub, c), plain(&sa, &ub, &c), "i8*u8");
        assert_eq!(mad_uu(ua, ub, c), plain(&ua, &ub, &c), "u8*u8");
        assert_eq!(ua.mad(&sb, &c), plain(&ua, &sb, &c), "Matrix::mad u8*i8");
        assert_eq!(sa.mad(&ub, &c), plain(&sa, &ub, &c), "Matrix::mad i8*u8");
        assert_eq!(
            cast_product_add(c, ua, sb),
            plain(&ua, &sb, &c),
            "c + (int) a * (int) b"
        );
        assert_eq!(
            cast_product(sa, sb),
            plain(&sa, &sb, &Matrix::zero()),
            "(int) a * (int) b"
        );
        // The same, widened first with `Matrix` operators.
        let (wa, wb): (w16x64, w64x16) = (sa.cast(), sb.cast());
        assert_eq!(cast_product(sa, sb), wa * wb, "widened first");
    }
}

#[test]
fn large_and_ragged_shapes_are_the_plain_loop() {
    let mut rng = Rng::new(9);
    for _ in 0..4 {
        let a = random::<u8, 64, 64>(&mut rng, None);
        let b = random::<i8, 64, 64>(&mut rng, None);
        let c = random::<i32, 64, 64>(&mut rng, None);
        assert_eq!(mad_64(a, b, c), plain(&a, &b, &c));

        let a = random::<u8, 20, 100>(&mut rng, None);
        let b = random::<i8, 100, 40>(&mut rng, None);
        let c = random::<i32, 20, 40>(&mut rng, None);
        let got = mad_ragged(a.to_layout(), b, c.to_layout());
        assert_eq!(Matrix::from(got), plain(&a, &b, &c));

        // AMX's own ragged paths where the CPU has it (20 rows above leave
        // too much of a tile unused and run on VNNI): a depth that is not
        // whole tiles (only `b^T` copied and padded), then every dimension
        // ragged (`b^T` and the result padded).
        let a = random::<u8, 32, 36>(&mut rng, None);
        let b = random::<i8, 36, 16>(&mut rng, None);
        let c = random::<i32, 32, 16>(&mut rng, None);
        assert_eq!(a.mad(&b, &c), plain(&a, &b, &c), "32x36x16");
        let a = random::<i8, 24, 100>(&mut rng, None);
        let b = random::<u8, 100, 24>(&mut rng, None);
        let c = random::<i32, 24, 24>(&mut rng, None);
        assert_eq!(a.mad(&b, &c), plain(&a, &b, &c), "24x100x24");
    }
}

/// `Matrix::mad_to` writes what `Matrix::mad` returns, whatever `out` held:
/// on the int8 kernels (16x64x16, 64x64x64), into a row-major result, on
/// the widened `i32` product (8x16x4) and on one type throughout.
#[test]
fn mad_to_writes_what_mad_returns() {
    let mut rng = Rng::new(10);
    for _ in 0..4 {
        let a = random::<u8, 16, 64>(&mut rng, None);
        let b = random::<i8, 64, 16>(&mut rng, None);
        let c = random::<i32, 16, 16>(&mut rng, None);
        let mut out = random::<i32, 16, 16>(&mut rng, None);
        a.mad_to(&b, &c, &mut out);
        assert_eq!(out, plain(&a, &b, &c), "16x64x16");

        let a = random::<i8, 64, 64>(&mut rng, None);
        let b = random::<u8, 64, 64>(&mut rng, None);
        let c = random::<i32, 64, 64>(&mut rng, None);
        let mut out = random::<i32, 64, 64>(&mut rng, None);
        a.mad_to(&b, &c, &mut out);
        assert_eq!(out, plain(&a, &b, &c), "64x64x64");

        let a = random::<u8, 20, 100>(&mut rng, None);
        let b = random::<i8, 100, 40>(&mut rng, None);
        let c = random::<i32, 20, 40>(&mut rng, None);
        let mut out: Matrix<i32, 20, 40, matrix_core::RowMajor> =
            Matrix::<i32, 20, 40>::splat(7).to_layout();
        a.mad_to(&b, &c.to_layout(), &mut out);
        assert_eq!(Matrix::from(out), plain(&a, &b, &c), "row-major result");

        let a = random::<i8, 8, 16>(&mut rng, None);
        let b = random::<i8, 16, 4>(&mut rng, None);
        let c = random::<i32, 8, 4>(&mut rng, None);
        let mut out = Matrix::splat(-1);
        a.mad_to(&b, &c, &mut out);
        assert_eq!(out, plain(&a, &b, &c), "8x16x4, widened");

        let (x, y, z) = (
            random::<i32, 4, 8>(&mut rng, None),
            random::<i32, 8, 4>(&mut rng, None),
            random::<i32, 4, 4>(&mut rng, None),
        );
        let mut out = Matrix::splat(3);
        x.mad_to(&y, &z, &mut out);
        assert_eq!(out, x.mad(&y, &z), "i32 throughout");
    }
}
