//! Shape-generic building blocks written once over the vocabulary.
//!
//! Every matrix here is a column-major slice without padding: element
//! `(r, c)` of an `R x C` matrix is `s[c * R + r]`, the layout of
//! [`Matrix::as_slice`](crate::Matrix) and of Clang's `matrix_type`.
//!
//! # Summation order
//!
//! Products follow the contract: `out[r][c] = a[r][0] * b[0][c]`, then
//! `out[r][c] = out[r][c] + a[r][k] * b[k][c]` for `k = 1..K`, each
//! operation rounded, when `CONTRACT` is `false`. The SIMD lanes run over
//! `r` and `c` only, never over `k`, so the result is bit for bit the naive
//! loop in that order (and clang's `-ffp-contract=off` output). With
//! `CONTRACT = true` each `+ a*b` step is one fused multiply-add on backends
//! that have FMA ([`SimdVector::FUSED`]), in the same `k` order. The fused
//! `a * b + c` kernels add `c` after the last step, as the contract's
//! expression does.
//!
//! # Tiling
//!
//! [`gemm_with`] keeps a register tile of `MV` vectors (rows) by `NC`
//! columns of the result in accumulators: per step `k` it loads `MV`
//! vectors of column `k` of `a`, broadcasts `NC` elements of row `k` of `b`
//! and issues `MV * NC` independent multiply-adds. The tile is up to 4 x 4
//! vectors (1 x 16, 2 x 8) where 32 vector registers exist (AVX-512), and
//! up to 2 x 6 (1 x 12) with 16; row tails use partial loads and stores,
//! column tails an 8-, 4- or 1-column tile.
//! Depths above [`KC`] are split into blocks whose partial sums go through
//! the output, which keeps the order (and the bits) unchanged.

use super::{F32Vec, F64Vec, Group4, I32Vec, SimdVector, madd};

/// Depth of one `k` block of [`gemm_with`].
pub const KC: usize = 256;

/// The largest product, in vector multiply-adds (`M * K * N / LANES` of the
/// element's vector on the active backend), that the shape's entry points
/// ([`gemm_f32`] and the others) inline into every caller: a 16x16 by 16x16
/// `f32` product on AVX-512, 8x8 by 8x16 on SSE2.
///
/// Why inline so much: a kernel left out of line needs its operands in
/// memory. A caller holding them by value, as a `matrix!` kernel's
/// parameters are held, copies them there first, and on AVX-512 it copies
/// them with 32-byte stores that the kernel's 64-byte loads cannot forward
/// from. Measured through a `matrix!` kernel with `fast` contraction, an
/// 8x8 product took 22 ns called and 12 ns inlined, a 16x16 one 92 ns and
/// 52 ns. Inlined, the copies vanish.
///
/// Why in vector operations: the inlined code grows with them. Counted in
/// multiply-adds, the same limit let a 16x16 SSE2 product (four times the
/// instructions of the AVX-512 one) inline sixteen times into the
/// benchmark's batch loop, which then ran 20% to 50% slower than the called
/// kernel. Past the limit the kernel's own time hides the copies, and its
/// code (a loop over register tiles) is better shared.
pub const INLINE_VECTOR_MACS: usize = 256;

/// Whether the target has 32 vector registers (AVX-512) rather than 16.
const REGS32: bool = cfg!(target_feature = "avx512f");

/// The most vectors per column in one register tile: with 16 registers,
/// `2 x 6` accumulators plus two vectors of `a`, a broadcast and a product
/// fill them exactly; with 32 registers, `4 x 4`.
const MAX_MV: usize = if REGS32 { 4 } else { 2 };

/// The operands of one product, checked once.
struct Gemm<'a, E> {
    m: usize,
    a: &'a [E],
    b: &'a [E],
    /// Where `b[k][j]` is: `b[j * b_col + k * b_row]` (`k` and `1` when `b`
    /// is stored as it is used, `1` and `n` when it is stored transposed).
    b_col: usize,
    b_row: usize,
    addend: Option<&'a [E]>,
}

