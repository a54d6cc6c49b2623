//! The value type: layout, constructors, element access, formatting.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::ops::{Index, IndexMut, Neg};

use crate::arith::Arith;
use crate::element::Element;
use crate::layout::{ColumnMajor, Layout, RowMajor};

/// A fixed-size `R`×`C` matrix of `T`, laid out exactly as Clang lays out
/// `T __attribute__((matrix_type(R, C)))`.
///
/// # Layout
///
/// `#[repr(C)]` around one `[[T; R]; C]`: the elements are stored in
/// **column-major** order with no padding, so
/// `size_of::<Matrix<T, R, C>>() == R * C * size_of::<T>()` and
/// `align_of::<Matrix<T, R, C>>() == align_of::<T>()`. A pointer to a
/// `Matrix<f32, 4, 4>` may be passed to C code that expects a
/// `float __attribute__((matrix_type(4, 4)))`, and the reverse.
///
/// ```
/// use matrix_core::Matrix;
///
/// let m = Matrix::<f32, 2, 3>::from_rows([[0.0, 1.0, 2.0], [10.0, 11.0, 12.0]]);
/// assert_eq!(m.as_slice(), &[0.0, 10.0, 1.0, 11.0, 2.0, 12.0]);
/// assert_eq!(size_of::<Matrix<f32, 2, 3>>(), 24);
/// assert_eq!(align_of::<Matrix<f32, 2, 3>>(), 4);
/// ```
///
/// # Indexing
///
/// `m[(r, c)]` is row `r`, column `c`; an index outside the matrix panics
/// with the index and the allowed range.
///
/// ```
/// use matrix_core::Matrix;
///
/// let mut m = Matrix::<i32, 2, 2>::identity();
/// m[(0, 1)] = 7;
/// assert_eq!(m.to_rows(), [[1, 7], [0, 1]]);
/// assert_eq!(m.get(2, 0), None);
/// ```
///
/// # Arithmetic
///
/// `+` and `-` of two matrices of one type, the matrix product `*` (whose
/// inner dimensions rustc checks through the const generics), and `+ - * /`
/// with a scalar of the element type. Integer arithmetic wraps; see the
/// [crate documentation](crate) for the exact semantics, including the
/// summation order of a product.
#[repr(C)]
pub struct Matrix<T: Element, const R: usize, const C: usize, L: Layout = ColumnMajor> {
    /// Column-major: column `c` is `storage[c]`, element `(r, c)` is
    /// `storage[c][r]`. Row-major: row `r` is `storage[r]`, element
    /// `(r, c)` is `storage[r][c]`.
    storage: L::Storage<T, R, C>,
    layout: PhantomData<L>,
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Clone for Matrix<T, R, C, L> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Copy for Matrix<T, R, C, L> {}

impl<T: Element, const R: usize, const C: usize, L: Layout> PartialEq for Matrix<T, R, C, L> {
    /// Element by element (so `NaN != NaN`, `0.0 == -0.0`).
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Element + Eq, const R: usize, const C: usize, L: Layout> Eq for Matrix<T, R, C, L> {}

impl<T: Element + Hash, const R: usize, const C: usize, L: Layout> Hash for Matrix<T, R, C, L> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

/// The error of [`Matrix::try_from_column_major`] and
/// [`Matrix::try_from_row_major`]: the slice does not have exactly
/// `R * C` elements.
///
/// ```
/// use matrix_core::Matrix;
///
/// let err = Matrix::<f32, 4, 3>::try_from_row_major(&[0.0; 10]).unwrap_err();
/// assert_eq!(err.expected(), 12);
/// assert_eq!(err.actual(), 10);
/// assert_eq!(err.to_string(), "a 4x3 matrix needs 12 elements, but the slice has 10");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LengthError {
    rows: usize,
    cols: usize,
    actual: usize,
}

impl LengthError {
    /// The number of elements the matrix needs, `R * C`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let err = Matrix::<f32, 2, 2>::try_from_row_major(&[1.0; 3]).unwrap_err();
    /// assert_eq!(err.expected(), 4);
    /// ```
    #[must_use]
    pub const fn expected(&self) -> usize {
        self.rows * self.cols
    }

