//! `Matrix::mad`: `a * b + c` in one pass, and its widening forms (8-bit
//! operands with an `i32` accumulator, `bf16` operands with an `f32` one):
//! the `__builtin_matrix_mad` of `matrix!`.

use crate::element::Element;
use crate::kernels::dispatch::Auto;
use crate::kernels::int8::{Byte, Int8Kernel};
use crate::layout::{ColumnMajor, Layout};
use crate::matrix::Matrix;
use crate::ops::{self, Plain};

/// The element types [`Matrix::mad`] multiplies and accumulates in: `Self`
/// times `B` plus `A`. Implemented for one type throughout (`T`, `T`, `T`)
/// and for the widening forms: `i8` or `u8` times `i8` or `u8`, plus `i32`;
/// and, with the `bf16` feature, `bf16` times `bf16` plus `f32`.
///
/// ```
/// use matrix_core::{Element, MadOperands, Matrix};
///
/// /// `x * w + bias` for any operand types `mad` accepts.
/// fn layer<X: MadOperands<W, A>, W: Element, A: Element>(
///     x: &Matrix<X, 1, 4>,
///     w: &Matrix<W, 4, 2>,
///     bias: &Matrix<A, 1, 2>,
/// ) -> Matrix<A, 1, 2> {
///     x.mad(w, bias)
/// }
/// let x = Matrix::<u8, 1, 4>::splat(200);
/// let w = Matrix::<i8, 4, 2>::splat(-100);
/// assert_eq!(layer(&x, &w, &Matrix::splat(1i32)).to_rows(), [[-79_999, -79_999]]);
/// let y = layer(&Matrix::splat(0.5f32), &Matrix::splat(2.0f32), &Matrix::splat(1.0f32));
/// assert_eq!(y, Matrix::splat(5.0));
/// ```
#[diagnostic::on_unimplemented(
    message = "invalid operand types to '__builtin_matrix_mad' ('{Self}' times '{B}' plus '{A}')",
    label = "the operands of a multiply-accumulate are of one type, 8-bit with an `i32` accumulator, or `__bf16` with a `float` accumulator"
)]
pub trait MadOperands<B: Element, A: Element>: Element {
    /// `a * b + c`: by default [`mad_to`](Self::mad_to) into a new matrix.
    #[doc(hidden)]
    #[inline]
    fn mad<const M: usize, const K: usize, const N: usize, LA: Layout, LB: Layout, LC: Layout>(
        a: &Matrix<Self, M, K, LA>,
        b: &Matrix<B, K, N, LB>,
        c: &Matrix<A, M, N, LC>,
    ) -> Matrix<A, M, N, LC> {
        let mut out = Matrix::default();
        Self::mad_to(a, b, c, &mut out);
        out
    }

    /// `out = a * b + c`, written by the kernel.
    #[doc(hidden)]
    fn mad_to<const M: usize, const K: usize, const N: usize, LA: Layout, LB: Layout, LC: Layout>(
        a: &Matrix<Self, M, K, LA>,
        b: &Matrix<B, K, N, LB>,
        c: &Matrix<A, M, N, LC>,
        out: &mut Matrix<A, M, N, LC>,
    );
}

impl<T: Element> MadOperands<T, T> for T {
    #[inline]
    fn mad<const M: usize, const K: usize, const N: usize, LA: Layout, LB: Layout, LC: Layout>(
        a: &Matrix<T, M, K, LA>,
        b: &Matrix<T, K, N, LB>,
        c: &Matrix<T, M, N, LC>,
    ) -> Matrix<T, M, N, LC> {
        ops::product::<_, T, M, K, N, false, LC>(Auto, Plain(a), Plain(b), c)
    }
    #[inline]
    fn mad_to<
        const M: usize,
        const K: usize,
        const N: usize,
        LA: Layout,
        LB: Layout,
        LC: Layout,
    >(
        a: &Matrix<T, M, K, LA>,
        b: &Matrix<T, K, N, LB>,
        c: &Matrix<T, M, N, LC>,
        out: &mut Matrix<T, M, N, LC>,
    ) {
        ops::product_to::<_, T, M, K, N, false, LC>(Auto, Plain(a), Plain(b), c, out);
    }
}

