//! The SIMD vocabulary: one set of vector types per backend, all offering
//! the same operations, so the kernels above are written once.
//!
//! * [`SimdVector`]: lane count, loads and stores (whole and partial),
//!   splat, broadcast from memory, `add`, `sub`, `mul`, `mul_add`;
//!   [`SimdFloat`] adds division; [`Group4`] the in-lane shuffles a 4x4
//!   product needs.
//! * The backends: [`scalar`] (arrays of four lanes, every target), and on
//!   `x86_64` [`sse2`], [`avx2`] and [`avx512`], each compiled into every
//!   build whatever its target features ([`dispatch`] decides at run time
//!   which one runs, and the kernels' `#[target_feature]` boundaries give
//!   each backend's code its instructions).
//!
//! # Safety
//!
//! Every constructor of a vector takes its backend's token
//! ([`dispatch::Token`]), which only detection mints; a vector value
//! therefore proves that the CPU supports its instructions, and that proof
//! is the only invariant the `unsafe` intrinsic calls of the x86 modules
//! rely on. Loads and stores take slices and an offset and check the range
//! (a real bounds check, which the optimizer removes when the shapes are
//! constants), so nothing reads or writes out of bounds.
//!
//! # Fused multiply-add
//!
//! [`SimdVector::mul_add`] computes `self * b + c`: with one rounding where
//! the backend has FMA ([`SimdVector::FUSED`]), otherwise a multiplication
//! then an addition. [`SimdVector::mul_then_add`] is always the
//! two-rounding form, which the contract's default (no contraction) needs.

pub(crate) mod dispatch;
pub(crate) mod scalar;
#[macro_use]
mod vector;

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx512;
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse2;

pub(crate) use dispatch::Token;

