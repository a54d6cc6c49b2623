//! The pipeline: parse, check, lower, emit; errors are appended as `compile_error!`s.

use crate::diag::Diagnostics;
use crate::{check, emit, lower, parse};
use proc_macro2::TokenStream;

/// Expands a `matrix!` block. Never panics: every problem with the input is
/// a `compile_error!` on the offending tokens, beside the items that are fine
/// and stubs of the kernels that are not.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let mut diags = Diagnostics::default();
    let block = parse::parse_block(input, &mut diags);
    let mut program = check::check(block, &mut diags);
    lower::lower(&mut program.kernels);
    let mut out = emit::emit(&program);
    out.extend(diags.to_compile_errors());
    out
}
