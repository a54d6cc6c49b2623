//! Products with run-time shapes, compiled once per element type and
//! backend inside `matrix-core`.
//!
//! Why: a generic kernel is compiled in the crate that instantiates it, at
//! that crate's optimisation level, so a debug build of a user's crate ran a
//! 256x256 `f64` product 280 times slower than a release build, and a
//! `[profile.dev.package.matrix-core] opt-level = 3` override could not
//! help. These functions are not generic and not `#[inline]`: they are
//! compiled with `matrix-core`, so that override gives a debug build their
//! release speed. Every product of a build with debug assertions runs on
//! them (optimised builds use copies compiled for each shape, which were
//! faster: see `ops::Product`).
//!
//! They use the widest vector of each backend for every row count (the
//! kernels' choice of narrower vectors for four or eight rows would
//! multiply their code). Two builds run the in-order loop instead; both
//! forms give the same bits (under `fuse`, the loop fuses exactly where the
//! backend's kernel does):
//! * where `matrix-core` itself is not optimised (its build script sets
//!   `cfg(matrix_core_opt0)`): at opt-level 0 every intrinsic is a call,
//!   and the plain loop is several times faster than the SIMD kernel;
//! * a build without debug assertions, where no product reaches these
//!   functions (`ops::kernel` runs the kernels compiled for each shape)
//!   but the crate's own tests: the SIMD forms were 95% of the code LLVM
//!   optimised for an optimised `matrix-core` (575,000 lines of IR, of
//!   which 542,000 in this module), 2.5 minutes of a 2-core AMD EPYC's
//!   release build.

#[cfg(any(matrix_core_opt0, not(debug_assertions)))]
use super::dispatch::Dispatch;
use super::dispatch::{call_with_features, with_features};
use super::gemm::{self, Operands};
use super::widen;
#[cfg(all(debug_assertions, not(matrix_core_opt0)))]
use super::{Isa, gemm::RunTime};
use crate::simd::dispatch::{Token, backends};

