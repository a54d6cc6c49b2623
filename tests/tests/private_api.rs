//! The `#[doc(hidden)]` items the `matrix!` expansion calls: dynamic index
//! checks, strides, column- and row-major load and store, scalar
//! conversion.

use matrix_core::private::{
    column_index, convert, load, load_ptr, row_index, store, store_ptr, stride,
};
use matrix_core::{ColumnMajor, Matrix, RowMajor};
use matrix_tests::{Rng, Scalar, assert_same, load as reference_load, store as reference_store};

// ---------------------------------------------------------------------------
// Indices and strides

#[test]
fn indices_of_every_integer_type() {
    assert_eq!(row_index(3i8, 4), 3);
    assert_eq!(row_index(3i16, 4), 3);
    assert_eq!(row_index(3i32, 4), 3);
    assert_eq!(row_index(3i64, 4), 3);
    assert_eq!(row_index(3i128, 4), 3);
    assert_eq!(row_index(3isize, 4), 3);
    assert_eq!(column_index(0u8, 1), 0);
    assert_eq!(column_index(0u16, 1), 0);
    assert_eq!(column_index(0u32, 1), 0);
    assert_eq!(column_index(0u64, 1), 0);
    assert_eq!(column_index(0u128, 1), 0);
    assert_eq!(column_index(0usize, 1), 0);
    assert_eq!(stride::<ColumnMajor, _>(7u8, 4, 1), 7);
    assert_eq!(stride::<ColumnMajor, _>(4i64, 4, 1), 4);
}

#[test]
#[should_panic(expected = "matrix row index -1 is outside the allowed range [0, 4)")]
fn negative_row_index() {
    row_index(-1i32, 4);
}

#[test]
#[should_panic(expected = "matrix row index 4 is outside the allowed range [0, 4)")]
fn row_index_too_large() {
    row_index(4usize, 4);
}

#[test]
#[should_panic(expected = "matrix column index 3 is outside the allowed range [0, 3)")]
fn column_index_too_large() {
    column_index(3u8, 3);
}

#[test]
#[should_panic(expected = "matrix column index -128 is outside the allowed range [0, 3)")]
fn negative_column_index() {
    column_index(i8::MIN, 3);
}

#[test]
#[should_panic(expected = "stride 3 must be greater or equal to the number of rows (4)")]
fn stride_below_rows() {
    stride::<ColumnMajor, _>(3u32, 4, 1);
}

#[test]
#[should_panic(expected = "stride -4 must be greater or equal to the number of rows (4)")]
fn negative_stride() {
    stride::<ColumnMajor, _>(-4i64, 4, 1);
}

// ---------------------------------------------------------------------------
// Load and store

#[test]
fn load_and_store_spec_examples() {
    // H4: load(src = 0..19, 2, 3, 5) == [[0 5 10] [1 6 11]]
    let src: Vec<i32> = (0..20).collect();
    let m = load::<i32, 2, 3, ColumnMajor>(&src, 5);
    assert_eq!(m.to_rows(), [[0, 5, 10], [1, 6, 11]]);
    // H5: store into all -1 with stride 4 leaves the gaps untouched.
    let mut dst = [-1; 12];
    store(m, &mut dst, 4);
    assert_eq!(dst, [0, 1, -1, -1, 5, 6, -1, -1, 10, 11, -1, -1]);
    // The slice may be exactly (C-1)*stride + R long.
    let m = load::<i32, 2, 3, ColumnMajor>(&src[..12], 5);
    assert_eq!(m.to_rows(), [[0, 5, 10], [1, 6, 11]]);
    let mut dst = [0; 10];
    store(m, &mut dst, 4);
    assert_eq!(dst, [0, 1, 0, 0, 5, 6, 0, 0, 10, 11]);
    // Stride equal to the rows is the dense layout.
    let dense = load::<i32, 4, 5, ColumnMajor>(&src, 4);
    assert_eq!(dense.as_slice(), &src[..20]);
}

