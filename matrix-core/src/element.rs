//! The element types a [`Matrix`](crate::Matrix) may hold, and for each,
//! which kernel runs.
//!
//! [`Element`] is sealed: it is implemented for exactly the element types
//! of the contract (`i8 i16 i32 i64 u8 u16 u32 u64 f32 f64`, and
//! `half::f16` and `half::bf16` behind the `f16` and `bf16` features) and
//! cannot be implemented outside
//! this crate. `bool`, `char`, `i128`, `usize` and every other type are
//! refused. Its hidden methods are the one place that decides, per element
//! type, which kernel a product or a transpose runs on a backend.

use core::fmt::{Debug, Display};

use crate::arith::Arith;
use crate::kernels::Isa;
use crate::kernels::dispatch::Dispatch;
#[cfg(not(matrix_core_opt0))]
use crate::kernels::dispatch::{Auto, Op};
use crate::kernels::gemm::{self, Dims, Operands};
use crate::kernels::passes::{self, Arithmetic};
use crate::kernels::transpose::{self, Transposition};
use crate::kernels::widen;
use crate::simd::SimdVector;
use crate::simd::dispatch::{Backend, is_static};

/// How a product's result reaches its caller, which decides whether a
/// small one pays for the call of the active backend's kernel
/// ([`Element::small_products_inline`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Returned by value (the operators, `mad`, `matrix!` kernels), then
    /// copied by the caller to where it goes.
    Returned,
    /// Written by the kernel into the caller's matrix (`mul_to`,
    /// `mad_to`).
    Written,
}

/// The vectors a type's products run on, a constant of each element type,
/// so that the size of a product in vector operations is one too.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProductVectors {
    /// None: the in-order loop, one element at a time.
    None,
    /// The backend's widest `f32` vector.
    F32,
    /// The backend's widest `f64` vector.
    F64,
    /// The backend's widest `i32` vector (the integers, widened or not).
    I32,
    /// The backend's `i64` vector (`i64` and `u64`).
    I64,
}

impl ProductVectors {
    /// The lanes of these vectors on backend `S`.
    #[cfg_attr(debug_assertions, allow(dead_code))]
    pub(crate) const fn lanes<S: Isa>(self) -> usize {
        match self {
            ProductVectors::None => 1,
            ProductVectors::F32 => <S::F32 as SimdVector>::LANES,
            ProductVectors::F64 => <S::F64 as SimdVector>::LANES,
            ProductVectors::I32 => <S::I32 as SimdVector>::LANES,
            ProductVectors::I64 => <S::I64 as SimdVector>::LANES,
        }
    }
}

