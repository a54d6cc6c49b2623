//! Loads and stores in a memory layout given as an argument
//! (`__builtin_matrix_load(p, R, C, packed_b)`, `Matrix::load(src,
//! MemoryLayout::PackedB)`): every layout, element sizes 1, 2 and 4 (packing
//! groups 4, 2 and 1), dense and strided lines, slices and pointers, against
//! the byte order the documentation states, written out here on its own; a
//! widening `mad` whose right operand comes from `packed_b` memory against a
//! plain loop; on every backend this CPU runs.

use matrix_core::{Matrix, MemoryLayout, RowMajor, matrix};
use matrix_tests::Rng;
use proptest::prelude::*;

matrix! {
    type b6x5 = Matrix<i8, 6, 5>;
    type b6x5r = Matrix<i8, 6, 5, RowMajor>;
    type h3x3 = Matrix<i16, 3, 3>;
    type f2x3 = Matrix<f32, 2, 3>;
    type a4x8 = Matrix<u8, 4, 8>;
    type acc4x3 = Matrix<i32, 4, 3>;

    fn load_packed_b(src: &[i8]) -> b6x5r {
        __builtin_matrix_load(src, 6, 5, packed_b)
    }
    fn load_packed_a(src: &[i8]) -> b6x5 {
        __builtin_matrix_load(src, 6, 5, packed_a)
    }
    fn load_packed_b_strided(src: &[i8], stride: usize) -> b6x5r {
        __builtin_matrix_load(src, 6, 5, packed_b, stride)
    }
    fn load_packed_a_ptr(src: *const i8) -> b6x5 {
        unsafe { __builtin_matrix_load(src, 6, 5, packed_a, 30) }
    }
    fn load_row_major(src: &[i8]) -> b6x5r {
        __builtin_matrix_load(src, 6, 5, row_major, 7)
    }
    fn load_column_major(src: &[i8]) -> b6x5 {
        __builtin_matrix_load(src, 6, 5, column_major)
    }
    fn store_all(m: b6x5, a: &mut [i8], b: &mut [i8], r: &mut [i8], c: &mut [i8]) {
        __builtin_matrix_store(m, a, packed_a);
        __builtin_matrix_store(m, b, packed_b, 24);
        __builtin_matrix_store(m, r, row_major);
        __builtin_matrix_store(m, c, column_major, 8);
    }
    fn store_packed_b_ptr(m: b6x5r, dst: *mut i8, stride: i64) {
        unsafe { __builtin_matrix_store(m, dst, packed_b, stride) }
    }
    fn round_trip_i16(src: &[i16], dst: &mut [i16]) -> h3x3 {
        let m = __builtin_matrix_load(src, 3, 3, packed_b);
        __builtin_matrix_store(m, dst, packed_a);
        (h3x3) m
    }
    fn packed_f32(src: &[f32]) -> f2x3 {
        // A 4-byte element packs alone: packed_a is column-major.
        __builtin_matrix_load(src, 2, 3, packed_a)
    }
    // The int8 layer of the example: weights stored packed for VNNI.
    fn layer(x: a4x8, w: &[i8], bias: acc4x3) -> acc4x3 {
        __builtin_matrix_mad(x, __builtin_matrix_load(w, 8, 3, packed_b), bias)
    }
}

/// Where the documentation's table puts `(r, c)`: group `g`, lines `stride`
/// apart.
fn place(layout: MemoryLayout, g: usize, r: usize, c: usize, stride: usize) -> usize {
    match layout {
        MemoryLayout::ColumnMajor => c * stride + r,
        MemoryLayout::RowMajor => r * stride + c,
        MemoryLayout::PackedA => (c / g) * stride + r * g + c % g,
        MemoryLayout::PackedB => (r / g) * stride + c * g + r % g,
    }
}

/// A 6x5 `i8` matrix of distinct values.
fn sample() -> Matrix<i8, 6, 5> {
    Matrix::from_fn(|r, c| (10 * r + c) as i8)
}

/// The buffer a store of `m` must leave, starting from `fill`: every
/// element at its place, zero in the unused places of a partial group.
fn expected_store(
    m: &Matrix<i8, 6, 5>,
    layout: MemoryLayout,
    stride: usize,
    len: usize,
    fill: i8,
) -> Vec<i8> {
    let g = if matches!(layout, MemoryLayout::PackedA | MemoryLayout::PackedB) {
        4
    } else {
        1
    };
    let mut out = vec![fill; len];
    let (rows, cols) = match layout {
        MemoryLayout::PackedA => (6, 8),
        MemoryLayout::PackedB => (8, 5),
        _ => (6, 5),
    };
    for r in 0..rows {
        for c in 0..cols {
            out[place(layout, g, r, c, stride)] = m.get(r, c).unwrap_or(0);
        }
    }
    out
}

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

