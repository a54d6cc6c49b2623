//! Arithmetic on [`Matrix`]: the operations the operators and the `matrix!`
//! expansion share, and the `std::ops` traits, with the shapes checked by
//! rustc through the const generics.
//!
//! * `a + b`, `a - b`: two matrices of one type, element-wise.
//! * `a * b`: `Matrix<T, R, K> * Matrix<T, K, C> -> Matrix<T, R, C>`, the
//!   matrix product, summed in the contract's order (see [`product`]).
//! * `m + s`, `m - s`, `m * s`, `m / s` and `s + m`, `s - m`, `s * m`: a
//!   scalar of the element type, broadcast.
//! * `+= -=` with a matrix or a scalar, `*=` with a scalar or a
//!   `Matrix<T, C, C>`, `/=` with a scalar.
//!
//! Every operator also takes its matrix operands by reference, and runs on
//! the detected backend ([`Auto`]). Integer operations wrap; integer
//! division by zero panics. There is no unary minus and no ordering: the
//! specification has neither.

use core::marker::PhantomData;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Sub, SubAssign};

use crate::element::{Delivery, Element};
use crate::kernels::Isa;
use crate::kernels::dispatch::{Auto, Closure, Dispatch, Op, OpWith};
#[cfg(not(debug_assertions))]
use crate::kernels::gemm::Dims;
#[cfg(not(debug_assertions))]
use crate::kernels::gemm::INLINE_VECTOR_MACS;
use crate::kernels::gemm::Operands;
use crate::kernels::passes::Arithmetic;
use crate::kernels::transpose::Transposition;
use crate::layout::{ColumnMajor, Layout};
use crate::matrix::Matrix;

// ---------------------------------------------------------------------------
// The operations

/// A product's operand as the matrix it is: `a`, in either layout (a
/// row-major operand is read as the transpose of its column-major
/// storage, in place).
#[derive(Clone, Copy, Debug)]
pub struct Plain<'a, T: Element, const R: usize, const C: usize, L: Layout = ColumnMajor>(
    pub &'a Matrix<T, R, C, L>,
);

/// A product's operand as the transpose of the matrix it holds:
/// `transpose(a)`. The runtime reads a transposed right operand in place
/// (the kernel's broadcasts only change address) and transposes a left one
/// first (the kernel streams the columns of its left operand).
#[derive(Clone, Copy, Debug)]
pub struct Transposed<'a, T: Element, const R: usize, const C: usize, L: Layout = ColumnMajor>(
    pub &'a Matrix<T, R, C, L>,
);

/// The transpose of an operand, stored where the operand is: the operands
/// of a row-major product, which runs as `out^T = rhs^T * lhs^T` on the
/// column-major kernels.
#[derive(Clone, Copy)]
struct Flipped<O>(O);

mod sealed {
    pub trait Sealed {}
}

/// An `R x C` operand of a product, stored as it is or transposed: a
/// layout known at compile time, so each product is compiled for its own.
/// Sealed: [`Plain`] and [`Transposed`].
pub trait Operand<T: Element, const R: usize, const C: usize>: Copy + sealed::Sealed {
    /// Whether the stored matrix is the operand's transpose (`C x R`).
    const TRANSPOSED: bool;
    /// The stored matrix, column-major.
    fn stored(&self) -> &[T];
    /// The operand's columns, read in place, where it is stored as them.
    #[doc(hidden)]
    fn columns(&self) -> Option<&[[T; R]; C]>;
    /// The operand's rows, read in place, where it is stored as them.
    #[doc(hidden)]
    fn rows(&self) -> Option<&[[T; C]; R]>;
}

impl<T: Element, const R: usize, const C: usize, L: Layout> sealed::Sealed
    for Plain<'_, T, R, C, L>
{
}
impl<T: Element, const R: usize, const C: usize, L: Layout> sealed::Sealed
    for Transposed<'_, T, R, C, L>
{
}
impl<O> sealed::Sealed for Flipped<O> {}

impl<T: Element, const R: usize, const C: usize, L: Layout> Operand<T, R, C>
    for Plain<'_, T, R, C, L>
{
    const TRANSPOSED: bool = L::ROW_MAJOR;
    #[inline(always)]
    fn stored(&self) -> &[T] {
        self.0.as_slice()
    }
    #[inline(always)]
    fn columns(&self) -> Option<&[[T; R]; C]> {
        L::columns(self.0.storage_ref())
    }
    #[inline(always)]
    fn rows(&self) -> Option<&[[T; C]; R]> {
        L::rows(self.0.storage_ref())
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Operand<T, R, C>
    for Transposed<'_, T, C, R, L>
{
    // A row-major matrix's storage is its transpose, column-major: the
    // transpose of one is stored as it is.
    const TRANSPOSED: bool = !L::ROW_MAJOR;
    #[inline(always)]
    fn stored(&self) -> &[T] {
        self.0.as_slice()
    }
    #[inline(always)]
    fn columns(&self) -> Option<&[[T; R]; C]> {
        // The rows of the stored matrix are the columns of its transpose.
        L::rows(self.0.storage_ref())
    }
    #[inline(always)]
    fn rows(&self) -> Option<&[[T; C]; R]> {
        L::columns(self.0.storage_ref())
    }
}

impl<T: Element, const R: usize, const C: usize, O: Operand<T, C, R>> Operand<T, R, C>
    for Flipped<O>
{
    const TRANSPOSED: bool = !O::TRANSPOSED;
    #[inline(always)]
    fn stored(&self) -> &[T] {
        self.0.stored()
    }
    #[inline(always)]
    fn columns(&self) -> Option<&[[T; R]; C]> {
        self.0.rows()
    }
    #[inline(always)]
    fn rows(&self) -> Option<&[[T; C]; R]> {
        self.0.columns()
    }
}

/// The addend of a fused `a * b + c`: `&Matrix` for one, `()` for none, a
/// choice known at compile time; `L` is the layout of the result, which is
/// the addend's. Sealed.
pub trait Addend<T: Element, const M: usize, const N: usize, L: Layout = ColumnMajor>:
    Copy + sealed::Sealed
{
    /// The addend, in memory order.
    fn slice(&self) -> Option<&[T]>;
    /// The result when the product is empty (`K == 0`): the addend, or zero.
    fn or_zero(&self) -> Matrix<T, M, N, L>;
    /// `out = out + addend`, element by element, on the line forms (see
    /// [`product_same_layout`]); nothing for `()`.
    #[doc(hidden)]
    fn add_lines(&self, out: &mut Matrix<T, M, N, L>);
}

impl sealed::Sealed for () {}
impl<T: Element, const M: usize, const N: usize, L: Layout> sealed::Sealed for &Matrix<T, M, N, L> {}

impl<T: Element, const M: usize, const N: usize, L: Layout> Addend<T, M, N, L> for () {
    #[inline(always)]
    fn slice(&self) -> Option<&[T]> {
        None
    }
    #[inline(always)]
    fn or_zero(&self) -> Matrix<T, M, N, L> {
        Matrix::default()
    }
    #[inline(always)]
    fn add_lines(&self, _out: &mut Matrix<T, M, N, L>) {}
}

impl<T: Element, const M: usize, const N: usize, L: Layout> Addend<T, M, N, L>
    for &Matrix<T, M, N, L>
{
    #[inline(always)]
    fn slice(&self) -> Option<&[T]> {
        Some(self.as_slice())
    }
    #[inline(always)]
    fn or_zero(&self) -> Matrix<T, M, N, L> {
        **self
    }
    #[inline(always)]
    fn add_lines(&self, out: &mut Matrix<T, M, N, L>) {
        L::zip_lines(out.storage_mut(), self.storage_ref(), Arithmetic::Add);
    }
}

/// `lhs * rhs`, or `lhs * rhs + c` when `addend` is `&c` (`()` for none),
/// on `d`, the result in layout `L` (the addend's): the `matrix!`
/// expansion's one call per product (through `private`, its operands
/// evaluated in source order before the call), and `Matrix`'s operators'.
/// Which kernel runs for the element type, shape and backend is the
/// runtime's choice ([`Element`]). Without `FUSE` every sum is bit for bit
/// the contract's order: `a[r][0]*b[0][c]`, then each further `+
/// a[r][k]*b[k][c]` in `k` order, each rounded, then the addend. With
/// `FUSE` (`#[fp_contract(fast)]`) each multiply-add step rounds once
/// where the backend has FMA.
///
/// Every layout runs on the column-major kernels, with no conversion of
/// any operand but a transposed left one: a row-major operand is the
/// transpose of its storage, read in place, and a row-major result is
/// computed as `out^T = rhs^T * lhs^T` (each product commutes exactly, the
/// `k` order is the same, so the bits are too).
#[inline(always)]
pub fn product<
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
) -> Matrix<T, M, N, L> {
    if M * K * N == 0 {
        // An empty sum: the addend, or zero.
        return addend.or_zero();
    }
    #[cfg(matrix_core_opt0)]
    if !FUSE {
        let mut out = Matrix::default();
        if product_on_lines(lhs, rhs, &mut out) {
            addend.add_lines(&mut out);
            return out;
        }
    }
    let op = Product::<_, _, T, M, K, N, FUSE, L, false, D>::new(lhs, rhs);
    let inline = product_inline::<_, T>(d, 2 * M * K * N, FUSE, Delivery::Returned);
    run_tiled(d, inline, op, addend)
}

/// As [`product`], written into `out` by the kernel itself: nothing is
/// returned, so nothing is copied out of the backend's boundary (see
/// [`Matrix::mul_to`] for what that copy costs).
#[inline(always)]
pub(crate) fn product_to<
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
    out: &mut Matrix<T, M, N, L>,
) {
    if M * K * N == 0 {
        *out = addend.or_zero();
        return;
    }
    #[cfg(matrix_core_opt0)]
    if !FUSE && product_on_lines(lhs, rhs, out) {
        addend.add_lines(out);
        return;
    }
    let op = InPlace(Product::<_, _, T, M, K, N, FUSE, L, false, D>::new(
        lhs, rhs,
    ));
    let inline = product_inline::<_, T>(d, 2 * M * K * N, FUSE, Delivery::Written);
    run_tiled(d, inline, op, (addend, out));
}

