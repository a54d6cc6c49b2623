//! The SSE2 backend: 128-bit vectors, the x86-64 baseline. No FMA (a
//! multiply-add is two roundings); 32-bit integer multiplication is
//! emulated with `pmuludq` and shuffles, since `pmulld` is SSE4.1.

use core::arch::x86_64::*;

use super::SimdVector;

x86_vector! {
    /// Four `f32` lanes in an `__m128`.
    F32x4(__m128) of f32, 4 lanes, needs Sse2;
    set1 _mm_set1_ps, loadu _mm_loadu_ps, storeu _mm_storeu_ps;
    add _mm_add_ps, sub _mm_sub_ps, mul _mm_mul_ps, mul_add separate;
}
x86_div!(F32x4, _mm_div_ps);
x86_group4!(F32x4 needs Sse2, |p| _mm_loadu_ps(p), dup_ps);

x86_vector! {
    /// Two `f64` lanes in an `__m128d`.
    F64x2(__m128d) of f64, 2 lanes, needs Sse2;
    set1 _mm_set1_pd, loadu _mm_loadu_pd, storeu _mm_storeu_pd;
    add _mm_add_pd, sub _mm_sub_pd, mul _mm_mul_pd, mul_add separate;
}
x86_div!(F64x2, _mm_div_pd);

x86_vector! {
    /// Four `i32` lanes in an `__m128i`; arithmetic wraps.
    I32x4(__m128i) of i32, 4 lanes, needs Sse2;
    set1 _mm_set1_epi32, loadu _mm_loadu_si128, storeu _mm_storeu_si128;
    add _mm_add_epi32, sub _mm_sub_epi32, mul mullo_epi32, mul_add separate;
}
x86_group4!(I32x4 needs Sse2, |p| _mm_loadu_si128(p.cast()), _mm_shuffle_epi32);

x86_vector! {
    /// Eight `i16` lanes in an `__m128i`; arithmetic wraps (`pmullw` keeps
    /// the low 16 bits of each product).
    I16x8(__m128i) of i16, 8 lanes, needs Sse2;
    set1 _mm_set1_epi16, loadu _mm_loadu_si128, storeu _mm_storeu_si128;
    add _mm_add_epi16, sub _mm_sub_epi16, mul _mm_mullo_epi16, mul_add separate;
}

/// Lane `IMM`'s pattern of `_mm_shuffle_ps` with both sources the same.
///
/// # Safety
/// The CPU must support SSE2.
#[inline(always)]
unsafe fn dup_ps<const IMM: i32>(a: __m128) -> __m128 {
    // SAFETY: the caller guarantees SSE2.
    unsafe { _mm_shuffle_ps::<IMM>(a, a) }
}

/// The low 32 bits of each lane's product: the 64-bit products of lanes 0
/// and 2, then of lanes 1 and 3, interleaved back.
///
/// # Safety
/// The CPU must support SSE2.
#[inline(always)]
unsafe fn mullo_epi32(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: the caller guarantees SSE2.
    unsafe {
        let p02 = _mm_mul_epu32(a, b);
        let p13 = _mm_mul_epu32(_mm_srli_epi64::<32>(a), _mm_srli_epi64::<32>(b));
        _mm_unpacklo_epi32(
            _mm_shuffle_epi32::<0b00_00_10_00>(p02),
            _mm_shuffle_epi32::<0b00_00_10_00>(p13),
        )
    }
}

x86_in_lanes!(F32x4, _mm_shuffle_ps, |t, src, first, _step| Self::load(
    t, src, first
));

/// Transposes a 4x4 `f32` [`Tile`](super::Tile): four loads, eight
/// shuffles, four stores ([`transpose_by_lanes`](super::transpose_by_lanes)).
#[inline(always)]
pub(crate) fn transpose_4x4_f32_strided<T: super::Token>(t: T, tile: super::Tile<'_, '_, f32, 4>) {
    super::transpose_by_lanes::<F32x4<T>, 4>(t, tile);
}

