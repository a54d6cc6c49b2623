//! What an operator of a `matrix!` kernel accepts when the macro knows only
//! one operand's type: a matrix or a vector meeting a value the block
//! cannot see (a kernel or typedef of another block, a method's result, a
//! field of a struct declared outside the block). rustc decides from the
//! real types: a matrix or vector of a fitting type takes part as one
//! (a matrix times a vector is a product), a scalar of any arithmetic type
//! converts to the element type (Rust's `as`), anything else is an error
//! in Clang's words.

use core::ops::{Add, Div, Mul, Sub};

use crate::element::Element;
use crate::layout::Layout;
use crate::matrix::Matrix;
use crate::private::ConvertTo;
use crate::vector::{Lanes, Vector};

macro_rules! kernel_trait {
    ($($(#[$doc:meta])* $Trait:ident::$method:ident, $sym:literal, $label:literal;)*) => {$(
        $(#[$doc])*
        #[diagnostic::on_unimplemented(
            message = "invalid operands to binary expression ('{Self}' and '{Rhs}')",
            label = $label
        )]
        pub trait $Trait<Rhs> {
            /// The result.
            type Output;
            #[doc = concat!("`self ", $sym, " rhs`.")]
            fn $method(self, rhs: Rhs) -> Self::Output;
        }
    )*};
}

kernel_trait! {
    /// `a + b` in a kernel where the macro cannot see one operand's type:
    /// two matrices of one type, or a matrix and a scalar of any
    /// arithmetic type (converted to the element type).
    ///
    /// ```
    /// use matrix_core::{KernelAdd, Matrix};
    ///
    /// let m = Matrix::<f32, 2, 2>::identity();
    /// assert_eq!(m.kernel_add(1u8), m + 1.0);
    /// assert_eq!(m.kernel_add(m), m + m);
    /// ```
    KernelAdd::kernel_add, "+", "`+` of these operands";
    /// `a - b` in a kernel where the macro cannot see one operand's type
    /// (see [`KernelAdd`]).
    ///
    /// ```
    /// use matrix_core::{KernelSub, Matrix};
    ///
    /// let m = Matrix::<i32, 2, 2>::splat(5);
    /// assert_eq!(m.kernel_sub(2.9f64), Matrix::splat(3));
    /// ```
    KernelSub::kernel_sub, "-", "`-` of these operands";
    /// `a * b` in a kernel where the macro cannot see one operand's type:
    /// a product of matrices of chained shapes, or a matrix and a scalar
    /// (see [`KernelAdd`]).
    ///
    /// ```
    /// use matrix_core::{KernelMul, Matrix};
    ///
    /// let a = Matrix::<f32, 2, 3>::splat(1.0);
    /// let b = Matrix::<f32, 3, 4>::splat(2.0);
    /// assert_eq!(a.kernel_mul(b), Matrix::<f32, 2, 4>::splat(6.0));
    /// assert_eq!(a.kernel_mul(3), Matrix::splat(3.0f32));
    /// ```
    KernelMul::kernel_mul, "*", "`*` of these operands";
    /// `a / b` in a kernel where the macro cannot see one operand's type: a
    /// matrix divided by a scalar (see [`KernelAdd`]).
    ///
    /// ```
    /// use matrix_core::{KernelDiv, Matrix};
    ///
    /// let m = Matrix::<f64, 2, 2>::splat(3.0);
    /// assert_eq!(m.kernel_div(2u8), Matrix::splat(1.5));
    /// ```
    KernelDiv::kernel_div, "/", "`/` of these operands";
}

// Two matrices: of one type for `+ -`, of chained shapes for `*`.
macro_rules! matrix_matrix {
    ($($Trait:ident::$method:ident => $Op:ident::$op:ident;)*) => {$(
        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait<Matrix<T, R, C, L>> for Matrix<T, R, C, L> {
            type Output = Matrix<T, R, C, L>;
            #[inline]
            #[track_caller]
            fn $method(self, rhs: Matrix<T, R, C, L>) -> Matrix<T, R, C, L> {
                $Op::$op(self, rhs)
            }
        }
    )*};
}

matrix_matrix! {
    KernelAdd::kernel_add => Add::add;
    KernelSub::kernel_sub => Sub::sub;
}

impl<T: Element, const M: usize, const K: usize, const N: usize, L: Layout>
    KernelMul<Matrix<T, K, N, L>> for Matrix<T, M, K, L>
{
    type Output = Matrix<T, M, N, L>;
    #[inline]
    fn kernel_mul(self, rhs: Matrix<T, K, N, L>) -> Matrix<T, M, N, L> {
        self * rhs
    }
}

