//! The one list of backends: [`Backend`], its tokens, and the CPU detection
//! that decides which backend runs.
//!
//! Everything that differs per backend is generated from the table in
//! [`backends!`]: the enum, the token types, the detection, the
//! `#[target_feature]` attribute of each backend's compiled code. Nothing
//! else in the crate spells a backend's target features.
//!
//! # Tokens
//!
//! Each backend has a zero-sized token type ([`Scalar`], [`Sse2`], [`Avx2`],
//! [`Avx512`]). A token is a proof that the CPU running the program supports
//! the backend: this module mints tokens only after detection found the
//! backend's features ([`active_token`]), or from the token of a backend that
//! implies them ([`Token::narrow`]); their fields are private to this module.
//! The vector types of a backend can only be built from its token
//! (`SimdVector::splat(token, ..)` and the other constructors), so a value of
//! such a vector is itself a proof, and the `unsafe` intrinsic calls of the
//! backend modules rely on that proof alone.
//!
//! # Which backend runs
//!
//! [`Backend::active`] is detected once and cached: the best backend the CPU
//! supports, or the one named by the `MATRIX_CORE_BACKEND` environment
//! variable (`scalar`, `sse2`, `avx2`, `avx512`), which tests and benchmarks
//! use to run one build on every backend. A build whose target features
//! already include the best backend (`-C target-cpu=native` on an AVX-512
//! machine) picks it at compile time and ignores the variable; a build with
//! the `force-scalar` feature always runs [`Backend::Scalar`].

use core::fmt;
use core::str::FromStr;
use core::sync::atomic::{AtomicU8, Ordering};

/// The table of backends, in increasing order of capability: name, the
/// `cfg` under which the backend exists, and the target features it needs.
/// `$m` is a macro that receives the whole table, after `$args;` if given.
macro_rules! backends {
    ($m:ident $(, $($args:tt)+)?) => {
        $m! {
            $($($args)+;)?
            /// Portable Rust on arrays of four lanes: every target, and the
            /// reference the others are tested against. Never fuses.
            Scalar = 1, "scalar", (all()), [];
            /// 128-bit SSE2, the x86-64 baseline: no FMA (contraction never
            /// fuses), 32-bit integer multiplication emulated.
            Sse2 = 2, "sse2", (target_arch = "x86_64"), ["sse2"];
            /// 256-bit AVX2 with FMA.
            Avx2 = 3, "avx2", (target_arch = "x86_64"), ["avx2", "fma"];
            /// 512-bit AVX-512 (F, DQ, BW, VL: x86-64-v4's AVX-512, with
            /// AVX2 and FMA) and 32 vector registers, for 128- and 256-bit
            /// vectors too (VL). Every AVX-512 CPU since 2017 has these
            /// four; the Xeon Phi alone did not, and runs the AVX2 backend.
            Avx512 = 4, "avx512", (target_arch = "x86_64"),
                ["avx512f", "avx512dq", "avx512bw", "avx512vl", "avx2", "fma"];
        }
    };
}
pub(crate) use backends;

