//! Products of the integer element types without a kernel of their own
//! (`i8`, `u8`, `i16`, `u16`, `u32`, `u64`): `u32` and `u64` on the `i32`
//! and `i64` kernels in place ([`product_u32`], [`product_u64`]), `i16`
//! and `u16` on the `i16` kernel in place where their rows fill its
//! vectors ([`product_16`]), `i8` and `u8` widened to `i16` for that
//! kernel ([`product_8`]), and the narrow types otherwise widened to
//! `i32` ([`product`]) or run in order.
//!
//! # Why the result is exact
//!
//! Integer matrix arithmetic wraps in the element type (the contract), so
//! a product of `u8`s is computed in the ring of integers modulo 2^8, of
//! `i16`s modulo 2^16, and so on. The `i32` kernel computes in the ring
//! modulo 2^32. Reducing modulo 2^w (keeping the low `w` bits, which is
//! what `v as u8`, `v as i16`, ... do) is a ring homomorphism from the
//! integers modulo 2^32 onto those modulo 2^w for `w <= 32`: it maps sums to
//! sums and products to products. So widening every operand to `i32` (any
//! integer with the same low `w` bits will do; `as i32` sign- or
//! zero-extends), running the `i32` product, and truncating each result
//! back with `as` gives exactly the wrapping product in the narrow type,
//! whatever the order of the additions. The same holds with `i16` in place
//! of `i32` for `i8` and `u8` (`w = 8 <= 16`). `u32` and `i32` are the same ring,
//! so a `u32` product is bit for bit the `i32` product of the same bits:
//! [`product_u32`] runs the `i32` kernel on the `u32` slices themselves,
//! read as `i32`, with no copy.
//!
//! `a * b + c` runs the wide product and adds `c` while narrowing the
//! result, in the narrow type with `wrapping_add`: the addend comes after
//! the last step of each sum, as the contract says.
//!
//! # Buffers
//!
//! The widened operands and the wide result live in fixed arrays on the
//! stack up to 256 elements per buffer (16x16; 1024 for `i16` buffers,
//! 32x32, 6 KiB in all), and in `Vec`s above: the allocation is negligible
//! next to a product of that size. (A 32x32 `i8` product took 457 ns with
//! heap buffers and 343 ns with arrays, on AVX-512, AMD EPYC Zen 5.) The arrays are
//! in an always-inlined function, so that the product's shape stays
//! constant in the `i32` kernel, and a 4x4x4 product widens straight from
//! memory into vector registers. (With the 16x16 buffers in a function of
//! their own behind the backend's boundary, the shape became a run-time
//! value there, and a 16x16x16 `i16` product took 450 ns instead of
//! 224 ns, on an AVX2 EPYC. Only optimised builds come here: debug builds
//! run [`product_dyn`], whose buffers are on the heap.)
//!
//! # When it is used
//!
//! [`pays`] decides per shape and backend, from
//! `cargo bench -p matrix-benches --bench integers` on a 2-core AVX-512
//! Xeon shared with other builds (so noisy: a difference under about 20%
//! is not one), in an early version of the kernels. Nanoseconds per
//! product, `widened` / `scalar loop`:
//!
//! | shape | backend | `i8` | `u8` | `i16` | `u16` | `u32` |
//! |---|---|---|---|---|---|---|
//! | 4x4x4 | AVX-512 | 9.1 / 20.8 | 10.3 / 19.4 | 11.7 / 14.2 | 10.6 / 11.0 | 3.2 / 13.0 |
//! | 8x8x8 | AVX-512 | 70 / 51 | 42 / 62 | 67 / 57 | 81 / 72 | 57 / 70 |
//! | 12x12x12 | AVX-512 | 209 / 259 | 184 / 253 | 175 / 133 | 159 / 136 | 113 / 191 |
//! | 16x16x16 | AVX-512 | 310 / 1082 | 290 / 1064 | 270 / 680 | 264 / 798 | 227 / 852 |
//! | 16x4x16 | AVX-512 | 96 / 291 | 97 / 292 | 116 / 134 | 97 / 115 | 73 / 176 |
//! | 16x8x16 | AVX-512 | 133 / 503 | 135 / 519 | 172 / 316 | 153 / 306 | 121 / 350 |
//! | 3x5x2 | AVX-512 | 33 / 12 | 37 / 12 | 37 / 8 | 34 / 10 | 33 / 14 |
//! | 4x4x4 | AVX2 | 15 / 20 | 19 / 18 | 17 / 16 | 16 / 18 | 5.7 / 13 |
//! | 8x8x8 | AVX2 | 81 / 89 | 77 / 60 | 69 / 56 | 76 / 50 | 36 / 56 |
//! | 16x16x16 | AVX2 | 341 / 1192 | 316 / 1208 | 373 / 1100 | 278 / 926 | 279 / 697 |
//! | 16x8x16 | AVX2 | 206 / 667 | 164 / 606 | 167 / 371 | 177 / 431 | |
//! | 4x4x4 | SSE2 | 22 / 16 | 24 / 18 | 21 / 12 | 22 / 12 | 17 / 25 |
//! | 8x8x8 | SSE2 | 160 / 91 | 147 / 87 | 159 / 51 | 139 / 46 | 152 / 232 |
//! | 16x16x16 | SSE2 | 1468 / 1153 | 1118 / 963 | 1623 / 765 | 1416 / 732 | 1027 / 2540 |
//! | 16x4x16 | SSE2 | 357 / 217 | 462 / 266 | 368 / 135 | 424 / 120 | 385 / 627 |
//!
//! So the narrow types are widened to `i32` on AVX2 and AVX-512 from 16
//! rows and a depth of 4, never on SSE2, where the loop's 16-bit
//! multiplication outruns the emulated 32-bit one; `u32` on every SIMD
//! backend for 4x4x4, whole vectors of rows, or 8 rows and more. Small and
//! ragged shapes (3x5x2) keep the loop: partial vectors of the kernel go
//! through memory. (The `u32` column was measured with operands and result
//! copied to `i32` buffers; [`product_u32`] now reads and writes them in
//! place, which made a 12x12 `u32` product 6x faster on an AVX2 EPYC, as
//! fast as `i32`'s.)
//!
//! The 4x4x4 row of AVX-512 chose the widening then. Measured again on an
//! AMD EPYC (Zen 5) with the current kernels, the loop, compiled for
//! AVX-512 like the rest of the backend, wins: `i8` 7.35 ns widened
//! against 2.54 ns in order, `i16` 4.21 against 3.42, `a * b + c` of `i8`
//! 7.82 against 2.95. The 4x4x4 product of the narrow types runs in order
//! on every backend.

