//! The `std::ops` impls of `Matrix` against the scalar reference, over every
//! element type and a spread of shapes (transposes and layout conversions
//! included), plus wrapping and the summation order of the product.

use std::ops::{Add, Mul, Sub};

use matrix_core::{ColumnMajor, Matrix, RowMajor};
use matrix_tests::{
    Rng, Scalar, assert_same, elementwise, matmul, scalar_with, transpose, with_scalar,
};

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

// ---------------------------------------------------------------------------
// Every operator against the reference

/// `s + m`, `s - m`, `s * m` exist for each concrete element type only; this
/// bound names them for a generic test.
trait ScalarLhs<const R: usize, const C: usize>:
    Scalar
    + Add<Matrix<Self, R, C>, Output = Matrix<Self, R, C>>
    + Sub<Matrix<Self, R, C>, Output = Matrix<Self, R, C>>
    + Mul<Matrix<Self, R, C>, Output = Matrix<Self, R, C>>
    + for<'a> Add<&'a Matrix<Self, R, C>, Output = Matrix<Self, R, C>>
    + for<'a> Sub<&'a Matrix<Self, R, C>, Output = Matrix<Self, R, C>>
    + for<'a> Mul<&'a Matrix<Self, R, C>, Output = Matrix<Self, R, C>>
{
}

impl<T, const R: usize, const C: usize> ScalarLhs<R, C> for T where
    T: Scalar
        + Add<Matrix<T, R, C>, Output = Matrix<T, R, C>>
        + Sub<Matrix<T, R, C>, Output = Matrix<T, R, C>>
        + Mul<Matrix<T, R, C>, Output = Matrix<T, R, C>>
        + for<'a> Add<&'a Matrix<T, R, C>, Output = Matrix<T, R, C>>
        + for<'a> Sub<&'a Matrix<T, R, C>, Output = Matrix<T, R, C>>
        + for<'a> Mul<&'a Matrix<T, R, C>, Output = Matrix<T, R, C>>
{
}