macro_rules! define_backends {
    ($($(#[$doc:meta])* $name:ident = $code:literal, $text:literal, ($($cfg:tt)*), [$($feature:tt),*];)*) => {
        /// A SIMD backend: one instruction set the kernels are compiled for.
        ///
        /// Every backend of the target is compiled into every build, and the
        /// one that runs is chosen at run time from the CPU
        /// ([`Backend::active`]). Results are bit for bit the same on every
        /// backend, except under `#[fp_contract(fast)]`, where a backend with
        /// FMA ([`Backend::fuses`]) rounds each multiply-add once.
        ///
        /// ```
        /// use matrix_core::Backend;
        ///
        /// let active = Backend::active();
        /// assert!(active.is_supported());
        /// assert!(Backend::supported().any(|b| b == active));
        /// assert_eq!("avx2".parse::<Backend>(), Ok(Backend::Avx2));
        /// assert_eq!(Backend::Sse2.to_string(), "sse2");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Backend {
            $($(#[$doc])* $name = $code,)*
        }

        impl Backend {
            /// Every backend, in increasing order of capability: each
            /// [implies](Backend::implies) the ones before it.
            ///
            /// ```
            /// use matrix_core::Backend;
            ///
            /// assert_eq!(Backend::ALL[0], Backend::Scalar);
            /// assert!(Backend::ALL.windows(2).all(|w| w[1].implies(w[0])));
            /// ```
            pub const ALL: &'static [Backend] = &[$(Backend::$name),*];

            /// The backend's name, as `MATRIX_CORE_BACKEND` spells it.
            ///
            /// ```
            /// use matrix_core::Backend;
            ///
            /// assert_eq!(Backend::Avx512.name(), "avx512");
            /// for &b in Backend::ALL {
            ///     assert_eq!(b.name().parse(), Ok(b));
            /// }
            /// ```
            pub const fn name(self) -> &'static str {
                match self {
                    $(Backend::$name => $text,)*
                }
            }

            /// The CPU features the backend needs, as
            /// `is_x86_feature_detected!` names them.
            ///
            /// ```
            /// use matrix_core::Backend;
            ///
            /// assert!(Backend::Scalar.features().is_empty());
            /// assert_eq!(Backend::Avx2.features(), ["avx2", "fma"]);
            /// ```
            pub const fn features(self) -> &'static [&'static str] {
                match self {
                    $(Backend::$name => &[$($feature),*],)*
                }
            }

            /// Whether this program was compiled with the backend and the CPU
            /// running it has every feature the backend needs. Detected on
            /// each call; [`Backend::active`] caches its choice.
            ///
            /// ```
            /// use matrix_core::Backend;
            ///
            /// // The portable backend runs everywhere.
            /// assert!(Backend::Scalar.is_supported());
            /// for &b in Backend::ALL {
            ///     println!("{b}: {}", if b.is_supported() { "yes" } else { "no" });
            /// }
            /// ```
            pub fn is_supported(self) -> bool {
                match self {
                    $(Backend::$name => {
                        #[cfg($($cfg)*)]
                        let supported = true $(&& feature_detected!($feature))*;
                        #[cfg(not($($cfg)*))]
                        let supported = false;
                        supported
                    })*
                }
            }

            /// Whether the build's target features already include every
            /// feature of the backend (`-C target-cpu=native`, or
            /// `-C target-feature=...`), so its code needs no detection.
            const fn in_target(self) -> bool {
                match self {
                    $(Backend::$name => cfg!($($cfg)*) $(&& cfg!(target_feature = $feature))*,)*
                }
            }

            const fn from_code(code: u8) -> Option<Backend> {
                match code {
                    $($code => Some(Backend::$name),)*
                    _ => None,
                }
            }
        }

        $(
            $(#[$doc])*
            ///
            /// A token: its existence proves that the CPU supports the
            /// backend (see the module documentation).
            #[derive(Clone, Copy, Debug)]
            pub(crate) struct $name(());

            impl Token for $name {
                const BACKEND: Backend = Backend::$name;
                #[inline(always)]
                fn proven(_: sealed::Proof) -> Self {
                    $name(())
                }
            }
        )*

        /// A token of the active backend.
        #[derive(Clone, Copy, Debug)]
        pub(crate) enum ActiveToken {
            $($name($name),)*
        }

        /// The token of the [active](Backend::active) backend.
        #[inline(always)]
        pub(crate) fn active_token() -> ActiveToken {
            match Backend::active() {
                // The active backend is always a supported one (see `detect`).
                $(Backend::$name => ActiveToken::$name($name(())),)*
            }
        }
    };
}

/// Whether the CPU running the program has a target feature of the table:
/// `is_x86_feature_detected!` where `std` provides it, the crate's own
/// CPUID reading (the `cpuid` module) without `std`.
#[cfg(feature = "std")]
macro_rules! feature_detected {
    ($feature:tt) => {
        std::arch::is_x86_feature_detected!($feature)
    };
}
/// Whether the CPU running the program has a target feature of the table:
/// `is_x86_feature_detected!` where `std` provides it, the crate's own
/// CPUID reading (the `cpuid` module) without `std`.
#[cfg(not(feature = "std"))]
macro_rules! feature_detected {
    ($feature:tt) => {
        cpuid::detected($feature)
    };
}

/// Run-time detection of the table's target features without `std`: what
/// `is_x86_feature_detected!` does for them, read once from CPUID and XCR0
/// and cached in an atomic. Compiled for tests too, which check it against
/// `is_x86_feature_detected!`.
#[cfg(all(target_arch = "x86_64", any(test, not(feature = "std"))))]
mod cpuid {
    use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
    use core::sync::atomic::{AtomicU32, Ordering};

    const SSE2: u32 = 1 << 0;
    const AVX2: u32 = 1 << 1;
    const FMA: u32 = 1 << 2;
    const AVX512F: u32 = 1 << 3;
    const AVX512DQ: u32 = 1 << 4;
    const AVX512BW: u32 = 1 << 5;
    const AVX512VL: u32 = 1 << 6;
    /// Set once the other bits are the CPU's.
    const READ: u32 = 1 << 31;

    /// The detected features, `READ` and the feature bits; 0 until read.
    static FEATURES: AtomicU32 = AtomicU32::new(0);

    /// Whether the CPU has `feature`, one of the target features that the
    /// backend table names.
    #[inline]
    pub(super) fn detected(feature: &str) -> bool {
        let bit = match feature {
            "sse2" => SSE2,
            "avx2" => AVX2,
            "fma" => FMA,
            "avx512f" => AVX512F,
            "avx512dq" => AVX512DQ,
            "avx512bw" => AVX512BW,
            "avx512vl" => AVX512VL,
            _ => unreachable!("the backend table names a feature `cpuid` does not read: {feature}"),
        };
        let mut features = FEATURES.load(Ordering::Relaxed);
        if features & READ == 0 {
            features = read() | READ;
            FEATURES.store(features, Ordering::Relaxed);
        }
        features & bit != 0
    }

    /// The features from CPUID leaves 1 and 7, keeping the AVX ones only
    /// where the operating system saves their registers (XCR0), as
    /// `is_x86_feature_detected!` does.
    #[cold]
    fn read() -> u32 {
        let max_leaf = __cpuid(0).eax;
        let leaf1 = __cpuid(1);
        let leaf7_ebx = if max_leaf >= 7 {
            __cpuid_count(7, 0).ebx
        } else {
            0
        };
        let bit = |reg: u32, n: u32| reg & (1 << n) != 0;

        // XCR0 exists when the OS enabled XSAVE (CPUID.1:ECX.OSXSAVE).
        let xcr0 = if bit(leaf1.ecx, 27) {
            // SAFETY: `_xgetbv` needs the `xsave` feature, and OSXSAVE says
            // the OS enabled XGETBV; register 0 (XCR0) always exists then.
            unsafe { _xgetbv(0) }
        } else {
            0
        };
        // XMM and YMM state (bits 1, 2); AVX-512 adds the opmask, ZMM_Hi256
        // and Hi16_ZMM state (bits 5, 6, 7).
        let os_avx = xcr0 & 0b110 == 0b110;
        let os_avx512 = os_avx && xcr0 & 0b1110_0000 == 0b1110_0000;
        let cpu_avx = bit(leaf1.ecx, 28);

        let mut features = 0;
        if bit(leaf1.edx, 26) {
            features |= SSE2;
        }
        if os_avx && cpu_avx && bit(leaf7_ebx, 5) {
            features |= AVX2;
        }
        if os_avx && cpu_avx && bit(leaf1.ecx, 12) {
            features |= FMA;
        }
        if os_avx512 && bit(leaf7_ebx, 16) {
            features |= AVX512F;
        }
        if os_avx512 && bit(leaf7_ebx, 17) {
            features |= AVX512DQ;
        }
        if os_avx512 && bit(leaf7_ebx, 30) {
            features |= AVX512BW;
        }
        if os_avx512 && bit(leaf7_ebx, 31) {
            features |= AVX512VL;
        }
        features
    }
}

backends!(define_backends);

mod sealed {
    pub trait Sealed {}

    /// The argument of [`Token::proven`](super::Token::proven): only this
    /// module can make one, so only this module mints tokens.
    #[derive(Clone, Copy, Debug)]
    pub struct Proof(pub(super) ());
}

/// A backend token (see the module documentation).
pub trait Token: Copy + fmt::Debug + Send + Sync + 'static + sealed::Sealed {
    /// The backend this token proves.
    const BACKEND: Backend;

    /// The token. Only this module can call it (it alone makes a
    /// [`sealed::Proof`]), after detection or from a stronger proof.
    #[doc(hidden)]
    fn proven(proof: sealed::Proof) -> Self;

    /// A token of backend `T` from this one, when this backend implies
    /// `T`'s features (every x86 backend implies [`Sse2`], AVX-512 implies
    /// AVX2, every backend implies [`Scalar`]).
    #[inline(always)]
    fn narrow<T: Token>(self) -> Option<T> {
        Self::BACKEND
            .implies(T::BACKEND)
            .then(|| T::proven(sealed::Proof(())))
    }
}

macro_rules! seal_tokens {
    ($($(#[$doc:meta])* $name:ident = $code:literal, $text:literal, ($($cfg:tt)*), [$($feature:tt),*];)*) => {
        $(impl sealed::Sealed for $name {})*
    };
}
backends!(seal_tokens);

impl Backend {
    /// The environment variable that picks the backend instead of the
    /// detection: `MATRIX_CORE_BACKEND=sse2 cargo test` runs the tests on the
    /// SSE2 kernels (see [`Backend::active`]).
    ///
    /// ```
    /// use matrix_core::Backend;
    ///
    /// assert_eq!(Backend::OVERRIDE_VARIABLE, "MATRIX_CORE_BACKEND");
    /// if let Ok(name) = std::env::var(Backend::OVERRIDE_VARIABLE) {
    ///     println!("the tests asked for the {name} backend");
    /// }
    /// ```
    pub const OVERRIDE_VARIABLE: &'static str = "MATRIX_CORE_BACKEND";

    /// Whether a CPU that supports `self` supports `other` too: every
    /// feature of `other` is one of `self`'s, or implied by them (the x86
    /// backends all include SSE2; AVX2 includes SSE2).
    ///
    /// ```
    /// use matrix_core::Backend;
    ///
    /// assert!(Backend::Avx2.implies(Backend::Sse2));
    /// assert!(!Backend::Sse2.implies(Backend::Avx2));
    /// assert!(Backend::Sse2.implies(Backend::Scalar));
    /// ```
    pub const fn implies(self, other: Backend) -> bool {
        match (self, other) {
            (_, Backend::Scalar) => true,
            (Backend::Scalar, _) => false,
            // x86: the backends form a chain.
            (a, b) => a as u8 >= b as u8,
        }
    }

    /// Whether `#[fp_contract(fast)]` fuses a multiply-add into one rounding
    /// on this backend (it has FMA).
    ///
    /// ```
    /// use matrix_core::Backend;
    ///
    /// assert!(Backend::Avx2.fuses());
    /// assert!(!Backend::Sse2.fuses());
    /// ```
    pub const fn fuses(self) -> bool {
        matches!(self, Backend::Avx2 | Backend::Avx512)
    }

    /// The backends this program can run on this CPU, in increasing order.
    ///
    /// ```
    /// use matrix_core::Backend;
    ///
    /// let here: Vec<Backend> = Backend::supported().collect();
    /// assert_eq!(here[0], Backend::Scalar);
    /// assert!(here.contains(&Backend::active()));
    /// ```
    pub fn supported() -> impl Iterator<Item = Backend> {
        Backend::ALL.iter().copied().filter(|b| b.is_supported())
    }

    /// The backend the kernels run on: detected once, then cached.
    ///
    /// The best [supported](Backend::is_supported) backend, unless the
    /// `MATRIX_CORE_BACKEND` environment variable names another one (read
    /// at the first call). A build whose target features include the best
    /// backend picks it at compile time; the `force-scalar` feature picks
    /// [`Backend::Scalar`].
    ///
    /// # Panics
    ///
    /// At the first call, if `MATRIX_CORE_BACKEND` is set to something else
    /// than a backend's name, or names a backend this CPU cannot run.
    ///
    /// ```
    /// use matrix_core::Backend;
    ///
    /// let backend = Backend::active();
    /// println!("the kernels run on {backend}");
    /// assert!(backend.is_supported());
    /// ```
    #[inline(always)]
    pub fn active() -> Backend {
        if let Some(b) = STATIC {
            return b;
        }
        match Backend::from_code(ACTIVE.load(Ordering::Relaxed)) {
            Some(b) => b,
            None => detect(),
        }
    }
}

/// The backend every CPU of the build's target supports, which code
/// compiled for the target may use without a boundary: SSE2 on `x86_64`,
/// the scalar backend elsewhere and with `force-scalar`.
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "sse2",
    not(feature = "force-scalar")
))]
pub(crate) type Baseline = Sse2;
/// The backend every CPU of the build's target supports, which code
/// compiled for the target may use without a boundary: SSE2 on `x86_64`,
/// the scalar backend elsewhere and with `force-scalar`.
#[cfg(not(all(
    target_arch = "x86_64",
    target_feature = "sse2",
    not(feature = "force-scalar")
)))]
pub(crate) type Baseline = Scalar;

