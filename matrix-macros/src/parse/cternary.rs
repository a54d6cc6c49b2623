//! C's conditional operator `cond ? a : b` in kernel bodies.
//!
//! Rust has no such syntax (its `?` is the error-propagation operator), so
//! before a body is parsed (after `ccast`, whose casts and compound
//! literals are then single tokens, and which leaves a conditional's `?`
//! out of a cast's operand) each conditional becomes an `if` expression,
//! `if ««cond»» { a } else { b }`, its condition inside two invisible
//! groups: the mark by which the checker gives it C's rules rather than an
//! `if`'s (a numeric condition compares with zero, a literal arm converts
//! to the other arm's type, a matrix condition is Clang's error). The
//! extents are C's: the operator binds more loosely than every binary
//! operator and more tightly than assignment and the comma, and it groups
//! from the right (`a ? b : c ? d : e` is `a ? b : (c ? d : e)`), so
//!
//! * the condition starts after the nearest `;`, `,`, `=>`, assignment
//!   (`=`, `+=`, ...), block, closure head (`|x|`, `||`), struct literal's
//!   field name (`f:`) or keyword that begins an expression (`return`,
//!   `let`, `if`, ...) before the `?`;
//! * the first operand ends at the `:` that matches the `?` (nested
//!   conditionals in it are counted);
//! * the second operand ends at the next `;`, `,` or `=>`, or the end of
//!   the enclosing group.
//!
//! A `?` is C's only where it cannot be Rust's: followed by a token that
//! starts an operand (a name, a literal, `(`, `[`, a prefix operator, a
//! closure) and with its `:` before the end of the expression; `r?`,
//! `f()?.x`, `x? as T` and `S { a: x? }` stay Rust's.

use super::{group, regroup};
use proc_macro2::{Delimiter, Ident, Spacing, TokenStream, TokenTree};

/// Rewrites every conditional operator in `tokens` (see the module).
pub(crate) fn rewrite(tokens: TokenStream) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    rewrite_trees(&trees).into_iter().collect()
}

/// Whether `cond`, an `if` expression's condition, is the mark this module
/// puts on the condition of a conditional operator.
pub(crate) fn is_conditional_mark(cond: &syn::Expr) -> Option<&syn::Expr> {
    match cond {
        syn::Expr::Group(outer) => match &*outer.expr {
            syn::Expr::Group(inner) => Some(&inner.expr),
            _ => None,
        },
        _ => None,
    }
}

fn rewrite_trees(trees: &[TokenTree]) -> Vec<TokenTree> {
    let Some((question, colon, end)) = first_conditional(trees) else {
        return trees.iter().map(rewrite_inside).collect();
    };
    let start = condition_start(trees, question);
    let mut out: Vec<TokenTree> = trees[..start].iter().map(rewrite_inside).collect();
    let cond = rewrite_trees(&trees[start..question]);
    let first = rewrite_trees(&trees[question + 1..colon]);
    // The second operand may hold further conditionals (C groups them from
    // the right): rewritten in turn.
    let second = rewrite_trees(&trees[colon + 1..end]);
    let at = trees[start].span();
    out.push(TokenTree::Ident(Ident::new("if", at)));
    let marked = group(Delimiter::None, vec![group(Delimiter::None, cond, at)], at);
    out.push(marked);
    out.push(group(Delimiter::Brace, first, trees[question].span()));
    out.push(TokenTree::Ident(Ident::new("else", trees[colon].span())));
    out.push(group(Delimiter::Brace, second, trees[end - 1].span()));
    out.extend(rewrite_trees(&trees[end..]));
    out
}

/// `tree`, a group's contents rewritten.
fn rewrite_inside(tree: &TokenTree) -> TokenTree {
    match tree {
        TokenTree::Group(g) => regroup(g, rewrite_trees),
        other => other.clone(),
    }
}

/// Whether the `?` at `question` starts C's conditional operator rather
/// than being Rust's (see the module).
pub(crate) fn is_conditional(trees: &[TokenTree], question: usize) -> bool {
    conditional_colon(trees, question).is_some()
}

/// The `:` of the conditional operator whose `?` is at `question`, if
/// that `?` is C's.
fn conditional_colon(trees: &[TokenTree], question: usize) -> Option<usize> {
    let c = is_punct(&trees[question], '?') && starts_operand(trees.get(question + 1));
    c.then(|| matching_colon(trees, question)).flatten()
}

/// The first conditional operator of this level: the indices of its `?`,
/// of its `:`, and the end of its second operand.
fn first_conditional(trees: &[TokenTree]) -> Option<(usize, usize, usize)> {
    let mut i = 0;
    while i < trees.len() {
        if i > 0
            && let Some(colon) = conditional_colon(trees, i)
        {
            let end = (colon + 1..trees.len())
                .find(|&j| ends_expression(trees, j))
                .unwrap_or(trees.len());
            if end > colon + 1 && condition_start(trees, i) < i {
                return Some((i, colon, end));
            }
        }
        i += 1;
    }
    None
}

