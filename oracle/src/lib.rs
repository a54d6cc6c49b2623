//! Differential tests of the `matrix!` macro against clang-19.
//!
//! One AST ([`ast`]) is generated at random ([`generate`]) and printed twice
//! ([`emit`]): as C with Clang's matrix extension and as a `matrix!` block.
//! A fixed corpus generated from a seed is checked in under `corpus/`
//! ([`corpus`]); the tests compile the C side with clang-19 and compare
//! every output of every kernel, bit for bit, with the Rust side, and check
//! that ill-typed mutants ([`mutate`]) are rejected by both with the same
//! message on the same line ([`harness`]). See `oracle/README.md`.

/// The same tokens as a `matrix!` block and, through `stringify!`, as C
/// source: `C_SOURCE`, for clang to compile beside the block's kernels.
#[macro_export]
macro_rules! c_and_rust {
    ($($source:tt)*) => {
        ::matrix_core::matrix! { $($source)* }
        /// The block's source, for clang.
        const C_SOURCE: &str = stringify!($($source)*);
    };
}

pub mod ast;
pub mod corpus;
pub mod dual;
pub mod emit;
pub mod generate;
pub mod harness;
pub mod lgen;
pub mod mutate;
pub mod prng;
pub mod rt;
pub mod ty;
pub mod vgen;
pub mod vmutate;
