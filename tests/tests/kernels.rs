//! Every operation of the `matrix!` DSL against the plain scalar reference in
//! `tests/support`, for every element type and the shapes 1xN, Nx1,
//! 3x5 * 5x2, 7x7, 13x9 * 9x13 and 16x16, on random inputs (integers over
//! their whole range, so wrapping is exercised).

use matrix_tests::{
    Rng, Scalar, assert_same, elementwise, load, matmul, scalar_with, store, transpose, with_scalar,
};

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

macro_rules! kernel_suite {
    ($($module:ident: $t:ident,)*) => {$(
        mod $module {
            use super::*;
            use matrix_core::{matrix, Matrix};

            matrix! {
                typedef $t m1x5 __attribute__((matrix_type(1, 5)));
                typedef $t m5x1 __attribute__((matrix_type(5, 1)));
                typedef $t m3x5 __attribute__((matrix_type(3, 5)));
                typedef $t m5x2 __attribute__((matrix_type(5, 2)));
                typedef $t m7x7 __attribute__((matrix_type(7, 7)));
                typedef $t m13x9 __attribute__((matrix_type(13, 9)));
                typedef $t m9x13 __attribute__((matrix_type(9, 13)));
                typedef $t m16x16 __attribute__((matrix_type(16, 16)));
                typedef f64 d7x7 __attribute__((matrix_type(7, 7)));
                typedef $t r3x5 __attribute__((matrix_type(3, 5, row_major)));
                typedef $t r5x2 __attribute__((matrix_type(5, 2, row_major)));
                typedef $t m8x8 __attribute__((matrix_type(8, 8)));
                typedef $t m17x16 __attribute__((matrix_type(17, 16)));

                fn add_1x5(a: m1x5, b: m1x5) -> m1x5 { a + b }
                fn sub_5x1(a: m5x1, b: m5x1) -> m5x1 { a - b }
                fn dot(a: m1x5, b: m5x1) -> Matrix<$t, 1, 1> { a * b }
                fn outer(a: m5x1, b: m1x5) -> Matrix<$t, 5, 5> { a * b }
                fn prod_3x5_5x2(a: m3x5, b: m5x2) -> Matrix<$t, 3, 2> { a * b }
                fn prod_7x7(a: m7x7, b: m7x7) -> m7x7 { a * b }
                fn prod_13x9_9x13(a: m13x9, b: m9x13) -> Matrix<$t, 13, 13> { a * b }
                fn madd_16x16(a: m16x16, b: m16x16, c: m16x16) -> m16x16 { a * b + c }
                fn with_scalars(a: m7x7, s: $t) -> m7x7 { (a * s + s - a) / s }
                fn scalar_first(a: m13x9, s: $t) -> m13x9 { s - a + s * a }
                // Chains written out in debug builds up to 64 elements (in
                // either layout), a loop above.
                fn chain_8x8(a: m8x8, b: m8x8, s: $t) -> m8x8 { (a - b) * s + a }
                fn chain_17x16(a: m17x16, b: m17x16, s: $t) -> m17x16 { (a - b) * s + a }
                fn chain_row_major(a: r3x5, b: r3x5, s: $t) -> r3x5 { (a - b) * s + a }
                fn transpose_13x9(a: m13x9) -> m9x13 { __builtin_matrix_transpose(a) }
                fn load_13x9(src: &[$t], stride: usize) -> m13x9 {
                    __builtin_matrix_column_major_load(src, 13, 9, stride)
                }
                fn store_3x5(m: m3x5, dst: &mut [$t], stride: usize) {
                    __builtin_matrix_column_major_store(m, dst, stride);
                }
                // Stored products, which the product's kernel writes into
                // the slice itself where the lines are dense: written out in
                // debug builds (3x5x2, 7x7x7), on the kernels above that.
                fn store_prod_3x5_5x2(a: m3x5, b: m5x2, dst: &mut [$t], stride: usize) {
                    __builtin_matrix_column_major_store(a * b, dst, stride);
                }
                fn store_madd_7x7(a: m7x7, b: m7x7, c: m7x7, dst: &mut [$t]) {
                    __builtin_matrix_column_major_store((c + a * b), dst);
                }
                fn store_madd_16x16(a: m16x16, b: m16x16, c: m16x16, dst: &mut [$t]) {
                    __builtin_matrix_column_major_store(a * b + c, dst, 16);
                }
                fn store_prod_13x9_9x13(a: m13x9, b: m9x13, dst: &mut [$t], stride: usize) {
                    __builtin_matrix_column_major_store(a * b, dst, stride);
                }
                fn store_prod_row_major(a: r3x5, b: r5x2, dst: &mut [$t], stride: usize) {
                    __builtin_matrix_row_major_store(a * b, dst, stride);
                }
                // Stored transposes, written into the slice by the
                // transpose's kernel where the lines are dense: written out
                // in debug builds up to 256 elements, on the kernels above.
                fn store_transpose_13x9(a: m13x9, dst: &mut [$t], stride: usize) {
                    __builtin_matrix_column_major_store(__builtin_matrix_transpose(a), dst, stride);
                }
                fn store_transpose_16x16(a: m16x16, dst: &mut [$t]) {
                    __builtin_matrix_column_major_store((__builtin_matrix_transpose(a)), dst, 16);
                }
                fn store_transpose_row_major(a: r3x5, dst: &mut [$t], stride: usize) {
                    __builtin_matrix_row_major_store(__builtin_matrix_transpose(a), dst, stride);
                }
                fn transpose_loaded(src: &[$t], dst: &mut [$t]) {
                    __builtin_matrix_column_major_store(
                        __builtin_matrix_transpose(__builtin_matrix_column_major_load(src, 16, 16)),
                        dst,
                    );
                }
                fn compound(a: m7x7, b: m7x7, s: $t) -> m7x7 {
                    let mut r = a;
                    r += b;
                    r -= a;
                    r *= b;
                    r *= s;
                    r
                }
                fn elements(a: m7x7, row: usize, col: i64, v: $t) -> m7x7 {
                    let mut m = a;
                    m[row][col] = v;
                    m[0][6] = m[row][col];
                    m
                }
                fn to_f64(a: m7x7) -> d7x7 { a as d7x7 }
                fn rfc(a: m7x7, b: m7x7, s: $t) -> m7x7 {
                    let p = __builtin_matrix_multiply(__builtin_matrix_add(a, b), __builtin_matrix_sub(a, b));
                    __builtin_matrix_insert(__builtin_matrix_scalar_multiply(p, s), 6, 0, __builtin_matrix_extract(a, 1, 2))
                }
            }

            fn random<const R: usize, const C: usize>(rng: &mut Rng) -> Matrix<$t, R, C> {
                Matrix::from_column_major(&rng.vec::<$t>(R * C))
            }

            #[test]
            fn elementwise_and_products_equal_the_reference() {
                let mut rng = Rng::new(0x5eed_0000 + stringify!($t).len() as u64);
                for _ in 0..8 {
                    let (a, b): (m1x5, m1x5) = (random(&mut rng), random(&mut rng));
                    assert_same(add_1x5(a, b).as_slice(), &elementwise(a.as_slice(), b.as_slice(), <$t>::ref_add), "1x5 +");
                    let (c, d): (m5x1, m5x1) = (random(&mut rng), random(&mut rng));
                    assert_same(sub_5x1(c, d).as_slice(), &elementwise(c.as_slice(), d.as_slice(), <$t>::ref_sub), "5x1 -");
                    assert_same(dot(a, c).as_slice(), &matmul(a.as_slice(), c.as_slice(), 1, 5, 1), "1x5 * 5x1");
                    assert_same(outer(c, a).as_slice(), &matmul(c.as_slice(), a.as_slice(), 5, 1, 5), "5x1 * 1x5");
                    let (e, f): (m3x5, m5x2) = (random(&mut rng), random(&mut rng));
                    assert_same(prod_3x5_5x2(e, f).as_slice(), &matmul(e.as_slice(), f.as_slice(), 3, 5, 2), "3x5 * 5x2");
                    let (g, h): (m7x7, m7x7) = (random(&mut rng), random(&mut rng));
                    assert_same(prod_7x7(g, h).as_slice(), &matmul(g.as_slice(), h.as_slice(), 7, 7, 7), "7x7 * 7x7");
                    let (i, j): (m13x9, m9x13) = (random(&mut rng), random(&mut rng));
                    assert_same(prod_13x9_9x13(i, j).as_slice(), &matmul(i.as_slice(), j.as_slice(), 13, 9, 13), "13x9 * 9x13");
                    let (k, l, m): (m16x16, m16x16, m16x16) = (random(&mut rng), random(&mut rng), random(&mut rng));
                    let expected = elementwise(&matmul(k.as_slice(), l.as_slice(), 16, 16, 16), m.as_slice(), <$t>::ref_add);
                    assert_same(madd_16x16(k, l, m).as_slice(), &expected, "16x16 a * b + c");
                }
            }

            #[test]
            fn scalar_operations_equal_the_reference() {
                let mut rng = Rng::new(0x5ca1_0000 + stringify!($t).len() as u64);
                for _ in 0..8 {
                    let a: m7x7 = random(&mut rng);
                    let s: $t = rng.nonzero();
                    let step = with_scalar(a.as_slice(), s, <$t>::ref_mul);
                    let step = with_scalar(&step, s, <$t>::ref_add);
                    let step = elementwise(&step, a.as_slice(), <$t>::ref_sub);
                    let expected = with_scalar(&step, s, <$t>::ref_div);
                    assert_same(with_scalars(a, s).as_slice(), &expected, "(a * s + s - a) / s");
                    let b: m13x9 = random(&mut rng);
                    let left = scalar_with(s, b.as_slice(), <$t>::ref_sub);
                    let right = scalar_with(s, b.as_slice(), <$t>::ref_mul);
                    assert_same(scalar_first(b, s).as_slice(), &elementwise(&left, &right, <$t>::ref_add), "s - a + s * a");
                }
            }

            #[test]
            fn chains_of_every_size_and_layout_equal_the_reference() {
                fn expected(a: &[$t], b: &[$t], s: $t) -> Vec<$t> {
                    let step = with_scalar(&elementwise(a, b, <$t>::ref_sub), s, <$t>::ref_mul);
                    elementwise(&step, a, <$t>::ref_add)
                }
                let mut rng = Rng::new(0xc4a1_0000 + stringify!($t).len() as u64);
                for _ in 0..8 {
                    let s: $t = rng.scalar();
                    let (a, b): (m8x8, m8x8) = (random(&mut rng), random(&mut rng));
                    assert_same(chain_8x8(a, b, s).as_slice(), &expected(a.as_slice(), b.as_slice(), s), "8x8 (a - b) * s + a");
                    let (a, b): (m17x16, m17x16) = (random(&mut rng), random(&mut rng));
                    assert_same(chain_17x16(a, b, s).as_slice(), &expected(a.as_slice(), b.as_slice(), s), "17x16 (a - b) * s + a");
                    // Row-major elements pair by memory position, as
                    // column-major ones do.
                    let (a, b): (m3x5, m3x5) = (random(&mut rng), random(&mut rng));
                    let (ar, br): (r3x5, r3x5) = (a.to_layout(), b.to_layout());
                    let got: m3x5 = chain_row_major(ar, br, s).to_layout();
                    assert_same(got.as_slice(), &expected(a.as_slice(), b.as_slice(), s), "row-major 3x5 (a - b) * s + a");
                }
            }

            #[test]
            fn transpose_load_store_equal_the_reference() {
                let mut rng = Rng::new(0x10ad_0000 + stringify!($t).len() as u64);
                let a: m13x9 = random(&mut rng);
                assert_same(transpose_13x9(a).as_slice(), &transpose(a.as_slice(), 13, 9), "transpose 13x9");
                for stride in [13, 14, 20] {
                    let src = rng.vec::<$t>(8 * stride + 13);
                    assert_same(load_13x9(&src, stride).as_slice(), &load(&src, 13, 9, stride), "load 13x9");
                    let m: m3x5 = random(&mut rng);
                    let dst0 = rng.vec::<$t>(4 * stride + 3);
                    let (mut got, mut expected) = (dst0.clone(), dst0);
                    store_3x5(m, &mut got, stride);
                    store(m.as_slice(), 3, 5, &mut expected, stride);
                    assert_same(&got, &expected, "store 3x5 leaves the gaps untouched");
                }
            }

            #[test]
            fn stored_products_equal_the_reference() {
                let mut rng = Rng::new(0x5707_0000 + stringify!($t).len() as u64);
                // Dense lines (the kernel writes the slice) and gaps between
                // them, which stay untouched.
                for stride in [3, 4, 9] {
                    let (a, b): (m3x5, m5x2) = (random(&mut rng), random(&mut rng));
                    let dst0 = rng.vec::<$t>(stride + 3 + 2);
                    let (mut got, mut expected) = (dst0.clone(), dst0);
                    store_prod_3x5_5x2(a, b, &mut got, stride);
                    store(&matmul(a.as_slice(), b.as_slice(), 3, 5, 2), 3, 2, &mut expected, stride);
                    assert_same(&got, &expected, "store(3x5 * 5x2)");

                    let row_major: (r3x5, r5x2) = (a.to_layout(), b.to_layout());
                    // Rows of 2: dense at stride 2.
                    let stride = stride - 1;
                    let dst0 = rng.vec::<$t>(2 * stride + 2 + 1);
                    let (mut got, mut expected) = (dst0.clone(), dst0);
                    store_prod_row_major(row_major.0, row_major.1, &mut got, stride);
                    let product = matmul(a.as_slice(), b.as_slice(), 3, 5, 2);
                    // Row-major lines are the transpose's columns.
                    store(&transpose(&product, 3, 2), 2, 3, &mut expected, stride);
                    assert_same(&got, &expected, "row-major store(3x5 * 5x2)");
                }
                for stride in [13, 15] {
                    let (a, b): (m13x9, m9x13) = (random(&mut rng), random(&mut rng));
                    let dst0 = rng.vec::<$t>(12 * stride + 13 + 4);
                    let (mut got, mut expected) = (dst0.clone(), dst0);
                    store_prod_13x9_9x13(a, b, &mut got, stride);
                    store(&matmul(a.as_slice(), b.as_slice(), 13, 9, 13), 13, 13, &mut expected, stride);
                    assert_same(&got, &expected, "store(13x9 * 9x13)");
                }
                let (a, b, c): (m7x7, m7x7, m7x7) = (random(&mut rng), random(&mut rng), random(&mut rng));
                let mut got = rng.vec::<$t>(49 + 3);
                let tail = got[49..].to_vec();
                store_madd_7x7(a, b, c, &mut got);
                let expected = elementwise(c.as_slice(), &matmul(a.as_slice(), b.as_slice(), 7, 7, 7), <$t>::ref_add);
                assert_same(&got[..49], &expected, "store(c + a * b) 7x7");
                assert_same(&got[49..], &tail, "store 7x7 leaves the rest untouched");
                let (a, b, c): (m16x16, m16x16, m16x16) = (random(&mut rng), random(&mut rng), random(&mut rng));
                let mut got = rng.vec::<$t>(256);
                store_madd_16x16(a, b, c, &mut got);
                let expected = elementwise(&matmul(a.as_slice(), b.as_slice(), 16, 16, 16), c.as_slice(), <$t>::ref_add);
                assert_same(&got, &expected, "store(a * b + c) 16x16");
            }

            #[test]
            fn stored_transposes_equal_the_reference() {
                let mut rng = Rng::new(0x7a05_0000 + stringify!($t).len() as u64);
                for stride in [9, 10, 14] {
                    let a: m13x9 = random(&mut rng);
                    let dst0 = rng.vec::<$t>(12 * stride + 9 + 3);
                    let (mut got, mut expected) = (dst0.clone(), dst0);
                    store_transpose_13x9(a, &mut got, stride);
                    store(&transpose(a.as_slice(), 13, 9), 9, 13, &mut expected, stride);
                    assert_same(&got, &expected, "store(transpose(13x9))");

                    // A 5x3 transpose stored row-major: rows of 3, dense at
                    // stride 3.
                    let b: r3x5 = random::<3, 5>(&mut rng).to_layout();
                    let stride = stride - 6;
                    let dst0 = rng.vec::<$t>(4 * stride + 3 + 2);
                    let (mut got, mut expected) = (dst0.clone(), dst0);
                    store_transpose_row_major(b, &mut got, stride);
                    // Row r of the 5x3 transpose is column r of `b`: the
                    // lines are `b`'s columns, the column-major storage of `b`.
                    let b_columns = b.to_layout::<matrix_core::ColumnMajor>();
                    store(b_columns.as_slice(), 3, 5, &mut expected, stride);
                    assert_same(&got, &expected, "row-major store(transpose(3x5))");
                }
                let a: m16x16 = random(&mut rng);
                let mut got = rng.vec::<$t>(256);
                store_transpose_16x16(a, &mut got);
                assert_same(&got, &transpose(a.as_slice(), 16, 16), "store(transpose(16x16))");
                let mut loaded = rng.vec::<$t>(256);
                transpose_loaded(a.as_slice(), &mut loaded);
                assert_same(&loaded, &transpose(a.as_slice(), 16, 16), "store(transpose(load))");
            }

            #[test]
            #[should_panic(expected = "needs 117 elements, but the slice has 116")]
            fn a_short_slice_for_a_stored_transpose_panics() {
                store_transpose_13x9(Matrix::zero(), &mut [<$t as matrix_core::Element>::ZERO; 116], 9);
            }

            #[test]
            #[should_panic(expected = "needs 169 elements, but the slice has 168")]
            fn a_short_slice_for_a_stored_product_panics() {
                store_prod_13x9_9x13(Matrix::zero(), Matrix::zero(), &mut [<$t as matrix_core::Element>::ZERO; 168], 13);
            }

            #[test]
            #[should_panic(expected = "stride 12 must be greater or equal to the number of rows (13)")]
            fn a_stride_below_the_rows_of_a_stored_product_panics() {
                store_prod_13x9_9x13(Matrix::zero(), Matrix::zero(), &mut [<$t as matrix_core::Element>::ZERO; 400], 12);
            }

            #[test]
            fn compound_assignment_element_access_and_casts() {
                let mut rng = Rng::new(0xc0de_0000 + stringify!($t).len() as u64);
                let (a, b): (m7x7, m7x7) = (random(&mut rng), random(&mut rng));
                let s: $t = rng.scalar();
                let r = elementwise(&elementwise(a.as_slice(), b.as_slice(), <$t>::ref_add), a.as_slice(), <$t>::ref_sub);
                let r = with_scalar(&matmul(&r, b.as_slice(), 7, 7, 7), s, <$t>::ref_mul);
                assert_same(compound(a, b, s).as_slice(), &r, "+= -= *= *=");

                let v: $t = rng.scalar();
                let out = elements(a, 3, 5, v);
                let mut expected = a;
                expected[(3, 5)] = v;
                expected[(0, 6)] = v;
                assert_eq!(out, expected);

                let wide = to_f64(a);
                for (w, x) in wide.as_slice().iter().zip(a.as_slice()) {
                    assert_eq!(w.to_bits(), (*x as f64).to_bits());
                }

                let sum = elementwise(a.as_slice(), b.as_slice(), <$t>::ref_add);
                let diff = elementwise(a.as_slice(), b.as_slice(), <$t>::ref_sub);
                let mut expected = with_scalar(&matmul(&sum, &diff, 7, 7, 7), s, <$t>::ref_mul);
                expected[6] = a[(1, 2)];
                assert_same(rfc(a, b, s).as_slice(), &expected, "RFC builtins");
            }

            #[test]
            #[should_panic(expected = "matrix row index 7 is outside the allowed range [0, 7)")]
            fn a_dynamic_row_out_of_range_panics() {
                elements(Matrix::zero(), 7, 0, <$t as matrix_core::Element>::ONE);
            }

            #[test]
            #[should_panic(expected = "matrix column index -1 is outside the allowed range [0, 7)")]
            fn a_negative_dynamic_column_panics() {
                elements(Matrix::zero(), 0, -1, <$t as matrix_core::Element>::ONE);
            }

            #[test]
            #[should_panic(expected = "needs 117 elements, but the slice has 116")]
            fn a_short_slice_panics() {
                load_13x9(&[<$t as matrix_core::Element>::ZERO; 116], 13);
            }

            #[test]
            #[should_panic(expected = "stride 12 must be greater or equal to the number of rows (13)")]
            fn a_dynamic_stride_below_the_rows_panics() {
                load_13x9(&[<$t as matrix_core::Element>::ZERO; 200], 12);
            }
        }
    )*};
}