//! # `i16` and `u16` in their own ring
//!
//! Where the rows of an `i16` or `u16` product fill whole `i16` vectors
//! (16 rows on AVX2 and AVX-512, 8 on SSE2, whose `pmullw` keeps the low
//! 16 bits of each product), [`product_16`] skips the widening and runs
//! the kernel on [`Isa::I16`] over the operands in place (`u16` read as
//! `i16`, the same bits). On an AMD EPYC (Zen 5), default build, the
//! operator `&a * &b`: 16x16 `i16` 60 to 40 ns on AVX-512, 112 to 46 ns
//! on AVX2, 139 to 131 ns on SSE2; 32x32 566 to 301, 1003 to 305 and 4313
//! to 1035 ns. Rows in multiples of eight but not of sixteen run on the
//! eight-lane [`Isa::I16x8`] on AVX2 and AVX-512 (VEX-encoded `vpmullw`):
//! 8x8 `i16` 20.6 to 11.8 ns on AVX2, 8x16x8 22.7 to 19.5 ns; on AVX-512,
//! where LLVM vectorizes the loop as well, 11.9 to 11.4 and 20.7 to 19.6
//! ns. Rows in multiples of 32 run on AVX-512BW's 512-bit `vpmullw`
//! ([`Isa::I16`] there; sixteen rows stay on [`Isa::I16x16`]): 32x32
//! `i16` 302 to 178 ns, `i8` (widened to `i16`) 349 to 222 ns. Other
//! shapes choose as above.
//!
//! # `i8` and `u8` widened to `i16`
//!
//! Where the rows of an `i8` or `u8` product fill whole `i16` vectors and
//! its depth is at least [`MIN_DEPTH`], [`product_8`] widens the operands to
//! `i16` rather than `i32`, and runs the `i16` kernel: twice the lanes per
//! vector, and on SSE2 a native 16-bit multiplication where `i32` has
//! none. On an AMD EPYC (Zen 5), default build, the operator `&a * &b`,
//! before and after (`i32` widening or the loop, then `i16`):
//!
//! | shape | AVX-512 | AVX2 | SSE2 |
//! |---|---|---|---|
//! | 8x8x8 | (in order) | (in order) | 50.5 -> 17.1 ns |
//! | 16x4x16 | 19.8 -> 18.0 ns | 38.5 -> 26.3 ns | 123 -> 40.7 ns |
//! | 16x8x16 | 36.4 -> 31.2 ns | 65.3 -> 37.9 ns | 101 -> 74.9 ns |
//! | 16x16x16 | 55.8 -> 48.1 ns | 109 -> 75.3 ns | 238 -> 145 ns |
//! | 32x32x32 | 586 -> 340 ns | 916 -> 353 ns | 5694 -> 1062 ns |
//!
//! (`u8` within 2% of `i8` in every cell; the `i32` product of 32x32 takes
//! 375 ns on AVX-512.) Rows in an odd multiple of eight are widened to the
//! eight-lane `i16` vectors of AVX2 and AVX-512 from a depth of 17
//! ([`LOOP_DEPTH_8_ROWS`]), where the loop falls behind by 2x to 8x (a
//! 24x24x24 `i8` product 4.5 µs in order, 0.6 µs widened, on an Intel
//! Xeon). Other shapes choose as above.

