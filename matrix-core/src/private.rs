//! Items that only the expansion of `matrix!` names. Not public API: no
//! semver guarantees, hidden from the documentation.

use core::fmt;

pub use crate::kernels::int8::{Byte, Int8Kernel};
use crate::vector::{Lanes, Vector};
pub use crate::{ColumnMajor, Element, Layout, Matrix, MemoryLayout, RowMajor};
/// The `matrix!` procedural macro, called by `matrix_core::matrix!` with the
/// path of this crate.
#[cfg(feature = "macros")]
pub use matrix_macros::matrix_at;

// ---------------------------------------------------------------------------
// Dynamic indices

/// The value of an index, for a panic message (any integer type fits).
#[derive(Clone, Copy)]
pub enum IndexValue {
    /// A signed value.
    Signed(i128),
    /// An unsigned value.
    Unsigned(u128),
}

impl fmt::Display for IndexValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Signed(v) => fmt::Display::fmt(v, f),
            Self::Unsigned(v) => fmt::Display::fmt(v, f),
        }
    }
}

/// An integer type that may index a matrix or give a stride at run time:
/// every primitive integer.
pub trait IndexInt: Copy {
    /// The value as a `usize`, or `None` if it is negative or too large.
    fn to_usize(self) -> Option<usize>;
    /// The value, for a message.
    fn value(self) -> IndexValue;
}

macro_rules! index_int {
    ($variant:ident, $wide:ty: $($t:ty),*) => {$(
        impl IndexInt for $t {
            #[inline(always)]
            fn to_usize(self) -> Option<usize> {
                usize::try_from(self).ok()
            }
            #[inline]
            fn value(self) -> IndexValue {
                IndexValue::$variant(self as $wide)
            }
        }
    )*};
}

index_int!(Signed, i128: i8, i16, i32, i64, i128, isize);
index_int!(Unsigned, u128: u8, u16, u32, u64, u128, usize);

#[cold]
#[inline(never)]
#[track_caller]
fn index_panic(what: &str, index: IndexValue, bound: usize) -> ! {
    panic!("{what} index {index} is outside the allowed range [0, {bound})")
}

/// `index` as a `usize` below `bound`; `what` names the index in the panic.
#[inline(always)]
#[track_caller]
fn checked_index<I: IndexInt>(what: &str, index: I, bound: usize) -> usize {
    match index.to_usize() {
        Some(i) if i < bound => i,
        _ => index_panic(what, index.value(), bound),
    }
}

/// `index` as a `usize`, checked against the number of rows.
///
/// # Panics
///
/// If `index` is negative or `>= rows`:
/// `matrix row index -1 is outside the allowed range [0, 4)`.
#[inline(always)]
#[track_caller]
pub fn row_index<I: IndexInt>(index: I, rows: usize) -> usize {
    checked_index("matrix row", index, rows)
}

/// `index` as a `usize`, checked against the number of columns.
///
/// # Panics
///
/// If `index` is negative or `>= cols`:
/// `matrix column index 4 is outside the allowed range [0, 4)`.
#[inline(always)]
#[track_caller]
pub fn column_index<I: IndexInt>(index: I, cols: usize) -> usize {
    checked_index("matrix column", index, cols)
}

/// `index` as a `usize`, checked against a vector's length.
///
/// # Panics
///
/// If `index` is negative or `>= len`:
/// `vector index 4 is outside the allowed range [0, 4)`.
#[inline(always)]
#[track_caller]
pub fn vector_index<I: IndexInt>(index: I, len: usize) -> usize {
    checked_index("vector", index, len)
}

