//! The AVX2 backend: 256-bit vectors with FMA, and 128-bit vectors with
//! FMA and `pmulld` for columns of four rows. The AVX-512 backend uses
//! these too (its tokens imply AVX2).
//!
//! The 256-bit vectors have [`SimdVector::opaque`]'s `asm!` block, which
//! keeps LLVM from merging two of them into a 512-bit operation where the
//! `avx512` backend runs them. The 128-bit ones have none: they gained
//! nothing from it (4x4 `f32` products on an AMD EPYC Zen 4).

use core::arch::x86_64::*;

use super::SimdVector;

x86_vector! {
    /// Four `f32` lanes in an `__m128`, VEX-encoded, with FMA.
    F32x4(__m128) of f32, 4 lanes, needs Avx2;
    set1 _mm_set1_ps, loadu _mm_loadu_ps, storeu _mm_storeu_ps;
    add _mm_add_ps, sub _mm_sub_ps, mul _mm_mul_ps, mul_add fma(_mm_fmadd_ps);
}
x86_div!(F32x4, _mm_div_ps);
x86_group4!(F32x4 needs Avx2, |p| _mm_loadu_ps(p), _mm_permute_ps);

x86_vector! {
    /// Eight `f32` lanes in an `__m256`.
    F32x8(__m256) of f32, 8 lanes, needs Avx2;
    set1 _mm256_set1_ps, loadu _mm256_loadu_ps, storeu _mm256_storeu_ps;
    add _mm256_add_ps, sub _mm256_sub_ps, mul _mm256_mul_ps, mul_add fma(_mm256_fmadd_ps);
    opaque ymm_reg, "avx";
}
x86_div!(F32x8, _mm256_div_ps);
x86_group4!(
    F32x8 needs Avx2,
    |p| {
        let x = _mm_loadu_ps(p);
        _mm256_set_m128(x, x)
    },
    _mm256_permute_ps
);

x86_vector! {
    /// Four `f64` lanes in an `__m256d`.
    F64x4(__m256d) of f64, 4 lanes, needs Avx2;
    set1 _mm256_set1_pd, loadu _mm256_loadu_pd, storeu _mm256_storeu_pd;
    add _mm256_add_pd, sub _mm256_sub_pd, mul _mm256_mul_pd, mul_add fma(_mm256_fmadd_pd);
    opaque ymm_reg, "avx";
}
x86_div!(F64x4, _mm256_div_pd);

x86_vector! {
    /// Eight `i32` lanes in an `__m256i`; arithmetic wraps.
    I32x8(__m256i) of i32, 8 lanes, needs Avx2;
    set1 _mm256_set1_epi32, loadu _mm256_loadu_si256, storeu _mm256_storeu_si256;
    add _mm256_add_epi32, sub _mm256_sub_epi32, mul _mm256_mullo_epi32, mul_add separate;
    opaque ymm_reg, "avx";
}
x86_group4!(
    I32x8 needs Avx2,
    |p| _mm256_broadcastsi128_si256(_mm_loadu_si128(p.cast())),
    _mm256_shuffle_epi32
);

x86_vector! {
    /// Sixteen `i16` lanes in an `__m256i`; arithmetic wraps (`vpmullw`
    /// keeps the low 16 bits of each product).
    I16x16(__m256i) of i16, 16 lanes, needs Avx2;
    set1 _mm256_set1_epi16, loadu _mm256_loadu_si256, storeu _mm256_storeu_si256;
    add _mm256_add_epi16, sub _mm256_sub_epi16, mul _mm256_mullo_epi16, mul_add separate;
    opaque ymm_reg, "avx";
}

x86_vector! {
    /// Eight `i16` lanes in an `__m128i`, VEX-encoded; arithmetic wraps:
    /// columns of eight rows.
    I16x8(__m128i) of i16, 8 lanes, needs Avx2;
    set1 _mm_set1_epi16, loadu _mm_loadu_si128, storeu _mm_storeu_si128;
    add _mm_add_epi16, sub _mm_sub_epi16, mul _mm_mullo_epi16, mul_add separate;
}

x86_vector! {
    /// Four `i64` lanes in an `__m256i`; arithmetic wraps (AVX2 has no
    /// 64-bit multiplication: [`mullo_epi64`] builds it from 32-bit ones).
    I64x4(__m256i) of i64, 4 lanes, needs Avx2;
    set1 _mm256_set1_epi64x, loadu _mm256_loadu_si256, storeu _mm256_storeu_si256;
    add _mm256_add_epi64, sub _mm256_sub_epi64, mul mullo_epi64, mul_add separate;
    opaque ymm_reg, "avx";
}
x86_group4!(I64x4 needs Avx2, |p| _mm256_loadu_si256(p.cast()), _mm256_permute4x64_epi64);