/// Element-wise `+ -`, the four scalar forms on the right, the three on
/// the left, and the compound assignments, by value and by reference.
#[allow(clippy::op_ref)]
fn check_elementwise<T: ScalarLhs<R, C>, const R: usize, const C: usize>(rng: &mut Rng) {
    let name = format!("{} {R}x{C}", T::C_NAME);
    let a = rng.vec::<T>(R * C);
    let b = rng.vec::<T>(R * C);
    let s = rng.scalar::<T>();
    let d = rng.nonzero::<T>();
    let ma = Matrix::<T, R, C>::from_column_major(&a);
    let mb = Matrix::<T, R, C>::from_column_major(&b);

    let sum = elementwise(&a, &b, T::ref_add);
    let diff = elementwise(&a, &b, T::ref_sub);
    assert_same((ma + mb).as_slice(), &sum, &format!("{name}: a + b"));
    assert_same((&ma + &mb).as_slice(), &sum, &format!("{name}: &a + &b"));
    assert_same((ma + &mb).as_slice(), &sum, &format!("{name}: a + &b"));
    assert_same((&ma + mb).as_slice(), &sum, &format!("{name}: &a + b"));
    assert_same((ma - mb).as_slice(), &diff, &format!("{name}: a - b"));
    assert_same((&ma - &mb).as_slice(), &diff, &format!("{name}: &a - &b"));
    assert_same((ma - &mb).as_slice(), &diff, &format!("{name}: a - &b"));
    assert_same((&ma - mb).as_slice(), &diff, &format!("{name}: &a - b"));

    let plus_s = with_scalar(&a, s, T::ref_add);
    let minus_s = with_scalar(&a, s, T::ref_sub);
    let times_s = with_scalar(&a, s, T::ref_mul);
    let div_d = with_scalar(&a, d, T::ref_div);
    assert_same((ma + s).as_slice(), &plus_s, &format!("{name}: a + s"));
    assert_same((ma - s).as_slice(), &minus_s, &format!("{name}: a - s"));
    assert_same((ma * s).as_slice(), &times_s, &format!("{name}: a * s"));
    assert_same((ma / d).as_slice(), &div_d, &format!("{name}: a / s"));
    assert_same((&ma + s).as_slice(), &plus_s, &format!("{name}: &a + s"));
    assert_same((&ma - s).as_slice(), &minus_s, &format!("{name}: &a - s"));
    assert_same((&ma * s).as_slice(), &times_s, &format!("{name}: &a * s"));
    assert_same((&ma / d).as_slice(), &div_d, &format!("{name}: &a / s"));

    let s_plus = scalar_with(s, &a, T::ref_add);
    let s_minus = scalar_with(s, &a, T::ref_sub);
    let s_times = scalar_with(s, &a, T::ref_mul);
    assert_same((s + ma).as_slice(), &s_plus, &format!("{name}: s + a"));
    assert_same((s - ma).as_slice(), &s_minus, &format!("{name}: s - a"));
    assert_same((s * ma).as_slice(), &s_times, &format!("{name}: s * a"));
    assert_same((s + &ma).as_slice(), &s_plus, &format!("{name}: s + &a"));
    assert_same((s - &ma).as_slice(), &s_minus, &format!("{name}: s - &a"));
    assert_same((s * &ma).as_slice(), &s_times, &format!("{name}: s * &a"));

    let mut m = ma;
    m += mb;
    assert_same(m.as_slice(), &sum, &format!("{name}: a += b"));
    let mut m = ma;
    m += &mb;
    assert_same(m.as_slice(), &sum, &format!("{name}: a += &b"));
    let mut m = ma;
    m -= mb;
    assert_same(m.as_slice(), &diff, &format!("{name}: a -= b"));
    let mut m = ma;
    m -= &mb;
    assert_same(m.as_slice(), &diff, &format!("{name}: a -= &b"));
    let mut m = ma;
    m += s;
    assert_same(m.as_slice(), &plus_s, &format!("{name}: a += s"));
    let mut m = ma;
    m -= s;
    assert_same(m.as_slice(), &minus_s, &format!("{name}: a -= s"));
    let mut m = ma;
    m *= s;
    assert_same(m.as_slice(), &times_s, &format!("{name}: a *= s"));
    let mut m = ma;
    m /= d;
    assert_same(m.as_slice(), &div_d, &format!("{name}: a /= s"));
}

/// The product `Matrix<T, R, K> * Matrix<T, K, C>` in all reference forms.
#[allow(clippy::op_ref)]
fn check_product<T: Scalar, const R: usize, const K: usize, const C: usize>(rng: &mut Rng) {
    let name = format!("{} {R}x{K} * {K}x{C}", T::C_NAME);
    let a = rng.vec::<T>(R * K);
    let b = rng.vec::<T>(K * C);
    let ma = Matrix::<T, R, K>::from_column_major(&a);
    let mb = Matrix::<T, K, C>::from_column_major(&b);
    let expected = matmul(&a, &b, R, K, C);
    let p: Matrix<T, R, C> = ma * mb;
    assert_same(p.as_slice(), &expected, &name);
    assert_same((&ma * &mb).as_slice(), &expected, &format!("{name} (&, &)"));
    assert_same((ma * &mb).as_slice(), &expected, &format!("{name} (_, &)"));
    assert_same((&ma * mb).as_slice(), &expected, &format!("{name} (&, _)"));
}

/// `a.mul_to(&b, &mut out)` and `a.mad_to(&b, &c, &mut out)`: written by
/// the kernel into a matrix that held other values, every element of it.
fn check_product_to<T: Scalar, const R: usize, const K: usize, const C: usize>(rng: &mut Rng) {
    let name = format!("{} {R}x{K} * {K}x{C}", T::C_NAME);
    let a = rng.vec::<T>(R * K);
    let b = rng.vec::<T>(K * C);
    let c = rng.vec::<T>(R * C);
    let ma = Matrix::<T, R, K>::from_column_major(&a);
    let mb = Matrix::<T, K, C>::from_column_major(&b);
    let mc = Matrix::<T, R, C>::from_column_major(&c);
    let expected = matmul(&a, &b, R, K, C);
    let mut out = Matrix::<T, R, C>::from_column_major(&rng.vec::<T>(R * C));
    ma.mul_to(&mb, &mut out);
    assert_same(out.as_slice(), &expected, &format!("{name} mul_to"));
    // `a * b + c` is the product, then the sum, each rounded.
    let mad: Vec<T> = expected
        .iter()
        .zip(&c)
        .map(|(&p, &c)| p.ref_add(c))
        .collect();
    ma.mad_to(&mb, &mc, &mut out);
    assert_same(out.as_slice(), &mad, &format!("{name} mad_to"));
}

