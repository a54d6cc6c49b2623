//! The x86 vector types, generated from their intrinsics' names: what the
//! backends share is written once here, and each backend module lists only
//! the intrinsics that differ.
//!
//! A vector type `V<T>` holds its register and a token `T` (zero-sized).
//! Its constructors take the token and check at compile time that `T`'s
//! backend implies the backend the intrinsics belong to (`requires!`), so
//! `V<T>` exists only on a CPU that runs them: that is the safety argument
//! of every `unsafe` block below (see the `simd` module).

/// Fails to compile (when instantiated) unless token type `$t`'s backend
/// implies `$backend`.
macro_rules! requires {
    ($t:ty, $backend:ident) => {
        const {
            assert!(
                <$t as $crate::simd::Token>::BACKEND
                    .implies($crate::simd::dispatch::Backend::$backend),
                "a vector built from a token of a backend that lacks its instructions"
            )
        }
    };
}

/// A function `$name(x) -> x` whose value goes through an empty `asm!`
/// block in a register of class `$class` (which needs target feature
/// `$feature`): no instruction, but LLVM cannot fold or merge work across
/// it. `SimdVector::opaque` of the x86 vectors, and the AVX-512 pairs'.
macro_rules! through_asm {
    ($(#[$doc:meta])* fn $name:ident($reg:ty) in $class:ident, $feature:literal) => {
        $(#[$doc])*
        #[target_feature(enable = $feature)]
        #[inline]
        fn $name(x: $reg) -> $reg {
            let mut x = x;
            // SAFETY: the block has no instruction: it reads and writes
            // nothing but `x`'s register, of a class `$feature` provides.
            unsafe {
                core::arch::asm!(
                    "/* {0} */",
                    inout($class) x,
                    options(pure, nomem, nostack, preserves_flags)
                );
            }
            x
        }
    };
}

/// The struct of a vector type and its `SimdVector` impl.
///
/// `mul_add` is either `fma(intrinsic)` (one rounding, `FUSED`) or
/// `separate` (a multiplication then an addition); `mul` is an intrinsic or
/// a local function of the same signature. `opaque class, "feature"` gives
/// `SimdVector::opaque` its `asm!` block, in a register of that class.
macro_rules! x86_vector {
    (
        $(#[$doc:meta])*
        $name:ident($reg:ty) of $elem:ty, $lanes:literal lanes, needs $backend:ident;
        set1 $set1:path, loadu $loadu:path, storeu $storeu:path;
        add $add:path, sub $sub:path, mul $mul:path, mul_add $fused:ident $(($fma:path))?;
        $(masked $maskz:path, $mstore:path, $mask:ty;)?
        $(opaque $class:ident, $feature:literal;)?
    ) => {
        $(#[$doc])*
        ///
        /// The register is readable by the other backends (an AVX2 kernel
        /// loads 128-bit halves with SSE2's vectors); only this module
        /// makes one, from a token of its backend.
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $name<T>(pub(super) $reg, T);

        impl<T> $crate::simd::Sealed for $name<T> {}

        impl<T: $crate::simd::Token> $crate::simd::SimdVector for $name<T> {
            type Elem = $elem;
            type Token = T;
            const LANES: usize = $lanes;
            const FUSED: bool = x86_vector!(@fused $fused);

            #[inline(always)]
            fn splat(t: T, x: $elem) -> Self {
                requires!(T, $backend);
                // SAFETY: `t` proves the CPU supports the backend, which
                // implies this intrinsic's (checked above).
                Self(unsafe { $set1(x) }, t)
            }
            #[inline(always)]
            fn load(t: T, src: &[$elem], offset: usize) -> Self {
                requires!(T, $backend);
                let s = &src[offset..offset + $lanes];
                // SAFETY: as in `splat`; `s` holds `LANES` readable
                // elements, loaded unaligned.
                Self(unsafe { $loadu(s.as_ptr().cast()) }, t)
            }
            #[inline(always)]
            fn store(self, dst: &mut [$elem], offset: usize) {
                let d = &mut dst[offset..offset + $lanes];
                // SAFETY: `self` exists, so its backend is supported; `d`
                // holds `LANES` writable elements, stored unaligned.
                unsafe { $storeu(d.as_mut_ptr().cast(), self.0) }
            }
            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                // SAFETY: `self` exists, so its backend is supported.
                Self(unsafe { $add(self.0, rhs.0) }, self.1)
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                // SAFETY: `self` exists, so its backend is supported.
                Self(unsafe { $sub(self.0, rhs.0) }, self.1)
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                // SAFETY: `self` exists, so its backend is supported (`$mul`
                // is an intrinsic, or an `unsafe fn` needing only it).
                Self(unsafe { $mul(self.0, rhs.0) }, self.1)
            }
            x86_vector!(@mul_add $fused $(($fma))?);
            $(
                #[inline(always)]
                fn opaque(self) -> Self {
                    through_asm! {
                        /// `x` through an empty `asm!` block.
                        fn through_asm($reg) in $class, $feature
                    }
                    // SAFETY: `self` exists, so its backend, which implies
                    // `$feature`, is supported.
                    Self(unsafe { through_asm(self.0) }, self.1)
                }
            )?
            $(
                #[inline(always)]
                fn load_partial(t: T, src: &[$elem], offset: usize, n: usize) -> Self {
                    requires!(T, $backend);
                    let k = $crate::simd::vector::first_lanes(n, $lanes) as $mask;
                    let s = &src[offset..offset + n];
                    // SAFETY: as in `splat`; the mask selects the first `n`
                    // lanes and `s` holds `n` readable elements; masked-off
                    // lanes are not accessed.
                    Self(unsafe { $maskz(k, s.as_ptr().cast()) }, t)
                }
                #[inline(always)]
                fn store_partial(self, dst: &mut [$elem], offset: usize, n: usize) {
                    let k = $crate::simd::vector::first_lanes(n, $lanes) as $mask;
                    let d = &mut dst[offset..offset + n];
                    // SAFETY: `self` exists, so its backend is supported; the
                    // mask selects the first `n` lanes and `d` holds `n`
                    // writable elements; masked-off lanes are not accessed.
                    unsafe { $mstore(d.as_mut_ptr().cast(), k, self.0) }
                }
            )?
        }
    };
    (@fused fma) => { true };
    (@fused separate) => { false };
    (@mul_add fma($fma:path)) => {
        #[inline(always)]
        fn mul_add(self, b: Self, c: Self) -> Self {
            // SAFETY: `self` exists, so its backend (which has FMA) is
            // supported.
            Self(unsafe { $fma(self.0, b.0, c.0) }, self.1)
        }
    };
    (@mul_add separate) => {
        #[inline(always)]
        fn mul_add(self, b: Self, c: Self) -> Self {
            $crate::simd::SimdVector::mul_then_add(self, b, c)
        }
    };
}

/// `SimdFloat` for an x86 float vector.
macro_rules! x86_div {
    ($name:ident, $div:path) => {
        impl<T: $crate::simd::Token> $crate::simd::SimdFloat for $name<T> {
            #[inline(always)]
            fn div(self, rhs: Self) -> Self {
                // SAFETY: `self` exists, so its backend is supported.
                Self(unsafe { $div(self.0, rhs.0) }, self.1)
            }
        }
    };
}

/// `Group4` for an x86 vector: `broadcast_x4` as an expression of the
/// four loaded elements' pointer `p` (`$bx4`), and `dup_in_x4` as an
/// immediate shuffle `$dup::<IMM>` (IMM selects lane L of each group of
/// four: 0x00, 0x55, 0xAA, 0xFF).
macro_rules! x86_group4 {
    ($name:ident needs $backend:ident, |$p:ident| $bx4:expr, $dup:ident) => {
        impl<T: $crate::simd::Token> $crate::simd::Group4 for $name<T> {
            #[inline(always)]
            fn broadcast_x4(t: T, src: &[Self::Elem], offset: usize) -> Self {
                requires!(T, $backend);
                let s = &src[offset..offset + 4];
                let $p = s.as_ptr();
                // SAFETY: `t` proves the CPU supports the backend, which
                // implies these intrinsics' (checked above); `s` holds four
                // readable elements, loaded unaligned.
                Self(unsafe { $bx4 }, t)
            }
            #[inline(always)]
            fn dup_in_x4<const L: usize>(self) -> Self {
                const { assert!(L < 4, "lane index within a group of four") };
                // SAFETY: `self` exists, so its backend is supported.
                let r = unsafe {
                    match L {
                        0 => $dup::<0x00>(self.0),
                        1 => $dup::<0x55>(self.0),
                        2 => $dup::<0xAA>(self.0),
                        _ => $dup::<0xFF>(self.0),
                    }
                };
                Self(r, self.1)
            }
        }
    };
}

/// Transposes the 4x4 block in each 128-bit lane of four `f32` registers
/// (`$x`: columns in, rows out) with `$shuffle`, the width's `shufps`
/// intrinsic: pairs of rows first, then rows, eight shuffles. Recent Intel
/// cores run `shufps` on two ports, where they run the unpacks of
/// `_MM_TRANSPOSE4_PS` on one: on an AVX-512 Xeon, a default build's 4x4
/// `f32` `transpose()` took 2.61 ns with the unpacks and takes 1.41 ns
/// this way (glam's `Mat4::transpose`, written the same way, 1.39 ns; the
/// benchmark's fastest samples). For 256- and 512-bit registers LLVM
/// emits the first four as `vunpcklpd`/`vunpckhpd`, the last four as
/// `vshufps`. An expression of intrinsics, for an `unsafe` block whose CPU
/// has them.
macro_rules! x86_transpose_lanes4 {
    ($shuffle:ident, $x:expr) => {{
        let [a, b, c, d] = $x;
        // In each lane, rows 0 and 1 (then 2 and 3) of two columns.
        let t0 = $shuffle::<0b01_00_01_00>(a, b);
        let t1 = $shuffle::<0b11_10_11_10>(a, b);
        let t2 = $shuffle::<0b01_00_01_00>(c, d);
        let t3 = $shuffle::<0b11_10_11_10>(c, d);
        [
            $shuffle::<0b10_00_10_00>(t0, t2),
            $shuffle::<0b11_01_11_01>(t0, t2),
            $shuffle::<0b10_00_10_00>(t1, t3),
            $shuffle::<0b11_01_11_01>(t1, t3),
        ]
    }};
}

/// [`InLanes`](super::InLanes) for the `f32` vector `$name`: its lanes
/// loaded by `$load` (the body of `load_lanes`, over its parameters
/// `$t, $src, $first, $step`), its in-lane transposes on `$shuffle`, the
/// width's `shufps` intrinsic ([`x86_transpose_lanes4`]).
macro_rules! x86_in_lanes {
    ($name:ident, $shuffle:ident, |$t:ident, $src:ident, $first:ident, $step:ident| $load:expr) => {
        impl<T: $crate::simd::Token> $crate::simd::InLanes for $name<T> {
            #[inline(always)]
            fn load_lanes($t: T, $src: &[f32], $first: usize, $step: usize) -> Self {
                $load
            }

            #[inline(always)]
            fn transpose_in_lanes([a, b, c, d]: [Self; 4]) -> [Self; 4] {
                let t = a.1;
                // No `array::map`: its closure would be a function without
                // the caller's target features, which takes and returns
                // wide vectors through memory (a 16x16 AVX-512 tile took
                // ten times as long).
                // SAFETY: the vectors exist, so the CPU has their backend's
                // instructions.
                let [a, b, c, d] = unsafe { x86_transpose_lanes4!($shuffle, [a.0, b.0, c.0, d.0]) };
                [$name(a, t), $name(b, t), $name(c, t), $name(d, t)]
            }
        }
    };
}

/// A transpose of `$n x $n` `f32` [`Tile`](super::Tile)s that runs
/// `$checked`, the form with fewer loads, where
/// `matrix-core` has debug assertions, and `$plain` elsewhere: with debug
/// assertions each load is checked (the intrinsics' `ub_checks`, the
/// offsets' overflow checks).
macro_rules! tile_by_build {
    ($(#[$doc:meta])* $name:ident($n:literal): checked $checked:ident, plain $plain:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub(crate) fn $name<T: super::Token>(t: T, tile: super::Tile<'_, '_, f32, $n>) {
            if cfg!(debug_assertions) {
                $checked(t, tile);
            } else {
                $plain(t, tile);
            }
        }
    };
}

/// The mask of the first `n` of `lanes` lanes (at most 32), checking
/// `n <= lanes`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn first_lanes(n: usize, lanes: usize) -> u32 {
    super::check_lanes(n, lanes);
    ((1u64 << n) - 1) as u32
}