/// A token of backend `T`, if the CPU supports it (detected now): how tests
/// run kernels on every backend the CPU has.
#[cfg(test)]
pub(crate) fn detected<T: Token>() -> Option<T> {
    T::BACKEND
        .is_supported()
        .then(|| T::proven(sealed::Proof(())))
}

/// The [`Baseline`] token: the build's target guarantees its features.
#[inline(always)]
pub(crate) fn baseline() -> Baseline {
    const { assert!(Baseline::BACKEND.in_target()) };
    Baseline::proven(sealed::Proof(()))
}

/// The backend chosen at compile time, if any: `force-scalar`, or a target
/// whose features include the best backend.
const STATIC: Option<Backend> = if cfg!(feature = "force-scalar") {
    Some(Backend::Scalar)
} else {
    let best = Backend::ALL[Backend::ALL.len() - 1];
    if best.in_target() { Some(best) } else { None }
};

/// Whether `backend` is the one chosen at compile time (see [`STATIC`]).
pub(crate) const fn is_static(backend: Backend) -> bool {
    matches!(STATIC, Some(b) if b as u8 == backend as u8)
}

/// The code of the active backend, 0 until [`detect`] ran.
static ACTIVE: AtomicU8 = AtomicU8::new(0);

/// Whether the CPU's vector units are 512 bits wide, so that a 512-bit
/// multiplication costs what a 256-bit one does: AMD family 1Ah (Zen 5)
/// and later. Zen 4 (family 19h) splits each 512-bit operation into two
/// 256-bit halves. Read from CPUID once, then cached.
///
/// Two choices are made by it, each measured faster on Zen 5 and kept as
/// before elsewhere: Intel's cores run 512-bit shuffles on one port, and
/// on Zen 4 (an AMD EPYC of family 19h model 11h, default build) both were
/// slower where the operands sit in memory: an 8x8 `f32` `mul_to` 13.4 ns
/// against 17.7 ns on the pairs, a 16x16 `f32` `transpose_to` 14.6 against
/// 16.0 ns on the tiles from whole columns (BENCHMARKS.md, "The two
/// full-width 512-bit choices measured on Zen 4"):
/// - the kernels that trade shuffles for half the multiplications
///   ([`gemm_pairs`](crate::kernels::gemm::gemm_pairs));
/// - the 16x16 `f32` transpose tiles from whole columns, with four times
///   the shuffles of the others and a quarter of their loads
///   ([`Isa::transpose_16x16_f32_full_width`](crate::kernels::Isa::transpose_16x16_f32_full_width)).
///
/// False without asking the CPU in a build for a target that rules those
/// CPUs out ([`TARGET_MAY_BE_FULL_WIDTH`]), where the choices then fold.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn full_width_512() -> bool {
    if !TARGET_MAY_BE_FULL_WIDTH {
        return false;
    }
    static WIDE: AtomicU8 = AtomicU8::new(0);
    match WIDE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let wide = read_full_width_512();
            WIDE.store(if wide { 2 } else { 1 }, Ordering::Relaxed);
            wide
        }
    }
}