use super::Isa;
use super::check::check_whole_product;
use super::gemm::{Dims, Operands, gemm_in_order, gemm_with, may, product_i32, product_i64};
use crate::arith::Arith;
use crate::simd::SimdVector;
use crate::simd::dispatch::Backend;
use alloc::vec;
use alloc::vec::Vec;

mod sealed {
    /// Keeps [`super::Widen`] implemented for exactly the types below.
    pub(crate) trait Sealed {}
}

/// An integer element type whose products run on a wider kernel: its
/// wrapping arithmetic is that of `i32` (or, for `i8` and `u8`, of `i16`)
/// truncated to its width, and `as` converts both ways (sign- or
/// zero-extending, then keeping the low bits).
///
/// Sealed: implemented for `i8`, `u8`, `i16` and `u16`.
pub(crate) trait Widen: Arith + Default + sealed::Sealed {}

macro_rules! widen {
    ($($t:ty),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Widen for $t {}
    )*};
}

widen!(i8, u8, i16, u16);

/// The row count a narrow type's product must be a multiple of to be
/// widened: one AVX-512 vector of `i32`, two AVX2 vectors. With fewer or
/// ragged rows the kernel runs partial vectors through memory, and the
/// loop, which vectorizes over 16-bit lanes, was as fast or faster (8x8).
pub(crate) const NARROW_ROWS: usize = 16;

/// The least depth `K` at which a narrow type's product is widened: the
/// conversions cost about what a few steps of the product do. At depth 4
/// (16x4x16) the bytes gained 3x and the 16-bit types were even (one run
/// 15% faster, one 12% slower); at depth 1 (16x1x16) `i16` was 6x slower.
pub(crate) const MIN_DEPTH: usize = 4;

/// Whether the widened product beats the in-order loop for an `m x k` by
/// `k x n` product of a narrow type on backend `S`, as measured (see the
/// module documentation): on AVX2 and AVX-512 (which multiply `i32` lanes
/// in one instruction), products of a multiple of [`NARROW_ROWS`] rows and
/// a depth of at least [`MIN_DEPTH`], whatever the column count; nothing on
/// SSE2, where the loop's 16-bit multiplication outruns the emulated
/// 32-bit one, nor on the scalar backend.
pub(crate) const fn pays<S: Isa>(m: usize, k: usize) -> bool {
    S::BACKEND.implies(Backend::Avx2) && m.is_multiple_of(NARROW_ROWS) && k >= MIN_DEPTH
}

