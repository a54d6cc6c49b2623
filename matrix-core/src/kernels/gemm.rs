//! Products, written once over the vocabulary.
//!
//! Every matrix here is a column-major slice without padding: element
//! `(r, c)` of an `R x C` matrix is `s[c * R + r]`, the layout of
//! [`Matrix::as_slice`](crate::Matrix) and of Clang's `matrix_type`.
//!
//! # Summation order
//!
//! Products follow the contract: `out[r][c] = a[r][0] * b[0][c]`, then
//! `out[r][c] = out[r][c] + a[r][k] * b[k][c]` for `k = 1..K`, each
//! operation rounded, when `FUSE` is `false`. The SIMD lanes run over `r`
//! and `c` only, never over `k`, so the result is bit for bit the naive
//! loop in that order (and clang's `-ffp-contract=off` output), on every
//! backend. With `FUSE` each `+ a*b` step is one fused multiply-add on
//! backends that have FMA ([`SimdVector::FUSED`]), in the same `k` order.
//! The addend of `a * b + c` is added after the last step, as the
//! contract's expression does.
//!
//! # Tiling
//!
//! [`gemm_with`] keeps a register tile of `MV` vectors (rows) by `NC`
//! columns of the result in accumulators: per step `k` it loads `MV`
//! vectors of column `k` of `a`, broadcasts `NC` elements of row `k` of `b`
//! and issues `MV * NC` independent multiply-adds. The tile is up to 4 x 4
//! vectors (1 x 16, 2 x 8) where 32 vector registers exist (AVX-512), and
//! up to 2 x 6 (1 x 12) with 16; row tails use partial loads and stores,
//! column tails an 8-, 4- or 1-column tile. Depths above [`KC`] are split
//! into blocks whose partial sums go through the output, which keeps the
//! order (and the bits) unchanged.
//!
//! # Everything inlines
//!
//! Every function from a backend's `#[target_feature]` boundary down to
//! the intrinsics is `#[inline(always)]`, and the loops are plain index
//! loops, not closures (`core::array::from_fn`) or iterator adapters that
//! carry vectors: a helper LLVM leaves out of line is compiled without the
//! boundary's target features, and the intrinsics inside it become calls.
//! Measured: one `array::from_fn` left in the tile made a 64x64 AVX2
//! product 3x slower.

use core::marker::PhantomData;

use super::Isa;
use super::check::{check_product, check_shape, check_whole_product};
use crate::arith::Arith;
use crate::simd::dispatch::is_static;
use crate::simd::{Group4, Pairs, SimdVector, madd};

/// Depth of one `k` block of [`gemm_with`].
pub(crate) const KC: usize = 256;

/// What the caller knows of a product's shape when it is compiled: all of
/// it (a product of `Matrix` types), or nothing ([`RunTime`], the kernels
/// compiled inside matrix-core for run-time shapes).
///
/// The kernels choose their vectors and register tiles by the shape at
/// run time; before each choice they ask, in a `const` block, whether a
/// known shape can take it. rustc does not compile the code under a branch
/// whose condition is a constant once the generics are known, so a product
/// compiles only the tiles it runs. Before, each product of a constant
/// shape compiled every tile of every kernel, on every backend, and left
/// LLVM to delete all but a few after inlining. Measured in a release
/// build of the behaviour suites on a 2-core Xeon, in the same parallel
/// build: `matrix_ops` (130 product shapes over ten element types) took
/// 1207 s to compile and takes 98 s, `integer_products` 318 s and 45 s,
/// `lowering` 285 s and 26 s. The products run as fast as before (the
/// `matrix mul` and `matrix madd` benchmarks, 4x4 to 64x64).
pub trait Dims {
    /// Whether `M`, `K`, `N` and `BT` are the product's.
    const KNOWN: bool;
    /// Rows of the left operand and of the result.
    const M: usize;
    /// The depth: columns of the left operand, rows of the right one.
    const K: usize;
    /// Columns of the right operand and of the result.
    const N: usize;
    /// Whether the right operand is stored transposed
    /// ([`Operands::bt`]).
    const BT: bool;
    /// Where the result's columns start, `LDO` elements apart
    /// ([`Operands::ldo`]): `M` for a whole result.
    const LDO: usize;
    /// Whether the product runs inside a `#[dispatch]` kernel
    /// ([`Dispatch::IN_KERNEL`](crate::kernels::dispatch::Dispatch::IN_KERNEL)):
    /// inlined into the kernel's loop, where a 4x4 `f64` product runs on
    /// 256-bit vectors rather than in groups of four lanes (see
    /// [`product_f64`]).
    const IN_KERNEL: bool = false;
    /// Whether the product's result is to be returned by value (the
    /// operators, a `matrix!` kernel's products): made in a matrix that is
    /// copied out right after, usually from operands copied just before
    /// (passed by value). Partial vectors of rows are then loaded and
    /// stored through copies ([`SimdVector::load_partial_copied`]), which
    /// those copies forward to and from, rather than masked (AVX-512),
    /// which they wait for. A result written into the caller's matrix
    /// (`mul_to`), from operands that are usually settled in memory, keeps
    /// the masked loads and stores, fewer instructions.
    ///
    /// On an AMD EPYC Zen 4 (`-C target-cpu=native`, per batch of 16):
    /// `&a * &b` of 3x3 `f32` took 197.4 ns masked and takes 45.6 ns, 7x7
    /// `f32` 286.2 and 193.5 ns, 6x6 `f64` 274.9 and 216.4 ns; `mul_to`
    /// lost up to 50% through copies in a loop of products inlined into
    /// one function (7x7 `f64`, 299 against 449 ns), so it keeps the masks
    /// (BENCHMARKS.md, "Partial columns of a returned product").
    const RETURNED: bool = false;
}

