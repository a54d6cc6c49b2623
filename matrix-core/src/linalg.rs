//! Linear algebra on square float matrices: [`Matrix::determinant`],
//! [`Matrix::inverse`], [`Matrix::solve`] and [`Matrix::solve_vector`].
//!
//! Sizes 1 to 4 use the closed forms (the 2x2 and 3x3 cofactor formulas,
//! and the 4x4 adjugate built from twelve 2x2 sub-determinants), as games
//! and graphics libraries do; larger sizes an LU factorisation with partial
//! pivoting. The size is a const generic, so the choice is made at run time
//! on `N`, a constant the optimiser folds. A solve always factors, which is
//! the stable way for every size.

use core::ops::{Add, Div, Mul, Neg, Sub};

use crate::element::Element;
use crate::matrix::Matrix;
use crate::vector::{Lanes, Vector};

mod sealed {
    /// The private supertrait that seals [`Float`](super::Float).
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// The element types with linear algebra ([`Matrix::determinant`],
/// [`Matrix::inverse`], [`Matrix::solve`]): `f32` and `f64`. Sealed.
///
/// ```
/// use matrix_core::{Float, Matrix};
///
/// fn volume<T: Float>(m: &Matrix<T, 3, 3>) -> T {
///     m.determinant()
/// }
/// assert_eq!(volume(&Matrix::<f64, 3, 3>::identity()), 1.0);
/// assert_eq!(volume(&Matrix::<f32, 3, 3>::splat(1.0)), 0.0);
/// ```
pub trait Float:
    Element
    + PartialOrd
    + Neg<Output = Self>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + sealed::Sealed
{
    /// The absolute value (the sign bit cleared).
    #[doc(hidden)]
    fn abs(self) -> Self;
}

impl Float for f32 {
    #[inline(always)]
    fn abs(self) -> Self {
        f32::from_bits(self.to_bits() & !(1 << 31))
    }
}

impl Float for f64 {
    #[inline(always)]
    fn abs(self) -> Self {
        f64::from_bits(self.to_bits() & !(1 << 63))
    }
}

impl<T: Float, const N: usize> Matrix<T, N, N> {
    /// The determinant. Closed forms up to 4x4 (for 4x4, the Laplace
    /// expansion over twelve 2x2 sub-determinants), the product of the
    /// pivots of an LU factorisation with partial pivoting above; `1` for
    /// the empty 0x0 matrix.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<f64, 3, 3>::from_rows([[2.0, 0.0, 1.0], [1.0, 3.0, 2.0], [1.0, 1.0, 2.0]]);
    /// assert_eq!(m.determinant(), 6.0);
    /// assert_eq!(Matrix::<f32, 6, 6>::identity().determinant(), 1.0);
    /// assert_eq!(Matrix::<f32, 6, 6>::splat(2.0).determinant(), 0.0);
    /// ```
    #[must_use]
    pub fn determinant(&self) -> T {
        let a = self.as_slice();
        match N {
            0 => T::ONE,
            1 => a[0],
            2 => det2(&rows(a)),
            3 => {
                let m = rows(a);
                det3(&m, &cofactors3(&m))
            }
            4 => Minors4::new(&rows(a)).determinant(),
            _ => Lu::factor(self).map_or(T::ZERO, |lu| lu.determinant()),
        }
    }

    /// The inverse, or `None` for a singular matrix. Up to 4x4 it is the
    /// adjugate divided by the determinant, `None` when the determinant is
    /// exactly zero; above, an LU factorisation with partial pivoting,
    /// `None` when a pivot is exactly zero. A nearly singular matrix gives
    /// an inverse with huge (or infinite) elements, as in every float
    /// library: check [`determinant`](Self::determinant) against a
    /// tolerance of your own where that matters.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<f64, 2, 2>::from_rows([[4.0, 7.0], [2.0, 6.0]]);
    /// let inv = m.inverse().unwrap();
    /// assert_eq!(inv.to_rows(), [[0.6, -0.7], [-0.2, 0.4]]);
    /// assert!((m * inv - Matrix::identity()).iter().all(|x| x.abs() < 1e-12));
    ///
    /// let singular = Matrix::<f32, 5, 5>::from_fn(|r, _| r as f32);
    /// assert_eq!(singular.inverse(), None);
    /// ```
    #[must_use]
    pub fn inverse(&self) -> Option<Self> {
        let a = self.as_slice();
        match N {
            0 => Some(*self),
            1 => (a[0] != T::ZERO).then(|| Self::splat(T::ONE / a[0])),
            2 => inverse2(&rows(a)).map(square),
            3 => inverse3(&rows(a)).map(square),
            4 => Minors4::new(&rows(a)).inverse().map(square),
            _ => Lu::factor(self).map(|lu| lu.solve(Self::identity())),
        }
    }