/// `out = a * b` (or `a * b + addend`) for column-major `a` (`m x k`),
/// `b` (`k x n`), `addend` and `out` (`m x n`), with the vector type `V`.
///
/// `FUSE` selects [`SimdVector::mul_add`] for each step (contraction) over
/// [`SimdVector::mul_then_add`]; see the module documentation for the order.
/// This is the generic entry point; [`gemm_f32`] and friends pick the vector
/// type for the shape on the active backend.
///
/// # Panics
/// If a slice's length is not its shape's element count, or a dimension is
/// zero.
#[inline(always)]
pub fn gemm_with<V: SimdVector, const FUSE: bool>(
    m: usize,
    k: usize,
    n: usize,
    a: &[V::Elem],
    b: &[V::Elem],
    addend: Option<&[V::Elem]>,
    out: &mut [V::Elem],
) {
    gemm_with_layout::<V, FUSE, false>(m, k, n, a, b, addend, out);
}

/// [`gemm_with`], with the right operand stored transposed when `BT`:
/// `b` is then the column-major `n x k` matrix whose transpose is the
/// product's right operand. The transpose costs nothing: it only changes
/// the address each broadcast of `b[k][j]` reads, so `a * transpose(b)`
/// needs no transposed copy.
///
/// # Panics
/// As [`gemm_with`].
#[inline(always)]
pub fn gemm_with_layout<V: SimdVector, const FUSE: bool, const BT: bool>(
    m: usize,
    k: usize,
    n: usize,
    a: &[V::Elem],
    b: &[V::Elem],
    addend: Option<&[V::Elem]>,
    out: &mut [V::Elem],
) {
    check_product((m, k, n), a, b, addend, out);
    let l = V::LANES;
    let nv = m.div_ceil(l);
    let last = m - (nv - 1) * l;
    let mut k0 = 0;
    while k0 < k {
        let k1 = if k - k0 > KC { k0 + KC } else { k };
        let p = Gemm {
            m,
            a,
            b,
            b_col: if BT { 1 } else { k },
            b_row: if BT { n } else { 1 },
            addend: if k1 == k { addend } else { None },
        };
        let mut v0 = 0;
        while v0 < nv {
            let mv = if nv - v0 >= MAX_MV { MAX_MV } else { nv - v0 };
            let tail = if v0 + mv == nv { last } else { l };
            let i0 = v0 * l;
            match mv {
                4 => col_tiles::<V, FUSE, 4>(&p, i0, tail, k0, k1, n, out),
                3 => col_tiles::<V, FUSE, 3>(&p, i0, tail, k0, k1, n, out),
                2 => col_tiles::<V, FUSE, 2>(&p, i0, tail, k0, k1, n, out),
                _ => col_tiles::<V, FUSE, 1>(&p, i0, tail, k0, k1, n, out),
            }
            v0 += mv;
        }
        k0 = k1;
    }
}

/// Panics unless `a` (`m x k`), `b` (`k x n`), the addend and `out` (`m x
/// n`) have their shapes' lengths and no dimension is zero.
#[inline(always)]
#[track_caller]
pub(crate) fn check_product<E>(
    (m, k, n): (usize, usize, usize),
    a: &[E],
    b: &[E],
    addend: Option<&[E]>,
    out: &[E],
) {
    if m == 0 || k == 0 || n == 0 {
        zero_size()
    }
    check_shape("left operand", a.len(), m, k);
    check_shape("right operand", b.len(), k, n);
    check_shape("result", out.len(), m, n);
    if let Some(c) = addend {
        check_shape("addend", c.len(), m, n);
    }
}