/// A type that may be the element of a [`Matrix`](crate::Matrix).
///
/// Sealed: implemented for `i8 i16 i32 i64 u8 u16 u32 u64 f32 f64` and,
/// with the `f16` feature, `half::f16` (C's `_Float16`), and with the `bf16`
/// feature, `half::bf16` (C's `__bf16`).
///
/// Matrix arithmetic **wraps** for integers (`wrapping_add`, `wrapping_sub`,
/// `wrapping_mul`, `wrapping_div`; integer division by zero panics) and is
/// plain IEEE 754 arithmetic, each operation rounded separately, for
/// floats.
///
/// ```
/// use matrix_core::Element;
///
/// assert_eq!(<i64 as Element>::C_NAME, "long");
/// assert_eq!(<f32 as Element>::C_NAME, "float");
/// assert!(<f64 as Element>::IS_FLOAT);
/// assert_eq!(<u8 as Element>::ONE, 1);
/// ```
pub trait Element: Arith + Default + PartialEq + Debug + Display + Send + Sync + 'static {
    /// The additive identity (`0`, or `+0.0`).
    ///
    /// ```
    /// use matrix_core::Element;
    ///
    /// assert_eq!(i32::ZERO, 0);
    /// assert!(f32::ZERO == 0.0 && f32::ZERO.is_sign_positive());
    /// ```
    const ZERO: Self;
    /// The multiplicative identity (`1`, or `1.0`).
    ///
    /// ```
    /// use matrix_core::Element;
    ///
    /// assert_eq!(u8::ONE, 1);
    /// assert_eq!(f64::ONE, 1.0);
    /// ```
    const ONE: Self;
    /// The type's name in C, as Clang spells it in diagnostics: `float`,
    /// `double`, `signed char`, `short`, `int`, `long`, `unsigned char`,
    /// `unsigned short`, `unsigned int`, `unsigned long`, `_Float16`,
    /// `__bf16`.
    /// (`i8` is `signed char` and `i64` is `long`, on every target.)
    ///
    /// ```
    /// use matrix_core::Element;
    ///
    /// assert_eq!(f32::C_NAME, "float");
    /// assert_eq!(i8::C_NAME, "signed char");
    /// assert_eq!(u64::C_NAME, "unsigned long");
    /// ```
    const C_NAME: &'static str;
    /// `true` for the floating-point element types.
    ///
    /// ```
    /// use matrix_core::Element;
    ///
    /// assert!(f64::IS_FLOAT);
    /// assert!(!i16::IS_FLOAT);
    /// ```
    const IS_FLOAT: bool;

    /// Whether a small product in exact mode (a 4x4) of `work` element
    /// operations (`2 * M * K * N`) runs inline on the build's baseline
    /// backend rather than through the boundary of `active`, the backend
    /// that runs it, outside `#[dispatch]` kernels.
    /// Exact products give the same bits on every backend, so this is a
    /// question of speed alone, per type and per CPU:
    /// - `f32`: always for a result returned by value, unless `active` is
    ///   `avx512` and the build's target (`is_static`). Its SSE2 kernel is
    ///   as fast as a call of the AVX2 one and, unlike it, needs no copy of
    ///   by-value operands (measured on an AVX2 EPYC: `a * b + c` of 4x4
    ///   `f32` in a `matrix!` kernel, 5.7 ns inline against 19.5 ns through
    ///   the boundary). On an AVX-512 Xeon the call ties the product and
    ///   loses `a * b + c` (5.1 to 5.5 ns against 4.2 ns with the
    ///   operators). A result [written](Delivery::Written) into the
    ///   caller's matrix is not copied back, and there the AVX-512 call
    ///   wins: a 4x4 `a.mul_to(&b, &mut out)` took 3.1 to 3.2 ns through it
    ///   against 3.6 to 3.8 ns inline, `a.mad_to(&b, &c, &mut out)` 3.6 to 3.7 ns
    ///   against 4.2 ns. In a build for an AVX-512 target there is no
    ///   boundary, and the AVX-512 kernel (four columns per register)
    ///   compiled into the caller wins either way: on an AMD EPYC Zen 4
    ///   (`-C target-cpu=native`, per batch of 16) `*o = a * b` took 56.9
    ///   ns on the SSE2 kernel and takes 36.9 ns, a `matrix!` kernel's
    ///   `a * b` 57.0 and 36.9 ns, `a * b + c` 69.9 and 40.6 ns. Not
    ///   measured on an AVX2 CPU, which keeps it inline.
    /// - `f64`: where the active backend is no wider than the baseline
    ///   (SSE2, scalar), and elsewhere below [`F64_CALL_WORK`], either
    ///   delivery. SSE2 holds two `f64`
    ///   lanes, AVX2 a column and AVX-512 two: on an AVX-512 Xeon, `&a *
    ///   &b` took 6.4 to 6.5 ns inline and 5.0 to 5.6 ns through the
    ///   boundary, and the same product in a `matrix!` kernel 6.5 ns and
    ///   5.5 ns. On an AMD EPYC Zen 3 (AVX2), once the boundary's copies
    ///   were gone, the call won too (per batch of 16, fastest samples,
    ///   inline then through the boundary): `&a * &b` 184 and 163 ns,
    ///   `mul_to` 150 and 104 ns, a `matrix!` kernel 192 and 167 ns, its
    ///   load/store form 160 and 103 ns, and the same products inside
    ///   `dispatch(||)`, where LLVM inlines the AVX2 kernel, 192 and 120
    ///   ns. (Before those copies were removed the same CPU measured the
    ///   call at 22.1 ns against 8.5 ns inline.) Smaller products lost
    ///   there through the call (see [`F64_CALL_WORK`]).
    /// - the integers: never, since SSE2 has no 32-bit multiply (a 4x4
    ///   `i32` product, 16.1 ns inline against 10.7 ns on the EPYC).
    ///
    /// Figures: fastest samples of `cargo bench -p matrix-benches --bench
    /// matrix --features dsl -- '^matrix (mul|madd) 4x4'`, default build.
    #[doc(hidden)]
    #[inline(always)]
    fn small_products_inline(_active: Backend, _delivery: Delivery, _work: usize) -> bool {
        false
    }

    /// `out = a * b (+ addend)` on backend `S`, inlined into its caller (a
    /// shape that is constant there is constant here). Each sum starts at
    /// its first product and adds the others in `k` order, then the addend;
    /// with `FUSE` a multiply-add step may round once. `D` is what is known
    /// of `p`'s shape at compile time ([`Dims`]): the kernels compile only
    /// the branches that shape can take.
    #[doc(hidden)]
    #[inline(always)]
    fn product<S: Isa, const FUSE: bool, D: Dims>(s: S, p: &Operands<'_, Self>, out: &mut [Self]) {
        let _ = s;
        gemm::gemm_in_order(p, false, out);
    }

    /// Writes the value's bytes, in the target's order, into `out`, which
    /// is `size_of::<Self>()` long ([`Vector::bitcast`](crate::Vector::bitcast)).
    #[doc(hidden)]
    fn write_ne_bytes(self, out: &mut [u8]);

    /// The value whose bytes, in the target's order, are `bytes`, which is
    /// `size_of::<Self>()` long.
    #[doc(hidden)]
    fn read_ne_bytes(bytes: &[u8]) -> Self;

    /// The same product with run-time dimensions, compiled once per backend
    /// inside `matrix-core` ([`DynKernels`]).
    #[doc(hidden)]
    fn product_dyn<S: Isa>(s: S, fuse: bool, p: &Operands<'_, Self>, out: &mut [Self]);

    /// The vectors the product of `Self` runs on: the size of an inlined
    /// product is counted in vector operations ([`ProductVectors::lanes`]).
    #[doc(hidden)]
    const PRODUCT_VECTORS: ProductVectors = ProductVectors::None;

    /// Whether [`Element::product`] writes a block of the result's rows:
    /// an `out` whose columns start further apart than its rows
    /// (`Operands::ldo` above `m`). The `f32` and `f64` kernels do; the
    /// others write whole results.
    #[doc(hidden)]
    const STRIDED_RESULT: bool = false;

    /// Whether a product of `Self` under `#[fp_contract(fast)]` rounds each
    /// multiply-add once when run on `d`.
    #[doc(hidden)]
    #[inline(always)]
    fn fuses<D: Dispatch>(d: D) -> bool {
        let _ = d;
        false
    }

    /// `a[i] = a[i] op b[i]` for every `i`, compiled inside `matrix-core`
    /// ([`passes`]): what `Matrix`'s element-wise operators run in a debug
    /// build whose `matrix-core` is optimised (where it is not, they run
    /// on the line forms inlined into the caller).
    #[doc(hidden)]
    fn zip_dyn(op: Arithmetic, a: &mut [Self], b: &[Self]);

    /// `a[i] = a[i] op s` for every `i` (`s op a[i]` when `scalar_first`),
    /// compiled inside `matrix-core`, as [`Element::zip_dyn`].
    #[doc(hidden)]
    fn scalar_dyn(op: Arithmetic, a: &mut [Self], s: Self, scalar_first: bool);

    /// Runs a transpose compiled inside `matrix-core`, as
    /// [`Element::zip_dyn`], on the detected backend's
    /// [`Element::transpose`] ([`transpose_on_auto`]).
    #[doc(hidden)]
    fn transpose_dyn(m: Transposition<'_, '_, Self>);

    /// Whether [`Element::transpose_dyn`] runs [`Element::transpose`] on
    /// the detected backend, rather than the element-by-element loop: the
    /// types whose transposes run on the `f32` shuffle kernels or on the
    /// 8- and 16-bit ones (see [`transpose_on_auto`]).
    #[doc(hidden)]
    const TRANSPOSE_DYN_ON_BACKEND: bool = false;

    /// Whether [`Auto`](crate::kernels::dispatch::Auto) runs a transpose
    /// of a `rows x cols` matrix of `Self`, delivered as `delivery` says,
    /// inline on the build's baseline backend, rather than on the active
    /// backend through its boundary: up to 64 elements (an 8x8 matrix). A
    /// transpose gains more from wide vectors than element-wise arithmetic
    /// does (whose bound is a 16x16 matrix): a 16x16 `f32` transpose took
    /// 16.5 to 38 ns through the AVX-512 boundary (the range is the copy of
    /// its result, which depends on where the stack lands) against 36 ns
    /// inline on SSE2, on an AVX-512 Xeon. The types with shuffle kernels
    /// choose for themselves.
    #[doc(hidden)]
    #[inline(always)]
    fn transpose_inline(rows: usize, cols: usize, delivery: Delivery) -> bool {
        let _ = delivery;
        rows * cols <= 64
    }

    /// Runs a transpose on backend `S`, with the tiles for a CPU whose
    /// 512-bit units are full width where `FULL_WIDTH` (`transpose_f32`).
    #[doc(hidden)]
    #[inline(always)]
    fn transpose<S: Isa, const FULL_WIDTH: bool>(s: S, m: Transposition<'_, '_, Self>) {
        let _ = s;
        transpose::transpose(m);
    }
}

