//! C's preprocessing lines in a block, so that a C file's header of
//! constants and helper macros pastes with it:
//!
//! | C | here |
//! |---|---|
//! | `#define N 4`, `#define PI 3.14159265f` | every later `N` is `4` |
//! | `#define SQ(x) ((x) * (x))`, `#define MAX(a, b) ((a) > (b) ? (a) : (b))` | every later `SQ(e)` is `((e) * (e))` |
//! | `#undef N` | `N` is a name again |
//! | `#ifdef X`, `#ifndef X`, `#if EXPR`, `#elif EXPR`, `#else`, `#endif` | the lines of the branch taken |
//! | `#include <math.h>`, `#pragma once` | nothing: the block knows C's math functions |
//! | `#error text` (in a branch taken) | an error, `text` |
//!
//! A line is the tokens that start on it: Rust's lexer keeps no newlines,
//! so a directive ends where the next source line begins (a `\` that
//! continues a line is no Rust token, and rustc refuses it first). As in
//! C, a macro is replaced wherever its name stands after its definition,
//! inside functions too; a function-like one only where `(` follows its
//! name, and only where its definition wrote the `(` right after the name;
//! arguments are expanded first, and a replacement is scanned again for
//! other macros but not for itself. In a replacement `#x` is the
//! argument as a string, `a ## b` one token pasted from `a` and `b` (a
//! parameter there takes its argument as written), and a last parameter
//! `...` takes the arguments left, commas and all, as `__VA_ARGS__`.
//! Any other directive is refused with a message. A
//! replacement's tokens take the place of the name they replace, so an
//! error in one points at the use.
//!
//! A block without a directive is returned as it came.

use super::cstmt::split_top_level;
use crate::diag::{self, Diagnostics, Loc};
use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};
use std::collections::HashMap;

/// The block with its directives carried out (see the module).
pub(crate) fn preprocess(input: TokenStream, diags: &mut Diagnostics) -> TokenStream {
    let trees: Vec<TokenTree> = input.into_iter().collect();
    if !has_directive(&trees) {
        return trees.into_iter().collect();
    }
    let mut cx = Preprocessor {
        macros: HashMap::new(),
        conditions: Vec::new(),
        diags,
    };
    let out = cx.lines(&trees);
    for open in std::mem::take(&mut cx.conditions) {
        cx.diags.error(open.at, diag::UNTERMINATED_CONDITIONAL);
    }
    out.into_iter().collect()
}

/// A macro: its parameters (`None` for an object-like one) and its
/// replacement.
struct Macro {
    params: Option<Vec<String>>,
    body: Vec<TokenTree>,
}

/// An open `#if`, `#ifdef` or `#ifndef`.
struct Condition {
    /// Whether the lines now read are kept.
    taking: bool,
    /// Whether a branch has been taken (no later `#elif` or `#else` is).
    taken: bool,
    /// Whether the lines around the directive were kept.
    outer: bool,
    at: Loc,
}

struct Preprocessor<'a> {
    macros: HashMap<String, Macro>,
    conditions: Vec<Condition>,
    diags: &'a mut Diagnostics,
}