#[test]
fn packed_b_interleaves_four_rows_of_a_column_per_word() {
    let m = sample();
    let mut b = vec![-1i8; 40];
    m.store(&mut b, MemoryLayout::PackedB);
    // Line 0: rows 0..4 of column 0, then of column 1, ...
    assert_eq!(&b[..8], &[0, 10, 20, 30, 1, 11, 21, 31]);
    // Line 1: rows 4 and 5, then two zeros of padding, per column.
    assert_eq!(&b[20..28], &[40, 50, 0, 0, 41, 51, 0, 0]);
    assert_eq!(load_packed_b(&b).to_layout(), m);
    assert_eq!(b, expected_store(&m, MemoryLayout::PackedB, 20, 40, -1));
}

#[test]
fn packed_a_interleaves_four_columns_of_a_row_per_word() {
    let m = sample();
    let mut a = vec![-1i8; 48];
    m.store(&mut a, MemoryLayout::PackedA);
    // Line 0: columns 0..4 of row 0, then of row 1, ...
    assert_eq!(&a[..8], &[0, 1, 2, 3, 10, 11, 12, 13]);
    // Line 1: column 4 and three zeros, per row.
    assert_eq!(&a[24..32], &[4, 0, 0, 0, 14, 0, 0, 0]);
    assert_eq!(load_packed_a(&a), m);
    assert_eq!(a, expected_store(&m, MemoryLayout::PackedA, 24, 48, -1));
}

#[test]
fn the_dsl_stores_every_layout_and_skips_the_gaps() {
    let m = sample();
    let (mut a, mut b, mut r, mut c) = (vec![7i8; 48], vec![7i8; 44], vec![7i8; 30], vec![7i8; 38]);
    store_all(m, &mut a, &mut b, &mut r, &mut c);
    assert_eq!(a, expected_store(&m, MemoryLayout::PackedA, 24, 48, 7));
    assert_eq!(b, expected_store(&m, MemoryLayout::PackedB, 24, 44, 7));
    assert_eq!(r, expected_store(&m, MemoryLayout::RowMajor, 5, 30, 7));
    assert_eq!(c, expected_store(&m, MemoryLayout::ColumnMajor, 8, 38, 7));
    let mut p = vec![7i8; 56];
    store_packed_b_ptr(m.to_layout(), p.as_mut_ptr(), 36);
    assert_eq!(p, expected_store(&m, MemoryLayout::PackedB, 36, 56, 7));
}

#[test]
fn the_dsl_loads_every_layout() {
    let m = sample();
    let mut rng = Rng::new(11);
    let junk: Vec<i8> = rng.vec(64);
    let read = |layout, stride| {
        let mut buf = junk.clone();
        let g = if matches!(layout, MemoryLayout::PackedA | MemoryLayout::PackedB) {
            4
        } else {
            1
        };
        for r in 0..6 {
            for c in 0..5 {
                buf[place(layout, g, r, c, stride)] = m[(r, c)];
            }
        }
        buf
    };
    assert_eq!(
        load_packed_b(&read(MemoryLayout::PackedB, 20)).to_layout(),
        m
    );
    assert_eq!(
        load_packed_b_strided(&read(MemoryLayout::PackedB, 23), 23).to_layout(),
        m
    );
    assert_eq!(load_packed_a(&read(MemoryLayout::PackedA, 24)), m);
    assert_eq!(
        load_packed_a_ptr(read(MemoryLayout::PackedA, 30).as_ptr()),
        m
    );
    assert_eq!(
        load_row_major(&read(MemoryLayout::RowMajor, 7)).to_layout(),
        m
    );
    assert_eq!(load_column_major(&read(MemoryLayout::ColumnMajor, 6)), m);
}