/// A shape known only at run time: every choice of the kernels is
/// compiled.
#[cfg_attr(any(matrix_core_opt0, not(debug_assertions)), allow(dead_code))]
pub(crate) struct RunTime;

impl Dims for RunTime {
    const KNOWN: bool = false;
    const M: usize = 0;
    const K: usize = 0;
    const N: usize = 0;
    const BT: bool = false;
    const LDO: usize = 0;
}

/// Whether a branch taken when `cond` holds of the shape may run: always
/// for a run-time shape, when `cond` holds for a known one.
pub(crate) const fn may<D: Dims>(cond: bool) -> bool {
    !D::KNOWN || cond
}

/// The most vectors of rows in a register tile: 4 with 32 vector
/// registers, 2 with 16.
const fn max_row_vectors(regs32: bool) -> usize {
    if regs32 { 4 } else { 2 }
}

/// The columns of the widest register tile of `mv` vectors of rows
/// (accumulators, `mv` vectors of `a`, a broadcast and a product).
const fn tile_columns(regs32: bool, mv: usize) -> usize {
    match (regs32, mv) {
        (true, 1) => 16,
        (true, 2) => 8,
        (true, 3) => 5,
        (true, _) => 4,
        (false, 1) => 12,
        (false, _) => 6,
    }
}

/// The columns of the widest register tile of `MV` vectors of `V`.
const fn widest_tile<V: SimdVector, const MV: usize>() -> usize
where
    V::Token: Isa,
{
    tile_columns(<V::Token as Isa>::REGS32, MV)
}

/// Whether the register tile `width` columns wide of `MV` vectors of `V`
/// may run in a product of shape `D`.
const fn tile_runs<V: SimdVector, D: Dims, const MV: usize>(width: usize) -> bool
where
    V::Token: Isa,
{
    may::<D>(col_tile_occurs(D::N, widest_tile::<V, MV>(), width))
}

/// Whether a block of `MV` vectors of `V`, its last one partial or not,
/// may occur in a product of shape `D`.
const fn rows_occur<V: SimdVector, D: Dims, const MV: usize>(partial: bool) -> bool
where
    V::Token: Isa,
{
    may::<D>(row_block_occurs(
        D::M,
        V::LANES,
        <V::Token as Isa>::REGS32,
        MV,
        partial,
    ))
}

/// Whether [`blocks`] splits the `m` rows of a product into a block of
/// `mv` vectors of `lanes` rows whose last vector is partial or not.
const fn row_block_occurs(m: usize, lanes: usize, regs32: bool, mv: usize, partial: bool) -> bool {
    let nv = m.div_ceil(lanes);
    let mut v0 = 0;
    while v0 < nv {
        let rest = nv - v0;
        let block = if rest >= max_row_vectors(regs32) {
            max_row_vectors(regs32)
        } else {
            rest
        };
        let last = v0 + block == nv;
        if block == mv && (last && !m.is_multiple_of(lanes)) == partial {
            return true;
        }
        v0 += block;
    }
    false
}

/// Whether [`col_tiles_of`] covers `n` columns with a tile `width`
/// columns wide, its widest being `nc`: as many `nc` as fit, then at most
/// one 8 (where `nc > 8`) and 4s (where `nc > 4`), then single columns.
const fn col_tile_occurs(n: usize, nc: usize, width: usize) -> bool {
    let mut j0 = n / nc * nc;
    if j0 > 0 && width == nc {
        return true;
    }
    if nc > 8 && j0 + 8 <= n {
        if width == 8 {
            return true;
        }
        j0 += 8;
    }
    if nc > 4 && j0 + 4 <= n {
        if width == 4 {
            return true;
        }
        j0 += (n - j0) / 4 * 4;
    }
    j0 < n && width == 1
}

/// The largest product, in vector multiply-adds (`M * K * N / LANES` of the
/// element's vector on the backend), that is inlined into its caller where
/// the caller is compiled for the backend (a `#[dispatch]` kernel, a
/// `dispatch` closure, a native build): a 16x16 by 16x16 `f32` product on
/// AVX-512, 8x8 by 8x16 on SSE2.
///
/// Why inline so much: a kernel left out of line needs its operands in
/// memory. A caller holding them by value copies them there first, and on
/// AVX-512 it copies them with 32-byte stores that the kernel's 64-byte
/// loads cannot forward from. Measured through a `matrix!` kernel with
/// `fast` contraction, an 8x8 product took 22 ns called and 12 ns inlined,
/// a 16x16 one 92 ns and 52 ns.
///
/// Why in vector operations: the inlined code grows with them. Counted in
/// multiply-adds, the same limit let a 16x16 SSE2 product (four times the
/// instructions of the AVX-512 one) inline sixteen times into a batch loop,
/// which then ran 20% to 50% slower than the called kernel.
#[cfg(not(debug_assertions))]
pub(crate) const INLINE_VECTOR_MACS: usize = 256;

/// The operands of one product `out = a * b` (or `a * b + addend`), all
/// column-major: `a` is `m x k`, `addend` and `out` are `m x n`, and `b` is
/// `k x n`, or its transpose (`n x k`) when `bt`: `a * transpose(bt)` reads
/// `bt` in place, since only the address of each element of `b` changes.
/// Column `j` of `out` and of `addend` starts at `j * ldo`: `ldo` is `m`
/// for a whole result, more for a block of its rows (see
/// [`Element::STRIDED_RESULT`](crate::Element::STRIDED_RESULT)).
#[derive(Clone, Copy)]
pub struct Operands<'a, E> {
    pub(crate) m: usize,
    pub(crate) k: usize,
    pub(crate) n: usize,
    pub(crate) ldo: usize,
    pub(crate) a: &'a [E],
    pub(crate) b: &'a [E],
    pub(crate) bt: bool,
    pub(crate) addend: Option<&'a [E]>,
}