/// The low 64 bits of each lane's product. With `a = ah * 2^32 + al` and
/// `b` likewise, `a * b = al * bl + (al * bh + ah * bl) * 2^32` modulo
/// 2^64 (the `ah * bh` term is shifted out): `vpmuludq` gives the full
/// `al * bl`, one `vpmulld` on `b` with its halves swapped gives the two
/// cross products' low halves, which are added and shifted up.
///
/// # Safety
/// The CPU must support AVX2.
#[inline(always)]
unsafe fn mullo_epi64(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller guarantees AVX2.
    unsafe {
        let low = _mm256_mul_epu32(a, b);
        // Lane halves (al * bh, ah * bl), each modulo 2^32.
        let cross = _mm256_mullo_epi32(a, _mm256_shuffle_epi32::<0b10_11_00_01>(b));
        // al * bh + ah * bl in the low half of each lane, then moved up.
        let sum = _mm256_add_epi32(cross, _mm256_srli_epi64::<32>(cross));
        _mm256_add_epi64(low, _mm256_slli_epi64::<32>(sum))
    }
}

/// Transposes a column-major 4x4 `f32` matrix: two 256-bit loads, six
/// shuffles, two stores.
#[inline(always)]
pub(crate) fn transpose_4x4_f32<T: super::Token>(t: T, src: &[f32; 16]) -> [f32; 16] {
    let v01 = F32x8::load(t, src, 0); // columns 0 and 1
    let v23 = F32x8::load(t, src, 8); // columns 2 and 3
    // SAFETY: the vectors exist, so AVX2 is supported.
    let (lo, hi) = unsafe {
        let idx = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        // [a0 b0 a1 b1 | a2 b2 a3 b3] and [c0 d0 c1 d1 | c2 d2 c3 d3]
        let p = _mm256_castps_pd(_mm256_permutevar8x32_ps(v01.0, idx));
        let q = _mm256_castps_pd(_mm256_permutevar8x32_ps(v23.0, idx));
        // rows 0, 2 and rows 1, 3 as columns
        let r02 = _mm256_unpacklo_pd(p, q);
        let r13 = _mm256_unpackhi_pd(p, q);
        (
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x20>(r02, r13)),
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x31>(r02, r13)),
        )
    };
    let mut out = [0.0; 16];
    F32x8(lo, t).store(&mut out, 0);
    F32x8(hi, t).store(&mut out, 8);
    out
}

tile_by_build! {
    /// Transposes an 8x8 `f32` [`Tile`](super::Tile); a tile of a larger
    /// transpose.
    /// From half columns ([`transpose_8x8_f32_from_halves`]: twice the loads,
    /// two thirds of the shuffles), but from whole columns
    /// ([`transpose_8x8_f32_from_columns`]) where `matrix-core` has debug
    /// assertions: there each load is checked (the intrinsics' `ub_checks`, the
    /// offsets' overflow checks), and in a debug build whose `matrix-core` is
    /// optimised an 8x8 `f32` `transpose_to` on this backend took 78 ns from
    /// halves against 48 ns from columns (AVX-512 Xeon, AVX2 forced).
    transpose_8x8_f32_strided(8):
        checked transpose_8x8_f32_from_columns,
        plain transpose_8x8_f32_from_halves
}

/// [`transpose_8x8_f32_strided`] from half columns: sixteen 128-bit
/// loads (eight of them folded into `vinsertf128`, which does not need the
/// shuffle port), sixteen in-lane shuffles, eight stores. Each 256-bit
/// register holds half a column in each 128-bit lane (columns `j` and
/// `j + 4`), so two in-lane 4x4 transposes leave whole rows of the
/// result, and no shuffle crosses lanes. Half of the shuffles are
/// `vshufps`, which recent Intel cores run on two ports (the unpacks and
/// lane crossings on one): on an AVX-512 Xeon, with this
/// backend forced, a release build's 8x8 `f32` `transpose_to` takes 7.6
/// ns from whole columns ([`transpose_8x8_f32_from_columns`]) and 5.0 to
/// 5.2 ns this way, and a 16x16 one (four tiles) 30.5 ns against 16.3 to
/// 16.8 ns. The tile is [`transpose_by_lanes`](super::transpose_by_lanes).
#[inline(always)]
pub(crate) fn transpose_8x8_f32_from_halves<T: super::Token>(
    t: T,
    tile: super::Tile<'_, '_, f32, 8>,
) {
    super::transpose_by_lanes::<F32x8<T>, 8>(t, tile);
}