impl Preprocessor<'_> {
    /// Whether the lines now read are kept.
    fn taking(&self) -> bool {
        self.conditions.last().is_none_or(|c| c.taking)
    }

    /// `trees` with directives carried out and macros replaced, groups'
    /// contents in turn.
    fn lines(&mut self, trees: &[TokenTree]) -> Vec<TokenTree> {
        self.scan(trees, &mut Vec::new(), true)
    }

    /// `trees` with every macro replaced but those in `disabled`, groups'
    /// contents in turn; with `directives`, directives carried out and the
    /// lines of branches not taken dropped (a replacement, rescanned, has
    /// none).
    fn scan(
        &mut self,
        trees: &[TokenTree],
        disabled: &mut Vec<String>,
        directives: bool,
    ) -> Vec<TokenTree> {
        let mut out = Vec::with_capacity(trees.len());
        let mut i = 0;
        while i < trees.len() {
            if directives && let Some(name) = directive_at(trees, i) {
                let end = line_end(trees, i);
                let at = Loc {
                    start: trees[i].span(),
                    end: name.span(),
                };
                self.directive(&name, &trees[i + 2..end], at);
                i = end;
                continue;
            }
            if directives && !self.taking() {
                i += 1;
                continue;
            }
            if let Some((replaced, taken)) = self.replaced_at(trees, i, disabled) {
                out.extend(replaced);
                i += taken;
                continue;
            }
            out.push(match &trees[i] {
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    let inner = self.scan(&inner, disabled, directives);
                    super::group(g.delimiter(), inner, g.span())
                }
                other => other.clone(),
            });
            i += 1;
        }
        out
    }

    /// The directive `#name rest`, written at `at`.
    fn directive(&mut self, name: &Ident, rest: &[TokenTree], at: Loc) {
        let word = name.to_string();
        let taking = self.taking();
        match word.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let value = taking && self.condition(&word, rest, at);
                self.conditions.push(Condition {
                    taking: value,
                    taken: value,
                    outer: taking,
                    at,
                });
            }
            "elif" | "else" => {
                let Some(open) = self.conditions.last() else {
                    let message = diag::directive_without_if(&word);
                    return self.diags.error(at, message);
                };
                let (outer, taken) = (open.outer, open.taken);
                let value = outer && !taken && (word == "else" || self.condition("if", rest, at));
                if let Some(open) = self.conditions.last_mut() {
                    open.taking = value;
                    open.taken |= value;
                }
            }
            "endif" => {
                if self.conditions.pop().is_none() {
                    let message = diag::directive_without_if("endif");
                    self.diags.error(at, message);
                }
            }
            _ if !taking => {}
            "define" => self.define(rest, at),
            "undef" => match rest {
                [TokenTree::Ident(n)] => {
                    self.macros.remove(&n.to_string());
                }
                _ => self.diags.error(at, diag::MACRO_NAME_MISSING),
            },
            "include" => {}
            "pragma" if matches!(rest, [TokenTree::Ident(once)] if once == "once") => {}
            "error" => {
                let text: TokenStream = rest.iter().cloned().collect();
                self.diags.error(at, text);
            }
            _ => self.diags.error(at, diag::unsupported_directive(&word)),
        }
    }

    /// `#define NAME body` or `#define NAME(a, b) body`.
    fn define(&mut self, rest: &[TokenTree], at: Loc) {
        let Some(TokenTree::Ident(name)) = rest.first() else {
            return self.diags.error(at, diag::MACRO_NAME_MISSING);
        };
        let (params, body) = match rest.get(1) {
            Some(TokenTree::Group(g))
                if g.delimiter() == Delimiter::Parenthesis && adjacent(name.span(), g.span()) =>
            {
                match parameters(g) {
                    Some(params) => (Some(params), &rest[2..]),
                    None => {
                        let at = Loc::from(g.span());
                        return self.diags.error(at, diag::MACRO_PARAMETERS);
                    }
                }
            }
            _ => (None, &rest[1..]),
        };
        if let Err((at, message)) = check_hashes(body, params.as_deref()) {
            return self.diags.error(Loc::from(at), message);
        }
        let body = body.to_vec();
        self.macros.insert(name.to_string(), Macro { params, body });
    }

    /// The value of `#ifdef NAME`, `#ifndef NAME` or `#if EXPR`.
    fn condition(&mut self, word: &str, rest: &[TokenTree], at: Loc) -> bool {
        if word != "if" {
            let [TokenTree::Ident(n)] = rest else {
                self.diags.error(at, diag::MACRO_NAME_MISSING);
                return false;
            };
            return self.macros.contains_key(&n.to_string()) == (word == "ifdef");
        }
        let tokens = self.with_defined(rest);
        let value = syn::parse2::<syn::Expr>(tokens.into_iter().collect())
            .ok()
            .and_then(|e| if_value(&e));
        value.map(|v| v != 0).unwrap_or_else(|| {
            self.diags.error(at, diag::IF_NOT_CONSTANT);
            false
        })
    }

    /// The tokens of `#if`'s expression: `defined(X)` and `defined X` as
    /// 1 or 0, other macros replaced, and any name left as 0, as C's are.
    fn with_defined(&mut self, rest: &[TokenTree]) -> Vec<TokenTree> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let defined = match (&rest[i], rest.get(i + 1)) {
                (TokenTree::Ident(d), Some(TokenTree::Ident(n))) if d == "defined" => {
                    Some((n.clone(), 2))
                }
                (TokenTree::Ident(d), Some(TokenTree::Group(g))) if d == "defined" => {
                    match g.stream().into_iter().collect::<Vec<_>>().as_slice() {
                        [TokenTree::Ident(n)] => Some((n.clone(), 2)),
                        _ => None,
                    }
                }
                _ => None,
            };
            if let Some((name, taken)) = defined {
                let value = u8::from(self.macros.contains_key(&name.to_string()));
                out.push(TokenTree::Literal(proc_macro2::Literal::u8_unsuffixed(
                    value,
                )));
                i += taken;
                continue;
            }
            if let Some((replaced, taken)) = self.replaced_at(rest, i, &mut Vec::new()) {
                out.extend(replaced);
                i += taken;
                continue;
            }
            out.push(match &rest[i] {
                TokenTree::Ident(_) => TokenTree::Literal(proc_macro2::Literal::u8_unsuffixed(0)),
                other => other.clone(),
            });
            i += 1;
        }
        out
    }

    /// The replacement of a macro named at `trees[i]`, rescanned, and the
    /// tokens it takes; `None` where no macro is named (or its name is
    /// being replaced already: `disabled`).
    fn replaced_at(
        &mut self,
        trees: &[TokenTree],
        i: usize,
        disabled: &mut Vec<String>,
    ) -> Option<(Vec<TokenTree>, usize)> {
        let TokenTree::Ident(name) = &trees[i] else {
            return None;
        };
        let key = name.to_string();
        if disabled.contains(&key) {
            return None;
        }
        let m = self.macros.get(&key)?;
        let (body, taken) = match &m.params {
            None => {
                let none = Arguments {
                    params: &[],
                    raw: &[],
                    expanded: &[],
                };
                (self.substituted(&m.body.clone(), &none), 1)
            }
            Some(params) => {
                let Some(TokenTree::Group(args)) = trees.get(i + 1) else {
                    return None;
                };
                if args.delimiter() != Delimiter::Parenthesis {
                    return None;
                }
                let (params, body) = (params.clone(), m.body.clone());
                let args = split_arguments(args);
                let variadic = params.last().is_some_and(|p| p == VA_ARGS);
                let args = match (args.len(), params.len()) {
                    (1, 0) if args[0].is_empty() => Vec::new(),
                    (a, p) if a == p => args,
                    // `F(x)` of `F(x, ...)`: no variable arguments.
                    (a, p) if variadic && a + 1 == p => {
                        let mut args = args;
                        args.push(Vec::new());
                        args
                    }
                    // The variable arguments, with their commas, are one.
                    (a, p) if variadic && a > p => {
                        let mut args = args;
                        let rest: Vec<Vec<TokenTree>> = args.split_off(p - 1);
                        let comma = super::punct(',', trees[i + 1].span());
                        args.push(rest.join(&comma));
                        args
                    }
                    (a, p) => {
                        let message = if a > p {
                            diag::MACRO_TOO_MANY_ARGUMENTS
                        } else {
                            diag::MACRO_TOO_FEW_ARGUMENTS
                        };
                        // The call stays as written, for rustc to name.
                        self.diags.error(Loc::from(trees[i + 1].span()), message);
                        return None;
                    }
                };
                let expanded: Vec<Vec<TokenTree>> =
                    args.iter().map(|a| self.scan(a, disabled, false)).collect();
                let arguments = Arguments {
                    params: &params,
                    raw: &args,
                    expanded: &expanded,
                };
                (self.substituted(&body, &arguments), 2)
            }
        };
        disabled.push(key);
        let out = self.scan(&body, disabled, false);
        disabled.pop();
        Some((respanned(&out, name.span()), taken))
    }
}

