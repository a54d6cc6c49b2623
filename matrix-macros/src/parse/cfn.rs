//! C function definitions as kernels: `[static] [inline] TYPE NAME(PARAMS)
//! { BODY }`, so that a C function pastes into a block whole.
//!
//! | C | Rust |
//! |---|---|
//! | `m4x4_t f(m4x4_t a, float s)` | `fn f(mut a: m4x4_t, mut s: f32) -> m4x4_t` |
//! | `void g(const float *src, float *dst)` | `fn g(mut src: &[f32], mut dst: &mut [f32])` |
//! | `void fill(float *const dst)` | `fn fill(dst: &mut [f32])` |
//! | `float sum(const float rows[][4], int n)` | `fn sum(mut rows: &[[f32; 4]], mut n: i32) -> f32` |
//! | `void copy(const float *in, float *out)` | `fn copy(mut r#in: &[f32], mut out: &mut [f32])` |
//! | `int h(void)` | `fn h() -> i32` |
//!
//! A type is a typedef of the block, a C scalar spelling or a Rust scalar;
//! a pointer parameter is a slice, shared where the pointee is `const`,
//! which the builtins' loads and stores take where C passes the pointer.
//! Parameters are assignable, as C's are (`mut`, with `unused_mut`
//! allowed), a pointer too (`src += 16` moves the slice on) unless
//! declared `*const`. `static` and `inline` change nothing; the function
//! is private to the module unless written with Rust's `pub`, as a `fn`
//! is.

use super::ckeyword;
use super::cstmt::is_keyword;
use super::ctype;
use proc_macro2::{Delimiter, Ident, TokenStream, TokenTree};
use quote::quote;
use std::collections::HashSet;