impl<E> Operands<'_, E> {
    /// Where `b[kk][j]` is in `self.b`.
    #[inline(always)]
    fn b_at(&self, kk: usize, j: usize) -> usize {
        if self.bt {
            kk * self.n + j
        } else {
            j * self.k + kk
        }
    }
}

/// `out = a * b` (or `a * b + addend`) with the vector type `V`, for any
/// shape (the dimensions are run-time values; inlined into a caller with
/// constant ones, LLVM unrolls it for them).
///
/// # Panics
/// If a slice's length is not its shape's element count, or a dimension is
/// zero.
#[inline(always)]
pub(crate) fn gemm_with<V: SimdVector, const FUSE: bool, D: Dims>(
    t: V::Token,
    p: &Operands<'_, V::Elem>,
    out: &mut [V::Elem],
) where
    V::Token: Isa,
{
    check_product(p, out);
    // Where each element of `b` is: one copy of the kernel per layout, so
    // the inner loop has no branch on it.
    if const { may::<D>(D::BT) } && p.bt {
        blocks::<V, FUSE, true, D>(t, p, out);
    } else if const { may::<D>(!D::BT) } {
        blocks::<V, FUSE, false, D>(t, p, out);
    } else {
        unreachable!("a right operand stored transposed, as its shape says");
    }
}

/// The depth blocks and row blocks of a product whose right operand is
/// stored transposed when `BT`.
#[inline(always)]
fn blocks<V: SimdVector, const FUSE: bool, const BT: bool, D: Dims>(
    t: V::Token,
    p: &Operands<'_, V::Elem>,
    out: &mut [V::Elem],
) where
    V::Token: Isa,
{
    let l = V::LANES;
    let nv = p.m.div_ceil(l);
    let last = p.m - (nv - 1) * l;
    let max_mv = const { max_row_vectors(<V::Token as Isa>::REGS32) };
    let mut k0 = 0;
    while k0 < p.k {
        let k1 = if p.k - k0 > KC { k0 + KC } else { p.k };
        let block = Block {
            k0,
            k1,
            addend: if k1 == p.k { p.addend } else { None },
        };
        let mut v0 = 0;
        while v0 < nv {
            let mv = if nv - v0 >= max_mv { max_mv } else { nv - v0 };
            let rows = Rows {
                i0: v0 * l,
                tail: if v0 + mv == nv { last } else { l },
            };
            match mv {
                4 => col_tiles::<V, FUSE, BT, 4, D>(t, p, &block, rows, out),
                3 => col_tiles::<V, FUSE, BT, 3, D>(t, p, &block, rows, out),
                2 => col_tiles::<V, FUSE, BT, 2, D>(t, p, &block, rows, out),
                _ => col_tiles::<V, FUSE, BT, 1, D>(t, p, &block, rows, out),
            }
            v0 += mv;
        }
        k0 = k1;
    }
}

/// The steps `k0..k1` of a product, and the addend when they are the last.
struct Block<'a, E> {
    k0: usize,
    k1: usize,
    addend: Option<&'a [E]>,
}

/// A block of rows: from `i0`, the last vector holding `tail` rows.
#[derive(Clone, Copy)]
struct Rows {
    i0: usize,
    tail: usize,
}

/// All column tiles of one block of `MV` vectors of rows: full vectors,
/// or with a partial last one (a copy of each tile per case, so the inner
/// loop has no branch on it).
#[inline(always)]
fn col_tiles<V: SimdVector, const FUSE: bool, const BT: bool, const MV: usize, D: Dims>(
    t: V::Token,
    p: &Operands<'_, V::Elem>,
    block: &Block<'_, V::Elem>,
    rows: Rows,
    out: &mut [V::Elem],
) where
    V::Token: Isa,
{
    if rows.tail < V::LANES {
        if const { rows_occur::<V, D, MV>(true) } {
            col_tiles_of::<V, FUSE, BT, MV, true, D>(t, p, block, rows, out);
        } else {
            unreachable!("a block of rows of the product's shape");
        }
    } else if const { rows_occur::<V, D, MV>(false) } {
        col_tiles_of::<V, FUSE, BT, MV, false, D>(t, p, block, rows, out);
    } else {
        unreachable!("a block of rows of the product's shape");
    }
}

/// [`col_tiles`] for one case of the last vector.
#[inline(always)]
fn col_tiles_of<
    V: SimdVector,
    const FUSE: bool,
    const BT: bool,
    const MV: usize,
    const PARTIAL: bool,
    D: Dims,
>(
    t: V::Token,
    p: &Operands<'_, V::Elem>,
    block: &Block<'_, V::Elem>,
    rows: Rows,
    out: &mut [V::Elem],
) where
    V::Token: Isa,
{
    // The widest tile the registers allow for MV vectors per column.
    let nc = const { widest_tile::<V, MV>() };
    let tile = Tile::<V, D> {
        t,
        p,
        block,
        rows,
        dims: PhantomData,
    };
    let mut j0 = 0;
    if const { tile_runs::<V, D, MV>(widest_tile::<V, MV>()) } {
        while j0 + nc <= p.n {
            match const { widest_tile::<V, MV>() } {
                16 => tile.run::<FUSE, BT, MV, PARTIAL, 16>(j0, out),
                12 => tile.run::<FUSE, BT, MV, PARTIAL, 12>(j0, out),
                8 => tile.run::<FUSE, BT, MV, PARTIAL, 8>(j0, out),
                6 => tile.run::<FUSE, BT, MV, PARTIAL, 6>(j0, out),
                5 => tile.run::<FUSE, BT, MV, PARTIAL, 5>(j0, out),
                _ => tile.run::<FUSE, BT, MV, PARTIAL, 4>(j0, out),
            }
            j0 += nc;
        }
    }
    if const { tile_runs::<V, D, MV>(8) } {
        while nc > 8 && j0 + 8 <= p.n {
            tile.run::<FUSE, BT, MV, PARTIAL, 8>(j0, out);
            j0 += 8;
        }
    }
    if const { tile_runs::<V, D, MV>(4) } {
        while nc > 4 && j0 + 4 <= p.n {
            tile.run::<FUSE, BT, MV, PARTIAL, 4>(j0, out);
            j0 += 4;
        }
    }
    if const { tile_runs::<V, D, MV>(1) } {
        while j0 < p.n {
            tile.run::<FUSE, BT, MV, PARTIAL, 1>(j0, out);
            j0 += 1;
        }
    }
}