impl Preprocessor<'_> {
    /// [`substituted`], its errors reported (a paste that forms no token
    /// keeps its left operand, so that nothing else is reported).
    fn substituted(&mut self, body: &[TokenTree], args: &Arguments) -> Vec<TokenTree> {
        let mut errors = Vec::new();
        let out = substituted(body, args, &mut errors);
        for (at, message) in errors {
            self.diags.error(Loc::from(at), &message);
        }
        out
    }
}

/// The value of `#if`'s expression, its names already numbers: C's
/// integer arithmetic, comparisons, `!`, `&&` and `||` (1 or 0).
fn if_value(e: &syn::Expr) -> Option<i128> {
    use syn::BinOp as B;
    let truth = |b: bool| Some(i128::from(b));
    match e {
        syn::Expr::Paren(p) => if_value(&p.expr),
        syn::Expr::Group(g) => if_value(&g.expr),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Not(_),
            expr,
            ..
        }) => truth(if_value(expr)? == 0),
        syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Neg(_),
            expr,
            ..
        }) => if_value(expr)?.checked_neg(),
        syn::Expr::Binary(b) => {
            let (l, r) = (if_value(&b.left)?, if_value(&b.right)?);
            match b.op {
                B::And(_) => truth(l != 0 && r != 0),
                B::Or(_) => truth(l != 0 || r != 0),
                B::Eq(_) => truth(l == r),
                B::Ne(_) => truth(l != r),
                B::Lt(_) => truth(l < r),
                B::Le(_) => truth(l <= r),
                B::Gt(_) => truth(l > r),
                B::Ge(_) => truth(l >= r),
                B::Add(_) => l.checked_add(r),
                B::Sub(_) => l.checked_sub(r),
                B::Mul(_) => l.checked_mul(r),
                B::Div(_) => l.checked_div(r),
                B::Rem(_) => l.checked_rem(r),
                _ => None,
            }
        }
        other => crate::consteval::eval(other, &Default::default()),
    }
}

