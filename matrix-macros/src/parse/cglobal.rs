//! C's constants at file scope: a table or a value a C file keeps beside
//! its functions (`static const float K[3] = {0.25f, 0.5f, 0.25f};`,
//! `const int steps = 4;`) is a `const` item of the block, so that the
//! functions pasted with it read it as C's do.
//!
//! | C | Rust |
//! |---|---|
//! | `static const float w[] = {1, 0.5f};` | `const w: [f32; 2] = { let mut w = [0f32; 2]; w[0] = 1f32; w[1] = 0.5f32; w };` |
//! | `const int steps = 4;` | `const steps: i32 = 4i32;` |
//!
//! The element type is a scalar; the elements C leaves out are zero, as
//! in a local array (`parse::cstmt`); a literal takes the element type's
//! suffix and any other value converts with `as`, as C converts an
//! initialiser. The item is private unless written `pub`, and may be
//! named in lower case, as C's are.

use super::cstmt::{array_dims, array_elements, declarator};
use super::{cliteral, ctype, punct, regroup};
use crate::types::Scalar;
use proc_macro2::{Ident, Literal, Span, TokenStream, TokenTree};
use quote::quote_spanned;
use std::collections::HashSet;

/// The `const` item for `tokens`, a C constant's declaration from its
/// first word to its `;` (after any Rust visibility `vis`), or `None`
/// where they are not one.
pub(super) fn constant(
    vis: &TokenStream,
    tokens: &[TokenTree],
    names: &HashSet<String>,
) -> Option<TokenStream> {
    let word = |i: usize, w: &str| matches!(tokens.get(i), Some(TokenTree::Ident(id)) if id == w);
    let start = match (word(0, "static"), word(0, "const"), word(1, "const")) {
        (true, _, true) => 2,
        (false, true, _) => 1,
        _ => return None,
    };
    let (ty, after) = ctype::type_at(tokens, start, names)?;
    let ty: TokenStream = ty.into_iter().collect();
    let scalar = Scalar::from_rust_name(&ty.to_string())?;
    let [rest @ .., TokenTree::Punct(semi)] = &tokens[after..] else {
        return None;
    };
    if semi.as_char() != ';' {
        return None;
    }
    let d = declarator(rest)?;
    if d.pointer {
        return None;
    }
    let name = d.name;
    let span = name.span();
    let value = |v: &[TokenTree]| typed(v, scalar, &ty, span);
    let (full_ty, expr) = if d.dims.is_empty() {
        let expr = match d.init {
            Some(init) => value(init),
            None => zero(scalar, span),
        };
        (ty.clone(), expr)
    } else {
        let elements = match d.init {
            Some(init) => array_elements(init, &d.dims)?,
            None => Vec::new(),
        };
        let dims = array_dims(&d.dims, &elements)?;
        let mut full_ty = ty.clone();
        let mut table = zero(scalar, span);
        for dim in dims.iter().rev() {
            let dim: TokenStream = dim.iter().cloned().collect();
            full_ty = quote_spanned!(span=> [#full_ty; #dim]);
            table = quote_spanned!(span=> [#table; #dim]);
        }
        let local = Ident::new("__matrix_table", Span::mixed_site().located_at(span));
        let sets = elements.iter().map(|(path, v)| {
            let at = path.iter().map(|&i| Literal::usize_unsuffixed(i));
            let v = value(v);
            quote_spanned!(span=> #local #([#at])* = #v;)
        });
        let expr = quote_spanned!(span=> {
            #[allow(unused_mut)]
            let mut #local: #full_ty = #table;
            #(#sets)*
            #local
        });
        (full_ty, expr)
    };
    let semi = punct(';', semi.span());
    // A value converted with `as` may be of its type already (`SQ(0.5f)`
    // of a macro): C's conversion, which costs nothing. A C file declares
    // more constants than a block uses (a header's, an enumeration's, one
    // only a constant subscript reads, folded), and C does not warn.
    Some(quote_spanned!(span=>
        #[allow(non_upper_case_globals, dead_code, clippy::unnecessary_cast)]
        #vis const #name: #full_ty = #expr #semi
    ))
}

/// An initialiser's value in the element type: a literal with its suffix
/// (`1` for a `float` is `1f32`), anything else converted with `as`.
fn typed(v: &[TokenTree], scalar: Scalar, ty: &TokenStream, span: Span) -> TokenStream {
    let v: Vec<TokenTree> = cliteral::rewrite(v.iter().cloned().collect())
        .into_iter()
        .collect();
    let (sign, digits) = match v.as_slice() {
        [TokenTree::Punct(minus), TokenTree::Literal(l)] if minus.as_char() == '-' => {
            (Some(minus), l)
        }
        [TokenTree::Literal(l)] => (None, l),
        _ => {
            let v: TokenStream = in_float(&v, scalar).into_iter().collect();
            return quote_spanned!(span=> (#v) as #ty);
        }
    };
    let text = digits.to_string();
    let suffix = scalar.rust_name();
    let unsuffixed_integer = text.bytes().all(|b| b.is_ascii_digit());
    let unsuffixed_float = scalar.is_float()
        && text.bytes().all(|b| {
            b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'E' || b == b'-' || b == b'+'
        });
    let literal = if text.ends_with(suffix) {
        digits.clone()
    } else if unsuffixed_integer || unsuffixed_float {
        let mut l: Literal = format!("{text}{suffix}")
            .parse()
            .ok()
            .unwrap_or_else(|| digits.clone());
        l.set_span(digits.span());
        l
    } else {
        let v: TokenStream = in_float(&v, scalar).into_iter().collect();
        return quote_spanned!(span=> (#v) as #ty);
    };
    match sign {
        Some(minus) => quote_spanned!(span=> #minus #literal),
        None => quote_spanned!(span=> #literal),
    }
}

/// An initialiser computed in `double` where the element type is a float
/// (`1.0 / 3`: C converts the `3`; Rust divides no float by an integer):
/// its decimal integer literals written as floats, outside subscripts.
fn in_float(v: &[TokenTree], scalar: Scalar) -> Vec<TokenTree> {
    if !scalar.is_float() {
        return v.to_vec();
    }
    v.iter()
        .map(|t| match t {
            TokenTree::Literal(l) if l.to_string().bytes().all(|b| b.is_ascii_digit()) => {
                // A literal past `double`'s range stays as written, for
                // rustc to report.
                match l.to_string().parse::<f64>() {
                    Ok(v) if v.is_finite() => {
                        let mut f = Literal::f64_unsuffixed(v);
                        f.set_span(l.span());
                        TokenTree::Literal(f)
                    }
                    _ => t.clone(),
                }
            }
            TokenTree::Group(g) if g.delimiter() == proc_macro2::Delimiter::Parenthesis => {
                regroup(g, |inner| in_float(inner, scalar))
            }
            other => other.clone(),
        })
        .collect()
}

/// The element type's zero, a literal (`0f32`): a constant expression.
fn zero(scalar: Scalar, span: Span) -> TokenStream {
    let mut l: Literal = format!("0{}", scalar.rust_name())
        .parse()
        .unwrap_or_else(|_| Literal::u8_unsuffixed(0));
    l.set_span(span);
    quote_spanned!(span=> #l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::show;

    fn item(src: &str) -> Option<String> {
        let tokens: Vec<TokenTree> = src.parse::<TokenStream>().unwrap().into_iter().collect();
        constant(&TokenStream::new(), &tokens, &HashSet::new()).map(show)
    }

    #[test]
    fn c_constants_become_const_items() {
        assert_eq!(
            item("const int steps = 4;").as_deref(),
            Some(
                "# [allow (non_upper_case_globals , dead_code , clippy :: unnecessary_cast)] const steps : i32 = 4i32 ;"
            )
        );
        assert_eq!(
            item("static const float w[] = {1, -0.5f, 1.0 / 3};").as_deref(),
            Some(
                "# [allow (non_upper_case_globals , dead_code , clippy :: unnecessary_cast)] const w : [f32 ; 3] = {# [allow (unused_mut)] \
                 let mut __matrix_table : [f32 ; 3] = [0f32 ; 3] ; __matrix_table [0] = 1f32 ; \
                 __matrix_table [1] = - 0.5f32 ; __matrix_table [2] = (1.0 / 3.0) as f32 ; __matrix_table} ;"
            )
        );
        // An integer past `double`'s range is left for rustc (no panic).
        let huge = format!("static const float h[] = {{2 * {}}};", "9".repeat(400));
        assert!(item(&huge).is_some_and(|s| s.contains(&"9".repeat(400))));
        // Rust's items, a pointer, a changing `static`: not C constants.
        for rust in [
            "const N: usize = 3;",
            "static X: i32 = 1;",
            "static float s = 0;",
            "const char *p = 0;",
        ] {
            assert_eq!(item(rust), None, "{rust}");
        }
    }
}
