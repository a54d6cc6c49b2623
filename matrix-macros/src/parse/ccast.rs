//! C-style casts `(NAME) expr` in kernel bodies.
//!
//! Rust has no such syntax, so before a body is parsed, every parenthesised
//! type name followed by an operand is rewritten to `operand as NAME` inside
//! an invisible group, which keeps C's precedence (a cast binds tighter than
//! any binary operator) without adding parentheses rustc would lint.
//! Whether `(x)` is a cast is decided as in C: by whether `x` names a type.

use super::{cternary, ctype};
use proc_macro2::{Delimiter, Group, Ident, Spacing, TokenStream, TokenTree};
use std::collections::HashSet;

/// Rewrites every C-style cast in `tokens`. `type_names` are the block's
/// typedef names; Rust primitives, C scalar spellings and `Matrix<..>` are
/// always type names.
pub(crate) fn rewrite(tokens: TokenStream, type_names: &HashSet<String>) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    rewrite_trees(&trees, type_names).into_iter().collect()
}

fn rewrite_trees(trees: &[TokenTree], names: &HashSet<String>) -> Vec<TokenTree> {
    let mut out: Vec<TokenTree> = Vec::with_capacity(trees.len());
    let mut i = 0;
    while i < trees.len() {
        if discarded_at(trees, i, out.last()) {
            // C's `(void) x;`, a value discarded: `let _ = x;`.
            let span = trees[i].span();
            out.push(TokenTree::Ident(Ident::new("let", span)));
            out.push(TokenTree::Ident(Ident::new("_", span)));
            out.push(super::punct('=', span));
            i += 1;
            continue;
        }
        if let Some((size, taken)) = size_at(trees, i, names) {
            out.push(size);
            i += taken;
            continue;
        }
        if let Some((complement, end)) = complement_at(trees, i, names) {
            out.push(complement);
            i = end;
            continue;
        }
        if let Some(literal) = compound_literal_at(trees, i, out.last(), names) {
            out.push(literal);
            i += 2;
            continue;
        }
        if let Some(ty) = cast_type_at(trees, i, out.last(), names) {
            let end = operand_end(trees, i + 1, names);
            if end > i + 1 {
                let span = trees[i].span();
                let mut inner = rewrite_trees(&trees[i + 1..end], names);
                inner.push(TokenTree::Ident(Ident::new("as", span)));
                inner.extend(ty);
                let mut group = Group::new(Delimiter::None, inner.into_iter().collect());
                group.set_span(span);
                out.push(TokenTree::Group(group));
                i = end;
                continue;
            }
        }
        out.push(match &trees[i] {
            TokenTree::Group(g) => super::regroup(g, |inner| rewrite_trees(inner, names)),
            other => other.clone(),
        });
        i += 1;
    }
    out
}

/// The macro call a compound literal `(NAME){a, b, c}` becomes, for the
/// checker: `__matrix_literal!(NAME; a, b, c)` (its elements rewritten in
/// turn). `NAME` is one of the block's typedef names.
pub(crate) const COMPOUND_LITERAL: &str = "__matrix_literal";

/// The macro call C's `~x` becomes, for the checker:
/// `__matrix_complement!(x)`. Rust has no `~`, and its `!` is C's `!` in a
/// function with a C head, so the complement needs a spelling of its own.
pub(crate) const COMPLEMENT: &str = "__matrix_complement";

/// C's `~x` at `trees[i]`, `x` a unary expression: the
/// [`COMPLEMENT`] call, in an invisible group (a unary operator binds
/// tighter than any binary one), and where the operand ends.
fn complement_at(
    trees: &[TokenTree],
    i: usize,
    names: &HashSet<String>,
) -> Option<(TokenTree, usize)> {
    let TokenTree::Punct(tilde) = &trees[i] else {
        return None;
    };
    let end = operand_end(trees, i + 1, names);
    if tilde.as_char() != '~' || end == i + 1 {
        return None;
    }
    let span = tilde.span();
    let operand = rewrite_trees(&trees[i + 1..end], names);
    let mut args = Group::new(Delimiter::Parenthesis, operand.into_iter().collect());
    args.set_span(span);
    let call: TokenStream = [
        TokenTree::Ident(Ident::new(COMPLEMENT, span)),
        super::punct('!', span),
        TokenTree::Group(args),
    ]
    .into_iter()
    .collect();
    let mut whole = Group::new(Delimiter::None, call);
    whole.set_span(span);
    Some((TokenTree::Group(whole), end))
}