/// One block of rows at one depth block, whose column tiles [`Tile::run`]
/// computes.
struct Tile<'a, V: SimdVector, D> {
    t: V::Token,
    p: &'a Operands<'a, V::Elem>,
    block: &'a Block<'a, V::Elem>,
    rows: Rows,
    dims: PhantomData<D>,
}

impl<V: SimdVector, D: Dims> Tile<'_, V, D> {
    /// The rows of this block in a column of `m` elements that starts at
    /// `start`: `MV` vectors, the last one partial when `PARTIAL`. One
    /// bounds check, after which the loads need none.
    #[inline(always)]
    fn column<'s, const MV: usize, const PARTIAL: bool>(
        &self,
        s: &'s [V::Elem],
        start: usize,
    ) -> &'s [V::Elem] {
        let len = if PARTIAL {
            (MV - 1) * V::LANES + self.rows.tail
        } else {
            MV * V::LANES
        };
        &s[start + self.rows.i0..][..len]
    }

    /// Vector `v` of a column of this block (see [`Tile::column`]); a
    /// partial one through a copy where the result is returned
    /// ([`Dims::RETURNED`]).
    #[inline(always)]
    fn load<const MV: usize, const PARTIAL: bool>(&self, col: &[V::Elem], v: usize) -> V {
        if PARTIAL && v == MV - 1 {
            if D::RETURNED {
                V::load_partial_copied(self.t, col, v * V::LANES, self.rows.tail)
            } else {
                V::load_partial(self.t, col, v * V::LANES, self.rows.tail)
            }
        } else {
            V::load(self.t, col, v * V::LANES)
        }
    }

    /// Stores vector `v` of a column of this block, a partial one as
    /// [`Tile::load`] reads it.
    #[inline(always)]
    fn store<const MV: usize, const PARTIAL: bool>(&self, x: V, col: &mut [V::Elem], v: usize) {
        if PARTIAL && v == MV - 1 {
            if D::RETURNED {
                x.store_partial_copied(col, v * V::LANES, self.rows.tail);
            } else {
                x.store_partial(col, v * V::LANES, self.rows.tail);
            }
        } else {
            x.store(col, v * V::LANES);
        }
    }

    /// The register tile of columns `j0..j0 + NC`: `MV x NC` accumulators
    /// over the steps of the depth block.
    // Index loops, not iterators: with the register tile's arrays indexed
    // by loop counters LLVM keeps every accumulator in a register.
    #[allow(clippy::needless_range_loop)]
    #[inline(always)]
    fn run<
        const FUSE: bool,
        const BT: bool,
        const MV: usize,
        const PARTIAL: bool,
        const NC: usize,
    >(
        &self,
        j0: usize,
        out: &mut [V::Elem],
    ) {
        let (t, p, block) = (self.t, self.p, self.block);
        let (m, k, n) = (p.m, p.k, p.n);
        let steps = block.k1 - block.k0;
        // Where the steps of each column of `b` are: a column of `b` when
        // it is stored as it is (indexed by the step), the rows of `bt` when
        // transposed (each step reads `NC` consecutive elements).
        let mut b_cols: [&[V::Elem]; NC] = [&[]; NC];
        if !BT {
            for (c, col) in b_cols.iter_mut().enumerate() {
                let start = (j0 + c) * k + block.k0;
                *col = &p.b[start..start + steps];
            }
        }
        let mut acc = [[V::zero(t); MV]; NC];
        let mut av = [V::zero(t); MV];
        let mut first = 0;
        if block.k0 == 0 {
            // acc = a[r][0] * b[0][c]
            let a_col = self.column::<MV, PARTIAL>(p.a, 0);
            for (v, a) in av.iter_mut().enumerate() {
                *a = self.load::<MV, PARTIAL>(a_col, v);
            }
            let row: &[V::Elem] = if BT {
                &p.b[block.k0 * n + j0..][..NC]
            } else {
                &[]
            };
            for c in 0..NC {
                let bb = V::splat(t, if BT { row[c] } else { b_cols[c][0] });
                for v in 0..MV {
                    acc[c][v] = av[v].mul(bb);
                }
            }
            first = 1;
        } else {
            // The partial sums of the earlier depth blocks.
            for c in 0..NC {
                let col = self.column::<MV, PARTIAL>(out, (j0 + c) * p.ldo);
                for v in 0..MV {
                    acc[c][v] = self.load::<MV, PARTIAL>(col, v);
                }
            }
        }
        for step in first..steps {
            // acc = acc + a[r][kk] * b[kk][c]
            let a_col = self.column::<MV, PARTIAL>(p.a, (block.k0 + step) * m);
            for (v, a) in av.iter_mut().enumerate() {
                *a = self.load::<MV, PARTIAL>(a_col, v);
            }
            let row: &[V::Elem] = if BT {
                &p.b[(block.k0 + step) * n + j0..][..NC]
            } else {
                &[]
            };
            for c in 0..NC {
                let bb = V::splat(t, if BT { row[c] } else { b_cols[c][step] });
                for v in 0..MV {
                    acc[c][v] = madd::<V, FUSE>(av[v], bb, acc[c][v]);
                }
            }
        }
        for c in 0..NC {
            let start = (j0 + c) * p.ldo;
            if let Some(addend) = block.addend {
                let col = self.column::<MV, PARTIAL>(addend, start);
                for v in 0..MV {
                    acc[c][v] = acc[c][v].add(self.load::<MV, PARTIAL>(col, v));
                }
            }
            let len = self.column::<MV, PARTIAL>(out, start).len();
            let col = &mut out[start + self.rows.i0..][..len];
            // Each column as it is, not merged with its neighbour into a
            // wider vector (see `SimdVector::opaque`).
            for v in 0..MV {
                self.store::<MV, PARTIAL>(acc[c][v].opaque(), col, v);
            }
        }
    }
}

