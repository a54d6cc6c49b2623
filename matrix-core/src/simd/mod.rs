//! SIMD vocabulary: one backend per target, chosen at compile time.
//!
//! Every backend module exposes the same vocabulary, so code that uses it is
//! written once:
//!
//! * the vector types [`F32Vec`], [`F64Vec`] and [`I32Vec`], which implement
//!   [`SimdVector`] (lane count, unaligned and partial loads and stores,
//!   splat, broadcast of one element from memory, `add`, `sub`, `mul`,
//!   `mul_add`), [`SimdFloat`] for the float types (`div`) and, where a
//!   vector holds whole groups of four lanes, [`Group4`] (the in-lane
//!   shuffles a 4x4 product needs);
//! * the free functions `transpose_4x4_f32`, `transpose_8x8_f32` and
//!   `transpose_4x4_f32_strided`.
//!
//! On top of it, [`kernels`] holds the shape-generic building blocks that
//! the `matrix!` expansion calls (products, fused `a * b + c`, transposes,
//! element-wise chains).
//!
//! # Choosing the backend
//!
//! The choice is made from `cfg(target_feature = ...)`, as glam does: a
//! default `x86_64` build gets [`sse2`], `-C target-feature=+avx2,+fma` gets
//! `avx2`, and `-C target-cpu=native` on an AVX-512 machine gets `avx512`.
//! Every other target, and any build with the crate feature `force-scalar`,
//! gets [`scalar`]. [`BACKEND`] names the one compiled in.
//!
//! Each x86 backend module is compiled whenever the build enables its
//! target features, not only when it is the active one, so that a
//! `-C target-cpu=native` test run exercises all of them on one machine
//! (`scalar` is always compiled). A module that is compiled can be used
//! directly, for instance `simd::avx2::F32Vec` next to the active
//! `avx512` backend.
//!
//! # Safety
//!
//! All of the vocabulary is safe to call. Loads and stores take slices and
//! an offset and check the range (a real bounds check, which the optimizer
//! removes when the shapes are constants), so no caller can read or write
//! out of bounds. The `unsafe` blocks are confined to the backend modules;
//! the only invariant they rely on besides the checked ranges is that the
//! module is compiled only when its target features are enabled for the
//! whole build, which the `cfg` below guarantees.
//!
//! # Fused multiply-add
//!
//! [`SimdVector::mul_add`] computes `self * b + c`. Where the backend has
//! FMA (`avx2`, `avx512`, and `scalar` when the build enables the `fma`
//! target feature) it is a true fused multiply-add with one rounding and
//! [`SimdVector::FUSED`] is `true`; elsewhere it is a multiplication
//! followed by an addition, each rounded, and `FUSED` is `false`.
//! [`SimdVector::mul_then_add`] is always the two-rounding form, which is
//! what the contract's default (no contraction) requires.

pub mod kernels;
pub mod scalar;
pub mod widen;

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub mod sse2;

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
))]
pub mod avx2;

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx2",
    target_feature = "fma"
))]
pub mod avx512;

#[cfg(test)]
mod tests;

cfg_if::cfg_if! {
    if #[cfg(feature = "force-scalar")] {
        /// The name of the backend compiled in.
        pub const BACKEND: &str = "scalar";
        pub use scalar::{F32Vec, F64Vec, I32Vec};
        pub use scalar::{transpose_4x4_f32, transpose_8x8_f32, transpose_4x4_f32_strided};
    } else if #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512f",
        target_feature = "avx2",
        target_feature = "fma"
    ))] {
        /// The name of the backend compiled in.
        pub const BACKEND: &str = "avx512";
        pub use avx512::{F32Vec, F64Vec, I32Vec};
        pub use avx512::{transpose_4x4_f32, transpose_8x8_f32, transpose_4x4_f32_strided};
    } else if #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        target_feature = "fma"
    ))] {
        /// The name of the backend compiled in.
        pub const BACKEND: &str = "avx2";
        pub use avx2::{F32Vec, F64Vec, I32Vec};
        pub use avx2::{transpose_4x4_f32, transpose_8x8_f32, transpose_4x4_f32_strided};
    } else if #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))] {
        /// The name of the backend compiled in.
        pub const BACKEND: &str = "sse2";
        pub use sse2::{F32Vec, F64Vec, I32Vec};
        pub use sse2::{transpose_4x4_f32, transpose_8x8_f32, transpose_4x4_f32_strided};
    } else {
        /// The name of the backend compiled in.
        pub const BACKEND: &str = "scalar";
        pub use scalar::{F32Vec, F64Vec, I32Vec};
        pub use scalar::{transpose_4x4_f32, transpose_8x8_f32, transpose_4x4_f32_strided};
    }
}

