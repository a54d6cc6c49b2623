//! The SSE2 backend: 128-bit vectors, the `x86_64` baseline.
//!
//! Compiled only when the build enables `sse2` (every `x86_64` target), so
//! each intrinsic below is supported by the CPU that runs it: that is the
//! invariant every `// SAFETY:` comment of this module refers to as
//! "SSE2 is enabled". SSE2 has no FMA: `mul_add` is a multiplication then an
//! addition, unless the build also enables the `fma` target feature (the
//! module is then used for 128-bit work inside the AVX backends), in which
//! case it is `vfmadd` and `FUSED` is `true`. `i32` multiplication uses `pmulld` when the build enables
//! SSE4.1, otherwise two `pmuludq` and shuffles.

use core::arch::x86_64::*;

use super::{Group4, SimdFloat, SimdVector, sealed::Sealed};

/// Four `f32` lanes in an `__m128`.
#[derive(Clone, Copy, Debug)]
pub struct F32Vec(pub __m128);
/// Two `f64` lanes in an `__m128d`.
#[derive(Clone, Copy, Debug)]
pub struct F64Vec(pub __m128d);
/// Four `i32` lanes in an `__m128i`; arithmetic wraps.
#[derive(Clone, Copy, Debug)]
pub struct I32Vec(pub __m128i);

impl Sealed for F32Vec {}
impl Sealed for F64Vec {}
impl Sealed for I32Vec {}

/// Copies `src[offset..offset + n]` into a zeroed array of `N` lanes.
#[inline(always)]
pub(crate) fn partial<T: Copy + Default, const N: usize>(
    src: &[T],
    offset: usize,
    n: usize,
) -> [T; N] {
    super::check_lanes(n, N);
    let mut buf = [T::default(); N];
    buf[..n].copy_from_slice(&src[offset..offset + n]);
    buf
}

impl SimdVector for F32Vec {
    type Elem = f32;
    const LANES: usize = 4;
    const FUSED: bool = cfg!(target_feature = "fma");

