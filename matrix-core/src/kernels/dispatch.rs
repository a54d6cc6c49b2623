//! Where an operation runs: through each backend's `#[target_feature]`
//! boundary, chosen per call ([`Auto`]) or fixed by a token.
//!
//! An [`Op`] is one operation (a product, a transpose, an element-wise pass,
//! a whole `#[dispatch]` kernel) written generically over the backend
//! ([`Isa`]). [`Dispatch::run`] runs it:
//!
//! * with a backend token, inside a function compiled with that backend's
//!   target features (`boundary` below), so the generic code becomes that
//!   backend's instructions. Called from code compiled for the same
//!   backend (a `#[dispatch]` kernel), the boundary is inlined and costs
//!   nothing;
//! * with [`Auto`], after one check of the [active](Backend::active)
//!   backend: a load of a cached byte and a predictable branch.
//!
//! Why operations cross a boundary rather than being compiled with the
//! features of the whole build: a default `x86_64` build has SSE2 only, and
//! a binary cannot assume more of the CPU it will meet. Measured on an AVX2
//! EPYC, a batch of 4x4 `f32` products: 5.9 ns each inlined on SSE2, 5.6 ns
//! through the check and a call of the AVX2 kernel, 2.9 ns inside code
//! compiled for AVX2 (`#[dispatch]`), 3.1 ns there with the check kept.

use super::Isa;
use crate::simd::dispatch::{ActiveToken, Backend, active_token, backends, baseline, is_static};

/// One operation, generic over the backend it runs on.
pub trait Op {
    /// What the operation returns.
    type Output;
    /// Runs the operation with backend `S`'s vector types. [`Dispatch`]
    /// calls it inside code compiled for `S`'s target features.
    fn run<S: Isa>(self, s: S) -> Self::Output;
}

/// An operation that takes a part of its input, `X`, as an argument of its
/// own. Every [`Op`] is one, with nothing for `X`.
///
/// Why a part apart: the boundary receives an operation of more than two
/// words through a pointer to it in memory, and then LLVM keeps the
/// caller's copies of by-value matrices whose addresses the operation
/// holds. Passed in registers, each address keeps the facts (read only, not
/// aliased) that let LLVM forward the caller's own matrix instead.
pub trait OpWith<X> {
    /// What the operation returns.
    type Output;
    /// Runs the operation on `x` with backend `S`'s vector types.
    fn run_with<S: Isa>(self, s: S, x: X) -> Self::Output;
}