/// Whether the `i32` kernel beats the in-order loop for an `m x k` by
/// `k x n` product of `u32` on backend `S` (see the module documentation):
/// on every SIMD backend, for the 4x4x4 product, products whose `m` rows
/// fill whole `i32` vectors, and every product of 8 rows or more.
const fn u32_pays<S: Isa>(m: usize, k: usize, n: usize) -> bool {
    let four = m == 4 && k == 4 && n == 4;
    !matches!(S::BACKEND, Backend::Scalar)
        && (four || m.is_multiple_of(<S::I32 as SimdVector>::LANES) || m >= 8)
}

/// `out = a * b (+ addend)` for `u32`, wrapping: where [`u32_pays`] says
/// so, the `i32` product of the same bits (the module documentation says
/// why that is exact), run on the operands in place; otherwise the
/// in-order loop. The two give the same result.
#[inline(always)]
pub(crate) fn product_u32<S: Isa, D: Dims>(s: S, p: &Operands<'_, u32>, out: &mut [u32]) {
    if const { may::<D>(u32_pays::<S>(D::M, D::K, D::N)) } && u32_pays::<S>(p.m, p.k, p.n) {
        product_i32::<S, D>(s, &signed(p), signed_mut(out));
    } else {
        gemm_in_order(p, false, out);
    }
}

/// `out = a * b (+ addend)` for `u64`, wrapping: the `i64` product of the
/// same bits, run on the operands in place (exact for the reason
/// [`product_u32`] is).
#[inline(always)]
pub(crate) fn product_u64<S: Isa, D: Dims>(s: S, p: &Operands<'_, u64>, out: &mut [u64]) {
    product_i64::<S, D>(s, &signed(p), signed_mut(out));
}

/// Whether the `i16` kernel (in the 16-bit ring itself, so with nothing
/// to convert) runs a product of `i16` or `u16` with `m` rows on backend
/// `S`: on the SIMD backends, where the rows fill whole vectors of eight
/// lanes (ragged rows would go through memory), whatever the depth and the
/// column count. [`gemm_i16`] chooses the vector.
const fn i16_pays<S: Isa>(m: usize) -> bool {
    !matches!(S::BACKEND, Backend::Scalar) && fills::<S::I16x8>(m)
}

/// Whether `m` rows fill whole vectors of `V`.
const fn fills<V: SimdVector>(m: usize) -> bool {
    m.is_multiple_of(V::LANES)
}

/// The `i16` kernel of backend `S` on the widest of its `i16` vectors
/// whose lanes the rows fill: [`Isa::I16`], [`Isa::I16x16`] (sixteen rows,
/// or an odd multiple of sixteen, on AVX-512), or [`Isa::I16x8`] (an odd
/// multiple of eight, on AVX2 and AVX-512); ragged rows on the last.
#[inline(always)]
fn gemm_i16<S: Isa, D: Dims>(s: S, p: &Operands<'_, i16>, out: &mut [i16]) {
    if const { may::<D>(fills::<S::I16>(D::M)) } && fills::<S::I16>(p.m) {
        gemm_with::<S::I16, false, D>(s, p, out);
    } else if const { may::<D>(fills::<S::I16x16>(D::M) && !fills::<S::I16>(D::M)) }
        && fills::<S::I16x16>(p.m)
    {
        gemm_with::<S::I16x16, false, D>(s, p, out);
    } else if const { may::<D>(!fills::<S::I16x16>(D::M)) } {
        gemm_with::<S::I16x8, false, D>(s, p, out);
    } else {
        unreachable!("a product of the rows its shape gives");
    }
}

