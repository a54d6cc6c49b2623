//! C's spellings of numeric literals that Rust lexes otherwise, in kernel
//! bodies: the suffixes (`0.5f`, `2u`, `10L`, `3ull`), a float written
//! without digits after its point (`1.f`) or before it (`.5`, `.5f`).
//!
//! Rust's lexer reads `0.5f` as a float literal with the suffix `f`, which
//! rustc rejects ("invalid suffix `f` for float literal"), `1.f` as a field
//! `f` of the integer 1, and `.5` as a `.` before the integer 5. Before a
//! body is parsed, each becomes the Rust literal of the C type C gives it
//! (C17 6.4.4.1 and 6.4.4.2, with `long` 64 bits as everywhere in the DSL),
//! so that the rest of the macro sees its type:
//!
//! | suffix | C type | Rust literal |
//! |---|---|---|
//! | `f`, `F` | `float` | `f32` |
//! | `u`, `U` | `unsigned int`, or `unsigned long` when the value needs it | `u32`, `u64` |
//! | `l`, `L`, `ll`, `LL` | `long`; a hexadecimal one `unsigned long` when the value needs it | `i64`, `u64` |
//! | `u` with `l` or `ll`, in either order | `unsigned long` | `u64` |
//!
//! A `float` literal is then rounded from its decimal text once, to `f32`,
//! as Clang rounds it (read as a `double` first, `1.000000059604644775390625001f`
//! would round twice and land on 1.0). Everything else is left as written:
//! a suffix Rust knows, one neither language knows (`1.5L`, C's `long
//! double`, which the DSL has not), which rustc then reports, and the
//! Rust that looks alike: a tuple's field (`t.1.f`, `r?.0`), a range
//! (`..5`), a method of an integer (`1.f()`).

use proc_macro2::{Delimiter, Group, Literal, Span, TokenStream, TokenTree};

/// Rewrites every C spelling of a literal in `tokens` (see the module).
pub(crate) fn rewrite(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        let (literal, taken) = match &trees[i..] {
            [
                TokenTree::Literal(whole),
                TokenTree::Punct(dot),
                TokenTree::Ident(f),
                rest @ ..,
            ] if dot.as_char() == '.'
                && (f == "f" || f == "F")
                && !ends_field_path(out.last())
                && !is_call(rest.first()) =>
            {
                (float_parts(&format!("{whole}f"), "", whole.span()), 3)
            }
            [TokenTree::Punct(dot), TokenTree::Literal(fraction), ..]
                if dot.as_char() == '.' && starts_operand(out.last()) =>
            {
                (float_parts(&fraction.to_string(), "0.", dot.span()), 2)
            }
            [TokenTree::Literal(lit), ..] => (with_rust_suffix(lit), 1),
            _ => (None, 1),
        };
        if let Some(literal) = literal {
            out.push(TokenTree::Literal(literal));
            i += taken;
            continue;
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), rewrite(g.stream()));
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

/// C's character constants in a function with a C head: each ASCII
/// `'c'` is the `int` it codes (`'0'` is 48, `'\n'` 10), so that `c -
/// '0'` and `case 'x':` compute as in C. Any other character literal
/// stays Rust's `char`.
pub(crate) fn char_codes(tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), char_codes(g.stream()));
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            TokenTree::Literal(lit) => match syn::Lit::new(lit.clone()) {
                syn::Lit::Char(c) if c.value().is_ascii() => {
                    let mut code = Literal::u8_unsuffixed(c.value() as u8);
                    code.set_span(lit.span());
                    TokenTree::Literal(code)
                }
                _ => TokenTree::Literal(lit),
            },
            other => other,
        })
        .collect()
}

/// Whether a `.` after `prev` is a field access (`t.1.f`, `r?.0`) or the
/// second point of a range (`0..5`), not part of a literal.
fn ends_field_path(prev: Option<&TokenTree>) -> bool {
    matches!(prev, Some(TokenTree::Punct(p)) if matches!(p.as_char(), '.' | '?'))
}

/// Whether `next` makes the name before it a method call (`1.f()`).
fn is_call(next: Option<&TokenTree>) -> bool {
    matches!(next, Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis)
}

/// Whether a `.` after `prev` can only start an operand (`(.5`, `x * .5`,
/// `, .5f`): after nothing or an operator, not after a value (`t.0`, a
/// field) or another point (`..5`, a range).
fn starts_operand(prev: Option<&TokenTree>) -> bool {
    match prev {
        None => true,
        Some(TokenTree::Punct(_)) => !ends_field_path(prev),
        Some(_) => false,
    }
}

/// The float literal `before`, then the digits of `digits`, then `.0` when
/// `before` is empty, of C's type (`f32` with the suffix `f` or `F`, `f64`
/// without), spanned at `span`: `1.f` (whose digits are `1f` here) is
/// `1.0f32`, `.5` is `0.5`. `None` unless `digits` is decimal digits,
/// unsuffixed or with a float suffix.
fn float_parts(digits: &str, before: &str, span: Span) -> Option<Literal> {
    let (number, suffix) = match digits.strip_suffix(['f', 'F']) {
        Some(number) => (number, "f32"),
        None => (digits, ""),
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let after = if before.is_empty() { ".0" } else { "" };
    let mut literal: Literal = format!("{before}{number}{after}{suffix}").parse().ok()?;
    literal.set_span(span);
    Some(literal)
}

/// The type a C integer suffix gives, before the value is considered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IntSuffix {
    /// `u`: `unsigned int`, then `unsigned long`.
    Unsigned,
    /// `l` or `ll`: `long`, then (not decimal) `unsigned long`.
    Long,
    /// `u` with `l` or `ll`: `unsigned long`.
    UnsignedLong,
}