/// The widening forms: exact in `i32` (wrapping past its range), on the
/// int8 dot-product kernel the CPU has (`Int8Kernel::choose`: AMX,
/// AVX-512 VNNI, AVX-VNNI), or with each operand converted to `i32` first,
/// on the `i32` kernel (small products, SSE2 and scalar backends, AVX2
/// without VNNI).
macro_rules! widening {
    ($($a:ty, $b:ty;)*) => {$(
        impl MadOperands<$b, i32> for $a {
            #[inline]
            fn mad_to<
                const M: usize,
                const K: usize,
                const N: usize,
                LA: Layout,
                LB: Layout,
                LC: Layout,
            >(
                a: &Matrix<$a, M, K, LA>,
                b: &Matrix<$b, K, N, LB>,
                c: &Matrix<i32, M, N, LC>,
                out: &mut Matrix<i32, M, N, LC>,
            ) {
                match Int8Kernel::choose(M, K, N) {
                    Some(kernel) if LC::ROW_MAJOR => {
                        *out = column_major_result(kernel, a, b, c).to_layout()
                    }
                    Some(kernel) => into_column_major(kernel, a, b, c, out.as_mut_slice()),
                    None => widened_to(a, b, c, out),
                }
            }
        }
    )*};
}

/// `a * b + c` on the int8 dot-product `kernel`, column-major: what a
/// row-major result is converted from.
#[inline(always)]
fn column_major_result<X, Y, const M: usize, const K: usize, const N: usize, LA, LB, LC>(
    kernel: Int8Kernel,
    a: &Matrix<X, M, K, LA>,
    b: &Matrix<Y, K, N, LB>,
    c: &Matrix<i32, M, N, LC>,
) -> Matrix<i32, M, N>
where
    X: Element + Byte,
    Y: Element + Byte,
    LA: Layout,
    LB: Layout,
    LC: Layout,
{
    let mut column = Matrix::zero();
    into_column_major(kernel, a, b, c, column.as_mut_slice());
    column
}

/// `a * b + c` on the int8 dot-product `kernel` into `out`, `M x N`
/// column-major elements, whatever the operands' layouts: the kernel
/// writes every one in place.
#[inline(always)]
fn into_column_major<X, Y, const M: usize, const K: usize, const N: usize, LA, LB, LC>(
    kernel: Int8Kernel,
    a: &Matrix<X, M, K, LA>,
    b: &Matrix<Y, K, N, LB>,
    c: &Matrix<i32, M, N, LC>,
    out: &mut [i32],
) where
    X: Element + Byte,
    Y: Element + Byte,
    LA: Layout,
    LB: Layout,
    LC: Layout,
{
    let (mut ta, mut tb, mut tc) = (None, None, None);
    let ops = (
        column_major(a, &mut ta),
        column_major(b, &mut tb),
        column_major(c, &mut tc),
    );
    kernel.mad(ops, (M, K, N), out);
}

/// `out = a * b + c` with both operands converted to `i32` first, written
/// by the `i32` product kernel.
#[inline(always)]
fn widened_to<X, Y, const M: usize, const K: usize, const N: usize, LA, LB, LC>(
    a: &Matrix<X, M, K, LA>,
    b: &Matrix<Y, K, N, LB>,
    c: &Matrix<i32, M, N, LC>,
    out: &mut Matrix<i32, M, N, LC>,
) where
    X: Element,
    Y: Element,
    LA: Layout,
    LB: Layout,
    LC: Layout,
{
    let (a, b) = (a.cast::<i32>(), b.cast::<i32>());
    ops::product_to::<_, i32, M, K, N, false, LC>(Auto, Plain(&a), Plain(&b), c, out);
}

/// `m`'s elements in column-major order: `m`'s own when it is
/// column-major, else those of a column-major copy kept in `copy`. The
/// int8 kernels read their operands this way, so that column-major ones
/// (4 KiB each at 64x64) are not copied.
#[inline(always)]
fn column_major<'a, T: Element, const R: usize, const C: usize, L: Layout>(
    m: &'a Matrix<T, R, C, L>,
    copy: &'a mut Option<Matrix<T, R, C>>,
) -> &'a [T] {
    if L::ROW_MAJOR {
        copy.insert(m.to_layout::<ColumnMajor>()).as_slice()
    } else {
        m.as_slice()
    }
}

widening! {
    i8, i8;
    i8, u8;
    u8, i8;
    u8, u8;
}

/// `bf16` times `bf16` plus `f32`: each operand converted to `f32` (exact),
/// then the `f32` product and sum, on the `f32` kernels of the CPU. The
/// bits are those of Clang's `(mf) a * (mf) b + c`. AMX's `tdpbf16ps` and
/// AVX-512 BF16's `vdpbf16ps` are not used: they flush subnormals and add
/// products in pairs, which gives other bits than the specified sum in `k`
/// order.
#[cfg(feature = "bf16")]
impl MadOperands<half::bf16, f32> for half::bf16 {
    #[inline]
    fn mad_to<
        const M: usize,
        const K: usize,
        const N: usize,
        LA: Layout,
        LB: Layout,
        LC: Layout,
    >(
        a: &Matrix<half::bf16, M, K, LA>,
        b: &Matrix<half::bf16, K, N, LB>,
        c: &Matrix<f32, M, N, LC>,
        out: &mut Matrix<f32, M, N, LC>,
    ) {
        let (a, b) = (a.cast::<f32>(), b.cast::<f32>());
        ops::product_to::<_, f32, M, K, N, false, LC>(Auto, Plain(&a), Plain(&b), c, out);
    }
}