/// [`Element::transpose`] of `T` with a run-time shape, on the detected
/// backend ([`Auto`](crate::kernels::dispatch::Auto)): what
/// [`Element::transpose_dyn`] runs for 32-bit elements, whose shuffle
/// kernels run a 16x16 transpose as one tile, and for 8- and 16-bit ones.
/// In a debug build whose `matrix-core` is optimised, a 16x16 `f32`
/// `transpose_to` took 260 ns on the element-by-element loop this replaced,
/// and takes 121 ns (8x8: 89 to 46 ns; a dev-profile benchmark on an
/// AVX-512 Xeon); a 16x16 `u8` one 200 ns and 75 ns, a 16x16 `u16` one 236
/// ns and 77 ns (a scratch crate's timing loop, same build, AMD EPYC with
/// AVX-512). 64-bit elements keep that loop: their 4x4 tiles take two loads
/// per vector, and a debug build checks each intrinsic's load and store, so
/// an 8x8 `f64` `transpose_to` took 119 ns on the tiles against 92 ns on
/// the loop, and 16x16 327 ns against 274 ns (same benchmark). Where
/// `matrix-core` itself is unoptimised, every type keeps the loop: there
/// every intrinsic is a call.
fn transpose_on_auto<T: Element>(m: Transposition<'_, '_, T>) {
    #[cfg(matrix_core_opt0)]
    transpose::transpose(m);
    #[cfg(not(matrix_core_opt0))]
    if !T::TRANSPOSE_DYN_ON_BACKEND {
        transpose::transpose(m);
    } else {
        /// The transpose as an operation, generic over the backend.
        struct Run<'s, 'd, T>(Transposition<'s, 'd, T>);
        impl<T: Element> Op for Run<'_, '_, T> {
            type Output = ();
            #[inline(always)]
            fn run<S: Isa>(self, s: S) {
                T::transpose::<S, false>(s, self.0);
            }
        }
        Auto.run(Run(m));
    }
}