/// `out = lhs * rhs` on the line forms (`kernels::passes`, inlined into
/// the caller), where matrix-core is unoptimised (see "How the operators
/// run" below) and the operands and the result are lines of one kind: all
/// columns or all rows, a transposed operand counting as its transpose's
/// lines. False, with `out` untouched, for any other mix, which the
/// kernels take. Bit for bit the kernels' result: each sum in the same `k`
/// order, each step rounded. Dev profile, on an AVX-512 Xeon: a 4x4 `f32`
/// `mul_to` took 480 ns on the run-time-shape kernel, and takes 100 ns
/// (BENCHMARKS.md).
#[cfg(matrix_core_opt0)]
#[inline(always)]
fn product_on_lines<T: Element, const M: usize, const K: usize, const N: usize, L: Layout>(
    lhs: impl Operand<T, M, K>,
    rhs: impl Operand<T, K, N>,
    out: &mut Matrix<T, M, N, L>,
) -> bool {
    use crate::kernels::passes::{product_columns, product_rows};
    if let (Some(a), Some(b)) = (lhs.columns(), rhs.columns())
        && let Some(o) = L::columns_mut(out.storage_mut())
    {
        product_columns(a, b, o);
    } else if let (Some(a), Some(b)) = (lhs.rows(), rhs.rows())
        && let Some(o) = L::rows_mut(out.storage_mut())
    {
        product_rows(a, b, o);
    } else {
        return false;
    }
    true
}

/// Where a product of `work` element operations on `d` runs (see
/// [`run_at`]). Exact, every backend gives the same bits, so a small
/// product (a 4x4) runs inline on the build's baseline where its type, the
/// CPU and where its result goes say it pays; under `fast` the bits depend
/// on the backend that runs it, which is `d`'s.
#[inline(always)]
fn product_inline<D: Dispatch, T: Element>(
    d: D,
    work: usize,
    fuse: bool,
    delivery: Delivery,
) -> Option<usize> {
    (!fuse && T::small_products_inline(d.backend(), delivery, work)).then_some(work)
}

/// Runs `op` on `x` on `d`: inline on the build's baseline backend where
/// `inline` is its count of element operations, else through `d`'s
/// boundary.
#[inline(always)]
fn run_at<D: Dispatch, X, O: OpWith<X>>(d: D, inline: Option<usize>, op: O, x: X) -> O::Output {
    match inline {
        Some(work) => d.run_portable_with(work, op, x),
        None => d.run_with(op, x),
    }
}

/// An operation that transposes on 16x16 tiles, in two copies: one on the
/// default tiles, one on those for a CPU whose 512-bit units are full
/// width ([`Isa::transpose_16x16_f32_full_width`]). [`run_tiled`] chooses
/// between them before the backend's boundary, so that each copy compiles
/// its tiles without a branch: with a branch in the tile, a 16x16 `f32`
/// product with a transposed left operand took 70 to 74 ns instead of 66
/// to 68 ns (LLVM no longer kept the transposed operand in registers), on
/// an AMD EPYC Zen 5.
trait Tiled<X>: OpWith<X> {
    /// Whether the operation has such tiles: a transpose of 32-bit
    /// elements (which run the `f32` tiles) whose sides are both at least
    /// 16. Without them there is no second copy to compile.
    const FULL_WIDTH_TILES: bool;
    /// The copy on the full-width tiles.
    type FullWidth: OpWith<X, Output = Self::Output>;
    /// The same operation on the full-width tiles.
    fn full_width(self) -> Self::FullWidth;
}

/// Whether a transpose of a `rows x cols` matrix of `T` runs 16x16 `f32`
/// tiles (see [`Tiled`]).
const fn has_f32_tiles<T>(rows: usize, cols: usize) -> bool {
    size_of::<T>() == 4 && rows >= 16 && cols >= 16
}

/// Runs `op` on `x` on `d` (see [`run_at`]), in its copy on the full-width
/// tiles where it has them and this CPU's 512-bit units are full width
/// ([`full_width_cpu`]).
#[inline(always)]
fn run_tiled<D: Dispatch, X, O: Tiled<X>>(d: D, inline: Option<usize>, op: O, x: X) -> O::Output {
    // A constant first, so that an operation without the tiles compiles no
    // second copy and asks nothing of the CPU.
    if const { O::FULL_WIDTH_TILES } && full_width_cpu() {
        run_at(d, inline, op.full_width(), x)
    } else {
        run_at(d, inline, op, x)
    }
}

/// Whether this CPU's 512-bit units are full width
/// ([`full_width_512`](crate::simd::dispatch::full_width_512)); never on
/// other targets than x86-64.
#[inline(always)]
fn full_width_cpu() -> bool {
    #[cfg(target_arch = "x86_64")]
    let full = crate::simd::dispatch::full_width_512();
    #[cfg(not(target_arch = "x86_64"))]
    let full = false;
    full
}

/// A product as an [`Op`] that returns its result. Its operand layouts are
/// types, so each boundary is compiled for its own. Made inside the
/// backend's boundary, the result goes back by value, and the caller's move
/// to its destination is its only copy. (Written by the boundary through a
/// reference to a zeroed matrix of the caller's, it was copied twice on its
/// way, by calls of `memcpy` in a default build: an 8x8 `f32` product
/// took 26 ns that way and takes 19 ns now, measured on an AVX2 EPYC.)
/// The addend is its [`OpWith`] part, so that the operands' and the
/// addend's addresses all cross the boundary in registers.
/// A transposed left operand is transposed on the full-width tiles where
/// `FULL_WIDTH` (see [`Tiled`]). `D` is the [`Dispatch`] it was made on,
/// whose [`IN_KERNEL`](Dispatch::IN_KERNEL) its kernels may follow.
struct Product<
    Lhs,
    Rhs,
    T,
    const M: usize,
    const K: usize,
    const N: usize,
    const FUSE: bool,
    L,
    const FULL_WIDTH: bool,
    D,
> {
    lhs: Lhs,
    rhs: Rhs,
    result: PhantomData<(T, L, D)>,
}

impl<
    Lhs,
    Rhs,
    A,
    T,
    const M: usize,
    const K: usize,
    const N: usize,
    const FUSE: bool,
    L,
    const FULL_WIDTH: bool,
    D: Dispatch,
> OpWith<A> for Product<Lhs, Rhs, T, M, K, N, FUSE, L, FULL_WIDTH, D>
where
    T: Element,
    Lhs: Operand<T, M, K>,
    Rhs: Operand<T, K, N>,
    A: Addend<T, M, N, L>,
    L: Layout,
{
    type Output = Matrix<T, M, N, L>;

    #[inline(always)]
    fn run_with<S: Isa>(self, s: S, addend: A) -> Matrix<T, M, N, L> {
        let mut out = Matrix::<T, M, N, L>::default();
        self.write::<S, true>(s, addend.slice(), &mut out);
        out
    }
}