/// Panics unless a slice of `len` elements holds a `rows x cols` matrix.
///
/// Why not `assert_eq!`: its message takes the addresses of the dimensions,
/// and an address that escapes, even into a panic that never runs, keeps
/// LLVM from treating the dimensions as the constants they are once a
/// kernel is inlined for one shape. An 8x8 product was compiled into
/// run-time loops that way, at a quarter of its speed, in some callers and
/// not others. The message is built out of line, from values.
#[inline(always)]
#[track_caller]
pub(crate) fn check_shape(what: &'static str, len: usize, rows: usize, cols: usize) {
    if len != rows * cols {
        wrong_shape(what, len, rows, cols)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn wrong_shape(what: &'static str, len: usize, rows: usize, cols: usize) -> ! {
    panic!("{what} is not {rows}x{cols} (holds {len} elements)")
}

#[cold]
#[inline(never)]
#[track_caller]
fn zero_size() -> ! {
    panic!("zero matrix size")
}

/// All column tiles of one row block of `MV` vectors.
#[inline(always)]
fn col_tiles<V: SimdVector, const FUSE: bool, const MV: usize>(
    p: &Gemm<'_, V::Elem>,
    i0: usize,
    tail: usize,
    k0: usize,
    k1: usize,
    n: usize,
    out: &mut [V::Elem],
) {
    let mut j0 = 0;
    // The widest tile the registers allow for MV vectors per column
    // (accumulators, MV vectors of `a`, a broadcast and a product).
    let nc = match (REGS32, MV) {
        (true, 1) => 16,
        (true, 2) => 8,
        (true, 3) => 5,
        (true, _) => 4,
        (false, 1) => 12,
        (false, _) => 6,
    };
    while j0 + nc <= n {
        match (REGS32, MV) {
            (true, 1) => tile::<V, FUSE, MV, 16>(p, i0, tail, j0, k0, k1, out),
            (true, 2) => tile::<V, FUSE, MV, 8>(p, i0, tail, j0, k0, k1, out),
            (true, 3) => tile::<V, FUSE, MV, 5>(p, i0, tail, j0, k0, k1, out),
            (true, _) => tile::<V, FUSE, MV, 4>(p, i0, tail, j0, k0, k1, out),
            (false, 1) => tile::<V, FUSE, MV, 12>(p, i0, tail, j0, k0, k1, out),
            (false, _) => tile::<V, FUSE, MV, 6>(p, i0, tail, j0, k0, k1, out),
        }
        j0 += nc;
    }
    while nc > 8 && j0 + 8 <= n {
        tile::<V, FUSE, MV, 8>(p, i0, tail, j0, k0, k1, out);
        j0 += 8;
    }
    while nc > 4 && j0 + 4 <= n {
        tile::<V, FUSE, MV, 4>(p, i0, tail, j0, k0, k1, out);
        j0 += 4;
    }
    while j0 < n {
        tile::<V, FUSE, MV, 1>(p, i0, tail, j0, k0, k1, out);
        j0 += 1;
    }
}

/// Loads vector `v` of the row block at `i0` of column `kk` of `a`.
#[inline(always)]
fn load_a<V: SimdVector, const MV: usize>(
    p: &Gemm<'_, V::Elem>,
    i0: usize,
    tail: usize,
    kk: usize,
    v: usize,
) -> V {
    let off = kk * p.m + i0 + v * V::LANES;
    if v == MV - 1 && tail < V::LANES {
        V::load_partial(p.a, off, tail)
    } else {
        V::load(p.a, off)
    }
}

/// One register tile: rows `i0..i0 + MV * LANES` (the last vector holding
/// `tail` rows), columns `j0..j0 + NC`, steps `k0..k1`.
#[inline(always)]
fn tile<V: SimdVector, const FUSE: bool, const MV: usize, const NC: usize>(
    p: &Gemm<'_, V::Elem>,
    i0: usize,
    tail: usize,
    j0: usize,
    k0: usize,
    k1: usize,
    out: &mut [V::Elem],
) {
    let m = p.m;
    let mut acc = [[V::zero(); MV]; NC];
    let mut kk = k0;
    if k0 == 0 {
        // acc = a[r][0] * b[0][c]
        let av: [V; MV] = core::array::from_fn(|v| load_a::<V, MV>(p, i0, tail, 0, v));
        for (c, col) in acc.iter_mut().enumerate() {
            let bb = V::broadcast(p.b, (j0 + c) * p.b_col);
            for (x, a) in col.iter_mut().zip(av) {
                *x = a.mul(bb);
            }
        }
        kk = 1;
    } else {
        for (c, col) in acc.iter_mut().enumerate() {
            for (v, x) in col.iter_mut().enumerate() {
                let off = (j0 + c) * m + i0 + v * V::LANES;
                *x = if v == MV - 1 && tail < V::LANES {
                    V::load_partial(out, off, tail)
                } else {
                    V::load(out, off)
                };
            }
        }
    }
    while kk < k1 {
        // acc = acc + a[r][kk] * b[kk][c]
        let av: [V; MV] = core::array::from_fn(|v| load_a::<V, MV>(p, i0, tail, kk, v));
        for (c, col) in acc.iter_mut().enumerate() {
            let bb = V::broadcast(p.b, (j0 + c) * p.b_col + kk * p.b_row);
            for (x, a) in col.iter_mut().zip(av) {
                *x = madd::<V, FUSE>(a, bb, *x);
            }
        }
        kk += 1;
    }
    for (c, col) in acc.iter().enumerate() {
        for (v, x) in col.iter().enumerate() {
            let off = (j0 + c) * m + i0 + v * V::LANES;
            let partial = v == MV - 1 && tail < V::LANES;
            let mut x = *x;
            if let Some(addend) = p.addend {
                let y = if partial {
                    V::load_partial(addend, off, tail)
                } else {
                    V::load(addend, off)
                };
                x = x.add(y);
            }
            if partial {
                x.store_partial(out, off, tail);
            } else {
                x.store(out, off);
            }
        }
    }
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
pub fn mul_4x4_with<V: Group4, const FUSE: bool>(
    a: &[V::Elem; 16],
    b: &[V::Elem; 16],
    addend: Option<&[V::Elem; 16]>,
) -> [V::Elem; 16] {
    const { assert!(V::LANES == 4 || V::LANES == 8 || V::LANES == 16) };
    let a0 = V::broadcast_x4(a, 0);
    let a1 = V::broadcast_x4(a, 4);
    let a2 = V::broadcast_x4(a, 8);
    let a3 = V::broadcast_x4(a, 12);
    let mut out = [V::Elem::default(); 16];
    let mut i = 0;
    while i < 16 {
        let bv = V::load(b, i);
        let mut acc = a0.mul(bv.dup_in_x4::<0>());
        acc = madd::<V, FUSE>(a1, bv.dup_in_x4::<1>(), acc);
        acc = madd::<V, FUSE>(a2, bv.dup_in_x4::<2>(), acc);
        acc = madd::<V, FUSE>(a3, bv.dup_in_x4::<3>(), acc);
        if let Some(c) = addend {
            acc = acc.add(V::load(c, i));
        }
        acc.store(&mut out, i);
        i += V::LANES;
    }
    out
}

/// 4x4 `f32` product on the active backend (one `zmm` on AVX-512, two `ymm`
/// on AVX2, four `xmm` on SSE2). `CONTRACT` fuses each step into an FMA.
#[inline]
pub fn mul_4x4_f32<const CONTRACT: bool>(a: &[f32; 16], b: &[f32; 16]) -> [f32; 16] {
    mul_4x4_with::<F32Vec, CONTRACT>(a, b, None)
}

/// 4x4 `f32` `a * b + c` on the active backend; `c` is added after the
/// product, as in the contract.
#[inline]
pub fn madd_4x4_f32<const CONTRACT: bool>(
    a: &[f32; 16],
    b: &[f32; 16],
    c: &[f32; 16],
) -> [f32; 16] {
    mul_4x4_with::<F32Vec, CONTRACT>(a, b, Some(c))
}

/// 4x4 `i32` product on the active backend; wrapping.
#[inline]
pub fn mul_4x4_i32(a: &[i32; 16], b: &[i32; 16]) -> [i32; 16] {
    mul_4x4_with::<I32Vec, false>(a, b, None)
}

/// 4x4 `f64` product on the active backend: two `zmm` with in-lane shuffles
/// on AVX-512; elsewhere one column per vector with broadcast loads.
#[inline]
pub fn mul_4x4_f64<const CONTRACT: bool>(a: &[f64; 16], b: &[f64; 16]) -> [f64; 16] {
    let mut out = [0.0; 16];
    gemm_f64::<4, 4, 4, CONTRACT>(a, b, &mut out);
    out
}

macro_rules! gemm_entry {
    ($(#[$doc:meta])* $name:ident, $madd:ident, $bt:ident, $t:ty, $vec:ty, $pick:ident, $four:ident) => {
        $(#[$doc])*
        ///
        /// # Panics
        /// If a slice's length is not its shape's element count, or a
        /// dimension is zero (both checked against the constants, so free
        /// when the slices come from matrices of those shapes).
        #[inline(always)]
        pub fn $name<const M: usize, const K: usize, const N: usize, const CONTRACT: bool>(
            a: &[$t],
            b: &[$t],
            out: &mut [$t],
        ) {
            $bt::<M, K, N, CONTRACT, false>(a, b, None, out);
        }

        /// `out = a * b + addend`, the fused form of the same product: the
        /// addend is added after the last step of each sum.
        ///
        /// # Panics
        /// As the product.
        #[inline(always)]
        pub fn $madd<const M: usize, const K: usize, const N: usize, const CONTRACT: bool>(
            a: &[$t],
            b: &[$t],
            addend: &[$t],
            out: &mut [$t],
        ) {
            $bt::<M, K, N, CONTRACT, false>(a, b, Some(addend), out);
        }

        /// The same product (with an optional addend), whose right operand
        /// is stored transposed when `BT`: `b` is then the column-major
        /// `N x K` matrix whose transpose is multiplied, read in place (see
        /// [`gemm_with_layout`]).
        ///
        /// Up to [`INLINE_VECTOR_MACS`] vector multiply-adds the kernel is
        /// inlined into every caller, larger ones are called.
        ///
        /// # Panics
        /// As the product.
        #[inline(always)]
        pub fn $bt<
            const M: usize,
            const K: usize,
            const N: usize,
            const CONTRACT: bool,
            const BT: bool,
        >(
            a: &[$t],
            b: &[$t],
            addend: Option<&[$t]>,
            out: &mut [$t],
        ) {
            #[inline(always)]
            fn body<
                const M: usize,
                const K: usize,
                const N: usize,
                const CONTRACT: bool,
                const BT: bool,
            >(
                a: &[$t],
                b: &[$t],
                addend: Option<&[$t]>,
                out: &mut [$t],
            ) {
                if let Some(r) = $four::<M, K, N, CONTRACT, BT>(a, b, addend) {
                    out.copy_from_slice(&r);
                    return;
                }
                $pick!(M, K, N, CONTRACT, BT, a, b, addend, out);
            }
            #[inline]
            fn called<
                const M: usize,
                const K: usize,
                const N: usize,
                const CONTRACT: bool,
                const BT: bool,
            >(
                a: &[$t],
                b: &[$t],
                addend: Option<&[$t]>,
                out: &mut [$t],
            ) {
                body::<M, K, N, CONTRACT, BT>(a, b, addend, out);
            }
            if M * K * N <= INLINE_VECTOR_MACS * <$vec as SimdVector>::LANES {
                body::<M, K, N, CONTRACT, BT>(a, b, addend, out);
            } else {
                called::<M, K, N, CONTRACT, BT>(a, b, addend, out);
            }
        }
    };
}

/// The operands of a 4x4x4 product as arrays.
///
/// # Panics
/// If a slice does not hold 16 elements. Panicking here, rather than falling
/// back to the general path, leaves that path unreachable for 4x4x4, so a
/// 4x4 entry point compiles to the short kernel alone and inlines into its
/// caller (whose by-value operands then need no stack copies).
#[inline(always)]
fn four_by_four<'a, E>(
    a: &'a [E],
    b: &'a [E],
    addend: Option<&'a [E]>,
) -> (&'a [E; 16], &'a [E; 16], Option<&'a [E; 16]>) {
    let array = |s: &'a [E], what: &'static str| -> &'a [E; 16] {
        check_shape(what, s.len(), 4, 4);
        s.try_into().unwrap_or_else(|_| unreachable!())
    };
    (
        array(a, "left operand"),
        array(b, "right operand"),
        addend.map(|c| array(c, "addend")),
    )
}

/// A 4x4 right operand as the product uses it: transposed when `BT` (16
/// moves, which the compiler turns into a few shuffles).
#[inline(always)]
fn transposed_if<E: Copy, const BT: bool>(b: &[E; 16]) -> [E; 16] {
    if BT {
        core::array::from_fn(|i| b[(i % 4) * 4 + i / 4])
    } else {
        *b
    }
}

/// The 4x4x4 case of [`gemm_f32`] through [`mul_4x4_with`]; `None` for
/// other shapes.
#[inline(always)]
fn four_f32<const M: usize, const K: usize, const N: usize, const C: bool, const BT: bool>(
    a: &[f32],
    b: &[f32],
    addend: Option<&[f32]>,
) -> Option<[f32; 16]> {
    if M != 4 || K != 4 || N != 4 {
        return None;
    }
    let (a, b, c) = four_by_four(a, b, addend);
    Some(mul_4x4_with::<F32Vec, C>(a, &transposed_if::<_, BT>(b), c))
}

/// The 4x4x4 case of [`gemm_i32`]; `None` for other shapes.
#[inline(always)]
fn four_i32<const M: usize, const K: usize, const N: usize, const C: bool, const BT: bool>(
    a: &[i32],
    b: &[i32],
    addend: Option<&[i32]>,
) -> Option<[i32; 16]> {
    if M != 4 || K != 4 || N != 4 {
        return None;
    }
    let (a, b, c) = four_by_four(a, b, addend);
    Some(mul_4x4_with::<I32Vec, false>(
        a,
        &transposed_if::<_, BT>(b),
        c,
    ))
}

/// The 4x4x4 case of [`gemm_f64`] where a vector holds a group of four
/// (AVX-512); `None` for other shapes and backends.
#[inline(always)]
fn four_f64<const M: usize, const K: usize, const N: usize, const C: bool, const BT: bool>(
    a: &[f64],
    b: &[f64],
    addend: Option<&[f64]>,
) -> Option<[f64; 16]> {
    cfg_if::cfg_if! {
        if #[cfg(all(not(feature = "force-scalar"), target_arch = "x86_64",
                     target_feature = "avx512f", target_feature = "avx2",
                     target_feature = "fma"))] {
            if M != 4 || K != 4 || N != 4 {
                return None;
            }
            let (a, b, c) = four_by_four(a, b, addend);
            Some(mul_4x4_with::<F64Vec, C>(a, &transposed_if::<_, BT>(b), c))
        } else {
            let _ = (a, b, addend);
            None
        }
    }
}

