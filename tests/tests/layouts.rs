//! Row-major matrices (`matrix_type(R, C, row_major)`, `Matrix<T, R, C,
//! RowMajor>`): every operation in the DSL and on the value type against a
//! plain scalar reference computed on the column-major value, on many
//! random inputs, on every backend this CPU runs. The same kernels against
//! clang 22's `-fmatrix-memory-layout=row-major` are in the oracle suite
//! (`oracle/tests/row_major.rs`).

use matrix_core::{ColumnMajor, Layout, Matrix, RowMajor, matrix};
use proptest::prelude::*;

matrix! {
    typedef float m3x4_t __attribute__((matrix_type(3, 4)));
    typedef float m3x4r_t __attribute__((matrix_type(3, 4, row_major)));
    typedef float m4x3r_t __attribute__((matrix_type(4, 3, row_major)));
    typedef float m4x2_t __attribute__((matrix_type(4, 2, column_major)));
    typedef float m4x2r_t __attribute__((matrix_type(4, 2, row_major)));
    typedef float m3x2_t __attribute__((matrix_type(3, 2)));
    typedef float m3x2r_t __attribute__((matrix_type(3, 2, row_major)));
    typedef int i3x4r_t __attribute__((matrix_type(3, 4, row_major)));
    typedef double d3x4r_t __attribute__((matrix_type(3, 4, row_major)));
    type m16r = Matrix<f32, 16, 16, RowMajor>;
    type m16 = Matrix<f32, 16, 16>;

    fn rm_arith(a: m3x4r_t, b: m3x4r_t, s: float) -> m3x4r_t {
        (a + b) * s - a / 2.0f32
    }
    fn rm_product(a: m3x4r_t, b: m4x2r_t) -> m3x2r_t {
        a * b
    }
    fn rm_product_add(a: m3x4r_t, b: m4x2r_t, c: m3x2r_t) -> m3x2r_t {
        a * b + c
    }
    fn rm_transpose(a: m3x4r_t) -> m4x3r_t {
        __builtin_matrix_transpose(a)
    }
    fn rm_elements(a: m3x4r_t, i: int) -> float {
        a[1][2] + a[i][0]
    }
    fn rm_set(a: m3x4r_t, v: float) -> m3x4r_t {
        let mut m = a;
        m[2][3] = v;
        m[0][1] += v;
        m
    }
    fn to_row_major(a: m3x4_t) -> m3x4r_t {
        (m3x4r_t) a
    }
    // The Rust spelling of a row-major parameter keeps its layout in the
    // signature (the oracle's row-major corpus found it dropped).
    fn rm_generic(a: Matrix<f32, 3, 4, RowMajor>, b: m3x4r_t) -> Matrix<f32, 3, 4, RowMajor> {
        a - b
    }
    fn rm_generic_caller(a: m3x4r_t) -> m3x4r_t {
        rm_generic(a, a * 2.0f32)
    }
    fn to_column_major(a: m3x4r_t) -> m3x4_t {
        (m3x4_t) a
    }
    fn rm_convert(a: m3x4r_t) -> d3x4r_t {
        (d3x4r_t) a
    }
    fn rm_to_int_cm(a: m3x4r_t) -> i3x4r_t {
        (i3x4r_t) a
    }
    // A product whose operands are converted: the conversions are folded.
    fn cast_operands(a: m3x4_t, b: m4x2_t) -> m3x2r_t {
        (m3x4r_t) a * (m4x2r_t) b
    }
    fn mixed_mad(a: m3x4_t, b: m4x2r_t, c: m3x2r_t) -> m3x2r_t {
        __builtin_matrix_mad(a, b, c)
    }
    fn mixed_mad_cm(a: m3x4r_t, b: m4x2_t, c: m3x2_t) -> m3x2_t {
        __builtin_matrix_mad(a, b, c)
    }
    fn rm_map(a: m3x4r_t, b: m3x4r_t) -> m3x4r_t {
        __builtin_matrix_zip(__builtin_matrix_map(a, |x| x * x), b, |x, y| x - y)
    }
    fn rm_fill(a: m3x4r_t) -> m3x4r_t {
        __builtin_matrix_fill(a, 1.5f32)
    }
    fn rm_splat(v: float) -> m3x4r_t {
        (m3x4r_t) v
    }
    fn rm_load(src: &[float]) -> m3x4r_t {
        __builtin_matrix_row_major_load(src, 3, 4, 5)
    }
    fn rm_store(a: m3x4r_t, dst: &mut [float]) {
        __builtin_matrix_row_major_store(a, dst, 6);
    }
    // Memory order and type layout are independent.
    fn cm_store_of_rm(a: m3x4r_t, dst: &mut [float]) {
        __builtin_matrix_column_major_store(a, dst);
    }
    fn rm_store_of_cm(a: m3x4_t, dst: &mut [float]) {
        __builtin_matrix_row_major_store(a, dst);
    }
    // Products stored into slices, which their kernel call writes: in
    // debug builds on the line loops where the operands' lines and the
    // destination's are of one kind (a transposed operand's are its
    // transpose's), on the kernels for any other mix.
    fn stored_transposed_product(a: m4x3r_t, b: m4x2_t, dst: &mut [float]) {
        __builtin_matrix_column_major_store((m3x4_t) __builtin_matrix_transpose(a) * b, dst, 3);
    }
    fn stored_rm_mad(a: m3x4r_t, b: m4x2r_t, c: m3x2r_t, dst: &mut [float]) {
        __builtin_matrix_row_major_store(a * b + c, dst, 2);
    }
    fn stored_mixed_product(a: m3x4r_t, b: m4x2_t, dst: &mut [float]) {
        __builtin_matrix_row_major_store(a * (m4x2r_t) b, dst, 2);
    }
    fn rm_16(a: m16r, b: m16r) -> m16r {
        a * b
    }
    fn cm_16(a: m16, b: m16) -> m16 {
        a * b
    }
    typedef float m48x33_t __attribute__((matrix_type(48, 33)));
    typedef float m48x33r_t __attribute__((matrix_type(48, 33, row_major)));
    typedef float m33x32_t __attribute__((matrix_type(33, 32)));
    typedef float m48x32_t __attribute__((matrix_type(48, 32)));
    #[fp_contract(fast)]
    fn fused_rm_left(a: m48x33r_t, b: m33x32_t) -> m48x32_t {
        (m48x33_t) a * b
    }
    #[fp_contract(fast)]
    fn fused_cm_left(a: m48x33_t, b: m33x32_t) -> m48x32_t {
        a * b
    }
}