/// A subscript of a value whose type a block cannot see, as a `usize`.
///
/// # Panics
///
/// If `index` is negative: `index -1 is negative`.
#[inline(always)]
#[track_caller]
pub fn unseen_index<I: IndexInt>(index: I) -> usize {
    match index.to_usize() {
        Some(i) => i,
        None => negative_index_panic(index.value()),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn negative_index_panic(index: IndexValue) -> ! {
    panic!("index {index} is negative")
}

#[cold]
#[inline(never)]
#[track_caller]
fn stride_panic<L: Layout>(stride: IndexValue, line: usize) -> ! {
    let lines = if L::ROW_MAJOR { "columns" } else { "rows" };
    panic!("stride {stride} must be greater or equal to the number of {lines} ({line})")
}

/// A run-time stride as a `usize`, checked against the length of a line
/// of memory order `L`: the number of rows of a column-major load or store
/// (`rows`), the number of columns of a row-major one (`cols`).
///
/// # Panics
///
/// If `stride` is negative or below the line's length:
/// `stride 3 must be greater or equal to the number of rows (4)`.
#[inline(always)]
#[track_caller]
pub fn stride<L: Layout, I: IndexInt>(stride: I, rows: usize, cols: usize) -> usize {
    let line = line_len::<L>(rows, cols);
    match stride.to_usize() {
        Some(s) if s >= line => s,
        _ => stride_panic::<L>(stride.value(), line),
    }
}

// ---------------------------------------------------------------------------
// Loads and stores, column-major or row-major memory

/// The length of a line (a column, or a row in `L` row-major) of an
/// `rows x cols` matrix.
#[inline(always)]
const fn line_len<L: Layout>(rows: usize, cols: usize) -> usize {
    if L::ROW_MAJOR { cols } else { rows }
}

/// The number of lines of an `rows x cols` matrix in order `L`.
#[inline(always)]
const fn line_count<L: Layout>(rows: usize, cols: usize) -> usize {
    if L::ROW_MAJOR { rows } else { cols }
}

#[cold]
#[inline(never)]
#[track_caller]
fn extent_panic<L: Layout>(what: &str, rows: usize, cols: usize, stride: usize, len: usize) -> ! {
    let order = if L::ROW_MAJOR {
        "row-major"
    } else {
        "column-major"
    };
    match extent::<L>(rows, cols, stride) {
        Some(needed) => panic!(
            "{order} {what} of a {rows}x{cols} matrix with stride {stride} needs \
             {needed} elements, but the slice has {len}"
        ),
        None => panic!(
            "{order} {what} of a {rows}x{cols} matrix with stride {stride} needs \
             more than usize::MAX elements, but the slice has {len}"
        ),
    }
}

/// `(lines - 1) * stride + line`, the number of elements a load or store
/// touches, or `None` on overflow. Zero for an empty matrix's zero lines.
#[inline(always)]
const fn extent<L: Layout>(rows: usize, cols: usize, stride: usize) -> Option<usize> {
    let (lines, line) = (line_count::<L>(rows, cols), line_len::<L>(rows, cols));
    if lines == 0 {
        return Some(0);
    }
    match (lines - 1).checked_mul(stride) {
        Some(n) => n.checked_add(line),
        None => None,
    }
}

/// Checks the stride and the slice length of a load or store.
#[inline(always)]
#[track_caller]
fn check_extent<L: Layout>(what: &str, rows: usize, cols: usize, stride: usize, len: usize) {
    let line = line_len::<L>(rows, cols);
    // Dense lines, the common case: the extent is the matrix, with no
    // overflow to check (the callers' `rows * cols` elements are a type's).
    // At opt-level 0 that is a comparison, not the calls below.
    if stride == line && rows * cols <= len {
        return;
    }
    if stride < line {
        stride_panic::<L>(IndexValue::Unsigned(stride as u128), line);
    }
    match extent::<L>(rows, cols, stride) {
        Some(needed) if needed <= len => {}
        _ => extent_panic::<L>(what, rows, cols, stride, len),
    }
}

/// `__builtin_matrix_column_major_load(src, R, C, stride)` (`L` is
/// [`ColumnMajor`]): column `c` of the result is
/// `src[c*stride .. c*stride + R]`; `__builtin_matrix_row_major_load` (`L`
/// is [`RowMajor`]): row `r` is `src[r*stride .. r*stride + C]`. The
/// result has the memory's layout.
///
/// # Panics
///
/// If the stride is below the line's length (`R`, or `C` row-major), or
/// if `src` is shorter than the extent (`(C-1)*stride + R` column-major):
/// `column-major load of a 4x3 matrix with stride 5 needs 14 elements, but
/// the slice has 10`.
#[inline]
#[track_caller]
pub fn load<T: Element, const R: usize, const C: usize, L: Layout>(
    src: &[T],
    stride: usize,
) -> Matrix<T, R, C, L> {
    check_extent::<L>("load", R, C, stride, src.len());
    let line = line_len::<L>(R, C);
    let mut m = Matrix::<T, R, C, L>::default();
    if line == 0 {
        return m;
    }
    if stride == line {
        return *Matrix::ref_from_prefix(src);
    }
    for (i, out) in m.as_mut_slice().chunks_exact_mut(line).enumerate() {
        let start = i * stride;
        out.copy_from_slice(&src[start..start + line]);
    }
    m
}

/// A dense [`load`] (its stride the line's length) read in place: the
/// matrix in `src`, by reference. The expansion reads a load from a `&[T]`
/// parameter (memory the kernel cannot change) this way where it is a
/// product's operand, or bound by `let x = ...` with `x` never assigned:
/// each use reads the values a copy would hold, and a product reads its
/// operand where it is.
///
/// # Panics
///
/// As [`load`], if `src` is shorter than the matrix.
#[inline]
#[track_caller]
pub fn load_view<T: Element, const R: usize, const C: usize, L: Layout>(
    src: &[T],
) -> &Matrix<T, R, C, L> {
    check_extent::<L>("load", R, C, line_len::<L>(R, C), src.len());
    Matrix::ref_from_prefix(src)
}

/// [`load`] from a raw pointer.
///
/// # Panics
///
/// If the stride is below the line's length.
///
/// # Safety
///
/// `src` must be valid for reads of the extent (`(C-1)*stride + R`
/// elements of `T` column-major, `(R-1)*stride + C` row-major; it need not
/// be aligned), and those elements must be initialised. Only the elements
/// of the matrix's lines are read.
#[inline]
#[track_caller]
pub unsafe fn load_ptr<T: Element, const R: usize, const C: usize, L: Layout>(
    src: *const T,
    stride: usize,
) -> Matrix<T, R, C, L> {
    let line = line_len::<L>(R, C);
    if stride < line {
        stride_panic::<L>(IndexValue::Unsigned(stride as u128), line);
    }
    let mut m = Matrix::<T, R, C, L>::default();
    if line == 0 {
        return m;
    }
    for (i, out) in m.as_mut_slice().chunks_exact_mut(line).enumerate() {
        for (j, x) in out.iter_mut().enumerate() {
            // SAFETY: `i < lines` and `j < line <= stride`, so
            // `i*stride + j < (lines-1)*stride + line`, an offset within
            // the region the caller guarantees valid for reads; that bound
            // fits in `isize` because the region exists. `read_unaligned`
            // needs no alignment.
            *x = unsafe { src.add(i * stride + j).read_unaligned() };
        }
    }
    m
}

/// `__builtin_matrix_column_major_store(m, dst, stride)` (`L` is
/// [`ColumnMajor`]): column `c` of `m` goes to
/// `dst[c*stride .. c*stride + R]`; `__builtin_matrix_row_major_store`
/// (`L` is [`RowMajor`]): row `r` goes to `dst[r*stride .. r*stride + C]`.
/// The elements between lines are left untouched. The expansion converts
/// `m` to the memory's layout first.
///
/// # Panics
///
/// If the stride is below the line's length, or if `dst` is shorter than
/// the extent: `column-major store of a 4x3 matrix with stride 5 needs 14
/// elements, but the slice has 10`.
#[inline]
#[track_caller]
pub fn store<T: Element, const R: usize, const C: usize, L: Layout>(
    m: Matrix<T, R, C, L>,
    dst: &mut [T],
    stride: usize,
) {
    check_extent::<L>("store", R, C, stride, dst.len());
    let line = line_len::<L>(R, C);
    if line == 0 {
        return;
    }
    if stride == line {
        dst[..R * C].copy_from_slice(m.as_slice());
        return;
    }
    for (i, src) in m.as_slice().chunks_exact(line).enumerate() {
        let start = i * stride;
        dst[start..start + line].copy_from_slice(src);
    }
}

/// [`store`] through a raw pointer.
///
/// # Panics
///
/// If the stride is below the line's length.
///
/// # Safety
///
/// `dst` must be valid for writes of the extent (see [`load_ptr`]; it need
/// not be aligned). Only the elements of the matrix's lines are written;
/// the others are left untouched.
#[inline]
#[track_caller]
pub unsafe fn store_ptr<T: Element, const R: usize, const C: usize, L: Layout>(
    m: Matrix<T, R, C, L>,
    dst: *mut T,
    stride: usize,
) {
    let line = line_len::<L>(R, C);
    if stride < line {
        stride_panic::<L>(IndexValue::Unsigned(stride as u128), line);
    }
    if line == 0 {
        return;
    }
    for (i, src) in m.as_slice().chunks_exact(line).enumerate() {
        for (j, &x) in src.iter().enumerate() {
            // SAFETY: `i < lines` and `j < line <= stride`, so
            // `i*stride + j < (lines-1)*stride + line`, an offset within
            // the region the caller guarantees valid for writes; that bound
            // fits in `isize` because the region exists. `write_unaligned`
            // needs no alignment, and `T: Copy` has no destructor to run on
            // the overwritten value.
            unsafe { dst.add(i * stride + j).write_unaligned(x) };
        }
    }
}

// ---------------------------------------------------------------------------
// Loads and stores, packed memory (`__builtin_matrix_load/store` with
// `packed_a` or `packed_b`; the other two orders use the functions above)

/// A run-time stride of a packed load or store as a `usize`; the load or
/// store checks it against the line's length.
///
/// # Panics
///
/// If `stride` is negative.
#[inline(always)]
#[track_caller]
pub fn packed_stride<T: Element, I: IndexInt>(
    stride: I,
    memory: MemoryLayout,
    rows: usize,
    cols: usize,
) -> usize {
    match stride.to_usize() {
        Some(s) => s,
        None => memory.stride_panic::<T>(stride.value(), rows, cols),
    }
}

/// `__builtin_matrix_load(src, R, C, memory, stride)` from a slice, as a
/// matrix of layout `L` ([`Matrix::load_strided`]).
#[inline]
#[track_caller]
pub fn load_packed<T: Element, const R: usize, const C: usize, L: Layout>(
    src: &[T],
    memory: MemoryLayout,
    stride: usize,
) -> Matrix<T, R, C, L> {
    Matrix::<T, R, C>::load_strided(src, memory, stride).to_layout()
}

/// [`load_packed`] from a raw pointer.
///
/// # Safety
///
/// As [`Matrix::load_ptr`]: `src` valid for reads of the extent.
#[inline]
#[track_caller]
pub unsafe fn load_packed_ptr<T: Element, const R: usize, const C: usize, L: Layout>(
    src: *const T,
    memory: MemoryLayout,
    stride: usize,
) -> Matrix<T, R, C, L> {
    // SAFETY: the caller's guarantee is `load_ptr`'s.
    unsafe { Matrix::<T, R, C>::load_ptr(src, memory, stride) }.to_layout()
}

/// `__builtin_matrix_store(m, dst, memory, stride)` to a slice
/// ([`Matrix::store_strided`]).
#[inline]
#[track_caller]
pub fn store_packed<T: Element, const R: usize, const C: usize, L: Layout>(
    m: Matrix<T, R, C, L>,
    dst: &mut [T],
    memory: MemoryLayout,
    stride: usize,
) {
    m.store_strided(dst, memory, stride);
}

/// [`store_packed`] through a raw pointer.
///
/// # Safety
///
/// As [`Matrix::store_ptr`]: `dst` valid for writes of the extent.
#[inline]
#[track_caller]
pub unsafe fn store_packed_ptr<T: Element, const R: usize, const C: usize, L: Layout>(
    m: Matrix<T, R, C, L>,
    dst: *mut T,
    memory: MemoryLayout,
    stride: usize,
) {
    // SAFETY: the caller's guarantee is `store_ptr`'s.
    unsafe { m.store_ptr(dst, memory, stride) }
}

// ---------------------------------------------------------------------------
// Scalar conversion

/// Converts a scalar to an element type with Rust's `as` semantics (`bool`
/// as 0 or 1; `half::f16` through `f32`). The expansion converts a scalar
/// variable that meets a matrix with [`convert`].
#[diagnostic::on_unimplemented(
    message = "'{Self}' is not a scalar: it cannot be converted to '{T}'",
    label = "a scalar of an arithmetic type is expected here"
)]
pub trait ConvertTo<T>: Copy {
    /// `self as T`.
    fn convert(self) -> T;
}

