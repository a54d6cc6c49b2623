//! The pipeline: parse, check, lower, emit; errors are appended as `compile_error!`s.

use crate::diag::Diagnostics;
use crate::{check, emit, lower, parse};
use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};

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

/// Expands `{ path } block...`: [`expand`] of the block, with every
/// `::matrix_core` the emitter wrote replaced by `path` (the `$crate` of
/// matrix-core's `matrix!`). Input without the leading brace group expands
/// as `::matrix_core`.
pub(crate) fn expand_at(input: TokenStream) -> TokenStream {
    let mut rest = input.clone().into_iter();
    match rest.next() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
            with_crate_path(expand(rest.collect()), &g.stream())
        }
        _ => expand(input),
    }
}

/// `tokens` with each `::matrix_core` that starts a path (not after a
/// name: `a::matrix_core` is left alone) replaced by `path`.
fn with_crate_path(tokens: TokenStream, path: &TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        // `a::matrix_core` continues a path; `use ::matrix_core`,
        // `impl<> ::matrix_core` and `(::matrix_core` start one
        let starts_path = match out.last() {
            Some(TokenTree::Ident(id)) => KEYWORDS.iter().any(|k| id == k),
            _ => true,
        };
        if starts_path && is_crate_path(&trees[i..]) {
            out.extend(path.clone());
            i += 3;
            continue;
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => {
                let mut inner = Group::new(g.delimiter(), with_crate_path(g.stream(), path));
                inner.set_span(g.span());
                TokenTree::Group(inner)
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// The keywords after which a path can start.
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "dyn", "else", "for", "if", "impl", "in", "let", "match", "move",
    "mut", "pub", "ref", "return", "static", "type", "unsafe", "use", "where", "while", "yield",
];

/// Whether `trees` starts with `::matrix_core`.
fn is_crate_path(trees: &[TokenTree]) -> bool {
    matches!(
        trees,
        [TokenTree::Punct(a), TokenTree::Punct(b), TokenTree::Ident(name), ..]
            if a.as_char() == ':' && b.as_char() == ':' && name == "matrix_core"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn crate_paths_are_replaced_where_they_start_a_path() {
        let path = quote!(my::re_export);
        let out = with_crate_path(
            quote!(::matrix_core::Matrix<f32, 2, 2>; (::matrix_core::private::x()); a::matrix_core::y; use ::matrix_core::z),
            &path,
        );
        assert_eq!(
            out.to_string(),
            quote!(my::re_export::Matrix<f32, 2, 2>; (my::re_export::private::x()); a::matrix_core::y; use my::re_export::z)
                .to_string()
        );
    }

    #[test]
    fn input_without_a_path_expands_as_matrix_core() {
        let plain = expand_at(quote!(typedef float m __attribute__((matrix_type(2, 2)));));
        assert!(plain.to_string().contains(":: matrix_core ::"));
        let at = expand_at(quote!({ krate } typedef float m __attribute__((matrix_type(2, 2)));));
        assert!(!at.to_string().contains("matrix_core"));
        assert!(at.to_string().contains("krate ::"));
    }

    #[test]
    fn only_a_typedef_a_kernel_names_is_kept_from_the_dead_code_lint() {
        let out = expand(quote! {
            typedef float used __attribute__((ext_vector_type(4)));
            typedef float unused __attribute__((ext_vector_type(4)));
            fn k() -> f32 { let v = (used){1, 2, 3, 4}; v.w }
        })
        .to_string();
        let allowed = |name: &str| {
            let alias = out
                .find(&format!("type {name} ="))
                .unwrap_or_else(|| panic!("no alias {name} in {out}"));
            let item = out[..alias].rfind(';').map_or(0, |end| end + 1);
            out[item..alias].contains("allow (dead_code)")
        };
        assert!(allowed("used"), "{out}");
        assert!(!allowed("unused"), "{out}");
    }
}