impl<O: Op> OpWith<()> for O {
    type Output = O::Output;
    #[inline(always)]
    fn run_with<S: Isa>(self, s: S, (): ()) -> O::Output {
        self.run(s)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// Where operations run: the detected backend ([`Auto`], checked at each
/// call) or a fixed one (a backend token, inside a `#[dispatch]` kernel).
/// Sealed: implemented by [`Auto`] and the backend tokens.
///
/// `Send + Sync + 'static` (every implementor is a zero-sized token): a
/// kernel's body is generic over it, and a `move` closure of the body that
/// uses matrix operations captures it, so a closure sent to a thread or
/// boxed as `'static` compiles as it would without the parameter.
pub trait Dispatch: Copy + Send + Sync + 'static + sealed::Sealed {
    /// Runs `op` on this backend, inside its `#[target_feature]` boundary.
    #[inline(always)]
    fn run<O: Op>(self, op: O) -> O::Output {
        self.run_with(op, ())
    }
    /// Runs `op` on `x` on this backend, inside its `#[target_feature]`
    /// boundary, `x` an argument of the boundary's own.
    fn run_with<X, O: OpWith<X>>(self, op: O, x: X) -> O::Output;
    /// As [`Dispatch::run`], in a function of its own even where the
    /// caller is compiled for the same backend: a large kernel stays out of
    /// line, its code generated alone rather than merged into its caller's.
    /// ([`Auto`]'s boundary is never inlined into its caller, which is
    /// compiled for another target, so it is its `run`.) The boundary's
    /// `#[inline(never)]` is a request only: rustc (1.95) emits no
    /// `noinline` for a function with target features, so what keeps these
    /// kernels apart is LLVM's cost model, which their size decides
    /// (BENCHMARKS.md, "By-value `matrix!` kernels: the backend's check
    /// and the operands' captures").
    #[inline(always)]
    fn run_out_of_line<O: Op>(self, op: O) -> O::Output {
        self.run(op)
    }
    /// The backend `run` uses.
    fn backend(self) -> Backend;
    /// Whether operations on this are inlined into a `#[dispatch]` kernel,
    /// compiled for the one backend: true for the backend tokens, false
    /// for [`Auto`], whose operations each check the active backend. A
    /// product there may take the kernel that suits a loop over distinct
    /// operands (a 4x4 `f64` product on 256-bit vectors rather than in
    /// groups of four lanes: see `gemm::product_f64`).
    const IN_KERNEL: bool = true;
    /// Whether `#[fp_contract(fast)]` fuses a multiply-add into one
    /// rounding here (the backend has FMA).
    #[inline(always)]
    fn fuses(self) -> bool {
        self.backend().fuses()
    }
    /// Runs `op`, an operation of `work` element operations whose result
    /// does not depend on the backend (moving data, element-wise IEEE or
    /// wrapping arithmetic, an exact product). [`Auto`] runs a small one inline, compiled for
    /// the build's target, rather than through a boundary; a backend token
    /// runs it as [`Dispatch::run`] does.
    #[inline(always)]
    fn run_portable<O: Op>(self, work: usize, op: O) -> O::Output {
        self.run_portable_with(work, op, ())
    }
    /// As [`Dispatch::run_portable`], `x` an argument of its own as in
    /// [`Dispatch::run_with`].
    #[inline(always)]
    fn run_portable_with<X, O: OpWith<X>>(self, work: usize, op: O, x: X) -> O::Output {
        let _ = work;
        self.run_with(op, x)
    }
}

/// The most element operations of a backend-independent operation that
/// [`Auto`] runs inline on the build's baseline backend (a 16x16 matrix):
/// below it, a call through the boundary costs more than wider vectors
/// save. Transposes have their own, smaller bound, per element type
/// ([`Element::transpose_inline`](crate::Element::transpose_inline)):
/// shuffles gain more from wide vectors than element-wise arithmetic.
pub(crate) const PORTABLE_INLINE: usize = 256;

/// The detected backend, checked at each operation: what code outside a
/// `#[dispatch]` kernel uses, `Matrix`'s operators included.
#[derive(Clone, Copy, Debug, Default)]
pub struct Auto;

impl sealed::Sealed for Auto {}

/// `#[target_feature(enable = ...)]` with each of the listed features, or
/// nothing for a backend that needs none.
macro_rules! with_features {
    ([], $item:item) => {
        $item
    };
    ([$($feature:tt),+], $item:item) => {
        #[target_feature($(enable = $feature),+)]
        $item
    };
}

/// A call of a function `with_features!` made: `unsafe` when it has target
/// features. Every use passes the token of the backend, which proves the
/// CPU supports them.
macro_rules! call_with_features {
    ([], $call:expr) => {
        $call
    };
    ([$($feature:tt),+], $call:expr) => {
        // SAFETY: the call passes a token of the backend, which exists only
        // on a CPU that has these features (see `simd::dispatch`).
        unsafe { $call }
    };
}
pub(crate) use {call_with_features, with_features};

/// A call of `op` on token `$t` of backend `$name`, inside a function
/// compiled with the backend's features and carrying the inline attribute
/// `$inline`.
macro_rules! boundary {
    (#[$inline:meta], $name:ident, [$($feature:tt),*], $t:expr, $op:expr, $x:expr) => {{
        with_features! {
            [$($feature),*],
            #[$inline]
            fn boundary<X, O: OpWith<X>>(
                t: crate::simd::dispatch::$name,
                op: O,
                x: X,
            ) -> O::Output {
                op.run_with(t, x)
            }
        }
        call_with_features!([$($feature),*], boundary($t, $op, $x))
    }};
}

