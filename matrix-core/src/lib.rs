//! Fixed-size matrices with the semantics of Clang's matrix types extension
//! (`T __attribute__((matrix_type(R, C)))`), and the `matrix!` kernel DSL
//! that brings the extension's syntax to Rust.
//!
//! [`Matrix<T, R, C>`](Matrix) is an `R`×`C` matrix of an [`Element`] type
//! `T`: `i8 i16 i32 i64 u8 u16 u32 u64 f32 f64`, `half::f16` (C's
//! `_Float16`) with the `f16` feature and `half::bf16` (C's `__bf16`) with
//! the `bf16` feature.
//!
//! ```
//! use matrix_core::Matrix;
//!
//! type M2x3 = Matrix<f32, 2, 3>;
//! type M3x2 = Matrix<f32, 3, 2>;
//!
//! let a = M2x3::from_fn(|r, c| (10 * r + c) as f32);
//! let b = M3x2::from_fn(|r, c| (r + 2 * c + 1) as f32);
//! let p = a * b; // Matrix<f32, 2, 2>: rustc checks the inner dimension
//! assert_eq!(p.to_rows(), [[8.0, 14.0], [68.0, 134.0]]);
//! assert_eq!(a.transpose()[(2, 1)], 12.0);
//! assert_eq!((a + 1.0)[(1, 2)], 13.0);
//! assert_eq!(format!("{p}"), "[[8, 14],\n [68, 134]]");
//! ```
//!
//! # Layout: the same bytes as Clang
//!
//! A `Matrix<T, R, C>` is `#[repr(C)]`, **column-major** and unpadded, as
//! the specification's "Decisions for the Implementation" lay out a matrix
//! type: element `(r, c)` is at flat index `c * R + r`,
//! `size_of == R * C * size_of::<T>()` and `align_of == align_of::<T>()`.
//! A `*const Matrix<f32, 4, 4>` and a C `float
//! __attribute__((matrix_type(4, 4))) *` point at the same memory.
//!
//! ```
//! use matrix_core::Matrix;
//!
//! let m = Matrix::<f32, 2, 3>::from_fn(|r, c| (10 * r + c) as f32);
//! assert_eq!(m.as_slice(), &[0.0, 10.0, 1.0, 11.0, 2.0, 12.0]);
//! assert_eq!(size_of::<Matrix<f32, 2, 3>>(), 24);
//! assert_eq!(align_of::<Matrix<f64, 3, 3>>(), align_of::<f64>());
//! ```
//!
//! # Arithmetic semantics
//!
//! * **Integers wrap.** Every integer matrix operation (`+ - *`, the sums
//!   and products inside a matrix product, the scalar forms) uses
//!   `wrapping_*`, as Clang's code does; nothing panics on overflow.
//!   Division uses `wrapping_div` (`MIN / -1 == MIN`), and integer division
//!   by zero panics, where C has undefined behaviour.
//! * **No contraction.** Every float multiply and add is rounded on its
//!   own; nothing is fused into an FMA.
//! * **Summation order of a product.** Each element of `a * b` is
//!   `a[r][0]*b[0][c]`, then for `k = 1..K` the running sum plus
//!   `a[r][k]*b[k][c]`: it starts from the first product, not from `0.0`,
//!   and adds in `k` order. That is bit for bit what Clang computes with
//!   `-ffp-contract=off`.
//! * **Conversions** ([`Matrix::cast`], [`CastFrom`]) are Rust's `as`:
//!   float to integer truncates toward zero and saturates, NaN becomes 0.
//!
//! ```
//! use matrix_core::Matrix;
//!
//! // wrapping, element-wise and inside a product
//! let u = Matrix::<u8, 2, 2>::from_rows([[200, 255], [100, 0]]);
//! assert_eq!((u + u).to_rows(), [[144, 254], [200, 0]]);
//! assert_eq!((u * u).to_rows(), [[220, 56], [32, 156]]);
//! let i = Matrix::<i32, 1, 2>::from_rows([[i32::MAX, 1]]);
//! assert_eq!((i * Matrix::<i32, 2, 1>::splat(1))[(0, 0)], i32::MIN);
//!
//! // the sum starts at the first product and runs in k order
//! let neg_zero = Matrix::<f64, 1, 1>::splat(-0.0) * Matrix::<f64, 1, 1>::splat(1.0);
//! assert!(neg_zero[(0, 0)].is_sign_negative());
//! let a = Matrix::<f64, 1, 3>::from_rows([[1e20, 1.0, -1e20]]);
//! assert_eq!((a * Matrix::<f64, 3, 1>::splat(1.0))[(0, 0)], 0.0);
//!
//! // casts are `as`
//! let f = Matrix::<f32, 1, 3>::from_rows([[-1.7, 3e9, f32::NAN]]);
//! assert_eq!(f.cast::<i32>().to_rows(), [[-1, i32::MAX, 0]]);
//! ```
//!
//! # Operators outside the macro
//!
//! `+` and `-` of two matrices of one type; `*` of a `Matrix<T, R, K>` and
//! a `Matrix<T, K, C>`; `+ - * /` of a matrix and a scalar of its element
//! type, and `+ - *` of a scalar and a matrix; `+= -= *= /=`, where
//! `a *= b` takes a scalar or a `Matrix<T, C, C>` (so the type of `a` is
//! kept). Shapes that do not fit are rustc type errors. There is no unary
//! minus and no ordering, as in the specification.
//!
//! ```
//! use matrix_core::Matrix;
//!
//! let mut a = Matrix::<i32, 2, 3>::splat(2);
//! a *= Matrix::<i32, 3, 3>::identity();
//! a -= 1;
//! a /= 2; // truncates toward zero
//! assert_eq!(a, Matrix::splat(0));
//! assert_eq!(10 - Matrix::<i32, 1, 2>::from_rows([[1, 2]]), Matrix::from_rows([[9, 8]]));
//! ```
//!
//! ```compile_fail
//! use matrix_core::Matrix;
//! // a 2x3 times a 2x3: the inner dimensions differ
//! let _ = Matrix::<f32, 2, 3>::zero() * Matrix::<f32, 2, 3>::zero();
//! ```
//!
//! # Backends: every CPU at its best, from one build
//!
//! Every x86-64 build holds the kernels of every backend — SSE2, AVX2 with
//! FMA, AVX-512 (F, DQ, BW, VL) — and runs those of the best one the CPU has, detected once
//! ([`Backend::active`]). A binary built with plain `cargo build --release`
//! runs AVX2 code on an AVX2 machine and AVX-512 code on an AVX-512 one,
//! with bit-identical results (except under `#[fp_contract(fast)]`, where a
//! backend with FMA rounds each multiply-add once). Other targets run the
//! portable scalar backend.
//!
//! Each matrix operation checks the detected backend once (a load and a
//! predictable branch) and runs its kernel. For hot loops of small
//! operations, where even that matters, compile the loop for the backend:
//! [`dispatch`] runs a closure inside code compiled for it, and
//! `#[dispatch]` on a `matrix!` kernel compiles the whole kernel once per
//! backend with no check inside.
//!
//! ```
//! use matrix_core::{Backend, Matrix};
//!
//! println!("running on {}", Backend::active());
//! let m = Matrix::<f32, 8, 8>::identity();
//! assert_eq!(m * m, m);
//! ```
//!
//! The environment variable `MATRIX_CORE_BACKEND` (`scalar`, `sse2`,
//! `avx2`, `avx512`) picks another supported backend, for tests and
//! benchmarks.
//!
//! # Features
//!
//! * `std` (default): run-time CPU detection through
//!   `is_x86_feature_detected!` and the `MATRIX_CORE_BACKEND` override.
//!   Without it the crate is `#![no_std]` (it uses `alloc`): the backend is
//!   still chosen at run time, from the crate's own CPUID reading.
//! * `macros` (default): re-exports the `matrix!` macro, the kernel DSL.
//! * `serde`: `Serialize`/`Deserialize`; a [`Matrix`] is its rows, each an
//!   array (`[[1, 2, 3], [4, 5, 6]]` for a 2x3, the order it is written
//!   in), a [`Vector`] the flat array of its elements.
//! * `bytemuck`: `Zeroable` and `Pod` for matrices and vectors of `Pod`
//!   elements (vectors whose padding lanes are bytes of their own, such as
//!   a 3-element vector's fourth lane, are `Pod` too: the lanes are
//!   initialised elements).
//! * `mint`: `From` both ways with `mint`'s column matrices and vectors,
//!   the common currency of glam, nalgebra, cgmath and ultraviolet.
//! * `approx`: `AbsDiffEq`, `RelativeEq` and `UlpsEq` for float matrices
//!   and vectors, element by element.
//! * `f16`: `half::f16` as an element type. `half` (2.5 and later) needs
//!   `zerocopy` with its derive macros, which build on `syn` 2 while
//!   `matrix-macros` builds on `syn` 3: with `f16` a build holds both.
//! * `bf16`: `half::bf16` as an element type (each operation computed in
//!   `f32` and rounded to `bf16`, as Clang computes `__bf16` matrices), and
//!   the widening [`Matrix::mad`] of `bf16` operands into an `f32`
//!   accumulator. The same note on `syn` 2 applies.
//! * `half`: both `f16` and `bf16`.
//! * `force-scalar`: the portable scalar backend whatever the CPU has.