    /// The `X` with `self * X == b`, or `None` when `self` is singular:
    /// an LU factorisation with partial pivoting, `None` when a pivot is
    /// exactly zero, then a forward and a back substitution per column of
    /// `b`. More accurate than `self.inverse()? * b`.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let a = Matrix::<f64, 2, 2>::from_rows([[2.0, 1.0], [1.0, 3.0]]);
    /// let b = Matrix::<f64, 2, 3>::from_rows([[3.0, 1.0, 0.0], [4.0, 3.0, 5.0]]);
    /// let x = a.solve(&b).unwrap();
    /// assert_eq!(x.to_rows(), [[1.0, 0.0, -1.0], [1.0, 1.0, 2.0]]);
    /// assert_eq!(Matrix::<f64, 2, 2>::zero().solve(&b), None);
    /// ```
    #[must_use]
    pub fn solve<const M: usize>(&self, b: &Matrix<T, N, M>) -> Option<Matrix<T, N, M>> {
        Lu::factor(self).map(|lu| lu.solve(*b))
    }

    /// The `x` with `self * x == b` for one vector `b`, or `None` when
    /// `self` is singular; as [`solve`](Self::solve).
    ///
    /// ```
    /// use matrix_core::{Matrix, Vector};
    ///
    /// let a = Matrix::<f32, 3, 3>::from_rows([[2.0, 0.0, 0.0], [0.0, 4.0, 0.0], [1.0, 0.0, 1.0]]);
    /// let x = a.solve_vector(Vector::from_array([2.0, 8.0, 4.0])).unwrap();
    /// assert_eq!(x.to_array(), [1.0, 2.0, 3.0]);
    /// ```
    #[must_use]
    pub fn solve_vector(&self, b: Vector<T, N>) -> Option<Vector<T, N>>
    where
        T: Lanes<N>,
    {
        let column = Matrix::<T, N, 1>::from_columns([b.to_array()]);
        let [x] = self.solve(&column)?.to_columns();
        Some(Vector::from_array(x))
    }
}

/// The rows of the column-major `K`x`K` matrix `a`.
#[inline(always)]
fn rows<T: Float, const K: usize>(a: &[T]) -> [[T; K]; K] {
    core::array::from_fn(|r| core::array::from_fn(|c| a[c * K + r]))
}

/// The `N`x`N` matrix of the `K`x`K` rows `m`, where `K == N` at run time.
#[inline(always)]
fn square<T: Float, const K: usize, const N: usize>(m: [[T; K]; K]) -> Matrix<T, N, N> {
    Matrix::from_fn(|r, c| m[r][c])
}

/// `Some(value / det)` of each element, or `None` when `det` is zero.
#[inline(always)]
fn divided<T: Float, const K: usize>(det: T, m: [[T; K]; K]) -> Option<[[T; K]; K]> {
    (det != T::ZERO).then(|| m.map(|row| row.map(|x| x / det)))
}

#[inline(always)]
fn det2<T: Float>(m: &[[T; 2]; 2]) -> T {
    m[0][0] * m[1][1] - m[0][1] * m[1][0]
}

#[inline(always)]
fn inverse2<T: Float>(m: &[[T; 2]; 2]) -> Option<[[T; 2]; 2]> {
    let adjugate = [[m[1][1], -m[0][1]], [-m[1][0], m[0][0]]];
    divided(det2(m), adjugate)
}

/// The signed cofactors of a 3x3 matrix: with cyclic indices each 2x2
/// minor comes out with its sign.
#[inline(always)]
fn cofactors3<T: Float>(m: &[[T; 3]; 3]) -> [[T; 3]; 3] {
    core::array::from_fn(|i| {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        core::array::from_fn(|j| {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1]
        })
    })
}

/// The expansion along row 0.
#[inline(always)]
fn det3<T: Float>(m: &[[T; 3]; 3], cofactors: &[[T; 3]; 3]) -> T {
    m[0][0] * cofactors[0][0] + m[0][1] * cofactors[0][1] + m[0][2] * cofactors[0][2]
}

#[inline(always)]
fn inverse3<T: Float>(m: &[[T; 3]; 3]) -> Option<[[T; 3]; 3]> {
    let cofactors = cofactors3(m);
    let adjugate = core::array::from_fn(|r| core::array::from_fn(|c| cofactors[c][r]));
    divided(det3(m, &cofactors), adjugate)
}

