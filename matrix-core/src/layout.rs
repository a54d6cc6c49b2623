//! Memory layouts of a [`Matrix`](crate::Matrix): the fourth type
//! parameter, [`ColumnMajor`] (the default, Clang's) or [`RowMajor`].
//!
//! A layout decides only where element `(r, c)` lives in memory; indexing,
//! arithmetic and every result are the same in both. Two matrices that
//! differ only in layout are different types: converting one into the
//! other is explicit ([`Matrix::to_layout`](crate::Matrix::to_layout),
//! `From`, or a cast in a `matrix!` kernel).
//!
//! # Byte order
//!
//! Neither layout has padding; both have the alignment of `T`, and
//! `size_of` is `R * C * size_of::<T>()`.
//!
//! * [`ColumnMajor`]: element `(r, c)` is element `c * R + r` of the
//!   storage, which is `[[T; R]; C]` (one array per column). Clang's
//!   `matrix_type(R, C)`.
//! * [`RowMajor`]: element `(r, c)` is element `r * C + c`, the storage is
//!   `[[T; C]; R]` (one array per row): clang 22's
//!   `-fmatrix-memory-layout=row-major`, and the `row_major` clause of a
//!   `matrix!` typedef. An `R x C` row-major matrix has the bytes of the
//!   `C x R` column-major matrix that is its transpose, which is how the
//!   product kernels read it (in place, with no conversion).
//!
//! ```
//! use matrix_core::{Matrix, RowMajor};
//!
//! let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
//! let r: Matrix<i32, 2, 3, RowMajor> = m.to_layout();
//! assert_eq!(m.as_slice(), &[1, 4, 2, 5, 3, 6]);
//! assert_eq!(r.as_slice(), &[1, 2, 3, 4, 5, 6]);
//! assert_eq!(r[(1, 0)], m[(1, 0)]);
//! ```

use core::fmt::Debug;
use core::hash::Hash;
use core::marker::PhantomData;

use crate::element::Element;
use crate::kernels::passes::{self, Arithmetic};

mod sealed {
    pub trait Sealed {}
}

