//! The AVX2 backend: 256-bit vectors with FMA.
//!
//! Compiled only when the build enables `avx2` and `fma`, so each intrinsic
//! below is supported by the CPU that runs it: that is the invariant every
//! `// SAFETY:` comment of this module refers to as "AVX2 is enabled".
//! `mul_add` is a true FMA for `f32` and `f64` (`vfmadd`); for `i32` it is
//! `vpmulld` then `vpaddd`. Partial loads and stores copy through a stack
//! buffer (no masked moves).

use core::arch::x86_64::*;

use super::{Group4, SimdFloat, SimdVector, sealed::Sealed, sse2::partial};

/// Eight `f32` lanes in an `__m256`.
#[derive(Clone, Copy, Debug)]
pub struct F32Vec(pub __m256);
/// Four `f64` lanes in an `__m256d`.
#[derive(Clone, Copy, Debug)]
pub struct F64Vec(pub __m256d);
/// Eight `i32` lanes in an `__m256i`; arithmetic wraps.
#[derive(Clone, Copy, Debug)]
pub struct I32Vec(pub __m256i);

impl Sealed for F32Vec {}
impl Sealed for F64Vec {}
impl Sealed for I32Vec {}

impl SimdVector for F32Vec {
    type Elem = f32;
    const LANES: usize = 8;
    const FUSED: bool = true;