#![deny(missing_docs)]
#![cfg_attr(not(any(feature = "std", test)), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]

// The widened integer products above 16x16 keep their buffers in `Vec`s,
// and `UnknownBackend` holds the name it could not parse.
extern crate alloc;

mod arith;
mod element;
pub mod guide;
mod interop;
pub mod iter;
mod kernels;
pub mod layout;
mod linalg;
mod mad;
mod matrix;
mod memory;
mod mixed;
mod ops;
#[doc(hidden)]
pub mod private;
mod simd;
mod vector;

pub use arith::CastFrom;
pub use element::Element;
pub use kernels::dispatch::dispatch;
pub use layout::{ColumnMajor, Layout, RowMajor};
pub use linalg::Float;
pub use mad::MadOperands;
pub use matrix::{LengthError, Matrix};
pub use memory::MemoryLayout;
pub use mixed::{KernelAdd, KernelDiv, KernelIndex, KernelMul, KernelSub};
pub use simd::dispatch::{Backend, UnknownBackend};
pub use vector::{Lanes, Vector};

/// Clang's matrix types extension as a Rust DSL.
///
/// A block of matrix typedefs, in the specification's own spelling, and
/// kernels: Rust functions whose bodies the macro type-checks with Clang's
/// rules (shape errors are compile errors, worded as Clang words them) and
/// lowers to code over [`Matrix`].
///
/// ```
/// use matrix_core::matrix;
///
/// matrix! {
///     pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
///
///     /// `a * b + c`, summed as Clang sums it with `-ffp-contract=off`.
///     pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t {
///         a * b + c
///     }
///
///     pub fn load(src: &[f32]) -> m4x4_t {
///         __builtin_matrix_column_major_load(src, 4, 4, 8)
///     }
///
///     pub fn trace_like(m: m4x4_t, i: usize) -> f32 {
///         m[i][i] + __builtin_matrix_transpose(m)[0][3]
///     }
/// }
///
/// let a = m4x4_t::from_fn(|r, c| (r * 4 + c) as f32);
/// let m = madd(a, m4x4_t::identity(), m4x4_t::splat(1.0));
/// assert_eq!(m[(2, 3)], 12.0);
/// let data: Vec<f32> = (0..32).map(|x| x as f32).collect();
/// assert_eq!(load(&data)[(1, 2)], 17.0); // column 2 starts at 2 * 8
/// assert_eq!(trace_like(a, 1), 5.0 + 12.0);
/// ```
///
/// Each typedef becomes `type NAME = ::matrix_core::Matrix<ELEM, R, C>;`.
/// A typedef of a typedef (`typedef mat44 mat4;`, or `type mat4 = mat44;`
/// in any order) is an alias: the same type, named as written in messages.
///
/// Vectors: `typedef float vec3 __attribute__((ext_vector_type(3)));` (or
/// `type vec3 = Vector<f32, 3>;`) is a [`Vector`], with Clang's components
/// and swizzles (`v.x`, `v.zyx`, `v.s3`, `v.hi`, as values and places),
/// `v[i]`, element-wise arithmetic with Clang's scalar splat, comparisons
/// giving mask vectors, compound literals `(vec3){a, b, c}`, `(vec3)(s)`
/// and `__builtin_convertvector(v, T)`; beyond Clang, `m * v`, `v * m` and
/// `__builtin_matrix_column`/`_row`/`_insert_column`/`_insert_row`. C's
/// `<math.h>` functions (`sqrtf`, `atan2`, ...) are available, and kernel
/// code keeps its meaning inside closures and std's formatting and
/// assertion macros.
///
/// ```
/// use matrix_core::matrix;
///
/// matrix! {
///     typedef float vec3 __attribute__((ext_vector_type(3)));
///     typedef float mat3 __attribute__((matrix_type(3, 3)));
///
///     pub fn cross(a: vec3, b: vec3) -> vec3 {
///         a.yzx * b.zxy - a.zxy * b.yzx
///     }
///
///     pub fn length(m: mat3, v: vec3) -> f32 {
///         let w = m * v;
///         sqrtf(w.x * w.x + w.y * w.y + w.z * w.z)
///     }
/// }
///
/// let (x, y) = (vec3::from_array([1.0, 0.0, 0.0]), vec3::from_array([0.0, 1.0, 0.0]));
/// assert_eq!(cross(x, y).to_array(), [0.0, 0.0, 1.0]);
/// assert_eq!(length(mat3::identity(), vec3::from_array([3.0, 4.0, 0.0])), 5.0);
/// ```
/// Inside kernels, matrices support `m[r][c]` (a dynamic index out of range
/// panics), `+ -` of two matrices or a matrix and a scalar, `*` (product or
/// scalar), `/` by a scalar, the compound assignments, `expr as NAME`
/// (element-wise `as`), and the builtins `__builtin_matrix_transpose`,
/// `__builtin_matrix_column_major_load` and
/// `__builtin_matrix_column_major_store` (the stride is optional).
///
/// # Kernel attributes
///
/// * `#[fp_contract(fast)]` / `#[fp_contract(off)]` on a kernel, or
///   `#![fp_contract(...)]` on the block: whether `a * b + c` may round
///   each multiply-add once (Clang's `-ffp-contract`).
/// * `#[dispatch]`: the kernel, with its loops and the small products
///   inlined into it, is compiled once per backend, and each call checks
///   the CPU's backend once instead of at every operation. Use it on a
///   kernel that loops over many small matrices. It applies to ordinary
///   functions returning a value (not `const fn`, not `async fn`, not a
///   reference).
///
/// ```
/// use matrix_core::matrix;
///
/// matrix! {
///     pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
///
///     #[dispatch]
///     pub fn transform_all(ms: &mut [m4x4_t], view: &m4x4_t) {
///         for i in 0..ms.len() {
///             ms[i] = *view * ms[i];
///         }
///     }
/// }
///
/// let mut ms = vec![m4x4_t::splat(1.0); 100];
/// let twice = m4x4_t::from_fn(|r, c| if r == c { 2.0 } else { 0.0 });
/// transform_all(&mut ms, &twice);
/// assert!(ms.iter().all(|m| *m == m4x4_t::splat(2.0)));
/// ```
#[cfg(feature = "macros")]
#[macro_export]
macro_rules! matrix {
    ($($block:tt)*) => {
        $crate::private::matrix_at! { { $crate } $($block)* }
    };
}