macro_rules! convert_from {
    ($($src:ty => $from:ident),* $(,)?) => {$(
        impl<T: Element> ConvertTo<T> for $src {
            #[inline(always)]
            fn convert(self) -> T {
                T::$from(self)
            }
        }
    )*};
}

convert_from! {
    i8 => from_i8, i16 => from_i16, i32 => from_i32, i64 => from_i64, i128 => from_i128,
    u8 => from_u8, u16 => from_u16, u32 => from_u32, u64 => from_u64, u128 => from_u128,
    f32 => from_f32, f64 => from_f64,
}

#[cfg(feature = "f16")]
convert_from! { half::f16 => from_f16 }
#[cfg(feature = "bf16")]
convert_from! { half::bf16 => from_bf16 }

impl<T: Element> ConvertTo<T> for isize {
    #[inline(always)]
    fn convert(self) -> T {
        // `isize` is at most 64 bits wide, so this widening is exact.
        T::from_i64(self as i64)
    }
}

impl<T: Element> ConvertTo<T> for usize {
    #[inline(always)]
    fn convert(self) -> T {
        // `usize` is at most 64 bits wide, so this widening is exact.
        T::from_u64(self as u64)
    }
}

impl<T: Element> ConvertTo<T> for bool {
    #[inline(always)]
    fn convert(self) -> T {
        T::from_u8(self as u8)
    }
}