/// Whether a CPU that this build's target features allow may have
/// full-width 512-bit units ([`full_width_512`]): not where the target has
/// AVX512-FP16, which Intel's cores have from Sapphire Rapids on and AMD's
/// Zen 5 has not. Only a build for such a target (`-C target-cpu=native` on
/// those Xeons) is concerned; a default build asks the CPU. The choice
/// affects speed only: a CPU with full-width units and AVX512-FP16 would
/// run the narrower kernels, with the same results.
///
/// Why not leave it to the CPU there as well: a choice made at run time
/// compiles both kernels into the caller, and where a result is returned
/// by value that caller's code is worse for the kernel that runs. On an
/// Intel Xeon (family 6, model 167 as its hypervisor reports it, AVX-512
/// with FP16, AMX), native build, per batch of 16, with the 512-bit pairs
/// compiled in but never run, an 8x8 `f32` `matrix!` kernel `a * b` by
/// value took 239.1 ns and `a * b + c` 287.2 ns; without them they take
/// 190.7 and 201.7 ns (BENCHMARKS.md, "Native builds on Intel compile no
/// full-width choice").
#[cfg(target_arch = "x86_64")]
const TARGET_MAY_BE_FULL_WIDTH: bool = !cfg!(target_feature = "avx512fp16");