impl<
    Lhs,
    Rhs,
    T,
    const M: usize,
    const K: usize,
    const N: usize,
    const FUSE: bool,
    L,
    const FULL_WIDTH: bool,
    D: Dispatch,
> Product<Lhs, Rhs, T, M, K, N, FUSE, L, FULL_WIDTH, D>
where
    T: Element,
    Lhs: Operand<T, M, K>,
    Rhs: Operand<T, K, N>,
    L: Layout,
{
    #[inline(always)]
    fn new(lhs: Lhs, rhs: Rhs) -> Self {
        Product {
            lhs,
            rhs,
            result: PhantomData,
        }
    }

    /// `out = lhs * rhs (+ addend)` with backend `S`'s kernels, `out` a
    /// result to be returned by value where `RETURNED` (see
    /// [`Dims::RETURNED`]).
    #[inline(always)]
    fn write<S: Isa, const RETURNED: bool>(
        self,
        s: S,
        addend: Option<&[T]>,
        out: &mut Matrix<T, M, N, L>,
    ) {
        if L::ROW_MAJOR {
            product_into::<S, T, N, K, M, FUSE, FULL_WIDTH, RETURNED, D, _, _>(
                s,
                Flipped(self.rhs),
                Flipped(self.lhs),
                addend,
                out.as_mut_slice(),
            );
        } else {
            product_into::<S, T, M, K, N, FUSE, FULL_WIDTH, RETURNED, D, _, _>(
                s,
                self.lhs,
                self.rhs,
                addend,
                out.as_mut_slice(),
            );
        }
    }
}

/// A product as an [`Op`] that writes its result into the caller's matrix,
/// which crosses the boundary as a part of its own with the addend (both
/// addresses in registers, as for [`Product`]).
struct InPlace<P>(P);

impl<
    'o,
    Lhs,
    Rhs,
    A,
    T,
    const M: usize,
    const K: usize,
    const N: usize,
    const FUSE: bool,
    L,
    const FULL_WIDTH: bool,
    D: Dispatch,