/// `a * b (+ c)` summed in the contract's order, on the element values.
fn reference_product<const M: usize, const K: usize, const N: usize>(
    a: &Matrix<f32, M, K>,
    b: &Matrix<f32, K, N>,
    c: Option<&Matrix<f32, M, N>>,
) -> Matrix<f32, M, N> {
    Matrix::from_fn(|r, j| {
        let mut sum = a[(r, 0)] * b[(0, j)];
        for k in 1..K {
            sum += a[(r, k)] * b[(k, j)];
        }
        c.map_or(sum, |c| sum + c[(r, j)])
    })
}

fn floats<const R: usize, const C: usize>() -> impl Strategy<Value = Matrix<f32, R, C>> {
    proptest::collection::vec(-1.0e3f32..1.0e3, R * C).prop_map(|v| Matrix::from_column_major(&v))
}

/// The row-major matrix with `m`'s elements.
fn rm<const R: usize, const C: usize>(m: Matrix<f32, R, C>) -> Matrix<f32, R, C, RowMajor> {
    m.to_layout()
}

/// The column-major matrix with `m`'s elements.
fn cm<L: Layout, const R: usize, const C: usize>(m: Matrix<f32, R, C, L>) -> Matrix<f32, R, C> {
    m.to_layout()
}

/// This binary's tests on every other backend this CPU supports.
#[test]
fn a_rust_spelled_row_major_parameter_is_row_major() {
    let a = Matrix::<f32, 3, 4>::from_fn(|r, c| (r * 4 + c) as f32).to_layout::<RowMajor>();
    let expected = Matrix::<f32, 3, 4>::from_fn(|r, c| -((r * 4 + c) as f32)).to_layout();
    assert_eq!(rm_generic_caller(a), expected);
    assert_eq!(rm_generic(a, a), Matrix::<f32, 3, 4, RowMajor>::default());
}

#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