/// The memory layout of a [`Matrix`](crate::Matrix): [`ColumnMajor`] or
/// [`RowMajor`]. Sealed; see the [module documentation](self) for each
/// layout's byte order.
///
/// ```
/// use matrix_core::{Layout, Matrix, RowMajor};
///
/// /// Describes a matrix of any layout.
/// fn describe<L: Layout>(_: &Matrix<f32, 2, 2, L>) -> &'static str {
///     L::NAME
/// }
/// let m = Matrix::<f32, 2, 2>::identity();
/// assert_eq!(describe(&m), "column_major");
/// assert_eq!(describe(&m.to_layout::<RowMajor>()), "row_major");
/// ```
#[diagnostic::on_unimplemented(
    message = "the layout of a `Matrix` is `ColumnMajor` or `RowMajor`, not `{Self}`",
    label = "not a matrix layout"
)]
pub trait Layout:
    sealed::Sealed + Copy + Default + Debug + Eq + Hash + Send + Sync + 'static
{
    /// Whether the rows are contiguous (`RowMajor`) rather than the columns.
    ///
    /// ```
    /// use matrix_core::{ColumnMajor, Layout, RowMajor};
    ///
    /// assert!(RowMajor::ROW_MAJOR);
    /// assert!(!ColumnMajor::ROW_MAJOR);
    /// ```
    const ROW_MAJOR: bool;

    /// The spelling of the layout in a `matrix_type` attribute.
    ///
    /// ```
    /// use matrix_core::{ColumnMajor, Layout, RowMajor};
    ///
    /// assert_eq!(ColumnMajor::NAME, "column_major");
    /// assert_eq!(RowMajor::NAME, "row_major");
    /// ```
    const NAME: &'static str;

    /// The array an `R x C` matrix of this layout holds: `[[T; R]; C]`
    /// (columns) or `[[T; C]; R]` (rows).
    ///
    /// ```
    /// use matrix_core::{ColumnMajor, Layout, Matrix, RowMajor};
    ///
    /// // A 2x3 matrix: three columns of two, or two rows of three.
    /// let columns: <ColumnMajor as Layout>::Storage<i32, 2, 3> = [[1, 4], [2, 5], [3, 6]];
    /// let rows: <RowMajor as Layout>::Storage<i32, 2, 3> = [[1, 2, 3], [4, 5, 6]];
    /// let m = Matrix::<i32, 2, 3, ColumnMajor>::from_storage(columns);
    /// assert_eq!(m, Matrix::<i32, 2, 3, RowMajor>::from_storage(rows).to_layout());
    /// ```
    type Storage<T: Element, const R: usize, const C: usize>: Copy + Send + Sync;

    /// The storage, every element filled with `value`.
    #[doc(hidden)]
    fn splat<T: Element, const R: usize, const C: usize>(value: T) -> Self::Storage<T, R, C>;

    /// The storage of zeros, a constant: at opt-level 0 a copy of it,
    /// where [`Layout::splat`] is a loop over the elements and a copy per
    /// line (which reads the first line back before its stores have
    /// landed). A 4x4 `f32` `Matrix::default()` took about 20 ns less,
    /// on an AVX-512 Xeon.
    #[doc(hidden)]
    fn zeroed<T: Element, const R: usize, const C: usize>() -> Self::Storage<T, R, C>;

    /// The storage's elements, in memory order.
    #[doc(hidden)]
    fn flat<T: Element, const R: usize, const C: usize>(s: &Self::Storage<T, R, C>) -> &[T];

    /// The storage's elements, in memory order.
    #[doc(hidden)]
    fn flat_mut<T: Element, const R: usize, const C: usize>(
        s: &mut Self::Storage<T, R, C>,
    ) -> &mut [T];

    /// `a[i] = a[i] op b[i]` over the storages, inlined: what `Matrix`'s
    /// operators run where matrix-core is not optimised
    /// (`kernels::passes`).
    #[doc(hidden)]
    fn zip_lines<T: Element, const R: usize, const C: usize>(
        a: &mut Self::Storage<T, R, C>,
        b: &Self::Storage<T, R, C>,
        op: Arithmetic,
    );

    /// `a[i] = a[i] op s` (`s op a[i]` when `scalar_first`) over the
    /// storage, inlined, as [`Layout::zip_lines`].
    #[doc(hidden)]
    fn scalar_lines<T: Element, const R: usize, const C: usize>(
        a: &mut Self::Storage<T, R, C>,
        op: Arithmetic,
        s: T,
        scalar_first: bool,
    );

    /// The transpose of `a` into `out`, inlined, as [`Layout::zip_lines`].
    #[doc(hidden)]
    fn transpose_lines<T: Element, const R: usize, const C: usize>(
        a: &Self::Storage<T, R, C>,
        out: &mut Self::Storage<T, C, R>,
    );

    /// The product `a * b` into `out` in the contract's order, inlined, as
    /// [`Layout::zip_lines`].
    #[doc(hidden)]
    fn product_lines<T: Element, const M: usize, const K: usize, const N: usize>(
        a: &Self::Storage<T, M, K>,
        b: &Self::Storage<T, K, N>,
        out: &mut Self::Storage<T, M, N>,
    );

    /// The storage as its columns, where it is made of them (a
    /// column-major matrix's); `None` for a row-major one. With
    /// [`Layout::rows`], what layout-generic code on the line forms (a
    /// product whose operands and result may have different layouts) reads
    /// in place: an `Option` of a reference is a pointer, and testing it
    /// costs a comparison even at opt-level 0.
    #[doc(hidden)]
    fn columns<T: Element, const R: usize, const C: usize>(
        s: &Self::Storage<T, R, C>,
    ) -> Option<&[[T; R]; C]>;

    /// The storage as its rows, where it is made of them (a row-major
    /// matrix's), as [`Layout::columns`].
    #[doc(hidden)]
    fn rows<T: Element, const R: usize, const C: usize>(
        s: &Self::Storage<T, R, C>,
    ) -> Option<&[[T; C]; R]>;

    /// [`Layout::columns`], mutably borrowed.
    #[doc(hidden)]
    fn columns_mut<T: Element, const R: usize, const C: usize>(
        s: &mut Self::Storage<T, R, C>,
    ) -> Option<&mut [[T; R]; C]>;

    /// [`Layout::rows`], mutably borrowed.
    #[doc(hidden)]
    fn rows_mut<T: Element, const R: usize, const C: usize>(
        s: &mut Self::Storage<T, R, C>,
    ) -> Option<&mut [[T; C]; R]>;

    /// Where element `(r, c)` of an `rows x cols` matrix is in memory.
    ///
    /// ```
    /// use matrix_core::{ColumnMajor, Layout, RowMajor};
    ///
    /// // Element (1, 0) of a 2x3 matrix.
    /// assert_eq!(ColumnMajor::offset(1, 0, 2, 3), 1);
    /// assert_eq!(RowMajor::offset(1, 0, 2, 3), 3);
    /// ```
    #[inline(always)]
    fn offset(r: usize, c: usize, rows: usize, cols: usize) -> usize {
        if Self::ROW_MAJOR {
            r * cols + c
        } else {
            c * rows + r
        }
    }
}

/// Column-major: each column contiguous, Clang's `matrix_type` layout and
/// the default layout of [`Matrix`](crate::Matrix).
///
/// ```
/// use matrix_core::{ColumnMajor, Matrix};
///
/// let m: Matrix<i32, 2, 2, ColumnMajor> = Matrix::from_rows([[1, 2], [3, 4]]);
/// assert_eq!(m.as_slice(), &[1, 3, 2, 4]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ColumnMajor;