/// `out = a * b (+ addend)` for `T` (`i16` or `u16`), wrapping: on the
/// `i16` kernel, over the operands as `i16` (the same bits), where
/// [`i16_pays`] says so, otherwise as [`product`] chooses. The two give
/// the same result: the `i16` kernel computes in the 16-bit ring itself.
#[inline(always)]
pub(crate) fn product_16<S: Isa, T: Widen + Bits16, D: Dims>(
    s: S,
    p: &Operands<'_, T>,
    out: &mut [T],
) {
    if const { may::<D>(i16_pays::<S>(D::M)) } && i16_pays::<S>(p.m) {
        let (p, out) = T::as_i16(p, out);
        gemm_i16::<S, D>(s, &p, out);
    } else {
        product::<S, T, D>(s, p, out);
    }
}

/// [`product_16`] for run-time shapes, for `i16` (`u16` runs it on the
/// same bits): the `i16` kernel where it runs, otherwise [`product_dyn`].
#[inline(always)]
pub(crate) fn product_16_dyn<S: Isa>(s: S, p: &Operands<'_, i16>, out: &mut [i16]) {
    #[cfg(all(debug_assertions, not(matrix_core_opt0)))]
    if i16_pays::<S>(p.m) {
        return gemm_i16::<S, super::gemm::RunTime>(s, p, out);
    }
    product_dyn(s, p, out);
}

/// `i16` and `u16`: their operands as `i16` (the same bits).
pub(crate) trait Bits16: Sized {
    /// `p` and `out` as `i16` operands and result.
    fn as_i16<'a, 'o>(
        p: &Operands<'a, Self>,
        out: &'o mut [Self],
    ) -> (Operands<'a, i16>, &'o mut [i16]);
}

impl Bits16 for i16 {
    #[inline(always)]
    fn as_i16<'a, 'o>(
        p: &Operands<'a, i16>,
        out: &'o mut [i16],
    ) -> (Operands<'a, i16>, &'o mut [i16]) {
        (*p, out)
    }
}

impl Bits16 for u16 {
    #[inline(always)]
    fn as_i16<'a, 'o>(
        p: &Operands<'a, u16>,
        out: &'o mut [u16],
    ) -> (Operands<'a, i16>, &'o mut [i16]) {
        (signed(p), signed_mut(out))
    }
}

mod same_bits {
    /// An unsigned integer type and the signed type of its width: the
    /// same size, alignment and bits, and every bit pattern a value of
    /// both. Sealed: implemented for `u16`, `u32` and `u64` alone, which
    /// the `unsafe` casts below rely on.
    pub(crate) trait Unsigned: Copy {
        /// The signed type of the same width.
        type Signed: Copy;
    }
    impl Unsigned for u16 {
        type Signed = i16;
    }
    impl Unsigned for u32 {
        type Signed = i32;
    }
    impl Unsigned for u64 {
        type Signed = i64;
    }
}
use same_bits::Unsigned;

/// The operands of an unsigned product read as the signed type of the
/// same width: the same shapes, the same bits.
#[inline(always)]
pub(crate) fn signed<'a, U: Unsigned>(p: &Operands<'a, U>) -> Operands<'a, U::Signed> {
    Operands {
        m: p.m,
        ldo: p.ldo,
        k: p.k,
        n: p.n,
        a: signed_slice(p.a),
        b: signed_slice(p.b),
        bt: p.bt,
        addend: p.addend.map(signed_slice),
    }
}

/// `s` read as the signed type of its width, bit for bit.
#[inline(always)]
fn signed_slice<U: Unsigned>(s: &[U]) -> &[U::Signed] {
    // SAFETY: `U` is `u16`, `u32` or `u64` and `U::Signed` the signed type
    // of its width (the sealed `Unsigned`): the same size and alignment,
    // and every bit pattern is a value of both, so `s`'s elements are
    // `s.len()` valid, aligned `U::Signed`s; the result borrows `s` for its
    // lifetime.
    unsafe { core::slice::from_raw_parts(s.as_ptr().cast::<U::Signed>(), s.len()) }
}

/// `s` written as the signed type of its width, bit for bit.
#[inline(always)]
pub(crate) fn signed_mut<U: Unsigned>(s: &mut [U]) -> &mut [U::Signed] {
    // SAFETY: as in `signed_slice`; any `U::Signed` written is a valid `U`,
    // and the result holds `s`'s unique borrow for its lifetime.
    unsafe { core::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<U::Signed>(), s.len()) }
}