/// C's `sizeof(TYPE)`, `sizeof(x)` or `sizeof x` at `trees[i]`: the size
/// in bytes as C's `size_t` (`unsigned long`), Rust's `size_of::<T>()` of
/// the type or `size_of_val` of the value (which has Clang's bytes for
/// scalars, arrays, matrices and vectors: `sizeof(float3)` is 16), in an
/// invisible group; and the tokens it takes. The value is evaluated
/// (C's is not), and a pointer, a slice here, measures its elements.
fn size_at(trees: &[TokenTree], i: usize, names: &HashSet<String>) -> Option<(TokenTree, usize)> {
    let TokenTree::Ident(kw) = &trees[i] else {
        return None;
    };
    if kw != "sizeof" {
        return None;
    }
    let span = kw.span();
    let (size, end) = match trees.get(i + 1) {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
            let size = match type_in_parens(g, names) {
                Some(ty) => {
                    let ty: TokenStream = ty.into_iter().collect();
                    quote::quote_spanned!(span=> ::core::mem::size_of::<#ty>())
                }
                None => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let value: TokenStream = rewrite_trees(&inner, names).into_iter().collect();
                    quote::quote_spanned!(span=> ::core::mem::size_of_val(&(#value)))
                }
            };
            (size, i + 2)
        }
        _ => {
            let end = operand_end(trees, i + 1, names);
            if end == i + 1 {
                return None;
            }
            let value: TokenStream = rewrite_trees(&trees[i + 1..end], names)
                .into_iter()
                .collect();
            (
                quote::quote_spanned!(span=> ::core::mem::size_of_val(&(#value))),
                end,
            )
        }
    };
    let mut group = Group::new(Delimiter::None, quote::quote_spanned!(span=> #size as u64));
    group.set_span(span);
    Some((TokenTree::Group(group), end - i))
}

/// Whether `trees[i]` is `(void)` at the start of a statement (after
/// `prev`, the tokens before it), followed by an operand.
fn discarded_at(trees: &[TokenTree], i: usize, prev: Option<&TokenTree>) -> bool {
    let TokenTree::Group(g) = &trees[i] else {
        return false;
    };
    let void = g.delimiter() == Delimiter::Parenthesis && g.stream().to_string() == "void";
    let statement_start = match prev {
        None => true,
        Some(TokenTree::Punct(p)) => p.as_char() == ';',
        Some(TokenTree::Group(g)) => g.delimiter() == Delimiter::Brace,
        _ => false,
    };
    void && statement_start && i + 1 < trees.len()
}

fn compound_literal_at(
    trees: &[TokenTree],
    i: usize,
    prev: Option<&TokenTree>,
    names: &HashSet<String>,
) -> Option<TokenTree> {
    let (TokenTree::Group(ty), Some(TokenTree::Group(init))) = (&trees[i], trees.get(i + 1)) else {
        return None;
    };
    if ty.delimiter() != Delimiter::Parenthesis || init.delimiter() != Delimiter::Brace {
        return None;
    }
    // After `if`, `while`, `match`, `in` or C's `switch` a parenthesised
    // name is an expression before a block.
    if let Some(TokenTree::Ident(id)) = prev
        && matches!(
            id.to_string().as_str(),
            "if" | "while" | "match" | "in" | "switch"
        )
    {
        return None;
    }
    let inner: Vec<TokenTree> = ty.stream().into_iter().collect();
    let [TokenTree::Ident(name)] = inner.as_slice() else {
        return None;
    };
    // `(x) {` is no Rust elsewhere, so a name the block does not know is
    // still C's compound literal, for the checker to call unknown.
    if syn::parse2::<Ident>(TokenStream::from(TokenTree::Ident(name.clone()))).is_err() {
        return None;
    }
    let elements: Vec<TokenTree> = init.stream().into_iter().collect();
    let elements = rewrite_trees(&elements, names);
    Some(compound_literal(name, elements, ty.span(), init.span()))
}

/// `__matrix_literal!(NAME; elements)` in an invisible group: the compound
/// literal `(NAME){elements}` for the checker, its elements rewritten;
/// `span` is the type's, `init` the braces'.
pub(super) fn compound_literal(
    name: &Ident,
    elements: Vec<TokenTree>,
    span: proc_macro2::Span,
    init: proc_macro2::Span,
) -> TokenTree {
    let mut args = vec![
        TokenTree::Ident(name.clone()),
        TokenTree::Punct(proc_macro2::Punct::new(';', Spacing::Alone)),
    ];
    args.extend(elements);
    let mut group = Group::new(Delimiter::Parenthesis, args.into_iter().collect());
    group.set_span(init);
    let mut bang = proc_macro2::Punct::new('!', Spacing::Alone);
    bang.set_span(span);
    let call: TokenStream = [
        TokenTree::Ident(Ident::new(COMPOUND_LITERAL, span)),
        TokenTree::Punct(bang),
        TokenTree::Group(group),
    ]
    .into_iter()
    .collect();
    let mut whole = Group::new(Delimiter::None, call);
    whole.set_span(span);
    TokenTree::Group(whole)
}

/// If `trees[i]` is a parenthesised type name in cast position, the Rust type.
fn cast_type_at(
    trees: &[TokenTree],
    i: usize,
    prev: Option<&TokenTree>,
    names: &HashSet<String>,
) -> Option<Vec<TokenTree>> {
    let TokenTree::Group(group) = &trees[i] else {
        return None;
    };
    if group.delimiter() != Delimiter::Parenthesis {
        return None;
    }
    let cast_position = match prev {
        None => true,
        Some(TokenTree::Punct(p)) => p.as_char() != '.',
        Some(TokenTree::Ident(id)) => {
            matches!(
                id.to_string().as_str(),
                "return" | "break" | "in" | "if" | "while" | "match" | "else"
            )
        }
        // After a block (`if c { .. } (T) x`) a new expression starts.
        Some(TokenTree::Group(g)) => matches!(g.delimiter(), Delimiter::None | Delimiter::Brace),
        Some(TokenTree::Literal(_)) => false,
    };
    if !cast_position || !starts_operand(trees.get(i + 1), trees, i + 1, names) {
        return None;
    }
    // After `if` or `while`, `(n) k += 1;` is C's condition and its
    // statement, not a cast to an unknown type.
    let condition = matches!(prev, Some(TokenTree::Ident(id)) if id == "if" || id == "while");
    type_in_parens(group, names)
        .or_else(|| (!condition).then(|| unknown_name_cast(group, trees.get(i + 1)))?)
}

/// `(NAME) x` or `(NAME) 1` where `NAME` is no type the block knows: never
/// Rust (a parenthesised expression cannot be followed by an operand), so
/// C's cast, rewritten like the others for the checker to report
/// `unknown type name 'NAME'`. (`(f)(x)` and `(c) -x` stay Rust.)
fn unknown_name_cast(group: &Group, next: Option<&TokenTree>) -> Option<Vec<TokenTree>> {
    let inner: Vec<TokenTree> = group.stream().into_iter().collect();
    let [TokenTree::Ident(name)] = inner.as_slice() else {
        return None;
    };
    // `syn::Ident`'s parser refuses keywords (`(c) as f32`, `(x) else`).
    let is_word = |t: &TokenTree| {
        matches!(t, TokenTree::Ident(_))
            && syn::parse2::<Ident>(TokenStream::from(t.clone())).is_ok()
    };
    let unambiguous = match next {
        Some(TokenTree::Literal(_)) => true,
        Some(t @ TokenTree::Ident(_)) => is_word(t),
        _ => false,
    };
    (unambiguous && is_word(&inner[0])).then(|| vec![TokenTree::Ident(name.clone())])
}

/// The Rust spelling of the type a parenthesised group names, if it names one.
fn type_in_parens(group: &Group, names: &HashSet<String>) -> Option<Vec<TokenTree>> {
    let inner: Vec<TokenTree> = group.stream().into_iter().collect();
    let span = group.span();
    let words = ctype::words(&inner);
    if let Some(words) = words {
        if let [single] = words.as_slice()
            && (names.contains(single) || crate::types::Scalar::from_rust_name(single).is_some())
        {
            return Some(vec![inner[0].clone()]);
        }
        if words.iter().all(|w| ctype::is_c_type_word(w)) {
            let scalar = ctype::from_c_spelling(&words)?;
            return Some(scalar.to_tokens(span).into_iter().collect());
        }
        return None;
    }
    // `Matrix<T, R, C>`
    match inner.as_slice() {
        [
            TokenTree::Ident(id),
            TokenTree::Punct(lt),
            ..,
            TokenTree::Punct(gt),
        ] if id == "Matrix" && lt.as_char() == '<' && gt.as_char() == '>' => Some(inner),
        _ => None,
    }
}

fn starts_operand(
    tree: Option<&TokenTree>,
    trees: &[TokenTree],
    at: usize,
    names: &HashSet<String>,
) -> bool {
    match tree {
        Some(TokenTree::Literal(_)) => true,
        Some(TokenTree::Ident(id)) => !matches!(
            id.to_string().as_str(),
            "as" | "else"
                | "in"
                | "for"
                | "if"
                | "while"
                | "loop"
                | "match"
                | "let"
                | "fn"
                | "return"
        ),
        Some(TokenTree::Group(g)) => match g.delimiter() {
            Delimiter::Parenthesis | Delimiter::Bracket | Delimiter::None => true,
            Delimiter::Brace => false,
        },
        Some(TokenTree::Punct(p)) => match p.as_char() {
            '-' | '!' | '*' | '&' | '~' => {
                // `&&` and `*=`-like pairs are binary operators, not prefixes.
                p.spacing() == Spacing::Alone || operand_end(trees, at, names) > at
            }
            _ => false,
        },
        None => false,
    }
}

/// The end (exclusive) of the unary expression starting at `start`.
fn operand_end(trees: &[TokenTree], start: usize, names: &HashSet<String>) -> usize {
    let mut j = start;
    // Prefix operators.
    while let Some(TokenTree::Punct(p)) = trees.get(j) {
        match p.as_char() {
            '-' | '!' | '*' | '~' => j += 1,
            '&' => {
                j += 1;
                if let Some(TokenTree::Ident(id)) = trees.get(j)
                    && id == "mut"
                {
                    j += 1;
                }
            }
            _ => return start,
        }
    }
    // A nested cast takes the rest of the unary expression.
    if let Some(TokenTree::Group(g)) = trees.get(j)
        && g.delimiter() == Delimiter::Parenthesis
        && type_in_parens(g, names).is_some()
        && starts_operand(trees.get(j + 1), trees, j + 1, names)
    {
        return operand_end(trees, j + 1, names);
    }
    // The primary expression.
    match trees.get(j) {
        Some(TokenTree::Literal(_)) | Some(TokenTree::Group(_)) => j += 1,
        Some(TokenTree::Ident(_)) => {
            j += 1;
            loop {
                if is_path_sep(trees, j) {
                    j += 2;
                    match trees.get(j) {
                        Some(TokenTree::Ident(_)) => j += 1,
                        Some(TokenTree::Punct(p)) if p.as_char() == '<' => {
                            j = skip_angles(trees, j)
                        }
                        _ => return start,
                    }
                } else {
                    break;
                }
            }
            // A macro call `name!(...)`.
            if let (Some(TokenTree::Punct(p)), Some(TokenTree::Group(_))) =
                (trees.get(j), trees.get(j + 1))
                && p.as_char() == '!'
            {
                j += 2;
            }
        }
        _ => return start,
    }
    // Postfix: calls, indexing, fields, methods, `?`.
    loop {
        match trees.get(j) {
            Some(TokenTree::Group(g))
                if matches!(g.delimiter(), Delimiter::Parenthesis | Delimiter::Bracket) =>
            {
                j += 1
            }
            // Rust's `?`, not the start of C's `c ? a : b`.
            Some(TokenTree::Punct(p))
                if p.as_char() == '?' && !cternary::is_conditional(trees, j) =>
            {
                j += 1
            }
            Some(TokenTree::Punct(p)) if p.as_char() == '.' && p.spacing() == Spacing::Alone => {
                match trees.get(j + 1) {
                    Some(TokenTree::Ident(_)) | Some(TokenTree::Literal(_)) => {
                        j += 2;
                        if is_path_sep(trees, j)
                            && let Some(TokenTree::Punct(p)) = trees.get(j + 2)
                            && p.as_char() == '<'
                        {
                            j = skip_angles(trees, j + 2);
                        }
                    }
                    _ => break,
                }
            }
            _ => break,
        }
    }
    j
}

fn is_path_sep(trees: &[TokenTree], j: usize) -> bool {
    matches!(
        (trees.get(j), trees.get(j + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

/// Skips `<...>` starting at the `<` at `j`; returns the index after `>`.
fn skip_angles(trees: &[TokenTree], mut j: usize) -> usize {
    let mut depth = 0usize;
    while let Some(tree) = trees.get(j) {
        if let TokenTree::Punct(p) = tree {
            match p.as_char() {
                '<' => depth += 1,
                '>' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return j + 1;
                    }
                }
                _ => {}
            }
        }
        j += 1;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::assert_rewrites;

    fn rw(src: &str) -> String {
        let names: HashSet<String> = ["m4x4_t".to_string()].into_iter().collect();
        let out = rewrite(src.parse().unwrap(), &names);
        // Show invisible groups as «...» to check precedence.
        fn show(ts: TokenStream) -> String {
            ts.into_iter()
                .map(|t| match t {
                    TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                        format!("«{}»", show(g.stream()))
                    }
                    TokenTree::Group(g) => {
                        let (o, c) = match g.delimiter() {
                            Delimiter::Parenthesis => ("(", ")"),
                            Delimiter::Bracket => ("[", "]"),
                            _ => ("{", "}"),
                        };
                        format!("{o}{}{c}", show(g.stream()))
                    }
                    other => other.to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        }
        show(out)
    }

    #[test]
    fn casts_become_as() {
        assert_rewrites(
            rw,
            &[
                ("(m4x4_t) a * b", "«a as m4x4_t» * b"),
                ("(float) x", "«x as f32»"),
                ("(unsigned int) - x [1] [2]", "«- x [1] [2] as u32»"),
                ("(m4x4_t) (int) a.b(c)", "««a . b (c) as i32» as m4x4_t»"),
                ("f((double) y, 2)", "f («y as f64» , 2)"),
            ],
        );
    }

    #[test]
    fn complements_take_a_unary_operand() {
        assert_rewrites(
            rw,
            &[
                ("~ x", "«__matrix_complement ! (x)»"),
                (
                    "a & ~ b [i] << 2",
                    "a & «__matrix_complement ! (b [i])» < < 2",
                ),
                (
                    "~ ~ x",
                    "«__matrix_complement ! («__matrix_complement ! (x)»)»",
                ),
                ("~ (unsigned) s", "«__matrix_complement ! («s as u32»)»"),
                ("(int) ~ x . y", "««__matrix_complement ! (x . y)» as i32»"),
                ("- ~ f (a)", "- «__matrix_complement ! (f (a))»"),
                // Nothing to take: left for the parser to report.
                ("x ~", "x ~"),
            ],
        );
    }

    #[test]
    fn leaves_rust_alone() {
        assert_rewrites(
            rw,
            &[
                ("(x) - y", "(x) - y"),
                ("foo (a) + 1", "foo (a) + 1"),
                ("x . (f32)", "x . (f32)"),
                ("(f32)", "(f32)"),
                ("if c { x } (m4x4_t) t", "if c {x} «t as m4x4_t»"),
                // C's `if (n) k += 1;`: a condition, not a cast to a type `n`;
                // elsewhere `(n) k` is one, for the checker to call unknown.
                ("if (n) k += 1 ;", "if (n) k + = 1 ;"),
                ("while (n) k -= 1 ;", "while (n) k - = 1 ;"),
                ("y = (n) k ;", "y = «k as n» ;"),
                // C's `(void) x;` discards a value.
                (
                    "(void) n ; { (void) f (x) ; }",
                    "let _ = n ; {let _ = f (x) ;}",
                ),
                ("y = (void) n ;", "y = «n as void» ;"),
                // C's `sizeof`: of a type, a parenthesised value, a bare operand.
                (
                    "n * sizeof (unsigned int)",
                    "n * «: : core : : mem : : size_of : : < u32 > () as u64»",
                ),
                (
                    "sizeof (w) / sizeof w [0]",
                    "«: : core : : mem : : size_of_val (& (w)) as u64» / «: : core : : mem : : size_of_val (& (w [0])) as u64»",
                ),
            ],
        );
    }
}