/// `s as T`: the conversion of a scalar that meets a matrix of `T`.
///
/// ```
/// use matrix_core::private::convert;
///
/// assert_eq!(convert::<i32, _>(2.5f64), 2);
/// assert_eq!(convert::<u8, _>(300i32), 44);
/// assert_eq!(convert::<f32, _>(true), 1.0);
/// ```
#[inline(always)]
pub fn convert<T, S: ConvertTo<T>>(s: S) -> T {
    s.convert()
}

// ---------------------------------------------------------------------------
// Operations: one call each, on a `Dispatch` (`Auto` outside `#[dispatch]`
// kernels, the backend's token inside them)

pub use crate::arith::Arith;
pub use crate::kernels::dispatch::{Auto, Dispatch, KernelBody, dispatch_kernel};
pub use crate::ops::{
    Addend, Operand, Plain, Transposed, elementwise, product, product_same_layout, transpose,
};

/// `__builtin_matrix_column_major_store(a * b, dst, stride)` (or `a * b +
/// c`, or the row-major store of a row-major product), as [`store`] of
/// [`product`] computes it. Where the lines are dense (`stride` is the
/// line's length), the product's kernel writes `dst` itself: no temporary
/// matrix, and no copy of it out of the backend's boundary (at 8x8 `f32`
/// that copy is a third of the product's time; see `Matrix::mul_to`).
///
/// # Panics
///
/// As [`store`]: if the stride is below the line's length, or `dst` is
/// shorter than the extent.
#[inline(always)]
#[track_caller]
pub fn store_product<
    D: Dispatch,
    T: Element,
    const M: usize,
    const K: usize,
    const N: usize,
    const FUSE: bool,
    L: Layout,
