//! C's statements in kernel bodies, which Rust spells otherwise:
//!
//! | C | becomes |
//! |---|---|
//! | `float x = e;`, `m4x4_t r;`, `int i = 0, j;` | `let mut x: f32 = e;`, `let mut r: m4x4_t = <zero>;`, one `let` per name |
//! | `const double k = 2;` | `let k: f64 = 2;` |
//! | `float w[4] = {1, 2};`, `int g[][2] = {{1, 2}, {3}};` | `let mut w: [f32; 4] = <zero>; w[0] = 1; w[1] = 2;` |
//! | `const float *p = src + 4;`, `float *q;` | `let mut p: &[f32] = src + 4;`, `let mut q: &mut [f32];` |
//! | `point p = {1, .y = 2};` (a struct of the block) | `let mut p: point = <zero>; p.x = 1; p.y = 2;` |
//! | `(point){a, b}` | `{ let mut v: point = <zero>; v.x = a; v.y = b; v }` |
//! | `for (init; cond; step) body` | `{ init; while cond { { body } step; } }` |
//! | `i++;`, `++i;`, `n--;`, `--n;` | `i += 1;`, `n -= 1;` |
//! | `*p++ = e;`, `*p++ += e;` | `*p = e; p += 1;`, `*p += e; p += 1;` |
//! | `if (c) s; else t;`, `while (c) s;` | the statements in braces |
//! | `do body while (c);` | `loop { body if !(c) { break; } }` |
//! | `switch (x) { case 1: a; case 2: b; break; default: c; }` | `'sw: { let case = ..; if case == 0 { a } if case <= 1 { b; break 'sw; } { c } }` |
//!
//! A declaration is a statement that starts with a type (a typedef of the
//! block, a C scalar spelling such as `unsigned int`, or a Rust scalar)
//! followed by a name; C leaves an uninitialised variable indeterminate,
//! here it is zero (every element), one value C allows. Every variable is
//! `mut` (with `unused_mut` allowed) except a `const` one, since C's are
//! assignable. In a `for` loop without a condition the condition is `true`;
//! a `continue` of the loop's own body (not of a loop nested in it) still
//! runs the step: the body is then a labelled block that `continue` leaves.
//! A `switch` numbers its sections in order, chooses the first to run by
//! comparing the value with each `case` (the `default`'s number, or none,
//! when no `case` matches), and runs every section from that one on, as
//! C falls through; its `break`s leave the labelled block, a `continue`
//! of the loop around is taken after it.
//! `i++` and its kin are `i += 1` as whole statements and in a `for` step,
//! where C discards their value; inside an expression `x++`, `x--`, `++x`
//! and `--x` are blocks that give C's value.
//! Rust's own statements are left as written: `for x in 0..n`, `let`,
//! `x += 1`.
//!
//! This runs last of the body's rewrites (after `ccast` and `cternary`),
//! so that casts, compound literals and conditionals are single tokens or
//! Rust already.

use super::{Member, Structs, ccast, ctype, group, punct, regroup};
use crate::diag;
use proc_macro2::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};
use std::collections::HashSet;

/// Rewrites C's statements in `tokens` (see the module); `names` are the
/// block's typedef names.
pub(crate) fn rewrite(
    tokens: TokenStream,
    names: &HashSet<String>,
    structs: &Structs,
) -> TokenStream {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let mut cx = Rewriter {
        names,
        structs,
        labels: 0,
    };
    cx.trees(&trees).into_iter().collect()
}

struct Rewriter<'a> {
    names: &'a HashSet<String>,
    /// The block's structs, whose initialisers set their members.
    structs: &'a Structs,
    /// Labels made so far (each `for` whose body continues has its own).
    labels: usize,
}

/// The rewrite of one C statement form: its Rust tokens, or `None` when
/// the statement is not of that form.
type Form<'n> = fn(&mut Rewriter<'n>, &[TokenTree]) -> Option<Vec<TokenTree>>;

