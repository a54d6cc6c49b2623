//! Arithmetic on [`Matrix`]: the `std::ops` traits, with the shapes checked
//! by rustc through the const generics.
//!
//! * `a + b`, `a - b`: two matrices of one type, element-wise.
//! * `a * b`: `Matrix<T, R, K> * Matrix<T, K, C> -> Matrix<T, R, C>`, the
//!   matrix product, summed in the contract's order (see [`matmul`]).
//! * `m + s`, `m - s`, `m * s`, `m / s` and `s + m`, `s - m`, `s * m`: a
//!   scalar of the element type, broadcast.
//! * `+= -=` with a matrix or a scalar, `*=` with a scalar or a
//!   `Matrix<T, C, C>`, `/=` with a scalar.
//!
//! Every operator also takes its matrix operands by reference. Integer
//! operations wrap; integer division by zero panics. There is no unary
//! minus and no ordering: the specification has neither.

use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Sub, SubAssign};

use crate::element::Element;
use crate::matrix::Matrix;
use crate::simd::kernels::check_product;

/// `a[i] = f(a[i], b[i])` for every element.
#[inline(always)]
fn zip_assign<T: Element, const R: usize, const C: usize>(
    a: &mut Matrix<T, R, C>,
    b: &Matrix<T, R, C>,
    f: impl Fn(T, T) -> T,
) {
    for (x, &y) in a.as_mut_slice().iter_mut().zip(b.as_slice()) {
        *x = f(*x, y);
    }
}

/// `a[i] = f(a[i])` for every element.
#[inline(always)]
fn map_assign<T: Element, const R: usize, const C: usize>(
    a: &mut Matrix<T, R, C>,
    f: impl Fn(T) -> T,
) {
    for x in a.as_mut_slice() {
        *x = f(*x);
    }
}

/// The matrix product through [`Element::gemm`]: SIMD for `f32`, `f64` and
/// `i32`, and for the narrower integers and `u32` (widened to `i32`) where
/// that pays, the loop below for the rest; the same results.
#[inline]
pub(crate) fn matmul<T: Element, const R: usize, const K: usize, const C: usize>(
    a: &Matrix<T, R, K>,
    b: &Matrix<T, K, C>,
) -> Matrix<T, R, C> {
    let mut out = Matrix::<T, R, C>::zero();
    // An empty product (K == 0) is the zero matrix; empty results have nothing to compute.
    if R * K * C != 0 {
        T::gemm::<R, K, C, false>(a.as_slice(), b.as_slice(), None, out.as_mut_slice());
    }
    out
}