/// `out = a * b (+ addend)` for `T`, wrapping: on the `i32` kernel where
/// [`pays`] says so, otherwise with the in-order loop. The two give the
/// same result.
///
/// # Panics
/// If a dimension is zero or a slice is not its shape's length.
#[inline(always)]
pub(crate) fn product<S: Isa, T: Widen, D: Dims>(s: S, p: &Operands<'_, T>, out: &mut [T]) {
    if const { may::<D>(pays::<S>(D::M, D::K)) } && pays::<S>(p.m, p.k) {
        widened::<S, T, D>(s, p, out);
    } else {
        gemm_in_order(p, false, out);
    }
}

/// [`product`] for run-time shapes: the widened product with its buffers on
/// the heap and the `i32` kernel of [`DynKernels`], or the in-order loop.
#[inline(always)]
pub(crate) fn product_dyn<S: Isa, T: Widen>(s: S, p: &Operands<'_, T>, out: &mut [T]) {
    #[cfg(any(matrix_core_opt0, not(debug_assertions)))]
    let _ = s;
    #[cfg(all(debug_assertions, not(matrix_core_opt0)))]
    if pays::<S>(p.m, p.k) {
        return on_heap::<S, T, i32>(s, p, out);
    }
    gemm_in_order(p, false, out);
}

/// Whether an `i8` or `u8` product of `m` rows and depth `k` runs widened
/// to `i16` on backend `S`, on the `i16` kernel: on the SIMD backends,
/// where the rows fill whole vectors of [`Isa::I16x16`] and the product is
/// deep enough to pay for the conversions ([`MIN_DEPTH`]), or where they
/// fill only the eight-lane [`Isa::I16x8`] (an odd multiple of eight rows
/// on AVX2 and AVX-512) and the product is deeper than
/// [`LOOP_DEPTH_8_ROWS`].
const fn pays_16<S: Isa>(m: usize, k: usize) -> bool {
    !matches!(S::BACKEND, Backend::Scalar)
        && ((fills::<S::I16x16>(m) && k >= MIN_DEPTH)
            || (fills::<S::I16x8>(m) && k > LOOP_DEPTH_8_ROWS))
}

/// The deepest `i8` or `u8` product whose rows are an odd multiple of
/// eight that keeps the in-order loop on AVX2 and AVX-512 (deeper ones are
/// widened to the eight-lane `i16` vectors). Up to this depth neither form
/// wins every shape: on an AMD EPYC (Zen 5), 8x16x8 `i8` took 20.3 ns in
/// order against 32.0 ns widened on AVX-512, 23.5 against 28.4 on AVX2; on
/// an Intel Xeon (family 6 model 207, Emerald Rapids; default build, the
/// operator over 16 operands, fastest of 40 rounds, two to three runs, in
/// order then widened), on AVX-512, 8x12x8 54 and 60–62 ns, 8x16x8 68–84
/// and 72–78 ns, 24x16x24 469–498 and 394–420 ns (on AVX2 667–672 and
/// 496–789 ns). Deeper, the loop falls behind whatever the CPU's vectors
/// (same Xeon, in order then widened, AVX-512 and AVX2): 8x20x8 190–203
/// and 84–91 ns, 338–341 and 71–125 ns; 8x32x8 235–237 and 120–136 ns, 412–484 and
/// 113–151 ns; 8x64x8 969–991 and 257–289 ns, 828–929 and 263–411 ns;
/// 24x24x24 4471–4783 and 564–614 ns, 3100–3784 and 692–750 ns; 40x40x40
/// 24.7–26.3 and 9.8–10.7 µs, 21.4–24.9 and 11.2 µs. (At depth 8 the
/// widened product won on this Xeon for 8x8x8, 63 against 43 ns on
/// AVX-512, and lost for 24x8x24, 229–235 against 253–295 ns: not a rule
/// by depth, so shallow products keep the loop.)
const LOOP_DEPTH_8_ROWS: usize = 16;