/// [`full_width_512`] read from CPUID: the vendor (leaf 0) and family
/// (leaf 1).
#[cfg(target_arch = "x86_64")]
#[cold]
fn read_full_width_512() -> bool {
    use core::arch::x86_64::__cpuid;
    let leaf0 = __cpuid(0);
    let vendor = [leaf0.ebx, leaf0.edx, leaf0.ecx];
    vendor_family_full_width(vendor, __cpuid(1).eax)
}

/// Whether a CPU whose CPUID leaf 0 spells `vendor` (EBX, EDX, ECX) and
/// whose leaf 1 EAX is `eax1` is an AMD family 1Ah or later: the family is
/// bits 8..12 of EAX, plus bits 20..28 when those read 0Fh.
#[cfg(target_arch = "x86_64")]
fn vendor_family_full_width(vendor: [u32; 3], eax1: u32) -> bool {
    const AMD: [u32; 3] = [
        u32::from_le_bytes(*b"Auth"),
        u32::from_le_bytes(*b"enti"),
        u32::from_le_bytes(*b"cAMD"),
    ];
    let amd = vendor == AMD;
    let base = (eax1 >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((eax1 >> 20) & 0xFF)
    } else {
        base
    };
    amd && family >= 0x1A
}

#[cold]
#[inline(never)]
fn detect() -> Backend {
    let chosen = overridden().unwrap_or_else(|| {
        Backend::supported()
            .last()
            .unwrap_or_else(|| unreachable!("the scalar backend is always supported"))
    });
    ACTIVE.store(chosen as u8, Ordering::Relaxed);
    chosen
}