/// The `:` that closes the conditional whose `?` is at `question`: the
/// first lone `:` not taken by a conditional nested in the first operand,
/// before the end of the expression.
fn matching_colon(trees: &[TokenTree], question: usize) -> Option<usize> {
    let mut open = 1usize;
    for j in question + 1..trees.len() {
        if ends_expression(trees, j) {
            return None;
        }
        if is_punct(&trees[j], '?') && starts_operand(trees.get(j + 1)) {
            open += 1;
        } else if is_lone_colon(trees, j) {
            open -= 1;
            if open == 0 {
                return (j > question + 1).then_some(j);
            }
        }
    }
    None
}

/// Where the condition of the `?` at `question` starts (see the module).
fn condition_start(trees: &[TokenTree], question: usize) -> usize {
    // Forward from the level's first token: each boundary starts a new
    // expression, and a closure head where an expression starts is passed
    // whole (its parameters hold `:` and `,` of their own).
    let mut start = 0;
    let mut j = 0;
    while j < question {
        if j == start
            && let Some(end) = closure_head_end(trees, j)
            && end < question
        {
            start = end;
            j = end;
            continue;
        }
        if begins_after(trees, j) || is_lone_colon(trees, j) {
            start = j + 1;
        }
        j += 1;
    }
    start
}

/// The end of the closure head (`|x, y: T|`, `||`, either after `move`)
/// that starts at `j`, if one does.
fn closure_head_end(trees: &[TokenTree], mut j: usize) -> Option<usize> {
    if matches!(trees.get(j), Some(TokenTree::Ident(id)) if id == "move") {
        j += 1;
    }
    match trees.get(j) {
        // `||`: a closure without parameters.
        Some(TokenTree::Punct(p)) if p.as_char() == '|' && p.spacing() == Spacing::Joint => {
            Some(j + 2)
        }
        Some(TokenTree::Punct(p)) if p.as_char() == '|' => (j + 1..trees.len())
            .find(|&k| is_punct(&trees[k], '|'))
            .map(|k| k + 1),
        _ => None,
    }
}

/// Whether an expression that contains the token after `j` starts after
/// `j`: `j` is a separator, an assignment, a block or a keyword that starts
/// an expression.
fn begins_after(trees: &[TokenTree], j: usize) -> bool {
    match &trees[j] {
        TokenTree::Punct(p) => match p.as_char() {
            ';' | ',' => true,
            '>' => matches!(j.checked_sub(1).map(|k| &trees[k]),
                Some(TokenTree::Punct(q)) if q.as_char() == '=' && q.spacing() == Spacing::Joint),
            '=' => is_assignment(trees, j),
            _ => false,
        },
        TokenTree::Group(g) => g.delimiter() == Delimiter::Brace,
        TokenTree::Ident(id) => matches!(
            id.to_string().as_str(),
            "return" | "break" | "let" | "if" | "while" | "match" | "in" | "else"
        ),
        TokenTree::Literal(_) => false,
    }
}

/// Whether the `=` at `j` is an assignment (`=`, `+=`, `<<=`, ...), not part
/// of `==`, `!=`, `<=`, `>=` or `=>`.
fn is_assignment(trees: &[TokenTree], j: usize) -> bool {
    let TokenTree::Punct(eq) = &trees[j] else {
        return false;
    };
    if eq.spacing() == Spacing::Joint
        && matches!(trees.get(j + 1), Some(TokenTree::Punct(n)) if matches!(n.as_char(), '=' | '>'))
    {
        return false;
    }
    let joint_before = |k: usize| match k.checked_sub(1).map(|k| &trees[k]) {
        Some(TokenTree::Punct(p)) if p.spacing() == Spacing::Joint => Some(p.as_char()),
        _ => None,
    };
    match joint_before(j) {
        None => true,
        Some('+' | '-' | '*' | '/' | '%' | '^' | '&' | '|') => true,
        // `<<=` and `>>=` against `<=` and `>=`.
        Some(c @ ('<' | '>')) => joint_before(j - 1) == Some(c),
        Some(_) => false,
    }
}

/// Whether the token at `j` ends the expression a conditional is part of:
/// `;`, `,` or the `=>` of a match arm.
fn ends_expression(trees: &[TokenTree], j: usize) -> bool {
    match &trees[j] {
        TokenTree::Punct(p) => match p.as_char() {
            ';' | ',' => true,
            '=' => {
                p.spacing() == Spacing::Joint
                    && matches!(trees.get(j + 1), Some(TokenTree::Punct(n)) if n.as_char() == '>')
            }
            _ => false,
        },
        _ => false,
    }
}