/// `out = a * b (+ addend)` for `T` (`i8` or `u8`), wrapping: widened to
/// `i16` and run on the `i16` kernel, at twice the lanes of `i32`, where
/// [`pays_16`] says so; otherwise as [`product`] chooses. Exact for the
/// reason widening to `i32` is: reducing modulo 2^8 maps the ring modulo
/// 2^16 onto the ring modulo 2^8.
#[inline(always)]
pub(crate) fn product_8<S: Isa, T: Widen, D: Dims>(s: S, p: &Operands<'_, T>, out: &mut [T]) {
    if const { may::<D>(pays_16::<S>(D::M, D::K)) } && pays_16::<S>(p.m, p.k) {
        widened_16::<S, T, D>(s, p, out);
    } else {
        product::<S, T, D>(s, p, out);
    }
}

/// [`product_8`] for run-time shapes: widened to `i16` with its buffers on
/// the heap where [`pays_16`] says so, otherwise [`product_dyn`].
#[inline(always)]
pub(crate) fn product_8_dyn<S: Isa, T: Widen>(s: S, p: &Operands<'_, T>, out: &mut [T]) {
    #[cfg(all(debug_assertions, not(matrix_core_opt0)))]
    if pays_16::<S>(p.m, p.k) {
        return on_heap::<S, T, i16>(s, p, out);
    }
    product_dyn(s, p, out);
}