kernel_suite! {
    i8_kernels: i8,
    i16_kernels: i16,
    i32_kernels: i32,
    i64_kernels: i64,
    u8_kernels: u8,
    u16_kernels: u16,
    u32_kernels: u32,
    u64_kernels: u64,
    f32_kernels: f32,
    f64_kernels: f64,
}

/// An integer division by zero in a chain panics as `Matrix`'s does, in the
/// chain written out for debug builds (2x2) and in its loop (17x16).
mod integer_division_by_zero {
    use matrix_core::{Matrix, matrix};

    matrix! {
        typedef int m2x2 __attribute__((matrix_type(2, 2)));
        typedef int m17x16 __attribute__((matrix_type(17, 16)));
        fn divide_2x2(a: m2x2, s: int) -> m2x2 { a / s + a }
        fn divide_17x16(a: m17x16, s: int) -> m17x16 { a / s + a }
    }

    #[test]
    fn a_nonzero_divisor_divides() {
        let a = Matrix::from_rows([[7, -8], [9, 10]]);
        assert_eq!(divide_2x2(a, 2).to_rows(), [[10, -12], [13, 15]]);
        let b = Matrix::<i32, 17, 16>::splat(-9);
        assert_eq!(divide_17x16(b, 2), Matrix::splat(-13));
    }

