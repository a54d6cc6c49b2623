//! Loads and stores in any memory order: [`MemoryLayout`], after the
//! layout-aware load and store intrinsics of LLVM's extended matrix
//! proposal (`matrix.columnmajor`, `matrix.rowmajor`, `matrix.packed_a`,
//! `matrix.packed_b`).

use core::fmt;

use crate::element::Element;
use crate::layout::Layout;
use crate::matrix::Matrix;

/// Where each element of a matrix is in a buffer: a memory layout says where element `(r, c)` of an `R x C` matrix is in a
/// buffer; it is not part of any type. [`Matrix::load`] reads a matrix from
/// a buffer in any of the four and [`Matrix::store`] writes one, whatever
/// the matrix's own [`Layout`]; in a `matrix!` kernel,
/// `__builtin_matrix_load(p, R, C, packed_b)` and
/// `__builtin_matrix_store(m, p, packed_b)` do the same.
///
/// # Byte order
///
/// Every layout is a sequence of *lines*, line `i` starting at element
/// `i * stride` of the buffer; the stride is at least a line's length and
/// defaults to it (dense lines). Nothing between two lines is read or
/// written. `G` is the packing group: `4 / size_of::<T>()` for 1- and
/// 2-byte elements (4 for `i8`/`u8`, 2 for `i16`/`u16`/`f16`), so that a
/// group fills one 32-bit word, and 1 for wider elements.
///
/// | layout | lines | line length | element `(r, c)` at |
/// |---|---|---|---|
/// | `ColumnMajor` | `C` columns | `R` | `c*stride + r` |
/// | `RowMajor` | `R` rows | `C` | `r*stride + c` |
/// | `PackedA` | `ceil(C / G)` | `R*G` | `(c/G)*stride + r*G + c%G` |
/// | `PackedB` | `ceil(R / G)` | `C*G` | `(r/G)*stride + c*G + r%G` |
///
/// `PackedB` is the VNNI layout of a product's right operand (`K x N`): each
/// 32-bit word holds `G` consecutive elements of one column (four `i8` of
/// rows `4p..4p+4`, or two 16-bit elements of rows `2p, 2p+1`), the words of
/// one group of rows in column order. It is the layout `vpdpbusd` and
/// AMX's `tdpbssd`/`tdpbf16ps` read their right tile in. `PackedA` is the
/// same packing of a left operand (`M x K`) along its columns, `K`: each
/// word holds `G` consecutive elements of one row, the words of one group
/// of columns in row order. With `G = 1` they are `ColumnMajor` and
/// `RowMajor`.
///
/// When `G` does not divide the packed dimension, the last line's group has
/// words only partly used: a store writes zero there, a load ignores it.
///
/// ```
/// use matrix_core::{Matrix, MemoryLayout};
///
/// // A 6x2 `i8` right operand: rows 0..4 share the first line, rows 4..6
/// // the second (padded with zeros to a whole word per column).
/// let b = Matrix::<i8, 6, 2>::from_fn(|r, c| (10 * r + c) as i8);
/// let mut packed = [-1i8; 16];
/// b.store(&mut packed, MemoryLayout::PackedB);
/// assert_eq!(
///     packed,
///     [0, 10, 20, 30, 1, 11, 21, 31, 40, 50, 0, 0, 41, 51, 0, 0]
/// );
/// assert_eq!(Matrix::<i8, 6, 2>::load(&packed, MemoryLayout::PackedB), b);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryLayout {
    /// Each column contiguous (Clang's `__builtin_matrix_column_major_load`).
    ColumnMajor,
    /// Each row contiguous (`__builtin_matrix_row_major_load`).
    RowMajor,
    /// A left operand packed for VNNI: groups of `G` consecutive columns,
    /// each row's `G` elements of a group adjacent.
    PackedA,
    /// A right operand packed for VNNI and AMX: groups of `G` consecutive
    /// rows, each column's `G` elements of a group adjacent.
    PackedB,
}

impl MemoryLayout {
    /// Every memory layout.
    ///
    /// ```
    /// use matrix_core::MemoryLayout;
    ///
    /// let names = MemoryLayout::ALL.map(MemoryLayout::name);
    /// assert_eq!(names, ["column_major", "row_major", "packed_a", "packed_b"]);
    /// ```
    pub const ALL: [MemoryLayout; 4] = [
        MemoryLayout::ColumnMajor,
        MemoryLayout::RowMajor,
        MemoryLayout::PackedA,
        MemoryLayout::PackedB,
    ];

