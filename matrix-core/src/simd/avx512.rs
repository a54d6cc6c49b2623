//! The AVX-512 backend: 512-bit vectors, FMA and mask registers
//! (`avx512f` only, stable `std::arch` since Rust 1.89).
//!
//! Compiled only when the build enables `avx512f` (with `avx2` and `fma`),
//! so each intrinsic below is supported by the CPU that runs it: that is the
//! invariant every `// SAFETY:` comment of this module refers to as
//! "AVX-512F is enabled". `mul_add` is a true FMA for `f32` and `f64`; for
//! `i32` it is `vpmulld` then `vpaddd`. Partial loads and stores are masked
//! moves, which neither read nor write the lanes outside the mask (masked-off
//! lanes never fault).
//!
//! The AVX-512 intrinsics are stable since Rust 1.89, the workspace's
//! `rust-version`.

use core::arch::x86_64::*;

use super::{Group4, SimdFloat, SimdVector, sealed::Sealed};

/// Sixteen `f32` lanes in an `__m512`.
#[derive(Clone, Copy, Debug)]
pub struct F32Vec(pub __m512);
/// Eight `f64` lanes in an `__m512d`.
#[derive(Clone, Copy, Debug)]
pub struct F64Vec(pub __m512d);
/// Sixteen `i32` lanes in an `__m512i`; arithmetic wraps.
#[derive(Clone, Copy, Debug)]
pub struct I32Vec(pub __m512i);

impl Sealed for F32Vec {}
impl Sealed for F64Vec {}
impl Sealed for I32Vec {}

/// The mask of the first `n` of `lanes` lanes, checking `n <= lanes`.
#[inline(always)]
fn first(n: usize, lanes: usize) -> u16 {
    super::check_lanes(n, lanes);
    ((1u32 << n) - 1) as u16
}

impl SimdVector for F32Vec {
    type Elem = f32;
    const LANES: usize = 16;
    const FUSED: bool = true;