>(
    d: D,
    lhs: impl Operand<T, M, K>,
    rhs: impl Operand<T, K, N>,
    addend: impl Addend<T, M, N, L>,
    dst: &mut [T],
    stride: usize,
) {
    match dense_destination::<T, M, N, L>(dst, stride) {
        Some(out) => crate::ops::product_to::<D, T, M, K, N, FUSE, L>(d, lhs, rhs, addend, out),
        None => store(
            product::<D, T, M, K, N, FUSE, L>(d, lhs, rhs, addend),
            dst,
            stride,
        ),
    }
}

/// The matrix in `dst` that a store of an `R x C` matrix of layout `L`
/// with `stride` writes, where its lines are dense (`stride` is the line's
/// length): a kernel may write it in place. Checked as [`store`] checks
/// the store.
#[inline(always)]
#[track_caller]
fn dense_destination<T: Element, const R: usize, const C: usize, L: Layout>(
    dst: &mut [T],
    stride: usize,
) -> Option<&mut Matrix<T, R, C, L>> {
    check_extent::<L>("store", R, C, stride, dst.len());
    if stride == line_len::<L>(R, C) {
        Some(Matrix::mut_from_prefix(dst))
    } else {
        None
    }
}

/// `(m_t) s`: the matrix of layout `L` with every element `s`.
#[inline(always)]
pub fn splat<T: Element, const R: usize, const C: usize, L: Layout>(s: T) -> Matrix<T, R, C, L> {
    Matrix::filled(s)
}

/// Whether a debug build's `matrix!` kernel writes a transpose returned by
/// value out element by element, rather than calling [`transpose`]: where
/// matrix-core is itself unoptimised. There an 8x8 `f32` transpose took
/// 79 ns written out against 93 ns through the call; with matrix-core
/// optimised, 67 ns through the call against 78 ns written out
/// (dev-profile benchmarks, AVX-512 Xeon).
pub const WRITE_OUT_DEBUG_TRANSPOSES: bool = cfg!(matrix_core_opt0);