/// The run-time-shape product of each element type that has one, on one
/// backend: implemented for every backend token by the table in
/// `simd::dispatch`. `fuse` is the contraction of `#[fp_contract(fast)]`.
pub trait DynKernels: Token {
    /// `out = a * b (+ addend)` for `f32`.
    fn gemm_f32(self, fuse: bool, p: &Operands<'_, f32>, out: &mut [f32]);
    /// `out = a * b (+ addend)` for `f64`.
    fn gemm_f64(self, fuse: bool, p: &Operands<'_, f64>, out: &mut [f64]);
    /// `out = a * b (+ addend)` for `i32`, wrapping (and for the narrower
    /// integers, widened to it).
    fn gemm_i32(self, p: &Operands<'_, i32>, out: &mut [i32]);
    /// `out = a * b (+ addend)` for `i8`, wrapping.
    fn gemm_i8(self, p: &Operands<'_, i8>, out: &mut [i8]);
    /// `out = a * b (+ addend)` for `u8`, wrapping.
    fn gemm_u8(self, p: &Operands<'_, u8>, out: &mut [u8]);
    /// `out = a * b (+ addend)` for `i16`, wrapping.
    fn gemm_i16(self, p: &Operands<'_, i16>, out: &mut [i16]);
    /// `out = a * b (+ addend)` for `u16`, wrapping: the `i16` kernel on
    /// the same bits.
    fn gemm_u16(self, p: &Operands<'_, u16>, out: &mut [u16]);
    /// `out = a * b (+ addend)` for `u32`, wrapping: the `i32` kernel on
    /// the same bits.
    fn gemm_u32(self, p: &Operands<'_, u32>, out: &mut [u32]);
    /// `out = a * b (+ addend)` for `i64`, wrapping.
    fn gemm_i64(self, p: &Operands<'_, i64>, out: &mut [i64]);
    /// `out = a * b (+ addend)` for `u64`, wrapping: the `i64` kernel on
    /// the same bits.
    fn gemm_u64(self, p: &Operands<'_, u64>, out: &mut [u64]);
    /// `out = a * b (+ addend)` for `half::f16`, in order.
    #[cfg(feature = "f16")]
    fn gemm_f16(self, p: &Operands<'_, half::f16>, out: &mut [half::f16]);
    /// `out = a * b (+ addend)` for `half::bf16`, in order.
    #[cfg(feature = "bf16")]
    fn gemm_bf16(self, p: &Operands<'_, half::bf16>, out: &mut [half::bf16]);
}

/// One method of [`DynKernels`]: a non-generic function with the backend's
/// target features around the generic kernel `$body`.
macro_rules! dyn_method {
    ($token:ty, [$($feature:tt),*], $name:ident(|$t:ident| $($arg:ident: $ty:ty),*) => $body:expr) => {
        fn $name(self, $($arg: $ty),*) {
            with_features! {
                [$($feature),*],
                fn kernel($t: $token, $($arg: $ty),*) {
                    let _ = $t;
                    $body
                }
            }
            call_with_features!([$($feature),*], kernel(self, $($arg),*))
        }
    };
}

/// The run-time-shape product on the widest vector `$v` of backend `$t`,
/// or, in the builds the module's documentation names, the in-order loop.
macro_rules! simd_or_in_order {
    ($token:ty, $t:ident, $v:ident, $fuse:expr, $p:ident, $out:ident) => {{
        // `cfg` attributes, not `cfg!`: at opt-level 0 the SIMD branch would
        // still be compiled, with a stack slot for every value of every
        // inlined register tile.
        #[cfg(any(matrix_core_opt0, not(debug_assertions)))]
        gemm::gemm_in_order($p, $fuse && Dispatch::fuses($t), $out);
        #[cfg(all(debug_assertions, not(matrix_core_opt0)))]
        if $fuse {
            gemm::gemm_with::<<$token as Isa>::$v, true, RunTime>($t, $p, $out)
        } else {
            gemm::gemm_with::<<$token as Isa>::$v, false, RunTime>($t, $p, $out)
        }
    }};
}

/// Each backend's kernels in a module of their own, named after the
/// backend. rustc gives each module its own codegen unit, and LLVM
/// optimises codegen units in parallel: these kernels are nine tenths of
/// matrix-core's machine code, and in one module they were one unit, which
/// one thread optimised while the other cores waited (on a 2-core AMD EPYC
/// with AVX2, 18 minutes of a debug build with matrix-core at opt-level 3).
macro_rules! dyn_impls {
    ($($(#[$doc:meta])* $name:ident = $code:literal, $text:literal, ($($cfg:tt)*), [$($feature:tt),*];)*) => {$(
        #[cfg($($cfg)*)]
        #[allow(non_snake_case)]
        mod $name {
            use super::*;
            use crate::simd::dispatch::$name as BackendToken;

            impl DynKernels for BackendToken {
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_f32(|t| fuse: bool, p: &Operands<'_, f32>, out: &mut [f32])
                        => simd_or_in_order!(BackendToken, t, F32, fuse, p, out));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_f64(|t| fuse: bool, p: &Operands<'_, f64>, out: &mut [f64])
                        => simd_or_in_order!(BackendToken, t, F64, fuse, p, out));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_i32(|t| p: &Operands<'_, i32>, out: &mut [i32])
                        => simd_or_in_order!(BackendToken, t, I32, false, p, out));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_i8(|t| p: &Operands<'_, i8>, out: &mut [i8])
                        => widen::product_8_dyn(t, p, out));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_u8(|t| p: &Operands<'_, u8>, out: &mut [u8])
                        => widen::product_8_dyn(t, p, out));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_i16(|t| p: &Operands<'_, i16>, out: &mut [i16])
                        => widen::product_16_dyn(t, p, out));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_u16(|t| p: &Operands<'_, u16>, out: &mut [u16])
                        => t.gemm_i16(&widen::signed(p), widen::signed_mut(out)));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_u32(|t| p: &Operands<'_, u32>, out: &mut [u32])
                        => t.gemm_i32(&widen::signed(p), widen::signed_mut(out)));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_i64(|t| p: &Operands<'_, i64>, out: &mut [i64])
                        => simd_or_in_order!(BackendToken, t, I64, false, p, out));
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_u64(|t| p: &Operands<'_, u64>, out: &mut [u64])
                        => t.gemm_i64(&widen::signed(p), widen::signed_mut(out)));
                #[cfg(feature = "f16")]
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_f16(|t| p: &Operands<'_, half::f16>, out: &mut [half::f16])
                        => gemm::gemm_in_order(p, false, out));
                #[cfg(feature = "bf16")]
                dyn_method!(BackendToken, [$($feature),*],
                    gemm_bf16(|t| p: &Operands<'_, half::bf16>, out: &mut [half::bf16])
                        => gemm::gemm_in_order(p, false, out));
            }
        }
    )*};
}
backends!(dyn_impls);