/// Picks the `f32` vector width for `M` rows on the active backend: the
/// 4-lane type for 4 rows, 8 lanes for 8 rows, the widest otherwise.
macro_rules! pick_f32 {
    ($m:expr, $k:expr, $n:expr, $c:ident, $bt:ident, $a:expr, $b:expr, $add:expr, $out:expr) => {{
        cfg_if::cfg_if! {
            if #[cfg(all(not(feature = "force-scalar"), target_arch = "x86_64",
                         target_feature = "avx512f", target_feature = "avx2",
                         target_feature = "fma"))] {
                if $m == 4 {
                    gemm_with_layout::<super::sse2::F32Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
                } else if $m == 8 {
                    gemm_with_layout::<super::avx2::F32Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
                } else {
                    gemm_with_layout::<F32Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
                }
            } else if #[cfg(all(not(feature = "force-scalar"), target_arch = "x86_64",
                                target_feature = "avx2", target_feature = "fma"))] {
                if $m == 4 {
                    gemm_with_layout::<super::sse2::F32Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
                } else {
                    gemm_with_layout::<F32Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
                }
            } else {
                gemm_with_layout::<F32Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
            }
        }
    }};
}

/// Picks the `f64` vector width for `M` rows on the active backend.
macro_rules! pick_f64 {
    ($m:expr, $k:expr, $n:expr, $c:ident, $bt:ident, $a:expr, $b:expr, $add:expr, $out:expr) => {{
        cfg_if::cfg_if! {
            if #[cfg(all(not(feature = "force-scalar"), target_arch = "x86_64",
                         target_feature = "avx512f", target_feature = "avx2",
                         target_feature = "fma"))] {
                if $m <= 4 {
                    gemm_with_layout::<super::avx2::F64Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
                } else {
                    gemm_with_layout::<F64Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
                }
            } else {
                gemm_with_layout::<F64Vec, $c, $bt>($m, $k, $n, $a, $b, $add, $out)
            }
        }
    }};
}