fn check_load_store<T: Scalar, const R: usize, const C: usize>(rng: &mut Rng, stride: usize) {
    let len = (C - 1) * stride + R + rng.below(3);
    let src = rng.vec::<T>(len);
    let m = load::<T, R, C, ColumnMajor>(&src, stride);
    let expected = reference_load(&src, R, C, stride);
    let what = format!("load {} {R}x{C} stride {stride}", T::C_NAME);
    assert_same(m.as_slice(), &expected, &what);
    // SAFETY: `src` holds at least (C-1)*stride + R elements.
    let p = unsafe { load_ptr::<T, R, C, ColumnMajor>(src.as_ptr(), stride) };
    assert_same(p.as_slice(), &expected, &format!("{what} (pointer)"));

    let background = rng.vec::<T>(len);
    let mut dst = background.clone();
    store(m, &mut dst, stride);
    let mut expected_dst = background.clone();
    reference_store(m.as_slice(), R, C, &mut expected_dst, stride);
    let what = format!("store {} {R}x{C} stride {stride}", T::C_NAME);
    assert_same(&dst, &expected_dst, &what);
    let mut dst = background;
    // SAFETY: `dst` holds at least (C-1)*stride + R elements.
    unsafe { store_ptr(m, dst.as_mut_ptr(), stride) };
    assert_same(&dst, &expected_dst, &format!("{what} (pointer)"));
}

#[test]
fn load_and_store_match_reference() {
    let mut rng = Rng::new(42);
    for extra in [0, 1, 2, 5] {
        check_load_store::<f32, 4, 4>(&mut rng, 4 + extra);
        check_load_store::<f64, 1, 5>(&mut rng, 1 + extra);
        check_load_store::<i8, 5, 1>(&mut rng, 5 + extra);
        check_load_store::<u16, 3, 5>(&mut rng, 3 + extra);
        check_load_store::<i32, 7, 7>(&mut rng, 7 + extra);
        check_load_store::<u64, 13, 9>(&mut rng, 13 + extra);
        check_load_store::<i64, 16, 16>(&mut rng, 16 + extra);
        check_load_store::<u8, 2, 3>(&mut rng, 2 + extra);
        check_load_store::<u32, 3, 2>(&mut rng, 3 + extra);
        check_load_store::<i16, 4, 3>(&mut rng, 4 + extra);
    }
}

#[test]
fn pointer_forms_accept_unaligned_pointers() {
    // f32 values at an odd byte offset inside a byte buffer.
    let values: Vec<f32> = (0..12).map(|i| i as f32).collect();
    let mut bytes = [0u8; 1 + 12 * 4];
    for (i, v) in values.iter().enumerate() {
        bytes[1 + 4 * i..][..4].copy_from_slice(&v.to_ne_bytes());
    }
    let src = bytes[1..].as_ptr().cast::<f32>();
    // SAFETY: `src` points at 12 f32 values (unaligned), and a 3x4 load with
    // stride 3 reads (4-1)*3 + 3 = 12 of them.
    let m = unsafe { load_ptr::<f32, 3, 4, ColumnMajor>(src, 3) };
    assert_eq!(m.as_slice(), &values[..]);
    let dst = bytes[1..].as_mut_ptr().cast::<f32>();
    // SAFETY: as above, for writes.
    unsafe { store_ptr(m * 2.0, dst, 3) };
    let back: Vec<f32> = (0..12)
        .map(|i| f32::from_ne_bytes(bytes[1 + 4 * i..][..4].try_into().unwrap()))
        .collect();
    assert_eq!(back, values.iter().map(|v| v * 2.0).collect::<Vec<_>>());
}

#[test]
#[should_panic(
    expected = "column-major load of a 4x3 matrix with stride 5 needs 14 elements, but the slice has 10"
)]
fn load_from_short_slice() {
    let _ = load::<f32, 4, 3, ColumnMajor>(&[0.0; 10], 5);
}

#[test]
#[should_panic(
    expected = "column-major store of a 4x3 matrix with stride 5 needs 14 elements, but the slice has 13"
)]
fn store_to_short_slice() {
    store(Matrix::<f32, 4, 3>::zero(), &mut [0.0; 13], 5);
}

// Dense lines (the stride the line's length) take a shorter check first;
// a short slice still gets the general check's message.
#[test]
#[should_panic(
    expected = "column-major load of a 4x3 matrix with stride 4 needs 12 elements, but the slice has 11"
)]
fn dense_load_from_short_slice() {
    let _ = load::<f32, 4, 3, ColumnMajor>(&[0.0; 11], 4);
}

#[test]
#[should_panic(
    expected = "row-major store of a 4x3 matrix with stride 3 needs 12 elements, but the slice has 11"
)]
fn dense_store_to_short_slice() {
    store(Matrix::<f32, 4, 3, RowMajor>::default(), &mut [0.0; 11], 3);
}

#[test]
#[should_panic(expected = "stride 3 must be greater or equal to the number of rows (4)")]
fn load_with_stride_below_rows() {
    let _ = load::<u8, 4, 4, ColumnMajor>(&[0; 100], 3);
}

#[test]
#[should_panic(expected = "stride 1 must be greater or equal to the number of rows (2)")]
fn store_with_stride_below_rows() {
    store(Matrix::<u8, 2, 2>::zero(), &mut [0; 100], 1);
}