impl Rewriter<'_> {
    /// `trees` with every group's contents rewritten, a brace group's as
    /// statements.
    fn trees(&mut self, trees: &[TokenTree]) -> Vec<TokenTree> {
        let mut out = Vec::with_capacity(trees.len());
        let mut i = 0;
        while i < trees.len() {
            if let Some((value, taken)) = step_in_expression(trees, i) {
                out.push(value);
                i += taken;
                continue;
            }
            out.push(self.tree(&trees[i]));
            i += 1;
        }
        out
    }

    fn tree(&mut self, tree: &TokenTree) -> TokenTree {
        let TokenTree::Group(g) = tree else {
            return tree.clone();
        };
        if let Some(value) = self.struct_literal(g) {
            return value;
        }
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        let inner = if g.delimiter() == Delimiter::Brace {
            self.statements(&inner)
        } else {
            self.trees(&inner)
        };
        group(g.delimiter(), inner, g.span())
    }

    /// A block's contents, statement by statement.
    fn statements(&mut self, trees: &[TokenTree]) -> Vec<TokenTree> {
        let mut out = Vec::new();
        let mut s = 0;
        while s < trees.len() {
            let end = statement_end(trees, s).max(s + 1);
            out.extend(self.statement(&trees[s..end]));
            s = end;
        }
        out
    }

    /// One statement (its `;` included).
    fn statement(&mut self, t: &[TokenTree]) -> Vec<TokenTree> {
        if let Some(word) = local_c_aggregate(t) {
            return compile_error(word.span(), &diag::c_aggregate(&word.to_string()));
        }
        // Each C form's rewrite, tried in this order; the first that
        // recognises the statement writes it.
        let forms: [Form<'_>; 8] = [
            Self::c_for,
            Self::switch,
            Self::do_while,
            Self::braceless,
            Self::declaration,
            Self::store_and_step,
            Self::comma_statements,
            Self::increment,
        ];
        for form in forms {
            if let Some(out) = form(self, t) {
                return out;
            }
        }
        self.trees(t)
    }

    /// A statement as the body of a block: its tokens rewritten, in braces.
    fn block_of(&mut self, t: &[TokenTree], span: Span) -> TokenTree {
        match t {
            [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace => self.tree(&t[0]),
            _ => group(Delimiter::Brace, self.statements(t), span),
        }
    }

    /// `for (init; cond; step) body` (see the module).
    fn c_for(&mut self, t: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let (TokenTree::Ident(kw), Some(TokenTree::Group(head))) = (t.first()?, t.get(1)) else {
            return None;
        };
        let parts = c_for_head(kw, head)?;
        let span = kw.span();
        let body = &t[2..];
        let mut out = Vec::new();
        // `init;`: a declaration, or expressions separated by commas
        // (`i = 0, j = n - 1`), each a statement.
        if !parts[0].is_empty() {
            let mut init = parts[0].clone();
            init.push(punct(';', span));
            match self.declaration(&init) {
                Some(declared) => out.extend(declared),
                None => out.extend(self.each_statement(&parts[0], span)),
            }
        }
        let cond = if parts[1].is_empty() {
            vec![TokenTree::Ident(Ident::new("true", span))]
        } else {
            self.trees(&parts[1])
        };
        let step = self.each_statement(&parts[2], span);
        let body = self.block_of(body, span);
        let (label, mut inner) = self.loop_body(body, span);
        out.extend(label);
        inner.extend(step);
        out.push(TokenTree::Ident(Ident::new("while", span)));
        out.push(group(Delimiter::None, cond, span));
        out.push(group(Delimiter::Brace, inner, span));
        Some(vec![group(Delimiter::Brace, out, span)])
    }

    /// C's comma-separated expressions of a `for` head's init or step
    /// (`i++, j--`), each as a statement, in order.
    fn each_statement(&mut self, t: &[TokenTree], span: Span) -> Vec<TokenTree> {
        let mut out = Vec::new();
        for expr in split_top_level(t, ',') {
            if expr.is_empty() {
                continue;
            }
            let mut e = expr.to_vec();
            e.push(punct(';', span));
            out.extend(self.statement(&e));
        }
        out
    }

    /// `do body while (cond);`: a `loop` that leaves after the body when
    /// `cond` is false; a `continue` of the body still tests `cond`.
    fn do_while(&mut self, t: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let TokenTree::Ident(kw) = t.first()? else {
            return None;
        };
        if kw != "do" {
            return None;
        }
        let body_end = statement_end(t, 1);
        let [
            TokenTree::Ident(w),
            TokenTree::Group(cond),
            TokenTree::Punct(semi),
        ] = &t[body_end..]
        else {
            return None;
        };
        if w != "while" || cond.delimiter() != Delimiter::Parenthesis || semi.as_char() != ';' {
            return None;
        }
        let span = kw.span();
        let body = self.block_of(&t[1..body_end], span);
        let (mut out, mut inner) = self.loop_body(body, span);
        // `if !(cond) { break; }`
        inner.push(TokenTree::Ident(Ident::new("if", w.span())));
        inner.push(punct('!', w.span()));
        inner.push(self.tree(&t[body_end + 1]));
        let stop = vec![
            TokenTree::Ident(Ident::new("break", w.span())),
            punct(';', w.span()),
        ];
        inner.push(group(Delimiter::Brace, stop, w.span()));
        out.push(TokenTree::Ident(Ident::new("loop", span)));
        out.push(group(Delimiter::Brace, inner, span));
        Some(out)
    }

    /// `switch (e) { case A: .. default: .. }` (see the module): the
    /// sections in order, each run when the value chose it or one before
    /// it (C's fall through), in a labelled block that `break` leaves:
    ///
    /// ```text
    /// 'switch: {
    ///     let case: usize = { let on = e; if on == A { 0 } else .. { D } };
    ///     if case == 0 { section 0 }
    ///     if case <= 1 { section 1 } ..
    /// }
    /// ```
    ///
    /// `D` is the `default` section's number, or the number of sections
    /// (none runs). A body that does not start with a label, or a `case`
    /// without its value or `:`, becomes a `compile_error!` on the tokens.
    fn switch(&mut self, t: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let [
            TokenTree::Ident(kw),
            TokenTree::Group(on),
            TokenTree::Group(body),
        ] = t
        else {
            return None;
        };
        if kw != "switch" || on.delimiter() != Delimiter::Parenthesis || !is_brace(&t[2]) {
            return None;
        }
        let span = kw.span();
        let trees: Vec<TokenTree> = body.stream().into_iter().collect();
        let on: TokenStream = self
            .trees(&on.stream().into_iter().collect::<Vec<_>>())
            .into_iter()
            .collect();
        if trees.is_empty() {
            // No section: the value is evaluated, as C's is.
            return Some(
                quote::quote_spanned!(span=> { let _ = #on; })
                    .into_iter()
                    .collect(),
            );
        }
        let sections = match switch_sections(&trees) {
            Ok(sections) => sections,
            Err((at, message)) => return Some(compile_error(at, message)),
        };
        let exit = self.label("switch", span);
        self.labels += 1;
        let hygienic = |name: &str| Ident::new(name, Span::mixed_site().located_at(span));
        let (case, value) = (hygienic("__matrix_case"), hygienic("__matrix_on"));
        let default = sections.iter().position(|s| s.value.is_none());
        let unmatched = Literal::usize_suffixed(default.unwrap_or(sections.len()));
        let mut choice = quote::quote_spanned!(span=> { #unmatched });
        for (k, section) in sections.iter().enumerate().rev() {
            let Some(label) = &section.value else {
                continue;
            };
            let label: TokenStream = self.trees(label).into_iter().collect();
            let k = Literal::usize_suffixed(k);
            choice = quote::quote_spanned!(span=> if #value == (#label) { #k } else #choice);
        }
        // A `continue` of the loop around: Rust has no unlabelled one in a
        // labelled block, so it is noted, the block left, and taken after.
        let again = hygienic("__matrix_continue");
        let exit_tokens: TokenStream = exit.iter().cloned().collect();
        let on_continue = quote::quote_spanned!(span=> { #again = true; break #exit_tokens; });
        let mut jumps = Jumps::new(on_continue.into_iter().collect(), breaking_to(&exit, span));
        let mut inner: Vec<TokenTree> = quote::quote_spanned!(span=>
            let #case: usize = { let #value = #on; #choice };
        )
        .into_iter()
        .collect();
        let last = sections.len() - 1;
        for (k, section) in sections.iter().enumerate() {
            let body: TokenStream = jumps
                .replace(&self.statements(section.body))
                .into_iter()
                .collect();
            // With a `default` every value reaches the last section (as a
            // block, so that a `return` there ends the function's paths);
            // `== 0` for the first (`<= 0` of a `usize` draws a lint).
            let runs = match Literal::usize_suffixed(k) {
                _ if k == last && default.is_some() => {
                    inner.push(group(Delimiter::Brace, body.into_iter().collect(), span));
                    continue;
                }
                first if k == 0 => quote::quote_spanned!(span=> #case == #first),
                later => quote::quote_spanned!(span=> #case <= #later),
            };
            inner.extend(quote::quote_spanned!(span=> if #runs { #body }));
        }
        let mut block = Vec::new();
        if jumps.broke || jumps.continued {
            block.extend(exit);
            block.push(punct(':', span));
        }
        block.push(group(Delimiter::Brace, inner, span));
        if !jumps.continued {
            return Some(block);
        }
        let block: TokenStream = block.into_iter().collect();
        let out = quote::quote_spanned!(span=> {
            let mut #again = false;
            #block
            if #again { continue; }
        });
        Some(out.into_iter().collect())
    }

    /// `body` as a loop's: with a `continue` of its own, a block labelled
    /// `'__matrix_nextN` that the `continue` leaves, and the loop labelled
    /// too (Rust refuses a `break` without a label inside a labelled
    /// block). The loop's label with its `:` (none without a `continue`),
    /// and the tokens the loop's block starts with.
    fn loop_body(&mut self, body: TokenTree, span: Span) -> (Vec<TokenTree>, Vec<TokenTree>) {
        let (next, exit) = (self.label("next", span), self.label("loop", span));
        let Some(body) = continues_to(&body, &next, &exit) else {
            return (Vec::new(), vec![body]);
        };
        self.labels += 1;
        let (mut label, mut inner) = (exit, next);
        label.push(punct(':', span));
        inner.push(punct(':', span));
        inner.push(body);
        (label, inner)
    }

    /// A label of the next `for` whose body continues (`'__matrix_next0`).
    fn label(&self, what: &str, span: Span) -> Vec<TokenTree> {
        let mut quote = Punct::new('\'', Spacing::Joint);
        quote.set_span(span);
        let name = Ident::new(
            &format!("__matrix_{what}{}", self.labels),
            Span::mixed_site().located_at(span),
        );
        vec![TokenTree::Punct(quote), TokenTree::Ident(name)]
    }

    /// An `if` statement (its `else` chain included) and C's `while (c)
    /// s;`: each branch that is a statement rather than a block braced
    /// (`if (c) s; else t;`, `if c { .. } else t;`), each rewritten.
    fn braceless(&mut self, t: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let TokenTree::Ident(kw) = t.first()? else {
            return None;
        };
        if kw != "if" && kw != "while" {
            return None;
        }
        let span = kw.span();
        let (head_end, body_end) = if braceless_body(t, 0) {
            (2, statement_end(t, 2))
        } else if kw == "if" {
            let brace = (1..t.len()).find(|&j| is_brace(&t[j]))?;
            (brace, brace + 1)
        } else {
            return None;
        };
        let mut out = vec![t[0].clone()];
        out.extend(self.trees(&t[1..head_end]));
        out.push(self.block_of(&t[head_end..body_end], span));
        if kw == "if"
            && let Some(TokenTree::Ident(e)) = t.get(body_end)
            && e == "else"
        {
            out.push(t[body_end].clone());
            let rest = &t[body_end + 1..];
            match rest.first() {
                // `else if ...`: the next `if` of the chain.
                Some(TokenTree::Ident(i)) if i == "if" => out.extend(self.statement(rest)),
                _ => out.push(self.block_of(rest, e.span())),
            }
        } else {
            out.extend(self.trees(&t[body_end..]));
        }
        Some(out)
    }

    /// `[static] [const] TYPE name [= init] (, name [= init])* ;` (see
    /// the module).
    fn declaration(&mut self, t: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let word = |i: usize, w: &str| matches!(t.get(i), Some(TokenTree::Ident(id)) if id == w);
        // `static const float w[] = {..};`: a constant table, which a
        // local holds as well; a `static` C may change keeps its value
        // from call to call, which a kernel has nowhere to keep.
        let stored = word(0, "static");
        let constant = word(usize::from(stored), "const");
        let start = usize::from(stored) + usize::from(constant);
        let (ty, after) = self.type_at(t, start)?;
        let mut out = Vec::new();
        if stored && !constant {
            // The error, and the variable declared as a local, so that
            // its uses report nothing more.
            out.extend(compile_error(t[0].span(), diag::STATIC_STATE));
        }
        let [rest @ .., TokenTree::Punct(semi)] = &t[after..] else {
            return None;
        };
        if semi.as_char() != ';' {
            return None;
        }
        let declarators: Vec<Declarator> = split_top_level(rest, ',')
            .into_iter()
            .map(declarator)
            .collect::<Option<_>>()?;
        for d in declarators {
            let span = d.name.span();
            if d.pointer {
                out.extend(self.pointer_declaration(&d, &ty, constant, semi));
                continue;
            }
            if let (true, Some(name), Some([TokenTree::Group(init)])) =
                (d.dims.is_empty(), self.struct_named(&ty), d.init)
                && init.delimiter() == Delimiter::Brace
            {
                // `T s = {..};` of a struct: zero, then each member set.
                out.extend(let_head(d.name, true, ty.clone()));
                out.push(punct('=', span));
                out.extend(zero(span));
                out.push(punct(';', semi.span()));
                out.extend(self.struct_init(&[TokenTree::Ident(d.name.clone())], &name, init));
                continue;
            }
            let (ty, value, elements) = if d.dims.is_empty() {
                let value = match d.init {
                    // `vec3 v = {0, 1};`: the compound literal's lanes.
                    Some([TokenTree::Group(g)]) if g.delimiter() == Delimiter::Brace => {
                        self.trees(&braced_value(self.names, &ty, g))
                    }
                    Some(init) => self.trees(init),
                    None => zero(span),
                };
                (ty.clone(), value, Vec::new())
            } else {
                let elements = match d.init {
                    Some(init) => array_elements(init, &d.dims)?,
                    None => Vec::new(),
                };
                let dims = array_dims(&d.dims, &elements)?;
                let (ty, value) = array_type_and_zero(&ty, &dims, span);
                (ty, value, elements)
            };
            // An array is assigned element by element after its `let`:
            // mutable even where C's is `const`.
            let mutable = !constant || !elements.is_empty();
            let elem = ty_elem(&ty);
            out.extend(let_head(d.name, mutable, ty));
            out.push(punct('=', span));
            out.extend(value);
            out.push(punct(';', semi.span()));
            for (path, value) in elements {
                let place = indexed(&[TokenTree::Ident(d.name.clone())], &path, span);
                out.extend(self.element_init(&place, &elem, &value));
            }
        }
        Some(out)
    }

    /// The struct a type's tokens name, if they name one of the block's.
    fn struct_named(&self, ty: &[TokenTree]) -> Option<String> {
        match ty {
            [TokenTree::Ident(id)] => Some(id.to_string()).filter(|n| self.structs.contains_key(n)),
            _ => None,
        }
    }

    /// `place = value;`, or the members of a struct `place` set from a
    /// braced `value`, for an element of type `elem`.
    fn element_init(
        &mut self,
        place: &[TokenTree],
        elem: &[TokenTree],
        value: &[TokenTree],
    ) -> Vec<TokenTree> {
        match (self.struct_named(elem), value) {
            (Some(name), [TokenTree::Group(g)]) if g.delimiter() == Delimiter::Brace => {
                self.struct_init(place, &name, g)
            }
            (None, [TokenTree::Group(g)]) if g.delimiter() == Delimiter::Brace => {
                let value = braced_value(self.names, elem, g);
                self.assign(place, &value)
            }
            _ => self.assign(place, value),
        }
    }

    /// `place = value;`, `value` rewritten.
    fn assign(&mut self, place: &[TokenTree], value: &[TokenTree]) -> Vec<TokenTree> {
        let span = value.first().map_or_else(Span::call_site, TokenTree::span);
        let mut out = place.to_vec();
        out.push(punct('=', span));
        out.extend(self.trees(value));
        out.push(punct(';', span));
        out
    }

    /// The statements that set the members of `place`, a struct `name`,
    /// from its initialiser `init`: `{a, b}` in member order, `{.y = b}`
    /// by name (the next item after it takes the member after that one),
    /// a braced item setting a struct or array member in turn. Members
    /// not named stay zero, as in C.
    fn struct_init(&mut self, place: &[TokenTree], name: &str, init: &Group) -> Vec<TokenTree> {
        let members = self.structs.get(name).cloned().unwrap_or_default();
        let mut out = Vec::new();
        let mut next = 0;
        for item in brace_items(init) {
            let (k, value) = match item.as_slice() {
                [
                    TokenTree::Punct(dot),
                    TokenTree::Ident(field),
                    TokenTree::Punct(eq),
                    value @ ..,
                ] if dot.as_char() == '.' && eq.as_char() == '=' && !value.is_empty() => {
                    match members.iter().position(|m| m.name == *field) {
                        Some(k) => (k, value.to_vec()),
                        None => {
                            let message = diag::no_such_field_designator(&field.to_string(), name);
                            out.extend(compile_error(field.span(), &message));
                            return out;
                        }
                    }
                }
                value if next < members.len() => (next, value.to_vec()),
                value => {
                    out.extend(compile_error(value[0].span(), diag::EXCESS_STRUCT_ELEMENTS));
                    return out;
                }
            };
            next = k + 1;
            out.extend(self.member_init(place, &members[k], &value));
        }
        out
    }

    /// The statements that set member `m` of `place` from `value`.
    fn member_init(
        &mut self,
        place: &[TokenTree],
        m: &Member,
        value: &[TokenTree],
    ) -> Vec<TokenTree> {
        let span = m.name.span();
        let mut target = place.to_vec();
        target.push(punct('.', span));
        target.push(TokenTree::Ident(m.name.clone()));
        let [TokenTree::Group(g)] = value else {
            return self.assign(&target, value);
        };
        if g.delimiter() != Delimiter::Brace {
            return self.assign(&target, value);
        }
        if !m.dims.is_empty() {
            let Some(elements) = array_elements(value, &m.dims) else {
                return compile_error(g.span(), diag::EXPECTED_INITIALIZER);
            };
            let mut out = Vec::new();
            for (path, v) in elements {
                out.extend(self.element_init(&indexed(&target, &path, span), &m.elem, &v));
            }
            return out;
        }
        if let Some(name) = self.struct_named(&m.elem) {
            return self.struct_init(&target, &name, g);
        }
        let value = braced_value(self.names, &m.elem, g);
        self.assign(&target, &value)
    }

    /// `(T){..}` of a struct `T` (`__matrix_literal!(T; ..)` after
    /// `ccast`): a block that zeroes a `T`, sets its members as a
    /// declaration's initialiser does, and gives it.
    fn struct_literal(&mut self, g: &Group) -> Option<TokenTree> {
        if g.delimiter() != Delimiter::None {
            return None;
        }
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        let [
            TokenTree::Ident(mark),
            TokenTree::Punct(bang),
            TokenTree::Group(args),
        ] = inner.as_slice()
        else {
            return None;
        };
        if mark != ccast::COMPOUND_LITERAL || bang.as_char() != '!' {
            return None;
        }
        let args: Vec<TokenTree> = args.stream().into_iter().collect();
        let [
            TokenTree::Ident(name),
            TokenTree::Punct(semi),
            elements @ ..,
        ] = args.as_slice()
        else {
            return None;
        };
        let name_string = name.to_string();
        if semi.as_char() != ';' || !self.structs.contains_key(&name_string) {
            return None;
        }
        let span = g.span();
        let value = Ident::new("__matrix_value", Span::mixed_site().located_at(span));
        let init = group(Delimiter::Brace, elements.to_vec(), span);
        let TokenTree::Group(init) = init else {
            return None;
        };
        let mut block = let_head(&value, true, vec![TokenTree::Ident(name.clone())]);
        block.push(punct('=', span));
        block.extend(zero(span));
        block.push(punct(';', span));
        block.extend(self.struct_init(&[TokenTree::Ident(value.clone())], &name_string, &init));
        block.push(TokenTree::Ident(value));
        Some(group(Delimiter::Brace, block, span))
    }

    /// `[const] T *p [= init];`: `let mut p: &[T] [= init];` (`&mut [T]`
    /// where the pointee is not `const`); the pointer may be moved on
    /// (`p = p + 4;`), as in C.
    fn pointer_declaration(
        &mut self,
        d: &Declarator,
        elem: &[TokenTree],
        constant: bool,
        semi: &Punct,
    ) -> Vec<TokenTree> {
        let span = d.name.span();
        let mut slice = vec![punct('&', span)];
        if !constant {
            slice.push(TokenTree::Ident(Ident::new("mut", span)));
        }
        slice.push(group(Delimiter::Bracket, elem.to_vec(), span));
        let mut out = let_head(d.name, true, slice);
        if let Some(init) = d.init {
            out.push(punct('=', span));
            out.extend(self.trees(init));
        }
        out.push(punct(';', semi.span()));
        out
    }

    /// The type a declaration starts with at `i`, as Rust tokens, and the
    /// index after it; `None` unless a name follows it.
    fn type_at(&self, t: &[TokenTree], i: usize) -> Option<(Vec<TokenTree>, usize)> {
        let (ty, end) = ctype::type_at(t, i, self.names)?;
        // A name (or `*name`), then `=`, `,`, `;` or an array's `[N]`.
        let name = match t.get(end) {
            Some(TokenTree::Punct(p)) if p.as_char() == '*' => end + 1,
            _ => end,
        };
        let Some(TokenTree::Ident(_)) = t.get(name) else {
            return None;
        };
        let follows = match t.get(name + 1)? {
            TokenTree::Punct(p) => match p.as_char() {
                // Not `==` or `=>` (`int a=-1;` has a joint `=` too).
                '=' => !matches!(t.get(name + 2), Some(TokenTree::Punct(n))
                    if p.spacing() == Spacing::Joint && matches!(n.as_char(), '=' | '>')),
                ',' | ';' => true,
                _ => false,
            },
            TokenTree::Group(g) => g.delimiter() == Delimiter::Bracket,
            _ => false,
        };
        follows.then_some((ty, end))
    }

    /// `*p++ = e;` (or `+=` and the other compound assignments, or
    /// `p--`): `*p = e; p += 1;`, the store through the pointer, then the
    /// pointer moved on, as C's statement does. (Inside an expression,
    /// `x = *p++` reads through a copy of `p`, which a `&mut` slice is
    /// not: this statement is the form a store takes.)
    fn store_and_step(&mut self, t: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let [
            TokenTree::Punct(star),
            TokenTree::Ident(p),
            TokenTree::Punct(a),
            TokenTree::Punct(b),
            rest @ ..,
            TokenTree::Punct(semi),
        ] = t
        else {
            return None;
        };
        if star.as_char() != '*'
            || !doubled(a, b)
            || is_keyword(p)
            || assignment_at(rest, 0).is_none()
            || semi.as_char() != ';'
        {
            return None;
        }
        let mut out = vec![TokenTree::Punct(star.clone()), TokenTree::Ident(p.clone())];
        out.extend(self.trees(rest));
        out.push(TokenTree::Punct(semi.clone()));
        out.extend(self.increment(&[
            TokenTree::Ident(p.clone()),
            t[2].clone(),
            t[3].clone(),
            t[t.len() - 1].clone(),
        ])?);
        Some(out)
    }

    /// C's comma operator as a statement, `i++, j--;` or `a = 0, b = 1;`:
    /// each part a statement, in order. Only where every part is a step
    /// or an assignment to a name or an element (Rust's statements have
    /// top-level commas in other places: `f::<A, B>()`, `|a, b| ..`).
    fn comma_statements(&mut self, t: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let [body @ .., TokenTree::Punct(semi)] = t else {
            return None;
        };
        let parts = split_top_level(body, ',');
        if semi.as_char() != ';' || parts.len() < 2 || !parts.iter().all(|p| steps_or_assigns(p)) {
            return None;
        }
        Some(self.each_statement(body, semi.span()))
    }

    /// `x++;`, `++x;`, `x--;`, `--x;` (the `;` optional, as in a `for`
    /// step): `x += 1;`, `x -= 1;`.
    fn increment(&mut self, t: &[TokenTree]) -> Option<Vec<TokenTree>> {
        let (body, semi) = match t {
            [body @ .., TokenTree::Punct(p)] if p.as_char() == ';' => (body, Some(&t[t.len() - 1])),
            _ => (t, None),
        };
        let (op, place) = match body {
            [TokenTree::Punct(a), TokenTree::Punct(b), place @ ..]
                if doubled(a, b) && !place.is_empty() =>
            {
                (a, place)
            }
            [place @ .., TokenTree::Punct(a), TokenTree::Punct(b)]
                if doubled(a, b) && !place.is_empty() =>
            {
                (a, place)
            }
            _ => return None,
        };
        // C's value of `x++` is discarded only in a statement of its own.
        let starts_statement = !matches!(&place[0], TokenTree::Ident(k) if matches!(k.to_string().as_str(), "return" | "let" | "break"));
        let assigns = place
            .iter()
            .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '='));
        if !starts_statement || assigns {
            return None;
        }
        let span = op.span();
        let mut out = self.trees(place);
        let mut assign = Punct::new(op.as_char(), Spacing::Joint);
        assign.set_span(span);
        out.push(TokenTree::Punct(assign));
        out.push(punct('=', span));
        let mut one = Literal::u8_unsuffixed(1);
        one.set_span(span);
        out.push(TokenTree::Literal(one));
        out.extend(semi.cloned());
        Some(out)
    }
}

/// `#[allow(unused_mut, unused_assignments)] let mut name: ty` (`let
/// name: ty` where not `mutable`): a declaration's start, before any `=
/// value`. C's `int i, j;` and a loop that sets them assign the zero this
/// gives before reading it: no warning for it, as C has none.
fn let_head(name: &Ident, mutable: bool, ty: Vec<TokenTree>) -> Vec<TokenTree> {
    let span = name.span();
    let mut out = Vec::new();
    if mutable {
        out.extend(
            "#[allow(unused_mut, unused_assignments)]"
                .parse::<TokenStream>()
                .expect("an attribute"),
        );
    }
    out.push(TokenTree::Ident(Ident::new("let", span)));
    if mutable {
        out.push(TokenTree::Ident(Ident::new("mut", span)));
    }
    out.push(TokenTree::Ident(name.clone()));
    out.push(punct(':', span));
    out.extend(ty);
    out
}

/// One declarator of a declaration: `name`, `name[N][M]`, with `= init`.
pub(super) struct Declarator<'a> {
    pub(super) name: &'a Ident,
    /// `*name`: a pointer, a slice here.
    pub(super) pointer: bool,
    /// Each `[N]`'s contents, outermost first (`[]` is empty).
    pub(super) dims: Vec<Vec<TokenTree>>,
    pub(super) init: Option<&'a [TokenTree]>,
}

pub(super) fn declarator(d: &[TokenTree]) -> Option<Declarator<'_>> {
    let pointer = matches!(d.first(), Some(TokenTree::Punct(p)) if p.as_char() == '*');
    let TokenTree::Ident(name) = d.get(usize::from(pointer))? else {
        return None;
    };
    if is_keyword(name) {
        return None;
    }
    let mut i = 1 + usize::from(pointer);
    let mut dims = Vec::new();
    while let Some(TokenTree::Group(g)) = d.get(i) {
        if g.delimiter() != Delimiter::Bracket {
            return None;
        }
        dims.push(g.stream().into_iter().collect());
        i += 1;
    }
    let init = match &d[i..] {
        [] => None,
        [TokenTree::Punct(eq), init @ ..] if eq.as_char() == '=' && !init.is_empty() => Some(init),
        _ => return None,
    };
    if pointer && !dims.is_empty() {
        return None;
    }
    Some(Declarator {
        name,
        pointer,
        dims,
        init,
    })
}

/// The elements an array's initialiser `{..}` sets, each with its
/// indices: nested braces for each dimension (`{{1, 2}, {3, 4}}`), or a
/// flat list in row-major order where every dimension after the first is
/// a number (`{1, 2, 3, 4}`, C's braces elided). Elements not named stay
/// zero, as in C.
pub(super) fn array_elements(init: &[TokenTree], dims: &[Vec<TokenTree>]) -> Option<Vec<Element>> {
    let [TokenTree::Group(g)] = init else {
        return None;
    };
    if g.delimiter() != Delimiter::Brace {
        return None;
    }
    let mut out = Vec::new();
    fill(brace_items(g), dims, &mut Vec::new(), &mut out)?;
    Some(out)
}

/// An element an initialiser sets: its indices and its value.
pub(super) type Element = (Vec<usize>, Vec<TokenTree>);

/// A brace group's items, split at its commas (a trailing one allowed).
fn brace_items(g: &Group) -> Vec<Vec<TokenTree>> {
    let trees: Vec<TokenTree> = g.stream().into_iter().collect();
    let mut items: Vec<Vec<TokenTree>> = split_top_level(&trees, ',')
        .into_iter()
        .map(<[TokenTree]>::to_vec)
        .collect();
    if items.last().is_some_and(Vec::is_empty) {
        items.pop();
    }
    items
}

fn fill(
    items: Vec<Vec<TokenTree>>,
    dims: &[Vec<TokenTree>],
    path: &mut Vec<usize>,
    out: &mut Vec<Element>,
) -> Option<()> {
    let braced = |item: &[TokenTree]| matches!(item, [TokenTree::Group(g)] if g.delimiter() == Delimiter::Brace);
    if dims.len() > 1 && !items.is_empty() && items.iter().all(|i| braced(i)) {
        for (k, item) in items.into_iter().enumerate() {
            let [TokenTree::Group(g)] = item.as_slice() else {
                return None;
            };
            path.push(k);
            fill(brace_items(g), &dims[1..], path, out)?;
            path.pop();
        }
        return Some(());
    }
    // At the last dimension a braced item is one element's initialiser
    // (a structure's, `{{1, 2}, {3, 4}}` for two of them).
    if items
        .iter()
        .any(|i| (braced(i) && dims.len() > 1) || i.is_empty())
    {
        return None;
    }
    // Row-major positions over the dimensions after the first.
    let inner: Vec<usize> = dims[1..]
        .iter()
        .map(|d| dim_value(d))
        .collect::<Option<_>>()?;
    for (k, item) in items.into_iter().enumerate() {
        let mut index = Vec::with_capacity(dims.len());
        let mut rest = k;
        for extent in inner.iter().rev() {
            index.push(rest % extent);
            rest /= extent;
        }
        index.push(rest);
        index.reverse();
        let mut full = path.clone();
        full.extend(index);
        out.push((full, item));
    }
    Some(())
}

/// A dimension written as a plain number.
fn dim_value(d: &[TokenTree]) -> Option<usize> {
    match d {
        [TokenTree::Literal(l)] => l.to_string().parse().ok().filter(|&n| n > 0),
        _ => None,
    }
}

/// Each dimension's tokens; an empty first one (`a[] = {..}`) counted from
/// the elements set.
pub(super) fn array_dims(
    dims: &[Vec<TokenTree>],
    elements: &[Element],
) -> Option<Vec<Vec<TokenTree>>> {
    let mut dims = dims.to_vec();
    if dims[0].is_empty() {
        let n = elements.iter().map(|(p, _)| p[0] + 1).max()?;
        dims[0] = vec![TokenTree::Literal(Literal::usize_unsuffixed(n))];
    }
    dims[1..].iter().all(|d| !d.is_empty()).then_some(dims)
}

/// `[[T; M]; N]` and its zero `[[<zero>; M]; N]` for C's `T a[N][M]`.
fn array_type_and_zero(
    elem: &[TokenTree],
    dims: &[Vec<TokenTree>],
    span: Span,
) -> (Vec<TokenTree>, Vec<TokenTree>) {
    let (mut ty, mut value) = (elem.to_vec(), zero(span));
    for d in dims.iter().rev() {
        let wrap = |inner: Vec<TokenTree>| {
            let mut tokens = inner;
            tokens.push(punct(';', span));
            tokens.extend(d.iter().cloned());
            vec![group(Delimiter::Bracket, tokens, span)]
        };
        ty = wrap(ty);
        value = wrap(value);
    }
    (ty, value)
}

/// The `struct` or `union` keyword of a C declaration inside a function
/// (`struct q { float z; } v;`, `struct tag v;` of a tag the block does
/// not declare), which the block only reads at file scope; a Rust item
/// (`struct S { z: f32 }`) is none.
fn local_c_aggregate(t: &[TokenTree]) -> Option<&Ident> {
    let [TokenTree::Ident(word), TokenTree::Ident(_), rest @ ..] = t else {
        return None;
    };
    if word != "struct" && word != "union" {
        return None;
    }
    let c = match rest.first() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
            g.stream().into_iter().any(|t| is_semicolon(&t)) || rest.len() > 1
        }
        Some(TokenTree::Ident(_) | TokenTree::Punct(_)) => {
            rest.len() > 1 && rest.last().is_some_and(is_semicolon)
        }
        _ => false,
    };
    c.then_some(word)
}

/// The value of a braced initialiser `{..}` of type `ty`, not a struct:
/// for a typedef of the block (a vector), its compound literal `(T){..}`
/// (missing lanes zero, a matrix Clang's error); for a scalar, `{x}` is
/// `x`.
fn braced_value(names: &HashSet<String>, ty: &[TokenTree], g: &Group) -> Vec<TokenTree> {
    let elements: Vec<TokenTree> = g.stream().into_iter().collect();
    match ty {
        [TokenTree::Ident(name)] if names.contains(&name.to_string()) => {
            vec![ccast::compound_literal(name, elements, g.span(), g.span())]
        }
        _ => elements,
    }
}

/// `place[i][j]..` for the indices `path`.
fn indexed(place: &[TokenTree], path: &[usize], span: Span) -> Vec<TokenTree> {
    let mut out = place.to_vec();
    for &i in path {
        let mut lit = Literal::usize_unsuffixed(i);
        lit.set_span(span);
        out.push(group(
            Delimiter::Bracket,
            vec![TokenTree::Literal(lit)],
            span,
        ));
    }
    out
}

/// The innermost element type of an array type's tokens (`[[T; M]; N]`
/// is `T`); any other type as it is.
fn ty_elem(ty: &[TokenTree]) -> Vec<TokenTree> {
    match ty {
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Bracket => {
            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
            match split_top_level(&inner, ';').first() {
                Some(elem) => ty_elem(elem),
                None => ty.to_vec(),
            }
        }
        _ => ty.to_vec(),
    }
}

/// `::core::default::Default::default()`: the zero of an element or
/// matrix type, spanned at `span`.
fn zero(span: Span) -> Vec<TokenTree> {
    "::core::default::Default::default()"
        .parse::<TokenStream>()
        .expect("a path")
        .into_iter()
        .map(|mut t| {
            t.set_span(span);
            t
        })
        .collect()
}

/// Whether the `if` or `while` at `s` is C's `if (c) statement`: a
/// parenthesised condition, then a statement that no Rust condition could
/// continue with (a name or keyword other than `as`, or `++`/`--`), or a
/// store through a pointer (`*p = x;`: a `*` with no block before the
/// `;`, which a Rust condition `(c) * p` would need).
fn braceless_body(t: &[TokenTree], s: usize) -> bool {
    let paren = matches!(t.get(s + 1), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis);
    let statement = match (t.get(s + 2), t.get(s + 3)) {
        (Some(TokenTree::Ident(id)), _) => id != "as",
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if doubled(a, b) => true,
        (Some(TokenTree::Punct(star)), _) if star.as_char() == '*' => t[s + 2..]
            .iter()
            .take_while(|x| !is_semicolon(x))
            .all(|x| !is_brace(x)),
        _ => false,
    };
    paren && statement
}

/// Whether `part` of a comma expression is `x++`, `--x` (and the like),
/// or an assignment `x = e`, `x op= e` to a name or an element
/// (`a[i][j]`).
fn steps_or_assigns(part: &[TokenTree]) -> bool {
    if let [
        TokenTree::Punct(a),
        TokenTree::Punct(b),
        TokenTree::Ident(_),
    ] = part
    {
        return doubled(a, b);
    }
    if !matches!(part.first(), Some(TokenTree::Ident(id)) if !is_keyword(id)) {
        return false;
    }
    // The name's subscripts, then its step or its assignment.
    let after = 1 + part[1..]
        .iter()
        .take_while(|t| matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket))
        .count();
    match &part[after..] {
        [TokenTree::Punct(a), TokenTree::Punct(b)] => doubled(a, b),
        rest => assignment_at(rest, 0).is_some_and(|len| rest.len() > len),
    }
}

/// The length of the assignment operator at `t[i]`: 1 for `=` alone (not
/// `==`, nor a match arm's `=>`), 2 for a compound one (`+=`, `^=`);
/// `None` where there is none.
fn assignment_at(t: &[TokenTree], i: usize) -> Option<usize> {
    let alone_eq = |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == '=' && p.spacing() == Spacing::Alone);
    match t.get(i) {
        _ if alone_eq(t.get(i)) => Some(1),
        Some(TokenTree::Punct(op))
            if op.spacing() == Spacing::Joint
                && "+-*/%&|^".contains(op.as_char())
                && alone_eq(t.get(i + 1)) =>
        {
            Some(2)
        }
        _ => None,
    }
}

/// `compile_error!(message);` at `at`: an error on the user's tokens from
/// a rewrite that cannot read them.
fn compile_error(at: Span, message: &str) -> Vec<TokenTree> {
    quote::quote_spanned!(at=> ::core::compile_error!(#message);)
        .into_iter()
        .collect()
}

fn is_semicolon(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == ';')
}

fn is_brace(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Group(g) if g.delimiter() == Delimiter::Brace)
}

/// C's `x++`, `x--`, `++x` and `--x` inside an expression (`a[n++] = v`,
/// `while (n-- > 0)`, `a[--k]`, `y = ++m[i][j]`), `x` a name or an
/// element whose subscripts can be read twice ([`place_end`]), at `i`:
/// the value C gives them, as a block that steps `x` (`({ let old = x; x
/// += 1; old })`, `({ x -= 1; x })`), and the tokens it takes. Not `x--`
/// before an operand (Rust's `x - -y`), nor `--x` after a value (`a --x`
/// is Rust's `a - -x`).
fn step_in_expression(t: &[TokenTree], i: usize) -> Option<(TokenTree, usize)> {
    let operand_next = |j: usize| {
        matches!(t.get(j), Some(TokenTree::Ident(_) | TokenTree::Literal(_)))
            || matches!(t.get(j), Some(TokenTree::Group(g)) if g.delimiter() != Delimiter::Brace)
    };
    let postfix_next = |j: usize| match t.get(j) {
        Some(TokenTree::Group(g)) => {
            matches!(g.delimiter(), Delimiter::Bracket | Delimiter::Parenthesis)
        }
        Some(TokenTree::Punct(p)) => p.as_char() == '.',
        _ => false,
    };
    let after_value = |j: usize| {
        j > 0
            && match &t[j - 1] {
                TokenTree::Ident(id) => !is_keyword(id),
                TokenTree::Literal(_) | TokenTree::Group(_) => true,
                TokenTree::Punct(_) => false,
            }
    };
    let doubled_at = |j: usize| match (t.get(j), t.get(j + 1)) {
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if doubled(a, b) => Some(a),
        _ => None,
    };
    // `x++` / `x--`: a place before, no operand after.
    if let Some(end) = place_end(t, i)
        && let Some(op) = doubled_at(end)
        && !operand_next(end + 2)
    {
        return Some((stepped(&t[i..end], op, true), end + 2 - i));
    }
    // `++x` / `--x`, where no value comes before (`a ++x` is no C,
    // `a --x` Rust's `a - -x`) and no call or field after.
    if let Some(op) = doubled_at(i)
        && !after_value(i)
        && let Some(end) = place_end(t, i + 2)
        && !postfix_next(end)
    {
        return Some((stepped(&t[i + 2..end], op, false), end - i));
    }
    None
}

/// Where a place that can be read again with no effect ends, if one
/// starts at `j`: a name, then any subscripts made of names, literals
/// and operators (no step, assignment or call: `m[i][j + 1]`, not
/// `a[k++]` or `a[f(i)]`).
fn place_end(t: &[TokenTree], j: usize) -> Option<usize> {
    let plain = |tokens: &[TokenTree]| {
        tokens.iter().enumerate().all(|(k, tree)| match tree {
            TokenTree::Ident(id) => !is_keyword(id),
            TokenTree::Literal(_) => true,
            TokenTree::Punct(p) => {
                let next = tokens.get(k + 1);
                p.as_char() != '=' && !matches!(next, Some(TokenTree::Punct(q)) if doubled(p, q))
            }
            TokenTree::Group(_) => false,
        })
    };
    let Some(TokenTree::Ident(x)) = t.get(j) else {
        return None;
    };
    if is_keyword(x) {
        return None;
    }
    let mut end = j + 1;
    while let Some(TokenTree::Group(g)) = t.get(end)
        && g.delimiter() == Delimiter::Bracket
        && plain(&g.stream().into_iter().collect::<Vec<_>>())
    {
        end += 1;
    }
    Some(end)
}

/// `({ let old = x; x op= 1; old })` (`postfix`) or `({ x op= 1; x })`,
/// `x` the place's tokens.
fn stepped(x: &[TokenTree], op: &Punct, postfix: bool) -> TokenTree {
    let span = op.span();
    let old = Ident::new("__matrix_old", Span::mixed_site().located_at(span));
    let mut assign = Punct::new(op.as_char(), Spacing::Joint);
    assign.set_span(span);
    let mut one = Literal::u8_unsuffixed(1);
    one.set_span(span);
    let mut step = x.to_vec();
    step.extend([
        TokenTree::Punct(assign),
        punct('=', span),
        TokenTree::Literal(one),
        punct(';', span),
    ]);
    let mut block = Vec::new();
    if postfix {
        block.push(TokenTree::Ident(Ident::new("let", span)));
        block.push(TokenTree::Ident(old.clone()));
        block.push(punct('=', span));
        block.extend(x.iter().cloned());
        block.push(punct(';', span));
        block.extend(step);
        block.push(TokenTree::Ident(old));
    } else {
        block.extend(step);
        block.extend(x.iter().cloned());
    }
    group(
        Delimiter::Parenthesis,
        vec![group(Delimiter::Brace, block, span)],
        span,
    )
}

/// `++` or `--`, as Rust lexes them: two joined puncts.
fn doubled(a: &Punct, b: &Punct) -> bool {
    matches!(a.as_char(), '+' | '-') && a.as_char() == b.as_char() && a.spacing() == Spacing::Joint
}

/// The three parts of a C `for` head `(init; cond; step)`, when `kw` is
/// `for` and `head` is one (Rust's `for pat in expr` has no `;`).
fn c_for_head(kw: &Ident, head: &Group) -> Option<Vec<Vec<TokenTree>>> {
    if kw != "for" || head.delimiter() != Delimiter::Parenthesis {
        return None;
    }
    let inner: Vec<TokenTree> = head.stream().into_iter().collect();
    let parts = split_top_level(&inner, ';');
    (parts.len() == 3).then(|| parts.into_iter().map(<[TokenTree]>::to_vec).collect())
}

/// `body` with every `continue` of its own loop (not of a loop nested in
/// it) replaced by `break NEXT`, and every `break` by `break EXIT`, if it
/// has a `continue`.
fn continues_to(body: &TokenTree, next: &[TokenTree], exit: &[TokenTree]) -> Option<TokenTree> {
    let TokenTree::Group(g) = body else {
        return None;
    };
    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
    let span = g.span();
    let mut jumps = Jumps::new(breaking_to(next, span), breaking_to(exit, span));
    let replaced = jumps.replace(&inner);
    jumps
        .continued
        .then(|| group(g.delimiter(), replaced, span))
}

/// `break LABEL`.
fn breaking_to(label: &[TokenTree], span: Span) -> Vec<TokenTree> {
    let mut out = vec![TokenTree::Ident(Ident::new("break", span))];
    out.extend(label.iter().cloned());
    out
}

/// The jumps of a loop's body or a `switch`'s sections that Rust needs
/// otherwise: each `continue` and each `break` replaced by the tokens
/// given (a labelled `break`). Those of a loop nested in the body, and
/// jumps already labelled, are not its own.
struct Jumps {
    on_continue: Vec<TokenTree>,
    on_break: Vec<TokenTree>,
    /// A `continue` was replaced.
    continued: bool,
    /// A `break` was replaced.
    broke: bool,
}

impl Jumps {
    fn new(on_continue: Vec<TokenTree>, on_break: Vec<TokenTree>) -> Self {
        Jumps {
            on_continue,
            on_break,
            continued: false,
            broke: false,
        }
    }

    fn replace(&mut self, trees: &[TokenTree]) -> Vec<TokenTree> {
        let mut out = Vec::with_capacity(trees.len());
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                // A nested loop's body: its jumps are its own.
                TokenTree::Ident(kw)
                    if matches!(kw.to_string().as_str(), "while" | "loop" | "for") =>
                {
                    let body = (i + 1..trees.len())
                        .find(|&j| is_brace(&trees[j]))
                        .unwrap_or(trees.len() - 1);
                    out.extend(trees[i..=body].iter().cloned());
                    i = body + 1;
                    continue;
                }
                TokenTree::Ident(kw)
                    if (kw == "continue" || kw == "break")
                        && !matches!(trees.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '\'') =>
                {
                    let with = if kw == "continue" {
                        self.continued = true;
                        &self.on_continue
                    } else {
                        self.broke = true;
                        &self.on_break
                    };
                    out.extend(with.iter().cloned());
                }
                TokenTree::Group(g) if g.delimiter() != Delimiter::Parenthesis => {
                    out.push(regroup(g, |inner| self.replace(inner)));
                }
                other => out.push(other.clone()),
            }
            i += 1;
        }
        out
    }
}

/// A section of a `switch`: the value of its `case` label (`None` for
/// `default`), and the statements up to the next label.
struct Section<'a> {
    value: Option<&'a [TokenTree]>,
    body: &'a [TokenTree],
}

