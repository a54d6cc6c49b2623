//! C's structures at file scope, as Rust structs with C's layout:
//!
//! | C | here |
//! |---|---|
//! | `struct cam { m4 view; float fov, aspect; float w[4]; };` | `#[repr(C)] #[derive(Clone, Copy, Debug)] struct cam { pub view: m4, pub fov: f32, pub aspect: f32, pub w: [f32; 4] }`, and its zero as `Default` |
//! | `typedef struct [tag] { .. } camera;` | the same, named `camera` (`struct tag` names it too) |
//! | `typedef struct cam camera;` | `type camera = cam;` |
//! | `struct cam c`, `const struct cam *p` (anywhere after) | `cam c`, `const cam *p` |
//! | `p->view` | `p[0].view` (a pointer is a slice) |
//!
//! Members are values: matrices, vectors, scalars, arrays of them and
//! other structures; a pointer or a bit-field member is refused. A Rust
//! `struct` (fields `name: T` and no `;` after its braces) is left as
//! written. Initialisers (`= {..}`, `(camera){..}`) are `cstmt`'s: it
//! reads every struct of the block, C's and Rust's, through
//! [`Structs`](super::Structs).

use super::cstmt::{declarator, split_top_level};
use super::{Member, ctype, group, punct};
use crate::diag;
use proc_macro2::{Delimiter, Ident, Spacing, Span, TokenStream, TokenTree};
use quote::quote_spanned;
use std::collections::{HashMap, HashSet};

/// A C structure's declaration at the start of an item.
struct Declaration {
    /// Its outer attributes (`/// docs` among them), as written.
    attrs: Vec<TokenTree>,
    public: bool,
    /// `struct TAG`'s tag, if written.
    tag: Option<Ident>,
    /// The members' braces; `None` for `typedef struct TAG NAME;`.
    body: Option<proc_macro2::Group>,
    /// The typedef's name, if it is one.
    typedef: Option<Ident>,
    /// The tokens it takes, its `;` included.
    taken: usize,
}

/// `trees` with each C structure declaration replaced by its Rust struct
/// (or alias), and every `struct TAG` after that by the struct's name.
/// `names` are the block's type names (typedefs, C scalars are known by
/// their spelling).
pub(crate) fn rewrite(trees: Vec<TokenTree>, names: &HashSet<String>) -> Vec<TokenTree> {
    // First every tag's name, so that a member or alias may name a
    // structure declared further down.
    let mut tags: HashMap<String, Ident> = HashMap::new();
    let mut i = 0;
    while i < trees.len() {
        if super::item_start(&trees, i)
            && let Some(d) = declaration_at(&trees[i..])
        {
            if let (Some(tag), Some(_)) = (&d.tag, &d.body) {
                let name = d.typedef.clone().unwrap_or_else(|| tag.clone());
                tags.insert(tag.to_string(), name);
            }
            i += d.taken;
            continue;
        }
        i += 1;
    }
    let mut names = names.clone();
    names.extend(tags.values().map(Ident::to_string));
    let mut out = Vec::with_capacity(trees.len());
    let (mut i, mut run) = (0, 0);
    while i < trees.len() {
        if super::item_start(&trees, i)
            && let Some(d) = declaration_at(&trees[i..])
        {
            out.extend(tag_names(&trees[run..i], &tags));
            out.extend(emit(&d, &names, &tags));
            i += d.taken;
            run = i;
            continue;
        }
        i += 1;
    }
    out.extend(tag_names(&trees[run..], &tags));
    out
}

/// The C structure declaration at the start of `t`, if there is one.
fn declaration_at(t: &[TokenTree]) -> Option<Declaration> {
    let word = |k: usize, w: &str| matches!(t.get(k), Some(TokenTree::Ident(id)) if id == w);
    let mut k = attributes(t);
    let attrs = t[..k].to_vec();
    let public = word(k, "pub");
    k += usize::from(public);
    let typedef = word(k, "typedef");
    k += usize::from(typedef);
    if !word(k, "struct") {
        return None;
    }
    k += 1;
    let tag = match t.get(k) {
        Some(TokenTree::Ident(id)) => {
            k += 1;
            Some(id.clone())
        }
        _ => None,
    };
    let body = match t.get(k) {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
            k += 1;
            Some(g.clone())
        }
        _ => None,
    };
    let name = if typedef {
        let Some(TokenTree::Ident(name)) = t.get(k) else {
            return None;
        };
        k += 1;
        Some(name.clone())
    } else {
        None
    };
    // C's declaration ends with `;`; a Rust struct has none after braces.
    if !matches!(t.get(k), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
        return None;
    }
    match (&body, &tag, &name) {
        // `struct TAG;` alone declares nothing to read, `struct { .. };`
        // nothing to name.
        (None, _, None) | (None, None, _) | (Some(_), None, None) => return None,
        // A Rust struct's fields are `name: T`, with no `;` between them.
        (Some(b), _, None) if !has_top_level_semicolon(b) => return None,
        _ => {}
    }
    Some(Declaration {
        attrs,
        public,
        tag,
        body,
        typedef: name,
        taken: k + 1,
    })
}