/// Panics unless a partial load or store of `n` lanes fits in `lanes`.
/// The message is built out of line from values: a formatted `assert!`
/// takes `n`'s address, which keeps LLVM from treating constant shapes as
/// constants (see `kernels::check_shape`).
#[inline(always)]
#[track_caller]
pub(crate) fn check_lanes(n: usize, lanes: usize) {
    if n > lanes {
        too_many_lanes(n, lanes)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn too_many_lanes(n: usize, lanes: usize) -> ! {
    panic!("partial access of {n} lanes, at most {lanes}")
}

/// One `N x N` tile of a strided column-major transpose: the source
/// block, whose element `(r, c)` is `src[c * src_stride + r]`, goes to the
/// destination block, whose element `(c, r)` is `dst[r * dst_stride + c]`.
/// Each block is the slice from its first element to its last, checked
/// once where the tile is made ([`Tile::new`]), so that the tile's loads
/// and stores need no checks of their own. What every backend's tile
/// transposes take.
pub struct Tile<'s, 'd, E, const N: usize> {
    /// The source block, from its first element to its last.
    src: &'s [E],
    /// The distance between the source block's columns.
    src_stride: usize,
    /// The destination block, from its first element to its last.
    dst: &'d mut [E],
    /// The distance between the destination block's rows.
    dst_stride: usize,
}

impl<'s, 'd, E, const N: usize> Tile<'s, 'd, E, N> {
    /// The tile whose source block starts at `src[src_at.0]`, its columns
    /// `src_at.1` apart, and whose destination block starts at
    /// `dst[dst_at.0]`, its rows `dst_at.1` apart.
    ///
    /// # Panics
    /// If a block is not inside its slice.
    #[inline(always)]
    pub(crate) fn new(
        src: &'s [E],
        (src_offset, src_stride): (usize, usize),
        dst: &'d mut [E],
        (dst_offset, dst_stride): (usize, usize),
    ) -> Self {
        const { assert!(N > 0) };
        Tile {
            src: &src[src_offset..][..(N - 1) * src_stride + N],
            src_stride,
            dst: &mut dst[dst_offset..][..(N - 1) * dst_stride + N],
            dst_stride,
        }
    }

    /// The source block, its stride, the destination block and its
    /// stride.
    #[inline(always)]
    pub(crate) fn parts(self) -> (&'s [E], usize, &'d mut [E], usize) {
        (self.src, self.src_stride, self.dst, self.dst_stride)
    }

    /// The `H x H` tile of rows `r..r + H` and columns `c..c + H` of the
    /// source block, with its place in the destination block.
    ///
    /// # Panics
    /// If it is not inside this tile's blocks.
    #[inline(always)]
    pub(crate) fn sub<const H: usize>(&mut self, r: usize, c: usize) -> Tile<'s, '_, E, H> {
        Tile::new(
            self.src,
            (c * self.src_stride + r, self.src_stride),
            self.dst,
            (r * self.dst_stride + c, self.dst_stride),
        )
    }
}

/// An `f32` vector of whole 128-bit lanes, with what a transpose by lanes
/// ([`transpose_by_lanes`]) needs: SSE2's 128-bit vectors, AVX2's 256-bit
/// ones and AVX-512's 512-bit ones.
#[cfg(target_arch = "x86_64")]
pub(crate) trait InLanes: SimdVector<Elem = f32> {
    /// The vector whose 128-bit lane `k` holds the four elements from
    /// `src[first + k * step]`.
    ///
    /// # Panics
    /// If they are not inside `src`.
    fn load_lanes(t: Self::Token, src: &[f32], first: usize, step: usize) -> Self;

    /// Transposes the 4x4 block in each 128-bit lane of four vectors
    /// (columns in, rows out).
    fn transpose_in_lanes(v: [Self; 4]) -> [Self; 4];
}

/// Transposes an `N x N` `f32` [`Tile`] on vectors of `N` lanes whose
/// 128-bit lanes hold pieces of `N / 4` columns: register `4h + j` holds
/// rows `4h..4h + 4` of columns `j`, `j + 4`, `j + 8`, ..., one per lane,
/// so that a 4x4 transpose in each lane of registers `4h..4h + 4` leaves
/// rows `4h..4h + 4` of the source whole, which are columns of the result.
/// `N * N / 4` loads of 128 bits (LLVM folds those of the upper lanes into
/// inserts, which do not need the shuffle port), `2 * N` in-lane shuffles,
/// `N` stores, and no shuffle crosses lanes. SSE2's 4x4 tile, AVX2's 8x8
/// one from half columns and AVX-512's 16x16 one from quarter columns.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn transpose_by_lanes<V: InLanes, const N: usize>(
    t: V::Token,
    tile: Tile<'_, '_, f32, N>,
) {
    const { assert!(N == V::LANES && N.is_multiple_of(4)) };
    let (src, src_stride, dst, dst_stride) = tile.parts();
    // Plain loops, not closures: a closure is a function without the
    // caller's target features, into which LLVM may refuse to inline the
    // intrinsics.
    let mut x = [V::zero(t); N];
    for h in 0..N / 4 {
        for j in 0..4 {
            x[4 * h + j] = V::load_lanes(t, src, j * src_stride + 4 * h, 4 * src_stride);
        }
    }
    let mut r = x;
    for h in (0..N).step_by(4) {
        [r[h], r[h + 1], r[h + 2], r[h + 3]] =
            V::transpose_in_lanes([x[h], x[h + 1], x[h + 2], x[h + 3]]);
    }
    for (j, v) in r.iter().enumerate() {
        v.store(dst, j * dst_stride);
    }
}

mod sealed {
    /// Keeps [`super::SimdVector`] implemented by this module's types only.
    pub trait Sealed {}
}
pub(crate) use sealed::Sealed;

/// The most lanes a vector has (a 512-bit vector of `f32`): the size of the
/// buffer of the default partial loads and stores.
pub(crate) const MAX_LANES: usize = 16;

/// The operations every backend's vector types offer.
///
/// Loads and stores address a slice at an element offset and panic if the
/// range is out of bounds (never undefined behaviour). Integer arithmetic
/// wraps.
pub trait SimdVector: Copy + core::fmt::Debug + Sealed {
    /// The element type of one lane.
    type Elem: Copy + Default + PartialEq + core::fmt::Debug;
    /// The token that proves the CPU runs this vector's instructions.
    type Token: Token;
    /// The number of lanes (at most [`MAX_LANES`]).
    const LANES: usize;
    /// Whether [`SimdVector::mul_add`] rounds once (a true FMA).
    const FUSED: bool;

    /// Every lane set to `x`.
    fn splat(t: Self::Token, x: Self::Elem) -> Self;
    /// Every lane zero.
    #[inline(always)]
    fn zero(t: Self::Token) -> Self {
        Self::splat(t, Self::Elem::default())
    }
    /// `self`, through an empty `asm!` block on the 256-bit x86 vectors
    /// (no instruction), the identity elsewhere: LLVM cannot merge work
    /// across it.
    ///
    /// The register tile passes its results through it before storing
    /// them. Without it, on the `avx512` backend a 256-bit product whose
    /// result is returned by value (`&a * &b`, a `matrix!` kernel's `a *
    /// b`), and so held in registers rather than stored, was merged two
    /// columns at a time into 512-bit operations: LLVM built each pair's
    /// step from two scalar loads and three shuffles where the kernel had
    /// one broadcast from memory per column. On an AMD EPYC Zen 4 (native
    /// build, per batch of 16) an 8x8 `f32` `*o = a * b` took 347 ns that
    /// way and takes 190 ns, as `mul_to` does; a `matrix!` kernel's 459
    /// and 299 ns (BENCHMARKS.md, "Products returned by value on the
    /// `avx512` backend").
    #[inline(always)]
    fn opaque(self) -> Self {
        self
    }
    /// Loads `LANES` elements from `src[offset..offset + LANES]` (unaligned).
    ///
    /// # Panics
    /// If the range is not inside `src`.
    fn load(t: Self::Token, src: &[Self::Elem], offset: usize) -> Self;
    /// Stores the lanes to `dst[offset..offset + LANES]` (unaligned).
    ///
    /// # Panics
    /// If the range is not inside `dst`.
    fn store(self, dst: &mut [Self::Elem], offset: usize);
    /// Loads `n <= LANES` elements from `src[offset..offset + n]` into the
    /// first `n` lanes; the other lanes are zero. Reads nothing outside the
    /// range (a copy through a buffer; a masked load on AVX-512).
    ///
    /// # Panics
    /// If `n > LANES` or the range is not inside `src`.
    #[inline(always)]
    fn load_partial(t: Self::Token, src: &[Self::Elem], offset: usize, n: usize) -> Self {
        Self::load_partial_copied(t, src, offset, n)
    }
    /// [`SimdVector::load_partial`] through a copy in a zeroed buffer on
    /// every backend, never a masked load. Where `n` is a constant, LLVM
    /// keeps the buffer in registers and assembles the vector from plain
    /// loads of the range's pieces (8 and 4 bytes for three `f32`), which
    /// take their data from stores still in flight; a masked load of memory
    /// just written (an operand copied to be passed by value) waits until
    /// those stores complete.
    ///
    /// # Panics
    /// As [`SimdVector::load_partial`].
    #[inline(always)]
    fn load_partial_copied(t: Self::Token, src: &[Self::Elem], offset: usize, n: usize) -> Self {
        check_lanes(n, Self::LANES);
        let mut buf = [Self::Elem::default(); MAX_LANES];
        buf[..n].copy_from_slice(&src[offset..offset + n]);
        Self::load(t, &buf, 0)
    }
    /// Stores the first `n <= LANES` lanes to `dst[offset..offset + n]`;
    /// writes nothing outside the range.
    ///
    /// # Panics
    /// If `n > LANES` or the range is not inside `dst`.
    #[inline(always)]
    fn store_partial(self, dst: &mut [Self::Elem], offset: usize, n: usize) {
        self.store_partial_copied(dst, offset, n)
    }
    /// [`SimdVector::store_partial`] through a copy in a buffer on every
    /// backend, never a masked store: with a constant `n`, plain stores of
    /// the range's pieces, from which later loads of the same memory (a
    /// result copied out as it is returned) take their data, where they
    /// wait for a masked store to complete.
    ///
    /// # Panics
    /// As [`SimdVector::store_partial`].
    #[inline(always)]
    fn store_partial_copied(self, dst: &mut [Self::Elem], offset: usize, n: usize) {
        check_lanes(n, Self::LANES);
        let mut buf = [Self::Elem::default(); MAX_LANES];
        self.store(&mut buf, 0);
        dst[offset..offset + n].copy_from_slice(&buf[..n]);
    }
    /// Every lane set to `src[index]` (a broadcast load: LLVM folds the
    /// load into the broadcast).
    ///
    /// # Panics
    /// If `index >= src.len()`.
    #[inline(always)]
    fn broadcast(t: Self::Token, src: &[Self::Elem], index: usize) -> Self {
        Self::splat(t, src[index])
    }
    /// Lane-wise `self + rhs` (wrapping for integers).
    fn add(self, rhs: Self) -> Self;
    /// Lane-wise `self - rhs` (wrapping for integers).
    fn sub(self, rhs: Self) -> Self;
    /// Lane-wise `self * rhs` (wrapping for integers).
    fn mul(self, rhs: Self) -> Self;
    /// Lane-wise `self * b + c`: one rounding when [`SimdVector::FUSED`],
    /// otherwise the same as [`SimdVector::mul_then_add`].
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// Lane-wise `(self * b) + c` with both operations rounded: never fused.
    #[inline(always)]
    fn mul_then_add(self, b: Self, c: Self) -> Self {
        self.mul(b).add(c)
    }
}

/// Division, for the float vectors (the contract's `matrix / scalar`),
/// correctly rounded as the scalar `/` is.
pub trait SimdFloat: SimdVector {
    /// Lane-wise `self / rhs`.
    fn div(self, rhs: Self) -> Self;
}

/// Shuffles within groups of four lanes, for vectors whose lane count is a
/// multiple of four. A 4x4 column-major block is one group per column, so
/// these are the moves a 4x4 product needs: [`Group4::broadcast_x4`] loads a
/// column of `A` into every group and [`Group4::dup_in_x4`] spreads `B[k][j]`
/// over the group of column `j`.
pub trait Group4: SimdVector {
    /// Loads `src[offset..offset + 4]` and repeats it in every group of four
    /// lanes.
    ///
    /// # Panics
    /// If the range is not inside `src`.
    fn broadcast_x4(t: Self::Token, src: &[Self::Elem], offset: usize) -> Self;
    /// In every group of four lanes, lane `L` of the group copied to all four
    /// (`L < 4`, checked at compile time).
    fn dup_in_x4<const L: usize>(self) -> Self;
    /// [`Group4::dup_in_x4`] of each of the four lanes, in order.
    #[inline(always)]
    fn dup_each_x4(self) -> [Self; 4] {
        [
            self.dup_in_x4::<0>(),
            self.dup_in_x4::<1>(),
            self.dup_in_x4::<2>(),
            self.dup_in_x4::<3>(),
        ]
    }
}

/// Two columns of a matrix of `LANES / 2` rows in one vector, one per half,
/// for vectors of at least eight lanes: the moves of a product that keeps
/// two columns of the result per accumulator ([`gemm_pairs`]).
/// [`Pairs::halves`] loads a column of `A` into both halves. The steps of
/// two columns of `B` come either four at a time ([`Pairs::quads`]) or up
/// to `LANES / 2` at a time ([`Pairs::columns`], then four by four
/// [`Pairs::quarter`]), and [`Group4::dup_in_x4`] spreads each step over
/// its half.
///
/// [`gemm_pairs`]: crate::kernels::gemm::gemm_pairs
pub(crate) trait Pairs: Group4 {
    /// Loads `src[offset..offset + LANES / 2]` into both halves.
    ///
    /// # Panics
    /// If the range is not inside `src`.
    fn halves(t: Self::Token, src: &[Self::Elem], offset: usize) -> Self;
    /// Every group of four lanes of the low half holds
    /// `src[lo..lo + len]`, every group of the high half
    /// `src[hi..hi + len]`, zero in the lanes past `len` (`1 <= len <= 4`);
    /// nothing past `len` is read.
    ///
    /// # Panics
    /// If `len` is not in `1..=4` or a range is not inside `src`.
    fn quads(t: Self::Token, src: &[Self::Elem], lo: usize, hi: usize, len: usize) -> Self;
    /// The low half holds `src[lo..lo + len]`, the high half
    /// `src[hi..hi + len]`, zero in the lanes past `len` of each (`1 <= len
    /// <= LANES / 2`); nothing past `len` is read.
    ///
    /// # Panics
    /// If `len` is not in `1..=LANES / 2` or a range is not inside `src`.
    fn columns(t: Self::Token, src: &[Self::Elem], lo: usize, hi: usize, len: usize) -> Self;
    /// Lanes `4 * Q..4 * Q + 4` of the low half in every group of four
    /// lanes of the low half, those of the high half in every group of the
    /// high half (`Q < LANES / 8`, checked at compile time).
    fn quarter<const Q: usize>(self) -> Self;
    /// Stores the low half to `dst[offset..offset + LANES / 2]` and, unless
    /// `low_only`, the high half after it, each as a vector of `LANES / 2`
    /// lanes: how [`gemm_pairs`] stores a result that its caller's code
    /// then moves on, so that it meets the narrower kernel's columns as
    /// narrow vectors.
    ///
    /// [`gemm_pairs`]: crate::kernels::gemm::gemm_pairs
    ///
    /// # Panics
    /// If the range stored is not inside `dst`.
    fn store_halves(self, dst: &mut [Self::Elem], offset: usize, low_only: bool);
}

/// `a * b + c` as [`SimdVector::mul_add`] if `FUSE`, otherwise as
/// [`SimdVector::mul_then_add`]. Kernels call this with their contraction
/// parameter.
#[inline(always)]
pub(crate) fn madd<V: SimdVector, const FUSE: bool>(a: V, b: V, c: V) -> V {
    if FUSE {
        a.mul_add(b, c)
    } else {
        a.mul_then_add(b, c)
    }
}

#[cfg(test)]
impl<V: SimdVector> VecExt for V {}

/// Test helper: a vector's lanes.
#[cfg(test)]
pub(crate) trait VecExt: SimdVector {
    fn lanes(self) -> Vec<Self::Elem> {
        let mut v = vec![Self::Elem::default(); Self::LANES];
        self.store(&mut v, 0);
        v
    }
}
