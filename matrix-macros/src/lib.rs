//! The `matrix!` procedural macro: Clang's matrix types extension as a Rust
//! DSL. Users depend on `matrix-core`, which re-exports it and documents the
//! language.
//!
//! The crate is a pipeline, one module a stage: `parse` (tokens to AST),
//! `check` (AST to typed IR, every rule and diagnostic), `lower` (how each
//! operation runs: product kernels, fusion), `emit` (lowered IR to tokens
//! naming `::matrix_core`). `diag` holds every message.

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

/// Expands a block of matrix typedefs, constants and kernels. See `matrix_core::matrix`.
#[proc_macro]
pub fn matrix(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    expand::expand(input.into()).into()
}
