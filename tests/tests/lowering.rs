//! The lowering's rewrites against the plain scalar reference, for every
//! element type: a transposed operand of a product (read in place on the
//! right where the kernel can, named the other way round in debug builds'
//! written-out products), element-wise chains fused into one pass (with
//! scalars, broadcasts, casts and compound assignment), and products on
//! both sides of the written-out limit (512 multiply-adds).
//!
//! `cargo test` runs the debug-build forms; `cargo test --release` (which
//! CI runs too) the SIMD kernels.

use matrix_tests::{Rng, Scalar, assert_same, elementwise, matmul, transpose, with_scalar};

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

macro_rules! lowering_suite {
    ($($module:ident: $t:ident,)*) => {$(
        mod $module {
            use super::*;
            use matrix_core::{matrix, Matrix};

            matrix! {
                typedef $t m4x4 __attribute__((matrix_type(4, 4)));
                typedef $t m3x5 __attribute__((matrix_type(3, 5)));
                typedef $t m2x5 __attribute__((matrix_type(2, 5)));
                typedef $t m5x3 __attribute__((matrix_type(5, 3)));
                typedef $t m13x9 __attribute__((matrix_type(13, 9)));
                typedef $t m11x9 __attribute__((matrix_type(11, 9)));
                typedef $t m9x13 __attribute__((matrix_type(9, 13)));
                typedef $t m16x16 __attribute__((matrix_type(16, 16)));
                typedef f64 d3x5 __attribute__((matrix_type(3, 5)));

                fn rhs_t_4x4(a: m4x4, b: m4x4) -> m4x4 { a * __builtin_matrix_transpose(b) }
                fn lhs_t_4x4(a: m4x4, b: m4x4) -> m4x4 { __builtin_matrix_transpose(a) * b }
                fn both_t_small(a: m5x3, b: m2x5) -> Matrix<$t, 3, 2> {
                    __builtin_matrix_transpose(a) * (__builtin_matrix_transpose(b))
                }
                fn rhs_t_small(a: m3x5, b: m2x5, c: Matrix<$t, 3, 2>) -> Matrix<$t, 3, 2> {
                    c + a * __builtin_matrix_transpose(b)
                }
                fn rhs_t_large(a: m13x9, b: m11x9) -> Matrix<$t, 13, 11> {
                    a * __builtin_matrix_transpose(b)
                }
                fn rhs_t_large_madd(a: m13x9, b: m11x9, c: Matrix<$t, 13, 11>) -> Matrix<$t, 13, 11> {
                    a * __builtin_matrix_transpose(b) + c
                }
                fn lhs_t_large(a: m9x13, b: m9x13) -> Matrix<$t, 13, 13> {
                    __builtin_matrix_transpose(a) * b
                }
                fn rhs_t_16(a: m16x16, b: m16x16, c: m16x16) -> m16x16 {
                    c + a * __builtin_matrix_transpose(b)
                }
                fn chain(a: m3x5, b: m3x5, c: m3x5, s: $t) -> m3x5 {
                    ((a + b * s) - c + (m3x5)s) * s
                }
                fn chain_cast(a: m3x5, b: m3x5) -> d3x5 { (d3x5)(a - b) + (d3x5)b }
                fn chain_compound(a: m16x16, b: m16x16, s: $t) -> m16x16 {
                    let mut r = a;
                    r += b * s - a;
                    r -= (m16x16)s;
                    r
                }
                fn chain_with_product(a: m4x4, b: m4x4, c: m4x4, s: $t) -> m4x4 {
                    s * (a * b) - c + a * s
                }
            }

            fn random<const R: usize, const C: usize>(rng: &mut Rng) -> Matrix<$t, R, C> {
                Matrix::from_column_major(&rng.vec::<$t>(R * C))
            }

            fn t<const R: usize, const C: usize>(m: &Matrix<$t, R, C>) -> Vec<$t> {
                transpose(m.as_slice(), R, C)
            }

            #[test]
            fn a_transposed_operand_equals_the_reference() {
                let mut rng = Rng::new(0x7a05_0000 + stringify!($t).len() as u64);
                for _ in 0..8 {
                    let (a, b): (m4x4, m4x4) = (random(&mut rng), random(&mut rng));
                    assert_same(rhs_t_4x4(a, b).as_slice(), &matmul(a.as_slice(), &t(&b), 4, 4, 4), "4x4 a * bT");
                    assert_same(lhs_t_4x4(a, b).as_slice(), &matmul(&t(&a), b.as_slice(), 4, 4, 4), "4x4 aT * b");

                    let (a, b): (m5x3, m2x5) = (random(&mut rng), random(&mut rng));
                    assert_same(both_t_small(a, b).as_slice(), &matmul(&t(&a), &t(&b), 3, 5, 2), "aT * bT");

                    let (a, b, c): (m3x5, m2x5, Matrix<$t, 3, 2>) = (random(&mut rng), random(&mut rng), random(&mut rng));
                    let expected = elementwise(c.as_slice(), &matmul(a.as_slice(), &t(&b), 3, 5, 2), <$t>::ref_add);
                    assert_same(rhs_t_small(a, b, c).as_slice(), &expected, "c + a * bT");

                    let (a, b, c): (m13x9, m11x9, Matrix<$t, 13, 11>) = (random(&mut rng), random(&mut rng), random(&mut rng));
                    let product = matmul(a.as_slice(), &t(&b), 13, 9, 11);
                    assert_same(rhs_t_large(a, b).as_slice(), &product, "13x9 * (11x9)T");
                    let expected = elementwise(&product, c.as_slice(), <$t>::ref_add);
                    assert_same(rhs_t_large_madd(a, b, c).as_slice(), &expected, "13x9 * (11x9)T + c");

                    let (a, b): (m9x13, m9x13) = (random(&mut rng), random(&mut rng));
                    assert_same(lhs_t_large(a, b).as_slice(), &matmul(&t(&a), b.as_slice(), 13, 9, 13), "(9x13)T * 9x13");

                    let (a, b, c): (m16x16, m16x16, m16x16) = (random(&mut rng), random(&mut rng), random(&mut rng));
                    let expected = elementwise(c.as_slice(), &matmul(a.as_slice(), &t(&b), 16, 16, 16), <$t>::ref_add);
                    assert_same(rhs_t_16(a, b, c).as_slice(), &expected, "c + 16x16 a * bT");
                }
            }

            #[test]
            fn a_fused_elementwise_chain_equals_the_reference() {
                let mut rng = Rng::new(0xc4a1_0000 + stringify!($t).len() as u64);
                for _ in 0..8 {
                    let (a, b, c): (m3x5, m3x5, m3x5) = (random(&mut rng), random(&mut rng), random(&mut rng));
                    let s: $t = rng.scalar();
                    let step = elementwise(a.as_slice(), &with_scalar(b.as_slice(), s, <$t>::ref_mul), <$t>::ref_add);
                    let step = elementwise(&step, c.as_slice(), <$t>::ref_sub);
                    let step = with_scalar(&step, s, <$t>::ref_add);
                    let expected = with_scalar(&step, s, <$t>::ref_mul);
                    assert_same(chain(a, b, c, s).as_slice(), &expected, "((a + b * s) - c + (m)s) * s");

                    let got = chain_cast(a, b);
                    for i in 0..15 {
                        let diff = <$t>::ref_sub(a.as_slice()[i], b.as_slice()[i]);
                        let expected = diff as f64 + b.as_slice()[i] as f64;
                        assert_eq!(got.as_slice()[i].to_bits(), expected.to_bits(), "(d)(a - b) + (d)b at {i}");
                    }

                    let (a, b): (m16x16, m16x16) = (random(&mut rng), random(&mut rng));
                    let inc = elementwise(&with_scalar(b.as_slice(), s, <$t>::ref_mul), a.as_slice(), <$t>::ref_sub);
                    let r = elementwise(a.as_slice(), &inc, <$t>::ref_add);
                    let expected = with_scalar(&r, s, <$t>::ref_sub);
                    assert_same(chain_compound(a, b, s).as_slice(), &expected, "r += b * s - a; r -= s");

                    let (a, b, c): (m4x4, m4x4, m4x4) = (random(&mut rng), random(&mut rng), random(&mut rng));
                    let p = matmul(a.as_slice(), b.as_slice(), 4, 4, 4);
                    let left = elementwise(&p.iter().map(|&x| <$t>::ref_mul(s, x)).collect::<Vec<_>>(), c.as_slice(), <$t>::ref_sub);
                    let expected = elementwise(&left, &with_scalar(a.as_slice(), s, <$t>::ref_mul), <$t>::ref_add);
                    assert_same(chain_with_product(a, b, c, s).as_slice(), &expected, "s * (a * b) - c + a * s");
                }
            }
        }
    )*};
}

lowering_suite! {
    i8_lowering: i8,
    i16_lowering: i16,
    i32_lowering: i32,
    i64_lowering: i64,
    u8_lowering: u8,
    u16_lowering: u16,
    u32_lowering: u32,
    u64_lowering: u64,
    f32_lowering: f32,
    f64_lowering: f64,
}