    /// The length of the slice that was given.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let err = Matrix::<f32, 2, 2>::try_from_row_major(&[1.0; 3]).unwrap_err();
    /// assert_eq!(err.actual(), 3);
    /// ```
    #[must_use]
    pub const fn actual(&self) -> usize {
        self.actual
    }
}

impl fmt::Display for LengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {}x{} matrix needs {} elements, but the slice has {}",
            self.rows,
            self.cols,
            self.expected(),
            self.actual
        )
    }
}

impl core::error::Error for LengthError {}

#[cold]
#[inline(never)]
#[track_caller]
fn length_panic(function: &str, err: LengthError) -> ! {
    panic!("Matrix::{function}: {err}")
}

#[cold]
#[inline(never)]
#[track_caller]
fn index_panic(row: usize, col: usize, rows: usize, cols: usize) -> ! {
    panic!("matrix index ({row}, {col}) is outside the allowed range [0, {rows}) x [0, {cols})")
}

#[cold]
#[inline(never)]
#[track_caller]
fn line_panic(which: &str, index: usize, bound: usize) -> ! {
    panic!("matrix {which} index {index} is outside the allowed range [0, {bound})")
}

impl<T: Element, const R: usize, const C: usize> Matrix<T, R, C> {
    /// The number of rows, `R`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// type M2x3 = Matrix<f32, 2, 3>;
    /// assert_eq!(M2x3::ROWS, 2);
    /// ```
    pub const ROWS: usize = R;
    /// The number of columns, `C`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// type M2x3 = Matrix<f32, 2, 3>;
    /// assert_eq!(M2x3::COLS, 3);
    /// ```
    pub const COLS: usize = C;

    /// The matrix whose column `c` is `columns[c]`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_columns([[1, 2], [3, 4], [5, 6]]);
    /// assert_eq!(m.to_rows(), [[1, 3, 5], [2, 4, 6]]);
    /// ```
    #[must_use]
    #[inline]
    pub const fn from_columns(columns: [[T; R]; C]) -> Self {
        Self {
            storage: columns,
            layout: PhantomData,
        }
    }

    /// The matrix whose row `r` is `rows[r]`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(m[(1, 0)], 4);
    /// assert_eq!(m.as_slice(), &[1, 4, 2, 5, 3, 6]);
    ///
    /// // a `const fn`: usable in constants
    /// const FLIP: Matrix<f32, 2, 2> = Matrix::from_rows([[0.0, 1.0], [1.0, 0.0]]);
    /// assert_eq!(FLIP[(0, 1)], 1.0);
    /// ```
    #[must_use]
    #[inline]
    pub const fn from_rows(rows: [[T; C]; R]) -> Self {
        let mut m = Self::zero();
        let mut c = 0;
        while c < C {
            let mut r = 0;
            while r < R {
                m.storage[c][r] = rows[r][c];
                r += 1;
            }
            c += 1;
        }
        m
    }

    /// The matrix whose elements, column after column, are `elements`.
    ///
    /// # Panics
    ///
    /// If `elements.len() != R * C`, naming both lengths.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<u8, 2, 2>::from_column_major(&[1, 2, 3, 4]);
    /// assert_eq!(m.to_rows(), [[1, 3], [2, 4]]);
    /// ```
    #[must_use]
    #[inline]
    #[track_caller]
    pub fn from_column_major(elements: &[T]) -> Self {
        match Self::try_from_column_major(elements) {
            Ok(m) => m,
            Err(err) => length_panic("from_column_major", err),
        }
    }

    /// The matrix whose elements, row after row, are `elements`.
    ///
    /// # Panics
    ///
    /// If `elements.len() != R * C`, naming both lengths.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<u8, 2, 2>::from_row_major(&[1, 2, 3, 4]);
    /// assert_eq!(m.to_rows(), [[1, 2], [3, 4]]);
    /// ```
    #[must_use]
    #[inline]
    #[track_caller]
    pub fn from_row_major(elements: &[T]) -> Self {
        match Self::try_from_row_major(elements) {
            Ok(m) => m,
            Err(err) => length_panic("from_row_major", err),
        }
    }