/// Transposes a column-major 4x4 `f32` matrix (eight shuffles).
#[inline(always)]
pub(crate) fn transpose_4x4_f32<T: super::Token>(t: T, src: &[f32; 16]) -> [f32; 16] {
    let mut out = [0.0; 16];
    transpose_4x4_f32_strided(t, super::Tile::new(src, (0, 4), &mut out, (0, 4)));
    out
}

/// [`transpose_4x4_f32_strided`] for an 8x8 [`Tile`](super::Tile), as four
/// 4x4 tiles.
#[inline(always)]
pub(crate) fn transpose_8x8_f32_strided<T: super::Token>(
    t: T,
    mut tile: super::Tile<'_, '_, f32, 8>,
) {
    for c in [0, 4] {
        for r in [0, 4] {
            transpose_4x4_f32_strided(t, tile.sub(r, c));
        }
    }
}

/// Transposes a 4x4 `f64` [`Tile`](super::Tile), as four 2x2 tiles:
/// eight loads, eight shuffles, eight stores.
#[inline(always)]
pub(crate) fn transpose_4x4_f64_strided<T: super::Token>(t: T, tile: super::Tile<'_, '_, f64, 4>) {
    let (src, src_stride, dst, dst_stride) = tile.parts();
    for c in (0..4).step_by(2) {
        for r in (0..4).step_by(2) {
            // Rows r and r + 1 of columns c and c + 1.
            let a = F64x2::load(t, src, c * src_stride + r);
            let b = F64x2::load(t, src, (c + 1) * src_stride + r);
            // SAFETY: the vectors exist, so SSE2 is supported.
            let (lo, hi) = unsafe { (_mm_unpacklo_pd(a.0, b.0), _mm_unpackhi_pd(a.0, b.0)) };
            F64x2(lo, t).store(dst, r * dst_stride + c);
            F64x2(hi, t).store(dst, (r + 1) * dst_stride + c);
        }
    }
}

/// An element type of 8 or 16 bits whose every bit pattern is a value
/// (`u8`, `u16`): the tiles below move its elements as bits, and may write
/// any lane into a `&mut [Self]`.
pub(crate) trait Narrow: Copy {}
impl Narrow for u8 {}
impl Narrow for u16 {}

/// The unpacks of one stage of [`transpose_narrow_strided`]: of each pair
/// of registers, the low halves' lanes of `W` bytes interleaved (into the
/// first half of the result), and the high halves' (into the second).
///
/// # Safety
/// The CPU must support SSE2.
#[inline(always)]
unsafe fn unpack_stage<const N: usize, const W: usize>(regs: [__m128i; N]) -> [__m128i; N] {
    // Every lane is written below. (A loop over both halves, or
    // `array::from_fn`, was left rolled by LLVM at 16 registers, with every
    // register spilled.)
    let mut out = regs;
    for i in 0..N / 2 {
        let (a, b) = (regs[2 * i], regs[2 * i + 1]);
        // SAFETY: the caller guarantees SSE2.
        let (lo, hi) = unsafe {
            match W {
                1 => (_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b)),
                2 => (_mm_unpacklo_epi16(a, b), _mm_unpackhi_epi16(a, b)),
                4 => (_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b)),
                _ => (_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b)),
            }
        };
        out[i] = lo;
        out[i + N / 2] = hi;
    }
    out
}

