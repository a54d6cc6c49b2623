//! Iteration over [`Matrix`] and [`Vector`]: elements, rows and columns,
//! and [`Sum`] and [`Product`] of many matrices or vectors.
//!
//! A matrix iterates over its elements in **column-major** order, the
//! order of its memory and of [`Matrix::as_slice`]: column 0 from top to
//! bottom, then column 1, and so on. [`Matrix::rows`] and
//! [`Matrix::columns`] yield whole rows and columns as arrays (`[T; C]` and
//! `[T; R]`): arrays exist for every shape, where a [`Vector`] has at most
//! 16 elements. A vector iterates over its `N` elements in order.
//!
//! ```
//! use matrix_core::Matrix;
//!
//! let m = Matrix::from_rows([[1, 2, 3], [4, 5, 6]]);
//! assert_eq!(m.iter().copied().collect::<Vec<_>>(), [1, 4, 2, 5, 3, 6]);
//! assert_eq!(m.rows().collect::<Vec<_>>(), [[1, 2, 3], [4, 5, 6]]);
//! assert_eq!(m.columns().collect::<Vec<_>>(), [[1, 4], [2, 5], [3, 6]]);
//! let total: Matrix<i32, 2, 3> = [m, m, m].into_iter().sum();
//! assert_eq!(total, m * 3);
//! ```

use core::iter::{FusedIterator, Product, Sum};
use core::ops::Range;
use core::slice;

use crate::element::Element;
use crate::matrix::Matrix;
use crate::vector::{Lanes, Vector};

impl<T: Element, const R: usize, const C: usize> Matrix<T, R, C> {
    /// The elements, borrowed, in column-major order (the memory order).
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// let elements: Vec<i32> = m.iter().copied().collect();
    /// assert_eq!(elements, [1, 3, 2, 4]);
    /// assert_eq!(m.iter().max(), Some(&4));
    /// ```
    #[inline]
    pub fn iter(&self) -> slice::Iter<'_, T> {
        self.as_slice().iter()
    }

    /// The elements, mutably borrowed, in column-major order.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let mut m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// for (i, x) in m.iter_mut().enumerate() {
    ///     *x += 10 * i as i32;
    /// }
    /// assert_eq!(m.to_rows(), [[1, 22], [13, 34]]);
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> slice::IterMut<'_, T> {
        self.as_mut_slice().iter_mut()
    }

    /// The rows, top to bottom, each copied out as a `[T; C]`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// let sums: Vec<i32> = m.rows().map(|row| row.iter().sum()).collect();
    /// assert_eq!(sums, [6, 15]);
    /// assert_eq!(m.rows().next_back(), Some([4, 5, 6]));
    /// ```
    #[inline]
    pub fn rows(&self) -> Rows<'_, T, R, C> {
        Rows {
            matrix: self,
            span: 0..R,
        }
    }

    /// The columns, left to right, each copied out as a `[T; R]`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// let mut columns = m.columns();
    /// assert_eq!(columns.len(), 3);
    /// assert_eq!(columns.next(), Some([1, 4]));
    /// assert_eq!(columns.next_back(), Some([3, 6]));
    /// ```
    #[inline]
    pub fn columns(&self) -> Columns<'_, T, R> {
        Columns {
            inner: self.as_columns().iter(),
        }
    }
}

/// The elements of a [`Matrix`], by value, in column-major order: the
/// iterator of `for x in matrix`.
///
/// ```
/// use matrix_core::Matrix;
///
/// let m = Matrix::from_rows([[1, 2], [3, 4]]);
/// let mut elements = m.into_iter();
/// assert_eq!(elements.next(), Some(1));
/// assert_eq!(elements.next_back(), Some(4));
/// assert_eq!(elements.collect::<Vec<_>>(), [3, 2]);
/// ```
#[derive(Clone, Debug)]
pub struct IntoIter<T: Element, const R: usize, const C: usize> {
    matrix: Matrix<T, R, C>,
    span: Range<usize>,
}

/// The rows of a [`Matrix`], top to bottom, as arrays `[T; C]`; see
/// [`Matrix::rows`].
///
/// ```
/// use matrix_core::Matrix;
///
/// let m = Matrix::<u8, 3, 2>::from_fn(|r, c| (r * 2 + c) as u8);
/// assert_eq!(m.rows().rev().collect::<Vec<_>>(), [[4, 5], [2, 3], [0, 1]]);
/// ```
#[derive(Clone, Debug)]
pub struct Rows<'a, T: Element, const R: usize, const C: usize> {
    matrix: &'a Matrix<T, R, C>,
    span: Range<usize>,
}