/// `mul_to` and `mad_to` on one shape of each path (a 4x4, inline or
/// through the boundary by type and CPU; an odd shape; a product called
/// out of line), for a type of each kernel family. The products are the
/// operators' (`check_product`); only where the result goes differs. (All
/// types and shapes would multiply this file's build time.)
#[test]
fn products_written_into_the_callers_matrix() {
    fn shapes<T: Scalar>(rng: &mut Rng) {
        check_product_to::<T, 4, 4, 4>(rng);
        check_product_to::<T, 13, 9, 7>(rng);
        check_product_to::<T, 16, 16, 16>(rng);
    }
    let mut rng = Rng::new(4242);
    for _ in 0..4 {
        shapes::<f32>(&mut rng);
        shapes::<f64>(&mut rng);
        shapes::<i32>(&mut rng);
        shapes::<u8>(&mut rng);
    }
}

/// `transpose()` and `transpose_to` in both layouts, and `to_layout`
/// between them, against the elements moved one by one. (In a debug build
/// whose matrix-core is optimised, the small shapes run on the line forms
/// and the others on the active backend's transpose with a run-time
/// shape: each backend's in `on_every_backend`.)
fn check_transpose<T: Scalar, const R: usize, const C: usize>(rng: &mut Rng) {
    let name = format!("{} {R}x{C}", T::C_NAME);
    let a = rng.vec::<T>(R * C);
    let m = Matrix::<T, R, C>::from_column_major(&a);
    let t = transpose(&a, R, C);
    assert_same(
        m.transpose().as_slice(),
        &t,
        &format!("{name}: transpose()"),
    );
    let mut out = Matrix::<T, C, R>::from_column_major(&rng.vec::<T>(R * C));
    m.transpose_to(&mut out);
    assert_same(out.as_slice(), &t, &format!("{name}: transpose_to"));

    // Row-major, `m`'s storage is its rows, the column-major transpose's.
    let rm = m.to_layout::<RowMajor>();
    assert_same(rm.as_slice(), &t, &format!("{name}: to_layout::<RowMajor>"));
    assert_same(
        rm.to_layout::<ColumnMajor>().as_slice(),
        &a,
        &format!("{name}: to_layout::<ColumnMajor>"),
    );
    // The row-major transpose's rows are `m`'s columns.
    let rt = rm.transpose();
    assert_same(rt.as_slice(), &a, &format!("{name}: row-major transpose()"));
    let mut out = Matrix::<T, C, R>::from_column_major(&rng.vec::<T>(R * C)).to_layout();
    rm.transpose_to(&mut out);
    assert_same(
        out.as_slice(),
        &a,
        &format!("{name}: row-major transpose_to"),
    );
}