/// Transposes an `N x N` [`Tile`](super::Tile) of `E`, where a column of
/// `N` elements fills a 128-bit register (16 `u8`, 8 `u16`): `N` loads,
/// one stage of `N` unpacks per doubling of the lane width up to 64 bits
/// (3 for `u16`, 4 for `u8`), `N` stores. After the stages, register `k`
/// holds row `k` with the bits of its index reversed.
#[inline(always)]
pub(crate) fn transpose_narrow_strided<T: super::Token, E: Narrow, const N: usize>(
    t: T,
    tile: super::Tile<'_, '_, E, N>,
) {
    requires!(T, Sse2);
    const { assert!(N * size_of::<E>() == 16 && N.is_power_of_two()) };
    let _ = t;
    let (src, src_stride, dst, dst_stride) = tile.parts();
    let columns: [__m128i; N] = core::array::from_fn(|c| {
        let column = &src[c * src_stride..][..N];
        // SAFETY: `t` proves SSE2 (checked above); `column` is `N`
        // elements, 16 readable bytes.
        unsafe { _mm_loadu_si128(column.as_ptr().cast()) }
    });
    // SAFETY: `t` proves SSE2, as above.
    let rows = unsafe {
        let regs = if size_of::<E>() == 1 {
            unpack_stage::<N, 1>(columns)
        } else {
            columns
        };
        unpack_stage::<N, 8>(unpack_stage::<N, 4>(unpack_stage::<N, 2>(regs)))
    };
    let order: [usize; N] = const { bit_reversed() };
    for (v, r) in rows.into_iter().zip(order) {
        let row = &mut dst[r * dst_stride..][..N];
        // SAFETY: SSE2 as above; `row` is `N` elements, 16 writable bytes,
        // and the bits written are lanes of `E` read from `src`, of a type
        // whose every bit pattern is a value (`Narrow`).
        unsafe { _mm_storeu_si128(row.as_mut_ptr().cast(), v) }
    }
}

/// `0..N` with the bits of each index reversed (`N` a power of two): which
/// row each register holds after the stages of [`transpose_narrow_strided`].
const fn bit_reversed<const N: usize>() -> [usize; N] {
    let mut out = [0; N];
    let mut k = 0;
    while k < N {
        out[k] = k.reverse_bits() >> (usize::BITS - N.trailing_zeros());
        k += 1;
    }
    out
}

/// [`transpose_narrow_strided`] for an 8x8 block of `u8`: each column is a
/// 64-bit load, the three stages unpack pairs of columns into registers of
/// two rows each (12 unpacks), and each row is a 64-bit store.
#[inline(always)]
pub(crate) fn transpose_8x8_u8_strided<T: super::Token>(t: T, tile: super::Tile<'_, '_, u8, 8>) {
    requires!(T, Sse2);
    let _ = t;
    let (src, src_stride, dst, dst_stride) = tile.parts();
    let columns: [__m128i; 8] = core::array::from_fn(|c| {
        let column = &src[c * src_stride..][..8];
        // SAFETY: `t` proves SSE2 (checked above); `column` is 8 readable
        // bytes, which `_mm_loadl_epi64` reads (the high half is zeroed).
        unsafe { _mm_loadl_epi64(column.as_ptr().cast()) }
    });
    // SAFETY: `t` proves SSE2, as above.
    let rows = unsafe {
        // Columns 2i and 2i + 1 interleaved: their rows 0 to 7 in 16 bytes.
        let pairs: [__m128i; 4] =
            core::array::from_fn(|i| _mm_unpacklo_epi8(columns[2 * i], columns[2 * i + 1]));
        // Lanes of 16 bits of two pairs: rows 0 to 3 of four columns, then
        // rows 4 to 7.
        let quads = [
            _mm_unpacklo_epi16(pairs[0], pairs[1]),
            _mm_unpackhi_epi16(pairs[0], pairs[1]),
            _mm_unpacklo_epi16(pairs[2], pairs[3]),
            _mm_unpackhi_epi16(pairs[2], pairs[3]),
        ];
        // Lanes of 32 bits of the two quads of the same rows: two whole
        // rows each, rows 0 and 1, 2 and 3, 4 and 5, 6 and 7.
        [
            _mm_unpacklo_epi32(quads[0], quads[2]),
            _mm_unpackhi_epi32(quads[0], quads[2]),
            _mm_unpacklo_epi32(quads[1], quads[3]),
            _mm_unpackhi_epi32(quads[1], quads[3]),
        ]
    };
    for (i, v) in rows.into_iter().enumerate() {
        for half in 0..2 {
            let row = &mut dst[(2 * i + half) * dst_stride..][..8];
            // SAFETY: SSE2 as above; `row` is 8 writable bytes, which
            // `_mm_storel_epi64` writes, and any byte is a `u8`.
            unsafe {
                let v = if half == 0 {
                    v
                } else {
                    _mm_unpackhi_epi64(v, v)
                };
                _mm_storel_epi64(row.as_mut_ptr().cast(), v);
            }
        }
    }
}