/// The integer suffix `suffix` spells in C, if it is one: `u` or `U` at
/// either end, around nothing, `l`, `L`, `ll` or `LL` (C has no `lL`).
fn int_suffix(suffix: &str) -> Option<IntSuffix> {
    let (unsigned, rest) = match suffix
        .strip_prefix(['u', 'U'])
        .or_else(|| suffix.strip_suffix(['u', 'U']))
    {
        Some(rest) => (true, rest),
        None => (false, suffix),
    };
    let long = match rest {
        "" => false,
        "l" | "L" | "ll" | "LL" => true,
        _ => return None,
    };
    match (unsigned, long) {
        (true, false) => Some(IntSuffix::Unsigned),
        (false, true) => Some(IntSuffix::Long),
        (true, true) => Some(IntSuffix::UnsignedLong),
        (false, false) => None,
    }
}

/// `lit` as the Rust literal of the C type its suffix gives, or `None` when
/// it has no C suffix.
fn with_rust_suffix(lit: &Literal) -> Option<Literal> {
    let text = match syn::Lit::new(lit.clone()) {
        syn::Lit::Float(f) if matches!(f.suffix(), "f" | "F") => {
            format!("{}f32", f.base10_digits())
        }
        syn::Lit::Int(i) => {
            let suffix = int_suffix(i.suffix())?;
            let value: u128 = i.base10_parse().ok()?;
            let written = lit.to_string();
            let decimal = !["0x", "0o", "0b"].iter().any(|p| written.starts_with(p));
            let rust = match suffix {
                IntSuffix::Unsigned if value <= u128::from(u32::MAX) => "u32",
                IntSuffix::Long if decimal || value <= i64::MAX as u128 => "i64",
                _ => "u64",
            };
            format!("{}{rust}", i.base10_digits())
        }
        _ => return None,
    };
    let mut new: Literal = text.parse().ok()?;
    new.set_span(lit.span());
    Some(new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::assert_rewrites;

    fn rewritten(src: &str) -> String {
        rewrite(src.parse().unwrap()).to_string()
    }

    /// Asserts that the rewrite leaves `src` as written.
    fn assert_unchanged(src: &str) {
        let written = src.parse::<TokenStream>().unwrap().to_string();
        assert_eq!(rewritten(src), written, "{src}");
    }

    #[test]
    fn ascii_characters_are_their_codes() {
        let codes = |src: &str| char_codes(src.parse().unwrap()).to_string();
        assert_rewrites(
            codes,
            &[
                ("c - '0'", "c - 48"),
                ("f('\\n', ['\\0'], 'é')", "f (10 , [0] , 'é')"),
                ("b'a' + \"x\"", "b'a' + \"x\""),
            ],
        );
    }

    #[test]
    fn float_suffixes_become_f32() {
        assert_rewrites(
            rewritten,
            &[
                ("0.5f", "0.5f32"),
                ("2.0F * x", "2.0f32 * x"),
                ("1e5f", "1e5f32"),
                ("(v4){1, 2.5f}", "(v4) { 1 , 2.5f32 }"),
            ],
        );
    }

    #[test]
    fn integer_suffixes_take_cs_types() {
        assert_rewrites(
            rewritten,
            &[
                ("1u", "1u32"),
                ("4294967295U", "4294967295u32"),
                ("4294967296u", "4294967296u64"),
                ("10L", "10i64"),
                ("3ll", "3i64"),
                ("3LL", "3i64"),
            ],
        );
        for s in [
            "ul", "lu", "UL", "LU", "ull", "llu", "ULL", "LLU", "uLL", "Ull",
        ] {
            assert_eq!(rewritten(&format!("7{s}")), "7u64", "{s}");
        }
        // A decimal `long` stays signed, however large (rustc reports the
        // overflow); a hexadecimal one becomes `unsigned long` as in C.
        assert_rewrites(
            rewritten,
            &[
                ("9223372036854775808L", "9223372036854775808i64"),
                ("0xFFFFFFFFFFFFFFFFL", "18446744073709551615u64"),
                ("0x7FL", "127i64"),
                ("0x10u", "16u32"),
            ],
        );
    }

    #[test]
    fn floats_without_digits_on_one_side() {
        assert_rewrites(
            rewritten,
            &[
                ("1.f", "1.0f32"),
                ("x * 2.F + y", "x * 2.0f32 + y"),
                (".5", "0.5"),
                ("(.25f, -.5F)", "(0.25f32 , -0.5f32)"),
                ("a = .75;", "a = 0.75 ;"),
            ],
        );
    }

    #[test]
    fn rust_that_looks_alike_is_left_alone() {
        for src in [
            "t.1.f", "r?.0", "0..5", "a[..5]", "x.0", "1.f()", "s.x.f", "m[0].f",
        ] {
            assert_unchanged(src);
        }
    }

    #[test]
    fn nested_groups_are_rewritten() {
        assert_eq!(
            rewritten("{ f(a[1u], (0.5f)) }"),
            "{ f (a [1u32] , (0.5f32)) }"
        );
    }

    #[test]
    fn other_literals_are_left_as_written() {
        for src in [
            "1.5", "2", "2.5f32", "3u8", "0xFF", "1.5L", "2lL", "\"0.5f\"", "'f'", "1uu",
        ] {
            assert_unchanged(src);
        }
    }

    #[test]
    fn suffixes_read_as_c_reads_them() {
        assert_eq!(int_suffix("u"), Some(IntSuffix::Unsigned));
        assert_eq!(int_suffix("L"), Some(IntSuffix::Long));
        assert_eq!(int_suffix("uLL"), Some(IntSuffix::UnsignedLong));
        for s in ["", "lL", "Ll", "lll", "uu", "f", "i32", "usize"] {
            assert_eq!(int_suffix(s), None, "{s}");
        }
    }
}