macro_rules! dispatch_impls {
    ($($(#[$doc:meta])* $name:ident = $code:literal, $text:literal, ($($cfg:tt)*), [$($feature:tt),*];)*) => {
        $(
            impl sealed::Sealed for crate::simd::dispatch::$name {}

            #[cfg($($cfg)*)]
            impl Dispatch for crate::simd::dispatch::$name {
                #[inline(always)]
                fn run_with<X, O: OpWith<X>>(self, op: O, x: X) -> O::Output {
                    // The backend the build chose at compile time (its
                    // features are the target's) needs no boundary: the
                    // operation is compiled into its caller like any code
                    // of the target. Behind the boundary, which LLVM
                    // may leave out of line, a `matrix!` kernel's 4x4 `f64`
                    // product read its by-value operands with 64-byte
                    // loads that the caller's 32-byte copies had not
                    // finished (19.3 ns against 4.1 ns for `&a * &b`, a
                    // `-C target-cpu=native` build on an AVX-512 Xeon).
                    if const { is_static(Backend::$name) } {
                        op.run_with(self, x)
                    } else {
                        boundary!(#[inline], $name, [$($feature),*], self, op, x)
                    }
                }
                #[inline(always)]
                fn run_out_of_line<O: Op>(self, op: O) -> O::Output {
                    boundary!(#[inline(never)], $name, [$($feature),*], self, op, ())
                }
                #[inline(always)]
                fn backend(self) -> Backend {
                    Backend::$name
                }
            }
        )*

        impl Dispatch for Auto {
            const IN_KERNEL: bool = false;
            #[inline(always)]
            fn run_with<X, O: OpWith<X>>(self, op: O, x: X) -> O::Output {
                match active_token() {
                    $(
                        #[cfg($($cfg)*)]
                        ActiveToken::$name(t) => t.run_with(op, x),
                    )*
                    #[allow(unreachable_patterns)]
                    _ => unreachable!("the active backend is one of this target's"),
                }
            }
            #[inline(always)]
            fn backend(self) -> Backend {
                Backend::active()
            }
            #[inline(always)]
            fn run_portable_with<X, O: OpWith<X>>(self, work: usize, op: O, x: X) -> O::Output {
                if work <= PORTABLE_INLINE {
                    op.run_with(baseline(), x)
                } else {
                    self.run_with(op, x)
                }
            }
        }
    };
}
backends!(dispatch_impls);

/// The body of a `#[dispatch]` kernel, which the expansion of `matrix!`
/// implements: `run` is the kernel's body with its operations on `D`, and
/// `A` the tuple of its arguments.
pub trait KernelBody<A> {
    /// The kernel's return type.
    type Output;
    /// The body, every operation on `d`.
    fn run<D: Dispatch>(self, d: D, args: A) -> Self::Output;
}

/// Runs a `#[dispatch]` kernel's body compiled for the active backend: one
/// check, then the whole body with the backend fixed, inlined into that
/// backend's boundary.
#[inline]
pub fn dispatch_kernel<K: KernelBody<A>, A>(kernel: K, args: A) -> K::Output {
    struct Body<K, A>(K, A);
    impl<K: KernelBody<A>, A> Op for Body<K, A> {
        type Output = K::Output;
        #[inline(always)]
        fn run<S: Isa>(self, s: S) -> K::Output {
            self.0.run(s, self.1)
        }
    }
    Auto.run(Body(kernel, args))
}

/// Runs `f` inside code compiled for the [active](Backend::active)
/// backend's target features: its loops and the operations inlined into it
/// become that backend's instructions.
///
/// Use it around a hot loop of small matrix operations (a batch of 4x4
/// products) in a build for the default target: each operation inside
/// still checks the active backend (one predictable branch), but its
/// kernel is inlined into the loop instead of called. A `#[dispatch]`
/// kernel in `matrix!` goes further: its operations are compiled for the
/// backend with no check at all. Large operations (an 8x8 product and up)
/// gain nothing from either, since each call's check is negligible next to
/// its work.
///
/// **Write `#[inline(always)]` on the closure**, as below. `dispatch`
/// compiles one copy of its caller's closure per backend only if the
/// closure is inlined into each; a closure of any size is called from one
/// copy per backend, and without the attribute LLVM keeps its body out of
/// line, compiled for the build's baseline (SSE2), so that `dispatch` gains
/// nothing (its machine code shows the boundary jumping to the SSE2 body).
/// Measured on an AVX2 EPYC (default build, fastest samples of `cargo bench
/// -p matrix-benches --bench matrix --features dsl -- 'matrix (mul|madd)
/// 4x4'`): a batch of 4x4 `f32` `a * b + c` costs 8.5 ns per operation on
/// the operators and 3.4 ns inside `dispatch` with the attribute; a batch
/// of 4x4 `i32` products 10.0 ns and 10.7 ns (medians 18.0 and 11.2 ns).
/// Exact 4x4 `f32` products returned by value gain nothing from it: they
/// run the SSE2 kernel inline outside `#[dispatch]` (the same bits, no copy
/// of the operands), as exact 4x4 `f64` ones do on CPUs without AVX2; in a
/// build for an AVX-512 target, the AVX-512 kernel compiled into the
/// caller.
///
/// **Write the loop's body inside the closure** too. A function or inner
/// closure that the body calls for each operation is compiled for the
/// build's baseline unless LLVM inlines it into each copy, and it may not.
/// Even an `#[inline(always)]` inner closure stays out of line when it is
/// called through a reference (`&f`, whose `Fn` shim carries no such
/// attribute): a batch of 4x4 `i32` products called so took 183 ns per
/// batch of 16, against 63 ns with the same closure passed by value, on an
/// AMD EPYC Zen 3 (default build). Mark such a helper `#[inline(always)]`
/// and call it directly, or use a `#[dispatch]` kernel.
///
/// ```
/// use matrix_core::Matrix;
///
/// let a = vec![Matrix::<f32, 4, 4>::identity(); 64];
/// let b = vec![Matrix::<f32, 4, 4>::splat(2.0); 64];
/// let products: Vec<_> = matrix_core::dispatch(#[inline(always)] || {
///     a.iter().zip(&b).map(|(x, y)| x * y).collect()
/// });
/// assert_eq!(products[7], Matrix::splat(2.0));
/// ```
#[inline]
pub fn dispatch<R>(f: impl FnOnce() -> R) -> R {
    Auto.run(Closure(f))
}

/// A closure as an [`Op`]: run inside the boundary, so the closure is
/// inlined into code compiled for the backend.
pub(crate) struct Closure<F>(pub(crate) F);

impl<R, F: FnOnce() -> R> Op for Closure<F> {
    type Output = R;
    #[inline(always)]
    fn run<S: Isa>(self, _: S) -> R {
        (self.0)()
    }
}