// A matrix and a scalar of any arithmetic type, converted to the element
// type with `as` semantics; the scalar may come first except for `/`.
macro_rules! matrix_scalar {
    ($($s:ty),* $(,)?) => {$(
        matrix_scalar!(@first $s; KernelAdd::kernel_add => Add::add, KernelSub::kernel_sub => Sub::sub, KernelMul::kernel_mul => Mul::mul, KernelDiv::kernel_div => Div::div);
        matrix_scalar!(@second $s; KernelAdd::kernel_add => Add::add, KernelSub::kernel_sub => Sub::sub, KernelMul::kernel_mul => Mul::mul);
    )*};
    (@first $s:ty; $($Trait:ident::$method:ident => $Op:ident::$op:ident),*) => {$(
        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait<$s> for Matrix<T, R, C, L> {
            type Output = Matrix<T, R, C, L>;
            #[inline]
            #[track_caller]
            fn $method(self, rhs: $s) -> Matrix<T, R, C, L> {
                $Op::$op(self, ConvertTo::<T>::convert(rhs))
            }
        }
    )*};
    (@second $s:ty; $($Trait:ident::$method:ident => $Op:ident::$op:ident),*) => {$(
        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait<Matrix<T, R, C, L>> for $s {
            type Output = Matrix<T, R, C, L>;
            #[inline]
            #[track_caller]
            fn $method(self, rhs: Matrix<T, R, C, L>) -> Matrix<T, R, C, L> {
                let s: T = ConvertTo::<T>::convert(self);
                $Op::$op(Matrix::filled(s), rhs)
            }
        }
    )*};
}

matrix_scalar!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

// Two vectors of one type, element by element.
macro_rules! vector_vector {
    ($($Trait:ident::$method:ident => $Op:ident::$op:ident;)*) => {$(
        impl<T: Lanes<N>, const N: usize> $Trait<Vector<T, N>> for Vector<T, N> {
            type Output = Vector<T, N>;
            #[inline]
            #[track_caller]
            fn $method(self, rhs: Vector<T, N>) -> Vector<T, N> {
                $Op::$op(self, rhs)
            }
        }
    )*};
}

vector_vector! {
    KernelAdd::kernel_add => Add::add;
    KernelSub::kernel_sub => Sub::sub;
    KernelMul::kernel_mul => Mul::mul;
    KernelDiv::kernel_div => Div::div;
}

// A matrix and a vector: the vector a column on the right, a row on the
// left.
impl<T, const R: usize, const C: usize, L: Layout> KernelMul<Vector<T, C>> for Matrix<T, R, C, L>
where
    T: Lanes<R> + Lanes<C>,
{
    type Output = Vector<T, R>;
    #[inline]
    fn kernel_mul(self, rhs: Vector<T, C>) -> Vector<T, R> {
        self * rhs
    }
}

impl<T, const R: usize, const C: usize, L: Layout> KernelMul<Matrix<T, R, C, L>> for Vector<T, R>
where
    T: Lanes<R> + Lanes<C>,
{
    type Output = Vector<T, C>;
    #[inline]
    fn kernel_mul(self, rhs: Matrix<T, R, C, L>) -> Vector<T, C> {
        self * rhs
    }
}

// A vector and a scalar of any arithmetic type, converted to the element
// type with `as` semantics and splatted, on either side.
macro_rules! vector_scalar {
    ($($s:ty),* $(,)?) => {$(
        vector_scalar!(@each $s; KernelAdd::kernel_add => Add::add, KernelSub::kernel_sub => Sub::sub, KernelMul::kernel_mul => Mul::mul, KernelDiv::kernel_div => Div::div);
    )*};
    (@each $s:ty; $($Trait:ident::$method:ident => $Op:ident::$op:ident),*) => {$(
        impl<T: Lanes<N>, const N: usize> $Trait<$s> for Vector<T, N> {
            type Output = Vector<T, N>;
            #[inline]
            #[track_caller]
            fn $method(self, rhs: $s) -> Vector<T, N> {
                $Op::$op(self, ConvertTo::<T>::convert(rhs))
            }
        }
        impl<T: Lanes<N>, const N: usize> $Trait<Vector<T, N>> for $s {
            type Output = Vector<T, N>;
            #[inline]
            #[track_caller]
            fn $method(self, rhs: Vector<T, N>) -> Vector<T, N> {
                $Op::$op(Vector::splat(ConvertTo::<T>::convert(self)), rhs)
            }
        }
    )*};
}

