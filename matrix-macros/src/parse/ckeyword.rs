//! C names that are Rust keywords. A C function's `const float *in`, `int
//! type` or `float ref` is an ordinary name, which Rust can only spell as
//! a raw identifier (`r#in`). Before a body is read (and in a C
//! function's parameters), each such name becomes one where Rust's
//! keyword could not stand:
//!
//! | name | raw unless |
//! |---|---|
//! | `in` | after a pattern (`for x in`, `for (a, b) in`) |
//! | `type`, `ref` | before a name (`type T = ..;`, `ref x`) |
//! | `box`, `final`, `override`, `virtual`, `abstract`, `become`, `priv`, `typeof`, `unsized`, `yield`, `macro`, `gen`, `try` | never: Rust reserves them, stable Rust has no use for them |
//!
//! Rust's other keywords (`match`, `loop`, `fn`, `let`, `as`, ...) mean
//! what Rust means, in C functions too.

use super::regroup;
use proc_macro2::{Ident, TokenStream, TokenTree};

/// `tokens` with every C name that is a Rust keyword raw (see the module).
pub(crate) fn rewrite(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    rewrite_trees(&trees).into_iter().collect()
}

fn rewrite_trees(trees: &[TokenTree]) -> Vec<TokenTree> {
    let mut out = Vec::with_capacity(trees.len());
    for (i, tree) in trees.iter().enumerate() {
        let rewritten = match tree {
            TokenTree::Group(g) => regroup(g, rewrite_trees),
            TokenTree::Ident(id) => {
                let prev = i.checked_sub(1).map(|p| &trees[p]);
                match raw_name(id, prev, trees.get(i + 1)) {
                    Some(raw) => TokenTree::Ident(raw),
                    None => tree.clone(),
                }
            }
            other => other.clone(),
        };
        out.push(rewritten);
    }
    out
}

/// `id` as a raw identifier, where it is a C name Rust reads as a keyword
/// between `prev` and `next` (see the module).
pub(super) fn raw_name(
    id: &Ident,
    prev: Option<&TokenTree>,
    next: Option<&TokenTree>,
) -> Option<Ident> {
    let name = id.to_string();
    let raw = match name.as_str() {
        "in" => !matches!(prev, Some(TokenTree::Ident(_) | TokenTree::Group(_))),
        "type" | "ref" => !matches!(next, Some(TokenTree::Ident(_))),
        "box" | "final" | "override" | "virtual" | "abstract" | "become" | "priv" | "typeof"
        | "unsized" | "yield" | "macro" | "gen" | "try" => true,
        _ => false,
    };
    raw.then(|| Ident::new_raw(&name, id.span()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::assert_rewrites;
    use crate::parse::show;

    fn rw(src: &str) -> String {
        show(rewrite(src.parse().unwrap()))
    }

    #[test]
    fn c_names_become_raw() {
        assert_rewrites(
            rw,
            &[
                ("out [i] = in [i] * 2 ;", "out [i] = r#in [i] * 2 ;"),
                (
                    "float * in = src ; int type = 1 ;",
                    "float * r#in = src ; int r#type = 1 ;",
                ),
                ("ref += box ;", "r#ref += r#box ;"),
                ("{ f (in , type) }", "{f (r#in , r#type)}"),
            ],
        );
    }

    #[test]
    fn rust_keywords_stay() {
        assert_rewrites(
            rw,
            &[
                ("for x in 0 .. n {}", "for x in 0 .. n {}"),
                ("for (a , b) in v {}", "for (a , b) in v {}"),
                ("type T = f32 ;", "type T = f32 ;"),
                ("let ref x = y ;", "let ref x = y ;"),
                ("match x { _ => 1 }", "match x {_ => 1}"),
            ],
        );
    }
}