/// `out = a * b` (or `a * b + addend`) for an `a` of `V::LANES / 2` rows
/// and `b` stored as it is (not [`Operands::bt`]), two columns of the
/// result per vector: `acc = [A[:,0] | A[:,0]] * [B[0][j] | B[0][j + 1]]`,
/// then `acc = acc + [A[:,k] | A[:,k]] * [B[k][j] | B[k][j + 1]]`, each
/// half broadcast from several steps of its column loaded at once
/// ([`pair_group`]). The order of every element's operations is
/// [`gemm_with`]'s, so are the bits.
///
/// An 8-row `f32` product on AVX-512 this way issues half the
/// multiplications of the 256-bit kernel, for about one shuffle per step
/// and pair ([`pair_group`]): on Zen 5, whose 512-bit
/// units are full width ([`full_width_512`]), an 8x8 product
/// (`Matrix::mul_to`, default build) took 10.5 ns on 256-bit vectors and
/// takes 7.5 ns.
///
/// With `halves`, each pair of result columns is stored as two vectors of
/// `V::LANES / 2` lanes, one per column ([`Pairs::store_halves`]), rather
/// than as one: the form for a result that the caller's own code moves on
/// (a product returned by value in a build whose target has AVX-512, see
/// `Isa::product_8_rows_f32`).
///
/// [`full_width_512`]: crate::simd::dispatch::full_width_512
///
/// # Panics
/// If a slice's length is not its shape's element count, a dimension is
/// zero, `a` has not `V::LANES / 2` rows, or `b` is stored transposed.
#[inline(always)]
pub(crate) fn gemm_pairs<V: Pairs, const FUSE: bool>(
    t: V::Token,
    p: &Operands<'_, V::Elem>,
    halves: bool,
    out: &mut [V::Elem],
) {
    check_whole_product(p, out);
    assert!(
        p.m == V::LANES / 2 && !p.bt,
        "a product of half-vector columns, right operand as stored"
    );
    let n = p.n;
    let mut j = 0;
    while j + 8 <= n {
        pair_tile::<V, FUSE, 4, false>(t, p, j, halves, out);
        j += 8;
    }
    if j + 4 <= n {
        pair_tile::<V, FUSE, 2, false>(t, p, j, halves, out);
        j += 4;
    }
    if j + 2 <= n {
        pair_tile::<V, FUSE, 1, false>(t, p, j, halves, out);
        j += 2;
    }
    if j < n {
        pair_tile::<V, FUSE, 1, true>(t, p, j, halves, out);
    }
}

/// Columns `j0..j0 + 2 * NP` of the result of [`gemm_pairs`] in `NP`
/// accumulators; with `SINGLE` the last pair is the last column alone (its
/// high half computes the same column again and is not stored). With
/// `halves`, each pair is stored as two half-width vectors
/// ([`Pairs::store_halves`]).
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn pair_tile<V: Pairs, const FUSE: bool, const NP: usize, const SINGLE: bool>(
    t: V::Token,
    p: &Operands<'_, V::Elem>,
    j0: usize,
    halves: bool,
    out: &mut [V::Elem],
) {
    let (m, k) = (p.m, p.k);
    // Where column `c` of the tile starts in `b`.
    let b_col = |c: usize| {
        let j = if SINGLE && c == 2 * NP - 1 {
            j0 + c - 1
        } else {
            j0 + c
        };
        j * k
    };
    let mut acc = [V::zero(t); NP];
    let group = pair_steps::<V, FUSE>();
    let mut k0 = 0;
    while k0 < k {
        let len = if k - k0 >= group { group } else { k - k0 };
        let mut av = [V::zero(t); 8];
        for s in 0..len {
            av[s] = V::halves(t, p.a, (k0 + s) * m);
        }
        for q in 0..NP {
            let steps =
                pair_group::<V, FUSE>(t, p.b, b_col(2 * q) + k0, b_col(2 * q + 1) + k0, len);
            for s in 0..len {
                acc[q] = if k0 + s == 0 {
                    av[s].mul(steps[s])
                } else {
                    madd::<V, FUSE>(av[s], steps[s], acc[q])
                };
            }
        }
        k0 += group;
    }
    for q in 0..NP {
        let start = (j0 + 2 * q) * m;
        // The last column alone (`SINGLE`): only the low half is its.
        let alone = SINGLE && q == NP - 1;
        if let Some(addend) = p.addend {
            let c = if alone {
                V::load_partial(t, addend, start, m)
            } else {
                V::load(t, addend, start)
            };
            acc[q] = acc[q].add(c);
        }
        if halves {
            acc[q].store_halves(out, start, alone);
        } else if alone {
            acc[q].store_partial(out, start, m);
        } else {
            acc[q].store(out, start);
        }
    }
}

/// How many steps of `k` [`pair_tile`] takes from one load of each column
/// of `B`: four with separate multiplies and adds, `V::LANES / 2` with
/// FMA (see [`pair_group`]).
#[inline(always)]
const fn pair_steps<V: Pairs, const FUSE: bool>() -> usize {
    const { assert!(V::LANES / 2 <= 8, "at most eight steps per group") };
    if FUSE { V::LANES / 2 } else { 4 }
}