/// The impl of `Element` for one type: its constants, and the kernels that
/// differ from the in-order product and the generic transpose.
macro_rules! element {
    ($t:ty: $zero:expr, $one:expr, $cname:literal, float: $float:literal;
     dyn $dyn:ident $(, $fuse:ident)?; $($kernels:tt)*) => {
        impl Element for $t {
            const ZERO: Self = $zero;
            const ONE: Self = $one;
            const C_NAME: &'static str = $cname;
            const IS_FLOAT: bool = $float;

            #[inline]
            fn product_dyn<S: Isa>(s: S, fuse: bool, p: &Operands<'_, Self>, out: &mut [Self]) {
                element!(@dyn s.$dyn, fuse, p, out $(, $fuse)?)
            }

            fn zip_dyn(op: Arithmetic, a: &mut [Self], b: &[Self]) {
                passes::zip(op, a, b);
            }

            fn scalar_dyn(op: Arithmetic, a: &mut [Self], s: Self, scalar_first: bool) {
                passes::with_scalar(op, a, s, scalar_first);
            }

            fn transpose_dyn(m: Transposition<'_, '_, Self>) {
                transpose_on_auto(m);
            }

            #[inline(always)]
            fn write_ne_bytes(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_ne_bytes());
            }

            #[inline(always)]
            fn read_ne_bytes(bytes: &[u8]) -> Self {
                match bytes.try_into() {
                    Ok(array) => Self::from_ne_bytes(array),
                    Err(_) => panic!("an element is read from as many bytes as it has"),
                }
            }

            $($kernels)*
        }
    };
    (@dyn $s:ident.$dyn:ident, $f:ident, $p:ident, $out:ident, fuse) => {
        $s.$dyn($f, $p, $out)
    };
    (@dyn $s:ident.$dyn:ident, $f:ident, $p:ident, $out:ident) => {{
        let _ = $f;
        $s.$dyn($p, $out)
    }};
}