/// `__builtin_matrix_column_major_store(transpose(m), dst, stride)` (or
/// the row-major store of a row-major transpose), as [`store`] of
/// [`transpose`] computes it. Where the lines are dense, the transpose's
/// kernel writes `dst` itself, with no temporary and no copy of it (see
/// [`store_product`]).
///
/// # Panics
///
/// As [`store`]: if the stride is below the line's length, or `dst` is
/// shorter than the extent.
#[inline(always)]
#[track_caller]
pub fn store_transpose<D: Dispatch, T: Element, const R: usize, const C: usize, L: Layout>(
    d: D,
    m: &Matrix<T, R, C, L>,
    dst: &mut [T],
    stride: usize,
) {
    match dense_destination::<T, C, R, L>(dst, stride) {
        Some(out) => crate::ops::transpose_to(d, m, out),
        None => store(transpose(d, m), dst, stride),
    }
}

/// `m`'s storage, borrowed: where a chain written out for debug builds
/// reads its operands' elements (in memory order, which is the same in
/// every operand of a chain: they have the result's layout).
#[inline(always)]
pub fn storage<T: Element, const R: usize, const C: usize, L: Layout>(
    m: &Matrix<T, R, C, L>,
) -> &L::Storage<T, R, C> {
    m.storage_ref()
}

/// C's `memcpy(dst, src, bytes)` of arrays and pointers (slices here)
/// and of matrices (their storage): the first `bytes / size_of::<T>()`
/// elements of `src` copied to `dst`. The size comes first, so that the
/// expansion reads `sizeof m` before it borrows `m`.
///
/// # Panics
///
/// If `bytes` is not a whole number of elements, or either slice is
/// shorter than that many.
#[track_caller]
pub fn memcpy<T: Copy>(bytes: usize, dst: &mut [T], src: &[T]) {
    let n = elements::<T>("memcpy", bytes);
    assert!(
        n <= dst.len() && n <= src.len(),
        "memcpy of {n} elements ({bytes} bytes) from {} elements to {}: past the end",
        src.len(),
        dst.len()
    );
    dst[..n].copy_from_slice(&src[..n]);
}

/// C's `memset(dst, value, bytes)`: each of the first `bytes` bytes of
/// `dst` set to `value` converted to `unsigned char`, as C sets them
/// (`memset(p, 0, ..)` is zero, `memset(p, -1, ..)` all ones). The size
/// comes first, as [`memcpy`]'s.
///
/// # Panics
///
/// If `bytes` is not a whole number of elements, or `dst` is shorter than
/// that many.
#[track_caller]
pub fn memset<T: FromByte>(bytes: usize, dst: &mut [T], value: i32) {
    let n = elements::<T>("memset", bytes);
    assert!(
        n <= dst.len(),
        "memset of {n} elements ({bytes} bytes) of {}: past the end",
        dst.len()
    );
    // C converts the value to `unsigned char`: its low byte.
    dst[..n].fill(T::from_byte(value as u8));
}

/// The elements `bytes` bytes make, for [`memcpy`] and [`memset`].
#[track_caller]
fn elements<T>(what: &str, bytes: usize) -> usize {
    let size = size_of::<T>().max(1);
    assert!(
        bytes.is_multiple_of(size),
        "{what} of {bytes} bytes: not a whole number of {size}-byte elements"
    );
    bytes / size
}

/// A value whose every byte is one byte, as [`memset`] writes it: the
/// numbers a matrix or a C array holds, and arrays of them (a row of a
/// two-dimensional array).
#[diagnostic::on_unimplemented(
    message = "memset of an array of '{Self}', which is not a number",
    label = "memset sets numbers"
)]
pub trait FromByte: Copy {
    /// Every byte `b`.
    fn from_byte(b: u8) -> Self;
}

macro_rules! from_byte {
    ($($t:ty),*) => {$(
        impl FromByte for $t {
            #[inline]
            fn from_byte(b: u8) -> Self {
                <$t>::from_ne_bytes([b; size_of::<$t>()])
            }
        }
    )*};
}
from_byte!(i8, u8, i16, u16, i32, u32, i64, u64, isize, usize, f32, f64);

#[cfg(feature = "f16")]
impl FromByte for half::f16 {
    #[inline]
    fn from_byte(b: u8) -> Self {
        half::f16::from_bits(u16::from_byte(b))
    }
}