/// Picks the `i32` vector type (no contraction for integers).
macro_rules! pick_i32 {
    ($m:expr, $k:expr, $n:expr, $c:ident, $bt:ident, $a:expr, $b:expr, $add:expr, $out:expr) => {{
        let _ = $c;
        gemm_with_layout::<I32Vec, false, $bt>($m, $k, $n, $a, $b, $add, $out)
    }};
}

gemm_entry!(
    /// `out = a * b` for column-major `f32` matrices `a` (`M x K`), `b`
    /// (`K x N`), `out` (`M x N`) on the active backend, in the contract's
    /// order; `CONTRACT` fuses each step into an FMA where the backend has
    /// one.
    gemm_f32, gemm_madd_f32, gemm_bt_f32, f32, F32Vec, pick_f32, four_f32
);
gemm_entry!(
    /// `out = a * b` for column-major `f64` matrices `a` (`M x K`), `b`
    /// (`K x N`), `out` (`M x N`) on the active backend, in the contract's
    /// order; `CONTRACT` fuses each step into an FMA where the backend has
    /// one.
    gemm_f64, gemm_madd_f64, gemm_bt_f64, f64, F64Vec, pick_f64, four_f64
);
gemm_entry!(
    /// `out = a * b` for column-major `i32` matrices `a` (`M x K`), `b`
    /// (`K x N`), `out` (`M x N`), wrapping; `CONTRACT` has no effect.
    gemm_i32, gemm_madd_i32, gemm_bt_i32, i32, I32Vec, pick_i32, four_i32
);

