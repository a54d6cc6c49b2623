//! The `matrix!` procedural macro: Clang's matrix types extension as a Rust
//! DSL. Users depend on `matrix-core`, which re-exports it and documents the
//! language.
//!
//! The crate is a pipeline, one module a stage: `parse` (tokens to AST),
//! `check` (AST to typed IR, every rule and diagnostic), `lower` (how each
//! operation runs: product kernels, fusion), `emit` (lowered IR to tokens
//! naming `::matrix_core`, replaced in `expand` by the path the macro was
//! reached through). `diag` holds every message.

#![deny(missing_docs)]

mod check;
mod consteval;
mod diag;
mod emit;
mod expand;
mod ir;
mod lower;
mod parse;
mod types;

#[cfg(test)]
mod fuzz_tests;

/// Expands a block of matrix typedefs, constants and kernels whose
/// expansion names the runtime by the path in the leading brace group:
/// `matrix_at!({ $crate } block...)`. `matrix_core::matrix!` is a
/// `macro_rules!` macro that calls this with its `$crate`, so the expansion
/// works however the user reaches matrix-core (a renamed dependency, a
/// re-export from another crate). See `matrix_core::matrix`.
#[doc(hidden)]
#[proc_macro]
pub fn matrix_at(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand::expand_at(input.into()).into()
}