> OpWith<(A, &'o mut Matrix<T, M, N, L>)>
    for InPlace<Product<Lhs, Rhs, T, M, K, N, FUSE, L, FULL_WIDTH, D>>
where
    T: Element,
    Lhs: Operand<T, M, K>,
    Rhs: Operand<T, K, N>,
    A: Addend<T, M, N, L>,
    L: Layout,
{
    type Output = ();

    #[inline(always)]
    fn run_with<S: Isa>(self, s: S, (addend, out): (A, &'o mut Matrix<T, M, N, L>)) {
        self.0.write::<S, false>(s, addend.slice(), out);
    }
}

impl<
    Lhs,
    Rhs,
    A,
    T,
    const M: usize,
    const K: usize,
    const N: usize,
    const FUSE: bool,
    L,
    D: Dispatch,
> Tiled<A> for Product<Lhs, Rhs, T, M, K, N, FUSE, L, false, D>
where
    T: Element,
    Lhs: Operand<T, M, K>,
    Rhs: Operand<T, K, N>,
    A: Addend<T, M, N, L>,
    L: Layout,
{
    // Whether `product_into` transposes a left operand on 16x16 `f32`
    // tiles: that of the column-major product it runs (for a row-major
    // result, the right operand flipped, `N x K`).
    const FULL_WIDTH_TILES: bool = if L::ROW_MAJOR {
        !Rhs::TRANSPOSED && has_f32_tiles::<T>(N, K)
    } else {
        Lhs::TRANSPOSED && has_f32_tiles::<T>(M, K)
    };
    type FullWidth = Product<Lhs, Rhs, T, M, K, N, FUSE, L, true, D>;
    #[inline(always)]
    fn full_width(self) -> Self::FullWidth {
        Product::new(self.lhs, self.rhs)
    }
}

// A product written in place has the product's own tiles.
impl<P, A, O> Tiled<(A, O)> for InPlace<P>
where
    P: Tiled<A>,
    InPlace<P>: OpWith<(A, O)>,
    InPlace<P::FullWidth>: OpWith<(A, O), Output = <InPlace<P> as OpWith<(A, O)>>::Output>,
{
    const FULL_WIDTH_TILES: bool = P::FULL_WIDTH_TILES;
    type FullWidth = InPlace<P::FullWidth>;
    #[inline(always)]
    fn full_width(self) -> Self::FullWidth {
        InPlace(self.0.full_width())
    }
}

/// `out = lhs * rhs (+ addend)`, all column-major `M x N`, with backend
/// `S`'s kernels; a transposed left operand is transposed first, whole or
/// a block of rows at a time ([`by_row_blocks`]), on the full-width tiles
/// where `FULL_WIDTH` (see [`Tiled`]).
#[inline(always)]
fn product_into<
    S: Isa,
    T: Element,
    const M: usize,
    const K: usize,
    const N: usize,
    const FUSE: bool,
    const FULL_WIDTH: bool,
    const RETURNED: bool,
    D: Dispatch,
    Lhs: Operand<T, M, K>,
    Rhs: Operand<T, K, N>,
>(
    s: S,
    lhs: Lhs,
    rhs: Rhs,
    addend: Option<&[T]>,
    out: &mut [T],
) {
    let p = |a| Operands {
        m: M,
        k: K,
        n: N,
        ldo: M,
        a,
        b: rhs.stored(),
        bt: Rhs::TRANSPOSED,
        addend,
    };
    if Lhs::TRANSPOSED && const { by_row_blocks::<S, T>(M) } {
        // A block of `ROW_BLOCK` rows at a time: its rows transposed into
        // a buffer of that size, then its rows of the result, whose
        // columns are `M` apart.
        let mut a = [[scratch_zero::<T>(size_of::<[[T; ROW_BLOCK]; K]>()); ROW_BLOCK]; K];
        let a = a.as_flattened_mut();
        let (stored, span) = (lhs.stored(), (N - 1) * M + ROW_BLOCK);
        let mut i0 = 0;
        while i0 < M {
            let rows = &stored[i0 * K..][..ROW_BLOCK * K];
            T::transpose::<S, FULL_WIDTH>(s, Transposition::new(K, ROW_BLOCK, rows, a));
            let block = Operands {
                m: ROW_BLOCK,
                k: K,
                n: N,
                ldo: M,
                a,
                b: rhs.stored(),
                bt: Rhs::TRANSPOSED,
                addend: addend.map(|c| &c[i0..][..span]),
            };
            kernel::<S, T, ROW_BLOCK, K, N, M, FUSE, RETURNED, D, Rhs>(
                s,
                &block,
                &mut out[i0..][..span],
            );
            i0 += ROW_BLOCK;
        }
    } else if Lhs::TRANSPOSED {
        let mut a = [[scratch_zero::<T>(size_of::<[[T; M]; K]>()); M]; K];
        let m = Transposition::new(K, M, lhs.stored(), a.as_flattened_mut());
        T::transpose::<S, FULL_WIDTH>(s, m);
        kernel::<S, T, M, K, N, M, FUSE, RETURNED, D, Rhs>(s, &p(a.as_flattened()), out);
    } else {
        kernel::<S, T, M, K, N, M, FUSE, RETURNED, D, Rhs>(s, &p(lhs.stored()), out);
    }
}

/// The rows of a block of a transposed left operand (see
/// [`by_row_blocks`]): two vectors of `f32` rows on AVX2, the rows of one
/// register tile.
const ROW_BLOCK: usize = 16;

/// Whether [`product_into`] transposes a left operand of `m` rows a block
/// of [`ROW_BLOCK`] rows at a time, into a buffer of one block that the
/// kernel then reads for those rows of the result, rather than whole
/// before the product: where `T`'s kernels write blocks of rows
/// ([`Element::STRIDED_RESULT`]), on the backends with 16 vector registers
/// (whose register tiles are at most 16 `f32` rows; those with 32 take
/// 64, so a block would split their tiles), for an `m` of several blocks.
/// The buffer is a quarter of a 64-row operand's, filled once, and the
/// block the kernel reads is the one just transposed. Measured on an AMD
/// EPYC Zen 3 (AVX2), default build, six runs of each in alternation
/// with the whole-operand transpose: a 64x64 `f32` `mul_to` with a
/// row-major left operand took 1.13 to 1.14 times the all-column-major
/// `mul_to` that way and takes 1.06 to 1.08 (a row-major result of
/// column-major operands 1.19 to 1.23, now 0.95 to 0.97).
const fn by_row_blocks<S: Isa, T: Element>(m: usize) -> bool {
    T::STRIDED_RESULT && !S::REGS32 && m > ROW_BLOCK && m.is_multiple_of(ROW_BLOCK)
}

/// The zero that fills the buffer of a transposed left operand, of
/// `bytes` bytes, which the transpose then overwrites. Above 1 KiB it is a
/// value LLVM cannot see through, so the buffer is filled by a loop of the
/// backend's vector stores rather than by a call of `memset` (which glibc
/// runs as `rep stosb` at that size). At 1 KiB and below it is the
/// constant, and LLVM removes the filling where the transpose's stores
/// cover the buffer (a 16x16 `f32` operand, transposed in registers: with
/// the loop, a 16x16 `mul_to` with a row-major left operand took 43.5 to
/// 44.1 ns against 37.6 to 45.2 ns). Measured on an AMD EPYC Zen 5, default
/// build, two sessions of three runs: a 64x64 `f32` `mul_to` with a
/// row-major left operand took 2177 to 2278 ns after a `memset` of its
/// 16 KiB buffer and takes 2114 to 2137 ns, the all-column-major one 1843
/// to 1914 ns. (The same fill of a returned 64x64 product's storage made
/// `&a * &b` slower, 2366 against 2250 ns, so results keep their zeroing.)
#[inline(always)]
fn scratch_zero<T: Element>(bytes: usize) -> T {
    if bytes > 1024 {
        core::hint::black_box(T::ZERO)
    } else {
        T::ZERO
    }
}

/// The shape of a product of `Matrix` types, which its kernels are
/// compiled for: `M x K` by `K x N`, the right operand `Rhs`, the result's
/// columns `LDO` apart, made on [`Dispatch`] `D` (see [`Dims::IN_KERNEL`]).
#[cfg(not(debug_assertions))]
struct Shape<
    T,
    const M: usize,
    const K: usize,
    const N: usize,
    const LDO: usize,
    const RETURNED: bool,
    D,
    Rhs,
>(PhantomData<(T, D, Rhs)>);

#[cfg(not(debug_assertions))]
impl<
    T: Element,
    const M: usize,
    const K: usize,
    const N: usize,
    const LDO: usize,
    const RETURNED: bool,
    D: Dispatch,
    Rhs: Operand<T, K, N>,
> Dims for Shape<T, M, K, N, LDO, RETURNED, D, Rhs>
{
    const KNOWN: bool = true;
    const M: usize = M;
    const K: usize = K;
    const N: usize = N;
    const BT: bool = Rhs::TRANSPOSED;
    const LDO: usize = LDO;
    const IN_KERNEL: bool = D::IN_KERNEL;
    const RETURNED: bool = RETURNED;
}

/// The product `p` into `out` with backend `S`'s kernel for `T`, the
/// result's columns `LDO` apart (`p.ldo`). (`Rhs` goes into the shape an
/// optimised build compiles the kernel for; debug builds run the
/// run-time-shape kernels.)
#[cfg_attr(debug_assertions, allow(clippy::extra_unused_type_parameters))]
#[inline(always)]
fn kernel<
    S: Isa,
    T: Element,
    const M: usize,
    const K: usize,
    const N: usize,
    const LDO: usize,
    const FUSE: bool,
    const RETURNED: bool,
    D: Dispatch,
    Rhs: Operand<T, K, N>,
>(
    s: S,
    p: &Operands<'_, T>,
    out: &mut [T],
) {
    // Debug builds run every product on the kernels compiled inside
    // matrix-core (at its own optimisation level: see `kernels::dynamic`);
    // optimised builds on a copy compiled for the shape, inlined when
    // small. Measured on an AVX2 EPYC, a 64x64 `f32` product ran in 7.7 us
    // compiled for its shape and 9.7 us on the run-time-shape kernel, so
    // optimised builds keep constant shapes at every size. A `cfg`
    // attribute, not `cfg!`: at opt-level 0 the branch not taken would
    // still be compiled into the caller, with a stack slot for every value
    // of every inlined register tile.
    #[cfg(debug_assertions)]
    T::product_dyn(s, FUSE, p, out);
    #[cfg(not(debug_assertions))]
    if const { M * K * N <= INLINE_VECTOR_MACS * T::PRODUCT_VECTORS.lanes::<S>() } {
        T::product::<S, FUSE, Shape<T, M, K, N, LDO, RETURNED, D, Rhs>>(s, p, out);
    } else {
        called::<S, T, FUSE, Shape<T, M, K, N, LDO, RETURNED, D, Rhs>>(s, p, out);
    }
}

/// A medium-sized product, out of line but with its shape constant inside:
/// `s.run_out_of_line` enters backend `S`'s `#[target_feature]` boundary
/// that is never inlined, so a product too large to inline is a function of
/// its own *compiled with the backend's features*, its code generated apart
/// from its caller's. (Merged into the boundary that also makes the
/// product's result, a 16x16 `f64` product spilled its broadcasts to the
/// stack and ran 12% slower, on an AVX2 EPYC.) (A plain generic function
/// left out of line would be compiled for the build's target, SSE2 in a
/// default build, and every AVX2 or AVX-512 intrinsic in it would become a
/// call: a default build ran 16x16 products up to 38 times slower than a
/// native one that way.)
#[cfg(not(debug_assertions))]
#[inline(always)]
fn called<S: Isa, T: Element, const FUSE: bool, D: Dims>(s: S, p: &Operands<'_, T>, out: &mut [T]) {
    struct Called<'a, 'p, T: Element, const FUSE: bool, D> {
        p: &'a Operands<'p, T>,
        out: &'a mut [T],
        shape: PhantomData<D>,
    }
    impl<T: Element, const FUSE: bool, D: Dims> Op for Called<'_, '_, T, FUSE, D> {
        type Output = ();
        #[inline(always)]
        fn run<S: Isa>(self, s: S) {
            // The shape as constants, inside the boundary.
            let p = Operands {
                m: D::M,
                k: D::K,
                n: D::N,
                ldo: D::LDO,
                ..*self.p
            };
            T::product::<S, FUSE, D>(s, &p, self.out);
        }
    }
    s.run_out_of_line(Called::<T, FUSE, D> {
        p,
        out,
        shape: PhantomData,
    });
}

/// `transpose(m)` on `d`, in `m`'s layout.
#[inline(always)]
pub fn transpose<D: Dispatch, T: Element, const R: usize, const C: usize, L: Layout>(
    d: D,
    m: &Matrix<T, R, C, L>,
) -> Matrix<T, C, R, L> {
    // See "How the operators run" above for the three forms.
    #[cfg(matrix_core_opt0)]
    let out = {
        let _ = d;
        transposed_on_lines(m)
    };
    #[cfg(not(matrix_core_opt0))]
    let out = if const { debug_on_lines(R, C) } {
        transposed_on_lines(m)
    } else {
        storage_transposed(d, m.as_slice())
    };
    out
}

/// `transpose(m)` on the line forms, inlined into the caller.
#[inline(always)]
fn transposed_on_lines<T: Element, const R: usize, const C: usize, L: Layout>(
    m: &Matrix<T, R, C, L>,
) -> Matrix<T, C, R, L> {
    let mut out = Matrix::default();
    L::transpose_lines(m.storage_ref(), out.storage_mut());
    out
}

/// `transpose(m)` on `d`, written into `out` by the kernel itself (see
/// [`Matrix::transpose_to`]).
#[inline(always)]
pub(crate) fn transpose_to<D: Dispatch, T: Element, const R: usize, const C: usize, L: Layout>(
    d: D,
    m: &Matrix<T, R, C, L>,
    out: &mut Matrix<T, C, R, L>,
) {
    #[cfg(matrix_core_opt0)]
    {
        let _ = d;
        L::transpose_lines(m.storage_ref(), out.storage_mut());
    }
    #[cfg(not(matrix_core_opt0))]
    if const { debug_on_lines(R, C) } {
        L::transpose_lines(m.storage_ref(), out.storage_mut());
    } else {
        storage_transposed_to(d, m.as_slice(), out);
    }
}

/// The matrix whose storage is the transpose of `src`, on `d`, with its
/// backend's kernel for `T`: `src` is the column-major matrix of the
/// result's storage transposed (`C x R` for a column-major result, `R x
/// C` for a row-major one), as the storage of a matrix in either layout
/// is of its transpose in the same layout, or of itself in the other
/// layout. Its shape is the `Op`'s type, not a field, so that the
/// boundary compiles the transpose for it (with the shape as run-time
/// values, a 16x16 `f32` transpose through the AVX-512 boundary took 79
/// ns instead of 36 ns inline on SSE2, on an AVX-512 Xeon). The
/// result is made inside the backend's boundary and returned by value, so
/// the compiler sees the transpose write all of it and does not zero it
/// first. (Zeroed by the caller and written through a slice, a 16x16 `f32`
/// conversion spent most of its time in `memset` and `memcpy` calls, on an
/// AVX2 EPYC.) `product_into` writes the same three lines for a transposed
/// left operand on purpose: moved into a shared `#[inline(always)]` helper,
/// they brought both calls back (a 16x16 `f32` conversion took 74 ns
/// instead of 37 ns, same machine).
#[inline(always)]
fn storage_transposed<D: Dispatch, T: Element, const R: usize, const C: usize, L: Layout>(
    d: D,
    src: &[T],
) -> Matrix<T, R, C, L> {
    // A debug build: the pass compiled inside matrix-core (`cfg` attributes,
    // not `cfg!`, so that opt-level 0 compiles one of the two).
    #[cfg(debug_assertions)]
    let out = {
        let _ = d;
        let mut out = Matrix::default();
        Transpose::<T, Matrix<T, R, C, L>, false>::of(src).write_dyn(&mut out);
        out
    };
    #[cfg(not(debug_assertions))]
    let out = {
        let inline = T::transpose_inline(R, C, Delivery::Returned).then_some(R * C);
        run_tiled(d, inline, Transpose::<T, _, false>::of(src), ())
    };
    out
}

/// As [`storage_transposed`], written into `out` by the transpose itself,
/// so that nothing is copied out of the backend's boundary.
#[inline(always)]
fn storage_transposed_to<D: Dispatch, T: Element, const R: usize, const C: usize, L: Layout>(
    d: D,
    src: &[T],
    out: &mut Matrix<T, R, C, L>,
) {
    #[cfg(debug_assertions)]
    {
        let _ = d;
        Transpose::<T, Matrix<T, R, C, L>, false>::of(src).write_dyn(out);
    }
    #[cfg(not(debug_assertions))]
    {
        let inline = T::transpose_inline(R, C, Delivery::Written).then_some(R * C);
        run_tiled(d, inline, Transpose::<T, _, false>::of(src), out);
    }
}

/// The transpose of `src` into a matrix of type `Out`, as an [`Op`] that
/// returns it, or writes it into the caller's (the [`OpWith`] part); on
/// the tiles for a CPU whose 512-bit units are full width where
/// `FULL_WIDTH` (see [`Tiled`]).
struct Transpose<'a, T, Out, const FULL_WIDTH: bool> {
    src: &'a [T],
    out: PhantomData<Out>,
}

impl<'a, T: Element, const R: usize, const C: usize, L: Layout, const FULL_WIDTH: bool>
    Transpose<'a, T, Matrix<T, R, C, L>, FULL_WIDTH>
{
    #[inline(always)]
    fn of(src: &'a [T]) -> Self {
        Transpose {
            src,
            out: PhantomData,
        }
    }

    /// The shape of `src` as a column-major matrix: the result's storage
    /// transposed.
    const SOURCE: (usize, usize) = if L::ROW_MAJOR { (R, C) } else { (C, R) };

    /// Writes every element of `out`.
    #[inline(always)]
    fn write<S: Isa>(self, s: S, out: &mut Matrix<T, R, C, L>) {
        let (rows, cols) = Self::SOURCE;
        T::transpose::<S, FULL_WIDTH>(
            s,
            Transposition::new(rows, cols, self.src, out.as_mut_slice()),
        );
    }

    /// Writes every element of `out` on the transpose compiled inside
    /// matrix-core ([`Element::transpose_dyn`]): what debug builds run.
    #[cfg(debug_assertions)]
    #[inline(always)]
    fn write_dyn(self, out: &mut Matrix<T, R, C, L>) {
        let (rows, cols) = Self::SOURCE;
        T::transpose_dyn(Transposition::new(rows, cols, self.src, out.as_mut_slice()));
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout, const FULL_WIDTH: bool> Op
    for Transpose<'_, T, Matrix<T, R, C, L>, FULL_WIDTH>
{
    type Output = Matrix<T, R, C, L>;
    #[inline(always)]
    fn run<S: Isa>(self, s: S) -> Matrix<T, R, C, L> {
        let mut out = Matrix::default();
        self.write(s, &mut out);
        out
    }
}

impl<'o, T: Element, const R: usize, const C: usize, L: Layout, const FULL_WIDTH: bool>
    OpWith<&'o mut Matrix<T, R, C, L>> for Transpose<'_, T, Matrix<T, R, C, L>, FULL_WIDTH>
{
    type Output = ();
    #[inline(always)]
    fn run_with<S: Isa>(self, s: S, out: &'o mut Matrix<T, R, C, L>) {
        self.write(s, out);
    }
}

impl<'a, X, T: Element, const R: usize, const C: usize, L: Layout> Tiled<X>
    for Transpose<'a, T, Matrix<T, R, C, L>, false>
where
    Self: OpWith<X>,
    Transpose<'a, T, Matrix<T, R, C, L>, true>: OpWith<X, Output = <Self as OpWith<X>>::Output>,
{
    const FULL_WIDTH_TILES: bool = has_f32_tiles::<T>(R, C);
    type FullWidth = Transpose<'a, T, Matrix<T, R, C, L>, true>;
    #[inline(always)]
    fn full_width(self) -> Self::FullWidth {
        Transpose::of(self.src)
    }
}

/// A matrix whose elements `fill` writes (each of them), as one
/// element-wise pass on `d`: `fill`'s loop is compiled for the backend that
/// runs it. `fill` gets the matrix, not a slice, so that the slices it takes
/// have their constant length even in a pass the optimiser keeps out of
/// line.
#[inline(always)]
pub fn elementwise<D: Dispatch, T: Element, const R: usize, const C: usize, L: Layout>(
    d: D,
    fill: impl FnOnce(&mut Matrix<T, R, C, L>),
) -> Matrix<T, R, C, L> {
    let mut out = Matrix::<T, R, C, L>::default();
    d.run_portable(
        R * C,
        Closure(
            #[inline(always)]
            || fill(&mut out),
        ),
    );
    out
}

// How the operators run: element-wise passes, transposes and products of
// `Matrix`'s operators take one of three forms, by build (`cfg` attributes,
// not `cfg!`, so that each build compiles one; see `kernels::passes`):
// * matrix-core unoptimised (`cfg(matrix_core_opt0)`: a debug build's
//   default): the line forms on the storage's arrays, inlined into the
//   caller and written for opt-level 0;
// * a debug build with matrix-core optimised (the
//   `[profile.dev.package.matrix-core] opt-level = 3` override README
//   recommends): the passes and kernels compiled inside matrix-core
//   (`Element::zip_dyn`, `scalar_dyn`, `transpose_dyn`, `product_dyn`),
//   but the element-wise passes and transposes of matrices the line forms
//   unroll whole on those, as where matrix-core is unoptimised
//   ([`debug_on_lines`]);
// * an optimised build: inlined with constant shapes, on the backends.

/// Whether a debug build whose matrix-core is optimised runs an
/// element-wise pass or a transpose of an `R x C` matrix on the line forms,
/// inlined into the caller, as one whose matrix-core is unoptimised does
/// (see "How the operators run"): for the matrices the line forms unroll
/// whole, whose pass costs less than a call of the one compiled inside
/// matrix-core: a 4x4 `f32` `transpose()` took 66 ns through that call and
/// takes 31 ns on the lines, `(a + b) * 0.5 - c` 100 ns and 88 ns, while
/// at 8x8 the chain takes 120 ns through the calls against 224 ns on the
/// lines (dev-profile benchmarks, AVX-512 Xeon). Never in an optimised
/// build.
#[cfg(not(matrix_core_opt0))]
const fn debug_on_lines(rows: usize, cols: usize) -> bool {
    cfg!(debug_assertions) && crate::kernels::passes::unrolled_whole(rows, cols)
}

/// `a[i] = a[i] op b[i]` for every element, as one pass on [`Auto`] (in
/// the form of the build: see "How the operators run").
#[inline(always)]
fn zip_assign<T: Element, const R: usize, const C: usize, L: Layout>(
    a: &mut Matrix<T, R, C, L>,
    b: &Matrix<T, R, C, L>,
    op: Arithmetic,
) {
    #[cfg(matrix_core_opt0)]
    L::zip_lines(a.storage_mut(), b.storage_ref(), op);
    #[cfg(all(debug_assertions, not(matrix_core_opt0)))]
    if const { debug_on_lines(R, C) } {
        L::zip_lines(a.storage_mut(), b.storage_ref(), op);
    } else {
        T::zip_dyn(op, a.as_mut_slice(), b.as_slice());
    }
    // One pass per operation, each with its function: the `match` is on a
    // constant once inlined, and the pass (out of line in the backend's
    // boundary above `PORTABLE_INLINE` elements) has no branch on `op`.
    #[cfg(not(any(debug_assertions, matrix_core_opt0)))]
    match op {
        Arithmetic::Add => zip_with(a, b, T::add),
        Arithmetic::Sub => zip_with(a, b, T::sub),
        Arithmetic::Mul => zip_with(a, b, T::mul),
        Arithmetic::Div => zip_with(a, b, T::div),
    }
}

/// `a[i] = a[i] op s` for every element (`s op a[i]` when `scalar_first`),
/// as one pass on [`Auto`] (in the form of the build, as [`zip_assign`]).
#[inline(always)]
fn scalar_assign<T: Element, const R: usize, const C: usize, L: Layout>(
    a: &mut Matrix<T, R, C, L>,
    op: Arithmetic,
    s: T,
    scalar_first: bool,
) {
    #[cfg(matrix_core_opt0)]
    L::scalar_lines(a.storage_mut(), op, s, scalar_first);
    #[cfg(all(debug_assertions, not(matrix_core_opt0)))]
    if const { debug_on_lines(R, C) } {
        L::scalar_lines(a.storage_mut(), op, s, scalar_first);
    } else {
        T::scalar_dyn(op, a.as_mut_slice(), s, scalar_first);
    }
    #[cfg(not(any(debug_assertions, matrix_core_opt0)))]
    match (op, scalar_first) {
        (Arithmetic::Add, false) => map_with(a, |x| x.add(s)),
        (Arithmetic::Sub, false) => map_with(a, |x| x.sub(s)),
        (Arithmetic::Mul, false) => map_with(a, |x| x.mul(s)),
        (Arithmetic::Div, false) => map_with(a, |x| x.div(s)),
        (Arithmetic::Add, true) => map_with(a, |x| s.add(x)),
        (Arithmetic::Sub, true) => map_with(a, |x| s.sub(x)),
        (Arithmetic::Mul, true) => map_with(a, |x| s.mul(x)),
        (Arithmetic::Div, true) => map_with(a, |x| s.div(x)),
    }
}

/// `a[i] = f(a[i], b[i])` for every element, as one pass on [`Auto`].
#[cfg(not(any(debug_assertions, matrix_core_opt0)))]
#[inline(always)]
fn zip_with<T: Element, const R: usize, const C: usize, L: Layout>(
    a: &mut Matrix<T, R, C, L>,
    b: &Matrix<T, R, C, L>,
    f: impl Fn(T, T) -> T,
) {
    Auto.run_portable(
        R * C,
        Closure(
            #[inline(always)]
            || {
                for (x, &y) in a.as_mut_slice().iter_mut().zip(b.as_slice()) {
                    *x = f(*x, y);
                }
            },
        ),
    );
}

/// `a[i] = f(a[i])` for every element, as one pass on [`Auto`].
#[cfg(not(any(debug_assertions, matrix_core_opt0)))]
#[inline(always)]
fn map_with<T: Element, const R: usize, const C: usize, L: Layout>(
    a: &mut Matrix<T, R, C, L>,
    f: impl Fn(T) -> T,
) {
    Auto.run_portable(
        R * C,
        Closure(
            #[inline(always)]
            || {
                for x in a.as_mut_slice() {
                    *x = f(*x);
                }
            },
        ),
    );
}

/// The matrix product of the operators: [`product`] on [`Auto`].
#[inline]
fn matmul<T: Element, const R: usize, const K: usize, const C: usize, L: Layout>(
    a: &Matrix<T, R, K, L>,
    b: &Matrix<T, K, C, L>,
) -> Matrix<T, R, C, L> {
    product_same_layout(Auto, a, b, ())
}

/// `a * b`, or `a * b + c` when `addend` is `&c` (`()` for none),
/// unfused, for operands and a result of one layout: what `Matrix`'s `*`
/// runs, and what a `matrix!` kernel's small product runs in debug builds
/// (`debug_assertions`). Where matrix-core is unoptimised (a debug
/// build's default), on the line forms (`kernels::passes`, inlined into
/// the caller: see "How the operators run" above); elsewhere on
/// [`product`](crate::private::product), which makes the choice of the
/// other two forms. Bit for bit that product's result: the line forms sum
/// in the same order, and the addend is added after each sum.
///
/// It calls `L::product_lines` itself rather than `product`'s line step
/// (`product_on_lines`), which serves operands and results of different
/// layout types: that one compiles the kernel fallback into the caller
/// too, and a 4x4 `f32` `*` took about 10 ns more through it at opt-level
/// 0 (98.5 against 108 ns, a scratch crate's timing loop, AVX-512 Xeon).
#[inline(always)]
pub fn product_same_layout<
    D: Dispatch,
    T: Element,
    const M: usize,
    const K: usize,
    const N: usize,
    L: Layout,
>(
    d: D,
    a: &Matrix<T, M, K, L>,
    b: &Matrix<T, K, N, L>,
    addend: impl Addend<T, M, N, L>,
) -> Matrix<T, M, N, L> {
    #[cfg(matrix_core_opt0)]
    let out = {
        let _ = d;
        if M * K * N == 0 {
            // An empty sum: the addend, or zero (as `product`).
            return addend.or_zero();
        }
        let mut out = Matrix::default();
        L::product_lines(a.storage_ref(), b.storage_ref(), out.storage_mut());
        addend.add_lines(&mut out);
        out
    };
    #[cfg(not(matrix_core_opt0))]
    let out = product::<_, T, M, K, N, false, L>(d, Plain(a), Plain(b), addend);
    out
}

impl<T: Element, const R: usize, const K: usize, L: Layout> Matrix<T, R, K, L> {
    /// The matrix product `self * rhs`, written into `out`: the same bits
    /// as the operator, whatever `out` held.
    ///
    /// The operator returns its result from the kernel, and the caller
    /// copies it to where it goes; here the kernel writes `out` itself.
    /// Use it where products go into memory (a slice, a field, a matrix
    /// behind a `&mut`), above all in loops: on an Intel Xeon with AVX-512,
    /// in a default build, an 8x8 `f32` product took 15.8 to 17.5 ns as
    /// `*out = &a * &b` and 11.8 to 14.4 ns as `a.mul_to(&b, out)`, a 4x4
    /// `i32` one 8.8 to 9.6 ns against 3.2 to 3.8 ns, a 64x64 `f32` one
    /// 4.8 µs against 4.3 µs (fastest samples, the benchmarks'
    /// `matrix-core` and `matrix-core mul_to` columns).
    /// Clang's own kernel, which writes through a pointer, took 11.3 to
    /// 12.1 ns at 8x8. (The copy cannot be optimised away in a default
    /// build: the kernel runs behind the boundary of the detected backend,
    /// and rustc marks the address of a returned value as captured at each
    /// call, which keeps LLVM from letting the kernel write `*out` itself.
    /// On an AMD EPYC Zen 5, 16x16 `f32`: 42.5 to 44.4 ns as `*out = &a *
    /// &b`, 32.5 to 32.8 ns here.)
    ///
    /// The operands and `out` may have different [layouts](crate::layout),
    /// as in [`Matrix::mad`]: no operand is converted first, except a left
    /// operand that ends up transposed, which is transposed once.
    ///
    /// ```
    /// use matrix_core::{Matrix, RowMajor};
    ///
    /// let a = Matrix::<f32, 2, 3>::from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// let b = Matrix::<f32, 3, 2>::from_rows([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]);
    /// let mut out = Matrix::splat(f32::NAN);
    /// a.mul_to(&b, &mut out);
    /// assert_eq!(out, a * b);
    ///
    /// // A row-major result of column-major operands.
    /// let mut rows = Matrix::<f32, 2, 2, RowMajor>::default();
    /// a.mul_to(&b, &mut rows);
    /// assert_eq!(rows.as_slice(), &[4.0, 5.0, 10.0, 11.0]);
    /// ```
    #[inline]
    pub fn mul_to<const C: usize, LB: Layout, LC: Layout>(
        &self,
        rhs: &Matrix<T, K, C, LB>,
        out: &mut Matrix<T, R, C, LC>,
    ) {
        product_to::<_, T, R, K, C, false, LC>(Auto, Plain(self), Plain(rhs), (), out);
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Matrix<T, R, C, L> {
    /// The transpose: element `(r, c)` of the result is element `(c, r)` of
    /// `self`. The specification's `__builtin_matrix_transpose`, on the
    /// same kernels (the backend's shuffles).
    ///
    /// It reads `self` where it is: taken by value, a large matrix was
    /// copied before the kernel read it, and `*out = a.transpose()` of a
    /// 16x16 `f32` matrix took 24.5 ns against 13.5 ns by reference (a
    /// default build on an AMD EPYC with AVX-512, fastest samples).
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// assert_eq!(m.transpose().to_rows(), [[1, 4], [2, 5], [3, 6]]);
    /// ```
    #[must_use]
    #[inline]
    pub fn transpose(&self) -> Matrix<T, C, R, L> {
        transpose(Auto, self)
    }

    /// The transpose, written into `out`: the same elements as
    /// [`transpose`](Matrix::transpose), whatever `out` held. As with
    /// [`Matrix::mul_to`], the kernel writes `out` itself rather than
    /// returning a matrix that the caller then copies (the
    /// [guide](crate::guide) says why `*out = a.transpose()` copies). That
    /// copy is what varies from 8x8 on for `f32` (above it for other
    /// types), where transposes run on the active backend's kernels: in a
    /// default build on an AMD EPYC with AVX-512, an 8x8 `f32` transpose
    /// takes 1.9 ns this way and 4.1 ns as `*out = a.transpose()`, a 16x16
    /// one 9.4 ns against 13.5 ns (fastest samples; on an AVX-512 Xeon the
    /// copy of a 16x16 result took up to 20 ns more in runs whose stack
    /// addresses made it slow).
    ///
    /// ```
    /// use matrix_core::Matrix;
    ///
    /// let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
    /// let mut t = Matrix::zero();
    /// m.transpose_to(&mut t);
    /// assert_eq!(t.to_rows(), [[1, 4], [2, 5], [3, 6]]);
    /// ```
    #[inline]
    pub fn transpose_to(&self, out: &mut Matrix<T, C, R, L>) {
        transpose_to(Auto, self, out);
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> Matrix<T, R, C, L> {
    /// The same matrix in layout `L2`: element `(r, c)` unchanged, the
    /// memory order `L2`'s (a transpose of the storage when the layouts
    /// differ, a copy when they agree). It reads `self` where it is, as
    /// [`transpose`](Matrix::transpose) does.
    ///
    /// ```
    /// use matrix_core::{ColumnMajor, Matrix, RowMajor};
    ///
    /// let m = Matrix::<i32, 2, 2>::from_rows([[1, 2], [3, 4]]);
    /// let r = m.to_layout::<RowMajor>();
    /// assert_eq!(r.as_slice(), &[1, 2, 3, 4]);
    /// assert_eq!(r.to_layout::<ColumnMajor>(), m);
    /// ```
    #[must_use]
    #[inline]
    pub fn to_layout<L2: Layout>(&self) -> Matrix<T, R, C, L2> {
        if L::ROW_MAJOR == L2::ROW_MAJOR {
            let mut out = Matrix::<T, R, C, L2>::default();
            out.as_mut_slice().copy_from_slice(self.as_slice());
            out
        } else {
            // The storage of one is the transpose of the other's.
            storage_transposed(Auto, self.as_slice())
        }
    }

    /// [`to_layout`](Matrix::to_layout), written into `out`: the kernel
    /// writes `out` itself, as with [`Matrix::transpose_to`], so a large
    /// matrix is neither zeroed first nor copied out of a return value. An
    /// operand used in several products with a column-major result, whose
    /// row-major left operand each product would convert on its own, is
    /// converted once this way: on an AMD EPYC Zen 5 (default build), a
    /// 64x64 `f32` conversion took 74 to 83 ns into a matrix, against 484
    /// to 535 ns as `*out = a.to_layout()` and about 270 ns within each
    /// product (BENCHMARKS.md).
    ///
    /// ```
    /// use matrix_core::{ColumnMajor, Matrix, RowMajor};
    ///
    /// let a: Matrix<f32, 2, 3, RowMajor> =
    ///     Matrix::from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).to_layout();
    /// let mut columns = Matrix::<f32, 2, 3, ColumnMajor>::zero();
    /// a.to_layout_into(&mut columns);
    /// assert_eq!(columns.as_slice(), &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    /// assert_eq!(columns, a.to_layout());
    /// ```
    #[inline]
    pub fn to_layout_into<L2: Layout>(&self, out: &mut Matrix<T, R, C, L2>) {
        if L::ROW_MAJOR == L2::ROW_MAJOR {
            out.as_mut_slice().copy_from_slice(self.as_slice());
        } else {
            storage_transposed_to(Auto, self.as_slice(), out);
        }
    }
}

// ---------------------------------------------------------------------------
// Matrix op Matrix, element-wise: + -

macro_rules! elementwise_matrix_op {
    ($($Trait:ident::$method:ident, $Assign:ident::$assign:ident => $op:ident;)*) => {$(
        impl<T: Element, const R: usize, const C: usize, L: Layout> $Assign for Matrix<T, R, C, L> {
            #[doc = concat!("Element-wise `", stringify!($assign), "` (wrapping for integers).")]
            #[inline]
            fn $assign(&mut self, rhs: Self) {
                zip_assign(self, &rhs, Arithmetic::$op);
            }
        }

        impl<T: Element, const R: usize, const C: usize, L: Layout> $Assign<&Matrix<T, R, C, L>>
            for Matrix<T, R, C, L>
        {
            #[doc = concat!("Element-wise `", stringify!($assign), "` (wrapping for integers).")]
            #[inline]
            fn $assign(&mut self, rhs: &Self) {
                zip_assign(self, rhs, Arithmetic::$op);
            }
        }

        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait for Matrix<T, R, C, L> {
            type Output = Self;

            #[doc = concat!("Element-wise `", stringify!($method), "` (wrapping for integers).")]
            #[inline]
            fn $method(mut self, rhs: Self) -> Self {
                zip_assign(&mut self, &rhs, Arithmetic::$op);
                self
            }
        }

        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait<&Matrix<T, R, C, L>>
            for Matrix<T, R, C, L>
        {
            type Output = Self;

            #[doc = concat!("Element-wise `", stringify!($method), "` (wrapping for integers).")]
            #[inline]
            fn $method(mut self, rhs: &Self) -> Self {
                zip_assign(&mut self, rhs, Arithmetic::$op);
                self
            }
        }

        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait<Matrix<T, R, C, L>>
            for &Matrix<T, R, C, L>
        {
            type Output = Matrix<T, R, C, L>;

            #[doc = concat!("Element-wise `", stringify!($method), "` (wrapping for integers).")]
            #[inline]
            fn $method(self, rhs: Matrix<T, R, C, L>) -> Matrix<T, R, C, L> {
                let mut out = *self;
                zip_assign(&mut out, &rhs, Arithmetic::$op);
                out
            }
        }

        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait<&Matrix<T, R, C, L>>
            for &Matrix<T, R, C, L>
        {
            type Output = Matrix<T, R, C, L>;

            #[doc = concat!("Element-wise `", stringify!($method), "` (wrapping for integers).")]
            #[inline]
            fn $method(self, rhs: &Matrix<T, R, C, L>) -> Matrix<T, R, C, L> {
                let mut out = *self;
                zip_assign(&mut out, rhs, Arithmetic::$op);
                out
            }
        }
    )*};
}

elementwise_matrix_op! {
    Add::add, AddAssign::add_assign => Add;
    Sub::sub, SubAssign::sub_assign => Sub;
}

// ---------------------------------------------------------------------------
// Matrix * Matrix: the product

impl<T: Element, const R: usize, const K: usize, const C: usize, L: Layout> Mul<Matrix<T, K, C, L>>
    for Matrix<T, R, K, L>
{
    type Output = Matrix<T, R, C, L>;

    /// The matrix product, summed in `k` order from the first product, each
    /// operation rounded separately (wrapping for integers).
    #[inline]
    fn mul(self, rhs: Matrix<T, K, C, L>) -> Matrix<T, R, C, L> {
        matmul(&self, &rhs)
    }
}

impl<T: Element, const R: usize, const K: usize, const C: usize, L: Layout> Mul<&Matrix<T, K, C, L>>
    for Matrix<T, R, K, L>
{
    type Output = Matrix<T, R, C, L>;

    /// The matrix product, as for `Matrix * Matrix`.
    #[inline]
    fn mul(self, rhs: &Matrix<T, K, C, L>) -> Matrix<T, R, C, L> {
        matmul(&self, rhs)
    }
}

impl<T: Element, const R: usize, const K: usize, const C: usize, L: Layout> Mul<Matrix<T, K, C, L>>
    for &Matrix<T, R, K, L>
{
    type Output = Matrix<T, R, C, L>;

    /// The matrix product, as for `Matrix * Matrix`.
    #[inline]
    fn mul(self, rhs: Matrix<T, K, C, L>) -> Matrix<T, R, C, L> {
        matmul(self, &rhs)
    }
}

impl<T: Element, const R: usize, const K: usize, const C: usize, L: Layout> Mul<&Matrix<T, K, C, L>>
    for &Matrix<T, R, K, L>
{
    type Output = Matrix<T, R, C, L>;

    /// The matrix product, as for `Matrix * Matrix`.
    #[inline]
    fn mul(self, rhs: &Matrix<T, K, C, L>) -> Matrix<T, R, C, L> {
        matmul(self, rhs)
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> MulAssign<Matrix<T, C, C, L>>
    for Matrix<T, R, C, L>
{
    /// `*self = *self * rhs`: the product with a square matrix keeps the type.
    #[inline]
    fn mul_assign(&mut self, rhs: Matrix<T, C, C, L>) {
        *self = matmul(self, &rhs);
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> MulAssign<&Matrix<T, C, C, L>>
    for Matrix<T, R, C, L>
{
    /// `*self = *self * rhs`: the product with a square matrix keeps the type.
    #[inline]
    fn mul_assign(&mut self, rhs: &Matrix<T, C, C, L>) {
        *self = matmul(self, rhs);
    }
}

// ---------------------------------------------------------------------------
// Matrix op scalar: + - * /

macro_rules! matrix_scalar_op {
    ($($Trait:ident::$method:ident, $Assign:ident::$assign:ident => $op:ident;)*) => {$(
        impl<T: Element, const R: usize, const C: usize, L: Layout> $Assign<T> for Matrix<T, R, C, L> {
            #[doc = concat!("`", stringify!($assign), "` of the scalar to every element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $assign(&mut self, rhs: T) {
                scalar_assign(self, Arithmetic::$op, rhs, false);
            }
        }

        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait<T> for Matrix<T, R, C, L> {
            type Output = Self;

            #[doc = concat!("`", stringify!($method), "` of the scalar to every element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $method(mut self, rhs: T) -> Self {
                scalar_assign(&mut self, Arithmetic::$op, rhs, false);
                self
            }
        }

        impl<T: Element, const R: usize, const C: usize, L: Layout> $Trait<T> for &Matrix<T, R, C, L> {
            type Output = Matrix<T, R, C, L>;

            #[doc = concat!("`", stringify!($method), "` of the scalar to every element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $method(self, rhs: T) -> Matrix<T, R, C, L> {
                let mut out = *self;
                scalar_assign(&mut out, Arithmetic::$op, rhs, false);
                out
            }
        }
    )*};
}

matrix_scalar_op! {
    Add::add, AddAssign::add_assign => Add;
    Sub::sub, SubAssign::sub_assign => Sub;
    Mul::mul, MulAssign::mul_assign => Mul;
    Div::div, DivAssign::div_assign => Div;
}

// ---------------------------------------------------------------------------
// scalar op Matrix: + - * (for each concrete element type: the orphan rule
// forbids `impl<T> Add<Matrix<T, R, C, L>> for T`)

macro_rules! scalar_matrix_ops {
    ($($t:ty),* $(,)?) => {$(
        scalar_matrix_ops!(@op $t; Add::add => Add; Sub::sub => Sub; Mul::mul => Mul;);
    )*};
    (@op $t:ty; $($Trait:ident::$method:ident => $op:ident;)*) => {$(
        impl<const R: usize, const C: usize, L: Layout> $Trait<Matrix<$t, R, C, L>> for $t {
            type Output = Matrix<$t, R, C, L>;

            #[doc = concat!("The scalar `", stringify!($method), "` every element: `s ", stringify!($method), " m[i]` (wrapping for integers).")]
            #[inline]
            fn $method(self, mut rhs: Matrix<$t, R, C, L>) -> Matrix<$t, R, C, L> {
                scalar_assign(&mut rhs, Arithmetic::$op, self, true);
                rhs
            }
        }

        impl<const R: usize, const C: usize, L: Layout> $Trait<&Matrix<$t, R, C, L>> for $t {
            type Output = Matrix<$t, R, C, L>;

            #[doc = concat!("The scalar `", stringify!($method), "` every element: `s ", stringify!($method), " m[i]` (wrapping for integers).")]
            #[inline]
            fn $method(self, rhs: &Matrix<$t, R, C, L>) -> Matrix<$t, R, C, L> {
                let mut out = *rhs;
                scalar_assign(&mut out, Arithmetic::$op, self, true);
                out
            }
        }
    )*};
}

scalar_matrix_ops!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
#[cfg(feature = "f16")]
scalar_matrix_ops!(half::f16);
#[cfg(feature = "bf16")]
scalar_matrix_ops!(half::bf16);

#[cfg(test)]
mod tests {
    use super::*;

    /// Transposes of the half-precision types move their elements as
    /// `u16` bits: every bit pattern, NaNs with their payloads included,
    /// comes out unchanged, through the 8x8 tiles and the edges.
    #[cfg(any(feature = "f16", feature = "bf16"))]
    #[test]
    fn half_transposes_keep_every_bit_pattern() {
        macro_rules! check {
            ($t:ty) => {{
                // Odd multipliers reach every 16-bit pattern's neighbourhood,
                // NaNs and infinities included.
                let bits = |i: usize| (i as u16).wrapping_mul(0x9E37) ^ 0x7C01;
                let m = Matrix::<$t, 16, 9>::from_fn(|r, c| <$t>::from_bits(bits(r * 9 + c)));
                let t = m.transpose();
                let mut into = Matrix::<$t, 9, 16>::splat(<$t>::from_bits(1));
                m.transpose_to(&mut into);
                for r in 0..16 {
                    for c in 0..9 {
                        assert_eq!(t[(c, r)].to_bits(), m[(r, c)].to_bits(), "({r}, {c})");
                        assert_eq!(into[(c, r)].to_bits(), m[(r, c)].to_bits(), "({r}, {c})");
                    }
                }
            }};
        }
        #[cfg(feature = "f16")]
        check!(half::f16);
        #[cfg(feature = "bf16")]
        check!(half::bf16);
    }

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

    #[test]
    fn transposed_operands_are_read_as_transposed() {
        let a = Matrix::<i64, 2, 3>::from_fn(|r, c| (10 * r + c) as i64);
        let b = Matrix::<i64, 3, 2>::from_fn(|r, c| (r + 2 * c + 1) as i64);
        let at = a.transpose();
        let bt = b.transpose();
        let plain = a * b;
        let via_lhs =
            product::<_, i64, 2, 3, 2, false, ColumnMajor>(Auto, Transposed(&at), Plain(&b), ());
        let via_rhs =
            product::<_, i64, 2, 3, 2, false, ColumnMajor>(Auto, Plain(&a), Transposed(&bt), ());
        assert_eq!(via_lhs, plain);
        assert_eq!(via_rhs, plain);
    }

    /// A product's copy on the full-width transpose tiles gives the bits
    /// of its copy on the default tiles, whatever this CPU is (the
    /// operators run it only on a full-width one): a row-major left
    /// operand with a column-major result, and a row-major result of
    /// column-major operands (whose right operand, flipped, is the one
    /// transposed), in a shape of whole 16x16 tiles and edges.
    #[test]
    fn products_on_either_transpose_tiles_agree() {
        use crate::RowMajor;
        let a = Matrix::<f32, 20, 33>::from_fn(|r, c| (r as f32 - 7.5) / (c as f32 + 1.25));
        let b = Matrix::<f32, 33, 18>::from_fn(|r, c| (0.75 * c as f32 - r as f32).sin());
        let ar = a.to_layout::<RowMajor>();
        let expected = a * b;
        macro_rules! both {
            ($lhs:expr, $lhs_layout:ty, $layout:ty) => {{
                type P<'m, Lhs, const WIDE: bool> =
                    Product<Lhs, Plain<'m, f32, 33, 18>, f32, 20, 33, 18, false, $layout, WIDE, Auto>;
                assert!(
                    <P<'_, Plain<'_, f32, 20, 33, $lhs_layout>, false> as Tiled<()>>::FULL_WIDTH_TILES
                );
                let narrow = run_at(Auto, None, P::<_, false>::new(Plain($lhs), Plain(&b)), ());
                let wide = run_at(Auto, None, P::<_, true>::new(Plain($lhs), Plain(&b)), ());
                assert_eq!(narrow.to_layout::<ColumnMajor>(), expected);
                assert_eq!(wide.to_layout::<ColumnMajor>(), expected);
            }};
        }
        both!(&ar, RowMajor, ColumnMajor);
        both!(&a, ColumnMajor, RowMajor);
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
