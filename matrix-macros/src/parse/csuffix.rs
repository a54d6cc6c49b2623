//! C's literal suffixes in kernel bodies: `0.5f`, `2u`, `10L`, `3ull`.
//!
//! Rust's lexer reads `0.5f` as a float literal with the suffix `f`, which
//! rustc rejects ("invalid suffix `f` for float literal"). Before a body is
//! parsed, each literal with a C suffix becomes the literal of the C type
//! the suffix gives it (C17 6.4.4.1 and 6.4.4.2, with `long` 64 bits as
//! everywhere in the DSL), so that the rest of the macro sees its type:
//!
//! | suffix | C type | Rust literal |
//! |---|---|---|
//! | `f`, `F` | `float` | `f32` |
//! | `u`, `U` | `unsigned int`, or `unsigned long` when the value needs it | `u32`, `u64` |
//! | `l`, `L`, `ll`, `LL` | `long`; a hexadecimal, octal or binary one `unsigned long` when the value needs it | `i64`, `u64` |
//! | `u` with `l` or `ll`, in either order | `unsigned long` | `u64` |
//!
//! A `float` literal is then rounded from its decimal text once, to `f32`,
//! as Clang rounds it (read as a `double` first, `1.000000059604644775390625001f`
//! would round twice and land on 1.0). Every other literal is left as
//! written: a suffix Rust knows, or one neither language knows (`1.5L`,
//! C's `long double`, which the DSL has not), which rustc then reports.

use proc_macro2::{Group, Literal, TokenStream, TokenTree};

/// Rewrites every literal with a C suffix in `tokens` (see the module).
pub(crate) fn rewrite(tokens: TokenStream) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            TokenTree::Group(g) => {
                let mut new = Group::new(g.delimiter(), rewrite(g.stream()));
                new.set_span(g.span());
                TokenTree::Group(new)
            }
            TokenTree::Literal(lit) => TokenTree::Literal(with_rust_suffix(&lit).unwrap_or(lit)),
            other => other,
        })
        .collect()
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
            let decimal = !(written.len() > 1
                && written.starts_with('0')
                && written[1..].starts_with(|c: char| c.is_ascii_alphanumeric()));
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

    fn rewritten(src: &str) -> String {
        rewrite(src.parse().unwrap()).to_string()
    }

    #[test]
    fn float_suffixes_become_f32() {
        assert_eq!(rewritten("0.5f"), "0.5f32");
        assert_eq!(rewritten("2.0F * x"), "2.0f32 * x");
        assert_eq!(rewritten("1e5f"), "1e5f32");
        assert_eq!(rewritten("(v4){1, 2.5f}"), "(v4) { 1 , 2.5f32 }");
    }

    #[test]
    fn integer_suffixes_take_cs_types() {
        assert_eq!(rewritten("1u"), "1u32");
        assert_eq!(rewritten("4294967295U"), "4294967295u32");
        assert_eq!(rewritten("4294967296u"), "4294967296u64");
        assert_eq!(rewritten("10L"), "10i64");
        assert_eq!(rewritten("3ll"), "3i64");
        assert_eq!(rewritten("3LL"), "3i64");
        for s in [
            "ul", "lu", "UL", "LU", "ull", "llu", "ULL", "LLU", "uLL", "Ull",
        ] {
            assert_eq!(rewritten(&format!("7{s}")), "7u64", "{s}");
        }
        // A decimal `long` stays signed, however large (rustc reports the
        // overflow); a hexadecimal one becomes `unsigned long` as in C.
        assert_eq!(rewritten("9223372036854775808L"), "9223372036854775808i64");
        assert_eq!(rewritten("0xFFFFFFFFFFFFFFFFL"), "18446744073709551615u64");
        assert_eq!(rewritten("0x7FL"), "127i64");
        assert_eq!(rewritten("0x10u"), "16u32");
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
            assert_eq!(
                rewritten(src),
                src.parse::<TokenStream>().unwrap().to_string(),
                "{src}"
            );
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