/// Transposes move elements bit for bit: `i32` and `u32` ones as `f32`
/// bits, `i64` and `u64` ones as `f64` bits, on the backends' shuffles.
/// Values whose bits are NaNs as floats, signalling ones included, come
/// out unchanged, through each backend's 4x4 and 8x8 kernels, its tiles
/// and the edges, as do the float NaNs themselves.
#[test]
fn transposes_keep_every_bit_pattern() {
    /// Checks `R x C` transposes of the unsigned type `$u` (by value), the
    /// signed type `$i` (with `transpose_to`) and the float type `$f` (by
    /// value), all of one size, on elements made of `$bits`.
    macro_rules! check {
        ($u:ty, $i:ty, $f:ty; $bits:expr; $($r:literal x $c:literal),+) => {$({
            const R: usize = $r;
            const C: usize = $c;
            let bits = $bits;
            let a: Vec<$u> = (0..R * C).map(|i| bits[i % bits.len()] ^ i as $u).collect();
            let t = transpose(&a, R, C);
            let m = Matrix::<$u, R, C>::from_column_major(&a);
            assert_eq!(m.transpose().as_slice(), &t[..], "{} {R}x{C}", stringify!($u));
            let signed: Vec<$i> = a.iter().map(|&x| x as $i).collect();
            let mut out = Matrix::<$i, C, R>::zero();
            Matrix::<$i, R, C>::from_column_major(&signed).transpose_to(&mut out);
            let out: Vec<$u> = out.as_slice().iter().map(|&x| x as $u).collect();
            assert_eq!(out, t, "{} {R}x{C}", stringify!($i));
            let floats: Vec<$f> = a.iter().map(|&x| <$f>::from_bits(x)).collect();
            let out = Matrix::<$f, R, C>::from_column_major(&floats).transpose();
            let out: Vec<$u> = out.as_slice().iter().map(|x| x.to_bits()).collect();
            assert_eq!(out, t, "{} {R}x{C}", stringify!($f));
        })+};
    }
    const BITS32: [u32; 8] = [
        0x7f80_0001, // a signalling NaN
        0xff80_0001, // a negative one
        0x7fc0_0000, // a quiet NaN
        0xffff_ffff,
        0x7fbf_ffff,
        0x8000_0000, // -0.0
        0x0000_0001, // the least subnormal
        0x7f80_0000, // infinity
    ];
    const BITS64: [u64; 8] = [
        0x7ff0_0000_0000_0001, // a signalling NaN
        0xfff0_0000_0000_0001, // a negative one
        0x7ff8_0000_0000_0000, // a quiet NaN
        0xffff_ffff_ffff_ffff,
        0x7ff7_ffff_ffff_ffff,
        0x8000_0000_0000_0000, // -0.0
        0x0000_0000_0000_0001, // the least subnormal
        0x7ff0_0000_0000_0000, // infinity
    ];
    check!(u32, i32, f32; BITS32; 4 x 4, 8 x 8, 13 x 9, 16 x 16, 24 x 40);
    check!(u64, i64, f64; BITS64; 4 x 4, 5 x 5, 8 x 8, 13 x 9, 16 x 16, 24 x 40);
}

/// `a *= b` with a square `b` keeps `a`'s type and equals `a * b`.
fn check_mul_assign<T: Scalar, const R: usize, const C: usize>(rng: &mut Rng) {
    let name = format!("{} {R}x{C} *= {C}x{C}", T::C_NAME);
    let a = rng.vec::<T>(R * C);
    let b = rng.vec::<T>(C * C);
    let expected = matmul(&a, &b, R, C, C);
    let mut m = Matrix::<T, R, C>::from_column_major(&a);
    let mb = Matrix::<T, C, C>::from_column_major(&b);
    m *= mb;
    assert_same(m.as_slice(), &expected, &name);
    let mut m = Matrix::<T, R, C>::from_column_major(&a);
    m *= &mb;
    assert_same(m.as_slice(), &expected, &format!("{name} (&)"));
}