    /// Like [`from_column_major`](Self::from_column_major), but returns a
    /// [`LengthError`] instead of panicking.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// assert!(Matrix::<f64, 2, 2>::try_from_column_major(&[1.0; 4]).is_ok());
    /// assert!(Matrix::<f64, 2, 2>::try_from_column_major(&[1.0; 5]).is_err());
    /// ```
    #[inline]
    pub fn try_from_column_major(elements: &[T]) -> Result<Self, LengthError> {
        Self::check_len(elements.len())?;
        let mut m = Self::zero();
        m.as_mut_slice().copy_from_slice(elements);
        Ok(m)
    }

    /// Like [`from_row_major`](Self::from_row_major), but returns a
    /// [`LengthError`] instead of panicking.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<i16, 1, 3>::try_from_row_major(&[1, 2, 3]).unwrap();
    /// assert_eq!(m.to_rows(), [[1, 2, 3]]);
    /// ```
    #[inline]
    pub fn try_from_row_major(elements: &[T]) -> Result<Self, LengthError> {
        Self::check_len(elements.len())?;
        Ok(Self::from_fn(|r, c| elements[r * C + c]))
    }

    /// The matrix with every element equal to `value`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// assert_eq!(Matrix::<i32, 2, 2>::splat(3).to_rows(), [[3, 3], [3, 3]]);
    /// ```
    #[must_use]
    #[inline]
    pub const fn splat(value: T) -> Self {
        Self {
            storage: [[value; R]; C],
            layout: PhantomData,
        }
    }

    /// The matrix of zeros (`0`, or `+0.0`).
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// assert_eq!(Matrix::<f32, 3, 2>::zero(), Matrix::splat(0.0));
    /// ```
    #[must_use]
    #[inline]
    pub const fn zero() -> Self {
        Self::splat(T::ZERO)
    }

    /// The matrix whose element `(r, c)` is `f(r, c)`; `f` is called in
    /// column-major order.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<u32, 2, 3>::from_fn(|r, c| (10 * r + c) as u32);
    /// assert_eq!(m.to_rows(), [[0, 1, 2], [10, 11, 12]]);
    /// ```
    #[must_use]
    #[inline]
    pub fn from_fn(mut f: impl FnMut(usize, usize) -> T) -> Self {
        Self::from_columns(core::array::from_fn(|c| core::array::from_fn(|r| f(r, c))))
    }

    /// The columns, borrowed: `as_columns()[c][r]` is element `(r, c)`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// assert_eq!(m.as_columns()[1], [2, 4]);
    /// ```
    #[must_use]
    #[inline]
    pub const fn as_columns(&self) -> &[[T; R]; C] {
        &self.storage
    }

    /// The columns, mutably borrowed.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let mut m = Matrix::<i32, 2, 2>::zero();
    /// m.as_columns_mut()[1] = [7, 8];
    /// assert_eq!(m.to_rows(), [[0, 7], [0, 8]]);
    /// ```
    #[inline]
    pub const fn as_columns_mut(&mut self) -> &mut [[T; R]; C] {
        &mut self.storage
    }