/// Steps `0..len` of the columns of `B` that start at `lo` and `hi` (`len`
/// at most [`pair_steps`]): step `s` holds `src[lo + s]` in every lane of
/// the low half and `src[hi + s]` in every lane of the high half.
///
/// With separate multiplies and adds, four steps come from one 16-byte
/// load per column ([`Pairs::quads`], then [`Group4::dup_in_x4`] per step,
/// which LLVM folds into one two-source lane shuffle per step). With FMA,
/// eight come from one 32-byte load per column ([`Pairs::columns`]), a lane
/// shuffle per four steps ([`Pairs::quarter`]) and an in-lane shuffle per
/// step, kept apart (see [`Pairs::quarter`]'s implementation). Each is the
/// faster of the two on Zen 5 for its operations: an 8x8 `f32` product of a
/// `matrix!` kernel under `#[fp_contract(fast)]` took 8.2–8.9 ns from quads
/// and takes 5.9–6.1 ns in a native build (11.5–12.7 and 8.9–9.1 ns in a
/// default build, operands by value), while an exact `mul_to` takes
/// 7.0–7.4 ns from quads and took 7.7–7.8 ns from whole columns.
#[inline(always)]
fn pair_group<V: Pairs, const FUSE: bool>(
    t: V::Token,
    src: &[V::Elem],
    lo: usize,
    hi: usize,
    len: usize,
) -> [V; 8] {
    // Steps 0 to 3 spread from `first`, 4 to 7 (where `len` has them)
    // from `second`.
    let (first, second) = if FUSE {
        let x = V::columns(t, src, lo, hi, len);
        let second = if len > 4 {
            Some(x.quarter::<1>())
        } else {
            None
        };
        (x.quarter::<0>(), second)
    } else {
        (V::quads(t, src, lo, hi, len), None)
    };
    let mut steps = [V::zero(t); 8];
    [steps[0], steps[1], steps[2], steps[3]] = first.dup_each_x4();
    if let Some(second) = second {
        [steps[4], steps[5], steps[6], steps[7]] = second.dup_each_x4();
    }
    steps
}

/// The 4x4 product (or `a * b + addend`) with one group of four lanes per
/// column: for each vector of result columns, `acc = A[:,0] * B[0][j]`, then
/// `acc = acc + A[:,k] * B[k][j]`, with `A[:,k]` broadcast to every group
/// ([`Group4::broadcast_x4`]) and `B[k][j]` spread over column `j`'s group
/// ([`Group4::dup_in_x4`]). On AVX-512 that is one register: 4 broadcasts,
/// 4 in-lane shuffles and 4 FMAs (or 4 multiplies and 3 adds).
///
/// # Panics
/// If `V::LANES` is not 4, 8 or 16 (checked at compile time).
#[inline(always)]
pub(crate) fn mul_4x4_with<V: Group4, const FUSE: bool>(
    t: V::Token,
    a: &[V::Elem; 16],
    b: &[V::Elem; 16],
    addend: Option<&[V::Elem; 16]>,
    out: &mut [V::Elem; 16],
) {
    const { assert!(V::LANES == 4 || V::LANES == 8 || V::LANES == 16) };
    let a0 = V::broadcast_x4(t, a, 0);
    let a1 = V::broadcast_x4(t, a, 4);
    let a2 = V::broadcast_x4(t, a, 8);
    let a3 = V::broadcast_x4(t, a, 12);
    let mut i = 0;
    while i < 16 {
        let bv = V::load(t, b, i);
        let mut acc = a0.mul(bv.dup_in_x4::<0>());
        acc = madd::<V, FUSE>(a1, bv.dup_in_x4::<1>(), acc);
        acc = madd::<V, FUSE>(a2, bv.dup_in_x4::<2>(), acc);
        acc = madd::<V, FUSE>(a3, bv.dup_in_x4::<3>(), acc);
        if let Some(c) = addend {
            acc = acc.add(V::load(t, c, i));
        }
        acc.store(out, i);
        i += V::LANES;
    }
}

/// The operands of a 4x4x4 product as arrays, the right one transposed
/// back when it is stored transposed (16 moves, which the compiler turns
/// into a few shuffles), and `out` as an array.
///
/// # Panics
/// If a slice does not hold 16 elements. Panicking here, rather than falling
/// back to the general path, leaves that path unreachable for 4x4x4, so a
/// 4x4 product compiles to the short kernel alone and inlines into its
/// caller.
#[inline(always)]
#[allow(clippy::type_complexity)]
pub(crate) fn four_by_four<'p, 'o, E: Copy>(
    p: &Operands<'p, E>,
    out: &'o mut [E],
) -> (&'p [E; 16], [E; 16], Option<&'p [E; 16]>, &'o mut [E; 16]) {
    let array = |s: &'p [E], what: &'static str| -> &'p [E; 16] {
        check_shape(what, s.len(), 4, 4);
        s.try_into()
            .unwrap_or_else(|_| unreachable!("checked length"))
    };
    check_shape("result", out.len(), 4, 4);
    let out: &mut [E; 16] = out
        .try_into()
        .unwrap_or_else(|_| unreachable!("checked length"));
    let stored = array(p.b, "right operand");
    let mut b = *stored;
    if p.bt {
        for (i, x) in b.iter_mut().enumerate() {
            *x = stored[(i % 4) * 4 + i / 4];
        }
    }
    (
        array(p.a, "left operand"),
        b,
        p.addend.map(|c| array(c, "addend")),
        out,
    )
}

/// Whether a product is the 4x4x4 one.
#[inline(always)]
fn is_4x4x4<E>(p: &Operands<'_, E>) -> bool {
    p.m == 4 && p.k == 4 && p.n == 4
}

/// Whether the shape `D` gives is 4x4x4 (meaningful where it is known).
const fn shape_4x4x4<D: Dims>() -> bool {
    D::M == 4 && D::K == 4 && D::N == 4
}

