//! The pipeline: parse, check, emit; errors are appended as `compile_error!`s.

use crate::diag::Diagnostics;
use crate::{check, emit, parse};
use proc_macro2::TokenStream;

/// Expands a `matrix!` block. Never panics: every problem with the input is
/// a `compile_error!` on the offending tokens, beside the items that are fine
/// and stubs of the kernels that are not.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let mut diags = Diagnostics::default();
    let block = parse::parse_block(input, &mut diags);
    let program = check::check(block, &mut diags);
    let mut out = emit::emit(&program);
    out.extend(diags.to_compile_errors());
    out
}