/// A row-major `f64` left operand of two blocks of 16 rows and a depth
/// above the kernels' depth block (256), so each block of rows sums over
/// two depth blocks: the partial sums of the first go through the rows of
/// the result that block writes.
#[test]
fn row_major_f64_left_operand_deeper_than_a_depth_block() {
    let a = Matrix::<f64, 32, 300>::from_fn(|r, k| ((r * 7 + k * 13) % 23) as f64 * 0.37 - 4.1);
    let b = Matrix::<f64, 300, 5>::from_fn(|k, j| ((k * 5 + j * 11) % 19) as f64 * -0.91 + 2.3);
    let c = Matrix::<f64, 32, 5>::from_fn(|r, j| (r + j) as f64 * 0.5);
    let expected = Matrix::<f64, 32, 5>::from_fn(|r, j| {
        let mut sum = a[(r, 0)] * b[(0, j)];
        for k in 1..300 {
            sum += a[(r, k)] * b[(k, j)];
        }
        sum + c[(r, j)]
    });
    let ar = a.to_layout::<RowMajor>();
    assert_eq!(ar.mad(&b, &c), expected);
    let mut out = Matrix::splat(f64::NAN);
    ar.mul_to(&b, &mut out);
    assert_eq!(out + c, expected);
}

#[test]
fn row_major_bytes_are_rows() {
    let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
    let r: Matrix<i32, 2, 3, RowMajor> = m.into();
    assert_eq!(r.as_slice(), &[1, 2, 3, 4, 5, 6]);
    assert_eq!(r.into_storage(), [[1, 2, 3], [4, 5, 6]]);
    assert_eq!(size_of::<Matrix<f32, 3, 5, RowMajor>>(), 60);
    assert_eq!(align_of::<Matrix<f64, 3, 5, RowMajor>>(), 8);
    assert_eq!(r.to_rows(), m.to_rows());
    assert_eq!(r.column(2), [3, 6]);
    assert_eq!(r.row(1), [4, 5, 6]);
    assert_eq!(r.get(1, 0), Some(4));
    assert_eq!(r.get(2, 0), None);
    assert_eq!(Matrix::<i32, 2, 3>::from(r), m);
    assert_eq!(format!("{r}"), format!("{m}"));
    assert_eq!(
        format!("{r:?}"),
        "Matrix<int, 2x3, row_major> [[1, 2, 3], [4, 5, 6]]"
    );
    assert_eq!(
        Matrix::<i32, 2, 3, RowMajor>::default(),
        Matrix::<i32, 2, 3>::zero().into()
    );
    // Empty shapes convert too.
    let empty = Matrix::<i32, 0, 3>::zero().to_layout::<RowMajor>();
    assert_eq!(empty.as_slice(), &[] as &[i32]);
}

#[test]
fn row_major_load_and_store_in_the_dsl() {
    let src: Vec<f32> = (0..20).map(|x| x as f32).collect();
    let m = rm_load(&src);
    assert_eq!(
        m.to_rows(),
        [
            [0.0, 1.0, 2.0, 3.0],
            [5.0, 6.0, 7.0, 8.0],
            [10.0, 11.0, 12.0, 13.0]
        ]
    );
    let mut dst = [-1.0f32; 16];
    rm_store(m, &mut dst);
    assert_eq!(&dst[..4], &[0.0, 1.0, 2.0, 3.0]);
    assert_eq!(&dst[4..6], &[-1.0, -1.0]);
    assert_eq!(&dst[6..10], &[5.0, 6.0, 7.0, 8.0]);
    let mut cm_dst = [0.0f32; 12];
    cm_store_of_rm(m, &mut cm_dst);
    assert_eq!(&cm_dst[..], cm(m).as_slice());
    let mut rm_dst = [0.0f32; 12];
    rm_store_of_cm(cm(m), &mut rm_dst);
    assert_eq!(&rm_dst[..], m.as_slice());
}

#[test]
#[should_panic(
    expected = "row-major load of a 3x4 matrix with stride 5 needs 14 elements, but the slice has 13"
)]
fn row_major_load_checks_the_slice() {
    let _ = rm_load(&[0.0; 13]);
}