/// `out = a * b (+ addend)` in the contract's order, element by element:
/// `out[r][c] = a[r][0]*b[0][c]`, then `+ a[r][k]*b[k][c]` for `k = 1..K`,
/// each operation rounded (wrapping for integers), then `+ addend[r][c]`.
/// The loop runs down columns so that it vectorises without changing any
/// element's order.
///
/// The dimensions are const parameters so that each shape gets its own
/// copy with known trip counts, which LLVM unrolls and vectorises whether
/// or not it inlines the call: with run-time dimensions an out-of-line
/// call (the usual case once a crate has a few products) was 3x slower for
/// 4x4 (`i64`: 97 ns against 35 ns, `-C target-cpu=native`).
///
/// # Panics
/// If a dimension is zero or a slice is not its shape's length.
#[inline]
pub(crate) fn gemm_in_order<T: Element, const M: usize, const K: usize, const N: usize>(
    a: &[T],
    b: &[T],
    addend: Option<&[T]>,
    out: &mut [T],
) {
    let (m, k, n) = (M, K, N);
    check_product((m, k, n), a, b, addend, out);
    for (c, acc) in out.chunks_exact_mut(m).enumerate() {
        let b_col = &b[c * k..(c + 1) * k];
        for (x, &a_r) in acc.iter_mut().zip(&a[..m]) {
            *x = Element::mul(a_r, b_col[0]);
        }
        for (a_col, &b_k) in a.chunks_exact(m).zip(b_col).skip(1) {
            for (x, &a_r) in acc.iter_mut().zip(a_col) {
                *x = Element::add(*x, Element::mul(a_r, b_k));
            }
        }
        if let Some(addend) = addend {
            for (x, &y) in acc.iter_mut().zip(&addend[c * m..(c + 1) * m]) {
                *x = Element::add(*x, y);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Matrix op Matrix, element-wise: + -

macro_rules! elementwise_matrix_op {
    ($($Trait:ident::$method:ident, $Assign:ident::$assign:ident => $elem:ident;)*) => {$(
        impl<T: Element, const R: usize, const C: usize> $Assign for Matrix<T, R, C> {
            #[doc = concat!("Element-wise `", stringify!($assign), "` (wrapping for integers).")]
            #[inline]
            fn $assign(&mut self, rhs: Self) {
                zip_assign(self, &rhs, T::$elem);
            }
        }

        impl<T: Element, const R: usize, const C: usize> $Assign<&Matrix<T, R, C>>
            for Matrix<T, R, C>
        {
            #[doc = concat!("Element-wise `", stringify!($assign), "` (wrapping for integers).")]
            #[inline]
            fn $assign(&mut self, rhs: &Self) {
                zip_assign(self, rhs, T::$elem);
            }
        }

        impl<T: Element, const R: usize, const C: usize> $Trait for Matrix<T, R, C> {
            type Output = Self;

            #[doc = concat!("Element-wise `", stringify!($method), "` (wrapping for integers).")]
            #[inline]
            fn $method(mut self, rhs: Self) -> Self {
                zip_assign(&mut self, &rhs, T::$elem);
                self
            }
        }

        impl<T: Element, const R: usize, const C: usize> $Trait<&Matrix<T, R, C>>
            for Matrix<T, R, C>
        {
            type Output = Self;

            #[doc = concat!("Element-wise `", stringify!($method), "` (wrapping for integers).")]
            #[inline]
            fn $method(mut self, rhs: &Self) -> Self {
                zip_assign(&mut self, rhs, T::$elem);
                self
            }
        }

        impl<T: Element, const R: usize, const C: usize> $Trait<Matrix<T, R, C>>
            for &Matrix<T, R, C>
        {
            type Output = Matrix<T, R, C>;

            #[doc = concat!("Element-wise `", stringify!($method), "` (wrapping for integers).")]
            #[inline]
            fn $method(self, rhs: Matrix<T, R, C>) -> Matrix<T, R, C> {
                let mut out = *self;
                zip_assign(&mut out, &rhs, T::$elem);
                out
            }
        }

        impl<T: Element, const R: usize, const C: usize> $Trait<&Matrix<T, R, C>>
            for &Matrix<T, R, C>
        {
            type Output = Matrix<T, R, C>;

            #[doc = concat!("Element-wise `", stringify!($method), "` (wrapping for integers).")]
            #[inline]
            fn $method(self, rhs: &Matrix<T, R, C>) -> Matrix<T, R, C> {
                let mut out = *self;
                zip_assign(&mut out, rhs, T::$elem);
                out
            }
        }
    )*};
}

elementwise_matrix_op! {
    Add::add, AddAssign::add_assign => add;
    Sub::sub, SubAssign::sub_assign => sub;
}

// ---------------------------------------------------------------------------
// Matrix * Matrix: the product

impl<T: Element, const R: usize, const K: usize, const C: usize> Mul<Matrix<T, K, C>>
    for Matrix<T, R, K>
{
    type Output = Matrix<T, R, C>;

    /// The matrix product, summed in `k` order from the first product, each
    /// operation rounded separately (wrapping for integers).
    #[inline]
    fn mul(self, rhs: Matrix<T, K, C>) -> Matrix<T, R, C> {
        matmul(&self, &rhs)
    }
}

impl<T: Element, const R: usize, const K: usize, const C: usize> Mul<&Matrix<T, K, C>>
    for Matrix<T, R, K>
{
    type Output = Matrix<T, R, C>;

    /// The matrix product, as for `Matrix * Matrix`.
    #[inline]
    fn mul(self, rhs: &Matrix<T, K, C>) -> Matrix<T, R, C> {
        matmul(&self, rhs)
    }
}

impl<T: Element, const R: usize, const K: usize, const C: usize> Mul<Matrix<T, K, C>>
    for &Matrix<T, R, K>
{
    type Output = Matrix<T, R, C>;

    /// The matrix product, as for `Matrix * Matrix`.
    #[inline]
    fn mul(self, rhs: Matrix<T, K, C>) -> Matrix<T, R, C> {
        matmul(self, &rhs)
    }
}

impl<T: Element, const R: usize, const K: usize, const C: usize> Mul<&Matrix<T, K, C>>
    for &Matrix<T, R, K>
{
    type Output = Matrix<T, R, C>;

    /// The matrix product, as for `Matrix * Matrix`.
    #[inline]
    fn mul(self, rhs: &Matrix<T, K, C>) -> Matrix<T, R, C> {
        matmul(self, rhs)
    }
}

impl<T: Element, const R: usize, const C: usize> MulAssign<Matrix<T, C, C>> for Matrix<T, R, C> {
    /// `*self = *self * rhs`: the product with a square matrix keeps the type.
    #[inline]
    fn mul_assign(&mut self, rhs: Matrix<T, C, C>) {
        *self = matmul(self, &rhs);
    }
}

impl<T: Element, const R: usize, const C: usize> MulAssign<&Matrix<T, C, C>> for Matrix<T, R, C> {
    /// `*self = *self * rhs`: the product with a square matrix keeps the type.
    #[inline]
    fn mul_assign(&mut self, rhs: &Matrix<T, C, C>) {
        *self = matmul(self, rhs);
    }
}

// ---------------------------------------------------------------------------
// Matrix op scalar: + - * /

macro_rules! matrix_scalar_op {
    ($($Trait:ident::$method:ident, $Assign:ident::$assign:ident => $elem:ident;)*) => {$(
        impl<T: Element, const R: usize, const C: usize> $Assign<T> for Matrix<T, R, C> {
            #[doc = concat!("`", stringify!($assign), "` of the scalar to every element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $assign(&mut self, rhs: T) {
                map_assign(self, |x| Element::$elem(x, rhs));
            }
        }

        impl<T: Element, const R: usize, const C: usize> $Trait<T> for Matrix<T, R, C> {
            type Output = Self;

            #[doc = concat!("`", stringify!($method), "` of the scalar to every element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $method(mut self, rhs: T) -> Self {
                map_assign(&mut self, |x| Element::$elem(x, rhs));
                self
            }
        }

        impl<T: Element, const R: usize, const C: usize> $Trait<T> for &Matrix<T, R, C> {
            type Output = Matrix<T, R, C>;

            #[doc = concat!("`", stringify!($method), "` of the scalar to every element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $method(self, rhs: T) -> Matrix<T, R, C> {
                let mut out = *self;
                map_assign(&mut out, |x| Element::$elem(x, rhs));
                out
            }
        }
    )*};
}

matrix_scalar_op! {
    Add::add, AddAssign::add_assign => add;
    Sub::sub, SubAssign::sub_assign => sub;
    Mul::mul, MulAssign::mul_assign => mul;
    Div::div, DivAssign::div_assign => div;
}

// ---------------------------------------------------------------------------
// scalar op Matrix: + - * (for each concrete element type: the orphan rule
// forbids `impl<T> Add<Matrix<T, R, C>> for T`)

macro_rules! scalar_matrix_ops {
    ($($t:ty),* $(,)?) => {$(
        scalar_matrix_ops!(@op $t; Add::add => add; Sub::sub => sub; Mul::mul => mul;);
    )*};
    (@op $t:ty; $($Trait:ident::$method:ident => $elem:ident;)*) => {$(
        impl<const R: usize, const C: usize> $Trait<Matrix<$t, R, C>> for $t {
            type Output = Matrix<$t, R, C>;

            #[doc = concat!("The scalar `", stringify!($method), "` every element: `s ", stringify!($method), " m[i]` (wrapping for integers).")]
            #[inline]
            fn $method(self, mut rhs: Matrix<$t, R, C>) -> Matrix<$t, R, C> {
                map_assign(&mut rhs, |x| Element::$elem(self, x));
                rhs
            }
        }

        impl<const R: usize, const C: usize> $Trait<&Matrix<$t, R, C>> for $t {
            type Output = Matrix<$t, R, C>;

            #[doc = concat!("The scalar `", stringify!($method), "` every element: `s ", stringify!($method), " m[i]` (wrapping for integers).")]
            #[inline]
            fn $method(self, rhs: &Matrix<$t, R, C>) -> Matrix<$t, R, C> {
                let mut out = *rhs;
                map_assign(&mut out, |x| Element::$elem(self, x));
                out
            }
        }
    )*};
}

scalar_matrix_ops!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
#[cfg(feature = "f16")]
scalar_matrix_ops!(half::f16);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn product_starts_from_first_term() {
        let a = Matrix::<f32, 1, 1>::splat(-0.0);
        let b = Matrix::<f32, 1, 1>::splat(1.0);
        assert!((a * b)[(0, 0)].is_sign_negative());
    }

    #[test]
    fn product_with_empty_inner_dimension_is_zero() {
        let a = Matrix::<i32, 2, 0>::zero();
        let b = Matrix::<i32, 0, 3>::zero();
        assert_eq!(a * b, Matrix::<i32, 2, 3>::zero());
    }

    #[test]
    #[allow(clippy::op_ref)]
    fn reference_forms_agree() {
        let a = Matrix::<i32, 2, 2>::from_rows([[1, 2], [3, 4]]);
        let b = Matrix::<i32, 2, 2>::from_rows([[5, 6], [7, 8]]);
        assert_eq!(&a + &b, a + b);
        assert_eq!(a - &b, &a - b);
        assert_eq!(&a * &b, a * b);
        assert_eq!(&a * b, a * &b);
        assert_eq!(&a * 3, 3 * &a);
        assert_eq!(10 - &a, Matrix::from_rows([[9, 8], [7, 6]]));
        let mut c = a;
        c *= &b;
        assert_eq!(c, a * b);
        c -= &c.clone();
        assert_eq!(c, Matrix::zero());
    }

    #[cfg(feature = "f16")]
    #[test]
    fn half_ops() {
        use half::f16;
        let a = Matrix::<f16, 2, 2>::identity();
        let two = f16::from_f32(2.0);
        assert_eq!(
            two * a + a,
            Matrix::<f16, 2, 2>::identity() * f16::from_f32(3.0)
        );
        assert_eq!((a * a).cast::<f32>(), Matrix::<f32, 2, 2>::identity());
    }
}