/// The Rust signature (`fn NAME(..) -> T`) of `head`, the tokens before a
/// body, if they are a C function's head; and whether a parameter is
/// `mut`.
pub(crate) fn signature(
    head: &[TokenTree],
    names: &HashSet<String>,
) -> Option<(TokenStream, bool)> {
    let i = after_specifiers(head);
    let (ret, end) = match head.get(i) {
        Some(TokenTree::Ident(id)) if id == "void" => (None, i + 1),
        _ => {
            let (ty, end) = ctype::type_at(head, i, names)?;
            (Some(ty), end)
        }
    };
    let [TokenTree::Ident(name), TokenTree::Group(params)] = &head[end..] else {
        return None;
    };
    if params.delimiter() != Delimiter::Parenthesis {
        return None;
    }
    let inner: Vec<TokenTree> = params.stream().into_iter().collect();
    let mut rust_params = Vec::new();
    let mut any_mut = false;
    let void = matches!(inner.as_slice(), [TokenTree::Ident(v)] if v == "void");
    if !inner.is_empty() && !void {
        for p in inner.split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')) {
            let (param, is_mut) = parameter(p, names)?;
            any_mut |= is_mut;
            rust_params.push(param);
        }
    }
    let ret = ret.map(|ty| {
        let ty: TokenStream = ty.into_iter().collect();
        quote!(-> #ty)
    });
    Some((quote!(fn #name(#(#rust_params),*) #ret), any_mut))
}

/// The index after the `static` and `inline` a head starts with.
fn after_specifiers(head: &[TokenTree]) -> usize {
    head.iter()
        .take_while(|t| matches!(t, TokenTree::Ident(id) if id == "static" || id == "inline"))
        .count()
}

/// One parameter: `[const] TYPE NAME` (assignable: `mut`) or `[const]
/// TYPE *[const] NAME` (a slice, assignable unless `*const`).
fn parameter(p: &[TokenTree], names: &HashSet<String>) -> Option<(TokenStream, bool)> {
    let constant = matches!(p.first(), Some(TokenTree::Ident(id)) if id == "const");
    let (ty, end) = ctype::type_at(p, usize::from(constant), names)?;
    let ty: TokenStream = ty.into_iter().collect();
    // A C name that is a Rust keyword (`const float *in`) is a raw one.
    let named = |name: &Ident| match ckeyword::raw_name(name, None, None) {
        Some(raw) => Some(raw),
        None => (!is_keyword(name)).then(|| name.clone()),
    };
    match &p[end..] {
        [TokenTree::Ident(name)] => {
            let name = named(name)?;
            let binding = if constant {
                quote!(#name)
            } else {
                quote!(mut #name)
            };
            Some((quote!(#binding: #ty), !constant))
        }
        // `T a[]`, `T m[4][4]`: C's array parameter is a pointer to its
        // first element (a row of `m`), a slice here: `&mut [T]`, `&mut
        // [[T; 4]]`.
        [TokenTree::Ident(name), dims @ ..]
            if !dims.is_empty()
                && dims.iter().all(
                    |d| matches!(d, TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket),
                ) =>
        {
            let name = named(name)?;
            let mut row = ty;
            for d in dims[1..].iter().rev() {
                let TokenTree::Group(g) = d else { return None };
                let n = g.stream();
                if n.is_empty() {
                    return None;
                }
                row = quote!([#row; #n]);
            }
            let slice = if constant {
                quote!(&[#row])
            } else {
                quote!(&mut [#row])
            };
            Some((quote!(mut #name: #slice), true))
        }
        [TokenTree::Punct(star), fixed @ .., TokenTree::Ident(name)] if star.as_char() == '*' => {
            let name = named(name)?;
            // `T *const p`: the pointer itself is not assignable.
            let movable = match fixed {
                [] => true,
                [TokenTree::Ident(c)] if c == "const" => false,
                _ => return None,
            };
            let slice = if constant {
                quote!(&[#ty])
            } else {
                quote!(&mut [#ty])
            };
            let binding = if movable {
                quote!(mut #name)
            } else {
                quote!(#name)
            };
            Some((quote!(#binding: #slice), movable))
        }
        _ => None,
    }
}

/// For a head shaped as a C function's (`T NAME(T a, ...)`) whose return or
/// parameter type the block does not know: that type's name, as clang
/// reports it (`unknown type name 'vec3'`). Rust's items (`struct S`,
/// `impl X`) are no such heads.
pub(crate) fn unknown_type(head: &[TokenTree], names: &HashSet<String>) -> Option<Ident> {
    let i = after_specifiers(head);
    let [
        TokenTree::Ident(ret),
        TokenTree::Ident(_),
        TokenTree::Group(params),
    ] = &head[i..]
    else {
        return None;
    };
    if params.delimiter() != Delimiter::Parenthesis || is_rust_keyword(ret) {
        return None;
    }
    let known = |id: &Ident| {
        id == "void" || ctype::type_at(&[TokenTree::Ident(id.clone())], 0, names).is_some()
    };
    if !known(ret) {
        return Some(ret.clone());
    }
    let inner: Vec<TokenTree> = params.stream().into_iter().collect();
    inner
        .split(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ','))
        .filter_map(|p| {
            let constant = matches!(p.first(), Some(TokenTree::Ident(id)) if id == "const");
            match p.get(usize::from(constant)) {
                Some(TokenTree::Ident(ty)) if !known(ty) && p.len() > usize::from(constant) + 1 => {
                    Some(ty.clone())
                }
                _ => None,
            }
        })
        .next()
}

/// Words that start Rust's items, which a C function's head cannot.
fn is_rust_keyword(id: &Ident) -> bool {
    matches!(
        id.to_string().as_str(),
        "struct"
            | "enum"
            | "union"
            | "impl"
            | "trait"
            | "mod"
            | "use"
            | "extern"
            | "type"
            | "static"
            | "const"
            | "fn"
            | "macro_rules"
            | "pub"
            | "unsafe"
            | "async"
    )
}

/// `#[allow(unused_mut)]`, for a function whose parameters are `mut`.
pub(crate) fn allow_unused_mut() -> syn::Attribute {
    syn::parse_quote!(#[allow(unused_mut)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sig(src: &str) -> Option<String> {
        let names: HashSet<String> = ["m4".to_string()].into();
        let head: Vec<TokenTree> = src.parse::<TokenStream>().unwrap().into_iter().collect();
        signature(&head, &names).map(|(s, _)| s.to_string())
    }

    #[test]
    fn c_heads_become_signatures() {
        assert_eq!(
            sig("m4 f(m4 a, float s)").as_deref(),
            Some("fn f (mut a : m4 , mut s : f32) -> m4")
        );
        assert_eq!(
            sig("static inline void g(const double *src, unsigned long n, float *dst)").as_deref(),
            Some("fn g (mut src : & [f64] , mut n : u64 , mut dst : & mut [f32])")
        );
        assert_eq!(
            sig("void h(float *const dst, const float *const src)").as_deref(),
            Some("fn h (dst : & mut [f32] , src : & [f32])")
        );
        assert_eq!(sig("int h(void)").as_deref(), Some("fn h () -> i32"));
        assert_eq!(
            sig("void rows(float m[4][4], const int idx[], const float *in)").as_deref(),
            Some("fn rows (mut m : & mut [[f32 ; 4]] , mut idx : & [i32] , mut r#in : & [f32])")
        );
        assert_eq!(sig("const int k(const int x)"), None);
    }

    #[test]
    fn other_items_are_no_c_heads() {
        for src in [
            "struct S",
            "impl m4",
            "fn f()",
            "m4 f",
            "unknown_t f(int x)",
            "int f(int)",
        ] {
            assert_eq!(sig(src), None, "{src}");
        }
    }

    #[test]
    fn an_unknown_type_in_a_c_head_is_named() {
        let names: HashSet<String> = ["m4".to_string()].into();
        let unknown = |src: &str| {
            let head: Vec<TokenTree> = src.parse::<TokenStream>().unwrap().into_iter().collect();
            unknown_type(&head, &names).map(|id| id.to_string())
        };
        assert_eq!(unknown("vec3 f(m4 a)").as_deref(), Some("vec3"));
        assert_eq!(
            unknown("m4 f(m4 a, const vec3 *p)").as_deref(),
            Some("vec3")
        );
        assert_eq!(unknown("static m4 f(int a)"), None);
        assert_eq!(unknown("struct S(int a)"), None);
    }
}