/// Transposes the column-major `rows x cols` matrix `src` into the
/// column-major `cols x rows` matrix `dst`, for any element type, in
/// cache-friendly 8x8 blocks.
///
/// # Panics
/// If a slice's length is not `rows * cols`.
#[inline]
pub fn transpose<T: Copy>(rows: usize, cols: usize, src: &[T], dst: &mut [T]) {
    check_shape("source", src.len(), rows, cols);
    check_shape("destination", dst.len(), cols, rows);
    const B: usize = 8;
    for c0 in (0..cols).step_by(B) {
        for r0 in (0..rows).step_by(B) {
            for c in c0..(c0 + B).min(cols) {
                for r in r0..(r0 + B).min(rows) {
                    dst[r * cols + c] = src[c * rows + r];
                }
            }
        }
    }
}

/// Transposes the column-major `R x C` `f32` matrix `src` into the
/// column-major `C x R` matrix `dst`: whole 4x4 tiles with the backend's
/// shuffles ([`super::transpose_4x4_f32_strided`]), the edges element by
/// element. 4x4 and 8x8 use the backend's dedicated transposes.
///
/// # Panics
/// If a slice's length is not `R * C`.
#[inline]
pub fn transpose_f32<const R: usize, const C: usize>(src: &[f32], dst: &mut [f32]) {
    check_shape("source", src.len(), R, C);
    check_shape("destination", dst.len(), C, R);
    if R == 4 && C == 4 {
        let s: &[f32; 16] = src.try_into().expect("checked length");
        dst.copy_from_slice(&super::transpose_4x4_f32(s));
        return;
    }
    if R == 8 && C == 8 {
        let s: &[f32; 64] = src.try_into().expect("checked length");
        dst.copy_from_slice(&super::transpose_8x8_f32(s));
        return;
    }
    let (r4, c4) = (R / 4 * 4, C / 4 * 4);
    for c0 in (0..c4).step_by(4) {
        for r0 in (0..r4).step_by(4) {
            super::transpose_4x4_f32_strided(src, c0 * R + r0, R, dst, r0 * C + c0, C);
        }
    }
    for c in 0..C {
        let rs = if c < c4 { r4 } else { 0 };
        for r in rs..R {
            dst[r * C + c] = src[c * R + r];
        }
    }
}