/// The least work (`2 * M * K * N`) of an exact `f64` product that calls
/// the AVX2 or AVX-512 kernel rather than running SSE2's inline: a
/// `2x4 * 4x2` or a `4x4 * 4x1` runs inline, a `3x4 * 4x3` and a 4x4
/// product call. On an AMD EPYC Zen 3 (AVX2), default build, a loop of
/// `&a * &b` and `mul_to` over 16 operands (a scratch crate's timing loop,
/// fastest of 300 rounds, three runs, inline then through the call): 2x2
/// 2.9–4.0 and 4.2–8.5 ns, `2x4 * 4x2` 4.2–5.2 and 5.2–8.4 ns, `4x4 * 4x1`
/// 3.9–4.0 and 4.4–4.7 ns, 3x3 10.8–11.3 and 10.8–12.8 ns (`mul_to`
/// 6.5–8.1 and 5.9–9.2 ns), `3x4 * 4x3` 11.4–12.6 and 10.4–10.8 ns (`mul_to`
/// 8.0–10.4 and 6.1–6.4 ns), `4x8 * 8x4` 19.1–19.8 and 12.8–25.3 ns
/// (`mul_to` 16.5–16.8 and 10.0–11.8 ns).
const F64_CALL_WORK: usize = 64;

/// The hidden methods of a float type with SIMD products.
macro_rules! float_kernels {
    ($product:ident, $vector:ident, small products inline: |$active:ident, $delivery:ident, $work:ident| $inline:expr) => {
        #[inline(always)]
        fn small_products_inline($active: Backend, $delivery: Delivery, $work: usize) -> bool {
            $inline
        }
        #[inline(always)]
        fn product<S: Isa, const FUSE: bool, D: Dims>(
            s: S,
            p: &Operands<'_, Self>,
            out: &mut [Self],
        ) {
            gemm::$product::<S, FUSE, D>(s, p, out);
        }
        const PRODUCT_VECTORS: ProductVectors = ProductVectors::$vector;
        const STRIDED_RESULT: bool = true;
        #[inline(always)]
        fn fuses<D: Dispatch>(d: D) -> bool {
            d.fuses()
        }
    };
}