    /// The columns, copied out: `to_columns()[c][r]` is element `(r, c)`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// assert_eq!(m.to_columns(), [[1, 3], [2, 4]]);
    /// ```
    #[must_use]
    #[inline]
    pub const fn to_columns(&self) -> [[T; R]; C] {
        self.storage
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Matrix<T, R, C, L> {
    /// The matrix stored in `elements`, in place: a reference to the same
    /// memory, read in memory order (column-major, or row-major in
    /// [`RowMajor`](crate::RowMajor)), with no copy. For code that keeps
    /// its matrices in slices, as C code keeps them behind pointers: the
    /// product kernels read the slice where it is.
    ///
    /// # Panics
    ///
    /// If `elements.len() != R * C`, naming both lengths.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let memory = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    /// let (a, b) = memory.split_at(4);
    /// let product = Matrix::<f32, 2, 2>::ref_from_slice(a) * Matrix::ref_from_slice(b);
    /// assert_eq!(product.to_rows(), [[23.0, 31.0], [34.0, 46.0]]);
    /// ```
    #[must_use]
    #[inline]
    #[track_caller]
    pub fn ref_from_slice(elements: &[T]) -> &Self {
        if let Err(err) = Self::check_len(elements.len()) {
            length_panic("ref_from_slice", err);
        }
        Self::ref_from_prefix(elements)
    }

    /// The matrix in the first `R * C` elements of `elements`, in place:
    /// [`ref_from_slice`](Self::ref_from_slice) for callers that have
    /// checked the length with their own message (at opt-level 0 each
    /// further check is a call).
    ///
    /// # Panics
    ///
    /// If `elements` is shorter than the matrix.
    #[inline(always)]
    pub(crate) fn ref_from_prefix(elements: &[T]) -> &Self {
        assert!(
            elements.len() >= R * C,
            "the slice is shorter than the matrix"
        );
        Self::assert_flat();
        // SAFETY: `Self` is `repr(C)` with its storage (`[[T; line];
        // lines]`, `Layout` being sealed) at offset 0 and a zero-sized
        // marker, so it is `R * C` consecutive `T` with `T`'s alignment
        // (`assert_flat` checks both at compile time). `elements` holds at
        // least that many initialised `T` (asserted), aligned for `T`, and
        // the returned reference borrows it for as long as it lives.
        unsafe { &*elements.as_ptr().cast::<Self>() }
    }

    /// As [`ref_from_slice`](Self::ref_from_slice), mutably: writing the
    /// matrix writes `elements`, and an operation written into the caller's
    /// matrix ([`mul_to`](Self::mul_to), [`mad_to`](Self::mad_to)) writes the
    /// slice itself.
    ///
    /// # Panics
    ///
    /// If `elements.len() != R * C`, naming both lengths.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let a = Matrix::<i32, 2, 2>::from_rows([[1, 2], [3, 4]]);
    /// let mut memory = [0; 6];
    /// a.mul_to(&Matrix::identity(), Matrix::<i32, 2, 2>::mut_from_slice(&mut memory[2..]));
    /// assert_eq!(memory, [0, 0, 1, 3, 2, 4]);
    /// ```
    #[must_use]
    #[inline]
    #[track_caller]
    pub fn mut_from_slice(elements: &mut [T]) -> &mut Self {
        if let Err(err) = Self::check_len(elements.len()) {
            length_panic("mut_from_slice", err);
        }
        Self::mut_from_prefix(elements)
    }

    /// [`ref_from_prefix`](Self::ref_from_prefix), mutably.
    ///
    /// # Panics
    ///
    /// If `elements` is shorter than the matrix.
    #[inline(always)]
    pub(crate) fn mut_from_prefix(elements: &mut [T]) -> &mut Self {
        assert!(
            elements.len() >= R * C,
            "the slice is shorter than the matrix"
        );
        Self::assert_flat();
        // SAFETY: as in `ref_from_prefix`; the reference is unique because
        // it borrows `elements` mutably, and every bit pattern the matrix
        // may be given is one of `T`'s, so the slice stays valid.
        unsafe { &mut *elements.as_mut_ptr().cast::<Self>() }
    }

    /// Checks, at compile time, that `Self` is `R * C` consecutive `T`
    /// aligned as `T` is: what the casts of the slice views rely on.
    #[inline(always)]
    fn assert_flat() {
        const {
            assert!(core::mem::size_of::<Self>() == R * C * core::mem::size_of::<T>());
            assert!(core::mem::align_of::<Self>() == core::mem::align_of::<T>());
        }
    }

    #[inline]
    fn check_len(actual: usize) -> Result<(), LengthError> {
        // `R * C` cannot overflow: a `[[T; R]; C]` of that many elements exists.
        if actual == R * C {
            Ok(())
        } else {
            Err(LengthError {
                rows: R,
                cols: C,
                actual,
            })
        }
    }

    /// The matrix whose storage is `storage`: its columns (`[[T; R]; C]`)
    /// in [`ColumnMajor`], its rows (`[[T; C]; R]`) in
    /// [`RowMajor`](crate::RowMajor).
    ///
    /// ```
    /// use matrix_core::{Matrix, RowMajor};
    ///
    /// let m = Matrix::<i32, 2, 3, RowMajor>::from_storage([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(m[(1, 0)], 4);
    /// assert_eq!(m.as_slice(), &[1, 2, 3, 4, 5, 6]);
    /// ```
    #[must_use]
    #[inline]
    pub const fn from_storage(storage: L::Storage<T, R, C>) -> Self {
        Self {
            storage,
            layout: PhantomData,
        }
    }

    /// The storage: the columns in [`ColumnMajor`], the rows in
    /// [`RowMajor`](crate::RowMajor).
    ///
    /// ```
    /// use matrix_core::{Matrix, RowMajor};
    ///
    /// let m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// assert_eq!(m.into_storage(), [[1, 3], [2, 4]]);
    /// let r: Matrix<i32, 2, 2, RowMajor> = m.to_layout();
    /// assert_eq!(r.into_storage(), [[1, 2], [3, 4]]);
    /// ```
    #[must_use]
    #[inline]
    pub const fn into_storage(self) -> L::Storage<T, R, C> {
        self.storage
    }

    /// The storage, borrowed (crate-internal: the public forms are
    /// [`Matrix::as_columns`], for column-major matrices, and
    /// [`Matrix::into_storage`]).
    #[inline(always)]
    pub(crate) const fn storage_ref(&self) -> &L::Storage<T, R, C> {
        &self.storage
    }

    /// The storage, mutably borrowed.
    #[inline(always)]
    pub(crate) const fn storage_mut(&mut self) -> &mut L::Storage<T, R, C> {
        &mut self.storage
    }

    /// Every element `value`, in any layout (the layout-generic
    /// [`Matrix::splat`]).
    #[inline(always)]
    pub(crate) fn filled(value: T) -> Self {
        Self::from_storage(L::splat(value))
    }

    /// Where element `(r, c)` is in [`as_slice`](Self::as_slice).
    #[inline(always)]
    fn offset(r: usize, c: usize) -> usize {
        L::offset(r, c, R, C)
    }

    /// The element at row `r`, column `c`, or `None` outside the matrix.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// assert_eq!(m.get(1, 0), Some(3));
    /// assert_eq!(m.get(0, 2), None);
    /// ```
    #[must_use]
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> Option<T> {
        if r < R && c < C {
            Some(self.as_slice()[Self::offset(r, c)])
        } else {
            None
        }
    }

    /// A mutable reference to the element at row `r`, column `c`, or `None`
    /// outside the matrix.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let mut m = Matrix::<i32, 2, 2>::zero();
    /// *m.get_mut(0, 1).unwrap() = 5;
    /// assert_eq!(m.to_rows(), [[0, 5], [0, 0]]);
    /// assert!(m.get_mut(2, 1).is_none());
    /// ```
    #[inline]
    pub fn get_mut(&mut self, r: usize, c: usize) -> Option<&mut T> {
        if r < R && c < C {
            Some(&mut self.as_mut_slice()[Self::offset(r, c)])
        } else {
            None
        }
    }

    /// The elements in memory order: column-major (or row-major, in
    /// [`RowMajor`](crate::RowMajor)).
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// assert_eq!(m.as_slice(), &[1, 3, 2, 4]);
    /// ```
    #[must_use]
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        L::flat::<T, R, C>(&self.storage)
    }

    /// The elements in memory order, mutably.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let mut m = Matrix::<i32, 2, 2>::zero();
    /// m.as_mut_slice()[1] = 9; // row 1, column 0
    /// assert_eq!(m[(1, 0)], 9);
    /// ```
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        L::flat_mut::<T, R, C>(&mut self.storage)
    }