/// Whether the token after a `?` starts an operand, which Rust's `?` is
/// never followed by.
fn starts_operand(next: Option<&TokenTree>) -> bool {
    match next {
        Some(TokenTree::Ident(id)) => !matches!(id.to_string().as_str(), "as" | "else"),
        Some(TokenTree::Literal(_)) => true,
        Some(TokenTree::Group(g)) => matches!(
            g.delimiter(),
            Delimiter::Parenthesis | Delimiter::Bracket | Delimiter::None
        ),
        Some(TokenTree::Punct(p)) => matches!(p.as_char(), '-' | '!' | '*' | '&' | '|'),
        None => false,
    }
}

/// A `:` that is not half of `::`.
fn is_lone_colon(trees: &[TokenTree], j: usize) -> bool {
    let TokenTree::Punct(p) = &trees[j] else {
        return false;
    };
    let after_colon = matches!(j.checked_sub(1).map(|k| &trees[k]),
        Some(TokenTree::Punct(q)) if q.as_char() == ':' && q.spacing() == Spacing::Joint);
    p.as_char() == ':' && p.spacing() == Spacing::Alone && !after_colon
}

fn is_punct(tree: &TokenTree, c: char) -> bool {
    matches!(tree, TokenTree::Punct(p) if p.as_char() == c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::assert_rewrites;
    use crate::parse::show;

    /// `src` rewritten, with the marks spelled `«` and `»`.
    fn rewritten(src: &str) -> String {
        let tokens: TokenStream = src.parse().unwrap();
        show(rewrite(tokens))
    }

    fn assert_unchanged(src: &str) {
        let tokens: TokenStream = src.parse().unwrap();
        assert_eq!(rewritten(src), show(tokens), "{src}");
    }

    #[test]
    fn a_conditional_becomes_a_marked_if() {
        assert_rewrites(
            rewritten,
            &[
                ("c ? a : b", "if ««c»» {a} else {b}"),
                (
                    "let y = x > 0.0 ? x : 0.1 * x;",
                    "let y = if ««x > 0.0»» {x} else {0.1 * x} ;",
                ),
                (
                    "return n == 0 ? a * b : -a;",
                    "return if ««n == 0»» {a * b} else {- a} ;",
                ),
            ],
        );
    }

    #[test]
    fn the_extents_are_cs() {
        // Assignment binds more loosely, every binary operator more tightly.
        assert_rewrites(
            rewritten,
            &[
                ("r += a && b ? 1 : 2;", "r += if ««a && b»» {1} else {2} ;"),
                ("f(c ? a : b, d)", "f (if ««c»» {a} else {b} , d)"),
                ("(c ? a : b) * 2", "(if ««c»» {a} else {b}) * 2"),
                ("x => c ? a : b,", "x => if ««c»» {a} else {b} ,"),
                // A closure's body, with and without parameters.
                (
                    "map(m, |x| x > 0 ? x : 0)",
                    "map (m , | x | if ««x > 0»» {x} else {0})",
                ),
                ("move || c ? a : b", "move || if ««c»» {a} else {b}"),
                (
                    "|x: f32, y| x > y ? x : y",
                    "| x : f32 , y | if ««x > y»» {x} else {y}",
                ),
                // A struct literal's field, and paths, whose `::` is no field's `:`.
                (
                    "S { f: c ? a : b, g: |x: T| x ? 1 : 2 }",
                    "S {f : if ««c»» {a} else {b} , g : | x : T | if ««x»» {1} else {2}}",
                ),
                (
                    "m::N > 0 ? f::g(1) : 0",
                    "if ««m :: N > 0»» {f :: g (1)} else {0}",
                ),
                (
                    "let y = a || b ? 1 : 2;",
                    "let y = if ««a || b»» {1} else {2} ;",
                ),
                // Comparisons are not assignments.
                ("y = a <= b ? a : b;", "y = if ««a <= b»» {a} else {b} ;"),
                (
                    "y <<= a != b ? 1 : 2;",
                    "y <<= if ««a != b»» {1} else {2} ;",
                ),
            ],
        );
    }

    #[test]
    fn conditionals_group_from_the_right_and_nest() {
        assert_rewrites(
            rewritten,
            &[
                (
                    "a ? b : c ? d : e",
                    "if ««a»» {b} else {if ««c»» {d} else {e}}",
                ),
                (
                    "a ? b ? c : d : e",
                    "if ««a»» {if ««b»» {c} else {d}} else {e}",
                ),
                (
                    "{ let v = [p ? 1 : 2, q ? 3 : 4]; }",
                    "{let v = [if ««p»» {1} else {2} , if ««q»» {3} else {4}] ;}",
                ),
            ],
        );
    }

    #[test]
    fn rusts_question_mark_is_left_alone() {
        for src in [
            "let x = r?;",
            "f()?.x",
            "r?.0",
            "x? as f32",
            "S { a: x?, b: y }",
            "let y: f32 = g(x?)?;",
            "a::b(c?)",
            "x? - 1",
            "let t: T = x? * 2;",
        ] {
            assert_unchanged(src);
        }
    }
}
