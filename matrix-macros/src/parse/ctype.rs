//! C spellings of element types (`unsigned long long`, `int8_t`, `_Float16`).

use crate::types::Scalar;
use proc_macro2::TokenTree;
use std::collections::HashSet;

/// The type spelled from `t[i]` on, as Rust tokens, and the index after
/// it: a C scalar spelling of one or more words (`unsigned int`), one of
/// the block's typedef names `names`, or a Rust scalar.
pub(crate) fn type_at(
    t: &[TokenTree],
    i: usize,
    names: &HashSet<String>,
) -> Option<(Vec<TokenTree>, usize)> {
    let TokenTree::Ident(first) = t.get(i)? else {
        return None;
    };
    let word = first.to_string();
    if is_c_type_word(&word) {
        let end = (i..t.len())
            .find(|&j| !matches!(&t[j], TokenTree::Ident(id) if is_c_type_word(&id.to_string())))
            .unwrap_or(t.len());
        let scalar = from_c_spelling(&words(&t[i..end])?)?;
        return Some((scalar.to_tokens(first.span()).into_iter().collect(), end));
    }
    (names.contains(&word) || Scalar::from_rust_name(&word).is_some())
        .then(|| (vec![t[i].clone()], i + 1))
}

/// The tokens' words, if every one is an identifier: what a C type
/// spelling is made of.
pub(crate) fn words(tokens: &[TokenTree]) -> Option<Vec<String>> {
    tokens
        .iter()
        .map(|t| match t {
            TokenTree::Ident(id) => Some(id.to_string()),
            _ => None,
        })
        .collect()
}

/// The scalar a C type spelling names, on every target (`char` is `i8` and
/// `long` is `i64`, as the contract fixes them).
pub(crate) fn from_c_spelling(words: &[String]) -> Option<Scalar> {
    let joined = words.join(" ");
    Some(match joined.as_str() {
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        "_Float16" => Scalar::F16,
        "__bf16" => Scalar::BF16,
        "char" | "signed char" | "int8_t" => Scalar::I8,
        "unsigned char" | "uint8_t" => Scalar::U8,
        "short" | "short int" | "signed short" | "signed short int" | "int16_t" => Scalar::I16,
        "unsigned short" | "unsigned short int" | "uint16_t" => Scalar::U16,
        "int" | "signed" | "signed int" | "int32_t" => Scalar::I32,
        "unsigned" | "unsigned int" | "uint32_t" => Scalar::U32,
        "long"
        | "long int"
        | "signed long"
        | "signed long int"
        | "long long"
        | "long long int"
        | "signed long long"
        | "signed long long int"
        | "int64_t"
        | "ptrdiff_t"
        | "ssize_t"
        | "intptr_t" => Scalar::I64,
        "unsigned long"
        | "unsigned long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "uint64_t"
        | "size_t"
        | "uintptr_t" => Scalar::U64,
        _ => return None,
    })
}

/// Words that can only be part of a C type spelling.
pub(crate) fn is_c_type_word(word: &str) -> bool {
    matches!(
        word,
        "float"
            | "double"
            | "char"
            | "short"
            | "int"
            | "long"
            | "signed"
            | "unsigned"
            | "_Float16"
            | "_Bool"
            | "__int128"
            | "__fp16"
            | "__bf16"
            | "__float128"
            | "size_t"
            | "ssize_t"
            | "ptrdiff_t"
    ) || (word.ends_with("_t") && (word.starts_with("int") || word.starts_with("uint")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn c_spellings_follow_the_contract() {
        assert_eq!(from_c_spelling(&words("char")), Some(Scalar::I8));
        assert_eq!(from_c_spelling(&words("long")), Some(Scalar::I64));
        // x86-64's: `size_t` is `unsigned long`, `ptrdiff_t` `long`.
        assert_eq!(from_c_spelling(&words("size_t")), Some(Scalar::U64));
        assert_eq!(from_c_spelling(&words("ptrdiff_t")), Some(Scalar::I64));
        assert_eq!(
            from_c_spelling(&words("unsigned long long")),
            Some(Scalar::U64)
        );
        assert_eq!(from_c_spelling(&words("unsigned")), Some(Scalar::U32));
        assert_eq!(from_c_spelling(&words("uint16_t")), Some(Scalar::U16));
        assert_eq!(from_c_spelling(&words("long double")), None);
        assert_eq!(from_c_spelling(&words("char")), Some(Scalar::I8));
    }
}