x86_in_lanes!(F32x8, _mm256_shuffle_ps, |t, src, first, step| {
    let (lo, hi) = (
        F32x4::load(t, src, first).0,
        F32x4::load(t, src, first + step).0,
    );
    // SAFETY: the loads made vectors, so AVX2 is supported.
    F32x8(unsafe { _mm256_set_m128(hi, lo) }, t)
});

/// [`transpose_8x8_f32_strided`] from whole columns: eight loads, 24
/// shuffles (eight unpacks, eight `vshufps`, eight lane permutes), eight
/// stores.
#[inline(always)]
pub(crate) fn transpose_8x8_f32_from_columns<T: super::Token>(
    t: T,
    tile: super::Tile<'_, '_, f32, 8>,
) {
    let (src, src_stride, dst, dst_stride) = tile.parts();
    let mut c = [F32x8::zero(t).0; 8];
    for (j, col) in c.iter_mut().enumerate() {
        *col = F32x8::load(t, src, j * src_stride).0;
    }
    // SAFETY: the loads above made vectors, so AVX2 is supported.
    let r = unsafe {
        let t0 = _mm256_unpacklo_ps(c[0], c[1]);
        let t1 = _mm256_unpackhi_ps(c[0], c[1]);
        let t2 = _mm256_unpacklo_ps(c[2], c[3]);
        let t3 = _mm256_unpackhi_ps(c[2], c[3]);
        let t4 = _mm256_unpacklo_ps(c[4], c[5]);
        let t5 = _mm256_unpackhi_ps(c[4], c[5]);
        let t6 = _mm256_unpacklo_ps(c[6], c[7]);
        let t7 = _mm256_unpackhi_ps(c[6], c[7]);
        let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let s5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let s7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        [
            _mm256_permute2f128_ps::<0x20>(s0, s4),
            _mm256_permute2f128_ps::<0x20>(s1, s5),
            _mm256_permute2f128_ps::<0x20>(s2, s6),
            _mm256_permute2f128_ps::<0x20>(s3, s7),
            _mm256_permute2f128_ps::<0x31>(s0, s4),
            _mm256_permute2f128_ps::<0x31>(s1, s5),
            _mm256_permute2f128_ps::<0x31>(s2, s6),
            _mm256_permute2f128_ps::<0x31>(s3, s7),
        ]
    };
    for (j, v) in r.iter().enumerate() {
        F32x8(*v, t).store(dst, j * dst_stride);
    }
}

/// Transposes a 4x4 `f64` [`Tile`](super::Tile): eight 128-bit loads
/// (four of them folded into `vinsertf128`, which does not need the
/// shuffle port), four shuffles, four stores.
#[inline(always)]
pub(crate) fn transpose_4x4_f64_strided<T: super::Token>(t: T, tile: super::Tile<'_, '_, f64, 4>) {
    requires!(T, Avx2);
    let (src, src_stride, dst, dst_stride) = tile.parts();
    // Rows `r` and `r + 1` of column `c`.
    let half = |c: usize, r: usize| super::sse2::F64x2::load(t, src, c * src_stride + r).0;
    // SAFETY: `T` implies AVX2 (checked above) and a token exists only on a
    // CPU that has its backend.
    let rows = unsafe {
        // Rows 0 and 1 of columns 0 and 2, of columns 1 and 3; then rows 2
        // and 3 of the same.
        let x0 = _mm256_set_m128d(half(2, 0), half(0, 0));
        let x1 = _mm256_set_m128d(half(3, 0), half(1, 0));
        let x2 = _mm256_set_m128d(half(2, 2), half(0, 2));
        let x3 = _mm256_set_m128d(half(3, 2), half(1, 2));
        [
            _mm256_unpacklo_pd(x0, x1),
            _mm256_unpackhi_pd(x0, x1),
            _mm256_unpacklo_pd(x2, x3),
            _mm256_unpackhi_pd(x2, x3),
        ]
    };
    for (r, v) in rows.iter().enumerate() {
        F64x4(*v, t).store(dst, r * dst_stride);
    }
}