/// A 4x4 matrix with the 2x2 sub-determinants of its top two rows (`s`)
/// and of its bottom two rows (`c`), from which the Laplace expansion
/// builds the determinant and the adjugate.
struct Minors4<T> {
    m: [[T; 4]; 4],
    s: [T; 6],
    c: [T; 6],
}

impl<T: Float> Minors4<T> {
    #[inline(always)]
    fn new(m: &[[T; 4]; 4]) -> Self {
        // The columns pairs (0,1) (0,2) (0,3) (1,2) (1,3) (2,3) of two rows.
        let pairs = |top: usize| -> [T; 6] {
            let (a, b) = (m[top], m[top + 1]);
            let minor = |i: usize, j: usize| a[i] * b[j] - b[i] * a[j];
            [
                minor(0, 1),
                minor(0, 2),
                minor(0, 3),
                minor(1, 2),
                minor(1, 3),
                minor(2, 3),
            ]
        };
        let top = pairs(0);
        let bottom = pairs(2);
        Self {
            m: *m,
            s: top,
            // Reversed: c[k] is the minor of the columns s[k] leaves out,
            // so the expansion is the alternating sum of s[k] * c[k].
            c: core::array::from_fn(|k| bottom[5 - k]),
        }
    }

    #[inline(always)]
    fn determinant(&self) -> T {
        let (s, c) = (&self.s, &self.c);
        s[0] * c[0] - s[1] * c[1] + s[2] * c[2] + s[3] * c[3] - s[4] * c[4] + s[5] * c[5]
    }

    #[inline(always)]
    fn inverse(&self) -> Option<[[T; 4]; 4]> {
        let (m, s, c) = (&self.m, &self.s, &self.c);
        // c[0] = |rows 2,3; cols 2,3|, ..., c[5] = |rows 2,3; cols 0,1|.
        let adjugate = [
            [
                m[1][1] * c[0] - m[1][2] * c[1] + m[1][3] * c[2],
                -m[0][1] * c[0] + m[0][2] * c[1] - m[0][3] * c[2],
                m[3][1] * s[5] - m[3][2] * s[4] + m[3][3] * s[3],
                -m[2][1] * s[5] + m[2][2] * s[4] - m[2][3] * s[3],
            ],
            [
                -m[1][0] * c[0] + m[1][2] * c[3] - m[1][3] * c[4],
                m[0][0] * c[0] - m[0][2] * c[3] + m[0][3] * c[4],
                -m[3][0] * s[5] + m[3][2] * s[2] - m[3][3] * s[1],
                m[2][0] * s[5] - m[2][2] * s[2] + m[2][3] * s[1],
            ],
            [
                m[1][0] * c[1] - m[1][1] * c[3] + m[1][3] * c[5],
                -m[0][0] * c[1] + m[0][1] * c[3] - m[0][3] * c[5],
                m[3][0] * s[4] - m[3][1] * s[2] + m[3][3] * s[0],
                -m[2][0] * s[4] + m[2][1] * s[2] - m[2][3] * s[0],
            ],
            [
                -m[1][0] * c[2] + m[1][1] * c[4] - m[1][2] * c[5],
                m[0][0] * c[2] - m[0][1] * c[4] + m[0][2] * c[5],
                -m[3][0] * s[3] + m[3][1] * s[1] - m[3][2] * s[0],
                m[2][0] * s[3] - m[2][1] * s[1] + m[2][2] * s[0],
            ],
        ];
        divided(self.determinant(), adjugate)
    }
}

/// `P * A = L * U` of an `N`x`N` matrix, packed LAPACK-style: `U` on and
/// above the diagonal, the multipliers of `L` (whose diagonal is one)
/// below, and `swaps[k]` the row exchanged with row `k` at step `k`.
struct Lu<T: Float, const N: usize> {
    packed: Matrix<T, N, N>,
    swaps: [usize; N],
    odd_swaps: bool,
}

impl<T: Float, const N: usize> Lu<T, N> {
    /// The factorisation, or `None` at the first pivot that is exactly
    /// zero (the whole remaining column is zero).
    fn factor(a: &Matrix<T, N, N>) -> Option<Self> {
        let mut lu = Lu {
            packed: *a,
            swaps: [0; N],
            odd_swaps: false,
        };
        let a = lu.packed.as_mut_slice();
        for k in 0..N {
            let p = pivot_row(&a[k * N..(k + 1) * N], k)?;
            lu.swaps[k] = p;
            if p != k {
                swap_rows(a, N, k, p);
                lu.odd_swaps = !lu.odd_swaps;
            }
            eliminate(a, N, k);
        }
        Some(lu)
    }