/// The hidden methods of an integer type whose products run on the `i32`
/// or the `i64` kernel (`$vector`), directly, widened or on the same bits.
macro_rules! int_kernels {
    ($product:expr, $vector:ident) => {
        #[inline(always)]
        fn product<S: Isa, const FUSE: bool, D: Dims>(
            s: S,
            p: &Operands<'_, Self>,
            out: &mut [Self],
        ) {
            ($product)(s, p, out);
        }
        const PRODUCT_VECTORS: ProductVectors = ProductVectors::$vector;
    };
}

/// The hidden transpose methods of an element type that runs on the
/// backends' shuffles (`transpose_as_bits`), on the `f32` tiles (4x4 and 8x8
/// kernels of their own, tiles for larger shapes), the `f64` ones (4x4
/// tiles) or the `narrow` ones of 8- and 16-bit elements (below). On the
/// `f32` and `f64` tiles, a result written into the caller's matrix runs
/// inline up to 64 elements, but for an 8x8 one; a returned one likewise,
/// or, on the `f64` tiles, up to 64 elements. A debug build's
/// [`Element::transpose_dyn`] runs the `f32` and `narrow` tiles, and the
/// element loop for the `f64` ones ([`transpose_on_auto`]).
macro_rules! shuffle_transposes {
    // 8- and 16-bit elements: every x86 backend runs SSE2's tiles for them
    // (a 128-bit register holds a whole column of a tile), so the boundary
    // would only add its call and the copy of a returned result; they run
    // inline on the baseline at every size.
    (narrow tiles) => {
        #[inline(always)]
        fn transpose_inline(rows: usize, cols: usize, delivery: Delivery) -> bool {
            let _ = (rows, cols, delivery);
            true
        }
        const TRANSPOSE_DYN_ON_BACKEND: bool = true;
        shuffle_transposes!(@transpose);
    };
    ($tiles:ident tiles) => {
        /// An 8x8 matrix on the backend's own 8x8 kernel, through the
        /// AVX-512 boundary: `transpose_to` 10.4 to 4.1 ns and
        /// `transpose()` 10.7 to 7.5 ns, against SSE2 inline (`f32`, a
        /// default build's benchmark, AVX-512 Xeon), and an 8x8 `f64`
        /// `transpose_to` 11.0 to 8.7 ns (a scratch crate's timing loop,
        /// same machine). Since SSE2's 4x4 tiles take `shufps` rather than
        /// unpacks, an 8x8 `f32` `transpose_to` takes 5.9 ns on SSE2, 5.0
        /// ns on AVX2 (16 shuffles to SSE2's 32) and 2.8 ns on AVX-512, and
        /// `transpose()` 13.3, 11.1 and 9.8 ns (each backend forced, same
        /// timing loop and machine; no AVX2-only CPU was at hand). Other
        /// shapes of up to 64 elements lost there: a 5x5 `f32`
        /// `transpose()` took 3.0 ns inline and 17 ns through the boundary. A returned 8x8 `f64` result is copied
        /// out of the boundary, which costs more than SSE2's 2x2 tiles lose
        /// to AVX2's 4x4 ones: its `transpose()` took 11.0 ns inline
        /// against 16.9 ns through the boundary (medians of the default
        /// build's benchmark, same machine); at 16x16 the boundary won
        /// again, 91 ns against 102 ns.
        #[inline(always)]
        fn transpose_inline(rows: usize, cols: usize, delivery: Delivery) -> bool {
            let written = rows * cols <= 64 && (rows, cols) != (8, 8);
            match delivery {
                Delivery::Written => written,
                Delivery::Returned => written || (shuffle_transposes!(@f64 $tiles) && rows * cols <= 64),
            }
        }
        const TRANSPOSE_DYN_ON_BACKEND: bool = !shuffle_transposes!(@f64 $tiles);
        shuffle_transposes!(@transpose);
    };
    // Every type's transpose: its elements as the bits of its `Shuffled`
    // type of the same size.
    (@transpose) => {
        #[inline(always)]
        fn transpose<S: Isa, const FULL_WIDTH: bool>(s: S, m: Transposition<'_, '_, Self>) {
            transpose::transpose_as_bits::<S, Self, FULL_WIDTH>(s, m);
        }
    };
    (@f64 f32) => {
        false
    };
    (@f64 f64) => {
        true
    };
}