/// A `switch` body's sections, one per label (`case 1: case 2: s;` is an
/// empty section, then one that holds `s`); or where and why it is not
/// one: statements before the first label, a `case` without a value or
/// a `:`.
fn switch_sections(t: &[TokenTree]) -> Result<Vec<Section<'_>>, (Span, &'static str)> {
    // A label's `:`: alone, not half of a path's `::`.
    let colon = |j: usize| {
        matches!(&t[j], TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Alone)
            && !matches!(j.checked_sub(1).map(|i| &t[i]), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
    };
    // Where each label starts, the end of its value, and where its
    // section's statements start.
    let mut labels = Vec::new();
    let mut j = 0;
    while j < t.len() {
        match &t[j] {
            TokenTree::Ident(id) if id == "default" && t.len() > j + 1 && colon(j + 1) => {
                labels.push((j, None, j + 2));
                j += 2;
            }
            TokenTree::Ident(id) if id == "case" => {
                let end = (j + 1..t.len())
                    .find(|&c| colon(c))
                    .filter(|&end| end > j + 1 && !t[j + 1..end].iter().any(is_semicolon))
                    .ok_or((id.span(), diag::CASE_WITHOUT_COLON))?;
                labels.push((j, Some(j + 1..end), end + 1));
                j = end + 1;
            }
            _ => j += 1,
        }
    }
    if labels.first().map(|l| l.0) != Some(0) {
        return Err((t[0].span(), diag::SWITCH_WITHOUT_LABEL));
    }
    let ends = labels.iter().skip(1).map(|l| l.0).chain([t.len()]);
    Ok(labels
        .iter()
        .zip(ends)
        .map(|((_, value, start), end)| Section {
            value: value.clone().map(|r| &t[r]),
            body: &t[*start..end],
        })
        .collect())
}

/// Where the statement starting at `s` ends (after its `;`, or its block).
fn statement_end(t: &[TokenTree], s: usize) -> usize {
    let brace_after = |from: usize| {
        (from..t.len())
            .find(|&j| matches!(&t[j], TokenTree::Group(g) if g.delimiter() == Delimiter::Brace))
    };
    let semi_after = |from: usize| {
        (from..t.len())
            .find(|&j| matches!(&t[j], TokenTree::Punct(p) if p.as_char() == ';'))
            .map_or(t.len(), |j| j + 1)
    };
    match &t[s] {
        TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => s + 1,
        TokenTree::Ident(kw) => match kw.to_string().as_str() {
            "for" if matches!(t.get(s + 1), Some(TokenTree::Group(h)) if c_for_head(kw, h).is_some()) => {
                if s + 2 < t.len() {
                    statement_end(t, s + 2)
                } else {
                    t.len()
                }
            }
            "while" if braceless_body(t, s) => statement_end(t, s + 2),
            // `do body while (cond);`
            "do" if s + 1 < t.len() => {
                let body_end = statement_end(t, s + 1);
                let is_while = matches!(t.get(body_end), Some(TokenTree::Ident(w)) if w == "while");
                if is_while {
                    semi_after(body_end)
                } else {
                    body_end
                }
            }
            "if" => {
                // The first block (or, after `if (c)`, the first statement)
                // and any `else` chain.
                let mut end = if braceless_body(t, s) {
                    statement_end(t, s + 2)
                } else {
                    match brace_after(s + 1) {
                        Some(j) if j < semi_after(s + 1) => j + 1,
                        _ => return semi_after(s + 1),
                    }
                };
                while matches!(t.get(end), Some(TokenTree::Ident(e)) if e == "else") {
                    end = if end + 1 < t.len() {
                        statement_end(t, end + 1)
                    } else {
                        t.len()
                    };
                }
                end
            }
            "while" | "loop" | "for" | "match" | "unsafe" | "fn" | "switch" => {
                match brace_after(s + 1) {
                    Some(j) => j + 1,
                    None => t.len(),
                }
            }
            _ => semi_after(s),
        },
        _ => semi_after(s),
    }
}

/// The parts of `t` between the `sep`s at its top level.
pub(super) fn split_top_level(t: &[TokenTree], sep: char) -> Vec<&[TokenTree]> {
    if t.is_empty() {
        return vec![t];
    }
    let mut parts = Vec::new();
    let mut start = 0;
    for (j, tree) in t.iter().enumerate() {
        if matches!(tree, TokenTree::Punct(p) if p.as_char() == sep) {
            parts.push(&t[start..j]);
            start = j + 1;
        }
    }
    parts.push(&t[start..]);
    parts
}

/// Words no C name can be here: Rust's keywords a rewrite could meet.
pub(super) fn is_keyword(id: &Ident) -> bool {
    matches!(
        id.to_string().as_str(),
        "as" | "in"
            | "mut"
            | "ref"
            | "let"
            | "if"
            | "else"
            | "for"
            | "while"
            | "loop"
            | "match"
            | "return"
            | "break"
            | "continue"
            | "fn"
            | "move"
            | "const"
            | "self"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::show;
    use crate::parse::{assert_contains, assert_rewrites, assert_starts_with};

    /// `src` as a kernel body (in braces), rewritten; `m4` is a typedef.
    fn rewritten(src: &str) -> String {
        let names: HashSet<String> = ["m4".to_string()].into();
        let tokens: TokenStream = format!("{{ {src} }}").parse().unwrap();
        let out = show(rewrite(tokens, &names, &Structs::new()));
        out.strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .unwrap()
            .to_string()
    }

    const LET: &str = "# [allow (unused_mut , unused_assignments)] let mut";
    const ZERO: &str = ":: core :: default :: Default :: default ()";

    #[test]
    fn declarations_become_lets() {
        assert_eq!(rewritten("float x = 1;"), format!("{LET} x : f32 = 1 ;"));
        assert_eq!(
            rewritten("unsigned long n = 2, k;"),
            format!("{LET} n : u64 = 2 ; {LET} k : u64 = {ZERO} ;")
        );
        assert_eq!(rewritten("const int k = 3;"), "let k : i32 = 3 ;");
        assert_eq!(
            rewritten("m4 r; r = a;"),
            format!("{LET} r : m4 = {ZERO} ; r = a ;")
        );
        assert_eq!(
            rewritten("f32 y = x * 2.0;"),
            format!("{LET} y : f32 = x * 2.0 ;")
        );
        assert_eq!(rewritten("int a=-1;"), format!("{LET} a : i32 = - 1 ;"));
    }

    /// `src` as a kernel body through `ccast` and this rewrite, with two
    /// structs: `pt { x: f32, y: f32 }` and `bx { lo: pt, hi: pt, w: [f32; 2] }`.
    fn with_structs(src: &str) -> String {
        let member = |name: &str, elem: &str, dims: &[&str]| Member {
            name: Ident::new(name, Span::call_site()),
            elem: elem.parse::<TokenStream>().unwrap().into_iter().collect(),
            dims: dims
                .iter()
                .map(|d| d.parse::<TokenStream>().unwrap().into_iter().collect())
                .collect(),
        };
        let structs: Structs = [
            (
                "pt".to_string(),
                vec![member("x", "f32", &[]), member("y", "f32", &[])],
            ),
            (
                "bx".to_string(),
                vec![
                    member("lo", "pt", &[]),
                    member("hi", "pt", &[]),
                    member("w", "f32", &["2"]),
                ],
            ),
        ]
        .into();
        let names: HashSet<String> = ["pt".to_string(), "bx".to_string()].into();
        let tokens: TokenStream = format!("{{ {src} }}").parse().unwrap();
        let tokens = ccast::rewrite(tokens, &names);
        let out = show(rewrite(tokens, &names, &structs));
        out.strip_prefix('{')
            .and_then(|s| s.strip_suffix('}'))
            .unwrap()
            .to_string()
    }

    #[test]
    fn struct_initialisers_set_members() {
        assert_eq!(
            with_structs("pt p = {1, .y = 2};"),
            format!("{LET} p : pt = {ZERO} ; p . x = 1 ; p . y = 2 ;")
        );
        assert_eq!(
            with_structs("bx b = {{1, 2}, .w = {3}, };"),
            format!("{LET} b : bx = {ZERO} ; b . lo . x = 1 ; b . lo . y = 2 ; b . w [0] = 3 ;")
        );
        // After a designator the next member follows it; a struct value
        // sets a whole member.
        assert_eq!(
            with_structs("bx b = {.hi = q, 4};"),
            format!("{LET} b : bx = {ZERO} ; b . hi = q ; b . w = 4 ;")
        );
        assert_eq!(
            with_structs("pt q[2] = {{1}, {.y = 4}};"),
            format!("{LET} q : [pt ; 2] = [{ZERO} ; 2] ; q [0] . x = 1 ; q [1] . y = 4 ;")
        );
    }

    #[test]
    fn braced_initialisers_of_typedefs_are_compound_literals() {
        let out = rewritten("m4 m = {1, 2}; float x = {3};");
        assert_eq!(
            out,
            format!("{LET} m : m4 = «__matrix_literal ! (m4 ; 1 , 2)» ; {LET} x : f32 = 3 ;")
        );
    }

    #[test]
    fn struct_compound_literals_are_blocks() {
        let out = with_structs("return (pt){ a, b };");
        assert_eq!(
            out,
            format!(
                "return {{{LET} __matrix_value : pt = {ZERO} ; __matrix_value . x = a ; \
                 __matrix_value . y = b ; __matrix_value}} ;"
            )
        );
    }

    #[test]
    fn local_c_structures_are_refused_and_rust_ones_stay() {
        for c in [
            "struct q { float z; } v;",
            "struct tag v;",
            "union u { int a; float b; };",
        ] {
            assert!(
                rewritten(c).starts_with(":: core :: compile_error !"),
                "{c}"
            );
        }
        for rust in ["struct S;", "struct S { z: f32 }", "struct P(f32);"] {
            assert!(!rewritten(rust).contains("compile_error"), "{rust}");
        }
    }

    #[test]
    fn struct_initialiser_errors_are_clangs() {
        assert!(
            with_structs("pt p = {1, 2, 3};").contains("excess elements in struct initializer")
        );
        assert!(
            with_structs("pt p = {.z = 1};")
                .contains("field designator 'z' does not refer to any field in type 'pt'")
        );
    }

    #[test]
    fn pointers_are_slices() {
        assert_eq!(
            rewritten("const float *p = src + 4, *q;"),
            format!("{LET} p : & [f32] = src + 4 ; {LET} q : & [f32] ;")
        );
        assert_eq!(
            rewritten("m4 *out = dst;"),
            format!("{LET} out : & mut [m4] = dst ;")
        );
    }

    #[test]
    fn arrays_are_zeroed_then_set() {
        assert_eq!(
            rewritten("float w[3] = {1, 2};"),
            format!("{LET} w : [f32 ; 3] = [{ZERO} ; 3] ; w [0] = 1 ; w [1] = 2 ;")
        );
        assert_eq!(
            rewritten("int g[][2] = {{1, 2}, {3}};"),
            format!(
                "{LET} g : [[i32 ; 2] ; 2] = [[{ZERO} ; 2] ; 2] ; \
                 g [0] [0] = 1 ; g [0] [1] = 2 ; g [1] [0] = 3 ;"
            )
        );
        // Braces elided: row-major.
        assert_eq!(
            rewritten("int h[2][2] = {1, 2, 3};"),
            format!(
                "{LET} h : [[i32 ; 2] ; 2] = [[{ZERO} ; 2] ; 2] ; \
                 h [0] [0] = 1 ; h [0] [1] = 2 ; h [1] [0] = 3 ;"
            )
        );
    }

    #[test]
    fn a_c_for_is_a_while_in_a_block() {
        assert_eq!(
            rewritten("for (int i = 0; i < 4; i++) s += i;"),
            format!("{{{LET} i : i32 = 0 ; while «i < 4» {{{{s += i ;}} i += 1 ;}}}}")
        );
        assert_rewrites(
            rewritten,
            &[
                ("for (;;) { break; }", "{while «true» {{break ;}}}"),
                // Nested, braceless, and with two steps.
                (
                    "for (i = 0, j = 1; i < j; ++i, j--) for (;;) x--;",
                    "{i = 0 ; j = 1 ; while «i < j» {{{while «true» {{x -= 1 ;}}}} i += 1 ; j -= 1 ;}}",
                ),
            ],
        );
    }

    #[test]
    fn continue_runs_the_step() {
        let out = rewritten("for (;;) { if (c) continue; if (d) break; while e { continue; } }");
        assert_starts_with(&out, "{'__matrix_loop0 : while «true» {'__matrix_next0 : {");
        assert_contains(
            &out,
            &[
                "if (c) {break '__matrix_next0 ;}",
                "if (d) {break '__matrix_loop0 ;}",
                // The nested loop's own `continue` is left.
                "while e {continue ;}",
            ],
        );
    }

    #[test]
    fn do_while_tests_after_the_body() {
        assert_eq!(
            rewritten("do x--; while (x > 0);"),
            "loop {{x -= 1 ;} if ! (x > 0) {break ;}}"
        );
        let out = rewritten("do { if (a) continue; } while (b);");
        assert_starts_with(&out, "'__matrix_loop0 : loop {'__matrix_next0 : {");
        assert!(out.ends_with("if ! (b) {break ;}}"), "{out}");
    }

    #[test]
    fn steps_inside_expressions_give_cs_values() {
        assert_rewrites(
            rewritten,
            &[
                (
                    "a[n++] = v;",
                    "a [({let __matrix_old = n ; n += 1 ; __matrix_old})] = v ;",
                ),
                (
                    "while (k-- > 0) s += k;",
                    "while (({let __matrix_old = k ; k -= 1 ; __matrix_old}) > 0) {s += k ;}",
                ),
                ("return ++i;", "return ({i += 1 ; i}) ;"),
                ("y = --x;", "y = ({x -= 1 ; x}) ;"),
                ("a[--k] = 0;", "a [({k -= 1 ; k})] = 0 ;"),
                // Rust's `x - -y` and `a - -x` stay.
                ("y = x--z;", "y = x -- z ;"),
                ("y = a --x;", "y = a -- x ;"),
                // An element steps where its subscripts can be read twice.
                ("y = ++a[i];", "y = ({a [i] += 1 ; a [i]}) ;"),
                (
                    "s += m[i][j + 1]--;",
                    "s += ({let __matrix_old = m [i] [j + 1] ; m [i] [j + 1] -= 1 ; __matrix_old}) ;",
                ),
                // A subscript with a step or a call, or a field after, stays, for
                // rustc to report.
                (
                    "y = a[k++]++;",
                    "y = a [({let __matrix_old = k ; k += 1 ; __matrix_old})] ++;",
                ),
                ("y = ++a[f(i)];", "y = ++ a [f (i)] ;"),
                ("y = ++v.x;", "y = ++ v . x ;"),
            ],
        );
    }

    #[test]
    fn increments_and_braceless_branches() {
        assert_rewrites(
            rewritten,
            &[
                ("i++; --n; m[0][1]++;", "i += 1 ; n -= 1 ; m [0] [1] += 1 ;"),
                (
                    "if (a) x++; else if (b) y = 1; else { z = 2; }",
                    "if (a) {x += 1 ;} else if (b) {y = 1 ;} else {z = 2 ;}",
                ),
                ("if c { x } else y--;", "if c {x} else {y -= 1 ;}"),
                ("while (k > 0) k--;", "while (k > 0) {k -= 1 ;}"),
            ],
        );
    }

    #[test]
    fn a_store_through_a_stepped_pointer() {
        assert_rewrites(
            rewritten,
            &[
                ("*dst++ = x + 1;", "* dst = x + 1 ; dst += 1 ;"),
                ("*dst-- *= 2;", "* dst *= 2 ; dst -= 1 ;"),
                (
                    "while (n--) *q++ = *p++;",
                    "while (({let __matrix_old = n ; n -= 1 ; __matrix_old})) \
             {* q = * ({let __matrix_old = p ; p += 1 ; __matrix_old}) ; q += 1 ;}",
                ),
                // A comparison is no store; a read through the pointer stays an
                // expression.
                (
                    "*p++ == x;",
                    "* ({let __matrix_old = p ; p += 1 ; __matrix_old}) == x ;",
                ),
            ],
        );
    }

    #[test]
    fn a_switch_runs_its_sections_from_the_one_chosen() {
        let out = rewritten("switch (x) { case 1: case 2: y = 1; break; default: y = 0; }");
        assert_eq!(
            out,
            "'__matrix_switch0 : {let __matrix_case : usize = {let __matrix_on = x ; \
             if __matrix_on == (1) {0usize} else if __matrix_on == (2) {1usize} else {2usize}} ; \
             if __matrix_case == 0usize {} \
             if __matrix_case <= 1usize {y = 1 ; break '__matrix_switch0 ;} \
             {y = 0 ;}}"
        );
        // No `break`: no label; no `default`: the last section is tested.
        let out = rewritten("switch (x) { case 1: y = 1; }");
        assert_starts_with(&out, "{let __matrix_case");
        assert_contains(&out, &["if __matrix_case == 0usize {y = 1 ;}"]);
        // A `continue` of the loop around is taken after the block.
        let out = rewritten("switch (x) { case 0: continue; }");
        assert_starts_with(
            &out,
            "{let mut __matrix_continue = false ; '__matrix_switch0 :",
        );
        assert_contains(
            &out,
            &["{__matrix_continue = true ; break '__matrix_switch0 ;}"],
        );
        assert!(out.ends_with("if __matrix_continue {continue ;}}"), "{out}");
        // An empty switch evaluates its value.
        assert_eq!(rewritten("switch (f(x)) {}"), "{let _ = f (x) ;}");
    }

    #[test]
    fn a_switch_not_cs_is_an_error_on_its_tokens() {
        assert!(
            rewritten("switch (x) { y = 1; case 1: break; }").contains(diag::SWITCH_WITHOUT_LABEL)
        );
        assert!(
            rewritten("switch (x) { case 1 y = 1; case 2: break; }")
                .contains(diag::CASE_WITHOUT_COLON)
        );
        assert!(rewritten("switch (x) { case: break; }").contains(diag::CASE_WITHOUT_COLON));
    }

    #[test]
    fn comma_statements_and_static_tables() {
        assert_rewrites(
            rewritten,
            &[
                ("i++, j--;", "i += 1 ; j -= 1 ;"),
                ("i = 0, a[k] += 2;", "i = 0 ; a [k] += 2 ;"),
                // Rust's own top-level commas stay.
                ("f::<A, B>(x);", "f ::< A , B > (x) ;"),
                ("i == 0, j = 1;", "i == 0 , j = 1 ;"),
                (
                    "match n { k => y = k, _ => y = 0 }",
                    "match n {k => y = k , _ => y = 0}",
                ),
            ],
        );
        assert_eq!(
            rewritten("static const int k[] = {1};"),
            format!("{LET} k : [i32 ; 1] = [{ZERO} ; 1] ; k [0] = 1 ;")
        );
        assert!(rewritten("static float s = 0;").contains(diag::STATIC_STATE));
    }

    #[test]
    fn rust_is_left_alone() {
        for src in [
            "for x in 0..n { s += x; }",
            "for (a, b) in pairs { s += a * b; }",
            "if (a) || b { x } else { y }",
            "if (x + 1) * 2 > y { x }",
            "let x: f32 = 1.0; x += 1.0;",
            "const N: usize = 3;",
            "while (a) as bool { }",
            "m4::identity()",
        ] {
            let tokens: TokenStream = format!("{{ {src} }}").parse().unwrap();
            let expected = show(tokens);
            let got = format!("{{{}}}", rewritten(src));
            assert_eq!(got, expected, "{src}");
        }
    }
}