/// Row-major: each row contiguous (clang 22's
/// `-fmatrix-memory-layout=row-major`, C's `float m[R][C]`).
///
/// ```
/// use matrix_core::{Matrix, RowMajor};
///
/// let m: Matrix<i32, 2, 2, RowMajor> = Matrix::from_rows([[1, 2], [3, 4]]).to_layout();
/// assert_eq!(m.as_slice(), &[1, 2, 3, 4]);
/// assert_eq!(m[(0, 1)], 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RowMajor;

impl sealed::Sealed for ColumnMajor {}
impl sealed::Sealed for RowMajor {}

/// `Some($s)` where `$kind`, the lines the storage `$s` is made of, are
/// the lines asked for (`$want`); `None` where they are the other kind.
macro_rules! lines_if {
    (Columns, Columns, $s:expr) => {
        Some($s)
    };
    (Rows, Rows, $s:expr) => {
        Some($s)
    };
    ($kind:ident, $want:ident, $s:expr) => {{
        let _ = $s;
        None
    }};
}

/// `LINES` lines of `N` zeros, as a constant.
struct Zeros<T, const N: usize, const LINES: usize>(PhantomData<T>);

impl<T: Element, const N: usize, const LINES: usize> Zeros<T, N, LINES> {
    const LINES: [[T; N]; LINES] = [[T::ZERO; N]; LINES];
}

/// The product of two storages whose lines are `$kind` into a third.
macro_rules! lines_product {
    (Columns, $a:expr, $b:expr, $out:expr) => {
        passes::product_columns($a, $b, $out)
    };
    (Rows, $a:expr, $b:expr, $out:expr) => {
        passes::product_rows($a, $b, $out)
    };
}

/// One layout's impl: its lines are `[T; LINE]` arrays, `LINES` of them,
/// and `$kind` says which lines they are: `Columns` or `Rows`.
macro_rules! layout {
    ($name:ident, $row_major:literal, $spelling:literal, $line:ident, $lines:ident, $kind:ident) => {
        impl Layout for $name {
            const ROW_MAJOR: bool = $row_major;
            const NAME: &'static str = $spelling;
            type Storage<T: Element, const R: usize, const C: usize> = [[T; $line]; $lines];

            #[inline(always)]
            fn splat<T: Element, const R: usize, const C: usize>(value: T) -> [[T; $line]; $lines] {
                [[value; $line]; $lines]
            }
            #[inline(always)]
            fn zeroed<T: Element, const R: usize, const C: usize>() -> [[T; $line]; $lines] {
                Zeros::<T, $line, $lines>::LINES
            }
            #[inline(always)]
            fn flat<T: Element, const R: usize, const C: usize>(s: &[[T; $line]; $lines]) -> &[T] {
                s.as_flattened()
            }
            #[inline(always)]
            fn flat_mut<T: Element, const R: usize, const C: usize>(
                s: &mut [[T; $line]; $lines],
            ) -> &mut [T] {
                s.as_flattened_mut()
            }
            #[inline(always)]
            fn zip_lines<T: Element, const R: usize, const C: usize>(
                a: &mut [[T; $line]; $lines],
                b: &[[T; $line]; $lines],
                op: Arithmetic,
            ) {
                passes::zip_lines(a, b, op);
            }
            #[inline(always)]
            fn scalar_lines<T: Element, const R: usize, const C: usize>(
                a: &mut [[T; $line]; $lines],
                op: Arithmetic,
                s: T,
                scalar_first: bool,
            ) {
                passes::scalar_lines(a, op, s, scalar_first);
            }
            #[inline(always)]
            fn transpose_lines<T: Element, const R: usize, const C: usize>(
                a: &Self::Storage<T, R, C>,
                out: &mut Self::Storage<T, C, R>,
            ) {
                passes::transpose_lines(a, out);
            }
            #[inline(always)]
            fn product_lines<T: Element, const M: usize, const K: usize, const N: usize>(
                a: &Self::Storage<T, M, K>,
                b: &Self::Storage<T, K, N>,
                out: &mut Self::Storage<T, M, N>,
            ) {
                lines_product!($kind, a, b, out);
            }
            #[inline(always)]
            fn columns<T: Element, const R: usize, const C: usize>(
                s: &[[T; $line]; $lines],
            ) -> Option<&[[T; R]; C]> {
                lines_if!($kind, Columns, s)
            }
            #[inline(always)]
            fn rows<T: Element, const R: usize, const C: usize>(
                s: &[[T; $line]; $lines],
            ) -> Option<&[[T; C]; R]> {
                lines_if!($kind, Rows, s)
            }
            #[inline(always)]
            fn columns_mut<T: Element, const R: usize, const C: usize>(
                s: &mut [[T; $line]; $lines],
            ) -> Option<&mut [[T; R]; C]> {
                lines_if!($kind, Columns, s)
            }
            #[inline(always)]
            fn rows_mut<T: Element, const R: usize, const C: usize>(
                s: &mut [[T; $line]; $lines],
            ) -> Option<&mut [[T; C]; R]> {
                lines_if!($kind, Rows, s)
            }
        }
    };
}

layout!(ColumnMajor, false, "column_major", R, C, Columns);
layout!(RowMajor, true, "row_major", C, R, Rows);