/// Panics unless a partial load or store of `n` lanes fits in `lanes`.
/// The message is built out of line from values, for the reason given at
/// [`kernels::check_shape`]: a formatted `assert!` takes `n`'s address.
#[inline(always)]
#[track_caller]
pub(crate) fn check_lanes(n: usize, lanes: usize) {
    if n > lanes {
        too_many_lanes(n, lanes)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn too_many_lanes(n: usize, lanes: usize) -> ! {
    panic!("partial access of {n} lanes, at most {lanes}")
}

mod sealed {
    /// Keeps [`super::SimdVector`] implementable only inside this module.
    pub trait Sealed {}
}

/// Element types that SIMD vectors hold: `f32`, `f64`, `i32`.
pub trait SimdElement: Copy + Default + PartialEq + core::fmt::Debug + sealed::Sealed {}
impl sealed::Sealed for f32 {}
impl sealed::Sealed for f64 {}
impl sealed::Sealed for i32 {}
impl SimdElement for f32 {}
impl SimdElement for f64 {}
impl SimdElement for i32 {}

/// The vocabulary every backend's vector type offers.
///
/// Loads and stores address a slice at an element offset; they panic if the
/// range is out of bounds (never undefined behaviour). Integer arithmetic
/// wraps.
pub trait SimdVector: Copy + core::fmt::Debug + sealed::Sealed {
    /// The element type of one lane.
    type Elem: SimdElement;
    /// The number of lanes.
    const LANES: usize;
    /// Whether [`SimdVector::mul_add`] rounds once (a true FMA).
    const FUSED: bool;

    /// Every lane set to `x`.
    fn splat(x: Self::Elem) -> Self;
    /// Every lane zero.
    fn zero() -> Self {
        Self::splat(Self::Elem::default())
    }
    /// Loads `LANES` elements from `src[offset..offset + LANES]` (unaligned).
    ///
    /// # Panics
    /// If the range is not inside `src`.
    fn load(src: &[Self::Elem], offset: usize) -> Self;
    /// Stores the lanes to `dst[offset..offset + LANES]` (unaligned).
    ///
    /// # Panics
    /// If the range is not inside `dst`.
    fn store(self, dst: &mut [Self::Elem], offset: usize);
    /// Loads `n <= LANES` elements from `src[offset..offset + n]` into the
    /// first `n` lanes; the other lanes are zero. Reads nothing outside the
    /// range (a masked load on AVX-512, a copy elsewhere).
    ///
    /// # Panics
    /// If `n > LANES` or the range is not inside `src`.
    fn load_partial(src: &[Self::Elem], offset: usize, n: usize) -> Self;
    /// Stores the first `n <= LANES` lanes to `dst[offset..offset + n]`;
    /// writes nothing outside the range.
    ///
    /// # Panics
    /// If `n > LANES` or the range is not inside `dst`.
    fn store_partial(self, dst: &mut [Self::Elem], offset: usize, n: usize);
    /// Every lane set to `src[index]` (a broadcast load).
    ///
    /// # Panics
    /// If `index >= src.len()`.
    fn broadcast(src: &[Self::Elem], index: usize) -> Self;
    /// Lane-wise `self + rhs` (wrapping for integers).
    fn add(self, rhs: Self) -> Self;
    /// Lane-wise `self - rhs` (wrapping for integers).
    fn sub(self, rhs: Self) -> Self;
    /// Lane-wise `self * rhs` (wrapping for integers).
    fn mul(self, rhs: Self) -> Self;
    /// Lane-wise `self * b + c`: one rounding when [`SimdVector::FUSED`],
    /// otherwise the same as [`SimdVector::mul_then_add`].
    fn mul_add(self, b: Self, c: Self) -> Self;
    /// Lane-wise `(self * b) + c` with both operations rounded: never fused.
    #[inline(always)]
    fn mul_then_add(self, b: Self, c: Self) -> Self {
        self.mul(b).add(c)
    }
    /// The lanes as an array-like vector (for tests and debugging).
    fn to_vec(self) -> Vec<Self::Elem> {
        let mut v = vec![Self::Elem::default(); Self::LANES];
        self.store(&mut v, 0);
        v
    }
}

/// Float-only vocabulary: division (for the contract's `matrix / scalar`),
/// correctly rounded as the scalar `/` is.
pub trait SimdFloat: SimdVector {
    /// Lane-wise `self / rhs`.
    fn div(self, rhs: Self) -> Self;
}

/// Shuffles within groups of four lanes, for vectors whose lane count is a
/// multiple of four. A 4x4 column-major block is one group per column, so
/// these are the moves a 4x4 product needs: [`Group4::broadcast_x4`] loads a
/// column of `A` into every group and [`Group4::dup_in_x4`] spreads `B[k][j]`
/// over the group of column `j`.
pub trait Group4: SimdVector {
    /// Loads `src[offset..offset + 4]` and repeats it in every group of four
    /// lanes.
    ///
    /// # Panics
    /// If the range is not inside `src`.
    fn broadcast_x4(src: &[Self::Elem], offset: usize) -> Self;
    /// In every group of four lanes, lane `L` of the group copied to all four
    /// (`L < 4`, checked at compile time).
    fn dup_in_x4<const L: usize>(self) -> Self;
}

/// `self * b + c` as [`SimdVector::mul_add`] if `FUSE`, otherwise as
/// [`SimdVector::mul_then_add`]. Kernels call this with their `CONTRACT`
/// parameter.
#[inline(always)]
pub fn madd<V: SimdVector, const FUSE: bool>(a: V, b: V, c: V) -> V {
    if FUSE {
        a.mul_add(b, c)
    } else {
        a.mul_then_add(b, c)
    }
}