/// The backend `MATRIX_CORE_BACKEND` names, if it is set.
#[cfg(feature = "std")]
fn overridden() -> Option<Backend> {
    let var = Backend::OVERRIDE_VARIABLE;
    let name = std::env::var(var).ok()?;
    match name.parse::<Backend>() {
        Ok(b) if b.is_supported() => Some(b),
        Ok(b) => panic!(
            "{var}={name}: this CPU cannot run the {b} backend \
             (it needs {}; supported here: {})",
            b.features().join(", "),
            supported_names()
        ),
        Err(err) => panic!("{var}={name}: {err}"),
    }
}

/// Without `std` there is no environment to read.
#[cfg(not(feature = "std"))]
fn overridden() -> Option<Backend> {
    None
}

#[cfg(feature = "std")]
fn supported_names() -> String {
    Backend::supported()
        .map(Backend::name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of parsing a [`Backend`] from a name that is not one.
///
/// ```
/// use matrix_core::Backend;
///
/// let err = "neon".parse::<Backend>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "unknown backend 'neon': expected one of scalar, sse2, avx2, avx512"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownBackend(alloc::string::String);

impl fmt::Display for UnknownBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown backend '{}': expected one of ", self.0)?;
        for (i, b) in Backend::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(b.name())?;
        }
        Ok(())
    }
}

impl core::error::Error for UnknownBackend {}