#[test]
fn two_byte_elements_pack_in_pairs_and_four_byte_ones_alone() {
    // 3x3 i16 in packed_b: rows (0, 1) interleaved, then row 2 and a zero.
    let src = [1i16, 4, 2, 5, 3, 6, 7, 0, 8, 0, 9, 0];
    let mut dst = [-1i16; 12];
    let m = round_trip_i16(&src, &mut dst);
    assert_eq!(m.to_rows(), [[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
    // packed_a: columns (0, 1) of each row interleaved, then column 2.
    assert_eq!(dst, [1, 2, 4, 5, 7, 8, 3, 0, 6, 0, 9, 0]);
    assert_eq!(MemoryLayout::PackedA.group::<i16>(), 2);
    let f = packed_f32(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(
        f,
        Matrix::from_column_major(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    );
    assert_eq!(MemoryLayout::PackedB.group::<f32>(), 1);
    assert_eq!(MemoryLayout::PackedB.group::<f64>(), 1);
}

#[test]
fn mad_of_packed_b_weights_is_the_plain_loop() {
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let x = Matrix::<u8, 4, 8>::from_column_major(&rng.vec::<u8>(32));
        let w = Matrix::<i8, 8, 3>::from_column_major(&rng.vec::<i8>(24));
        let bias = Matrix::<i32, 4, 3>::from_column_major(&rng.vec::<i32>(12));
        let mut packed = [0i8; 24];
        w.store(&mut packed, MemoryLayout::PackedB);
        let expected = Matrix::from_fn(|r, c| {
            (0..8).fold(bias[(r, c)], |acc: i32, k| {
                acc.wrapping_add(i32::from(x[(r, k)]) * i32::from(w[(k, c)]))
            })
        });
        assert_eq!(layer(x, &packed, bias), expected);
    }
}

#[test]
#[should_panic(
    expected = "stride 19 must be greater or equal to the length of a packed_b line of a 6x5 matrix (20)"
)]
fn a_run_time_stride_below_a_packed_line_panics() {
    load_packed_b_strided(&[0; 64], 19);
}

#[test]
#[should_panic(
    expected = "stride -2 must be greater or equal to the length of a packed_b line of a 6x5 matrix (20)"
)]
fn a_negative_stride_panics() {
    let mut dst = [0i8; 64];
    store_packed_b_ptr(sample().to_layout(), dst.as_mut_ptr(), -2);
}

#[test]
#[should_panic(
    expected = "packed_a load of a 6x5 matrix with stride 24 needs 48 elements, but the buffer has 47"
)]
fn a_short_buffer_panics() {
    load_packed_a(&[0; 47]);
}

#[test]
#[should_panic(
    expected = "packed_b store of a 3x2 matrix with stride 4 needs 8 elements, but the buffer has 7"
)]
fn a_short_store_buffer_panics() {
    Matrix::<i16, 3, 2>::zero().store(&mut [0; 7], MemoryLayout::PackedB);
}

#[test]
fn layouts_know_their_names_and_extents() {
    let names: Vec<String> = MemoryLayout::ALL.iter().map(|l| l.to_string()).collect();
    assert_eq!(names, ["column_major", "row_major", "packed_a", "packed_b"]);
    assert_eq!(
        MemoryLayout::PackedB.extent::<u8>(64, 16, 64),
        Some(15 * 64 + 64)
    );
    assert_eq!(MemoryLayout::PackedA.lines::<u8>(16, 63), 16);
    assert_eq!(MemoryLayout::RowMajor.extent::<u8>(0, 16, 16), Some(0));
    assert_eq!(
        MemoryLayout::ColumnMajor.extent::<u8>(2, usize::MAX, usize::MAX),
        None
    );
}

/// Every layout, stride and element value: a store then a load is the
/// identity, for 1-, 2- and 4-byte elements.
fn round_trips<T: matrix_core::Element + std::fmt::Debug, const R: usize, const C: usize>(
    m: Matrix<T, R, C>,
    extra: usize,
) -> Result<(), TestCaseError> {
    for layout in MemoryLayout::ALL {
        let stride = layout.line_len::<T>(R, C) + extra;
        let len = layout.extent::<T>(R, C, stride).unwrap();
        let mut buf = vec![T::ONE; len];
        m.store_strided(&mut buf, layout, stride);
        prop_assert_eq!(Matrix::<T, R, C>::load_strided(&buf, layout, stride), m);
        let rm: Matrix<T, R, C, RowMajor> = m.to_layout();
        let mut again = vec![T::ONE; len];
        rm.store_strided(&mut again, layout, stride);
        prop_assert_eq!(&again, &buf);
        // SAFETY: `buf` holds the extent.
        let back = unsafe { Matrix::<T, R, C>::load_ptr(buf.as_ptr(), layout, stride) };
        prop_assert_eq!(back, m);
    }
    Ok(())
}

proptest! {
    #[test]
    fn store_then_load_is_the_identity(
        a in proptest::collection::vec(any::<i8>(), 7 * 9),
        h in proptest::collection::vec(any::<u16>(), 5 * 3),
        f in proptest::collection::vec(-1.0e6f32..1.0e6, 3 * 2),
        extra in 0usize..5,
    ) {
        round_trips(Matrix::<i8, 7, 9>::from_column_major(&a), extra)?;
        round_trips(Matrix::<u16, 5, 3>::from_column_major(&h), extra)?;
        round_trips(Matrix::<f32, 3, 2>::from_column_major(&f), extra)?;
    }
}
