//! Integer matrix products against the scalar reference, for every integer
//! element type: `i32` on its own kernel, `u32` on it too (its bits read
//! as `i32`) and `i8 u8 i16 u16` through widening, where that pays, and on
//! the in-order loop elsewhere, `i64 u64` on the loop. Whichever path a shape takes, the
//! result must be the wrapping product in the element type. (The widened
//! path itself, on every shape whether it pays or not, and `u32` on the
//! `i32` kernel on every small shape, are tested in `matrix-core`'s unit
//! tests on every backend.)
//!
//! Inputs are random over the whole range (so every sum wraps) and built
//! from edge values (`MIN`, `MAX`, `-1`, `0`, `1`), through the `Matrix`
//! operators (`&a * &b`, `a * b + c`) and through `matrix!` kernels
//! declared with C spellings of the element types, on every backend this
//! CPU supports.

use matrix_core::{Matrix, matrix};
use matrix_tests::{Rng, Scalar, assert_same, elementwise, matmul};

#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

/// The reference `a * b + c`: the product in the contract's order, then the
/// addend, element by element.
fn madd_reference<T: Scalar>(
    a: &[T],
    b: &[T],
    c: &[T],
    (m, k, n): (usize, usize, usize),
) -> Vec<T> {
    elementwise(&matmul(a, b, m, k, n), c, T::ref_add)
}

/// `&a * &b`, `a * b`, `a * b + c` and `c + a * b` on `Matrix` against the
/// reference.
#[allow(clippy::op_ref)]
fn check<T: Scalar, const M: usize, const K: usize, const N: usize>(
    a: &Matrix<T, M, K>,
    b: &Matrix<T, K, N>,
    c: &Matrix<T, M, N>,
    what: &str,
) {
    let shape = (M, K, N);
    let name = |op: &str| format!("{what}: {M}x{K} {op} {K}x{N} {}", T::C_NAME);
    let product = matmul(a.as_slice(), b.as_slice(), M, K, N);
    assert_same((a * b).as_slice(), &product, &name("&a * &b"));
    assert_same((*a * *b).as_slice(), &product, &name("a * b"));
    let sum = madd_reference(a.as_slice(), b.as_slice(), c.as_slice(), shape);
    assert_same((*a * *b + *c).as_slice(), &sum, &name("a * b + c"));
    assert_same((*c + a * b).as_slice(), &sum, &name("c + a * b"));
}

/// Random matrices over the whole range of `T`.
fn random<T: Scalar, const R: usize, const C: usize>(rng: &mut Rng) -> Matrix<T, R, C> {
    Matrix::from_column_major(&rng.vec::<T>(R * C))
}

/// A matrix of values drawn from `edges`.
fn from_edges<T: Scalar, const R: usize, const C: usize>(
    rng: &mut Rng,
    edges: &[T],
) -> Matrix<T, R, C> {
    let v: Vec<T> = (0..R * C).map(|_| edges[rng.below(edges.len())]).collect();
    Matrix::from_column_major(&v)
}

/// One shape: random operands, operands mixing the edge values, and each
/// edge value alone (a matrix of `MAX` squared, of `MIN` times `-1`, ...).
fn shape<T: Scalar, const M: usize, const K: usize, const N: usize>(rng: &mut Rng, edges: &[T]) {
    for _ in 0..6 {
        let (a, b, c) = (random::<T, M, K>(rng), random::<T, K, N>(rng), random(rng));
        check(&a, &b, &c, "random");
    }
    for _ in 0..6 {
        let a = from_edges::<T, M, K>(rng, edges);
        let b = from_edges::<T, K, N>(rng, edges);
        let c = from_edges(rng, edges);
        check(&a, &b, &c, "edge values");
    }
    for &x in edges {
        for &y in edges {
            let (a, b) = (Matrix::<T, M, K>::splat(x), Matrix::<T, K, N>::splat(y));
            check(&a, &b, &Matrix::splat(x), &format!("splat {x} * {y}"));
        }
    }
}

/// Every shape the brief names, one above the stack buffers' limit (the
/// widened path's heap buffers), and some thin ones.
fn all_shapes<T: Scalar>(seed: u64, edges: &[T]) {
    let rng = &mut Rng::new(seed);
    shape::<T, 1, 1, 1>(rng, edges);
    shape::<T, 3, 5, 2>(rng, edges);
    shape::<T, 4, 4, 4>(rng, edges);
    shape::<T, 7, 7, 7>(rng, edges);
    shape::<T, 8, 8, 8>(rng, edges);
    shape::<T, 13, 9, 13>(rng, edges);
    shape::<T, 16, 16, 16>(rng, edges);
    shape::<T, 17, 3, 17>(rng, edges);
    shape::<T, 1, 16, 1>(rng, edges);
    shape::<T, 16, 1, 16>(rng, edges);
    shape::<T, 2, 2, 2>(rng, edges);
    shape::<T, 40, 33, 40>(rng, edges);
}