proptest! {
    #[test]
    fn row_major_kernels_match_the_reference(
        a in floats::<3, 4>(),
        b in floats::<3, 4>(),
        p in floats::<4, 2>(),
        c in floats::<3, 2>(),
        s in -4.0f32..4.0,
        v in -10.0f32..10.0,
        i in 0i32..3,
    ) {
        let (ar, br, pr, cr) = (rm(a), rm(b), rm(p), rm(c));
        // Element-wise: the same values in either layout.
        prop_assert_eq!(cm(rm_arith(ar, br, s)), (a + b) * s - a / 2.0);
        prop_assert_eq!(cm(ar + br), a + b);
        prop_assert_eq!(cm(-ar), -a);
        prop_assert_eq!(cm(2.0 * ar), 2.0 * a);
        // Products: bit for bit the column-major product's sums.
        let product = reference_product(&a, &p, None);
        prop_assert_eq!(cm(rm_product(ar, pr)), product);
        prop_assert_eq!(cm(ar * pr), product);
        prop_assert_eq!(cm(rm_product_add(ar, pr, cr)), reference_product(&a, &p, Some(&c)));
        prop_assert_eq!(cm(cast_operands(a, p)), product);
        // Multiply-accumulate with every layout of every operand.
        let mad = reference_product(&a, &p, Some(&c));
        prop_assert_eq!(cm(mixed_mad(a, pr, cr)), mad);
        prop_assert_eq!(mixed_mad_cm(ar, p, c), mad);
        prop_assert_eq!(cm(a.mad(&pr, &cr)), mad);
        prop_assert_eq!(ar.mad(&p, &c), mad);
        prop_assert_eq!(ar.mad(&pr, &c), mad);
        prop_assert_eq!(cm(a.mad(&p, &cr)), mad);
        // The same into a matrix of each layout, whatever it held.
        let (mut out, mut out_r) = (Matrix::splat(f32::NAN), rm(Matrix::splat(f32::NAN)));
        ar.mad_to(&pr, &c, &mut out);
        prop_assert_eq!(out, mad);
        a.mad_to(&p, &cr, &mut out_r);
        prop_assert_eq!(cm(out_r), mad);
        ar.mul_to(&p, &mut out);
        prop_assert_eq!(out, product);
        a.mul_to(&pr, &mut out_r);
        prop_assert_eq!(cm(out_r), product);
        ar.mul_to(&pr, &mut out_r);
        prop_assert_eq!(cm(out_r), product);
        ar.mad_to(&pr, &cr, &mut out_r);
        prop_assert_eq!(cm(out_r), mad);
        // The same stored into slices by the kernels' calls.
        let mut dst = [f32::NAN; 6];
        stored_transposed_product(rm(a.transpose()), p, &mut dst);
        prop_assert_eq!(&dst[..], product.as_slice());
        stored_mixed_product(ar, p, &mut dst);
        let product_r = rm(product);
        prop_assert_eq!(&dst[..], product_r.as_slice());
        stored_rm_mad(ar, pr, cr, &mut dst);
        let mad_r = rm(mad);
        prop_assert_eq!(&dst[..], mad_r.as_slice());
        // Transposes, elements, conversions.
        prop_assert_eq!(cm(rm_transpose(ar)), a.transpose());
        prop_assert_eq!(cm(ar.transpose()), a.transpose());
        let mut t = rm(Matrix::splat(f32::NAN));
        ar.transpose_to(&mut t);
        prop_assert_eq!(cm(t), a.transpose());
        prop_assert_eq!(rm_elements(ar, i), a[(1, 2)] + a[(i as usize, 0)]);
        let mut set = a;
        set[(2, 3)] = v;
        set[(0, 1)] += v;
        prop_assert_eq!(cm(rm_set(ar, v)), set);
        prop_assert_eq!(to_row_major(a), ar);
        prop_assert_eq!(to_column_major(ar), a);
        prop_assert_eq!(rm_convert(ar).to_layout::<ColumnMajor>(), a.cast::<f64>());
        prop_assert_eq!(rm_to_int_cm(ar).to_layout::<ColumnMajor>(), a.cast::<i32>());
        // Element-wise builtins.
        prop_assert_eq!(cm(rm_map(ar, br)), a.zip_map(b, |x, y| x * x - y));
        prop_assert_eq!(cm(rm_fill(ar)), Matrix::splat(1.5));
        prop_assert_eq!(cm(rm_splat(v)), Matrix::splat(v));
    }

    /// The mixes that transpose an operand first (a row-major left
    /// operand with a column-major result, a row-major result of
    /// column-major operands), in a shape of whole 16x16 tiles and edges:
    /// into a matrix, and returned with an addend.
    #[test]
    fn mixed_layout_products_with_edges(
        a in floats::<20, 33>(),
        b in floats::<33, 18>(),
        c in floats::<20, 18>(),
    ) {
        let expected = reference_product(&a, &b, None);
        let mut out = Matrix::splat(f32::NAN);
        rm(a).mul_to(&b, &mut out);
        prop_assert_eq!(out, expected);
        let mut out_r = rm(out);
        a.mul_to(&b, &mut out_r);
        prop_assert_eq!(cm(out_r), expected);
        let mad = reference_product(&a, &b, Some(&c));
        prop_assert_eq!(rm(a).mad(&b, &c), mad);
        prop_assert_eq!(cm(a.mad(&b, &rm(c))), mad);
    }

    /// `to_layout_into` writes what `to_layout` returns, whatever the
    /// matrix it writes held: between the layouts (the storage
    /// transposed, by whole tiles and edges at 20x33) and within one (a
    /// copy).
    #[test]
    fn layout_conversions_into_a_matrix(a in floats::<20, 33>(), s in floats::<3, 4>()) {
        let ar = rm(a);
        let mut out = Matrix::splat(f32::NAN);
        ar.to_layout_into(&mut out);
        prop_assert_eq!(out, a);
        prop_assert_eq!(out, ar.to_layout());
        let mut out_r = rm(Matrix::splat(f32::NAN));
        a.to_layout_into(&mut out_r);
        prop_assert_eq!(out_r, ar);
        // Element by element, and the row-major bytes as rows.
        let rows = a.to_rows();
        prop_assert_eq!(out_r.to_rows(), rows);
        prop_assert_eq!(out_r.as_slice(), rows.as_flattened());
        let mut copy = rm(Matrix::splat(f32::NAN));
        ar.to_layout_into(&mut copy);
        prop_assert_eq!(copy, ar);
        let mut small = rm(Matrix::splat(f32::NAN));
        s.to_layout_into(&mut small);
        prop_assert_eq!(cm(small), s);
        let mut small_cm = Matrix::splat(f32::NAN);
        small.to_layout_into(&mut small_cm);
        prop_assert_eq!(small_cm, s);
    }

    /// A row-major left operand of several blocks of 16 rows (48), which
    /// the backends with 16 vector registers transpose a block at a time,
    /// each block's rows of the result written into the whole one: into a
    /// matrix, returned, with an addend and fused. And a row-major result
    /// of column-major operands, whose right operand (32 columns) is
    /// transposed the same way.
    #[test]
    fn row_major_left_operands_of_several_row_blocks(
        a in floats::<48, 33>(),
        b in floats::<33, 32>(),
        c in floats::<48, 32>(),
    ) {
        let expected = reference_product(&a, &b, None);
        let mut out = Matrix::splat(f32::NAN);
        rm(a).mul_to(&b, &mut out);
        prop_assert_eq!(out, expected);
        let mad = reference_product(&a, &b, Some(&c));
        prop_assert_eq!(rm(a).mad(&b, &c), mad);
        let mut out_r = rm(Matrix::splat(f32::NAN));
        a.mul_to(&b, &mut out_r);
        prop_assert_eq!(cm(out_r), expected);
        prop_assert_eq!(cm(a.mad(&b, &rm(c))), mad);
        prop_assert_eq!(fused_rm_left(rm(a), b), fused_cm_left(a, b));
    }

    #[test]
    fn sixteen_by_sixteen_row_major_products(a in floats::<16, 16>(), b in floats::<16, 16>()) {
        let expected = cm_16(a, b);
        prop_assert_eq!(expected, reference_product(&a, &b, None));
        prop_assert_eq!(cm(rm_16(rm(a), rm(b))), expected);
        // Into a matrix, in every layout pair of the operands, both
        // layouts of the result (through the active backend's boundary).
        let (ar, br) = (rm(a), rm(b));
        let mut out = Matrix::splat(f32::NAN);
        let mut out_r = rm(out);
        a.mul_to(&b, &mut out);
        prop_assert_eq!(out, expected);
        ar.mul_to(&b, &mut out);
        prop_assert_eq!(out, expected);
        a.mul_to(&br, &mut out_r);
        prop_assert_eq!(cm(out_r), expected);
        ar.mul_to(&br, &mut out_r);
        prop_assert_eq!(cm(out_r), expected);
        a.mul_to(&b, &mut out_r);
        prop_assert_eq!(cm(out_r), expected);
    }
}