    #[inline(always)]
    fn splat(x: f32) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_set1_ps(x) })
    }
    #[inline(always)]
    fn load(src: &[f32], offset: usize) -> Self {
        let s = &src[offset..offset + 8];
        // SAFETY: AVX2 is enabled; `s` holds 8 readable f32, loaded unaligned.
        Self(unsafe { _mm256_loadu_ps(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [f32], offset: usize) {
        let d = &mut dst[offset..offset + 8];
        // SAFETY: AVX2 is enabled; `d` holds 8 writable f32, stored unaligned.
        unsafe { _mm256_storeu_ps(d.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[f32], offset: usize, n: usize) -> Self {
        Self::load(&partial::<f32, 8>(src, offset, n), 0)
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [f32], offset: usize, n: usize) {
        super::check_lanes(n, 8);
        let mut buf = [0.0; 8];
        self.store(&mut buf, 0);
        dst[offset..offset + n].copy_from_slice(&buf[..n]);
    }
    #[inline(always)]
    fn broadcast(src: &[f32], index: usize) -> Self {
        let x = &src[index];
        // SAFETY: AVX2 is enabled; `x` is a valid reference (vbroadcastss).
        Self(unsafe { _mm256_broadcast_ss(x) })
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_add_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_sub_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_mul_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX2 and FMA are enabled.
        Self(unsafe { _mm256_fmadd_ps(self.0, b.0, c.0) })
    }
}

impl Group4 for F32Vec {
    #[inline(always)]
    fn broadcast_x4(src: &[f32], offset: usize) -> Self {
        let s = &src[offset..offset + 4];
        // SAFETY: AVX2 is enabled; `s` holds 4 readable f32, loaded
        // unaligned, then repeated in both 128-bit halves.
        Self(unsafe {
            let x = _mm_loadu_ps(s.as_ptr());
            _mm256_set_m128(x, x)
        })
    }
    #[inline(always)]
    fn dup_in_x4<const L: usize>(self) -> Self {
        const { assert!(L < 4, "lane index within a group of four") };
        // SAFETY: AVX2 is enabled.
        Self(unsafe {
            match L {
                0 => _mm256_permute_ps::<0x00>(self.0),
                1 => _mm256_permute_ps::<0x55>(self.0),
                2 => _mm256_permute_ps::<0xAA>(self.0),
                _ => _mm256_permute_ps::<0xFF>(self.0),
            }
        })
    }
}

impl SimdVector for F64Vec {
    type Elem = f64;
    const LANES: usize = 4;
    const FUSED: bool = true;

    #[inline(always)]
    fn splat(x: f64) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_set1_pd(x) })
    }
    #[inline(always)]
    fn load(src: &[f64], offset: usize) -> Self {
        let s = &src[offset..offset + 4];
        // SAFETY: AVX2 is enabled; `s` holds 4 readable f64, loaded unaligned.
        Self(unsafe { _mm256_loadu_pd(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [f64], offset: usize) {
        let d = &mut dst[offset..offset + 4];
        // SAFETY: AVX2 is enabled; `d` holds 4 writable f64, stored unaligned.
        unsafe { _mm256_storeu_pd(d.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[f64], offset: usize, n: usize) -> Self {
        Self::load(&partial::<f64, 4>(src, offset, n), 0)
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [f64], offset: usize, n: usize) {
        super::check_lanes(n, 4);
        let mut buf = [0.0; 4];
        self.store(&mut buf, 0);
        dst[offset..offset + n].copy_from_slice(&buf[..n]);
    }
    #[inline(always)]
    fn broadcast(src: &[f64], index: usize) -> Self {
        let x = &src[index];
        // SAFETY: AVX2 is enabled; `x` is a valid reference (vbroadcastsd).
        Self(unsafe { _mm256_broadcast_sd(x) })
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_add_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_sub_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_mul_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        // SAFETY: AVX2 and FMA are enabled.
        Self(unsafe { _mm256_fmadd_pd(self.0, b.0, c.0) })
    }
}

impl Group4 for F64Vec {
    #[inline(always)]
    fn broadcast_x4(src: &[f64], offset: usize) -> Self {
        Self::load(src, offset)
    }
    #[inline(always)]
    fn dup_in_x4<const L: usize>(self) -> Self {
        const { assert!(L < 4, "lane index within a group of four") };
        // SAFETY: AVX2 is enabled.
        Self(unsafe {
            match L {
                0 => _mm256_permute4x64_pd::<0x00>(self.0),
                1 => _mm256_permute4x64_pd::<0x55>(self.0),
                2 => _mm256_permute4x64_pd::<0xAA>(self.0),
                _ => _mm256_permute4x64_pd::<0xFF>(self.0),
            }
        })
    }
}

impl SimdVector for I32Vec {
    type Elem = i32;
    const LANES: usize = 8;
    const FUSED: bool = false;

    #[inline(always)]
    fn splat(x: i32) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_set1_epi32(x) })
    }
    #[inline(always)]
    fn load(src: &[i32], offset: usize) -> Self {
        let s = &src[offset..offset + 8];
        // SAFETY: AVX2 is enabled; `s` holds 32 readable bytes, loaded
        // unaligned.
        Self(unsafe { _mm256_loadu_si256(s.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [i32], offset: usize) {
        let d = &mut dst[offset..offset + 8];
        // SAFETY: AVX2 is enabled; `d` holds 32 writable bytes, stored
        // unaligned.
        unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[i32], offset: usize, n: usize) -> Self {
        Self::load(&partial::<i32, 8>(src, offset, n), 0)
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [i32], offset: usize, n: usize) {
        super::check_lanes(n, 8);
        let mut buf = [0; 8];
        self.store(&mut buf, 0);
        dst[offset..offset + n].copy_from_slice(&buf[..n]);
    }
    #[inline(always)]
    fn broadcast(src: &[i32], index: usize) -> Self {
        Self::splat(src[index])
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_add_epi32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_sub_epi32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_mullo_epi32(self.0, rhs.0) })
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
        // SAFETY: AVX2 is enabled; `s` holds 16 readable bytes, loaded
        // unaligned, then repeated in both 128-bit halves.
        Self(unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(s.as_ptr().cast())) })
    }
    #[inline(always)]
    fn dup_in_x4<const L: usize>(self) -> Self {
        const { assert!(L < 4, "lane index within a group of four") };
        // SAFETY: AVX2 is enabled.
        Self(unsafe {
            match L {
                0 => _mm256_shuffle_epi32::<0x00>(self.0),
                1 => _mm256_shuffle_epi32::<0x55>(self.0),
                2 => _mm256_shuffle_epi32::<0xAA>(self.0),
                _ => _mm256_shuffle_epi32::<0xFF>(self.0),
            }
        })
    }
}

/// Transposes a column-major 4x4 matrix: two 256-bit loads, six shuffles,
/// two stores.
#[inline]
pub fn transpose_4x4_f32(src: &[f32; 16]) -> [f32; 16] {
    let v01 = F32Vec::load(src, 0).0; // columns 0 and 1
    let v23 = F32Vec::load(src, 8).0; // columns 2 and 3
    // SAFETY: AVX2 is enabled.
    let (lo, hi) = unsafe {
        let idx = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        // [a0 b0 a1 b1 | a2 b2 a3 b3] and [c0 d0 c1 d1 | c2 d2 c3 d3]
        let p = _mm256_castps_pd(_mm256_permutevar8x32_ps(v01, idx));
        let q = _mm256_castps_pd(_mm256_permutevar8x32_ps(v23, idx));
        // rows 0, 2 and rows 1, 3 as columns
        let r02 = _mm256_unpacklo_pd(p, q);
        let r13 = _mm256_unpackhi_pd(p, q);
        (
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x20>(r02, r13)),
            _mm256_castpd_ps(_mm256_permute2f128_pd::<0x31>(r02, r13)),
        )
    };
    let mut out = [0.0; 16];
    F32Vec(lo).store(&mut out, 0);
    F32Vec(hi).store(&mut out, 8);
    out
}

/// Transposes a column-major 8x8 matrix: 24 shuffles.
#[inline]
pub fn transpose_8x8_f32(src: &[f32; 64]) -> [f32; 64] {
    let c: [__m256; 8] = core::array::from_fn(|j| F32Vec::load(src, 8 * j).0);
    // SAFETY: AVX2 is enabled.
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
    let mut out = [0.0; 64];
    for (j, v) in r.into_iter().enumerate() {
        F32Vec(v).store(&mut out, 8 * j);
    }
    out
}

pub use super::sse2::transpose_4x4_f32_strided;

impl SimdFloat for F32Vec {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_div_ps(self.0, rhs.0) })
    }
}

impl SimdFloat for F64Vec {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        // SAFETY: AVX2 is enabled.
        Self(unsafe { _mm256_div_pd(self.0, rhs.0) })
    }
}
