//! C's constants at file scope of a vector or structure type (`static
//! const vec3 up = {0, 1, 0};`, `const camera start = {.fov = 1};`), which
//! no Rust `const` item can hold: a vector's lanes and a structure's
//! members are set by code (`cstmt`), not by a constant expression. Each
//! is read by the block's functions as C's are: the declaration, as a
//! local `const`, is put first in the body of every function that names
//! it (and before it, the constants its initialiser names), where the
//! optimiser folds it. Such a constant is not an item outside the block,
//! so it cannot be `pub`; scalars and arrays of scalars are `const` items
//! (`cglobal`).

use super::{ctype, group, idents};
use crate::diag;
use crate::types::Scalar;
use proc_macro2::{Delimiter, TokenTree};
use std::collections::HashSet;

/// A constant of the block read by its functions: its name and its
/// declaration as a C statement (`const vec3 up = {0, 1, 0};`).
pub(crate) struct FileConstant {
    name: String,
    declaration: Vec<TokenTree>,
}

/// What a chunk of the block is to this module.
pub(crate) enum Chunk {
    /// A constant of a vector or structure type.
    Constant(FileConstant),
    /// Such a constant written `pub`: an error, on its `pub`.
    Public(syn::Error),
    /// Anything else.
    Other,
}

/// Whether `chunk` (one item's tokens) declares a file-scope constant of a
/// type of the block that is no scalar: `[pub] [static] const TYPE NAME
/// [dims] = INIT;`, `TYPE` a typedef or struct of the block.
pub(crate) fn classify(chunk: &[TokenTree], names: &HashSet<String>) -> Chunk {
    let word = |k: usize, w: &str| matches!(chunk.get(k), Some(TokenTree::Ident(id)) if id == w);
    let public = word(0, "pub");
    let mut k = usize::from(public);
    k += usize::from(word(k, "static"));
    if !word(k, "const") {
        return Chunk::Other;
    }
    k += 1;
    let Some((ty, after)) = ctype::type_at(chunk, k, names) else {
        return Chunk::Other;
    };
    let (name, rest) = match (&ty[..], &chunk[after..]) {
        ([TokenTree::Ident(t)], [TokenTree::Ident(name), rest @ ..])
            if Scalar::from_rust_name(&t.to_string()).is_none() =>
        {
            (name, rest)
        }
        _ => return Chunk::Other,
    };
    let initialised = rest
        .iter()
        .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '='));
    if !initialised || !matches!(rest.last(), Some(TokenTree::Punct(p)) if p.as_char() == ';') {
        return Chunk::Other;
    }
    if public {
        return Chunk::Public(syn::Error::new(
            chunk[0].span(),
            diag::PUBLIC_COMPOSITE_CONSTANT,
        ));
    }
    let mut declaration = vec![chunk[k - 1].clone()];
    declaration.extend(ty);
    declaration.push(TokenTree::Ident(name.clone()));
    declaration.extend(rest.iter().cloned());
    Chunk::Constant(FileConstant {
        name: name.to_string(),
        declaration,
    })
}

/// `body` (a function's braces) with the declarations of the constants of
/// `constants` it names put first, each after those its initialiser
/// names, in the order the block writes them; a name the function's
/// parameters take (`params`) is theirs.
pub(crate) fn prepend(
    body: proc_macro2::Group,
    constants: &[FileConstant],
    params: &HashSet<String>,
) -> proc_macro2::Group {
    if constants.is_empty() {
        return body;
    }
    let mut named = HashSet::new();
    idents(body.stream(), &mut named);
    let mut wanted = vec![false; constants.len()];
    // Each constant wanted brings in those its initialiser names.
    loop {
        let before = wanted.iter().filter(|w| **w).count();
        for (i, c) in constants.iter().enumerate() {
            if !wanted[i] && named.contains(&c.name) && !params.contains(&c.name) {
                wanted[i] = true;
                idents(c.declaration[2..].iter().cloned().collect(), &mut named);
            }
        }
        if wanted.iter().filter(|w| **w).count() == before {
            break;
        }
    }
    if !wanted.contains(&true) {
        return body;
    }
    let mut inner: Vec<TokenTree> = constants
        .iter()
        .zip(&wanted)
        .filter(|(_, w)| **w)
        .flat_map(|(c, _)| c.declaration.iter().cloned())
        .collect();
    inner.extend(body.stream());
    let TokenTree::Group(g) = group(Delimiter::Brace, inner, body.span()) else {
        return body;
    };
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::show;
    use proc_macro2::TokenStream;

    fn chunk(src: &str) -> Vec<TokenTree> {
        src.parse::<TokenStream>().unwrap().into_iter().collect()
    }

    fn names() -> HashSet<String> {
        ["vec3".to_string(), "pt".to_string()].into()
    }

    #[test]
    fn composite_constants_are_told_apart() {
        let Chunk::Constant(c) = classify(&chunk("static const vec3 up = {0, 1, 0};"), &names())
        else {
            panic!("a vector constant");
        };
        assert_eq!(c.name, "up");
        assert_eq!(
            show(c.declaration.into_iter().collect()),
            "const vec3 up = {0 , 1 , 0} ;"
        );
        assert!(matches!(
            classify(&chunk("const pt o = {1};"), &names()),
            Chunk::Constant(_)
        ));
        assert!(matches!(
            classify(&chunk("pub const pt o = {1};"), &names()),
            Chunk::Public(_)
        ));
        for other in [
            "static const float k = 1;",
            "const int n = 2;",
            "const pt o;",
            "fn f() {}",
        ] {
            assert!(
                matches!(classify(&chunk(other), &names()), Chunk::Other),
                "{other}"
            );
        }
    }

    #[test]
    fn a_body_gets_the_constants_it_names() {
        let constants: Vec<FileConstant> = [
            "const vec3 a = {1};",
            "const vec3 b = a * 2;",
            "const pt c = {3};",
        ]
        .iter()
        .map(|s| match classify(&chunk(s), &names()) {
            Chunk::Constant(c) => c,
            _ => panic!("{s}"),
        })
        .collect();
        let body = |src: &str| match chunk(src).pop() {
            Some(TokenTree::Group(g)) => g,
            _ => panic!("a body"),
        };
        let out = prepend(body("{ return b.x; }"), &constants, &HashSet::new());
        assert_eq!(
            show(TokenStream::from(TokenTree::Group(out))),
            "{const vec3 a = {1} ; const vec3 b = a * 2 ; return b . x ;}"
        );
        let params: HashSet<String> = ["c".to_string()].into();
        let out = prepend(body("{ return c.x; }"), &constants, &params);
        assert_eq!(
            show(TokenStream::from(TokenTree::Group(out))),
            "{return c . x ;}"
        );
    }
}