/// Whether a product of shape `D` may be the 4x4x4 one.
const fn may_be_4x4x4<D: Dims>() -> bool {
    may::<D>(shape_4x4x4::<D>())
}

/// The `f32` product on backend `S`: the 4x4x4 one in groups of four lanes,
/// columns of up to four rows on vectors of four lanes, of eight on vectors
/// of eight, the rest on the widest vector. (Columns of one to three rows
/// took the widest vector, three of its sixteen lanes on AVX-512, loaded
/// and stored masked; on four lanes, through copies (see
/// [`SimdVector::load_partial_copied`]), a 3x3 `mul_to` takes 71.6 ns per
/// batch of 16 rather than 84.3 and a 2x2 24.8 rather than 39.8, on an
/// AMD EPYC Zen 4, native build, a scratch crate's loop.)
#[inline(always)]
pub(crate) fn product_f32<S: Isa, const FUSE: bool, D: Dims>(
    s: S,
    p: &Operands<'_, f32>,
    out: &mut [f32],
) {
    if const { may_be_4x4x4::<D>() } && is_4x4x4(p) {
        let (a, b, c, out) = four_by_four(p, out);
        mul_4x4_with::<S::F32, FUSE>(s, a, &b, c, out);
    } else if const { may::<D>(D::M <= 4 && !shape_4x4x4::<D>()) } && p.m <= 4 {
        gemm_with::<S::F32x4, FUSE, D>(s, p, out);
    } else if const { may::<D>(D::M == 8) } && p.m == 8 {
        s.product_8_rows_f32::<FUSE, D>(p, out);
    } else if const { may::<D>(D::M > 4 && D::M != 8) } {
        gemm_with::<S::F32, FUSE, D>(s, p, out);
    } else {
        unreachable!("the product of the shape the caller gave");
    }
}

/// The `f64` product on backend `S`: the 4x4x4 one in groups of four lanes
/// where [`grouped_f64`] says so, up to four rows on vectors of four lanes,
/// the rest on the widest vector.
///
/// Inside a `#[dispatch]` kernel the 4x4x4 product runs on vectors of four
/// lanes even where [`Isa::GROUP4_64`]: inlined into the kernel's loop over
/// distinct operands, it is 16 multiplications with their broadcasts from
/// memory and 12 additions, clang's own kernel, where the groups need 8
/// shuffles on the port of the multiplications. A product called on its
/// own keeps the groups, which were faster there. On an AVX-512 Xeon (family
/// 6, model 167), a batch of 16 through `#[dispatch]` took 49.3 ns in
/// groups and 43.5 ns on four lanes (native build), while a product per
/// call (`mul_to`) took 50.6 ns in groups and 52.8 ns on four lanes.
///
/// Where the backend is the build's target's (`-C target-cpu=native` on
/// a CPU with AVX-512), a product is compiled into its caller as into a
/// `#[dispatch]` kernel, and a loop over products is the kernel's loop:
/// there it runs on four lanes too. On the Xeon that costs the product per
/// call above 4% and saves the batch 12%. On an AMD EPYC of family 19h
/// model 11h (Zen 4, which splits each 512-bit operation in two: the
/// groups' 8 shuffles and 14 arithmetic operations are 44 halves on its
/// four vector pipes, four lanes' operations 28), per batch of 16 with a
/// product per call: `mul_to` 76.0 ns in groups and 59.7 on four lanes,
/// `&a * &b` 75.3 and 62.1, a `matrix!` kernel's by-value product 75.4 and
/// 59.8 (BENCHMARKS.md, "4x4 `f64` compiled into its caller on four
/// lanes"). Behind the boundary of a default build the groups stay: by-value
/// operands reach the kernel as fresh copies, which broadcasts from memory
/// wait for (`*o = a * b` 111.2 ns in groups against 138.2 on four lanes on
/// that EPYC, BENCHMARKS.md). A choice by the CPU at run time (four lanes
/// on Zen 4 only) compiled both kernels into each caller, and LLVM merged
/// their results into one 512-bit form slower than either (`&a * &b` 6.5
/// ns a product against 3.8 and 4.7).
#[inline(always)]
pub(crate) fn product_f64<S: Isa, const FUSE: bool, D: Dims>(
    s: S,
    p: &Operands<'_, f64>,
    out: &mut [f64],
) {
    if const { grouped_f64::<S, D>() && may_be_4x4x4::<D>() } && is_4x4x4(p) {
        let (a, b, c, out) = four_by_four(p, out);
        mul_4x4_with::<S::F64G4, FUSE>(s, a, &b, c, out);
    } else if const { may::<D>(D::M <= 4 && !(grouped_f64::<S, D>() && shape_4x4x4::<D>())) }
        && p.m <= 4
    {
        gemm_with::<S::F64x4, FUSE, D>(s, p, out);
    } else if const { may::<D>(D::M > 4) } {
        gemm_with::<S::F64, FUSE, D>(s, p, out);
    } else {
        unreachable!("the product of the shape the caller gave");
    }
}

/// Whether [`product_f64`] runs a 4x4x4 product of shape `D` on backend
/// `S` in groups of four lanes: where [`Isa::GROUP4_64`], outside a
/// `#[dispatch]` kernel ([`Dims::IN_KERNEL`]) and behind a boundary (`S`
/// not the backend of the build's target).
const fn grouped_f64<S: Isa, D: Dims>() -> bool {
    S::GROUP4_64 && !D::IN_KERNEL && !is_static(S::BACKEND)
}