/// Whether the block has a directive anywhere.
fn has_directive(trees: &[TokenTree]) -> bool {
    (0..trees.len()).any(|i| {
        directive_at(trees, i).is_some()
            || matches!(&trees[i], TokenTree::Group(g)
                if has_directive(&g.stream().into_iter().collect::<Vec<_>>()))
    })
}

/// The directive's name where `trees[i]` is a `#` that begins a line and
/// a name follows it on that line (`#define`, not Rust's `#[attr]`).
fn directive_at(trees: &[TokenTree], i: usize) -> Option<Ident> {
    let (TokenTree::Punct(hash), Some(TokenTree::Ident(name))) = (&trees[i], trees.get(i + 1))
    else {
        return None;
    };
    let line = hash.span().start().line;
    let first_on_line = i == 0 || trees[i - 1].span().end().line < line;
    (hash.as_char() == '#' && first_on_line && name.span().start().line == line)
        .then(|| name.clone())
}

/// The index of the first token after `i` that starts on a later line.
fn line_end(trees: &[TokenTree], i: usize) -> usize {
    let line = trees[i].span().start().line;
    (i + 1..trees.len())
        .find(|&j| trees[j].span().start().line != line)
        .unwrap_or(trees.len())
}

/// Whether `b` starts where `a` ends: `NAME(` with no space between.
fn adjacent(a: Span, b: Span) -> bool {
    let (end, start) = (a.end(), b.start());
    end.line == start.line && end.column == start.column
}

/// The name the variable arguments of a macro declared with `...` take.
const VA_ARGS: &str = "__VA_ARGS__";

/// A function-like macro's parameter names (a last `...` as
/// [`VA_ARGS`]), or `None` where they are not names separated by commas.
fn parameters(g: &Group) -> Option<Vec<String>> {
    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
    if inner.is_empty() {
        return Some(Vec::new());
    }
    let parts = split_top_level(&inner, ',');
    let last = parts.len() - 1;
    parts
        .into_iter()
        .enumerate()
        .map(|(k, p)| match p {
            [TokenTree::Ident(n)] if n != VA_ARGS => Some(n.to_string()),
            [
                TokenTree::Punct(a),
                TokenTree::Punct(b),
                TokenTree::Punct(c),
            ] if k == last && [a, b, c].iter().all(|p| p.as_char() == '.') => {
                Some(VA_ARGS.to_string())
            }
            _ => None,
        })
        .collect()
}

