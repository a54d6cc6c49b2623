//! Properties of the `matrix!` kernels, for every element type, over a menu
//! of shapes up to 16x16 (shapes are compile-time in the DSL) and values drawn
//! by proptest: each operation equals the scalar reference, transpose is an
//! involution, load after store is the identity for any stride, and casts
//! equal element-wise `as`.

use matrix_tests::{Scalar, assert_same, elementwise, load, matmul, store, transpose, with_scalar};
use proptest::prelude::*;

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// `len` values of `T` drawn from proptest's random bits.
fn values<T: Scalar>(len: usize) -> impl Strategy<Value = Vec<T>> {
    prop::collection::vec(any::<u64>(), len)
        .prop_map(|bits| bits.into_iter().map(T::from_bits64).collect())
}

macro_rules! kernel_props {
    ($($module:ident: $t:ident,)*) => {$(
        mod $module {
            use super::*;
            use matrix_core::{Matrix, matrix};

            matrix! {
                typedef $t m1x16 __attribute__((matrix_type(1, 16)));
                typedef $t m16x1 __attribute__((matrix_type(16, 1)));
                typedef $t m5x3 __attribute__((matrix_type(5, 3)));
                typedef $t m3x7 __attribute__((matrix_type(3, 7)));
                typedef $t m16x16 __attribute__((matrix_type(16, 16)));
                typedef $t m11x6 __attribute__((matrix_type(11, 6)));
                typedef f64 d11x6 __attribute__((matrix_type(11, 6)));
                typedef i16 s11x6 __attribute__((matrix_type(11, 6)));

                fn outer(a: m16x1, b: m1x16) -> m16x16 { a * b }
                fn inner(a: m1x16, b: m16x1) -> Matrix<$t, 1, 1> { a * b }
                fn odd(a: m5x3, b: m3x7) -> Matrix<$t, 5, 7> { a * b }
                fn madd(a: m16x16, b: m16x16, c: m16x16) -> m16x16 { c + a * b }
                fn sums(a: m11x6, b: m11x6, s: $t) -> m11x6 { (a + b) * s - a }
                fn twice_transposed(a: m11x6) -> m11x6 {
                    __builtin_matrix_transpose(__builtin_matrix_transpose(a))
                }
                fn transposed(a: m11x6) -> Matrix<$t, 6, 11> { __builtin_matrix_transpose(a) }
                fn store_load(a: m11x6, buf: &mut [$t], stride: usize) -> m11x6 {
                    __builtin_matrix_column_major_store(a, buf, stride);
                    __builtin_matrix_column_major_load(buf, 11, 6, stride)
                }
                fn to_f64(a: m11x6) -> d11x6 { a as d11x6 }
                fn to_i16(a: m11x6) -> s11x6 { (s11x6) a }
            }

            proptest! {
                #![proptest_config(config())]

                #[test]
                fn products_equal_the_reference(a in values::<$t>(16), b in values::<$t>(16), c in values::<$t>(256), d in values::<$t>(256), e in values::<$t>(15), f in values::<$t>(21)) {
                    let (col, row) = (m16x1::from_column_major(&a), m1x16::from_column_major(&b));
                    assert_same(outer(col, row).as_slice(), &matmul(&a, &b, 16, 1, 16), "16x1 * 1x16");
                    assert_same(inner(row, col).as_slice(), &matmul(&b, &a, 1, 16, 1), "1x16 * 16x1");
                    let (p, q) = (m5x3::from_column_major(&e), m3x7::from_column_major(&f));
                    assert_same(odd(p, q).as_slice(), &matmul(&e, &f, 5, 3, 7), "5x3 * 3x7");
                    let (x, y, z) = (m16x16::from_column_major(&c), m16x16::from_column_major(&d), m16x16::from_column_major(&c));
                    let expected = elementwise(&c, &matmul(&c, &d, 16, 16, 16), <$t>::ref_add);
                    assert_same(madd(x, y, z).as_slice(), &expected, "c + a * b");
                }

                #[test]
                fn elementwise_and_scalar_operations_equal_the_reference(a in values::<$t>(66), b in values::<$t>(66), s in values::<$t>(1)) {
                    let (x, y) = (m11x6::from_column_major(&a), m11x6::from_column_major(&b));
                    let expected = elementwise(&with_scalar(&elementwise(&a, &b, <$t>::ref_add), s[0], <$t>::ref_mul), &a, <$t>::ref_sub);
                    assert_same(sums(x, y, s[0]).as_slice(), &expected, "(a + b) * s - a");
                }

                #[test]
                fn transpose_is_an_involution_and_equals_the_reference(a in values::<$t>(66)) {
                    let x = m11x6::from_column_major(&a);
                    prop_assert_eq!(twice_transposed(x), x);
                    assert_same(transposed(x).as_slice(), &transpose(&a, 11, 6), "transpose");
                }

                #[test]
                fn load_after_store_is_the_identity_for_any_stride(a in values::<$t>(66), extra in 0usize..9, fill in values::<$t>(1)) {
                    let stride = 11 + extra;
                    let x = m11x6::from_column_major(&a);
                    let mut buf = vec![fill[0]; 5 * stride + 11];
                    let mut expected = buf.clone();
                    prop_assert_eq!(store_load(x, &mut buf, stride), x);
                    store(&a, 11, 6, &mut expected, stride);
                    assert_same(&buf, &expected, "store leaves the gaps");
                    assert_same(&load(&buf, 11, 6, stride), &a, "reference load");
                }

                #[test]
                fn casts_equal_elementwise_as(a in values::<$t>(66)) {
                    let x = m11x6::from_column_major(&a);
                    for (w, v) in to_f64(x).as_slice().iter().zip(&a) {
                        prop_assert_eq!(w.to_bits(), (*v as f64).to_bits());
                    }
                    for (n, v) in to_i16(x).as_slice().iter().zip(&a) {
                        prop_assert_eq!(*n, *v as i16);
                    }
                }
            }
        }
    )*};
}

kernel_props! {
    i8_props: i8,
    i16_props: i16,
    i32_props: i32,
    i64_props: i64,
    u8_props: u8,
    u16_props: u16,
    u32_props: u32,
    u64_props: u64,
    f32_props: f32,
    f64_props: f64,
}