    /// The layout's spelling as an argument of `__builtin_matrix_load`:
    /// `column_major`, `row_major`, `packed_a` or `packed_b`.
    ///
    /// ```
    /// use matrix_core::MemoryLayout;
    ///
    /// assert_eq!(MemoryLayout::PackedB.name(), "packed_b");
    /// assert_eq!(MemoryLayout::PackedB.to_string(), "packed_b");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            MemoryLayout::ColumnMajor => "column_major",
            MemoryLayout::RowMajor => "row_major",
            MemoryLayout::PackedA => "packed_a",
            MemoryLayout::PackedB => "packed_b",
        }
    }

    /// How many consecutive elements of a line of the matrix share a
    /// packed word: `G` for the packed layouts (4 for 1-byte elements, 2
    /// for 2-byte ones, 1 for wider), 1 for the others.
    ///
    /// ```
    /// use matrix_core::MemoryLayout;
    ///
    /// assert_eq!(MemoryLayout::PackedB.group::<i8>(), 4);
    /// assert_eq!(MemoryLayout::PackedB.group::<i16>(), 2);
    /// assert_eq!(MemoryLayout::PackedB.group::<f32>(), 1);
    /// assert_eq!(MemoryLayout::ColumnMajor.group::<i8>(), 1);
    /// ```
    #[must_use]
    pub const fn group<T>(self) -> usize {
        let size = size_of::<T>();
        match self {
            MemoryLayout::PackedA | MemoryLayout::PackedB if size > 0 && size < 4 => 4 / size,
            _ => 1,
        }
    }

    /// The length of one line of an `rows x cols` matrix: the smallest
    /// stride, and the one [`Matrix::load`] and [`Matrix::store`] use.
    ///
    /// ```
    /// use matrix_core::MemoryLayout;
    ///
    /// // A 3x2 matrix of `i16`: columns of 3, rows of 2, and packed pairs of
    /// // rows, each holding 2 columns of 2 elements.
    /// assert_eq!(MemoryLayout::ColumnMajor.line_len::<i16>(3, 2), 3);
    /// assert_eq!(MemoryLayout::RowMajor.line_len::<i16>(3, 2), 2);
    /// assert_eq!(MemoryLayout::PackedB.line_len::<i16>(3, 2), 4);
    /// ```
    #[must_use]
    pub const fn line_len<T>(self, rows: usize, cols: usize) -> usize {
        let g = self.group::<T>();
        match self {
            MemoryLayout::ColumnMajor => rows,
            MemoryLayout::RowMajor => cols,
            MemoryLayout::PackedA => rows * g,
            MemoryLayout::PackedB => cols * g,
        }
    }

    /// The number of lines of an `rows x cols` matrix.
    ///
    /// ```
    /// use matrix_core::MemoryLayout;
    ///
    /// assert_eq!(MemoryLayout::ColumnMajor.lines::<i16>(3, 2), 2);
    /// assert_eq!(MemoryLayout::RowMajor.lines::<i16>(3, 2), 3);
    /// // Rows 0-1, then row 2 with a zero in the place of row 3.
    /// assert_eq!(MemoryLayout::PackedB.lines::<i16>(3, 2), 2);
    /// ```
    #[must_use]
    pub const fn lines<T>(self, rows: usize, cols: usize) -> usize {
        let g = self.group::<T>();
        match self {
            MemoryLayout::ColumnMajor => cols,
            MemoryLayout::RowMajor => rows,
            MemoryLayout::PackedA => cols.div_ceil(g),
            MemoryLayout::PackedB => rows.div_ceil(g),
        }
    }

    /// The number of elements a load or store of an `rows x cols` matrix
    /// with this stride spans, `(lines - 1) * stride + line_len`, or `None`
    /// if that overflows `usize`. Zero for an empty matrix.
    ///
    /// ```
    /// use matrix_core::MemoryLayout;
    ///
    /// // Three columns of four, eight elements apart: 2 * 8 + 4.
    /// assert_eq!(MemoryLayout::ColumnMajor.extent::<f32>(4, 3, 8), Some(20));
    /// assert_eq!(MemoryLayout::ColumnMajor.extent::<f32>(4, 3, usize::MAX), None);
    /// assert_eq!(MemoryLayout::RowMajor.extent::<f32>(0, 3, 8), Some(0));
    /// ```
    #[must_use]
    pub const fn extent<T>(self, rows: usize, cols: usize, stride: usize) -> Option<usize> {
        let lines = self.lines::<T>(rows, cols);
        let line = self.line_len::<T>(rows, cols);
        if lines == 0 || line == 0 {
            return Some(0);
        }
        match (lines - 1).checked_mul(stride) {
            Some(n) => n.checked_add(line),
            None => None,
        }
    }

    /// Where element `(r, c)` is, for lines `stride` elements apart.
    ///
    /// ```
    /// use matrix_core::MemoryLayout;
    ///
    /// assert_eq!(MemoryLayout::ColumnMajor.offset::<f32>(1, 2, 8), 2 * 8 + 1);
    /// assert_eq!(MemoryLayout::RowMajor.offset::<f32>(1, 2, 8), 8 + 2);
    /// // `i8` packed for VNNI: rows 4-7 form the second group; in it, column
    /// // 1 holds rows 4, 5, 6, 7 at places 4 to 7.
    /// assert_eq!(MemoryLayout::PackedB.offset::<i8>(5, 1, 16), 16 + 4 + 1);
    /// ```
    #[inline(always)]
    #[must_use]
    pub const fn offset<T>(self, r: usize, c: usize, stride: usize) -> usize {
        let g = self.group::<T>();
        match self {
            MemoryLayout::ColumnMajor => c * stride + r,
            MemoryLayout::RowMajor => r * stride + c,
            MemoryLayout::PackedA => (c / g) * stride + r * g + c % g,
            MemoryLayout::PackedB => (r / g) * stride + c * g + r % g,
        }
    }

    /// Panics: `stride` (below a line's length) is too small.
    #[cold]
    #[inline(never)]
    #[track_caller]
    pub(crate) fn stride_panic<T>(self, stride: impl fmt::Display, rows: usize, cols: usize) -> ! {
        let line = self.line_len::<T>(rows, cols);
        panic!(
            "stride {stride} must be greater or equal to the length of a {self} line \
             of a {rows}x{cols} matrix ({line})"
        )
    }

    /// Panics unless `stride` is at least a line's length and a buffer of
    /// `len` elements holds the extent.
    #[track_caller]
    fn check<T>(self, what: &str, rows: usize, cols: usize, stride: usize, len: usize) {
        if stride < self.line_len::<T>(rows, cols) {
            self.stride_panic::<T>(stride, rows, cols);
        }
        match self.extent::<T>(rows, cols, stride) {
            Some(needed) if needed <= len => {}
            Some(needed) => panic!(
                "{self} {what} of a {rows}x{cols} matrix with stride {stride} needs {needed} \
                 elements, but the buffer has {len}"
            ),
            None => panic!(
                "{self} {what} of a {rows}x{cols} matrix with stride {stride} needs more than \
                 usize::MAX elements, but the buffer has {len}"
            ),
        }
    }
}