/// The `i32` product on backend `S` (wrapping): the 4x4x4 one in groups of
/// four lanes, the rest on the widest vector.
#[inline(always)]
pub(crate) fn product_i32<S: Isa, D: Dims>(s: S, p: &Operands<'_, i32>, out: &mut [i32]) {
    if const { may_be_4x4x4::<D>() } && is_4x4x4(p) {
        let (a, b, c, out) = four_by_four(p, out);
        mul_4x4_with::<S::I32, false>(s, a, &b, c, out);
    } else if const { may::<D>(!shape_4x4x4::<D>()) } {
        gemm_with::<S::I32, false, D>(s, p, out);
    } else {
        unreachable!("the product of the shape the caller gave");
    }
}

/// The `i64` product on backend `S` (wrapping), on its `i64` vector: the
/// 4x4x4 one in groups of four lanes where [`Isa::GROUP4_64`].
#[inline(always)]
pub(crate) fn product_i64<S: Isa, D: Dims>(s: S, p: &Operands<'_, i64>, out: &mut [i64]) {
    if const { S::GROUP4_64 && may_be_4x4x4::<D>() } && is_4x4x4(p) {
        let (a, b, c, out) = four_by_four(p, out);
        mul_4x4_with::<S::I64, false>(s, a, &b, c, out);
    } else if const { may::<D>(!(S::GROUP4_64 && shape_4x4x4::<D>())) } {
        gemm_with::<S::I64, false, D>(s, p, out);
    } else {
        unreachable!("the product of the shape the caller gave");
    }
}

/// `out = a * b (+ addend)` in the contract's order, element by element:
/// `out[r][c] = a[r][0]*b[0][c]`, then `+ a[r][k]*b[k][c]` for `k = 1..K`,
/// each operation rounded (wrapping for integers), or with `fuse` each step
/// one fused multiply-add, then `+ addend[r][c]`. The reference the SIMD
/// kernels are tested against, and the kernel of the element types without
/// SIMD vectors.
///
/// The loops are `while` loops over indices: at opt-level 0 an iterator
/// adapter is a call per element, which this kernel, the product of
/// unoptimized builds, cannot afford. The innermost loop runs down a
/// column, so that it vectorises without changing any element's order.
///
/// # Panics
/// If a dimension is zero or a slice is not its shape's length.
#[inline(always)]
pub(crate) fn gemm_in_order<T: Arith>(p: &Operands<'_, T>, fuse: bool, out: &mut [T]) {
    check_product(p, out);
    let (m, k, n, ldo) = (p.m, p.k, p.n, p.ldo);
    let mut c = 0;
    while c < n {
        let col = &mut out[c * ldo..c * ldo + m];
        let b0 = p.b[p.b_at(0, c)];
        let mut r = 0;
        while r < m {
            col[r] = p.a[r].mul(b0);
            r += 1;
        }
        let mut kk = 1;
        while kk < k {
            let b_k = p.b[p.b_at(kk, c)];
            let a_col = &p.a[kk * m..(kk + 1) * m];
            let mut r = 0;
            while r < m {
                col[r] = if fuse {
                    a_col[r].mul_add(b_k, col[r])
                } else {
                    col[r].add(a_col[r].mul(b_k))
                };
                r += 1;
            }
            kk += 1;
        }
        if let Some(addend) = p.addend {
            let add = &addend[c * ldo..c * ldo + m];
            let mut r = 0;
            while r < m {
                col[r] = col[r].add(add[r]);
                r += 1;
            }
        }
        c += 1;
    }
}

#[cfg(test)]
mod shape_tests {
    use super::*;

    /// The blocks of rows [`blocks`] and [`col_tiles`] run, as `(mv,
    /// partial)` pairs, found by walking their loops.
    fn row_blocks_walked(m: usize, lanes: usize, regs32: bool) -> Vec<(usize, bool)> {
        let nv = m.div_ceil(lanes);
        let last = m - (nv.max(1) - 1) * lanes;
        let max_mv = if regs32 { 4 } else { 2 };
        let mut walked = Vec::new();
        let mut v0 = 0;
        while v0 < nv {
            let mv = max_mv.min(nv - v0);
            let tail = if v0 + mv == nv { last } else { lanes };
            walked.push((mv, tail < lanes));
            v0 += mv;
        }
        walked
    }

    /// The widths of the column tiles [`col_tiles_of`] runs, found by
    /// walking its loops.
    fn col_tiles_walked(n: usize, nc: usize) -> Vec<usize> {
        let mut walked = Vec::new();
        let mut j0 = 0;
        while j0 + nc <= n {
            walked.push(nc);
            j0 += nc;
        }
        while nc > 8 && j0 + 8 <= n {
            walked.push(8);
            j0 += 8;
        }
        while nc > 4 && j0 + 4 <= n {
            walked.push(4);
            j0 += 4;
        }
        while j0 < n {
            walked.push(1);
            j0 += 1;
        }
        walked
    }

    /// The compile-time answers that decide which register tiles a
    /// product of a known shape compiles are exactly the tiles its loops
    /// run: a tile left out would leave part of the result unwritten, and
    /// one kept would only cost build time.
    #[test]
    fn known_shapes_compile_exactly_the_tiles_they_run() {
        for regs32 in [false, true] {
            for lanes in [1, 2, 4, 8, 16] {
                for m in 0..=200 {
                    let walked = row_blocks_walked(m, lanes, regs32);
                    for mv in 1..=4 {
                        for partial in [false, true] {
                            assert_eq!(
                                row_block_occurs(m, lanes, regs32, mv, partial),
                                walked.contains(&(mv, partial)),
                                "m {m}, lanes {lanes}, regs32 {regs32}: block of {mv} (partial {partial})"
                            );
                        }
                    }
                }
            }
            for mv in 1..=4 {
                let nc = tile_columns(regs32, mv);
                for n in 0..=200 {
                    let walked = col_tiles_walked(n, nc);
                    for width in [nc, 8, 4, 1] {
                        assert_eq!(
                            col_tile_occurs(n, nc, width),
                            walked.contains(&width),
                            "n {n}, widest {nc}: tile of {width}"
                        );
                    }
                }
            }
        }
    }
}