/// Whether `t[k]` and `t[k + 1]` are `##`.
fn paste_at(t: &[TokenTree], k: usize) -> bool {
    matches!(
        (t.get(k), t.get(k + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == '#' && b.as_char() == '#' && a.spacing() == proc_macro2::Spacing::Joint
    )
}

/// Clang's checks of `#` and `##` in a replacement: `##` not at either
/// end, and in a function-like macro (`params`) `#` before a parameter.
fn check_hashes(body: &[TokenTree], params: Option<&[String]>) -> Result<(), (Span, &'static str)> {
    if paste_at(body, 0) {
        return Err((body[0].span(), diag::PASTE_AT_END));
    }
    if body.len() >= 2 && paste_at(body, body.len() - 2) {
        return Err((body[body.len() - 2].span(), diag::PASTE_AT_END));
    }
    let Some(params) = params else {
        return Ok(());
    };
    let mut k = 0;
    while k < body.len() {
        if paste_at(body, k) {
            k += 2;
            continue;
        }
        if let TokenTree::Punct(hash) = &body[k]
            && hash.as_char() == '#'
            && !matches!(body.get(k + 1), Some(TokenTree::Ident(id)) if params.iter().any(|p| id == p))
        {
            return Err((hash.span(), diag::HASH_WITHOUT_PARAMETER));
        }
        k += 1;
    }
    Ok(())
}

/// The arguments of a call of a function-like macro: the parameters'
/// names, and each argument as written and with its macros replaced.
struct Arguments<'a> {
    params: &'a [String],
    raw: &'a [Vec<TokenTree>],
    expanded: &'a [Vec<TokenTree>],
}

impl Arguments<'_> {
    /// The argument parameter `id` takes, if it names one: as written
    /// (`raw`, for `#` and `##`) or expanded.
    fn of(&self, id: &Ident, raw: bool) -> Option<&[TokenTree]> {
        let k = self.params.iter().position(|p| id == p)?;
        Some(if raw { &self.raw[k] } else { &self.expanded[k] })
    }
}

/// The tokens of an argument as one string literal (C's `#x`): written
/// as they stand, a space where the source had one between two tokens.
fn stringized(arg: &[TokenTree], span: Span) -> TokenTree {
    let mut text = String::new();
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && !adjacent(arg[k - 1].span(), t.span()) {
            text.push(' ');
        }
        text.push_str(&t.to_string());
    }
    let mut lit = proc_macro2::Literal::string(&text);
    lit.set_span(span);
    TokenTree::Literal(lit)
}

/// `a ## b`: one token spelled as `a` then `b`, or Clang's error where
/// that spelling is no single token.
fn pasted(a: &TokenTree, b: &TokenTree) -> Result<TokenTree, (Span, String)> {
    let text = format!("{a}{b}");
    let tokens: Vec<TokenTree> = text
        .parse::<TokenStream>()
        .map(|s| s.into_iter().collect())
        .unwrap_or_default();
    match tokens.as_slice() {
        [one] if !matches!(one, TokenTree::Group(_)) => {
            let mut one = one.clone();
            one.set_span(a.span());
            Ok(one)
        }
        _ => Err((a.span(), diag::invalid_paste(&text))),
    }
}

/// A call's arguments, split at its top-level commas.
fn split_arguments(args: &Group) -> Vec<Vec<TokenTree>> {
    let inner: Vec<TokenTree> = args.stream().into_iter().collect();
    split_top_level(&inner, ',')
        .into_iter()
        .map(<[TokenTree]>::to_vec)
        .collect()
}