    #[inline(always)]
    fn splat(x: f32) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_set1_ps(x) })
    }
    #[inline(always)]
    fn load(src: &[f32], offset: usize) -> Self {
        let s = &src[offset..offset + 4];
        // SAFETY: SSE2 is enabled; `s` holds 4 readable f32, loaded unaligned.
        Self(unsafe { _mm_loadu_ps(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [f32], offset: usize) {
        let d = &mut dst[offset..offset + 4];
        // SAFETY: SSE2 is enabled; `d` holds 4 writable f32, stored unaligned.
        unsafe { _mm_storeu_ps(d.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[f32], offset: usize, n: usize) -> Self {
        Self::load(&partial::<f32, 4>(src, offset, n), 0)
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [f32], offset: usize, n: usize) {
        super::check_lanes(n, 4);
        let mut buf = [0.0; 4];
        self.store(&mut buf, 0);
        dst[offset..offset + n].copy_from_slice(&buf[..n]);
    }
    #[inline(always)]
    fn broadcast(src: &[f32], index: usize) -> Self {
        Self::splat(src[index])
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_add_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_sub_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_mul_ps(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        #[cfg(target_feature = "fma")]
        // SAFETY: FMA is enabled by this cfg.
        let r = Self(unsafe { _mm_fmadd_ps(self.0, b.0, c.0) });
        #[cfg(not(target_feature = "fma"))]
        let r = self.mul_then_add(b, c);
        r
    }
}

impl Group4 for F32Vec {
    #[inline(always)]
    fn broadcast_x4(src: &[f32], offset: usize) -> Self {
        Self::load(src, offset)
    }
    #[inline(always)]
    fn dup_in_x4<const L: usize>(self) -> Self {
        const { assert!(L < 4, "lane index within a group of four") };
        // SAFETY: SSE2 is enabled.
        Self(unsafe {
            match L {
                0 => _mm_shuffle_ps::<0x00>(self.0, self.0),
                1 => _mm_shuffle_ps::<0x55>(self.0, self.0),
                2 => _mm_shuffle_ps::<0xAA>(self.0, self.0),
                _ => _mm_shuffle_ps::<0xFF>(self.0, self.0),
            }
        })
    }
}

impl SimdVector for F64Vec {
    type Elem = f64;
    const LANES: usize = 2;
    const FUSED: bool = cfg!(target_feature = "fma");

    #[inline(always)]
    fn splat(x: f64) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_set1_pd(x) })
    }
    #[inline(always)]
    fn load(src: &[f64], offset: usize) -> Self {
        let s = &src[offset..offset + 2];
        // SAFETY: SSE2 is enabled; `s` holds 2 readable f64, loaded unaligned.
        Self(unsafe { _mm_loadu_pd(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [f64], offset: usize) {
        let d = &mut dst[offset..offset + 2];
        // SAFETY: SSE2 is enabled; `d` holds 2 writable f64, stored unaligned.
        unsafe { _mm_storeu_pd(d.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[f64], offset: usize, n: usize) -> Self {
        Self::load(&partial::<f64, 2>(src, offset, n), 0)
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [f64], offset: usize, n: usize) {
        super::check_lanes(n, 2);
        let mut buf = [0.0; 2];
        self.store(&mut buf, 0);
        dst[offset..offset + n].copy_from_slice(&buf[..n]);
    }
    #[inline(always)]
    fn broadcast(src: &[f64], index: usize) -> Self {
        Self::splat(src[index])
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_add_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_sub_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_mul_pd(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        #[cfg(target_feature = "fma")]
        // SAFETY: FMA is enabled by this cfg.
        let r = Self(unsafe { _mm_fmadd_pd(self.0, b.0, c.0) });
        #[cfg(not(target_feature = "fma"))]
        let r = self.mul_then_add(b, c);
        r
    }
}

impl SimdVector for I32Vec {
    type Elem = i32;
    const LANES: usize = 4;
    const FUSED: bool = false;

    #[inline(always)]
    fn splat(x: i32) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_set1_epi32(x) })
    }
    #[inline(always)]
    fn load(src: &[i32], offset: usize) -> Self {
        let s = &src[offset..offset + 4];
        // SAFETY: SSE2 is enabled; `s` holds 16 readable bytes, loaded
        // unaligned (`loadu` has no alignment requirement).
        Self(unsafe { _mm_loadu_si128(s.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, dst: &mut [i32], offset: usize) {
        let d = &mut dst[offset..offset + 4];
        // SAFETY: SSE2 is enabled; `d` holds 16 writable bytes, stored
        // unaligned.
        unsafe { _mm_storeu_si128(d.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn load_partial(src: &[i32], offset: usize, n: usize) -> Self {
        Self::load(&partial::<i32, 4>(src, offset, n), 0)
    }
    #[inline(always)]
    fn store_partial(self, dst: &mut [i32], offset: usize, n: usize) {
        super::check_lanes(n, 4);
        let mut buf = [0; 4];
        self.store(&mut buf, 0);
        dst[offset..offset + n].copy_from_slice(&buf[..n]);
    }
    #[inline(always)]
    fn broadcast(src: &[i32], index: usize) -> Self {
        Self::splat(src[index])
    }
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_add_epi32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_sub_epi32(self.0, rhs.0) })
    }
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        #[cfg(target_feature = "sse4.1")]
        // SAFETY: SSE4.1 is enabled by this cfg.
        let r = unsafe { _mm_mullo_epi32(self.0, rhs.0) };
        #[cfg(not(target_feature = "sse4.1"))]
        // SAFETY: SSE2 is enabled. Low 32 bits of the 64-bit products of
        // lanes 0 and 2, then of lanes 1 and 3, interleaved back.
        let r = unsafe {
            let (a, b) = (self.0, rhs.0);
            let p02 = _mm_mul_epu32(a, b);
            let p13 = _mm_mul_epu32(_mm_srli_epi64::<32>(a), _mm_srli_epi64::<32>(b));
            _mm_unpacklo_epi32(
                _mm_shuffle_epi32::<0b00_00_10_00>(p02),
                _mm_shuffle_epi32::<0b00_00_10_00>(p13),
            )
        };
        Self(r)
    }
    #[inline(always)]
    fn mul_add(self, b: Self, c: Self) -> Self {
        self.mul_then_add(b, c)
    }
}

impl Group4 for I32Vec {
    #[inline(always)]
    fn broadcast_x4(src: &[i32], offset: usize) -> Self {
        Self::load(src, offset)
    }
    #[inline(always)]
    fn dup_in_x4<const L: usize>(self) -> Self {
        const { assert!(L < 4, "lane index within a group of four") };
        // SAFETY: SSE2 is enabled.
        Self(unsafe {
            match L {
                0 => _mm_shuffle_epi32::<0x00>(self.0),
                1 => _mm_shuffle_epi32::<0x55>(self.0),
                2 => _mm_shuffle_epi32::<0xAA>(self.0),
                _ => _mm_shuffle_epi32::<0xFF>(self.0),
            }
        })
    }
}

/// Transposes four columns held in registers (`_MM_TRANSPOSE4_PS`).
#[inline(always)]
pub(crate) fn transpose4(c: [__m128; 4]) -> [__m128; 4] {
    // SAFETY: SSE2 is enabled.
    unsafe {
        let t0 = _mm_unpacklo_ps(c[0], c[1]);
        let t1 = _mm_unpacklo_ps(c[2], c[3]);
        let t2 = _mm_unpackhi_ps(c[0], c[1]);
        let t3 = _mm_unpackhi_ps(c[2], c[3]);
        [
            _mm_movelh_ps(t0, t1),
            _mm_movehl_ps(t1, t0),
            _mm_movelh_ps(t2, t3),
            _mm_movehl_ps(t3, t2),
        ]
    }
}

/// Transposes a column-major 4x4 matrix (eight shuffles).
#[inline]
pub fn transpose_4x4_f32(src: &[f32; 16]) -> [f32; 16] {
    let cols = core::array::from_fn(|j| F32Vec::load(src, 4 * j).0);
    let t = transpose4(cols);
    let mut out = [0.0; 16];
    for (j, v) in t.into_iter().enumerate() {
        F32Vec(v).store(&mut out, 4 * j);
    }
    out
}

/// Transposes a column-major 8x8 matrix as four 4x4 tiles.
#[inline]
pub fn transpose_8x8_f32(src: &[f32; 64]) -> [f32; 64] {
    let mut out = [0.0; 64];
    for tj in 0..2 {
        for ti in 0..2 {
            transpose_4x4_f32_strided(src, tj * 32 + ti * 4, 8, &mut out, ti * 32 + tj * 4, 8);
        }
    }
    out
}

/// Transposes the 4x4 block whose element `(r, c)` is
/// `src[src_offset + c * src_stride + r]` into the block whose element
/// `(c, r)` is `dst[dst_offset + r * dst_stride + c]`: a tile of a strided
/// column-major transpose.
///
/// # Panics
/// If a block is not inside its slice.
#[inline]
pub fn transpose_4x4_f32_strided(
    src: &[f32],
    src_offset: usize,
    src_stride: usize,
    dst: &mut [f32],
    dst_offset: usize,
    dst_stride: usize,
) {
    let cols = core::array::from_fn(|j| F32Vec::load(src, src_offset + j * src_stride).0);
    let t = transpose4(cols);
    for (j, v) in t.into_iter().enumerate() {
        F32Vec(v).store(dst, dst_offset + j * dst_stride);
    }
}

impl SimdFloat for F32Vec {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_div_ps(self.0, rhs.0) })
    }
}

impl SimdFloat for F64Vec {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        // SAFETY: SSE2 is enabled.
        Self(unsafe { _mm_div_pd(self.0, rhs.0) })
    }
}