/// A type a narrow product is computed in: `i32` for every narrow type,
/// `i16` for `i8` and `u8`.
pub(crate) trait Wide: Arith + Default {
    /// `out = a * b` on backend `S`'s run-time-shape kernel for `Self`.
    fn gemm_dyn<S: Isa>(s: S, p: &Operands<'_, Self>, out: &mut [Self]);
}

impl Wide for i32 {
    #[inline(always)]
    fn gemm_dyn<S: Isa>(s: S, p: &Operands<'_, i32>, out: &mut [i32]) {
        s.gemm_i32(p, out);
    }
}

impl Wide for i16 {
    #[inline(always)]
    fn gemm_dyn<S: Isa>(s: S, p: &Operands<'_, i16>, out: &mut [i16]) {
        s.gemm_i16(p, out);
    }
}

/// `out = a * b (+ addend)` for `T`, always on the `i32` kernel: the
/// operands widened, the product in `i32`, each result truncated back (plus
/// the addend, in `T`).
///
/// # Panics
/// If a dimension is zero or a slice is not its shape's length.
#[inline(always)]
pub(crate) fn widened<S: Isa, T: Widen, D: Dims>(s: S, p: &Operands<'_, T>, out: &mut [T]) {
    widened_to::<S, T, i32, D>(s, p, out, |p32, o32| product_i32::<S, D>(s, p32, o32));
}

/// [`widened`] to `i16`, on the `i16` kernel (for `i8` and `u8`; any
/// shape is exact, and [`pays_16`] says which are fast).
///
/// # Panics
/// If a dimension is zero or a slice is not its shape's length.
#[inline(always)]
pub(crate) fn widened_16<S: Isa, T: Widen, D: Dims>(s: S, p: &Operands<'_, T>, out: &mut [T]) {
    widened_to::<S, T, i16, D>(s, p, out, |p16, o16| gemm_i16::<S, D>(s, p16, o16));
}

/// `out = a * b (+ addend)` for `T`, computed in `W` by `kernel`, with the
/// buffers chosen by size: always-inlined arrays up to [`SMALL`] elements,
/// arrays up to [`MEDIUM`], the heap (and `W`'s run-time-shape kernel)
/// above.
#[inline(always)]
fn widened_to<S: Isa, T: Widen, W: Wide, D: Dims>(
    s: S,
    p: &Operands<'_, T>,
    out: &mut [T],
    kernel: impl FnOnce(&Operands<'_, W>, &mut [W]),
) {
    check_whole_product(p, out);
    let most = most_elements(p.m, p.k, p.n);
    if const { may::<D>(most_elements(D::M, D::K, D::N) <= SMALL) } && most <= SMALL {
        in_arrays::<T, W, SMALL>(p, out, kernel);
    } else if const {
        let known = most_elements(D::M, D::K, D::N);
        may::<D>(SMALL < known && known <= MEDIUM)
    } && most <= MEDIUM
    {
        in_arrays::<T, W, MEDIUM>(p, out, kernel);
    } else if const {
        let known = most_elements(D::M, D::K, D::N);
        may::<D>(size_of::<W>() == 2 && MEDIUM < known && known <= LARGE_16)
    } && size_of::<W>() == 2
        && most <= LARGE_16
    {
        in_arrays::<T, W, LARGE_16>(p, out, kernel);
    } else {
        on_heap::<S, T, W>(s, p, out);
    }
}

/// The elements of the largest of a product's three matrices.
const fn most_elements(m: usize, k: usize, n: usize) -> usize {
    let (a, b, c) = (m * k, k * n, m * n);
    let ab = if a > b { a } else { b };
    if ab > c { ab } else { c }
}

/// The most elements per buffer of the always-inlined arrays: 8x8.
const SMALL: usize = 64;

/// The most elements per buffer on the stack: 16x16 (three buffers, 3 KiB
/// in `i32`).
const MEDIUM: usize = 256;

/// The most elements per buffer on the stack when they are `i16`: 32x32
/// (three buffers, 6 KiB).
const LARGE_16: usize = 1024;

/// The widened product with its buffers in arrays of `CAP` elements of `W`.
#[inline(always)]
fn in_arrays<T: Widen, W: Wide, const CAP: usize>(
    p: &Operands<'_, T>,
    out: &mut [T],
    kernel: impl FnOnce(&Operands<'_, W>, &mut [W]),
) {
    let mut aw = [W::default(); CAP];
    let mut bw = [W::default(); CAP];
    let mut ow = [W::default(); CAP];
    let (aw, bw, ow) = (
        &mut aw[..p.m * p.k],
        &mut bw[..p.k * p.n],
        &mut ow[..p.m * p.n],
    );
    widen_into(p.a, aw);
    widen_into(p.b, bw);
    kernel(&wide_operands(p, aw, bw), ow);
    narrow_into(ow, p.addend, out);
}

/// The widened product with its buffers on the heap and `W`'s run-time-shape
/// kernel.
#[inline(never)]
fn on_heap<S: Isa, T: Widen, W: Wide>(s: S, p: &Operands<'_, T>, out: &mut [T]) {
    check_whole_product(p, out);
    let aw: Vec<W> = p.a.iter().map(|&x| x.cast_to()).collect();
    let bw: Vec<W> = p.b.iter().map(|&x| x.cast_to()).collect();
    let mut ow = vec![W::default(); p.m * p.n];
    W::gemm_dyn(s, &wide_operands(p, &aw, &bw), &mut ow);
    narrow_into(&ow, p.addend, out);
}

/// `p`'s shape with `a` and `b` (its operands widened) and no addend: the
/// addend is added in `T`, after narrowing.
#[inline(always)]
fn wide_operands<'w, T, W>(p: &Operands<'_, T>, a: &'w [W], b: &'w [W]) -> Operands<'w, W> {
    Operands {
        m: p.m,
        ldo: p.m,
        k: p.k,
        n: p.n,
        a,
        b,
        bt: p.bt,
        addend: None,
    }
}

/// `dst[i] = src[i] as W`.
#[inline(always)]
fn widen_into<T: Widen, W: Wide>(src: &[T], dst: &mut [W]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = s.cast_to();
    }
}

/// `out[i] = src[i] as T`, plus `addend[i]` in `T` (wrapping).
#[inline(always)]
fn narrow_into<T: Widen, W: Wide>(src: &[W], addend: Option<&[T]>, out: &mut [T]) {
    match addend {
        None => {
            for (o, &s) in out.iter_mut().zip(src) {
                *o = s.cast_to();
            }
        }
        Some(c) => {
            for ((o, &s), &c) in out.iter_mut().zip(src).zip(c) {
                *o = s.cast_to::<T>().add(c);
            }
        }
    }
}