    /// The rows, copied out: `to_rows()[r][c]` is element `(r, c)`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_columns([[1, 2], [3, 4]]);
    /// assert_eq!(m.to_rows(), [[1, 3], [2, 4]]);
    /// ```
    #[must_use]
    #[inline]
    pub fn to_rows(&self) -> [[T; C]; R] {
        core::array::from_fn(|r| core::array::from_fn(|c| self[(r, c)]))
    }

    /// Column `c`, copied out.
    ///
    /// # Panics
    ///
    /// If `c >= C`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(m.column(2), [3, 6]);
    /// ```
    #[must_use]
    #[inline]
    #[track_caller]
    pub fn column(&self, c: usize) -> [T; R] {
        if c >= C {
            line_panic("column", c, C);
        }
        core::array::from_fn(|r| self[(r, c)])
    }

    /// Row `r`, copied out.
    ///
    /// # Panics
    ///
    /// If `r >= R`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(m.row(1), [4, 5, 6]);
    /// ```
    #[must_use]
    #[inline]
    #[track_caller]
    pub fn row(&self, r: usize) -> [T; C] {
        if r >= R {
            line_panic("row", r, R);
        }
        core::array::from_fn(|c| self[(r, c)])
    }

    /// Converts every element with Rust's `as` (see [`CastFrom`](crate::CastFrom)):
    /// float to integer truncates toward zero and saturates, NaN becomes 0.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[-1.7f32, 1.7], [2.5, f32::NAN]]);
    /// assert_eq!(m.cast::<i32>().to_rows(), [[-1, 1], [2, 0]]);
    /// assert_eq!(m.cast::<u8>().to_rows(), [[0, 1], [2, 0]]);
    /// ```
    #[must_use]
    #[inline]
    pub fn cast<U: Element>(self) -> Matrix<U, R, C, L> {
        self.map(T::cast_to::<U>)
    }