/// The columns of a [`Matrix`] with `R` rows, left to right, as arrays
/// `[T; R]`; see [`Matrix::columns`].
///
/// ```
/// use matrix_core::Matrix;
///
/// let m = Matrix::<u8, 2, 3>::from_fn(|r, c| (r + c * 2) as u8);
/// assert_eq!(m.columns().nth(2), Some([4, 5]));
/// ```
#[derive(Clone, Debug)]
pub struct Columns<'a, T: Element, const R: usize> {
    inner: slice::Iter<'a, [T; R]>,
}

/// `Iterator`, `DoubleEndedIterator`, `ExactSizeIterator` and
/// `FusedIterator` for an iterator that maps each index of its `span`
/// through `$item`.
macro_rules! span_iterator {
    ($Iter:ident<$($lt:lifetime,)? T, R, C> => $Item:ty, |$it:ident, $i:ident| $item:expr) => {
        impl<$($lt,)? T: Element, const R: usize, const C: usize> Iterator for $Iter<$($lt,)? T, R, C> {
            type Item = $Item;

            #[inline]
            fn next(&mut self) -> Option<$Item> {
                let $i = self.span.next()?;
                let $it = &*self;
                Some($item)
            }

            #[inline]
            fn nth(&mut self, n: usize) -> Option<$Item> {
                let $i = self.span.nth(n)?;
                let $it = &*self;
                Some($item)
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                self.span.size_hint()
            }
        }

        impl<$($lt,)? T: Element, const R: usize, const C: usize> DoubleEndedIterator
            for $Iter<$($lt,)? T, R, C>
        {
            #[inline]
            fn next_back(&mut self) -> Option<$Item> {
                let $i = self.span.next_back()?;
                let $it = &*self;
                Some($item)
            }
        }

        impl<$($lt,)? T: Element, const R: usize, const C: usize> ExactSizeIterator
            for $Iter<$($lt,)? T, R, C>
        {
        }

        impl<$($lt,)? T: Element, const R: usize, const C: usize> FusedIterator
            for $Iter<$($lt,)? T, R, C>
        {
        }
    };
}

span_iterator!(IntoIter<T, R, C> => T, |it, i| it.matrix.as_slice()[i]);
span_iterator!(Rows<'a, T, R, C> => [T; C], |it, r| it.matrix.row(r));

impl<T: Element, const R: usize> Iterator for Columns<'_, T, R> {
    type Item = [T; R];

    #[inline]
    fn next(&mut self) -> Option<[T; R]> {
        self.inner.next().copied()
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<[T; R]> {
        self.inner.nth(n).copied()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl<T: Element, const R: usize> DoubleEndedIterator for Columns<'_, T, R> {
    #[inline]
    fn next_back(&mut self) -> Option<[T; R]> {
        self.inner.next_back().copied()
    }
}

impl<T: Element, const R: usize> ExactSizeIterator for Columns<'_, T, R> {}

impl<T: Element, const R: usize> FusedIterator for Columns<'_, T, R> {}

impl<T: Element, const R: usize, const C: usize> IntoIterator for Matrix<T, R, C> {
    type Item = T;
    type IntoIter = IntoIter<T, R, C>;

    /// The elements, by value, in column-major order.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2], [3, 4]]);
    /// let mut seen = Vec::new();
    /// for x in m {
    ///     seen.push(x);
    /// }
    /// assert_eq!(seen, [1, 3, 2, 4]);
    /// ```
    #[inline]
    fn into_iter(self) -> IntoIter<T, R, C> {
        IntoIter {
            matrix: self,
            span: 0..R * C,
        }
    }
}

impl<'a, T: Element, const R: usize, const C: usize> IntoIterator for &'a Matrix<T, R, C> {
    type Item = &'a T;
    type IntoIter = slice::Iter<'a, T>;

    /// The elements, borrowed, in column-major order, as [`Matrix::iter`].
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<f32, 2, 2>::identity();
    /// let mut trace_and_rest = 0.0;
    /// for x in &m {
    ///     trace_and_rest += x;
    /// }
    /// assert_eq!(trace_and_rest, 2.0);
    /// ```
    #[inline]
    fn into_iter(self) -> slice::Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T: Element, const R: usize, const C: usize> IntoIterator for &'a mut Matrix<T, R, C> {
    type Item = &'a mut T;
    type IntoIter = slice::IterMut<'a, T>;

    /// The elements, mutably borrowed, in column-major order, as
    /// [`Matrix::iter_mut`].
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let mut m = Matrix::<u8, 2, 2>::splat(1);
    /// for x in &mut m {
    ///     *x *= 3;
    /// }
    /// assert_eq!(m, Matrix::splat(3));
    /// ```
    #[inline]
    fn into_iter(self) -> slice::IterMut<'a, T> {
        self.iter_mut()
    }
}

impl<T: Element, const R: usize, const C: usize> Sum for Matrix<T, R, C> {
    /// The element-wise sum of the matrices, added in order with the
    /// matrix `+` (wrapping for integers); the zero matrix for none.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let ms = [Matrix::<u8, 1, 2>::from_rows([[200, 1]]); 2];
    /// let total: Matrix<u8, 1, 2> = ms.into_iter().sum();
    /// assert_eq!(total.to_rows(), [[144u8, 2]]); // 400 wraps to 144
    /// let none: Matrix<u8, 1, 2> = core::iter::empty::<Matrix<u8, 1, 2>>().sum();
    /// assert_eq!(none, Matrix::zero());
    /// ```
    #[inline]
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        // From the first matrix, not from zero: `-0.0` stays `-0.0`.
        iter.reduce(|sum, m| sum + m).unwrap_or_else(Self::zero)
    }
}