macro_rules! each_type {
    ($($name:ident: $t:ty,)*) => {$(
        #[test]
        fn $name() {
            let edges = [<$t>::MIN, <$t>::MAX, -1i64 as $t, 0, 1];
            all_shapes::<$t>(0x1e9e_0000 + <$t>::BITS as u64 + u64::from(<$t>::MIN == 0), &edges);
        }
    )*};
}

each_type! {
    i8_products: i8,
    u8_products: u8,
    i16_products: i16,
    u16_products: u16,
    i32_products: i32,
    u32_products: u32,
    i64_products: i64,
    u64_products: u64,
}

/// A product that wraps in `u8` but not in `i32`: the narrowing is what
/// makes it right.
#[test]
#[allow(clippy::op_ref)]
fn narrow_sums_wrap_in_the_element_type() {
    let a = Matrix::<u8, 2, 2>::splat(200);
    let b = Matrix::<u8, 2, 2>::splat(3);
    // 200 * 3 + 200 * 3 = 1200 = 4 * 256 + 176
    assert_eq!(&a * &b, Matrix::splat(176));
    let m = Matrix::<i16, 4, 4>::splat(i16::MIN);
    // MIN * MIN = 2^30, four of them = 2^32 = 0 (mod 2^16)
    assert_eq!(&m * &m, Matrix::zero());
    let x = Matrix::<u32, 4, 4>::splat(u32::MAX);
    // (-1) * (-1) * 4 = 4 (mod 2^32)
    assert_eq!(&x * &x, Matrix::splat(4));
    assert_eq!(x * x + x, Matrix::splat(3));
}

mod kernels {
    use super::*;

    matrix! {
        typedef int8_t c4x4 __attribute__((matrix_type(4, 4)));
        typedef signed char sc3x5 __attribute__((matrix_type(3, 5)));
        typedef char c5x2 __attribute__((matrix_type(5, 2)));
        typedef unsigned char uc13x9 __attribute__((matrix_type(13, 9)));
        typedef uint8_t uc9x13 __attribute__((matrix_type(9, 13)));
        typedef short s8x8 __attribute__((matrix_type(8, 8)));
        typedef unsigned short us16 __attribute__((matrix_type(16, 16)));
        typedef uint16_t us17x3 __attribute__((matrix_type(17, 3)));
        typedef uint16_t us3x17 __attribute__((matrix_type(3, 17)));
        typedef uint32_t u7x7 __attribute__((matrix_type(7, 7)));
        typedef unsigned int u16x16 __attribute__((matrix_type(16, 16)));
        typedef long l8x8 __attribute__((matrix_type(8, 8)));
        typedef unsigned long long ull4x4 __attribute__((matrix_type(4, 4)));

        pub fn mul_i8(a: c4x4, b: c4x4) -> c4x4 { a * b }
        pub fn madd_i8(a: c4x4, b: c4x4, c: c4x4) -> c4x4 { a * b + c }
        pub fn mul_i8_3x5_5x2(a: sc3x5, b: c5x2) -> Matrix<i8, 3, 2> { a * b }
        pub fn mul_u8(a: uc13x9, b: uc9x13) -> Matrix<u8, 13, 13> {
            __builtin_matrix_multiply(a, b)
        }
        pub fn madd_i16(a: s8x8, b: s8x8, c: s8x8) -> s8x8 { c + a * b }
        pub fn madd_u16(a: us16, b: us16, c: us16) -> us16 { a * b + c }
        pub fn mul_u16_thin(a: us17x3, b: us3x17) -> Matrix<u16, 17, 17> { a * b }
        pub fn compound_u32(a: u7x7, b: u7x7) -> u7x7 {
            let mut r = a;
            r *= b;
            r
        }
        #[fp_contract(fast)]
        pub fn madd_u32_fast(a: u16x16, b: u16x16, c: u16x16) -> u16x16 { a * b + c }
        pub fn mul_i64(a: l8x8, b: l8x8) -> l8x8 { a * b }
        pub fn madd_u64(a: ull4x4, b: ull4x4, c: ull4x4) -> ull4x4 { a * b + c }
    }

