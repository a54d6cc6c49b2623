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

/// The struct of a vector type and its `SimdVector` impl.
///
/// `mul_add` is either `fma(intrinsic)` (one rounding, `FUSED`) or
/// `separate` (a multiplication then an addition); `mul` is an intrinsic or
/// a local function of the same signature.
macro_rules! x86_vector {
    (
        $(#[$doc:meta])*
        $name:ident($reg:ty) of $elem:ty, $lanes:literal lanes, needs $backend:ident;
        set1 $set1:path, loadu $loadu:path, storeu $storeu:path;
        add $add:path, sub $sub:path, mul $mul:path, mul_add $fused:ident $(($fma:path))?;
        $(masked $maskz:path, $mstore:path, $mask:ty;)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub(crate) struct $name<T>($reg, T);

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

/// The mask of the first `n` of `lanes` lanes (at most 16), checking
/// `n <= lanes`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn first_lanes(n: usize, lanes: usize) -> u16 {
    super::check_lanes(n, lanes);
    ((1u32 << n) - 1) as u16
}