#[cfg(feature = "bf16")]
impl FromByte for half::bf16 {
    #[inline]
    fn from_byte(b: u8) -> Self {
        half::bf16::from_bits(u16::from_byte(b))
    }
}

impl<T: FromByte, const N: usize> FromByte for [T; N] {
    #[inline]
    fn from_byte(b: u8) -> Self {
        [T::from_byte(b); N]
    }
}

/// `f(x)`: the closure of `__builtin_matrix_map` on one element (a call
/// rather than a closure expression called in place, which would need an
/// attribute on an expression to be inlined at opt-level 0).
#[inline(always)]
pub fn apply1<X, R>(f: impl FnOnce(X) -> R, x: X) -> R {
    f(x)
}

/// `f(x, y)`: the closure of `__builtin_matrix_zip` on one pair of elements.
#[inline(always)]
pub fn apply2<X, Y, R>(f: impl FnOnce(X, Y) -> R, x: X, y: Y) -> R {
    f(x, y)
}

/// Whether a product of `T` under `#[fp_contract(fast)]` rounds each
/// multiply-add once on `d`. The expansion's written-out products (debug
/// builds) follow it, so a kernel gives the same bits at every optimisation
/// level.
#[inline(always)]
pub fn fuses<T: Element, D: Dispatch>(d: D) -> bool {
    T::fuses(d)
}

/// `a + b` of two elements, as matrices add them (wrapping for integers).
#[inline(always)]
pub fn add<T: Arith>(a: T, b: T) -> T {
    a.add(b)
}

/// `a - b` of two elements, as matrices subtract them (wrapping for
/// integers).
#[inline(always)]
pub fn sub<T: Arith>(a: T, b: T) -> T {
    a.sub(b)
}

/// `a * b` of two elements, as matrices multiply them (wrapping for
/// integers).
#[inline(always)]
pub fn mul<T: Arith>(a: T, b: T) -> T {
    a.mul(b)
}

/// `a / b` of two elements, as matrices divide them (`wrapping_div` for
/// integers: panics on a zero divisor).
#[inline(always)]
#[track_caller]
pub fn div<T: Arith>(a: T, b: T) -> T {
    a.div(b)
}

/// `a * b + c` rounded once (for integers `a * b + c`, wrapping): a fused
/// step of a written-out product.
#[inline(always)]
pub fn mul_add<T: Arith>(a: T, b: T, c: T) -> T {
    a.mul_add(b, c)
}

/// `x as U` between element types (a matrix cast, element by element).
#[inline(always)]
pub fn cast<U: Arith, T: Arith>(x: T) -> U {
    x.cast_to::<U>()
}

/// The type an invalid typedef names: the macro has already reported the
/// typedef's error, and this stand-in keeps the rest of the block from
/// producing further errors about it.
#[derive(Clone, Copy, Debug)]
pub struct InvalidMatrixType;

/// C's `__bf16`, as the expansion names it.
#[cfg(feature = "bf16")]
pub use half::bf16;
/// C's `_Float16`, as the expansion names it.
#[cfg(feature = "f16")]
pub use half::f16;

// ---------------------------------------------------------------------------
// Rows and columns as vectors

/// `__builtin_matrix_column(m, c)`: column `c` (already checked) as a vector.
#[inline]
pub fn column<T: Lanes<R>, const R: usize, const C: usize, L: Layout>(
    m: &Matrix<T, R, C, L>,
    c: usize,
) -> Vector<T, R> {
    Vector::from_array(m.column(c))
}

/// `__builtin_matrix_row(m, r)`: row `r` (already checked) as a vector.
#[inline]
pub fn row<T: Lanes<C>, const R: usize, const C: usize, L: Layout>(
    m: &Matrix<T, R, C, L>,
    r: usize,
) -> Vector<T, C> {
    Vector::from_array(m.row(r))
}

/// `__builtin_matrix_insert_column(m, c, v)`: `m` with column `c` (already
/// checked) replaced by `v`.
#[inline]
pub fn with_column<T: Lanes<R>, const R: usize, const C: usize, L: Layout>(
    mut m: Matrix<T, R, C, L>,
    c: usize,
    v: Vector<T, R>,
) -> Matrix<T, R, C, L> {
    for (r, x) in v.to_array().into_iter().enumerate() {
        m[(r, c)] = x;
    }
    m
}