impl<T: Element, const M: usize, const K: usize, LA: Layout> Matrix<T, M, K, LA> {
    /// `self * b + c` in one pass: each sum of the product is completed,
    /// then `c`'s element added, with the bits of `&self * &b + c`. With
    /// `i8`/`u8` operands and an `i32` accumulator the product widens: each
    /// element is converted to `i32` first, so no product or sum overflows
    /// 8 bits (they wrap in `i32`, as integer matrices do). With the `bf16`
    /// feature, `bf16` operands and an `f32` accumulator widen the same way:
    /// the result has the bits of `a.cast::<f32>() * b.cast::<f32>() + c`
    /// (AMX's and AVX-512 BF16's bfloat16 dot products are not used: they
    /// flush subnormals and add products in pairs, so their bits differ).
    /// In `matrix!`, `__builtin_matrix_mad(a, b, c)`.
    ///
    /// The widening forms run on the int8 dot-product instructions of the
    /// CPU, chosen at run time: AMX tiles (`tdpbssd` and its kin, after
    /// asking Linux for the tile state, configured once per thread) for
    /// products of at least 16 rows, 16 columns and a depth of 16 on the
    /// AVX-512 backend, then AVX-512 VNNI or AVX-VNNI
    /// (`vpdpbusd`) from 8,192 multiply-adds (16x32x16); elsewhere (SSE2,
    /// scalar, AVX2 without VNNI, small products) on the `i32` product
    /// kernel. Every path gives the same integers.
    ///
    /// The three operands may have different [layouts](crate::layout); the
    /// result has `c`'s. No operand is converted first: the kernels read a
    /// row-major operand in place (see [`Matrix::to_layout`] for what a
    /// conversion would cost), except a left operand that ends up
    /// transposed (`a` column-major with `c` row-major, or `a` row-major
    /// with `c` column-major), which is transposed once.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let a = Matrix::<f32, 2, 3>::from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let b = Matrix::<f32, 3, 1>::from_rows([[1.0], [0.5], [0.25]]);
    /// let c = Matrix::<f32, 2, 1>::splat(10.0);
    /// assert_eq!(a.mad(&b, &c).to_rows(), [[12.75], [18.0]]);
    ///
    /// // Widening: `i8` times `u8` accumulates in `i32`.
    /// let x = Matrix::<i8, 1, 2>::from_rows([[-128, 127]]);
    /// let w = Matrix::<u8, 2, 1>::from_rows([[255], [255]]);
    /// let acc = Matrix::<i32, 1, 1>::splat(1);
    /// assert_eq!(x.mad(&w, &acc).to_rows(), [[-254]]);
    /// ```
    #[must_use]
    #[inline]
    pub fn mad<B: Element, A: Element, const N: usize, LB: Layout, LC: Layout>(
        &self,
        b: &Matrix<B, K, N, LB>,
        c: &Matrix<A, M, N, LC>,
    ) -> Matrix<A, M, N, LC>
    where
        T: MadOperands<B, A>,
    {
        T::mad(self, b, c)
    }

    /// [`mad`](Matrix::mad) into `out`: `out = self * b + c`, with the
    /// same results. The kernel writes `out` in place (but for a
    /// widening form with a row-major `c` on an int8 kernel, which
    /// computes column-major and converts), so a large result is neither
    /// zeroed first nor copied out of a return value, as with
    /// [`Matrix::mul_to`]: on an Intel Xeon with AMX
    /// (fastest samples, default build), a 64x64x64 `u8` by `i8` product
    /// plus an `i32` matrix took 1.38 µs as `out = x.mad(&w, &b)` and
    /// 0.47 µs as `x.mad_to(&w, &b, &mut out)`, where the kernel alone took
    /// 0.40. `out` cannot be `c`: borrow rules keep them apart.
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let x = Matrix::<u8, 16, 64>::splat(3);
    /// let w = Matrix::<i8, 64, 16>::splat(-2);
    /// let bias = Matrix::<i32, 16, 16>::splat(100);
    /// let mut y = Matrix::zero();
    /// x.mad_to(&w, &bias, &mut y);
    /// assert_eq!(y, Matrix::splat(100 - 64 * 6));
    /// assert_eq!(y, x.mad(&w, &bias));
    /// ```
    #[inline]
    pub fn mad_to<B: Element, A: Element, const N: usize, LB: Layout, LC: Layout>(
        &self,
        b: &Matrix<B, K, N, LB>,
        c: &Matrix<A, M, N, LC>,
        out: &mut Matrix<A, M, N, LC>,
    ) where
        T: MadOperands<B, A>,
    {
        T::mad_to(self, b, c, out);
    }
}