impl<'a, T: Element, const R: usize, const C: usize> Sum<&'a Matrix<T, R, C>> for Matrix<T, R, C> {
    /// The element-wise sum of the borrowed matrices, as the sum of the
    /// matrices.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let ms = vec![Matrix::<f64, 2, 2>::identity(); 3];
    /// assert_eq!(ms.iter().sum::<Matrix<f64, 2, 2>>(), Matrix::identity() * 3.0);
    /// ```
    #[inline]
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().sum()
    }
}

impl<T: Element, const N: usize> Product for Matrix<T, N, N> {
    /// The matrix product of the square matrices, in order (`a * b * c`
    /// for `[a, b, c]`, each product summed as `*` sums); the identity for
    /// none. Only square matrices have a product of many: a chain of other
    /// shapes has no single type.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let shear = Matrix::<i32, 2, 2>::from_rows([[1, 1], [0, 1]]);
    /// let p: Matrix<i32, 2, 2> = [shear; 3].into_iter().product();
    /// assert_eq!(p.to_rows(), [[1i32, 3], [0, 1]]);
    /// let none: Matrix<i32, 2, 2> = core::iter::empty::<Matrix<i32, 2, 2>>().product();
    /// assert_eq!(none, Matrix::identity());
    /// ```
    #[inline]
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        // From the first matrix: `identity * m` is not always `m` in floats
        // (`0.0 * inf` is NaN).
        iter.reduce(|product, m| product * m)
            .unwrap_or_else(Self::identity)
    }
}

impl<'a, T: Element, const N: usize> Product<&'a Matrix<T, N, N>> for Matrix<T, N, N> {
    /// The matrix product of the borrowed square matrices, in order.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let swap = Matrix::<f32, 2, 2>::from_rows([[0.0, 1.0], [1.0, 0.0]]);
    /// let ms = [swap, swap];
    /// assert_eq!(ms.iter().product::<Matrix<f32, 2, 2>>(), Matrix::identity());
    /// ```
    #[inline]
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().product()
    }
}

impl<T: Lanes<N>, const N: usize> Vector<T, N> {
    /// The elements, borrowed, in order.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([3, 1, 2]);
    /// assert_eq!(v.iter().min(), Some(&1));
    /// ```
    #[inline]
    pub fn iter(&self) -> slice::Iter<'_, T> {
        self.as_array().iter()
    }

    /// The elements, mutably borrowed, in order.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let mut v = Vector::from_array([1.0f32, 2.0]);
    /// v.iter_mut().for_each(|x| *x *= 0.5);
    /// assert_eq!(v.to_array(), [0.5, 1.0]);
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> slice::IterMut<'_, T> {
        self.as_mut_array().iter_mut()
    }
}

impl<T: Lanes<N>, const N: usize> IntoIterator for Vector<T, N> {
    type Item = T;
    type IntoIter = core::array::IntoIter<T, N>;

    /// The `N` elements, by value, in order.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1u16, 2, 3]);
    /// assert_eq!(v.into_iter().rev().collect::<Vec<_>>(), [3, 2, 1]);
    /// ```
    #[inline]
    fn into_iter(self) -> core::array::IntoIter<T, N> {
        self.to_array().into_iter()
    }
}