element! {
    f32: 0.0, 1.0, "float", float: true; dyn gemm_f32, fuse;
    float_kernels!(product_f32, F32, small products inline: |active, delivery, _work| {
        (delivery == Delivery::Returned && !is_static(active)) || active != Backend::Avx512
    });
    shuffle_transposes!(f32 tiles);
}
element! {
    f64: 0.0, 1.0, "double", float: true; dyn gemm_f64, fuse;
    float_kernels!(product_f64, F64, small products inline: |active, _delivery, work| {
        !active.implies(Backend::Avx2) || work < F64_CALL_WORK
    });
    shuffle_transposes!(f64 tiles);
}
/// The integer types, one row each: the name C gives it, its run-time-shape
/// product (`Isa::gemm_*`), its product kernel, the vectors its sums
/// accumulate in and the tiles its transposes run on.
macro_rules! integers {
    ($($t:ty: $cname:literal, $dyn:ident, $product:expr, $vector:ident, $tiles:ident;)*) => {$(
        element! {
            $t: 0, 1, $cname, float: false; dyn $dyn;
            int_kernels!($product, $vector);
            shuffle_transposes!($tiles tiles);
        }
    )*};
}
integers! {
    i32: "int", gemm_i32, gemm::product_i32::<S, D>, I32, f32;
    i8: "signed char", gemm_i8, widen::product_8::<S, Self, D>, I32, narrow;
    u8: "unsigned char", gemm_u8, widen::product_8::<S, Self, D>, I32, narrow;
    i16: "short", gemm_i16, widen::product_16::<S, Self, D>, I32, narrow;
    u16: "unsigned short", gemm_u16, widen::product_16::<S, Self, D>, I32, narrow;
    u32: "unsigned int", gemm_u32, widen::product_u32::<S, D>, I32, f32;
    i64: "long", gemm_i64, gemm::product_i64::<S, D>, I64, f64;
    u64: "unsigned long", gemm_u64, widen::product_u64::<S, D>, I64, f64;
}
#[cfg(feature = "f16")]
element! {
    half::f16: half::f16::ZERO, half::f16::ONE, "_Float16", float: true; dyn gemm_f16;
    shuffle_transposes!(narrow tiles);
}
#[cfg(feature = "bf16")]
element! {
    half::bf16: half::bf16::ZERO, half::bf16::ONE, "__bf16", float: true; dyn gemm_bf16;
    shuffle_transposes!(narrow tiles);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_names() {
        assert_eq!(i8::C_NAME, "signed char");
        assert_eq!(i16::C_NAME, "short");
        assert_eq!(i32::C_NAME, "int");
        assert_eq!(i64::C_NAME, "long");
        assert_eq!(u8::C_NAME, "unsigned char");
        assert_eq!(u16::C_NAME, "unsigned short");
        assert_eq!(u32::C_NAME, "unsigned int");
        assert_eq!(u64::C_NAME, "unsigned long");
        assert_eq!(f32::C_NAME, "float");
        assert_eq!(f64::C_NAME, "double");
    }
}