/// `body` with each parameter name replaced by its argument, as C
/// replaces it: `#x` by the argument as a string, the operands of `##` by
/// their arguments as written and then pasted into one token, any other
/// by its argument with its macros replaced.
fn substituted(
    body: &[TokenTree],
    args: &Arguments,
    errors: &mut Vec<(Span, String)>,
) -> Vec<TokenTree> {
    let mut out: Vec<TokenTree> = Vec::with_capacity(body.len());
    let mut k = 0;
    while k < body.len() {
        let tree = &body[k];
        let pasted_before = k >= 2 && paste_at(body, k - 2);
        if paste_at(body, k) {
            // `a ## b`: the last token so far with `b`'s first.
            let rhs: Vec<TokenTree> = match body.get(k + 2) {
                Some(TokenTree::Ident(id)) => match args.of(id, true) {
                    Some(arg) => arg.to_vec(),
                    None => vec![body[k + 2].clone()],
                },
                Some(other) => vec![other.clone()],
                None => Vec::new(),
            };
            match (out.pop(), rhs.split_first()) {
                (Some(lhs), Some((first, rest))) => {
                    match pasted(&lhs, first) {
                        Ok(one) => out.push(one),
                        Err(error) => {
                            errors.push(error);
                            out.push(lhs);
                        }
                    }
                    out.extend(rest.iter().cloned());
                }
                // An empty argument on either side: the other stands.
                (Some(lhs), None) => out.push(lhs),
                (None, _) => out.extend(rhs),
            }
            k += 3;
            continue;
        }
        match tree {
            TokenTree::Punct(hash) if hash.as_char() == '#' && !args.params.is_empty() => {
                if let Some(TokenTree::Ident(id)) = body.get(k + 1)
                    && let Some(arg) = args.of(id, true)
                {
                    out.push(stringized(arg, hash.span()));
                    k += 2;
                    continue;
                }
                out.push(tree.clone());
            }
            TokenTree::Ident(id) => {
                let raw = pasted_before || paste_at(body, k + 1);
                match args.of(id, raw) {
                    Some(arg) => out.extend(arg.iter().cloned()),
                    None => out.push(tree.clone()),
                }
            }
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                let inner = substituted(&inner, args, errors);
                out.push(super::group(g.delimiter(), inner, g.span()));
            }
            other => out.push(other.clone()),
        }
        k += 1;
    }
    out
}

