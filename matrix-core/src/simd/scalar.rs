//! The portable backend: plain arrays of four lanes and loops.
//!
//! It is the reference the other backends are tested against, the backend of
//! every non-x86 target, and the one the `force-scalar` feature selects.
//! Four lanes keep the kernels' register tiling meaningful, and LLVM
//! vectorizes the loops where the target allows. It contains no `unsafe`,
//! and never fuses: `mul_add` is a multiplication then an addition (a
//! software FMA would be far slower than the unfused form).

use super::{Group4, Sealed, SimdFloat, SimdVector, Token};

macro_rules! scalar_vector {
    ($(#[$doc:meta])* $name:ident, $t:ty,
     add: $add:expr, sub: $sub:expr, mul: $mul:expr) => {
        $(#[$doc])*
        ///
        /// Portable: usable with any backend's token.
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $name<T>([$t; 4], T);

        impl<T> Sealed for $name<T> {}

        impl<T: Copy> $name<T> {
            #[inline(always)]
            fn zip(self, rhs: Self, f: impl Fn($t, $t) -> $t) -> Self {
                let mut out = self.0;
                for (o, r) in out.iter_mut().zip(rhs.0) {
                    *o = f(*o, r);
                }
                Self(out, self.1)
            }
        }

        impl<T: Token> SimdVector for $name<T> {
            type Elem = $t;
            type Token = T;
            const LANES: usize = 4;
            const FUSED: bool = false;

            #[inline(always)]
            fn splat(t: T, x: $t) -> Self {
                Self([x; 4], t)
            }
            #[inline(always)]
            fn load(t: T, src: &[$t], offset: usize) -> Self {
                let mut out = [<$t>::default(); 4];
                out.copy_from_slice(&src[offset..offset + 4]);
                Self(out, t)
            }
            #[inline(always)]
            fn store(self, dst: &mut [$t], offset: usize) {
                dst[offset..offset + 4].copy_from_slice(&self.0);
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
                self.mul_then_add(b, c)
            }
        }

        impl<T: Token> Group4 for $name<T> {
            #[inline(always)]
            fn broadcast_x4(t: T, src: &[$t], offset: usize) -> Self {
                Self::load(t, src, offset)
            }
            #[inline(always)]
            fn dup_in_x4<const L: usize>(self) -> Self {
                const { assert!(L < 4, "lane index within a group of four") };
                Self([self.0[L]; 4], self.1)
            }
        }
    };
}

scalar_vector!(
    /// Four `f32` lanes.
    F32x4, f32,
    add: |a, b| a + b, sub: |a, b| a - b, mul: |a, b| a * b
);
scalar_vector!(
    /// Four `f64` lanes.
    F64x4, f64,
    add: |a, b| a + b, sub: |a, b| a - b, mul: |a, b| a * b
);
scalar_vector!(
    /// Four `i32` lanes; arithmetic wraps.
    I32x4, i32,
    add: i32::wrapping_add, sub: i32::wrapping_sub, mul: i32::wrapping_mul
);
scalar_vector!(
    /// Four `i16` lanes; arithmetic wraps.
    I16x4, i16,
    add: i16::wrapping_add, sub: i16::wrapping_sub, mul: i16::wrapping_mul
);
scalar_vector!(
    /// Four `i64` lanes; arithmetic wraps.
    I64x4, i64,
    add: i64::wrapping_add, sub: i64::wrapping_sub, mul: i64::wrapping_mul
);

impl<T: Token> SimdFloat for F32x4<T> {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        self.zip(rhs, |a, b| a / b)
    }
}

impl<T: Token> SimdFloat for F64x4<T> {
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        self.zip(rhs, |a, b| a / b)
    }
}

/// Transposes an `N x N` [`Tile`](super::Tile), element by element.
#[inline(always)]
pub(crate) fn transpose_strided<T: super::Token, E: Copy, const N: usize>(
    _: T,
    tile: super::Tile<'_, '_, E, N>,
) {
    let (src, src_stride, dst, dst_stride) = tile.parts();
    for c in 0..N {
        for r in 0..N {
            dst[r * dst_stride + c] = src[c * src_stride + r];
        }
    }
}