/// How many tokens the outer attributes (`#[..]`, `/// docs`) at the
/// start of `t` take.
fn attributes(t: &[TokenTree]) -> usize {
    let mut k = 0;
    while let (Some(TokenTree::Punct(hash)), Some(TokenTree::Group(g))) = (t.get(k), t.get(k + 1))
        && hash.as_char() == '#'
        && g.delimiter() == Delimiter::Bracket
    {
        k += 2;
    }
    k
}

fn has_top_level_semicolon(g: &proc_macro2::Group) -> bool {
    g.stream()
        .into_iter()
        .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ';'))
}

/// `trees` (and every group in them) with `struct TAG`, where `TAG` is a
/// structure of the block, as the struct's name. A Rust item `struct TAG
/// {` keeps its keyword.
fn tag_names(trees: &[TokenTree], tags: &HashMap<String, Ident>) -> Vec<TokenTree> {
    let mut out = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if let (TokenTree::Ident(kw), Some(TokenTree::Ident(tag))) = (&trees[i], trees.get(i + 1))
            && kw == "struct"
            && let Some(name) = tags.get(&tag.to_string())
            && !matches!(trees.get(i + 2), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace)
        {
            out.push(TokenTree::Ident(Ident::new(&name.to_string(), tag.span())));
            i += 2;
            continue;
        }
        out.push(match &trees[i] {
            // Only a group that names a tag is made anew (see `arrow_trees`).
            TokenTree::Group(g) if names_a_tag(g.stream(), tags) => {
                super::regroup(g, |inner| tag_names(inner, tags))
            }
            other => other.clone(),
        });
        i += 1;
    }
    out
}

/// Whether `tokens` hold `struct TAG` of a tag of `tags` anywhere.
fn names_a_tag(tokens: TokenStream, tags: &HashMap<String, Ident>) -> bool {
    let mut after_struct = false;
    tokens.into_iter().any(|t| {
        let found = matches!(&t, TokenTree::Ident(id) if after_struct && tags.contains_key(&id.to_string()));
        after_struct = matches!(&t, TokenTree::Ident(id) if id == "struct");
        found || matches!(&t, TokenTree::Group(g) if names_a_tag(g.stream(), tags))
    })
}