    /// Applies `f` to every element, in memory order.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, -2], [-3, 4]]);
    /// assert_eq!(m.map(|x: i32| x.abs()).to_rows(), [[1, 2], [3, 4]]);
    /// assert_eq!(m.map(|x| x as f64 / 2.0).to_rows(), [[0.5, -1.0], [-1.5, 2.0]]);
    /// ```
    #[must_use]
    #[inline]
    pub fn map<U: Element>(self, mut f: impl FnMut(T) -> U) -> Matrix<U, R, C, L> {
        let mut out = Matrix::<U, R, C, L>::filled(U::ZERO);
        for (y, &x) in out.as_mut_slice().iter_mut().zip(self.as_slice()) {
            *y = f(x);
        }
        out
    }

    /// Combines the elements of `self` and `other` pairwise with `f`, in
    /// memory order.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let a = Matrix::from_rows([[1, 2], [3, 4]]);
    /// let b = Matrix::from_rows([[10, 20], [30, 40]]);
    /// assert_eq!(a.zip_map(b, |x, y| x.max(y / 15)).to_rows(), [[1, 2], [3, 4]]);
    /// assert_eq!(a.zip_map(b, |x, y| y - x).to_rows(), [[9, 18], [27, 36]]);
    /// ```
    #[must_use]
    #[inline]
    pub fn zip_map<U: Element, V: Element>(
        self,
        other: Matrix<U, R, C, L>,
        mut f: impl FnMut(T, U) -> V,
    ) -> Matrix<V, R, C, L> {
        let mut out = Matrix::<V, R, C, L>::filled(V::ZERO);
        let pairs = self.as_slice().iter().zip(other.as_slice());
        for (z, (&x, &y)) in out.as_mut_slice().iter_mut().zip(pairs) {
            *z = f(x, y);
        }
        out
    }

    /// Sets every element to `value`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let mut m = Matrix::<f32, 2, 2>::identity();
    /// m.fill(0.5);
    /// assert_eq!(m, Matrix::splat(0.5));
    /// ```
    #[inline]
    pub fn fill(&mut self, value: T) {
        self.as_mut_slice().fill(value);
    }
}