/// Element-wise `out[i] = f([inputs[0][i], inputs[1][i], ...])` over vectors
/// of `V`: whole vectors first, then one partial vector for the tail.
/// A chain such as `a + b * s - c` is one call with a closure over
/// [`SimdVector`] operations, so each element is loaded and stored once.
/// `f` must be lane-wise (the tail's unused lanes hold zeros, which are
/// computed on and never stored; float division by them is harmless).
/// Scalars enter as captured [`SimdVector::splat`]s, `matrix / scalar` as
/// [`SimdFloat::div`](super::SimdFloat::div).
///
/// # Panics
/// If an input's length differs from `out`'s.
#[inline(always)]
pub fn map<V: SimdVector, const K: usize>(
    inputs: [&[V::Elem]; K],
    out: &mut [V::Elem],
    f: impl Fn([V; K]) -> V,
) {
    let n = out.len();
    for s in inputs {
        assert!(s.len() == n, "operand lengths differ");
    }
    let l = V::LANES;
    let mut i = 0;
    while i + l <= n {
        f(inputs.map(|s| V::load(s, i))).store(out, i);
        i += l;
    }
    if i < n {
        let t = n - i;
        f(inputs.map(|s| V::load_partial(s, i, t))).store_partial(out, i, t);
    }
}

/// [`map`] with the active backend's `f32` vector, [`F32Vec`].
#[inline(always)]
pub fn map_f32<const K: usize>(
    inputs: [&[f32]; K],
    out: &mut [f32],
    f: impl Fn([F32Vec; K]) -> F32Vec,
) {
    map::<F32Vec, K>(inputs, out, f)
}

/// [`map`] with the active backend's `f64` vector, [`F64Vec`].
#[inline(always)]
pub fn map_f64<const K: usize>(
    inputs: [&[f64]; K],
    out: &mut [f64],
    f: impl Fn([F64Vec; K]) -> F64Vec,
) {
    map::<F64Vec, K>(inputs, out, f)
}

/// [`map`] with the active backend's `i32` vector, [`I32Vec`] (wrapping).
#[inline(always)]
pub fn map_i32<const K: usize>(
    inputs: [&[i32]; K],
    out: &mut [i32],
    f: impl Fn([I32Vec; K]) -> I32Vec,
) {
    map::<I32Vec, K>(inputs, out, f)
}