impl fmt::Display for MemoryLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl<T: Element, const R: usize, const C: usize> Matrix<T, R, C> {
    /// Reads a matrix stored in `layout` with dense lines (stride
    /// [`MemoryLayout::line_len`]).
    ///
    /// # Panics
    ///
    /// If `src` is shorter than the extent ([`MemoryLayout::extent`]).
    ///
    /// ```
    /// use matrix_core::{Matrix, MemoryLayout};
    ///
    /// let m = Matrix::<u8, 2, 4>::load(&[1, 2, 3, 4, 5, 6, 7, 8], MemoryLayout::PackedA);
    /// assert_eq!(m.to_rows(), [[1, 2, 3, 4], [5, 6, 7, 8]]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn load(src: &[T], layout: MemoryLayout) -> Self {
        Self::load_strided(src, layout, layout.line_len::<T>(R, C))
    }

    /// Reads a matrix stored in `layout`, its lines `stride` elements apart.
    ///
    /// # Panics
    ///
    /// If `stride` is below a line's length, or `src` is shorter than the
    /// extent: `packed_b load of a 8x4 matrix with stride 16 needs 32
    /// elements, but the buffer has 20`.
    ///
    /// ```
    /// use matrix_core::{Matrix, MemoryLayout};
    ///
    /// // Rows of 3 in lines of 4: the fourth element of a line is not read.
    /// let data = [1, 2, 3, -1, 4, 5, 6];
    /// let m = Matrix::<i32, 2, 3>::load_strided(&data, MemoryLayout::RowMajor, 4);
    /// assert_eq!(m.to_rows(), [[1, 2, 3], [4, 5, 6]]);
    /// ```
    #[must_use]
    #[track_caller]
    pub fn load_strided(src: &[T], layout: MemoryLayout, stride: usize) -> Self {
        layout.check::<T>("load", R, C, stride, src.len());
        Matrix::from_fn(|r, c| src[layout.offset::<T>(r, c, stride)])
    }

    /// [`Matrix::load_strided`] through a raw pointer.
    ///
    /// # Panics
    ///
    /// If `stride` is below a line's length.
    ///
    /// # Safety
    ///
    /// `src` must be valid for reads of [`MemoryLayout::extent`] elements;
    /// it need not be aligned.
    ///
    /// ```
    /// use matrix_core::{Matrix, MemoryLayout};
    ///
    /// let data = [1, 2, 3, -1, 4, 5, 6];
    /// // SAFETY: the extent of a 2x3 row-major load with stride 4 is 7
    /// // elements, all of `data`.
    /// let m = unsafe { Matrix::<i32, 2, 3>::load_ptr(data.as_ptr(), MemoryLayout::RowMajor, 4) };
    /// assert_eq!(m.to_rows(), [[1, 2, 3], [4, 5, 6]]);
    /// ```
    #[track_caller]
    pub unsafe fn load_ptr(src: *const T, layout: MemoryLayout, stride: usize) -> Self {
        layout.check::<T>("load", R, C, stride, usize::MAX);
        Matrix::from_fn(|r, c| {
            // SAFETY: the stride is at least a line's length (checked), so
            // the offset of `(r, c)` is below the extent, which the caller
            // guarantees valid for reads; `read_unaligned` needs no
            // alignment.
            unsafe { src.add(layout.offset::<T>(r, c, stride)).read_unaligned() }
        })
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Matrix<T, R, C, L> {
    /// Writes the matrix in `layout` with dense lines (stride
    /// [`MemoryLayout::line_len`]); in a packed layout, the unused places
    /// of a last, partial group are written with zero.
    ///
    /// # Panics
    ///
    /// If `dst` is shorter than the extent ([`MemoryLayout::extent`]).
    ///
    /// ```
    /// use matrix_core::{Matrix, MemoryLayout};
    ///
    /// let m = Matrix::<i16, 3, 2>::from_rows([[1, 2], [3, 4], [5, 6]]);
    /// let mut packed = [9i16; 8];
    /// m.store(&mut packed, MemoryLayout::PackedB);
    /// assert_eq!(packed, [1, 3, 2, 4, 5, 0, 6, 0]);
    /// ```
    #[track_caller]
    pub fn store(&self, dst: &mut [T], layout: MemoryLayout) {
        self.store_strided(dst, layout, layout.line_len::<T>(R, C));
    }

    /// Writes the matrix in `layout`, its lines `stride` elements apart;
    /// nothing between lines is written.
    ///
    /// # Panics
    ///
    /// If `stride` is below a line's length, or `dst` is shorter than the
    /// extent.
    ///
    /// ```
    /// use matrix_core::{Matrix, MemoryLayout};
    ///
    /// let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// let mut buf = [-1; 7];
    /// m.store_strided(&mut buf, MemoryLayout::RowMajor, 4);
    /// assert_eq!(buf, [1, 2, 3, -1, 4, 5, 6]);
    /// ```
    #[track_caller]
    pub fn store_strided(&self, dst: &mut [T], layout: MemoryLayout, stride: usize) {
        layout.check::<T>("store", R, C, stride, dst.len());
        for_each_place::<T>(layout, R, C, |r, c| {
            dst[layout.offset::<T>(r, c, stride)] = self.get(r, c).unwrap_or(T::ZERO);
        });
    }

    /// [`Matrix::store_strided`] through a raw pointer.
    ///
    /// # Panics
    ///
    /// If `stride` is below a line's length.
    ///
    /// # Safety
    ///
    /// `dst` must be valid for writes of [`MemoryLayout::extent`] elements;
    /// it need not be aligned.
    ///
    /// ```
    /// use matrix_core::{Matrix, MemoryLayout};
    ///
    /// let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// let mut buf = [-1; 7];
    /// // SAFETY: the extent of a 2x3 row-major store with stride 4 is 7
    /// // elements, all of `buf`.
    /// unsafe { m.store_ptr(buf.as_mut_ptr(), MemoryLayout::RowMajor, 4) };
    /// assert_eq!(buf, [1, 2, 3, -1, 4, 5, 6]);
    /// ```
    #[track_caller]
    pub unsafe fn store_ptr(&self, dst: *mut T, layout: MemoryLayout, stride: usize) {
        layout.check::<T>("store", R, C, stride, usize::MAX);
        for_each_place::<T>(layout, R, C, |r, c| {
            let x = self.get(r, c).unwrap_or(T::ZERO);
            // SAFETY: every place `(r, c)` visited has `r`, `c` below the
            // group-rounded dimensions, so its offset is below the extent
            // (the stride is at least a line's length, checked), which the
            // caller guarantees valid for writes; `write_unaligned` needs
            // no alignment and `T: Copy` has nothing to drop.
            unsafe { dst.add(layout.offset::<T>(r, c, stride)).write_unaligned(x) };
        });
    }
}

/// Calls `f(r, c)` for every place a store in `layout` writes: the
/// matrix's elements, and in a packed layout the unused places of a last,
/// partial group (`r >= rows` or `c >= cols`, written with zero).
#[inline(always)]
fn for_each_place<T>(
    layout: MemoryLayout,
    rows: usize,
    cols: usize,
    mut f: impl FnMut(usize, usize),
) {
    let g = layout.group::<T>();
    let (rows, cols) = match layout {
        MemoryLayout::PackedA => (rows, cols.next_multiple_of(g)),
        MemoryLayout::PackedB => (rows.next_multiple_of(g), cols),
        _ => (rows, cols),
    };
    for c in 0..cols {
        for r in 0..rows {
            f(r, c);
        }
    }
}