    /// Random operands in the first rounds, edge values after.
    fn operand<T: Scalar, const R: usize, const C: usize>(
        rng: &mut Rng,
        round: usize,
        edges: &[T],
    ) -> Matrix<T, R, C> {
        if round < 4 {
            random(rng)
        } else {
            from_edges(rng, edges)
        }
    }

    macro_rules! edges {
        ($t:ty) => {
            [<$t>::MIN, <$t>::MAX, -1i64 as $t, 0, 1]
        };
    }

    #[test]
    fn kernels_equal_the_reference() {
        let rng = &mut Rng::new(0x6b65_726e);
        for round in 0..8 {
            let e = edges!(i8);
            let (a, b, c): (c4x4, c4x4, c4x4) = (
                operand(rng, round, &e),
                operand(rng, round, &e),
                operand(rng, round, &e),
            );
            let p = matmul(a.as_slice(), b.as_slice(), 4, 4, 4);
            assert_same(mul_i8(a, b).as_slice(), &p, "int8_t 4x4 a * b");
            let s = madd_reference(a.as_slice(), b.as_slice(), c.as_slice(), (4, 4, 4));
            assert_same(madd_i8(a, b, c).as_slice(), &s, "int8_t 4x4 a * b + c");
            let (a, b): (sc3x5, c5x2) = (operand(rng, round, &e), operand(rng, round, &e));
            let p = matmul(a.as_slice(), b.as_slice(), 3, 5, 2);
            assert_same(
                mul_i8_3x5_5x2(a, b).as_slice(),
                &p,
                "signed char 3x5 * char 5x2",
            );

            let e = edges!(u8);
            let (a, b): (uc13x9, uc9x13) = (operand(rng, round, &e), operand(rng, round, &e));
            let p = matmul(a.as_slice(), b.as_slice(), 13, 9, 13);
            assert_same(mul_u8(a, b).as_slice(), &p, "unsigned char 13x9 * 9x13");

            let e = edges!(i16);
            let (a, b, c): (s8x8, s8x8, s8x8) = (
                operand(rng, round, &e),
                operand(rng, round, &e),
                operand(rng, round, &e),
            );
            let s = madd_reference(a.as_slice(), b.as_slice(), c.as_slice(), (8, 8, 8));
            assert_same(madd_i16(a, b, c).as_slice(), &s, "short 8x8 c + a * b");

            let e = edges!(u16);
            let (a, b, c): (us16, us16, us16) = (
                operand(rng, round, &e),
                operand(rng, round, &e),
                operand(rng, round, &e),
            );
            let s = madd_reference(a.as_slice(), b.as_slice(), c.as_slice(), (16, 16, 16));
            assert_same(
                madd_u16(a, b, c).as_slice(),
                &s,
                "unsigned short 16x16 a * b + c",
            );
            let (a, b): (us17x3, us3x17) = (operand(rng, round, &e), operand(rng, round, &e));
            let p = matmul(a.as_slice(), b.as_slice(), 17, 3, 17);
            assert_same(mul_u16_thin(a, b).as_slice(), &p, "uint16_t 17x3 * 3x17");

            let e = edges!(u32);
            let (a, b): (u7x7, u7x7) = (operand(rng, round, &e), operand(rng, round, &e));
            let p = matmul(a.as_slice(), b.as_slice(), 7, 7, 7);
            assert_same(compound_u32(a, b).as_slice(), &p, "uint32_t 7x7 *=");
            let (a, b, c): (u16x16, u16x16, u16x16) = (
                operand(rng, round, &e),
                operand(rng, round, &e),
                operand(rng, round, &e),
            );
            let s = madd_reference(a.as_slice(), b.as_slice(), c.as_slice(), (16, 16, 16));
            assert_same(
                madd_u32_fast(a, b, c).as_slice(),
                &s,
                "unsigned int 16x16 fast a * b + c",
            );

            let e = edges!(i64);
            let (a, b): (l8x8, l8x8) = (operand(rng, round, &e), operand(rng, round, &e));
            let p = matmul(a.as_slice(), b.as_slice(), 8, 8, 8);
            assert_same(mul_i64(a, b).as_slice(), &p, "long 8x8 a * b");

            let e = edges!(u64);
            let (a, b, c): (ull4x4, ull4x4, ull4x4) = (
                operand(rng, round, &e),
                operand(rng, round, &e),
                operand(rng, round, &e),
            );
            let s = madd_reference(a.as_slice(), b.as_slice(), c.as_slice(), (4, 4, 4));
            assert_same(
                madd_u64(a, b, c).as_slice(),
                &s,
                "unsigned long long 4x4 a * b + c",
            );
        }
    }
}