    #[inline(always)]
    fn splat(x: f32) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_set1_ps(x) })
    }
    #[inline(always)]
    fn load(src: &[f32], offset: usize) -> Self {
        let s = &src[offset..offset + 16];
        // SAFETY: AVX-512F is enabled; `s` holds 16 readable f32, loaded
        // unaligned.
        Self(unsafe { _mm512_loadu_ps(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [f32], offset: usize) {
        let d = &mut dst[offset..offset + 16];
        // SAFETY: AVX-512F is enabled; `d` holds 16 writable f32, stored
        // unaligned.
        unsafe { _mm512_storeu_ps(d.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[f32], offset: usize, n: usize) -> Self {
        let k = first(n, 16);
        let s = &src[offset..offset + n];
        // SAFETY: AVX-512F is enabled; the mask selects the first `n` lanes
        // and `s` holds `n` readable f32; masked-off lanes are not accessed.
        Self(unsafe { _mm512_maskz_loadu_ps(k, s.as_ptr()) })
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [f32], offset: usize, n: usize) {
        let k = first(n, 16);
        let d = &mut dst[offset..offset + n];
        // SAFETY: AVX-512F is enabled; the mask selects the first `n` lanes
        // and `d` holds `n` writable f32; masked-off lanes are not accessed.
        unsafe { _mm512_mask_storeu_ps(d.as_mut_ptr(), k, self.0) }
    }
    #[inline(always)]
    fn broadcast(src: &[f32], index: usize) -> Self {
        Self::splat(src[index])
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_add_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_sub_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_mul_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_fmadd_ps(self.0, b.0, c.0) })
    }
}

impl Group4 for F32Vec {
    #[inline(always)]
    fn broadcast_x4(src: &[f32], offset: usize) -> Self {
        let s = &src[offset..offset + 4];
        // SAFETY: AVX-512F is enabled; `s` holds 4 readable f32, loaded
        // unaligned, then repeated in the four 128-bit lanes.
        Self(unsafe { _mm512_broadcast_f32x4(_mm_loadu_ps(s.as_ptr())) })
    }
    #[inline(always)]
    fn dup_in_x4<const L: usize>(self) -> Self {
        const { assert!(L < 4, "lane index within a group of four") };
        // SAFETY: AVX-512F is enabled.
        Self(unsafe {
            match L {
                0 => _mm512_permute_ps::<0x00>(self.0),
                1 => _mm512_permute_ps::<0x55>(self.0),
                2 => _mm512_permute_ps::<0xAA>(self.0),
                _ => _mm512_permute_ps::<0xFF>(self.0),
            }
        })
    }
}

impl SimdVector for F64Vec {
    type Elem = f64;
    const LANES: usize = 8;
    const FUSED: bool = true;

    #[inline(always)]
    fn splat(x: f64) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_set1_pd(x) })
    }
    #[inline(always)]
    fn load(src: &[f64], offset: usize) -> Self {
        let s = &src[offset..offset + 8];
        // SAFETY: AVX-512F is enabled; `s` holds 8 readable f64, loaded
        // unaligned.
        Self(unsafe { _mm512_loadu_pd(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [f64], offset: usize) {
        let d = &mut dst[offset..offset + 8];
        // SAFETY: AVX-512F is enabled; `d` holds 8 writable f64, stored
        // unaligned.
        unsafe { _mm512_storeu_pd(d.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[f64], offset: usize, n: usize) -> Self {
        let k = first(n, 8) as u8;
        let s = &src[offset..offset + n];
        // SAFETY: AVX-512F is enabled; the mask selects the first `n` lanes
        // and `s` holds `n` readable f64; masked-off lanes are not accessed.
        Self(unsafe { _mm512_maskz_loadu_pd(k, s.as_ptr()) })
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [f64], offset: usize, n: usize) {
        let k = first(n, 8) as u8;
        let d = &mut dst[offset..offset + n];
        // SAFETY: AVX-512F is enabled; the mask selects the first `n` lanes
        // and `d` holds `n` writable f64; masked-off lanes are not accessed.
        unsafe { _mm512_mask_storeu_pd(d.as_mut_ptr(), k, self.0) }
    }
    #[inline(always)]
    fn broadcast(src: &[f64], index: usize) -> Self {
        Self::splat(src[index])
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_add_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_sub_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_mul_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_fmadd_pd(self.0, b.0, c.0) })
    }
}

impl Group4 for F64Vec {
    #[inline(always)]
    fn broadcast_x4(src: &[f64], offset: usize) -> Self {
        let s = &src[offset..offset + 4];
        // SAFETY: AVX-512F is enabled; `s` holds 4 readable f64, loaded
        // unaligned, then repeated in both 256-bit halves.
        Self(unsafe { _mm512_broadcast_f64x4(_mm256_loadu_pd(s.as_ptr())) })
    }
    #[inline(always)]
    fn dup_in_x4<const L: usize>(self) -> Self {
        const { assert!(L < 4, "lane index within a group of four") };
        // SAFETY: AVX-512F is enabled.
        Self(unsafe {
            match L {
                0 => _mm512_permutex_pd::<0x00>(self.0),
                1 => _mm512_permutex_pd::<0x55>(self.0),
                2 => _mm512_permutex_pd::<0xAA>(self.0),
                _ => _mm512_permutex_pd::<0xFF>(self.0),
            }
        })
    }
}

impl SimdVector for I32Vec {
    type Elem = i32;
    const LANES: usize = 16;
    const FUSED: bool = false;

    #[inline(always)]
    fn splat(x: i32) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_set1_epi32(x) })
    }
    #[inline(always)]
    fn load(src: &[i32], offset: usize) -> Self {
        let s = &src[offset..offset + 16];
        // SAFETY: AVX-512F is enabled; `s` holds 64 readable bytes, loaded
        // unaligned.
        Self(unsafe { _mm512_loadu_epi32(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [i32], offset: usize) {
        let d = &mut dst[offset..offset + 16];
        // SAFETY: AVX-512F is enabled; `d` holds 64 writable bytes, stored
        // unaligned.
        unsafe { _mm512_storeu_epi32(d.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[i32], offset: usize, n: usize) -> Self {
        let k = first(n, 16);
        let s = &src[offset..offset + n];
        // SAFETY: AVX-512F is enabled; the mask selects the first `n` lanes
        // and `s` holds `n` readable i32; masked-off lanes are not accessed.
        Self(unsafe { _mm512_maskz_loadu_epi32(k, s.as_ptr()) })
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [i32], offset: usize, n: usize) {
        let k = first(n, 16);
        let d = &mut dst[offset..offset + n];
        // SAFETY: AVX-512F is enabled; the mask selects the first `n` lanes
        // and `d` holds `n` writable i32; masked-off lanes are not accessed.
        unsafe { _mm512_mask_storeu_epi32(d.as_mut_ptr(), k, self.0) }
    }
    #[inline(always)]
    fn broadcast(src: &[i32], index: usize) -> Self {
        Self::splat(src[index])
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_add_epi32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_sub_epi32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_mullo_epi32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        self.mul_then_add(b, c)
    }
}

impl Group4 for I32Vec {
    #[inline(always)]
    fn broadcast_x4(src: &[i32], offset: usize) -> Self {
        let s = &src[offset..offset + 4];
        // SAFETY: AVX-512F is enabled; `s` holds 16 readable bytes, loaded
        // unaligned, then repeated in the four 128-bit lanes.
        Self(unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(s.as_ptr().cast())) })
    }
    #[inline(always)]
    fn dup_in_x4<const L: usize>(self) -> Self {
        const { assert!(L < 4, "lane index within a group of four") };
        // SAFETY: AVX-512F is enabled.
        Self(unsafe {
            match L {
                0 => _mm512_shuffle_epi32::<0x00>(self.0),
                1 => _mm512_shuffle_epi32::<0x55>(self.0),
                2 => _mm512_shuffle_epi32::<0xAA>(self.0),
                _ => _mm512_shuffle_epi32::<0xFF>(self.0),
            }
        })
    }
}

/// The lane indices that gather output lane `l` of a two-source permute.
const fn idx(f: [i32; 16]) -> __m512i {
    // SAFETY: `[i32; 16]` and `__m512i` have the same size and every bit
    // pattern is valid for both.
    unsafe { core::mem::transmute::<[i32; 16], __m512i>(f) }
}

/// Transposes a column-major 4x4 matrix: one load, one `vpermps`, one store.
#[inline]
pub fn transpose_4x4_f32(src: &[f32; 16]) -> [f32; 16] {
    const T: __m512i = idx([0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15]);
    let v = F32Vec::load(src, 0).0;
    // SAFETY: AVX-512F is enabled.
    let t = unsafe { _mm512_permutexvar_ps(T, v) };
    let mut out = [0.0; 16];
    F32Vec(t).store(&mut out, 0);
    out
}

/// The index vector of stage `s` of [`transpose_8x8_f32`] (see there).
const fn t8_index(stage: usize, half: usize) -> [i32; 16] {
    let mut out = [0i32; 16];
    let mut l = 0;
    while l < 16 {
        // Stage 0: from the registers holding columns 4p..4p+4 of the
        // input (two registers, columns 2q, 2q+1 each), gather the 4x4 block
        // rows 4h..4h+4 x those four columns, column-major within the block:
        // lane l is (row 4h + l % 4, column l / 4 of the block).
        // Stage 1: from the two stage-0 blocks of rows 4h..4h+4 (columns
        // 0..4 in the first source, 4..8 in the second), gather output
        // columns 2o, 2o+1 with o = 2h + half: lane l is output
        // (row l % 8, column 2o + l / 8) = input (row 2o + l / 8,
        // column l % 8).
        let v = if stage == 0 {
            let (r, c) = (4 * half + l % 4, l / 4);
            // c in 0..4 of the pair: register c / 2, lane (c % 2) * 8 + r
            (c / 2) * 16 + (c % 2) * 8 + r
        } else {
            let (r, c) = (2 * half + l / 8, l % 8);
            // row r of the block rows 4h..: r % 4; column c: source c / 4
            (c / 4) * 16 + (c % 4) * 4 + r % 4
        };
        out[l] = v as i32;
        l += 1;
    }
    out
}

/// Transposes a column-major 8x8 matrix: four loads, eight two-source
/// permutes (`vpermt2ps`), four stores.
#[inline]
pub fn transpose_8x8_f32(src: &[f32; 64]) -> [f32; 64] {
    const S0H0: __m512i = idx(t8_index(0, 0));
    const S0H1: __m512i = idx(t8_index(0, 1));
    const S1H0: __m512i = idx(t8_index(1, 0));
    const S1H1: __m512i = idx(t8_index(1, 1));
    let z: [__m512; 4] = core::array::from_fn(|q| F32Vec::load(src, 16 * q).0);
    // SAFETY: AVX-512F is enabled.
    let out = unsafe {
        // blocks (rows 0..4 | 4..8) x (columns 0..4 | 4..8)
        let b00 = _mm512_permutex2var_ps(z[0], S0H0, z[1]);
        let b10 = _mm512_permutex2var_ps(z[0], S0H1, z[1]);
        let b01 = _mm512_permutex2var_ps(z[2], S0H0, z[3]);
        let b11 = _mm512_permutex2var_ps(z[2], S0H1, z[3]);
        [
            _mm512_permutex2var_ps(b00, S1H0, b01),
            _mm512_permutex2var_ps(b00, S1H1, b01),
            _mm512_permutex2var_ps(b10, S1H0, b11),
            _mm512_permutex2var_ps(b10, S1H1, b11),
        ]
    };
    let mut o = [0.0; 64];
    for (q, v) in out.into_iter().enumerate() {
        F32Vec(v).store(&mut o, 16 * q);
    }
    o
}

pub use super::sse2::transpose_4x4_f32_strided;

impl SimdFloat for F32Vec {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_div_ps(self.0, rhs.0) })
    }
}

impl SimdFloat for F64Vec {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        // SAFETY: AVX-512F is enabled.
        Self(unsafe { _mm512_div_pd(self.0, rhs.0) })
    }
}