impl FromStr for Backend {
    type Err = UnknownBackend;

    fn from_str(s: &str) -> Result<Backend, UnknownBackend> {
        Backend::ALL
            .iter()
            .copied()
            .find(|b| b.name() == s)
            .ok_or_else(|| UnknownBackend(s.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &b in Backend::ALL {
            assert_eq!(b.name().parse::<Backend>(), Ok(b));
        }
        let err = "avx9".parse::<Backend>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown backend 'avx9': expected one of scalar, sse2, avx2, avx512"
        );
    }

    #[test]
    fn implication_is_a_chain_over_scalar() {
        assert!(Backend::Avx512.implies(Backend::Avx2));
        assert!(Backend::Avx2.implies(Backend::Sse2));
        assert!(Backend::Sse2.implies(Backend::Scalar));
        assert!(!Backend::Sse2.implies(Backend::Avx2));
        assert!(!Backend::Scalar.implies(Backend::Sse2));
        for &b in Backend::ALL {
            assert!(b.implies(b));
        }
    }

    #[test]
    fn supported_backends_are_implied_by_the_best() {
        let best = Backend::supported().last().unwrap();
        for b in Backend::supported() {
            assert!(best.implies(b), "{best} should imply {b}");
        }
        assert!(Backend::Scalar.is_supported());
        #[cfg(target_arch = "x86_64")]
        assert!(Backend::Sse2.is_supported());
    }

    /// The `no_std` detection agrees with `std`'s on every feature of the
    /// table.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn cpuid_detection_agrees_with_std() {
        macro_rules! compare {
            ($($(#[$doc:meta])* $name:ident = $code:literal, $text:literal, ($($cfg:tt)*), [$($feature:tt),*];)*) => {$($(
                assert_eq!(
                    cpuid::detected($feature),
                    std::arch::is_x86_feature_detected!($feature),
                    "{}",
                    $feature
                );
            )*)*};
        }
        backends!(compare);
    }

    /// CPUID words of known CPUs: the vendor as leaf 0's EBX, EDX, ECX and
    /// leaf 1's EAX.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn full_width_512_is_amd_family_1ah_on() {
        fn vendor(name: &[u8; 12]) -> [u32; 3] {
            let word = |i: usize| u32::from_le_bytes(name[4 * i..4 * i + 4].try_into().unwrap());
            [word(0), word(1), word(2)]
        }
        let (amd, intel) = (vendor(b"AuthenticAMD"), vendor(b"GenuineIntel"));
        // EPYC 9005 (Zen 5): family 0Fh + 0Bh = 1Ah, model 02h.
        assert!(vendor_family_full_width(amd, 0x00B0_0F20));
        // EPYC 9004 (Zen 4): family 0Fh + 0Ah = 19h.
        assert!(!vendor_family_full_width(amd, 0x00A1_0F11));
        // EPYC 7003 (Zen 3), family 19h too; EPYC 7002 (Zen 2), 17h.
        assert!(!vendor_family_full_width(amd, 0x00A0_0F11));
        assert!(!vendor_family_full_width(amd, 0x0083_0F10));
        // Sapphire Rapids: family 6.
        assert!(!vendor_family_full_width(intel, 0x0008_06F8));
        // This CPU: what `/proc/cpuinfo` says, where it can be read.
        if let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") {
            let field = |name: &str| {
                info.lines()
                    .find(|l| l.split(':').next().is_some_and(|k| k.trim() == name))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|v| v.trim().to_owned())
            };
            if let (Some(vendor), Some(family)) = (field("vendor_id"), field("cpu family")) {
                let family: u32 = family.parse().unwrap();
                assert_eq!(
                    full_width_512(),
                    TARGET_MAY_BE_FULL_WIDTH && vendor == "AuthenticAMD" && family >= 0x1A,
                    "{vendor} family {family}"
                );
            }
        }
    }

    #[test]
    fn narrowing_follows_implication() {
        let t = Sse2::proven(sealed::Proof(()));
        assert!(t.narrow::<Scalar>().is_some());
        assert!(t.narrow::<Avx2>().is_none());
        assert!(Avx512::proven(sealed::Proof(())).narrow::<Avx2>().is_some());
    }
}