/// Every operator on every shape of the brief, for one element type.
fn check_all_ops<T>(seed: u64)
where
    T: ScalarLhs<1, 5>
        + ScalarLhs<5, 1>
        + ScalarLhs<2, 3>
        + ScalarLhs<4, 4>
        + ScalarLhs<3, 5>
        + ScalarLhs<7, 7>
        + ScalarLhs<13, 9>
        + ScalarLhs<16, 16>,
{
    let mut rng = Rng::new(seed);
    for _ in 0..4 {
        check_elementwise::<T, 1, 5>(&mut rng);
        check_elementwise::<T, 5, 1>(&mut rng);
        // Small enough for the line forms to unroll whole (see
        // `check_transpose`).
        check_elementwise::<T, 2, 3>(&mut rng);
        check_elementwise::<T, 4, 4>(&mut rng);
        check_elementwise::<T, 3, 5>(&mut rng);
        check_elementwise::<T, 7, 7>(&mut rng);
        check_elementwise::<T, 13, 9>(&mut rng);
        check_elementwise::<T, 16, 16>(&mut rng);

        check_product::<T, 1, 1, 1>(&mut rng);
        check_product::<T, 1, 5, 1>(&mut rng);
        check_product::<T, 5, 1, 5>(&mut rng);
        check_product::<T, 1, 5, 3>(&mut rng);
        check_product::<T, 5, 3, 1>(&mut rng);
        check_product::<T, 3, 5, 2>(&mut rng);
        // The 4x4x4 product has kernels of its own, run inline on the
        // build's baseline or behind the active backend's boundary by type
        // and CPU; 8x8x8 has eight-row columns.
        check_product::<T, 4, 4, 4>(&mut rng);
        check_product::<T, 8, 8, 8>(&mut rng);
        check_product::<T, 7, 7, 7>(&mut rng);
        check_product::<T, 13, 9, 13>(&mut rng);
        check_product::<T, 9, 13, 9>(&mut rng);
        check_product::<T, 16, 16, 16>(&mut rng);
        check_product::<T, 2, 17, 3>(&mut rng);

        check_transpose::<T, 1, 5>(&mut rng);
        check_transpose::<T, 5, 1>(&mut rng);
        check_transpose::<T, 2, 3>(&mut rng);
        check_transpose::<T, 4, 4>(&mut rng);
        check_transpose::<T, 8, 8>(&mut rng);
        check_transpose::<T, 13, 9>(&mut rng);
        // Whole 16x16 tiles (AVX-512's for 32-bit elements), tiles with a
        // ragged edge on either side, and shapes wider than tall.
        check_transpose::<T, 16, 16>(&mut rng);
        check_transpose::<T, 32, 17>(&mut rng);
        check_transpose::<T, 9, 40>(&mut rng);
        check_transpose::<T, 24, 40>(&mut rng);

        check_mul_assign::<T, 1, 5>(&mut rng);
        check_mul_assign::<T, 7, 7>(&mut rng);
        check_mul_assign::<T, 13, 9>(&mut rng);
        check_mul_assign::<T, 16, 16>(&mut rng);
    }
}

macro_rules! ops_tests {
    ($($name:ident: $t:ty),* $(,)?) => {$(
        #[test]
        fn $name() {
            check_all_ops::<$t>(stringify!($name).len() as u64 * 7919);
        }
    )*};
}

ops_tests!(
    ops_i8: i8,
    ops_i16: i16,
    ops_i32: i32,
    ops_i64: i64,
    ops_u8: u8,
    ops_u16: u16,
    ops_u32: u32,
    ops_u64: u64,
    ops_f32: f32,
    ops_f64: f64,
);

// ---------------------------------------------------------------------------
// Clang's runtime results (catalog section H), outside the macro

