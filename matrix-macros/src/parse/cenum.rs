//! C's enumerations at file scope, as the `int` constants they declare:
//!
//! | C | here |
//! |---|---|
//! | `enum { X, Y, Z };` | `const int X = 0; const int Y = X + 1; const int Z = Y + 1;` |
//! | `enum axis { U = 2, V };` | `const int U = 2; const int V = U + 1;` |
//! | `typedef enum { RED, GREEN } colour;` | the constants, and `typedef int colour;` |
//!
//! which the block then reads as any C constant and typedef. A Rust `enum`
//! (named, its variants possibly with fields, and no `;` after its
//! braces) is left as written. The type `enum axis` is not a type name
//! here: a `typedef` gives the enumeration one.

use proc_macro2::{Delimiter, Group, Ident, Literal, TokenTree};

/// `trees` with each C enumeration replaced by its constants.
pub(crate) fn rewrite(trees: Vec<TokenTree>) -> Vec<TokenTree> {
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if super::item_start(&trees, i)
            && let Some((constants, taken)) = enumeration_at(&trees[i..])
        {
            out.extend(constants);
            i += taken;
            continue;
        }
        out.push(trees[i].clone());
        i += 1;
    }
    out
}

/// The constants (and typedef) of a C enumeration at the start of `t`,
/// and the tokens it takes.
fn enumeration_at(t: &[TokenTree]) -> Option<(Vec<TokenTree>, usize)> {
    let word = |k: usize, w: &str| matches!(t.get(k), Some(TokenTree::Ident(id)) if id == w);
    let public = word(0, "pub");
    let mut k = usize::from(public);
    let typedef = word(k, "typedef");
    k += usize::from(typedef);
    if !word(k, "enum") {
        return None;
    }
    k += 1;
    let tag = matches!(t.get(k), Some(TokenTree::Ident(_)));
    k += usize::from(tag);
    let Some(TokenTree::Group(body)) = t.get(k) else {
        return None;
    };
    if body.delimiter() != Delimiter::Brace {
        return None;
    }
    k += 1;
    let name = match (typedef, t.get(k)) {
        (true, Some(TokenTree::Ident(name))) => {
            k += 1;
            Some(name.clone())
        }
        (true, _) => return None,
        (false, _) => None,
    };
    // C's declaration ends with `;`; a Rust `enum` has none.
    if !matches!(t.get(k), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
        return None;
    }
    let enumerators = enumerators(body)?;
    let mut out = Vec::new();
    let mut previous: Option<Ident> = None;
    for (constant, value) in enumerators {
        let span = constant.span();
        let value: Vec<TokenTree> = match (value, &previous) {
            (Some(value), _) => value,
            (None, None) => vec![TokenTree::Literal(Literal::u8_unsuffixed(0))],
            (None, Some(p)) => vec![
                TokenTree::Ident(p.clone()),
                super::punct('+', span),
                TokenTree::Literal(Literal::u8_unsuffixed(1)),
            ],
        };
        if public {
            out.push(TokenTree::Ident(Ident::new("pub", span)));
        }
        out.push(TokenTree::Ident(Ident::new("const", span)));
        out.push(TokenTree::Ident(Ident::new("int", span)));
        out.push(TokenTree::Ident(constant.clone()));
        out.push(super::punct('=', span));
        out.push(super::group(Delimiter::Parenthesis, value, span));
        out.push(super::punct(';', span));
        previous = Some(constant);
    }
    if let Some(name) = name {
        let span = name.span();
        if public {
            out.push(TokenTree::Ident(Ident::new("pub", span)));
        }
        out.push(TokenTree::Ident(Ident::new("typedef", span)));
        out.push(TokenTree::Ident(Ident::new("int", span)));
        out.push(TokenTree::Ident(name));
        out.push(super::punct(';', span));
    }
    Some((out, k + 1))
}

/// The enumerators `NAME` or `NAME = VALUE` of a C enumeration's body,
/// separated by commas (a last comma allowed); `None` for anything else
/// (a Rust variant with fields).
fn enumerators(body: &Group) -> Option<Vec<(Ident, Option<Vec<TokenTree>>)>> {
    let inner: Vec<TokenTree> = body.stream().into_iter().collect();
    let mut out = Vec::new();
    for part in super::cstmt::split_top_level(&inner, ',') {
        match part {
            [] => continue,
            [TokenTree::Ident(name)] => out.push((name.clone(), None)),
            [TokenTree::Ident(name), TokenTree::Punct(eq), value @ ..]
                if eq.as_char() == '=' && !value.is_empty() =>
            {
                out.push((name.clone(), Some(value.to_vec())));
            }
            _ => return None,
        }
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::assert_rewrites;
    use proc_macro2::TokenStream;

    fn rw(src: &str) -> String {
        let trees: Vec<TokenTree> = src.parse::<TokenStream>().unwrap().into_iter().collect();
        rewrite(trees)
            .into_iter()
            .collect::<TokenStream>()
            .to_string()
    }

    #[test]
    fn enumerations_become_int_constants() {
        assert_rewrites(
            rw,
            &[
                (
                    "enum { X, Y = 4, Z, };",
                    "const int X = (0) ; const int Y = (4) ; const int Z = (Y + 1) ;",
                ),
                (
                    "typedef enum axis { U = 1 << 2, V } axis_t; int f();",
                    "const int U = (1 << 2) ; const int V = (U + 1) ; typedef int axis_t ; int f () ;",
                ),
                ("pub enum { A };", "pub const int A = (0) ;"),
            ],
        );
    }

    #[test]
    fn rust_enums_stay() {
        assert_rewrites(
            rw,
            &[
                ("enum E { A, B }", "enum E { A , B }"),
                ("enum E { A(i32), B };", "enum E { A (i32) , B } ;"),
                ("x = enum { A };", "x = enum { A } ;"),
            ],
        );
    }
}
