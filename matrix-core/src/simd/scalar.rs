//! The portable backend: plain arrays of four lanes and loops.
//!
//! It is the reference the other backends are tested against, the backend of
//! every non-x86 target, and the one the `force-scalar` feature selects.
//! Four lanes keep the kernels' register tiling meaningful, and LLVM
//! vectorizes the loops where the target allows. It contains no `unsafe`.
//!
//! `mul_add` is a true FMA (`f32::mul_add`) only when the build enables the
//! `fma` target feature; otherwise it is a multiplication then an addition
//! (a software FMA would be far slower than the unfused form).

use super::{Group4, SimdFloat, SimdVector, sealed::Sealed};

macro_rules! scalar_vector {
    ($(#[$doc:meta])* $name:ident, $t:ty, $lanes:expr, $fused:expr,
     add: $add:expr, sub: $sub:expr, mul: $mul:expr, fma: $fma:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name(pub [$t; $lanes]);

        impl Sealed for $name {}

        impl $name {
            #[inline(always)]
            fn zip(self, rhs: Self, f: impl Fn($t, $t) -> $t) -> Self {
                let mut out = self.0;
                for (o, r) in out.iter_mut().zip(rhs.0) {
                    *o = f(*o, r);
                }
                Self(out)
            }
        }

        impl SimdVector for $name {
            type Elem = $t;
            const LANES: usize = $lanes;
            const FUSED: bool = $fused;

            #[inline(always)]
            fn splat(x: $t) -> Self {
                Self([x; $lanes])
            }
            #[inline(always)]
            fn load(src: &[$t], offset: usize) -> Self {
                let mut out = [<$t>::default(); $lanes];
                out.copy_from_slice(&src[offset..offset + $lanes]);
                Self(out)
            }
            #[inline(always)]
            fn store(self, dst: &mut [$t], offset: usize) {
                dst[offset..offset + $lanes].copy_from_slice(&self.0);
            }
            #[inline(always)]
            fn load_partial(src: &[$t], offset: usize, n: usize) -> Self {
                super::check_lanes(n, $lanes);
                let mut out = [<$t>::default(); $lanes];
                out[..n].copy_from_slice(&src[offset..offset + n]);
                Self(out)
            }
            #[inline(always)]
            fn store_partial(self, dst: &mut [$t], offset: usize, n: usize) {
                super::check_lanes(n, $lanes);
                dst[offset..offset + n].copy_from_slice(&self.0[..n]);
            }
            #[inline(always)]
            fn broadcast(src: &[$t], index: usize) -> Self {
                Self::splat(src[index])
            }
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self.zip(rhs, $add)
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self.zip(rhs, $sub)
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                self.zip(rhs, $mul)
            }
            #[inline(always)]
            fn mul_add(self, b: Self, c: Self) -> Self {
                let mut out = self.0;
                for ((o, b), c) in out.iter_mut().zip(b.0).zip(c.0) {
                    *o = ($fma)(*o, b, c);
                }
                Self(out)
            }
        }

        impl Group4 for $name {
            #[inline(always)]
            fn broadcast_x4(src: &[$t], offset: usize) -> Self {
                let g = &src[offset..offset + 4];
                Self(core::array::from_fn(|i| g[i % 4]))
            }
            #[inline(always)]
            fn dup_in_x4<const L: usize>(self) -> Self {
                const { assert!(L < 4, "lane index within a group of four") };
                Self(core::array::from_fn(|i| self.0[i / 4 * 4 + L]))
            }
        }
    };
}

const FMA: bool = cfg!(target_feature = "fma");

#[inline(always)]
fn fma32(a: f32, b: f32, c: f32) -> f32 {
    if FMA { a.mul_add(b, c) } else { a * b + c }
}

#[inline(always)]
fn fma64(a: f64, b: f64, c: f64) -> f64 {
    if FMA { a.mul_add(b, c) } else { a * b + c }
}

scalar_vector!(
    /// Four `f32` lanes.
    F32Vec, f32, 4, FMA,
    add: |a, b| a + b, sub: |a, b| a - b, mul: |a, b| a * b, fma: fma32
);
scalar_vector!(
    /// Four `f64` lanes.
    F64Vec, f64, 4, FMA,
    add: |a, b| a + b, sub: |a, b| a - b, mul: |a, b| a * b, fma: fma64
);
scalar_vector!(
    /// Four `i32` lanes; arithmetic wraps.
    I32Vec, i32, 4, false,
    add: i32::wrapping_add, sub: i32::wrapping_sub, mul: i32::wrapping_mul,
    fma: |a: i32, b: i32, c: i32| a.wrapping_mul(b).wrapping_add(c)
);

/// Transposes a column-major 4x4 matrix.
#[inline]
pub fn transpose_4x4_f32(src: &[f32; 16]) -> [f32; 16] {
    core::array::from_fn(|i| src[(i % 4) * 4 + i / 4])
}

/// Transposes a column-major 8x8 matrix.
#[inline]
pub fn transpose_8x8_f32(src: &[f32; 64]) -> [f32; 64] {
    core::array::from_fn(|i| src[(i % 8) * 8 + i / 8])
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
    let src = &src[src_offset..src_offset + 3 * src_stride + 4];
    let dst = &mut dst[dst_offset..dst_offset + 3 * dst_stride + 4];
    for c in 0..4 {
        for r in 0..4 {
            dst[r * dst_stride + c] = src[c * src_stride + r];
        }
    }
}

impl SimdFloat for F32Vec {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        self.zip(rhs, |a, b| a / b)
    }
}

impl SimdFloat for F64Vec {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        self.zip(rhs, |a, b| a / b)
    }
}