/// The Rust items of a declaration: the struct and its zero, or the alias.
fn emit(d: &Declaration, names: &HashSet<String>, tags: &HashMap<String, Ident>) -> Vec<TokenTree> {
    // `declaration_at` refuses a declaration that names nothing.
    let Some(name) = d.typedef.clone().or_else(|| d.tag.clone()) else {
        return Vec::new();
    };
    let span = name.span();
    let vis = d.public.then(|| quote_spanned!(span=> pub));
    let attrs: TokenStream = d.attrs.iter().cloned().collect();
    let Some(body) = &d.body else {
        // `typedef struct TAG NAME;` (`declaration_at` refuses one with
        // no tag).
        let Some(tag) = d.tag.clone() else {
            return Vec::new();
        };
        let target = tags.get(&tag.to_string()).cloned().unwrap_or(tag);
        let target = Ident::new(&target.to_string(), span);
        return quote_spanned!(span=> #attrs #[allow(non_camel_case_types)] #vis type #name = #target;)
            .into_iter()
            .collect();
    };
    let body_trees: Vec<TokenTree> = body.stream().into_iter().collect();
    let (members, errors) = members(&tag_names(&body_trees, tags), names);
    let fields = members.iter().map(|(attrs, m)| {
        let (n, ty) = (&m.name, m.ty());
        let attrs: TokenStream = attrs.iter().cloned().collect();
        quote_spanned!(n.span()=> #attrs pub #n: #ty)
    });
    let zeros = members.iter().map(|(_, m)| {
        let (n, zero) = (&m.name, m.zero());
        quote_spanned!(n.span()=> #n: #zero)
    });
    let mut out: TokenStream = errors.into_iter().collect();
    out.extend(quote_spanned!(span=>
        #attrs
        #[repr(C)]
        #[derive(Clone, Copy, Debug)]
        #[allow(non_camel_case_types)]
        #vis struct #name { #(#fields,)* }
        // Derivable only where no array member is longer than 32.
        #[allow(clippy::derivable_impls)]
        impl ::core::default::Default for #name {
            fn default() -> Self {
                #name { #(#zeros,)* }
            }
        }
    ));
    out.into_iter().collect()
}

impl Member {
    /// The member's Rust type: its element, in an array per dimension.
    fn ty(&self) -> TokenStream {
        self.wrapped(self.elem.iter().cloned().collect())
    }

    /// The member's zero: `Default`'s, in an array per dimension.
    fn zero(&self) -> TokenStream {
        let span = self.name.span();
        self.wrapped(quote_spanned!(span=> ::core::default::Default::default()))
    }

    fn wrapped(&self, inner: TokenStream) -> TokenStream {
        self.dims.iter().rev().fold(inner, |inner, d| {
            let d: TokenStream = d.iter().cloned().collect();
            quote_spanned!(self.name.span()=> [#inner; #d])
        })
    }
}

/// The members of a C structure's braces, each with the attributes
/// written before its declaration (`/// docs`), and an error item for each
/// declaration that is not a member of a value type.
fn members(
    trees: &[TokenTree],
    names: &HashSet<String>,
) -> (Vec<(Vec<TokenTree>, Member)>, Vec<TokenTree>) {
    let (mut members, mut errors) = (Vec::new(), Vec::new());
    for part in split_top_level(trees, ';') {
        let attributes = attributes(part);
        let (attrs, part) = part.split_at(attributes);
        if part.is_empty() {
            continue;
        }
        let mut error = |at: Span, message: &str| {
            errors.extend(quote_spanned!(at=> ::core::compile_error!(#message);));
        };
        let start =
            usize::from(matches!(part.first(), Some(TokenTree::Ident(id)) if id == "const"));
        let Some((elem, end)) = ctype::type_at(part, start, names) else {
            match part.get(start) {
                Some(TokenTree::Ident(id)) if part.len() > start + 1 => {
                    error(id.span(), &diag::unknown_type_name(&id.to_string()));
                }
                _ => error(part[0].span(), diag::EXPECTED_MEMBER),
            }
            continue;
        };
        for d in split_top_level(&part[end..], ',') {
            // A C name that is a Rust keyword (`int type;`) is a raw one.
            let d: Vec<TokenTree> = d
                .iter()
                .map(|t| match t {
                    TokenTree::Ident(id) => super::ckeyword::raw_name(id, None, None)
                        .map_or_else(|| t.clone(), TokenTree::Ident),
                    other => other.clone(),
                })
                .collect();
            let d = d.as_slice();
            if let Some(colon) = d
                .iter()
                .find(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ':'))
            {
                error(colon.span(), diag::BIT_FIELD_MEMBER);
                continue;
            }
            match declarator(d) {
                Some(m) if m.pointer => error(m.name.span(), diag::POINTER_MEMBER),
                Some(m) if m.init.is_some() || m.dims.iter().any(Vec::is_empty) => {
                    error(m.name.span(), diag::EXPECTED_MEMBER);
                }
                Some(m) => members.push((
                    attrs.to_vec(),
                    Member {
                        name: m.name.clone(),
                        elem: elem.clone(),
                        dims: m.dims,
                    },
                )),
                None => error(d.first().unwrap_or(&part[0]).span(), diag::EXPECTED_MEMBER),
            }
        }
    }
    (members, errors)
}

/// The members of a Rust struct item (`struct S { a: T, b: [T; N] }`), for
/// initialisers; `None` for any other item, or a struct with generics.
pub(crate) fn rust_members(chunk: &[TokenTree]) -> Option<(String, Vec<Member>)> {
    let item: syn::ItemStruct = syn::parse2(chunk.iter().cloned().collect()).ok()?;
    if !item.generics.params.is_empty() {
        return None;
    }
    let syn::Fields::Named(fields) = &item.fields else {
        return None;
    };
    let members = fields
        .named
        .iter()
        .map(|f| {
            let mut ty = &f.ty;
            let mut dims = Vec::new();
            while let syn::Type::Array(a) = ty {
                dims.push(
                    quote::ToTokens::to_token_stream(&a.len)
                        .into_iter()
                        .collect(),
                );
                ty = &a.elem;
            }
            Some(Member {
                name: f.ident.clone()?,
                elem: quote::ToTokens::to_token_stream(ty).into_iter().collect(),
                dims,
            })
        })
        .collect::<Option<_>>()?;
    Some((item.ident.to_string(), members))
}

/// `tokens` with C's `p->member` as `p[0].member`: a pointer is a slice
/// here, and its first element the structure it points to.
pub(crate) fn arrows(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    arrow_trees(&trees).into_iter().collect()
}

fn arrow_trees(trees: &[TokenTree]) -> Vec<TokenTree> {
    let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if let (TokenTree::Punct(minus), Some(TokenTree::Punct(gt)), Some(TokenTree::Ident(_))) =
            (&trees[i], trees.get(i + 1), trees.get(i + 2))
            && minus.as_char() == '-'
            && minus.spacing() == Spacing::Joint
            && gt.as_char() == '>'
            && matches!(out.last(), Some(TokenTree::Ident(_) | TokenTree::Group(_)))
            && !matches!(trees.get(i + 3), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace)
        {
            let span = minus.span();
            let mut zero = proc_macro2::Literal::usize_unsuffixed(0);
            zero.set_span(span);
            out.push(group(
                Delimiter::Bracket,
                vec![TokenTree::Literal(zero)],
                span,
            ));
            out.push(punct('.', span));
            i += 2;
            continue;
        }
        out.push(match &trees[i] {
            // Only a group with an arrow is made anew: one made anew has
            // one span for its delimiters, where a parser's error would
            // point at the opening one.
            TokenTree::Group(g) if has_arrow(g.stream()) => super::regroup(g, arrow_trees),
            other => other.clone(),
        });
        i += 1;
    }
    out
}

/// Whether `tokens` hold `->` anywhere.
fn has_arrow(tokens: TokenStream) -> bool {
    let mut minus = false;
    tokens.into_iter().any(|t| {
        let arrow = matches!(&t, TokenTree::Punct(p) if minus && p.as_char() == '>');
        minus = matches!(&t, TokenTree::Punct(p) if p.as_char() == '-' && p.spacing() == Spacing::Joint);
        arrow || matches!(&t, TokenTree::Group(g) if has_arrow(g.stream()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::show;
    use crate::parse::{assert_contains, assert_rewrites, assert_starts_with};

    fn rw(src: &str) -> String {
        let trees: Vec<TokenTree> = src.parse::<TokenStream>().unwrap().into_iter().collect();
        let names: HashSet<String> = ["m4".to_string()].into();
        show(rewrite(trees, &names).into_iter().collect())
    }

    #[test]
    fn c_structures_become_repr_c_structs() {
        let out = rw("struct cam { m4 view; float fov, k[2][3]; };");
        assert_starts_with(
            &out,
            "# [repr (C)] # [derive (Clone , Copy , Debug)] # [allow (non_camel_case_types)] \
                 struct cam {pub view : m4 , pub fov : f32 , pub k : [[f32 ; 3] ; 2] ,}",
        );
        assert_contains(
            &out,
            &[
                "impl :: core :: default :: Default for cam",
                "k : [[:: core :: default :: Default :: default () ; 3] ; 2]",
            ],
        );
    }

    #[test]
    fn typedefs_and_tags_name_the_struct() {
        let out = rw(
            "typedef struct node { float x; } node_t; float f(struct node n); typedef struct node other;",
        );
        assert_contains(
            &out,
            &["struct node_t {pub x : f32 ,}", "float f (node_t n) ;"],
        );
        assert!(out.ends_with("type other = node_t ;"), "{out}");
        let out = rw("pub typedef struct { unsigned int n; } counter;");
        assert_contains(&out, &["pub struct counter {pub n : u32 ,}"]);
    }

    #[test]
    fn attributes_stay_on_the_struct_and_its_members() {
        let out = rw("/// A point.\n#[derive(PartialEq)] struct pt { /// Across.\n float x; };");
        assert_starts_with(
            &out,
            "# [doc = \" A point.\"] # [derive (PartialEq)] # [repr (C)]",
        );
        assert_contains(&out, &["{# [doc = \" Across.\"] pub x : f32 ,}"]);
    }

    #[test]
    fn rust_structs_stay() {
        assert_rewrites(
            rw,
            &[
                ("struct S { a: f32 }", "struct S {a : f32}"),
                ("struct S { a: [f32; 4] }", "struct S {a : [f32 ; 4]}"),
                ("struct P(f32);", "struct P (f32) ;"),
            ],
        );
    }

    #[test]
    fn members_that_are_no_values_are_refused() {
        let out = rw("struct s { float *p; int b : 3; vec5 v; };");
        assert_contains(
            &out,
            &[
                diag::POINTER_MEMBER,
                diag::BIT_FIELD_MEMBER,
                "unknown type name 'vec5'",
            ],
        );
    }

    #[test]
    fn arrows_read_the_first_element() {
        let a = |s: &str| show(arrows(s.parse().unwrap()));
        assert_rewrites(
            a,
            &[
                (
                    "p->view[0][1] = q[i]->x;",
                    "p [0] . view [0] [1] = q [i] [0] . x ;",
                ),
                ("|x| -> f32 { x }", "| x | -> f32 {x}"),
            ],
        );
    }
}