    #[test]
    #[should_panic(expected = "divide by zero")]
    fn a_small_chain_panics() {
        divide_2x2(Matrix::splat(1), 0);
    }

    #[test]
    #[should_panic(expected = "divide by zero")]
    fn a_large_chain_panics() {
        divide_17x16(Matrix::splat(1), 0);
    }
}

/// Loads bound by `let` from `&[T]` parameters, read in place (the name a
/// reference to the slice's matrix), and every neighbour that must stay a
/// copy: each computes what the copy computes.
mod loads_read_in_place {
    use matrix_core::{Matrix, matrix};
    use matrix_tests::{Rng, assert_same, matmul};

    matrix! {
        typedef float m4x4 __attribute__((matrix_type(4, 4)));
        typedef float m4x2 __attribute__((matrix_type(4, 2)));
        typedef float r4x4 __attribute__((matrix_type(4, 4, row_major)));

        // Views: used as product operands, elements, a return value, in a
        // closure, twice, and stored.
        fn product(a: &[f32], b: &[f32], out: &mut [f32]) {
            let x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4, 4);
            let y = __builtin_matrix_column_major_load(b, 4, 4);
            __builtin_matrix_column_major_store(x * y + x, out, 4);
        }
        fn uses(a: &[f32], s: f32) -> m4x4 {
            let x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4);
            let scaled = |k: f32| x * k;
            let corner = x[3][3] + x[0][1];
            scaled(s) + __builtin_matrix_transpose(x) * corner
        }
        // Loads used directly as product operands: read in place too.
        fn direct(a: &[f32], b: &[f32], out: &mut [f32]) {
            __builtin_matrix_column_major_store(
                __builtin_matrix_column_major_load(a, 4, 4) * __builtin_matrix_column_major_load(b, 4, 4)
                    + __builtin_matrix_column_major_load(a, 4, 4),
                out,
            );
        }
        // A load borrowed mutably is a temporary of its own, as in C.
        fn temporary(a: &[f32]) -> m4x4 {
            let t = &mut __builtin_matrix_column_major_load(a, 4, 4);
            t.as_mut_slice()[0] = 9.0f32;
            let u: m4x4 = *t;
            u + __builtin_matrix_column_major_load(a, 4, 4)
        }
        fn returned(a: &[f32]) -> r4x4 {
            let x = __builtin_matrix_row_major_load(a, 4, 4, 4);
            x
        }
        // The source rebound after the load: the view keeps the memory it
        // was taken from, as the copy keeps its values.
        fn rebound<'m>(mut a: &'m [f32], b: &'m [f32]) -> m4x4 {
            let x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4);
            a = b;
            x - __builtin_matrix_column_major_load(a, 4, 4)
        }
        // Copies: a `mut` binding, `&mut` memory, a strided load, a
        // dynamic stride, a shadowed name, a name a macro sees.
        fn mutated(a: &[f32]) -> m4x4 {
            let mut x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4);
            x[0][0] = 100.0f32;
            x
        }
        fn from_mutable(a: &mut [f32]) -> m4x4 {
            let x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4);
            a[0] = -1.0f32;
            x
        }
        fn strided(a: &[f32], stride: usize) -> m4x2 {
            let x: m4x2 = __builtin_matrix_column_major_load(a, 4, 2, 6);
            let y: m4x2 = __builtin_matrix_column_major_load(a, 4, 2, stride);
            x + y
        }
        fn shadowed(a: &[f32]) -> m4x4 {
            let x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4);
            let y = {
                let x = x * 2.0f32;
                x + x
            };
            y - x
        }
        // A `move` closure that must own its matrix: sent to a thread,
        // boxed as `'static`.
        fn threaded(a: &[f32]) -> m4x4 {
            let x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4);
            std::thread::spawn(move || x + x).join().unwrap()
        }
        fn boxed(a: &[f32]) -> Box<dyn Fn(f32) -> m4x4> {
            let x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4);
            Box::new(move |s: f32| x * s)
        }
        fn in_macro(a: &[f32]) -> m4x4 {
            let x: m4x4 = __builtin_matrix_column_major_load(a, 4, 4);
            let shown = format!("{:?}", x);
            assert!(!shown.is_empty());
            x
        }
    }

    #[test]
    fn views_compute_what_copies_compute() {
        let mut rng = Rng::new(0x0f1e_0001);
        let (a, b) = (rng.vec::<f32>(16), rng.vec::<f32>(16));
        let (x, y) = (
            Matrix::<f32, 4, 4>::from_column_major(&a),
            Matrix::from_column_major(&b),
        );
        let mut out = [0.0f32; 18];
        product(&a, &b, &mut out[..16]);
        assert_same(&out[..16], (x * y + x).as_slice(), "x * y + x");
        assert_eq!(out[16..], [0.0; 2]);
        let corner = x[(3, 3)] + x[(0, 1)];
        assert_eq!(uses(&a, 0.5), x * 0.5 + x.transpose() * corner);
        let mut direct_out = [0.0f32; 16];
        direct(&a, &b, &mut direct_out);
        assert_same(
            &direct_out,
            (x * y + x).as_slice(),
            "load(a) * load(b) + load(a)",
        );
        let mut changed = x;
        changed.as_mut_slice()[0] = 9.0;
        assert_eq!(temporary(&a), changed + x);
        assert_eq!(
            returned(&a).to_rows(),
            Matrix::<f32, 4, 4>::from_row_major(&a).to_rows()
        );
        assert_eq!(rebound(&a, &b), x - y);
        assert_eq!(shadowed(&a), x * 2.0 + x * 2.0 - x);
        assert_eq!(in_macro(&a), x);
        assert_same(
            &matmul(x.as_slice(), y.as_slice(), 4, 4, 4),
            (x * y).as_slice(),
            "the reference agrees",
        );
    }

    #[test]
    fn copies_stay_copies() {
        let mut rng = Rng::new(0x0f1e_0002);
        let a = rng.vec::<f32>(16);
        let x = Matrix::<f32, 4, 4>::from_column_major(&a);
        let mut expected = x;
        expected[(0, 0)] = 100.0;
        assert_eq!(mutated(&a), expected);
        assert_eq!(a[0], x[(0, 0)], "the memory is unchanged");
        let mut memory = a.clone();
        assert_eq!(from_mutable(&mut memory), x, "loaded before the write");
        assert_eq!(memory[0], -1.0);
        let wide = rng.vec::<f32>(6 + 4);
        let strided_x = Matrix::<f32, 4, 2>::from_columns([
            wide[..4].try_into().unwrap(),
            wide[6..].try_into().unwrap(),
        ]);
        assert_eq!(strided(&wide, 6), strided_x + strided_x);
        assert_eq!(threaded(&a), x + x);
        let scale = boxed(&a);
        drop(a);
        assert_eq!(scale(3.0), x * 3.0);
    }

    #[test]
    #[should_panic(
        expected = "column-major load of a 4x4 matrix with stride 4 needs 16 elements, but the slice has 15"
    )]
    fn a_view_of_a_short_slice_panics() {
        product(&[0.0; 15], &[0.0; 16], &mut [0.0; 16]);
    }
}