/// `trees` at `span`: a replacement stands where the name it replaces
/// stood.
fn respanned(trees: &[TokenTree], span: Span) -> Vec<TokenTree> {
    trees
        .iter()
        .map(|tree| match tree {
            TokenTree::Group(g) => {
                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                super::group(g.delimiter(), respanned(&inner, span), span)
            }
            other => {
                let mut other = other.clone();
                other.set_span(span);
                other
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::assert_rewrites;

    fn run(src: &str) -> (String, Vec<String>) {
        let mut diags = Diagnostics::default();
        let out = preprocess(src.parse().unwrap(), &mut diags);
        (out.to_string(), diags.messages())
    }

    fn expanded(src: &str) -> String {
        let (out, errors) = run(src);
        assert!(errors.is_empty(), "{errors:?}");
        out
    }

    #[test]
    fn object_and_function_macros_replace_later_names() {
        let out = expanded(
            "#define N 4\n\
             #define SQ(x) ((x) * (x))\n\
             #define MAX(a, b) ((a) > (b) ? (a) : (b))\n\
             float f() { return SQ(N + 1) + MAX(N, SQ(2)); }",
        );
        assert_eq!(
            out,
            "float f () { return ((4 + 1) * (4 + 1)) + ((4) > (((2) * (2))) ? (4) : (((2) * (2)))) ; }"
        );
    }

    #[test]
    fn names_not_called_and_spaced_parentheses_stay() {
        // `SQ` without `(` is a name; `#define P (1)` is object-like.
        let out = expanded(
            "#define SQ(x) x * x\n\
             #define P (1)\n\
             int g = SQ; int h = P + SQ(P);",
        );
        assert_eq!(out, "int g = SQ ; int h = (1) + (1) * (1) ;");
    }

    #[test]
    fn a_macro_is_not_replaced_inside_itself() {
        let out = expanded("#define x x + 1\n#define y x\nint a = y;");
        assert_eq!(out, "int a = x + 1 ;");
    }

    #[test]
    fn undef_include_pragma_once() {
        let out = expanded(
            "#include <math.h>\n\
             #pragma once\n\
             #define N 2\n\
             int a = N;\n\
             #undef N\n\
             int b = N;",
        );
        assert_eq!(out, "int a = 2 ; int b = N ;");
    }

    #[test]
    fn conditionals_keep_the_branch_taken() {
        let out = expanded(
            "#define FAST 1\n\
             #ifdef FAST\n\
             int a = 1;\n\
             #else\n\
             int a = 2;\n\
             #endif\n\
             #if !defined(SLOW) && FAST > 0\n\
             int b = 3;\n\
             #elif 1\n\
             int b = 4;\n\
             #endif\n\
             #ifndef FAST\n\
             #error no\n\
             #endif\n\
             #if 0\n\
             #if 1\n\
             int c = 5;\n\
             #endif\n\
             #endif",
        );
        assert_eq!(out, "int a = 1 ; int b = 3 ;");
    }

    #[test]
    fn directives_inside_bodies_and_rust_attributes() {
        let out = expanded(
            "#[dispatch]\n\
             fn f() -> i32 {\n\
             #define K 3\n\
             K * 2\n\
             }",
        );
        assert_eq!(out, "# [dispatch] fn f () -> i32 { 3 * 2 }");
        // No directive: the block as it came.
        assert_eq!(expanded("# [a] fn g () {}"), "# [a] fn g () { }");
    }

    #[test]
    fn stringizing_pasting_and_variable_arguments() {
        assert_eq!(
            expanded("#define NAME(x) #x\nconst char *s = NAME(a  +b);"),
            "const char * s = \"a +b\" ;"
        );
        assert_eq!(
            expanded(
                "#define ADD(N) m##N add##N(m##N a, m##N b) { return a + b; }\n#define K 2\nADD(2) ADD(K)"
            ),
            "m2 add2 (m2 a , m2 b) { return a + b ; } mK addK (mK a , mK b) { return a + b ; }"
        );
        assert_rewrites(
            expanded,
            &[
                ("#define AB a ## b ## 1\nint x = AB;", "int x = ab1 ;"),
                (
                    "#define F(x, y) x##y\nint a = F(, q) + F(p, );",
                    "int a = q + p ;",
                ),
                (
                    "#define CALL(f, ...) f(__VA_ARGS__)\nint x = CALL(g, 1, (2, 3)) + CALL(h);",
                    "int x = g (1 , (2 , 3)) + h () ;",
                ),
            ],
        );
    }

    #[test]
    fn refusals() {
        let errors = |src: &str| run(src).1;
        assert_eq!(errors("#define S(x) #y\n"), [diag::HASH_WITHOUT_PARAMETER]);
        assert_eq!(errors("#define P(x) ## x\n"), [diag::PASTE_AT_END]);
        assert_eq!(errors("#define P(x) x ##\n"), [diag::PASTE_AT_END]);
        assert_eq!(errors("#define V(..., x) 1\n"), [diag::MACRO_PARAMETERS]);
        assert_eq!(
            errors("#define P(a, b) a ## b\nint x = P(+, 1);"),
            [diag::invalid_paste("+1")]
        );
        assert_eq!(errors("#define\n"), [diag::MACRO_NAME_MISSING]);
        assert_eq!(
            errors("#define F(a, b) a\nint x = F(1);"),
            [diag::MACRO_TOO_FEW_ARGUMENTS]
        );
        assert_eq!(
            errors("#define F(a) a\nint x = F(1, 2);"),
            [diag::MACRO_TOO_MANY_ARGUMENTS]
        );
        assert_eq!(errors("#if 1\nint x;"), [diag::UNTERMINATED_CONDITIONAL]);
        assert_eq!(errors("#endif\n"), [diag::directive_without_if("endif")]);
        assert_eq!(errors("#if x +\n#endif\n"), [diag::IF_NOT_CONSTANT]);
        assert_eq!(errors("#line 4\n"), [diag::unsupported_directive("line")]);
        assert_eq!(errors("#error stop here\n"), ["stop here"]);
    }
}