    /// The product of the pivots, negated for an odd permutation.
    fn determinant(&self) -> T {
        let pivots = (0..N).fold(T::ONE, |product, k| product * self.packed[(k, k)]);
        if self.odd_swaps { -pivots } else { pivots }
    }

    /// `A⁻¹ * b`, column by column.
    fn solve<const M: usize>(&self, mut b: Matrix<T, N, M>) -> Matrix<T, N, M> {
        for column in b.as_columns_mut() {
            self.solve_column(column);
        }
        b
    }

    fn solve_column(&self, x: &mut [T]) {
        let lu = self.packed.as_slice();
        for (k, &p) in self.swaps.iter().enumerate() {
            x.swap(k, p);
        }
        // L y = P b, L with a unit diagonal.
        for k in 0..N {
            let xk = x[k];
            for i in k + 1..N {
                x[i] = x[i] - lu[k * N + i] * xk;
            }
        }
        // U x = y.
        for k in (0..N).rev() {
            x[k] = x[k] / lu[k * N + k];
            let xk = x[k];
            for i in 0..k {
                x[i] = x[i] - lu[k * N + i] * xk;
            }
        }
    }
}

/// The row at or below `k` whose element in `column` is largest in
/// magnitude (the first such), or `None` when that element is zero.
fn pivot_row<T: Float>(column: &[T], k: usize) -> Option<usize> {
    let mut best = k;
    for i in k + 1..column.len() {
        if column[i].abs() > column[best].abs() {
            best = i;
        }
    }
    (column[best] != T::ZERO).then_some(best)
}

/// Exchanges rows `i` and `j` of the column-major `n`x`n` matrix `a`.
fn swap_rows<T: Float>(a: &mut [T], n: usize, i: usize, j: usize) {
    for column in a.chunks_exact_mut(n) {
        column.swap(i, j);
    }
}

/// Step `k` of the elimination: the multipliers below the pivot `(k, k)`,
/// stored in place, and the update of the trailing columns.
fn eliminate<T: Float>(a: &mut [T], n: usize, k: usize) {
    let (done, trailing) = a.split_at_mut((k + 1) * n);
    let pivot_column = &mut done[k * n..];
    let pivot = pivot_column[k];
    for l in &mut pivot_column[k + 1..] {
        *l = *l / pivot;
    }
    for column in trailing.chunks_exact_mut(n) {
        let top = column[k];
        for i in k + 1..n {
            column[i] = column[i] - pivot_column[i] * top;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bitwise-exact checks on integer-valued matrices, where every
    /// formula is exact.
    #[test]
    fn closed_forms_on_exact_values() {
        let m = Matrix::<f64, 4, 4>::from_rows([
            [1.0, 0.0, 2.0, -1.0],
            [3.0, 0.0, 0.0, 5.0],
            [2.0, 1.0, 4.0, -3.0],
            [1.0, 0.0, 5.0, 0.0],
        ]);
        assert_eq!(m.determinant(), 30.0);
        let lu = Lu::factor(&m).unwrap().determinant();
        assert!((lu - 30.0).abs() < 1e-12);
        let inv = m.inverse().unwrap();
        let residual = m * inv - Matrix::identity();
        assert!(residual.iter().all(|x| x.abs() < 1e-14), "{residual}");
    }

    #[test]
    fn sizes_zero_and_one() {
        assert_eq!(Matrix::<f32, 0, 0>::zero().determinant(), 1.0);
        assert_eq!(Matrix::<f32, 0, 0>::zero().inverse(), Some(Matrix::zero()));
        assert_eq!(
            Matrix::<f32, 1, 1>::splat(4.0).inverse(),
            Some(Matrix::splat(0.25))
        );
        assert_eq!(Matrix::<f32, 1, 1>::zero().inverse(), None);
        assert_eq!(
            Matrix::<f32, 1, 1>::zero().solve(&Matrix::<f32, 1, 2>::zero()),
            None
        );
    }

    #[test]
    fn pivoting_swaps_rows() {
        // A zero in the first pivot position needs a row exchange.
        let m = Matrix::<f64, 5, 5>::from_fn(|r, c| if r == (c + 1) % 5 { 2.0 } else { 0.0 });
        assert_eq!(m.determinant(), 32.0);
        assert_eq!(m.inverse().unwrap(), m.transpose() * 0.25);
    }

    #[test]
    fn abs_clears_the_sign() {
        assert_eq!(Float::abs(-0.0f32).to_bits(), 0);
        assert_eq!(Float::abs(-2.5f64), 2.5);
    }
}