/// `__builtin_matrix_insert_row(m, r, v)`: `m` with row `r` (already
/// checked) replaced by `v`.
#[inline]
pub fn with_row<T: Lanes<C>, const R: usize, const C: usize, L: Layout>(
    mut m: Matrix<T, R, C, L>,
    r: usize,
    v: Vector<T, C>,
) -> Matrix<T, R, C, L> {
    for (c, x) in v.to_array().into_iter().enumerate() {
        m[(r, c)] = x;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memcpy_and_memset_work_in_bytes_as_c() {
        let mut dst = [0.0f32; 4];
        memcpy(8, &mut dst, &[1.0, 2.0, 3.0]);
        assert_eq!(dst, [1.0, 2.0, 0.0, 0.0]);
        memset(8, &mut dst[1..], -1);
        assert_eq!(dst[0], 1.0);
        assert!(dst[1].is_nan() && dst[2].is_nan());
        assert_eq!(dst[3], 0.0);
        let mut grid = [[7u16; 2]; 3];
        memset(8, &mut grid, 0x01);
        assert_eq!(grid, [[0x0101; 2], [0x0101; 2], [7; 2]]);
    }

    #[test]
    #[should_panic(expected = "memcpy of 6 bytes: not a whole number of 4-byte elements")]
    fn memcpy_refuses_part_of_an_element() {
        memcpy(6, &mut [0i32; 4], &[1, 2]);
    }

    #[test]
    #[should_panic(expected = "memset of 5 elements (20 bytes) of 4: past the end")]
    fn memset_refuses_to_pass_the_end() {
        memset(20, &mut [0.0f32; 4], 0);
    }

    #[test]
    fn index_values() {
        assert_eq!(row_index(3u8, 4), 3);
        assert_eq!(column_index(0i64, 1), 0);
        assert_eq!(
            row_index(u128::from(u64::MAX) - 1, usize::MAX),
            usize::MAX - 1
        );
        assert_eq!(stride::<ColumnMajor, _>(4i32, 4, 1), 4);
        assert_eq!(stride::<ColumnMajor, _>(0usize, 0, 1), 0);
    }

    #[test]
    #[should_panic(expected = "matrix row index -1 is outside the allowed range [0, 4)")]
    fn negative_row() {
        row_index(-1i32, 4);
    }

    #[test]
    #[should_panic(
        expected = "matrix column index 340282366920938463463374607431768211455 is outside the allowed range [0, 4)"
    )]
    fn huge_column() {
        column_index(u128::MAX, 4);
    }

    #[test]
    #[should_panic(expected = "stride -2 must be greater or equal to the number of rows (4)")]
    fn negative_stride() {
        stride::<ColumnMajor, _>(-2i8, 4, 1);
    }

    #[test]
    #[should_panic(expected = "needs more than usize::MAX elements, but the slice has 3")]
    fn overflowing_extent() {
        let _ = load::<u8, 2, 3, ColumnMajor>(&[0; 3], usize::MAX);
    }

    #[test]
    fn zero_columns() {
        let m = load::<u8, 2, 0, ColumnMajor>(&[], 2);
        store(m, &mut [], 2);
    }

    #[test]
    fn pointer_forms() {
        let src: [i16; 7] = [0, 1, 2, 3, 4, 5, 6];
        // SAFETY: a 2x3 load with stride 2 reads (3-1)*2 + 2 = 6 <= 7 elements.
        let m = unsafe { load_ptr::<i16, 2, 3, ColumnMajor>(src.as_ptr(), 2) };
        assert_eq!(m.to_rows(), [[0, 2, 4], [1, 3, 5]]);
        let mut dst = [-1i16; 8];
        // SAFETY: a 2x3 store with stride 3 writes within (3-1)*3 + 2 = 8 elements.
        unsafe { store_ptr(m, dst.as_mut_ptr(), 3) };
        assert_eq!(dst, [0, 1, -1, 2, 3, -1, 4, 5]);
    }

    #[test]
    fn conversions() {
        assert_eq!(convert::<u32, _>(-1i32), u32::MAX);
        assert_eq!(convert::<i8, _>(-129i128), 127);
        assert_eq!(convert::<f64, _>(usize::MAX), 18446744073709551615.0);
        assert_eq!(convert::<i64, _>(f32::NEG_INFINITY), i64::MIN);
        assert_eq!(convert::<u16, _>(false), 0);
    }
}