#[test]
fn spec_examples() {
    // H2: f2x3(10r+c) * f3x2(r+2c+1)
    let a = Matrix::<f32, 2, 3>::from_fn(|r, c| (10 * r + c) as f32);
    let b = Matrix::<f32, 3, 2>::from_fn(|r, c| (r + 2 * c + 1) as f32);
    assert_eq!((a * b).to_rows(), [[8.0, 14.0], [68.0, 134.0]]);
    // H6
    let m = Matrix::<f32, 2, 2>::from_rows([[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!((m + 1.0).to_rows(), [[2.0, 3.0], [4.0, 5.0]]);
    assert_eq!((10.0 - m).to_rows(), [[9.0, 8.0], [7.0, 6.0]]);
    assert_eq!((m / 2.0).to_rows(), [[0.5, 1.0], [1.5, 2.0]]);
    assert_eq!((m * 0.5).to_rows(), [[0.5, 1.0], [1.5, 2.0]]);
    // H8: integer division truncates toward zero
    let i = Matrix::<i32, 2, 2>::from_rows([[1, -1], [7, -7]]);
    assert_eq!((i / 2).to_rows(), [[0, 0], [3, -3]]);
}

// ---------------------------------------------------------------------------
// Integer wrapping

#[test]
fn integer_addition_wraps() {
    let a = Matrix::<u8, 1, 1>::splat(200);
    assert_eq!((a + 100)[(0, 0)], 44);
    assert_eq!((a + Matrix::splat(100))[(0, 0)], 44);
    let m = Matrix::<i32, 1, 2>::from_rows([[i32::MAX, i32::MIN]]);
    // H14
    assert_eq!(
        (m + Matrix::from_rows([[1, -1]])).to_rows(),
        [[i32::MIN, i32::MAX]]
    );
    assert_eq!((m * 2).to_rows(), [[-2, 0]]);
    assert_eq!((m - 1).to_rows(), [[i32::MAX - 1, i32::MAX]]);
    assert_eq!((0u32 - Matrix::<u32, 1, 1>::splat(1))[(0, 0)], u32::MAX);
    let mut c = m;
    c += 1;
    c -= Matrix::splat(2);
    assert_eq!(c.to_rows(), [[i32::MAX - 1, i32::MAX]]);
}

#[test]
fn integer_product_wraps() {
    // H12: unsigned char [[200, 100], [255, 0]]
    let u = Matrix::<u8, 2, 2>::from_rows([[200, 100], [255, 0]]);
    assert_eq!((u + u).to_rows(), [[144, 200], [254, 0]]);
    assert_eq!((u * u).to_rows(), [[220, 32], [56, 156]]);
    // H14: [INT_MAX, 1] * [1; 1]
    let a = Matrix::<i32, 1, 2>::from_rows([[i32::MAX, 1]]);
    let b = Matrix::<i32, 2, 1>::splat(1);
    assert_eq!((a * b)[(0, 0)], i32::MIN);
    // The products wrap too.
    let big = Matrix::<i64, 1, 1>::splat(i64::MAX);
    assert_eq!((big * big)[(0, 0)], 1);
}

#[test]
fn integer_division_wraps_at_min_over_minus_one() {
    let m = Matrix::<i8, 1, 2>::from_rows([[i8::MIN, 5]]);
    assert_eq!((m / -1).to_rows(), [[i8::MIN, -5]]);
}

#[test]
#[should_panic(expected = "divide by zero")]
fn integer_division_by_zero_panics() {
    let _ = Matrix::<i32, 2, 2>::splat(1) / 0;
}

#[test]
#[should_panic(expected = "divide by zero")]
fn integer_division_assign_by_zero_panics() {
    let mut m = Matrix::<u16, 3, 1>::splat(1);
    m /= 0;
}

#[test]
fn float_division_by_zero_is_ieee() {
    let m = Matrix::<f64, 1, 3>::from_rows([[1.0, -1.0, 0.0]]) / 0.0;
    assert_eq!(m[(0, 0)], f64::INFINITY);
    assert_eq!(m[(0, 1)], f64::NEG_INFINITY);
    assert!(m[(0, 2)].is_nan());
}

// ---------------------------------------------------------------------------
// Summation order of the product

#[test]
fn product_of_negative_zero_is_negative_zero() {
    // H15: the sum starts at the first product, not at +0.0.
    let p = Matrix::<f32, 1, 1>::splat(-0.0) * Matrix::<f32, 1, 1>::splat(1.0);
    assert_eq!(p[(0, 0)].to_bits(), (-0.0f32).to_bits());
    let p = Matrix::<f64, 1, 1>::splat(-0.0) * Matrix::<f64, 1, 1>::splat(1.0);
    assert_eq!(p[(0, 0)].to_bits(), (-0.0f64).to_bits());
    // and in a longer sum of negative zeros
    let p = Matrix::<f64, 1, 3>::splat(-0.0) * Matrix::<f64, 3, 1>::splat(2.0);
    assert_eq!(p[(0, 0)].to_bits(), (-0.0f64).to_bits());
}

#[test]
fn product_sums_in_k_order() {
    // H16: (1e20 + 1) - 1e20 == 0, left to right.
    let a = Matrix::<f64, 1, 3>::from_rows([[1e20, 1.0, -1e20]]);
    let ones = Matrix::<f64, 3, 1>::splat(1.0);
    assert_eq!((a * ones)[(0, 0)], 0.0);
    let a = Matrix::<f32, 1, 3>::from_rows([[1e20, 1.0, -1e20]]);
    assert_eq!((a * Matrix::<f32, 3, 1>::splat(1.0))[(0, 0)], 0.0);
    // Reversing the order would give 1.
    let a = Matrix::<f64, 1, 3>::from_rows([[1e20, -1e20, 1.0]]);
    assert_eq!((a * ones)[(0, 0)], 1.0);
}

#[test]
fn product_is_not_fused() {
    // H17: x = 1 + 2^-12; [1, x] * [-(1 + 2^-11); x]. x*x = 1 + 2^-11 + 2^-24
    // rounds to 1 + 2^-11 in f32, so the unfused sum is exactly 0; an FMA
    // would keep the 2^-24.
    let x = 1.0f32 + 2f32.powi(-12);
    let y = -(1.0f32 + 2f32.powi(-11));
    let a = Matrix::<f32, 1, 2>::from_rows([[1.0, x]]);
    let b = Matrix::<f32, 2, 1>::from_rows([[y], [x]]);
    assert_eq!((a * b)[(0, 0)], 0.0);
    // The case is sensitive: a fused multiply-add gives 2^-24.
    assert_eq!(x.mul_add(x, y), 2f32.powi(-24));
    // The same rows inside a bigger product, on every row and column.
    let a = Matrix::<f32, 8, 2>::from_fn(|_, c| if c == 0 { 1.0 } else { x });
    let b = Matrix::<f32, 2, 8>::from_fn(|r, _| if r == 0 { y } else { x });
    assert_eq!(a * b, Matrix::zero());
}

#[test]
fn product_with_empty_inner_dimension_is_zero() {
    let a = Matrix::<f32, 3, 0>::zero();
    let b = Matrix::<f32, 0, 2>::zero();
    assert_eq!(a * b, Matrix::<f32, 3, 2>::zero());
    let mut out = Matrix::splat(f32::NAN);
    a.mul_to(&b, &mut out);
    assert_eq!(out, Matrix::zero());
    let c = Matrix::splat(2.5);
    a.mad_to(&b, &c, &mut out);
    assert_eq!(out, c);
}

// ---------------------------------------------------------------------------
// Matrices viewed in place in slices

#[test]
fn slice_views_read_and_write_the_slice_in_memory_order() {
    use matrix_core::RowMajor;
    let mut rng = Rng::new(0x0f1e_77ed);
    let memory = rng.vec::<f32>(2 * 48);
    let (a, b) = memory.split_at(48);
    // Column-major 6x8 by 8x6 (stored 48 elements each), read where it is.
    let (x, y) = (
        Matrix::<f32, 6, 8>::ref_from_slice(a),
        Matrix::<f32, 8, 6>::ref_from_slice(&b[..48]),
    );
    assert_eq!(x.as_slice().as_ptr(), a.as_ptr(), "a view, not a copy");
    assert_same(
        (x * y).as_slice(),
        &matmul(a, &b[..48], 6, 8, 6),
        "views multiplied",
    );
    // Row-major: the slice holds rows.
    let r = Matrix::<f32, 6, 8, RowMajor>::ref_from_slice(a);
    assert_eq!(r[(1, 0)], a[8]);
    // Written in place: the product lands in the slice, around it nothing
    // changes.
    let mut out = [-1.0f32; 40];
    x.mul_to(y, Matrix::<f32, 6, 6>::mut_from_slice(&mut out[2..38]));
    assert_same(&out[2..38], &matmul(a, &b[..48], 6, 8, 6), "mul_to a view");
    assert_eq!((&out[..2], &out[38..]), (&[-1.0; 2][..], &[-1.0; 2][..]));
    let mut memory = [0; 4];
    Matrix::<i32, 2, 2>::mut_from_slice(&mut memory)[(0, 1)] = 7;
    assert_eq!(memory, [0, 0, 7, 0]);
}

#[test]
#[should_panic(
    expected = "Matrix::ref_from_slice: a 4x4 matrix needs 16 elements, but the slice has 17"
)]
fn a_view_of_a_slice_of_another_length_panics() {
    let _ = Matrix::<f64, 4, 4>::ref_from_slice(&[0.0; 17]);
}

#[test]
#[should_panic(
    expected = "Matrix::mut_from_slice: a 2x3 matrix needs 6 elements, but the slice has 5"
)]
fn a_mutable_view_of_a_short_slice_panics() {
    let _ = Matrix::<u8, 2, 3>::mut_from_slice(&mut [0; 5]);
}