#[test]
#[should_panic(expected = "stride 3 must be greater or equal to the number of rows (4)")]
fn pointer_load_with_stride_below_rows() {
    let src = [0u8; 100];
    // SAFETY: the call panics on the stride before reading; were it to read,
    // 100 elements cover any 4x4 load with stride 3.
    let _ = unsafe { load_ptr::<u8, 4, 4, ColumnMajor>(src.as_ptr(), 3) };
}

#[test]
#[should_panic(expected = "stride 0 must be greater or equal to the number of rows (1)")]
fn pointer_store_with_stride_below_rows() {
    let mut dst = [0u8; 4];
    // SAFETY: the call panics on the stride before writing.
    unsafe { store_ptr(Matrix::<u8, 1, 2>::zero(), dst.as_mut_ptr(), 0) };
}

// ---------------------------------------------------------------------------
// Scalar conversion

#[test]
fn convert_is_as() {
    // H7, H9, H10, H11: the scalar becomes the element type first.
    assert_eq!(convert::<i32, _>(2.5f64), 2);
    assert_eq!(convert::<i32, _>(2.9f64), 2);
    assert_eq!(convert::<u32, _>(-1i32), u32::MAX);
    assert_eq!(convert::<i8, _>(300i32), 44);
    assert_eq!(convert::<f32, _>(0.1f64), 0.1f32);
    assert_eq!(convert::<f64, _>(0.1f32), f64::from(0.1f32));
    assert_eq!(convert::<u8, _>(-1.0f32), 0);
    assert_eq!(convert::<i16, _>(f64::NAN), 0);
    assert_eq!(convert::<i64, _>(u128::MAX), -1);
    assert_eq!(convert::<u64, _>(i128::MIN), 0);
    assert_eq!(convert::<f32, _>(u128::MAX), u128::MAX as f32);
    assert_eq!(convert::<f64, _>(i128::MIN), i128::MIN as f64);
    assert_eq!(convert::<u16, _>(usize::MAX), u16::MAX);
    assert_eq!(convert::<i8, _>(isize::MIN), 0);
    assert_eq!(convert::<f64, _>(isize::MIN), isize::MIN as f64);
    assert_eq!(convert::<i32, _>(true), 1);
    assert_eq!(convert::<f64, _>(false), 0.0);

    // As the expansion uses it: a scalar variable meets a matrix.
    let m = Matrix::<i32, 2, 2>::from_rows([[1, -1], [7, -7]]);
    let x = 2.5f64;
    assert_eq!((m + convert::<i32, _>(x)).to_rows(), [[3, 1], [9, -5]]);
    let u = Matrix::<u32, 2, 2>::from_rows([[0, 1], [2, 3]]);
    assert_eq!(
        (u + convert::<u32, _>(-1i64)).to_rows(),
        [[u32::MAX, 0], [1, 2]]
    );
}

// ---------------------------------------------------------------------------
// Row-major memory

#[test]
fn row_major_load_and_store() {
    // Rows of 3 at a stride of 4: row r is src[4r .. 4r + 3].
    let src: Vec<i32> = (0..12).collect();
    let m = load::<i32, 3, 3, RowMajor>(&src, 4);
    assert_eq!(m.to_rows(), [[0, 1, 2], [4, 5, 6], [8, 9, 10]]);
    let mut dst = [-1; 11];
    store(m, &mut dst, 4);
    assert_eq!(dst, [0, 1, 2, -1, 4, 5, 6, -1, 8, 9, 10]);
    // The pointer forms agree.
    // SAFETY: `src` holds 12 elements, the extent of a 3x3 load at stride 4
    // is 11.
    let p = unsafe { load_ptr::<i32, 3, 3, RowMajor>(src.as_ptr(), 4) };
    assert_eq!(p, m);
    let mut via_ptr = [-1; 11];
    // SAFETY: `via_ptr` holds 11 elements, the extent of the store.
    unsafe { store_ptr(m, via_ptr.as_mut_ptr(), 4) };
    assert_eq!(via_ptr, dst);
}

#[test]
#[should_panic(
    expected = "row-major load of a 3x4 matrix with stride 5 needs 14 elements, but the slice has 13"
)]
fn row_major_load_from_short_slice() {
    let _ = load::<f32, 3, 4, RowMajor>(&[0.0; 13], 5);
}

#[test]
#[should_panic(expected = "stride 3 must be greater or equal to the number of columns (4)")]
fn row_major_stride_below_columns() {
    let _ = stride::<RowMajor, _>(3u32, 9, 4);
}