impl<'a, T: Lanes<N>, const N: usize> IntoIterator for &'a Vector<T, N> {
    type Item = &'a T;
    type IntoIter = slice::Iter<'a, T>;

    /// The `N` elements, borrowed, in order, as [`Vector::iter`].
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1, 2, 3]);
    /// let mut total = 0;
    /// for x in &v {
    ///     total += x;
    /// }
    /// assert_eq!(total, 6);
    /// ```
    #[inline]
    fn into_iter(self) -> slice::Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T: Lanes<N>, const N: usize> IntoIterator for &'a mut Vector<T, N> {
    type Item = &'a mut T;
    type IntoIter = slice::IterMut<'a, T>;

    /// The `N` elements, mutably borrowed, in order, as
    /// [`Vector::iter_mut`].
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let mut v = Vector::from_array([1, 2, 3]);
    /// for x in &mut v {
    ///     *x = -*x;
    /// }
    /// assert_eq!(v.to_array(), [-1, -2, -3]);
    /// ```
    #[inline]
    fn into_iter(self) -> slice::IterMut<'a, T> {
        self.iter_mut()
    }
}

impl<T: Lanes<N>, const N: usize> Sum for Vector<T, N> {
    /// The element-wise sum of the vectors, added in order with the vector
    /// `+` (wrapping for integers); the zero vector for none.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let vs = [Vector::from_array([1.0f32, 2.0]), Vector::from_array([0.5, -2.0])];
    /// let total: Vector<f32, 2> = vs.into_iter().sum();
    /// assert_eq!(total.to_array(), [1.5, 0.0]);
    /// ```
    #[inline]
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.reduce(|sum, v| sum + v).unwrap_or_else(Self::zero)
    }
}

impl<'a, T: Lanes<N>, const N: usize> Sum<&'a Vector<T, N>> for Vector<T, N> {
    /// The element-wise sum of the borrowed vectors.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let vs = vec![Vector::from_array([i8::MAX, 1]); 2];
    /// assert_eq!(vs.iter().sum::<Vector<i8, 2>>().to_array(), [-2, 2]);
    /// ```
    #[inline]
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.copied().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn element_order_is_column_major_both_ways() {
        let m = Matrix::<i32, 3, 2>::from_fn(|r, c| (10 * r + c) as i32);
        let forward: Vec<i32> = m.into_iter().collect();
        assert_eq!(forward, m.as_slice());
        let mut backward: Vec<i32> = m.into_iter().rev().collect();
        backward.reverse();
        assert_eq!(backward, forward);
        let mut it = m.into_iter();
        assert_eq!(it.len(), 6);
        assert_eq!(it.nth(4), Some(m[(1, 1)]));
        assert_eq!(it.len(), 1);
        assert_eq!(it.next(), Some(m[(2, 1)]));
        assert_eq!(it.next(), None);
        assert_eq!(it.next_back(), None);
    }

    #[test]
    fn rows_and_columns_match_to_rows_and_to_columns() {
        let m = Matrix::<u8, 2, 5>::from_fn(|r, c| (r * 5 + c) as u8);
        assert_eq!(m.rows().collect::<Vec<_>>(), m.to_rows());
        assert_eq!(m.columns().collect::<Vec<_>>(), m.to_columns());
        let mut rows = m.rows();
        assert_eq!(rows.size_hint(), (2, Some(2)));
        assert_eq!(rows.nth(1), Some(m.row(1)));
        assert_eq!(rows.next(), None);
    }

    #[test]
    fn empty_shapes_iterate_nothing() {
        let m = Matrix::<f32, 0, 3>::zero();
        assert_eq!(m.into_iter().count(), 0);
        assert_eq!(m.rows().count(), 0);
        assert_eq!(m.columns().count(), 3);
        let m = Matrix::<f32, 3, 0>::zero();
        assert_eq!(m.rows().collect::<Vec<_>>(), [[0.0f32; 0]; 3]);
        assert_eq!(m.columns().count(), 0);
    }

    #[test]
    fn sum_keeps_negative_zero_and_product_keeps_infinity() {
        let z = Matrix::<f64, 1, 1>::splat(-0.0);
        let s: Matrix<f64, 1, 1> = [z, z].into_iter().sum();
        assert!(s[(0, 0)].is_sign_negative());
        let inf = Matrix::<f64, 2, 2>::from_rows([[f64::INFINITY, 0.0], [0.0, 1.0]]);
        let p: Matrix<f64, 2, 2> = core::iter::once(inf).product();
        assert_eq!(p, inf);
    }
}