vector_scalar!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);
#[cfg(feature = "f16")]
vector_scalar!(half::f16);
#[cfg(feature = "bf16")]
vector_scalar!(half::bf16);
#[cfg(feature = "f16")]
matrix_scalar!(half::f16);
#[cfg(feature = "bf16")]
matrix_scalar!(half::bf16);

/// `x[r][c]` in a kernel where the macro cannot see `x`'s type (a typedef
/// or kernel of another block): a matrix's element, with the same checks
/// (a constant index out of range fails the build, a dynamic one panics);
/// any other value indexed twice, as Rust indexes it.
///
/// ```
/// use matrix_core::{KernelIndex, Matrix};
///
/// let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
/// assert_eq!(*m.kernel_at(1, 2), 6);
/// assert_eq!(*m.kernel_at_const::<0, 1>(), 2);
/// let rows = vec![vec![1, 2], vec![3, 4]];
/// assert_eq!(*rows.kernel_at(1, 0), 3);
/// ```
pub trait KernelIndex {
    /// The element.
    type Element: ?Sized;
    /// Element `(r, c)`.
    ///
    /// # Panics
    ///
    /// If the index is out of range.
    fn kernel_at(&self, r: usize, c: usize) -> &Self::Element;
    /// Element `(r, c)`, to change.
    ///
    /// # Panics
    ///
    /// If the index is out of range.
    fn kernel_at_mut(&mut self, r: usize, c: usize) -> &mut Self::Element;
    /// Element `(R, C)`: for a matrix, an index out of range fails the
    /// build.
    fn kernel_at_const<const R: usize, const C: usize>(&self) -> &Self::Element {
        self.kernel_at(R, C)
    }
    /// Element `(R, C)`, to change: for a matrix, an index out of range
    /// fails the build.
    fn kernel_at_const_mut<const R: usize, const C: usize>(&mut self) -> &mut Self::Element {
        self.kernel_at_mut(R, C)
    }
}

impl<T: Element, const ROWS: usize, const COLS: usize, L: Layout> KernelIndex
    for Matrix<T, ROWS, COLS, L>
{
    type Element = T;
    #[inline]
    #[track_caller]
    fn kernel_at(&self, r: usize, c: usize) -> &T {
        &self[(r, c)]
    }
    #[inline]
    #[track_caller]
    fn kernel_at_mut(&mut self, r: usize, c: usize) -> &mut T {
        &mut self[(r, c)]
    }
    #[inline]
    fn kernel_at_const<const R: usize, const C: usize>(&self) -> &T {
        const {
            assert!(R < ROWS, "matrix row index is outside the allowed range");
            assert!(C < COLS, "matrix column index is outside the allowed range");
        }
        &self.as_slice()[L::offset(R, C, ROWS, COLS)]
    }
    #[inline]
    fn kernel_at_const_mut<const R: usize, const C: usize>(&mut self) -> &mut T {
        const {
            assert!(R < ROWS, "matrix row index is outside the allowed range");
            assert!(C < COLS, "matrix column index is outside the allowed range");
        }
        &mut self.as_mut_slice()[L::offset(R, C, ROWS, COLS)]
    }
}

impl<X> KernelIndex for X
where
    X: core::ops::IndexMut<usize> + ?Sized,
    X::Output: core::ops::IndexMut<usize>,
{
    type Element = <X::Output as core::ops::Index<usize>>::Output;
    #[inline]
    #[track_caller]
    fn kernel_at(&self, r: usize, c: usize) -> &Self::Element {
        &self[r][c]
    }
    #[inline]
    #[track_caller]
    fn kernel_at_mut(&mut self, r: usize, c: usize) -> &mut Self::Element {
        &mut self[r][c]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_and_scalars_of_any_type() {
        let m = Matrix::<f32, 2, 2>::from_rows([[1.0, 2.0], [3.0, 4.0]]);
        assert_eq!(m.kernel_mul(2u8), m * 2.0);
        assert_eq!(10i64.kernel_sub(m), Matrix::splat(10.0) - m);
        assert_eq!(m.kernel_add(m), m + m);
        assert_eq!(
            m.kernel_mul(Matrix::<f32, 2, 1>::splat(1.0)).to_columns(),
            [[3.0, 7.0]]
        );
        assert_eq!(m.kernel_div(2.0f64), m / 2.0);
    }
}