impl<T: Element, const N: usize> Matrix<T, N, N> {
    /// The identity matrix: ones on the diagonal, zeros elsewhere.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// assert_eq!(Matrix::<i8, 2, 2>::identity().to_rows(), [[1, 0], [0, 1]]);
    ///
    /// // a `const fn`: usable in constants
    /// const I3: Matrix<f64, 3, 3> = Matrix::identity();
    /// assert_eq!(I3[(2, 2)], 1.0);
    /// ```
    #[must_use]
    #[inline]
    pub const fn identity() -> Self {
        let mut m = Self::zero();
        let mut i = 0;
        while i < N {
            m.storage[i][i] = T::ONE;
            i += 1;
        }
        m
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Default for Matrix<T, R, C, L> {
    /// The zero matrix.
    #[inline]
    fn default() -> Self {
        Self::from_storage(L::zeroed())
    }
}

impl<T: Element, const R: usize, const C: usize> From<[[T; R]; C]> for Matrix<T, R, C> {
    /// The matrix of these columns, as [`Matrix::from_columns`].
    #[inline]
    fn from(columns: [[T; R]; C]) -> Self {
        Self::from_columns(columns)
    }
}

impl<T: Element, const R: usize, const C: usize> From<Matrix<T, R, C>> for [[T; R]; C] {
    /// The columns of the matrix, as [`Matrix::to_columns`].
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// let columns: [[i32; 2]; 2] = m.into();
    /// assert_eq!(columns, [[1, 3], [2, 4]]);
    /// assert_eq!(Matrix::from(columns), m);
    /// ```
    #[inline]
    fn from(m: Matrix<T, R, C>) -> Self {
        m.storage
    }
}

impl<T: Element, const R: usize, const C: usize> From<Matrix<T, R, C>>
    for Matrix<T, R, C, RowMajor>
{
    /// The same matrix, row-major: [`Matrix::to_layout`].
    #[inline]
    fn from(m: Matrix<T, R, C>) -> Self {
        m.to_layout()
    }
}

impl<T: Element, const R: usize, const C: usize> From<Matrix<T, R, C, RowMajor>>
    for Matrix<T, R, C>
{
    /// The same matrix, column-major: [`Matrix::to_layout`].
    #[inline]
    fn from(m: Matrix<T, R, C, RowMajor>) -> Self {
        m.to_layout()
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> AsRef<[T]> for Matrix<T, R, C, L> {
    /// The elements in column-major order, as [`Matrix::as_slice`].
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// fn total(xs: impl AsRef<[u32]>) -> u32 {
    ///     xs.as_ref().iter().sum()
    /// }
    /// assert_eq!(total(Matrix::<u32, 2, 3>::splat(2)), 12);
    /// ```
    #[inline]
    fn as_ref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> AsMut<[T]> for Matrix<T, R, C, L> {
    /// The elements in column-major order, mutably, as
    /// [`Matrix::as_mut_slice`].
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let mut m = Matrix::<i32, 2, 2>::zero();
    /// m.as_mut()[2] = 5; // row 0, column 1
    /// assert_eq!(m.to_rows(), [[0, 5], [0, 0]]);
    /// ```
    #[inline]
    fn as_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Element + Neg<Output = T>, const R: usize, const C: usize, L: Layout> Neg
    for Matrix<T, R, C, L>
{
    type Output = Self;

    /// Every element negated: IEEE negation for floats, wrapping for signed
    /// integers (`-i32::MIN == i32::MIN`). Unsigned matrices have no `-`.
    ///
    /// This is **beyond Clang's specification**, which has no unary minus
    /// on matrices: inside `matrix!` kernels `-m` stays an error, as Clang
    /// reports it; outside them it is the element-wise negation.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1.5f32, -0.0], [2.0, -4.0]]);
    /// assert_eq!((-m).to_rows(), [[-1.5, 0.0], [-2.0, 4.0]]);
    /// let i = Matrix::<i8, 1, 2>::from_rows([[i8::MIN, 3]]);
    /// assert_eq!((-i).to_rows(), [[i8::MIN, -3]]);
    /// ```
    #[inline]
    fn neg(self) -> Self {
        self.map(Arith::neg)
    }
}

impl<T: Element + Neg<Output = T>, const R: usize, const C: usize, L: Layout> Neg
    for &Matrix<T, R, C, L>
{
    type Output = Matrix<T, R, C, L>;

    /// Every element negated, as `-*self`: IEEE for floats, wrapping for
    /// signed integers; beyond Clang's specification, as `-m`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<i32, 2, 2>::identity();
    /// assert_eq!(-&m, Matrix::from_rows([[-1, 0], [0, -1]]));
    /// ```
    #[inline]
    fn neg(self) -> Matrix<T, R, C, L> {
        -*self
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Index<(usize, usize)>
    for Matrix<T, R, C, L>
{
    type Output = T;

    /// Element `(row, column)`.
    ///
    /// # Panics
    ///
    /// Outside the matrix, e.g. `matrix index (4, 0) is outside the allowed
    /// range [0, 4) x [0, 4)`.
    #[inline]
    #[track_caller]
    fn index(&self, (r, c): (usize, usize)) -> &T {
        if r >= R || c >= C {
            index_panic(r, c, R, C);
        }
        &self.as_slice()[Self::offset(r, c)]
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> IndexMut<(usize, usize)>
    for Matrix<T, R, C, L>
{
    /// Element `(row, column)`, mutably.
    ///
    /// # Panics
    ///
    /// Outside the matrix, as [`Index`].
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, (r, c): (usize, usize)) -> &mut T {
        if r >= R || c >= C {
            index_panic(r, c, R, C);
        }
        &mut self.as_mut_slice()[Self::offset(r, c)]
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> fmt::Display for Matrix<T, R, C, L> {
    /// The rows, one per line: `[[1, 2, 3],\n [4, 5, 6]]`. The formatter's
    /// options (width, precision, fill, sign) apply to every element.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1.0f32, 2.5], [-3.0, 4.0]]);
    /// assert_eq!(format!("{m}"), "[[1, 2.5],\n [-3, 4]]");
    /// assert_eq!(format!("{m:.2}"), "[[1.00, 2.50],\n [-3.00, 4.00]]");
    /// assert_eq!(format!("{m:5}"), "[[    1,   2.5],\n [   -3,     4]]");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for r in 0..R {
            if r > 0 {
                f.write_str(",\n ")?;
            }
            f.write_str("[")?;
            for c in 0..C {
                if c > 0 {
                    f.write_str(", ")?;
                }
                fmt::Display::fmt(&self[(r, c)], f)?;
            }
            f.write_str("]")?;
        }
        f.write_str("]")
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> fmt::Debug for Matrix<T, R, C, L> {
    /// `Matrix<float, 2x2> [[1.0, 2.0], [3.0, 4.0]]`: the element's C name,
    /// the shape, then the rows with the elements' `Debug`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(format!("{m:?}"), "Matrix<int, 2x3> [[1, 2, 3], [4, 5, 6]]");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if L::ROW_MAJOR {
            write!(f, "Matrix<{}, {}x{}, {}> ", T::C_NAME, R, C, L::NAME)?;
        } else {
            write!(f, "Matrix<{}, {}x{}> ", T::C_NAME, R, C)?;
        }
        let mut rows = f.debug_list();
        for r in 0..R {
            rows.entry(&RowDebug {
                matrix: self,
                row: r,
            });
        }
        rows.finish()
    }
}

/// One row of a matrix, for `Debug`.
struct RowDebug<'a, T: Element, const R: usize, const C: usize, L: Layout> {
    matrix: &'a Matrix<T, R, C, L>,
    row: usize,
}

impl<T: Element, const R: usize, const C: usize, L: Layout> fmt::Debug
    for RowDebug<'_, T, R, C, L>
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..C).map(|c| &self.matrix[(self.row, c)]))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_shapes() {
        let m = Matrix::<i32, 1, 3>::from_rows([[1, 2, 3]]);
        assert_eq!(m.to_string(), "[[1, 2, 3]]");
        let m = Matrix::<i32, 3, 1>::from_rows([[1], [2], [3]]);
        assert_eq!(m.to_string(), "[[1],\n [2],\n [3]]");
        let m = Matrix::<u8, 2, 2>::from_rows([[1, 2], [3, 4]]);
        assert_eq!(format!("{m:<3}"), "[[1  , 2  ],\n [3  , 4  ]]");
    }

    #[test]
    fn debug_alternate() {
        let m = Matrix::<i32, 2, 2>::identity();
        assert_eq!(
            format!("{m:#?}"),
            "Matrix<int, 2x2> [\n    [\n        1,\n        0,\n    ],\n    [\n        0,\n        1,\n    ],\n]"
        );
    }
}
