//! Typing kernel bodies: statements and expressions.

use super::literal::NumLit;
use super::{Env, any_token, resolve_type};
use crate::consteval;
use crate::diag::{self, Axis, Diagnostics, Loc};
use crate::ir::{self, ArithOp, Arm, Block, Contract, Expr, ExprKind, Index, Stmt, Stride};
use crate::parse::{COMPLEMENT, COMPOUND_LITERAL, is_conditional_mark};
use crate::types::{Dim, MatTy, MemoryLayout, Scalar, SeqKind, Ty, VecTy};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote_spanned};
use std::collections::{HashMap, HashSet};

pub(super) struct Checker<'a> {
    pub(super) env: &'a Env,
    pub(super) diags: &'a mut Diagnostics,
    scopes: Vec<HashMap<String, (Ty, Role)>>,
    /// Names of the kernel's body that a view must not bind (see
    /// [`unviewable_names`]).
    unviewable: HashSet<String>,
    /// Whether the body binds views at all: not when it has a `move`
    /// closure or block, which could carry a view where a copy may go and a
    /// reference may not (a thread, a `'static` box).
    views: bool,
    ret: Ty,
    /// Some expression could not be typed: the kernel must become a stub.
    pub(super) poisoned: bool,
    /// Constant subscripts of generic dimensions, checked when the kernel
    /// is instantiated.
    pub(super) index_checks: Vec<ir::IndexCheck>,
    /// The kernel has a C head: C's integer promotions apply (see
    /// [`Checker::promoted`]).
    pub(super) c_arithmetic: bool,
}

/// What a name is bound to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A value.
    Local,
    /// A `&[T]` parameter: memory the kernel cannot change.
    SharedSlice,
    /// A reference to a matrix in such memory (a dense load from it): a
    /// use of the name reads the matrix in place.
    View,
}

/// The names of `tokens` that a view must not bind: those used inside
/// macro invocations (`name!(...)`, whose tokens are emitted as written and
/// would see a reference), assigned (`x = `, `x[i][j] += `), borrowed
/// mutably (`&mut x`), or followed by a `.` (a method that may take `&mut
/// self`). Binding such a name to a reference would turn rustc's own
/// message about the `let` (declare it `mut`) into one about a reference
/// the user never wrote.
fn unviewable_names(tokens: TokenStream, in_macro: bool, names: &mut HashSet<String>) {
    use proc_macro2::{Delimiter, Spacing, TokenTree};
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    let punct = |t: Option<&TokenTree>| match t {
        Some(TokenTree::Punct(p)) => Some((p.as_char(), p.spacing())),
        _ => None,
    };
    // `=`, `op=`, `<<=`, `>>=`, but not `==`, `<=`, `>=`, `!=`, `=>`.
    let assigns =
        |rest: &[TokenTree]| match (punct(rest.first()), punct(rest.get(1)), punct(rest.get(2))) {
            (Some(('=', Spacing::Alone)), _, _) => true,
            (Some((op, Spacing::Joint)), Some(('=', Spacing::Alone)), _) => "+-*/%&|^".contains(op),
            (Some((a, Spacing::Joint)), Some((b, Spacing::Joint)), Some(('=', Spacing::Alone))) => {
                a == b && (a == '<' || a == '>')
            }
            _ => false,
        };
    for (i, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(ident) => {
                let mut next = i + 1;
                while matches!(trees.get(next), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket)
                {
                    next += 1;
                }
                let borrowed_mut = i >= 2
                    && matches!(&trees[i - 1], TokenTree::Ident(m) if m == "mut")
                    && punct(trees.get(i - 2)).is_some_and(|(c, _)| c == '&');
                let method = punct(trees.get(next)).is_some_and(|(c, _)| c == '.');
                // `let x = ...` binds, and assigns nothing.
                let declared = i >= 1 && matches!(&trees[i - 1], TokenTree::Ident(l) if l == "let");
                if in_macro || borrowed_mut || method || (!declared && assigns(&trees[next..])) {
                    names.insert(ident.to_string());
                }
            }
            TokenTree::Group(g) => {
                let macro_call = i >= 2
                    && matches!(&trees[i - 2], TokenTree::Ident(_))
                    && punct(trees.get(i - 1)).is_some_and(|(c, _)| c == '!');
                unviewable_names(g.stream(), in_macro || macro_call, names);
            }
            _ => {}
        }
    }
}

/// Looks through parentheses and invisible groups.
pub(super) fn strip(expr: &syn::Expr) -> (&syn::Expr, bool) {
    match expr {
        syn::Expr::Paren(p) => (strip(&p.expr).0, true),
        syn::Expr::Group(g) => strip(&g.expr),
        other => (other, false),
    }
}

impl<'a> Checker<'a> {
    pub(super) fn new(env: &'a Env, diags: &'a mut Diagnostics, ret: Ty) -> Self {
        Checker {
            env,
            diags,
            scopes: vec![HashMap::new()],
            unviewable: HashSet::new(),
            views: false,
            ret,
            poisoned: false,
            index_checks: Vec::new(),
            c_arithmetic: false,
        }
    }

    /// Runs `f` in a scope of its own, with `return` returning `ret` (a
    /// closure's body).
    pub(super) fn in_closure_scope<R>(&mut self, ret: Ty, f: impl FnOnce(&mut Self) -> R) -> R {
        self.scopes.push(HashMap::new());
        let outer = std::mem::replace(&mut self.ret, ret);
        let result = f(self);
        self.ret = outer;
        self.scopes.pop();
        result
    }

    pub(super) fn bind(&mut self, name: &str, ty: Ty) {
        self.bind_as(name, ty, Role::Local);
    }

    /// Binds a kernel parameter: one of type `&[T]` is memory that nothing
    /// in the kernel can change, which a load may then read in place.
    pub(super) fn bind_param(&mut self, name: &str, ty: Ty) {
        let role = match ty {
            Ty::Seq {
                kind: SeqKind::Slice,
                mutable: false,
                ..
            } => Role::SharedSlice,
            _ => Role::Local,
        };
        self.bind_as(name, ty, role);
    }

    fn bind_as(&mut self, name: &str, ty: Ty, role: Role) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.insert(name.to_string(), (ty, role));
        }
    }

    fn lookup(&self, name: &str) -> Option<Ty> {
        self.binding(name).map(|(ty, _)| ty.clone())
    }

    /// The innermost binding of `name`.
    fn binding(&self, name: &str) -> Option<&(Ty, Role)> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub(super) fn error(&mut self, loc: Loc, message: impl std::fmt::Display) -> Expr {
        self.diags.error(loc, message);
        self.poisoned(loc)
    }

    /// An expression that cannot be typed (its error is reported, or an
    /// operand's was): typed `Error` so nothing about it is reported again.
    pub(super) fn poisoned(&mut self, loc: Loc) -> Expr {
        self.poisoned = true;
        Expr::new(ExprKind::Verbatim(TokenStream::new()), Ty::Error, loc)
    }

    /// The body of a kernel; its tail expression is checked against `ret`.
    pub(super) fn kernel_body(&mut self, block: &syn::Block, ret: &Ty) -> Block {
        let tokens = block.to_token_stream();
        self.views = !any_token(
            tokens.clone(),
            &|t| matches!(t, proc_macro2::TokenTree::Ident(i) if i == "move"),
        );
        unviewable_names(tokens, false, &mut self.unviewable);
        let (mut body, mut tail) = self.block(block);
        // A scalar tail of a kernel returning a vector splats.
        if let (Some(syn::Stmt::Expr(src, None)), Some(Stmt::Expr { expr, semi: false })) =
            (block.stmts.last(), body.stmts.last_mut())
        {
            let taken = Expr::new(ExprKind::Verbatim(TokenStream::new()), Ty::Unit, expr.loc);
            let value = std::mem::replace(expr, taken);
            *expr = self.for_place(value, src, ret);
            tail = Some((expr.ty.clone(), expr.loc));
        }
        if let Some((ty, loc)) = tail
            && !compatible(ret, &ty)
        {
            self.diags.error(loc, diag::returning(&ty, ret));
        }
        body
    }

    /// A block in its own scope, and the type and location of its tail.
    fn block(&mut self, block: &syn::Block) -> (Block, Option<(Ty, Loc)>) {
        self.scopes.push(HashMap::new());
        let mut stmts = Vec::new();
        let mut tail = None;
        let count = block.stmts.len();
        for (i, stmt) in block.stmts.iter().enumerate() {
            let checked = self.stmt(stmt);
            if i + 1 == count
                && let Stmt::Expr { expr, semi: false } = &checked
            {
                tail = Some((expr.ty.clone(), expr.loc));
            }
            stmts.push(checked);
        }
        self.scopes.pop();
        (Block { stmts }, tail)
    }

    fn block_expr_ty(&mut self, block: &syn::Block) -> (Block, Ty) {
        let (b, tail) = self.block(block);
        (b, tail.map_or(Ty::Unit, |t| t.0))
    }

    fn stmt(&mut self, stmt: &syn::Stmt) -> Stmt {
        match stmt {
            syn::Stmt::Local(local) => self.local(local),
            syn::Stmt::Expr(e, semi) => Stmt::Expr {
                expr: self.expr(e),
                semi: semi.is_some(),
            },
            syn::Stmt::Item(item) => Stmt::Verbatim(item.to_token_stream()),
            syn::Stmt::Macro(m) => match self.std_macro(&m.mac, Loc::of(m)) {
                Some(expr) => Stmt::Expr {
                    expr,
                    semi: m.semi_token.is_some(),
                },
                None => Stmt::Verbatim(m.to_token_stream()),
            },
        }
    }

    fn local(&mut self, local: &syn::Local) -> Stmt {
        let (pat, declared) = match &local.pat {
            syn::Pat::Type(pt) => {
                let (ty, tokens) = resolve_type(&pt.ty, self.env, self.diags);
                ((*pt.pat).clone(), Some((ty, tokens)))
            }
            other => (other.clone(), None),
        };
        let init = local.init.as_ref().map(|i| {
            let value = self.expr(&i.expr);
            match &declared {
                Some((ty, _)) => self.for_place(value, &i.expr, ty),
                None => value,
            }
        });
        let diverge =
            local
                .init
                .as_ref()
                .and_then(|i| i.diverge.as_ref())
                .map(|(_, e)| match &**e {
                    syn::Expr::Block(b) => self.block(&b.block).0,
                    other => Block {
                        stmts: vec![Stmt::Expr {
                            expr: self.expr(other),
                            semi: false,
                        }],
                    },
                });
        if let (Some((ty, _)), Some(init)) = (&declared, &init)
            && !compatible(ty, &init.ty)
        {
            self.diags.error(init.loc, diag::initializing(ty, &init.ty));
        }
        let bound = match (&declared, &init) {
            (Some((ty, _)), _) => ty.clone(),
            (None, Some(init)) => init.ty.clone(),
            (None, None) => Ty::unknown(),
        };
        let mut init = init;
        let mut declared_tokens = declared.as_ref().map(|d| d.1.clone());
        if let Some(name) = self.binds_view(&pat, &bound, init.as_ref(), diverge.is_some()) {
            // Bound to a reference to the matrix in memory
            // (`private::load_view`): each use reads it in place.
            init = init.map(|load| {
                let (ty, loc) = (load.ty.clone(), load.loc);
                let reference = ExprKind::Reference {
                    mutable: false,
                    expr: Box::new(load),
                };
                Expr::new(reference, ty, loc)
            });
            declared_tokens = declared_tokens.map(|t| quote::quote!(&#t));
            self.bind_as(&name, bound, Role::View);
        } else {
            self.bind_pat(&pat, bound);
        }
        Stmt::Let {
            attrs: local.attrs.clone(),
            pat,
            ty: declared_tokens,
            init: init.map(Box::new),
            diverge,
        }
    }

    /// Whether a load of `to` from `src` reads the matrix in place: its
    /// lines are dense and `src` names a `&[T]` parameter, memory the
    /// kernel cannot change while it runs, so a reference to the matrix
    /// there reads the values a copy would hold.
    pub(super) fn reads_in_place(
        &self,
        src: &Expr,
        stride: &Stride,
        memory: MemoryLayout,
        to: &MatTy,
    ) -> bool {
        let dense = match stride {
            Stride::Dense => true,
            Stride::Const(v) => memory.line_len(&to.rows, &to.cols, to.elem) == Some(*v),
            Stride::Dynamic(_) => false,
        };
        let ExprKind::Path(tokens) = &src.kind else {
            return false;
        };
        let shared = syn::parse2::<syn::Ident>(tokens.clone()).is_ok_and(|name| {
            matches!(
                self.binding(&name.to_string()),
                Some((_, Role::SharedSlice))
            )
        });
        dense && shared && !memory.is_packed()
    }

    /// Whether `let pat = init` binds a view: `pat` a plain immutable name
    /// (not [unviewable](unviewable_names)), `init` a load that reads in
    /// place, of the type bound. The name is then bound to a reference to
    /// the matrix in memory, with no copy: the memory cannot change while
    /// the kernel runs, and the name is never assigned.
    fn binds_view(
        &self,
        pat: &syn::Pat,
        bound: &Ty,
        init: Option<&Expr>,
        diverges: bool,
    ) -> Option<String> {
        let syn::Pat::Ident(pi) = pat else {
            return None;
        };
        let name = pi.ident.to_string();
        let plain = pi.mutability.is_none() && pi.by_ref.is_none() && pi.subpat.is_none();
        if !plain || diverges || !self.views || self.unviewable.contains(&name) {
            return None;
        }
        let init = init?;
        let same = matches!((bound, &init.ty), (Ty::Matrix(a), Ty::Matrix(b)) if a.same_type(b));
        matches!(init.kind, ExprKind::Load { view: true, .. } if same).then_some(name)
    }

    /// Binds the names a pattern introduces; a bare name gets `ty`.
    fn bind_pat(&mut self, pat: &syn::Pat, ty: Ty) {
        match pat {
            syn::Pat::Ident(pi) => {
                self.bind(
                    &pi.ident.to_string(),
                    if pi.by_ref.is_some() {
                        Ty::unknown()
                    } else {
                        ty
                    },
                );
                if let Some((_, sub)) = &pi.subpat {
                    self.bind_pat(sub, Ty::unknown());
                }
            }
            syn::Pat::Type(pt) => {
                let (ty, _) = resolve_type(&pt.ty, self.env, self.diags);
                self.bind_pat(&pt.pat, ty);
            }
            syn::Pat::Paren(p) => self.bind_pat(&p.pat, ty),
            syn::Pat::Reference(r) => self.bind_pat(&r.pat, Ty::unknown()),
            syn::Pat::Tuple(t) => t.elems.iter().for_each(|p| self.bind_pat(p, Ty::unknown())),
            syn::Pat::TupleStruct(t) => {
                t.elems.iter().for_each(|p| self.bind_pat(p, Ty::unknown()))
            }
            syn::Pat::Slice(s) => s.elems.iter().for_each(|p| self.bind_pat(p, Ty::unknown())),
            syn::Pat::Or(o) => o.cases.iter().for_each(|p| self.bind_pat(p, Ty::unknown())),
            syn::Pat::Struct(s) => s
                .fields
                .iter()
                .for_each(|f| self.bind_pat(&f.pat, Ty::unknown())),
            _ => {}
        }
    }

    pub(super) fn expr(&mut self, e: &syn::Expr) -> Expr {
        let loc = Loc::of(e);
        match e {
            syn::Expr::Lit(lit) => {
                let ty = match &lit.lit {
                    syn::Lit::Int(i) => {
                        Scalar::from_rust_name(i.suffix()).map_or(Ty::IntLiteral, Ty::Scalar)
                    }
                    syn::Lit::Float(f) => {
                        Scalar::from_rust_name(f.suffix()).map_or(Ty::FloatLiteral, Ty::Scalar)
                    }
                    syn::Lit::Bool(_) => Ty::Scalar(Scalar::Bool),
                    syn::Lit::Char(_) => Ty::Scalar(Scalar::Char),
                    syn::Lit::Str(_) => Ty::Other(Some("&str".into())),
                    _ => Ty::unknown(),
                };
                Expr::new(ExprKind::Verbatim(e.to_token_stream()), ty, loc)
            }
            syn::Expr::Path(p) => {
                let name = p.path.get_ident().map(|i| i.to_string());
                let binding = name.as_deref().and_then(|n| self.binding(n));
                let role = binding.map(|(_, role)| *role);
                let ty = match (binding, &name) {
                    (Some((ty, _)), _) => ty.clone(),
                    (None, Some(name)) => self
                        .env
                        .const_types
                        .get(name)
                        .cloned()
                        .unwrap_or_else(Ty::unknown),
                    (None, None) => Ty::unknown(),
                };
                let path = Expr::new(ExprKind::Path(e.to_token_stream()), ty.clone(), loc);
                match role {
                    // A view of memory: its matrix is the place it refers to.
                    Some(Role::View) => Expr::new(
                        ExprKind::Unary {
                            op: syn::UnOp::Deref(syn::Token![*](loc.start)),
                            expr: Box::new(path),
                        },
                        ty,
                        loc,
                    ),
                    _ => path,
                }
            }
            syn::Expr::Paren(p) => {
                let inner = self.expr(&p.expr);
                let ty = inner.ty.clone();
                Expr::new(ExprKind::Paren(Box::new(inner)), ty, loc)
            }
            syn::Expr::Group(g) => {
                // A rewritten C cast `(T) x`: its `as` carries the span of `(T)`.
                let inner = match &*g.expr {
                    syn::Expr::Cast(c) => {
                        if let Some(name) = unknown_type_name(&c.ty, self.env) {
                            return self
                                .error(Loc::of(&c.ty), format!("unknown type name '{name}'"));
                        }
                        let loc = Loc {
                            start: c.as_token.span,
                            end: Loc::of(&c.expr).end,
                        };
                        self.cast(c, loc)
                    }
                    other => self.expr(other),
                };
                let ty = inner.ty.clone();
                Expr::new(ExprKind::Group(Box::new(inner)), ty, loc)
            }
            syn::Expr::Binary(b) => self.binary(b, loc),
            syn::Expr::Unary(u) => self.unary(u, loc),
            syn::Expr::Index(i) => self.index(i, loc),
            syn::Expr::Assign(a) => self.assign(a, loc),
            syn::Expr::Cast(c) => self.cast(c, loc),
            syn::Expr::Reference(r) => {
                if let (syn::Expr::Index(outer), _) = strip(&r.expr)
                    && let (syn::Expr::Index(inner), _) = strip(&outer.expr)
                {
                    let base = self.expr(&inner.expr);
                    if base.ty.is_matrix() {
                        return self.error(loc, diag::ADDRESS_OF_ELEMENT);
                    }
                }
                let inner = self.expr(&r.expr);
                let mutable = r.mutability.is_some();
                let ty = match &inner.ty {
                    Ty::Seq { elem, .. } => Ty::Seq {
                        elem: elem.clone(),
                        kind: SeqKind::Slice,
                        mutable,
                    },
                    Ty::Error => Ty::Error,
                    other => Ty::Ref {
                        inner: Box::new(other.clone()),
                        mutable,
                    },
                };
                Expr::new(
                    ExprKind::Reference {
                        mutable,
                        expr: Box::new(inner),
                    },
                    ty,
                    loc,
                )
            }
            syn::Expr::Call(c) => self.call(c, loc),
            syn::Expr::MethodCall(m) => self.method_call(m, loc),
            syn::Expr::Block(b) => {
                let (block, ty) = self.block_expr_ty(&b.block);
                Expr::new(
                    ExprKind::Block {
                        label: b.label.clone(),
                        block,
                        unsafety: false,
                    },
                    ty,
                    loc,
                )
            }
            syn::Expr::Unsafe(u) => {
                let (block, ty) = self.block_expr_ty(&u.block);
                Expr::new(
                    ExprKind::Block {
                        label: None,
                        block,
                        unsafety: true,
                    },
                    ty,
                    loc,
                )
            }
            syn::Expr::If(i) => self.if_expr(i, loc),
            // C's `while (1)` and `for (;;)`: a `loop`, which Rust knows
            // ends only by a `break` (a function may end in one).
            syn::Expr::While(w) if forever(&w.cond) => {
                let (body, _) = self.block(&w.body);
                let kind = ExprKind::Loop {
                    label: w.label.clone(),
                    body,
                };
                Expr::new(kind, Ty::unknown(), loc)
            }
            syn::Expr::While(w) => {
                self.scopes.push(HashMap::new());
                let cond = self.condition(&w.cond);
                let (body, _) = self.block(&w.body);
                self.scopes.pop();
                Expr::new(
                    ExprKind::While {
                        label: w.label.clone(),
                        cond: Box::new(cond),
                        body,
                    },
                    Ty::Unit,
                    loc,
                )
            }
            syn::Expr::Loop(l) => {
                let (body, _) = self.block(&l.body);
                Expr::new(
                    ExprKind::Loop {
                        label: l.label.clone(),
                        body,
                    },
                    Ty::unknown(),
                    loc,
                )
            }
            syn::Expr::ForLoop(f) => {
                let iter = self.expr(&f.expr);
                self.scopes.push(HashMap::new());
                self.bind_pat(&f.pat, Ty::unknown());
                let (body, _) = self.block(&f.body);
                self.scopes.pop();
                let kind = ExprKind::For {
                    label: f.label.clone(),
                    pat: (*f.pat).clone(),
                    iter: Box::new(iter),
                    body,
                };
                Expr::new(kind, Ty::Unit, loc)
            }
            syn::Expr::Match(m) => {
                let scrutinee = self.expr(&m.expr);
                let mut arms = Vec::new();
                let mut ty = None;
                for arm in &m.arms {
                    self.scopes.push(HashMap::new());
                    // syn 3 folds a guard into the pattern: `pat if guard`.
                    let (pat, guard) = match &arm.pat {
                        syn::Pat::Guard(g) => ((*g.pat).clone(), Some(&*g.guard)),
                        other => (other.clone(), None),
                    };
                    self.bind_pat(&pat, Ty::unknown());
                    let guard = guard.map(|g| self.expr(g));
                    let body = self.expr(&arm.body);
                    self.scopes.pop();
                    ty.get_or_insert_with(|| body.ty.clone());
                    arms.push(Arm { pat, guard, body });
                }
                let kind = ExprKind::Match {
                    expr: Box::new(scrutinee),
                    arms,
                };
                Expr::new(kind, ty.unwrap_or_else(Ty::unknown), loc)
            }
            syn::Expr::Let(l) => {
                let value = self.expr(&l.expr);
                self.bind_pat(&l.pat, Ty::unknown());
                let kind = ExprKind::Let {
                    pat: (*l.pat).clone(),
                    expr: Box::new(value),
                };
                Expr::new(kind, Ty::Scalar(Scalar::Bool), loc)
            }
            syn::Expr::Return(r) => {
                let ret = self.ret.clone();
                let value = r.expr.as_ref().map(|v| {
                    let value = self.expr(v);
                    self.for_place(value, v, &ret)
                });
                let ty = value.as_ref().map_or(Ty::Unit, |v| v.ty.clone());
                if !compatible(&self.ret, &ty) {
                    let at = value.as_ref().map_or(loc, |v| v.loc);
                    self.diags.error(at, diag::returning(&ty, &self.ret));
                }
                Expr::new(ExprKind::Return(value.map(Box::new)), Ty::unknown(), loc)
            }
            syn::Expr::Break(b) => {
                let value = b.expr.as_ref().map(|v| Box::new(self.expr(v)));
                Expr::new(
                    ExprKind::Break {
                        label: b.label.clone(),
                        expr: value,
                    },
                    Ty::unknown(),
                    loc,
                )
            }
            syn::Expr::Continue(c) => {
                Expr::new(ExprKind::Continue(c.label.clone()), Ty::unknown(), loc)
            }
            syn::Expr::Field(f) => {
                let base = self.expr(&f.base);
                let name = match &f.member {
                    syn::Member::Named(id) => id.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                if let Ty::Vector(v) = base.ty.clone() {
                    let at = Loc::of(&f.member);
                    return self.vector_component(base, &name, &v, at);
                }
                let ty = match self.env.struct_fields(&base.ty) {
                    Some(fields) => match fields.iter().find(|(field, _)| *field == name) {
                        Some((_, ty)) => ty.clone(),
                        None => {
                            let message = diag::no_member(&name, &base.ty);
                            return self.error(Loc::of(&f.member), message);
                        }
                    },
                    None => Ty::unknown(),
                };
                Expr::new(
                    ExprKind::Field {
                        base: Box::new(base),
                        member: f.member.clone(),
                    },
                    ty,
                    loc,
                )
            }
            syn::Expr::Tuple(t) => {
                let elems: Vec<Expr> = t.elems.iter().map(|e| self.expr(e)).collect();
                let ty = if elems.is_empty() {
                    Ty::Unit
                } else {
                    Ty::unknown()
                };
                Expr::new(ExprKind::Tuple(elems), ty, loc)
            }
            syn::Expr::Array(a) => {
                let elems: Vec<Expr> = a.elems.iter().map(|e| self.expr(e)).collect();
                let elem = elems.first().map_or_else(Ty::unknown, |e| e.ty.clone());
                let ty = Ty::Seq {
                    elem: Box::new(elem),
                    kind: SeqKind::Array,
                    mutable: true,
                };
                Expr::new(ExprKind::Array(elems), ty, loc)
            }
            syn::Expr::Repeat(r) => {
                let value = self.expr(&r.expr);
                let ty = Ty::Seq {
                    elem: Box::new(value.ty.clone()),
                    kind: SeqKind::Array,
                    mutable: true,
                };
                Expr::new(
                    ExprKind::Repeat {
                        expr: Box::new(value),
                        len: r.len.to_token_stream(),
                    },
                    ty,
                    loc,
                )
            }
            syn::Expr::Range(r) => {
                let start = r.start.as_ref().map(|s| Box::new(self.expr(s)));
                let end = r.end.as_ref().map(|s| Box::new(self.expr(s)));
                Expr::new(
                    ExprKind::Range {
                        start,
                        end,
                        limits: r.limits,
                    },
                    Ty::Other(Some("range".into())),
                    loc,
                )
            }
            syn::Expr::Try(t) => {
                let inner = self.expr(&t.expr);
                Expr::new(ExprKind::Try(Box::new(inner)), Ty::unknown(), loc)
            }
            syn::Expr::Closure(c) => self.closure(c, loc),
            syn::Expr::Macro(m) if m.mac.path.is_ident(COMPOUND_LITERAL) => {
                self.compound_literal(&m.mac, loc)
            }
            syn::Expr::Macro(m) if m.mac.path.is_ident(COMPLEMENT) => self.complement(&m.mac, loc),
            syn::Expr::Macro(m) if let Some(checked) = self.std_macro(&m.mac, loc) => checked,
            // Other macros, async blocks and the rest: emitted as written.
            // Matrix operations inside them use `Matrix`'s own operators.
            other => Expr::new(
                ExprKind::Verbatim(other.to_token_stream()),
                Ty::unknown(),
                loc,
            ),
        }
    }

    /// A closure: its parameters bound in a scope of their own, its body
    /// checked with `return` meaning the closure's.
    fn closure(&mut self, c: &syn::ExprClosure, loc: Loc) -> Expr {
        let ret = match &c.output {
            syn::ReturnType::Type(_, ty) => resolve_type(ty, self.env, self.diags).0,
            syn::ReturnType::Default => Ty::unknown(),
        };
        let body = self.in_closure_scope(ret.clone(), |this| {
            for input in &c.inputs {
                this.bind_pat(input, Ty::unknown());
            }
            this.expr(&c.body)
        });
        if !compatible(&ret, &body.ty) {
            // On the value returned, as for a kernel: a block's tail.
            let at = Loc::of(closure_tail(&c.body));
            self.diags.error(at, diag::returning(&body.ty, &ret));
        }
        let kind = ExprKind::Closure {
            head: closure_head(c),
            body: Box::new(body),
        };
        Expr::new(kind, Ty::unknown(), loc)
    }

    /// `println!(...)`, `assert_eq!(...)` and std's other formatting and
    /// assertion macros, whose arguments are expressions: each checked, so
    /// `m[r][c]` and matrix operations mean inside them what they mean
    /// outside. `None` for any other macro, or arguments that are not a
    /// list of expressions, which are emitted as written.
    fn std_macro(&mut self, mac: &syn::Macro, loc: Loc) -> Option<Expr> {
        use syn::parse::Parser;
        let name = mac.path.segments.last()?.ident.to_string();
        let statement_like = STD_STATEMENT_MACROS.contains(&name.as_str());
        if !statement_like && !STD_VALUE_MACROS.contains(&name.as_str()) {
            return None;
        }
        let parsed = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated
            .parse2(mac.tokens.clone())
            .ok()?;
        let args = parsed.iter().map(|arg| self.macro_arg(arg)).collect();
        let ty = if statement_like {
            Ty::Unit
        } else {
            Ty::unknown()
        };
        let kind = ExprKind::Macro {
            mac: mac.clone(),
            args,
        };
        Some(Expr::new(kind, ty, loc))
    }

    /// One argument of a std macro: a string literal (a format string) as
    /// written, `name = value` with only the value checked.
    fn macro_arg(&mut self, arg: &syn::Expr) -> Expr {
        let loc = Loc::of(arg);
        match arg {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(_),
                ..
            }) => Expr::new(
                ExprKind::Verbatim(arg.to_token_stream()),
                Ty::unknown(),
                loc,
            ),
            syn::Expr::Assign(a) if is_name(&a.left) => {
                let value = self.expr(&a.right);
                let kind = ExprKind::NamedArg {
                    name: a.left.to_token_stream(),
                    value: Box::new(value),
                };
                Expr::new(kind, Ty::unknown(), loc)
            }
            other => self.expr(other),
        }
    }

    /// An `if`/`while` condition: a matrix is not a condition; a number
    /// is compared with zero, as C reads `if (n)` and `while (n--)`
    /// ([`truth`]).
    fn condition(&mut self, cond: &syn::Expr) -> Expr {
        let checked = self.expr(cond);
        if checked.ty.is_matrix() {
            return self.error(checked.loc, diag::requires_scalar_condition(&checked.ty));
        }
        self.truth(checked)
    }

    /// A condition as Rust's `bool` ([`truth`]); `!n` there is C's
    /// logical not where a function with a Rust head leaves it Rust's (in
    /// a C head's, [`Checker::unary`] has made it `n == 0` already).
    pub(super) fn truth(&self, cond: Expr) -> Expr {
        truth(cond, !self.c_arithmetic)
    }

    fn if_expr(&mut self, i: &syn::ExprIf, loc: Loc) -> Expr {
        if let Some(cond) = is_conditional_mark(&i.cond)
            && let Some(conditional) = self.conditional(i, cond, loc)
        {
            return conditional;
        }
        self.scopes.push(HashMap::new());
        let cond = self.condition(&i.cond);
        let (then, then_ty) = self.block_expr_ty(&i.then_branch);
        self.scopes.pop();
        let otherwise = i.else_branch.as_ref().map(|(_, e)| self.expr(e));
        let ty = match &otherwise {
            None => Ty::Unit,
            Some(other) => {
                if (then_ty.is_matrix() || other.ty.is_matrix()) && !compatible(&then_ty, &other.ty)
                {
                    return self.error(loc, diag::incompatible_operand_types(&then_ty, &other.ty));
                }
                then_ty
            }
        };
        let kind = ExprKind::If {
            cond: Box::new(cond),
            then,
            otherwise: otherwise.map(Box::new),
        };
        Expr::new(kind, ty, loc)
    }

    fn binary(&mut self, b: &syn::ExprBinary, loc: Loc) -> Expr {
        use syn::BinOp as B;
        let lhs = self.expr(&b.left);
        let rhs = self.expr(&b.right);
        let compound = matches!(
            b.op,
            B::AddAssign(_)
                | B::SubAssign(_)
                | B::MulAssign(_)
                | B::DivAssign(_)
                | B::RemAssign(_)
                | B::BitXorAssign(_)
                | B::BitAndAssign(_)
                | B::BitOrAssign(_)
                | B::ShlAssign(_)
                | B::ShrAssign(_)
        );
        if lhs.ty.is_error() || rhs.ty.is_error() {
            return self.poisoned(loc);
        }
        if compound {
            return self.compound(b, lhs, rhs, loc);
        }
        // C's `p + k` on a pointer (a slice here), either way round.
        match (&b.op, &lhs.ty, &rhs.ty) {
            (B::Add(_), Ty::Seq { .. }, r) if offset(r) => return pointer_offset(lhs, rhs, loc),
            (B::Add(_), l, Ty::Seq { .. }) if offset(l) => return pointer_offset(rhs, lhs, loc),
            (B::Sub(_), Ty::Seq { .. }, r) if offset(r) => {
                return self.error(loc, diag::pointer_moved_back(&lhs.ty));
            }
            _ => {}
        }
        if matches!(lhs.ty, Ty::Vector(_)) || matches!(rhs.ty, Ty::Vector(_)) {
            return self.vector_binary(&b.op, lhs, rhs, &b.left, &b.right, loc);
        }
        if matches!(b.op, B::And(_) | B::Or(_)) && !lhs.ty.is_matrix() && !rhs.ty.is_matrix() {
            // C's `n && m`: each number compared with zero, as a condition.
            let kind = ExprKind::Binary {
                op: b.op,
                lhs: Box::new(self.truth(lhs)),
                rhs: Box::new(self.truth(rhs)),
            };
            return Expr::new(kind, Ty::Scalar(Scalar::Bool), loc);
        }
        if !lhs.ty.is_matrix() && !rhs.ty.is_matrix() {
            let Some((lhs, rhs)) = self.scalar_operands(&b.op, (lhs, &b.left), (rhs, &b.right))
            else {
                return self.poisoned(loc);
            };
            let ty = scalar_binary_type(&b.op, &lhs.ty, &rhs.ty);
            return self.scalar_binary(b.op, lhs, rhs, ty, loc);
        }
        let Some(op) = ArithOp::of(&b.op) else {
            return self.error(loc, diag::invalid_operands(&lhs.ty, &rhs.ty));
        };
        self.matrix_arith(op, lhs, rhs, &b.right, &b.left, loc)
    }

    /// Two operands of `op` that are not matrices, brought to one type as C
    /// brings them (Rust would refuse the mixed operation): an integer
    /// literal meeting a float converts to it (`x * 2`, its value
    /// checked), then C's usual arithmetic conversions
    /// ([`usual_conversions`]). `None` once a literal's error is reported.
    pub(super) fn scalar_operands(
        &mut self,
        op: &syn::BinOp,
        (lhs, lsrc): (Expr, &syn::Expr),
        (rhs, rsrc): (Expr, &syn::Expr),
    ) -> Option<(Expr, Expr)> {
        let (lhs, rhs) = (self.promoted(lhs), self.promoted(rhs));
        let float_of = |t: &Ty| match t {
            Ty::Scalar(s) if s.is_float() && s.is_element() => Some(*s),
            _ => None,
        };
        let (lhs, rhs) = match (float_of(&lhs.ty), float_of(&rhs.ty)) {
            (Some(s), _) if matches!(rhs.ty, Ty::IntLiteral) => {
                let rhs = self.element_operand(rhs, rsrc, s)?;
                (lhs, rhs)
            }
            (_, Some(s)) if matches!(lhs.ty, Ty::IntLiteral) => {
                let lhs = self.element_operand(lhs, lsrc, s)?;
                (lhs, rhs)
            }
            _ => (lhs, rhs),
        };
        Some(usual_conversions(op, lhs, rhs))
    }

    /// C's integer promotion of an operand of an arithmetic, bitwise or
    /// shift operator, or of unary `-` and `~` (`!` here), in a kernel
    /// with a C head: a `char`, `short` or their unsigned forms becomes an
    /// `int` (`a + b` of two `unsigned char` is 300 for 200 and 100, not
    /// 44, and `-c` is negative). Anything else, and every operand of a
    /// kernel with a Rust head (whose `u8 + u8` is Rust's), as it is.
    pub(super) fn promoted(&self, e: Expr) -> Expr {
        match e.ty {
            Ty::Scalar(s) if self.c_arithmetic && (promotes(s) || s == Scalar::Bool) => {
                cast(e, Scalar::I32)
            }
            _ => e,
        }
    }

    /// `lhs op rhs` of two scalars of type `ty`: in a function with a C
    /// head, `+ - *` of an unsigned type wrap, as C's unsigned arithmetic
    /// does (`u32::wrapping_sub(i, 1)` where `i - 1` would panic in a debug
    /// build at zero); Rust's operator otherwise.
    fn scalar_binary(&self, op: syn::BinOp, lhs: Expr, rhs: Expr, ty: Ty, loc: Loc) -> Expr {
        use syn::BinOp as B;
        let method = match op {
            B::Add(_) => "wrapping_add",
            B::Sub(_) => "wrapping_sub",
            B::Mul(_) => "wrapping_mul",
            _ => "",
        };
        if let Some(s) = self.wrapping_type(&ty)
            && !method.is_empty()
        {
            let (t, method) = (s.to_tokens(loc.start), syn::Ident::new(method, loc.start));
            let path = quote_spanned!(loc.start=> #t::#method);
            let kind = ExprKind::Call {
                func: Box::new(Expr::new(ExprKind::Path(path), Ty::unknown(), loc)),
                args: vec![lhs, rhs],
            };
            return Expr::new(kind, ty, loc);
        }
        let kind = ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        };
        Expr::new(kind, ty, loc)
    }

    /// `ty`, if it is an unsigned integer type whose arithmetic wraps as
    /// C's does: in a function with a C head.
    fn wrapping_type(&self, ty: &Ty) -> Option<Scalar> {
        match ty {
            Ty::Scalar(s) if self.c_arithmetic && s.is_integer() && !s.is_signed() => Some(*s),
            _ => None,
        }
    }

    /// `lhs op rhs` where at least one side is a matrix; `rsrc`/`lsrc` are
    /// the operands as written (a literal converts at expansion time).
    pub(super) fn matrix_arith(
        &mut self,
        op: ArithOp,
        lhs: Expr,
        rhs: Expr,
        rsrc: &syn::Expr,
        lsrc: &syn::Expr,
        loc: Loc,
    ) -> Expr {
        let invalid = diag::invalid_operands(&lhs.ty, &rhs.ty);
        if unseen(&lhs, lsrc) || unseen(&rhs, rsrc) {
            return self.mixed(op, lhs, rhs, loc);
        }
        match (lhs.ty.clone(), rhs.ty.clone()) {
            (Ty::Matrix(l), Ty::Matrix(r)) => {
                // Clang's common sugar: one typedef on both sides keeps its
                // name; two typedefs of one type give the bare type.
                let common = (l.name == r.name).then(|| l.name.clone()).flatten();
                match op {
                    ArithOp::Add | ArithOp::Sub if l.same_type(&r) => {
                        let ty = Ty::Matrix(MatTy { name: common, ..l });
                        let kind = ExprKind::Elementwise {
                            op,
                            lhs: Box::new(lhs),
                            rhs: Box::new(rhs),
                        };
                        Expr::new(kind, ty, loc)
                    }
                    ArithOp::Mul
                        if l.elem == r.elem && l.cols == r.rows && l.layout == r.layout =>
                    {
                        // A product is a new, unnamed type unless both operands
                        // are of one (square) type, which it then keeps.
                        let name = if l.same_type(&r) { common } else { None };
                        let ty = Ty::Matrix(MatTy {
                            elem: l.elem,
                            rows: l.rows,
                            cols: r.cols,
                            layout: l.layout,
                            name,
                        });
                        Expr::new(
                            ExprKind::Product {
                                lhs: Box::new(lhs),
                                rhs: Box::new(rhs),
                                contract: Contract::Off,
                            },
                            ty,
                            loc,
                        )
                    }
                    _ => self.error(loc, invalid),
                }
            }
            (Ty::Matrix(m), s) if s.is_scalar_like() => {
                self.with_scalar(op, (lhs, m), (rhs, rsrc), false, loc)
            }
            (s, Ty::Matrix(m)) if s.is_scalar_like() && op != ArithOp::Div => {
                self.with_scalar(op, (rhs, m), (lhs, lsrc), true, loc)
            }
            _ => self.error(loc, invalid),
        }
    }

    /// `matrix op scalar` (or `scalar op matrix` where `scalar_first`):
    /// the scalar converted to the element type of `m`, the matrix's type.
    fn with_scalar(
        &mut self,
        op: ArithOp,
        (matrix, m): (Expr, MatTy),
        (scalar, src): (Expr, &syn::Expr),
        scalar_first: bool,
        loc: Loc,
    ) -> Expr {
        let Some(scalar) = self.element_operand(scalar, src, m.elem) else {
            return self.poisoned(loc);
        };
        let kind = ExprKind::WithScalar {
            op,
            matrix: Box::new(matrix),
            scalar: Box::new(scalar),
            scalar_first,
        };
        Expr::new(kind, Ty::Matrix(m), loc)
    }

    /// `lhs op rhs` where one side is a matrix or a vector and the other a
    /// value whose type the block cannot see ([`unseen`]): never guessed to
    /// be a scalar, but decided by rustc through
    /// `matrix_core::Kernel{Add,Sub,Mul,Div}`, which take a matrix or
    /// vector of a fitting type as one and convert a scalar to the element
    /// type.
    pub(super) fn mixed(&mut self, op: ArithOp, lhs: Expr, rhs: Expr, loc: Loc) -> Expr {
        let known = match (&lhs.ty, &rhs.ty) {
            (Ty::Matrix(_), _) | (_, Ty::Matrix(_))
                if op == ArithOp::Div && !lhs.ty.is_matrix() =>
            {
                return self.error(loc, diag::invalid_operands(&lhs.ty, &rhs.ty));
            }
            (known @ (Ty::Matrix(_) | Ty::Vector(_)), _)
            | (_, known @ (Ty::Matrix(_) | Ty::Vector(_))) => known.clone(),
            _ => return self.error(loc, diag::invalid_operands(&lhs.ty, &rhs.ty)),
        };
        let method = match op {
            ArithOp::Add => "kernel_add",
            ArithOp::Sub => "kernel_sub",
            ArithOp::Mul => "kernel_mul",
            ArithOp::Div => "kernel_div",
        };
        // `+ - /` keep the known matrix's type; a product's shape depends
        // on the other operand.
        let ty = match op {
            ArithOp::Mul => Ty::unknown(),
            _ => known,
        };
        // A method call (the traits are in scope in every kernel body):
        // rustc reports one error, on the operands.
        let kind = ExprKind::MethodCall {
            receiver: Box::new(lhs),
            method: syn::Ident::new(method, loc.start),
            turbofish: None,
            args: vec![rhs],
        };
        Expr::new(kind, ty, loc)
    }

    /// A scalar meeting a matrix, converted to the element type: a literal at
    /// expansion time (an error where Clang warns), a variable with `as`.
    pub(super) fn element_operand(
        &mut self,
        scalar: Expr,
        src: &syn::Expr,
        elem: Scalar,
    ) -> Option<Expr> {
        self.operand_as(scalar, src, elem, elem.c_name())
    }

    /// A scalar splatted onto the vector type `v`: converted to its element
    /// type as [`Checker::element_operand`] converts it, a literal whose
    /// value changes named as converted to `v` (Clang's words for a splat).
    pub(super) fn splat_operand(
        &mut self,
        scalar: Expr,
        src: &syn::Expr,
        v: &VecTy,
    ) -> Option<Expr> {
        self.operand_as(scalar, src, v.elem, &Ty::Vector(v.clone()).to_string())
    }

    /// [`Checker::element_operand`], a literal's message naming `shown`.
    fn operand_as(
        &mut self,
        scalar: Expr,
        src: &syn::Expr,
        elem: Scalar,
        shown: &str,
    ) -> Option<Expr> {
        let loc = scalar.loc;
        if let Some(lit) = NumLit::of(src) {
            return match super::literal::convert(lit, elem, shown, loc.start) {
                Ok(tokens) => Some(Expr::new(
                    ExprKind::ConstScalar(tokens),
                    Ty::Scalar(elem),
                    loc,
                )),
                Err(message) => {
                    self.diags.error(loc, message);
                    None
                }
            };
        }
        if matches!(scalar.ty, Ty::Scalar(s) if s == elem) {
            return Some(scalar);
        }
        Some(Expr::new(
            ExprKind::ConvertScalar {
                expr: Box::new(scalar),
                to: elem,
            },
            Ty::Scalar(elem),
            loc,
        ))
    }

    fn compound(&mut self, b: &syn::ExprBinary, lhs: Expr, rhs: Expr, loc: Loc) -> Expr {
        use syn::BinOp as B;
        // A truth value is C's `int` there (`n += a < b`).
        let rhs = match rhs.ty {
            Ty::Scalar(Scalar::Bool) => self.promoted(rhs),
            _ => rhs,
        };
        if is_unassignable_element(&lhs) || !assignable(&b.left, false) {
            return self.error(lhs.loc, diag::NOT_ASSIGNABLE);
        }
        if let ExprKind::Swizzle { .. } = lhs.kind {
            // `v.xy += w` is `v.xy = v.xy + (w)`: the place read, then
            // written; `w` keeps its grouping (`v.xy += a ^ b`).
            let Some(op) = binary_of_assign(&b.op) else {
                return self.error(loc, diag::invalid_operands(&lhs.ty, &rhs.ty));
            };
            let current = self.expr(&b.left);
            let (rty, rloc) = (rhs.ty.clone(), rhs.loc);
            let rhs = Expr::new(ExprKind::Paren(Box::new(rhs)), rty, rloc);
            let value = self.vector_binary(&op, current, rhs, &b.left, &b.right, loc);
            if value.ty.is_error() {
                return value;
            }
            return self.swizzle_assign(lhs, value, &b.right, loc);
        }
        if let Ty::Matrix(place_ty) = lhs.ty.clone() {
            let Some(op) = binary_of_assign(&b.op).as_ref().and_then(ArithOp::of) else {
                return self.error(loc, diag::invalid_operands(&lhs.ty, &rhs.ty));
            };
            if !lhs.is_place() {
                return self.error(lhs.loc, diag::NOT_ASSIGNABLE);
            }
            let current = Expr::new(ExprKind::PlaceValue, lhs.ty.clone(), lhs.loc);
            let value = self.matrix_arith(op, current, rhs, &b.right, &b.left, loc);
            match &value.ty {
                Ty::Error => return self.poisoned(loc),
                Ty::Matrix(result) if !result.same_type(&place_ty) => {
                    return self.error(loc, diag::assigning(&lhs.ty, &value.ty));
                }
                _ => {}
            }
            let kind = ExprKind::MatrixCompound {
                place: Box::new(lhs),
                value: Box::new(value),
            };
            return Expr::new(kind, Ty::Unit, loc);
        }
        if rhs.ty.is_matrix() {
            return self.error(lhs.loc, diag::NOT_ASSIGNABLE);
        }
        if let Ty::Seq {
            kind: SeqKind::Slice,
            ..
        } = lhs.ty
            && offset(&rhs.ty)
        {
            return self.pointer_step(b, lhs, rhs, loc);
        }
        // A vector place and a value the block cannot see: rustc decides,
        // as in `v op value` ([`Checker::mixed`]).
        if let (Ty::Vector(_), Some(op)) = (&lhs.ty, binary_of_assign(&b.op))
            && let Some(op) = ArithOp::of(&op)
            && unseen(&rhs, &b.right)
            && lhs.is_place()
        {
            let current = Expr::new(ExprKind::PlaceValue, lhs.ty.clone(), lhs.loc);
            let value = self.mixed(op, current, rhs, loc);
            let kind = ExprKind::MatrixCompound {
                place: Box::new(lhs),
                value: Box::new(value),
            };
            return Expr::new(kind, Ty::Unit, loc);
        }
        let rhs = match (&lhs.ty, &rhs.ty) {
            (Ty::Vector(v), Ty::Vector(r)) if !v.same_type(r) => {
                // `v op= w` on two types: `w` bit cast to `v`'s, as in
                // `v op w` (Clang's check of the operator).
                let checked = binary_of_assign(&b.op)
                    .ok_or_else(|| diag::invalid_operands(&lhs.ty, &rhs.ty))
                    .and_then(|op| super::vector::mixed_vectors(&op, v, r));
                if let Err(message) = checked {
                    return self.error(loc, message);
                }
                super::vector::bitcast(rhs, v, loc)
            }
            (Ty::Vector(_), Ty::Vector(_)) => rhs,
            (Ty::Vector(v), s) => {
                if !super::vector::splats(s, v.elem) {
                    return self.error(loc, diag::vector_sizes_differ(&lhs.ty, &rhs.ty));
                }
                let v = v.clone();
                match self.splat_operand(rhs, &b.right, &v) {
                    Some(scalar) => scalar,
                    None => return self.poisoned(loc),
                }
            }
            // A narrow place of a C kernel computes in `int` (`c += 200`
            // wraps as C's conversion back does, and `c <<= 8` is zero).
            (&Ty::Scalar(place), value) if self.c_arithmetic && promotes(place) => {
                let value = match value {
                    Ty::Scalar(v) if v.is_element() => *v,
                    Ty::IntLiteral => Scalar::I32,
                    _ => return compound_assign(b.op, lhs, rhs, loc),
                };
                return self.mixed_compound(b, lhs, rhs, (place, value), loc);
            }
            // A literal converts to the place's type, as in C (`x *= 2`).
            (Ty::Scalar(s), _) if s.is_element() && NumLit::of(&b.right).is_some() => {
                let elem = *s;
                match self.element_operand(rhs, &b.right, elem) {
                    Some(scalar) => scalar,
                    None => return self.poisoned(loc),
                }
            }
            (&Ty::Scalar(place), &Ty::Scalar(value))
                if place != value
                    && place.is_element()
                    && value.is_element()
                    && !matches!(b.op, B::ShlAssign(_) | B::ShrAssign(_)) =>
            {
                return self.mixed_compound(b, lhs, rhs, (place, value), loc);
            }
            _ => rhs,
        };
        // `n -= k` of an unsigned `n` in a function with a C head wraps:
        // `n = u32::wrapping_sub(n, k)`.
        if let Some(op @ (B::Add(_) | B::Sub(_) | B::Mul(_))) = binary_of_assign(&b.op)
            && self.wrapping_type(&lhs.ty).is_some()
            && matches!(rhs.ty, Ty::Scalar(_) | Ty::IntLiteral)
            && rereadable(&b.left)
        {
            let current = self.expr(&b.left);
            let value = self.scalar_binary(op, current, rhs, lhs.ty.clone(), loc);
            let kind = ExprKind::Assign {
                lhs: Box::new(lhs),
                rhs: Box::new(value),
            };
            return Expr::new(kind, Ty::Unit, loc);
        }
        compound_assign(b.op, lhs, rhs, loc)
    }

    /// C's `x op= y` on scalars of two types: `x = x op y` computed in
    /// their common type and converted to `x`'s. Where that type is `x`'s
    /// (`r += i` of a `float` and an `int`) it is `x op= (y as T)`;
    /// otherwise (`k += x` of an `int` and a `float`) `x` is read again,
    /// where that has no effect, and the sum converted (`k = (k as f32 +
    /// x) as i32`); else rustc reports the types.
    fn mixed_compound(
        &mut self,
        b: &syn::ExprBinary,
        lhs: Expr,
        rhs: Expr,
        (place, value): (Scalar, Scalar),
        loc: Loc,
    ) -> Expr {
        let (common, op) = match (common_type(place, value), binary_of_assign(&b.op)) {
            // A shift is computed in its left operand's promoted type.
            (Some(_), Some(op @ (syn::BinOp::Shl(_) | syn::BinOp::Shr(_)))) => (Scalar::I32, op),
            (Some(common), Some(op)) => (common, op),
            _ => return compound_assign(b.op, lhs, rhs, loc),
        };
        if common == place {
            let rloc = rhs.loc;
            return compound_assign(b.op, lhs, converted(rhs, place, rloc), loc);
        }
        if !rereadable(&b.left) {
            return compound_assign(b.op, lhs, rhs, loc);
        }
        let current = self.expr(&b.left);
        // `y` keeps its grouping: `k -= a - b` is `k - (a - b)`.
        let (rty, rloc) = (rhs.ty.clone(), rhs.loc);
        let rhs = Expr::new(ExprKind::Paren(Box::new(rhs)), rty, rloc);
        let (l, r) = usual_conversions(&op, self.promoted(current), self.promoted(rhs));
        let computed = self.scalar_binary(op, l, r, Ty::Scalar(common), loc);
        let computed = Expr::new(ExprKind::Paren(Box::new(computed)), Ty::Scalar(common), loc);
        let kind = ExprKind::Assign {
            lhs: Box::new(lhs),
            rhs: Box::new(converted(computed, place, loc)),
        };
        Expr::new(kind, Ty::Unit, loc)
    }

    /// C's `p += k` on a pointer (a slice here): `p = &p[k..]` (`&mut`
    /// where `p` is), the pointer moved on `k` elements. A pointer does
    /// not move back (`p -= k`): a slice has nothing before its first
    /// element.
    fn pointer_step(&mut self, b: &syn::ExprBinary, lhs: Expr, rhs: Expr, loc: Loc) -> Expr {
        if !matches!(b.op, syn::BinOp::AddAssign(_)) {
            let message = match b.op {
                syn::BinOp::SubAssign(_) => diag::pointer_moved_back(&lhs.ty),
                _ => diag::invalid_operands(&lhs.ty, &rhs.ty),
            };
            return self.error(loc, message);
        }
        let current = self.expr(&b.left);
        let kind = ExprKind::Assign {
            rhs: Box::new(pointer_offset(current, rhs, loc)),
            lhs: Box::new(lhs),
        };
        Expr::new(kind, Ty::Unit, loc)
    }

    fn assign(&mut self, a: &syn::ExprAssign, loc: Loc) -> Expr {
        if let Some(chained) = self.chained_assign(a, loc) {
            return chained;
        }
        let lhs = self.expr(&a.left);
        let rhs = self.expr(&a.right);
        if lhs.ty.is_error() || rhs.ty.is_error() {
            return self.poisoned(loc);
        }
        if is_unassignable_element(&lhs) || !assignable(&a.left, true) {
            return self.error(lhs.loc, diag::NOT_ASSIGNABLE);
        }
        if let ExprKind::Swizzle { .. } = &lhs.kind {
            return self.swizzle_assign(lhs, rhs, &a.right, loc);
        }
        // A literal converts to a scalar place's type, as in C (`m[i][i] = 1`).
        let rhs = match lhs.ty {
            Ty::Scalar(s) if s.is_element() && NumLit::of(&a.right).is_some() => {
                match self.element_operand(rhs, &a.right, s) {
                    Some(rhs) => rhs,
                    None => return self.poisoned(loc),
                }
            }
            _ => rhs,
        };
        // A scalar assigned to a vector splats, as in Clang.
        let rhs = self.for_place(rhs, &a.right, &lhs.ty);
        if rhs.ty.is_error() {
            return self.poisoned(loc);
        }
        if matches!(lhs.ty, Ty::Vector(_)) && !compatible(&lhs.ty, &rhs.ty) {
            return self.error(loc, diag::assigning(&lhs.ty, &rhs.ty));
        }
        if (lhs.ty.is_matrix() || rhs.ty.is_matrix()) && !compatible(&lhs.ty, &rhs.ty) {
            return self.error(loc, diag::assigning(&lhs.ty, &rhs.ty));
        }
        Expr::new(
            ExprKind::Assign {
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            Ty::Unit,
            loc,
        )
    }

    /// C's chained `x = y = e` (Rust's `y = e` has no value): `{ y = e; x
    /// = y; }`, `x` taking `y`'s value in `y`'s type, as C's does. Only
    /// where `y` can be read again with no effect (a name, an element at
    /// indices without steps or calls); otherwise `None`, and rustc
    /// reports the `()`.
    fn chained_assign(&mut self, a: &syn::ExprAssign, loc: Loc) -> Option<Expr> {
        let syn::Expr::Assign(inner) = strip(&a.right).0 else {
            return None;
        };
        if !rereadable(&inner.left) {
            return None;
        }
        let first = self.expr(&a.right);
        let then = syn::ExprAssign {
            attrs: Vec::new(),
            left: a.left.clone(),
            eq_token: a.eq_token,
            right: inner.left.clone(),
        };
        let second = self.assign(&then, loc);
        if first.ty.is_error() || second.ty.is_error() {
            return Some(self.poisoned(loc));
        }
        let stmts = [first, second]
            .into_iter()
            .map(|expr| Stmt::Expr { expr, semi: true })
            .collect();
        let kind = ExprKind::Block {
            label: None,
            block: Block { stmts },
            unsafety: false,
        };
        Some(Expr::new(kind, Ty::Unit, loc))
    }

    /// C's `~x` (see [`COMPLEMENT`]): Rust's `!` of the promoted operand,
    /// an integer or a vector of integers.
    fn complement(&mut self, mac: &syn::Macro, loc: Loc) -> Expr {
        let operand = match mac.parse_body::<syn::Expr>() {
            Ok(operand) => operand,
            Err(e) => return self.error(loc, e.to_string()),
        };
        let inner = self.expr(&operand);
        // From the `~` to the operand's end, as Clang underlines it.
        let loc = Loc {
            start: loc.start,
            end: inner.loc.end,
        };
        let inner = match inner.ty {
            Ty::Scalar(Scalar::Bool) => cast(inner, Scalar::I32),
            _ => self.promoted(inner),
        };
        match &inner.ty {
            Ty::Error => return self.poisoned(loc),
            Ty::Scalar(s) if s.is_float() => {
                return self.error(loc, diag::invalid_unary_argument(&inner.ty));
            }
            _ => {}
        }
        let not = syn::UnOp::Not(syn::Token![!](loc.start));
        self.unary_of(not, inner, loc)
    }

    fn unary(&mut self, u: &syn::ExprUnary, loc: Loc) -> Expr {
        let inner = self.expr(&u.expr);
        let inner = match u.op {
            syn::UnOp::Neg(_) => {
                let inner = self.promoted(inner);
                // `-n` of an unsigned `n` (after the promotions) in a
                // function with a C head: C's `0 - n`, wrapped (Rust has
                // no `-` of an unsigned type).
                if self.wrapping_type(&inner.ty).is_some() {
                    let zero = quote_spanned!(loc.start=> 0);
                    let zero = Expr::new(ExprKind::Verbatim(zero), Ty::IntLiteral, loc);
                    let (sub, ty) = (syn::BinOp::Sub(Default::default()), inner.ty.clone());
                    return self.scalar_binary(sub, zero, inner, ty, loc);
                }
                inner
            }
            // C's `!n` of a number in a function with a C head: `n == 0`.
            syn::UnOp::Not(_) if self.c_arithmetic && zero_of(&inner).is_some() => {
                let not = ExprKind::Unary {
                    op: u.op,
                    expr: Box::new(inner),
                };
                let zero = truth(Expr::new(not, Ty::Scalar(Scalar::Bool), loc), true);
                // In parentheses, an operand of whatever surrounds it.
                return Expr::new(
                    ExprKind::Paren(Box::new(zero)),
                    Ty::Scalar(Scalar::Bool),
                    loc,
                );
            }
            _ => inner,
        };
        self.unary_of(u.op, inner, loc)
    }

    /// `op inner`, `inner` checked.
    fn unary_of(&mut self, op: syn::UnOp, inner: Expr, loc: Loc) -> Expr {
        // C's `*p` on a pointer (a slice here): its first element.
        if let (
            syn::UnOp::Deref(_),
            Ty::Seq {
                elem,
                kind: SeqKind::Slice,
                ..
            },
        ) = (&op, &inner.ty)
        {
            let elem = (**elem).clone();
            let index = Expr::usize_const(0, loc);
            let kind = ExprKind::Index {
                base: Box::new(inner),
                index: Box::new(index),
            };
            return Expr::new(kind, elem, loc);
        }
        let ty = match (&op, &inner.ty) {
            (_, Ty::Error) => return self.poisoned(loc),
            (syn::UnOp::Deref(_), Ty::Matrix(_)) => {
                return self.error(loc, diag::indirection_requires_pointer(&inner.ty));
            }
            (_, Ty::Matrix(_)) => return self.error(loc, diag::invalid_unary_argument(&inner.ty)),
            // `!v` is Rust's spelling of C's `~v`: integer vectors only.
            (syn::UnOp::Not(_), Ty::Vector(v)) if !v.elem.is_integer() => {
                return self.error(loc, diag::invalid_unary_argument(&inner.ty));
            }
            (syn::UnOp::Deref(_), Ty::Ref { inner: t, .. }) => (**t).clone(),
            (syn::UnOp::Deref(_), Ty::Ptr { elem, .. }) => (**elem).clone(),
            (syn::UnOp::Deref(_), _) => Ty::unknown(),
            (_, other) => other.clone(),
        };
        Expr::new(
            ExprKind::Unary {
                op,
                expr: Box::new(inner),
            },
            ty,
            loc,
        )
    }

    fn index(&mut self, i: &syn::ExprIndex, loc: Loc) -> Expr {
        let (inner_expr, separated) = strip(&i.expr);
        if let syn::Expr::Index(inner) = inner_expr {
            let base = self.expr(&inner.expr);
            let subscripts = match base.ty.clone() {
                Ty::Matrix(_) if separated => {
                    return self.error(loc, diag::SEPARATED_SUBSCRIPTS);
                }
                Ty::Matrix(m) => {
                    let row = self.subscript(&inner.index, Axis::Row, &m.rows);
                    let col = self.subscript(&i.index, Axis::Column, &m.cols);
                    Some((row, col, Some(m)))
                }
                // A value the block cannot see (another block's matrix):
                // `matrix_core::KernelIndex` decides, with a matrix's checks.
                Ty::Other(_) if !separated => {
                    let row = self.unseen_index(&inner.index);
                    Some((row, self.unseen_index(&i.index), None))
                }
                _ => None,
            };
            if let Some((row, col, shape)) = subscripts {
                let (Some(row), Some(col)) = (row, col) else {
                    return self.poisoned(loc);
                };
                let base = Box::new(base);
                return match shape {
                    Some(m) => {
                        let elem = Ty::Scalar(m.elem);
                        let kind = ExprKind::Element {
                            base,
                            row,
                            col,
                            shape: m,
                        };
                        Expr::new(kind, elem, loc)
                    }
                    None => Expr::new(
                        ExprKind::UnseenElement { base, row, col },
                        Ty::unknown(),
                        loc,
                    ),
                };
            }
            let first = self.plain_index(base, &inner.index, Loc::of(inner));
            let first = if separated {
                let ty = first.ty.clone();
                let l = first.loc;
                Expr::new(ExprKind::Paren(Box::new(first)), ty, l)
            } else {
                first
            };
            return self.plain_index(first, &i.index, loc);
        }
        let base = self.expr(&i.expr);
        if base.ty.is_matrix() {
            return self.error(loc, diag::SINGLE_SUBSCRIPT);
        }
        self.plain_index(base, &i.index, loc)
    }

    /// Indexing something that is not a matrix (slices, arrays, `Vec`).
    /// A subscript of a value whose type the block cannot see: a constant
    /// (checked against the matrix's shape by rustc), or any integer.
    fn unseen_index(&mut self, index: &syn::Expr) -> Option<Index> {
        if let Some(v) = consteval::eval(index, &self.env.consts) {
            return match u64::try_from(v) {
                Ok(v) => Some(Index::Const(v)),
                Err(_) => {
                    let message = format!("index {v} is negative");
                    self.diags.error(Loc::of(index), message);
                    None
                }
            };
        }
        let checked = self.expr(index);
        (!checked.ty.is_error()).then(|| Index::Dynamic(Box::new(checked)))
    }

    fn plain_index(&mut self, base: Expr, index: &syn::Expr, loc: Loc) -> Expr {
        if base.ty.is_matrix() {
            return self.error(loc, diag::SINGLE_SUBSCRIPT);
        }
        if let Ty::Vector(v) = base.ty.clone() {
            return self.vector_index(base, index, &v, loc);
        }
        let idx = self.expr(index);
        // A slice, array or `Vec` indexed by an integer of another type, as
        // C indexes its arrays (`for (int i = 0; ..) a[i]`): read as `usize`
        // (a negative index is then out of bounds, and panics).
        let idx = match (&base.ty, &idx.ty) {
            (Ty::Seq { .. }, Ty::Scalar(s)) if s.is_integer() => as_usize(idx),
            _ => idx,
        };
        let ty = match (&base.ty, &idx.kind) {
            (Ty::Error, _) => Ty::Error,
            (Ty::Seq { elem, mutable, .. }, ExprKind::Range { .. }) => Ty::Seq {
                elem: elem.clone(),
                kind: SeqKind::Slice,
                mutable: *mutable,
            },
            (Ty::Seq { elem, .. }, _) => (**elem).clone(),
            _ => Ty::unknown(),
        };
        Expr::new(
            ExprKind::Index {
                base: Box::new(base),
                index: Box::new(idx),
            },
            ty,
            loc,
        )
    }

    /// One subscript of `m[r][c]`: constant ones are range-checked here.
    /// A row or column index of a matrix with `bound` lines: a constant
    /// is checked here (against a generic dimension, where the expansion
    /// checks it when the kernel is instantiated), another expression at
    /// run time.
    pub(super) fn subscript(
        &mut self,
        index: &syn::Expr,
        axis: Axis,
        bound: &Dim,
    ) -> Option<Index> {
        let loc = Loc::of(index);
        if let Some(v) = consteval::eval(index, &self.env.consts) {
            let outside = match bound {
                Dim::Known(bound) => v >= i128::from(*bound),
                Dim::Param(_) => false,
            };
            if v < 0 || outside {
                self.diags.error(loc, diag::index_out_of_range(axis, bound));
                return None;
            }
            if let Dim::Param(param) = bound {
                self.index_checks.push(ir::IndexCheck {
                    index: v as u64,
                    bound: param.clone(),
                    message: diag::index_out_of_range(axis, bound),
                    loc,
                });
            }
            return Some(Index::Const(v as u64));
        }
        let checked = self.expr(index);
        if checked.ty.is_error() {
            return None;
        }
        if !checked.ty.is_integer_like() {
            self.diags.error(loc, diag::index_not_integer(axis));
            return None;
        }
        Some(Index::Dynamic(Box::new(checked)))
    }

    fn cast(&mut self, c: &syn::ExprCast, loc: Loc) -> Expr {
        let inner = self.expr(&c.expr);
        let (target, tokens) = resolve_type(&c.ty, self.env, self.diags);
        if inner.ty.is_error() {
            return self.poisoned(loc);
        }
        if let Ty::Vector(to) = &target {
            return self.vector_cast(inner, &to.clone(), loc);
        }
        if let Ty::Vector(_) = &inner.ty
            && !target.is_error()
        {
            return self.error(loc, diag::invalid_ext_vector_conversion(&inner.ty, &target));
        }
        match (inner.ty.clone(), target.clone()) {
            (Ty::Error, _) | (_, Ty::Error) => self.poisoned(loc),
            (Ty::Matrix(from), Ty::Matrix(to)) => {
                if !from.same_shape(&to) {
                    return self.error(loc, diag::cast_between_sizes(&target, &inner.ty));
                }
                Expr::new(
                    ExprKind::MatrixCast {
                        expr: Box::new(inner),
                        to: to.clone(),
                    },
                    target,
                    loc,
                )
            }
            (s, Ty::Matrix(to)) if s.is_scalar_like() => {
                // The specification's scalar-to-matrix conversion (a broadcast);
                // explicit, so a literal converts silently, as in a C cast.
                let scalar = converted(inner, to.elem, loc);
                Expr::new(
                    ExprKind::Splat {
                        scalar: Box::new(scalar),
                        to: to.clone(),
                    },
                    target,
                    loc,
                )
            }
            (_, Ty::Matrix(_)) => self.error(loc, diag::cast_incompatible(&target, &inner.ty)),
            (Ty::Matrix(_), _) => self.error(loc, diag::cast_incompatible(&inner.ty, &target)),
            _ => Expr::new(
                ExprKind::Cast {
                    expr: Box::new(inner),
                    ty: tokens,
                },
                target,
                loc,
            ),
        }
    }

    fn call(&mut self, c: &syn::ExprCall, loc: Loc) -> Expr {
        if let syn::Expr::Path(p) = &*c.func
            && let Some(ident) = p.path.get_ident()
        {
            let name = ident.to_string();
            if name.starts_with("__builtin_matrix_") {
                return self.builtin(&name, c, loc);
            }
            if name == "__builtin_convertvector" {
                return self.convertvector(c, loc);
            }
            if self.lookup(&name).is_none()
                && let Some(sig) = self.env.kernels.get(&name).cloned()
            {
                return self.kernel_call(c, &sig.params, sig.ret, loc);
            }
            if self.lookup(&name).is_none() && super::cstring::is_string_function(&name) {
                return self.string_call(&name, c, loc);
            }
            if self.lookup(&name).is_none()
                && let Some(f) = super::cmath::lookup(&name)
            {
                return self.math_call(c, &f, loc);
            }
        }
        let func = self.expr(&c.func);
        let args = c.args.iter().map(|a| self.expr(a)).collect();
        Expr::new(
            ExprKind::Call {
                func: Box::new(func),
                args,
            },
            Ty::unknown(),
            loc,
        )
    }

    /// A `<math.h>` function: its arguments converted to its parameter
    /// type as C converts them (a literal at expansion time), then Rust's
    /// method of the same operation.
    fn math_call(&mut self, c: &syn::ExprCall, f: &super::cmath::CMath, loc: Loc) -> Expr {
        let have = c.args.len();
        if have < f.arity {
            return self.error(loc, diag::too_few_arguments(&f.arity.to_string(), have));
        }
        if have > f.arity {
            let extra = Loc::of(&c.args[f.arity]).to(Loc::of(&c.args[have - 1]));
            return self.error(extra, diag::too_many_arguments(&f.arity.to_string(), have));
        }
        let param = Ty::Scalar(f.ty);
        let mut args = Vec::with_capacity(have);
        for src in &c.args {
            let arg = self.expr(src);
            if arg.ty.is_error() {
                return self.poisoned(loc);
            }
            if arg.ty.is_matrix() {
                return self.error(arg.loc, diag::passing(&arg.ty, &param));
            }
            if matches!(arg.ty, Ty::Other(None)) && NumLit::of(src).is_none() {
                // Rust's own expression (`iter.sum()`): passed as it is, so
                // rustc infers it as the parameter type.
                args.push(arg);
                continue;
            }
            match self.element_operand(arg, src, f.ty) {
                Some(arg) => args.push(arg),
                None => return self.poisoned(loc),
            }
        }
        let ty = f.ty.to_tokens(loc.start);
        let method = syn::Ident::new(f.method, loc.start);
        let func = Expr::new(
            ExprKind::Path(quote::quote!(<#ty>::#method)),
            Ty::unknown(),
            loc,
        );
        let kind = ExprKind::Call {
            func: Box::new(func),
            args,
        };
        Expr::new(kind, param, loc)
    }

    fn kernel_call(&mut self, c: &syn::ExprCall, params: &[Ty], ret: Ty, loc: Loc) -> Expr {
        let syn::Expr::Path(func) = &*c.func else {
            unreachable!("a kernel call names the kernel by a path")
        };
        let Some(name) = func.path.get_ident().cloned() else {
            unreachable!("a kernel call names the kernel by one identifier")
        };
        let args: Vec<Expr> = c.args.iter().map(|a| self.expr(a)).collect();
        if args.len() < params.len() {
            return self.error(
                loc,
                diag::too_few_arguments(&params.len().to_string(), args.len()),
            );
        }
        if args.len() > params.len() {
            let extra = Loc::of(&c.args[params.len()]).to(Loc::of(&c.args[args.len() - 1]));
            return self.error(
                extra,
                diag::too_many_arguments(&params.len().to_string(), args.len()),
            );
        }
        // A scalar passed for a vector splats; a vector of another type is
        // Clang's error.
        let args: Vec<Expr> = args
            .into_iter()
            .zip(&c.args)
            .zip(params)
            .map(|((arg, src), param)| self.for_place(arg, src, param))
            .collect();
        let mut ok = true;
        // A generic kernel's dimensions take the arguments' dimensions, as
        // rustc infers them.
        let mut bound = Vec::new();
        let generic_callee = params
            .iter()
            .chain([&ret])
            .any(|t| matches!(t, Ty::Matrix(m) if m.is_generic()));
        for (arg, param) in args.iter().zip(params) {
            if arg.ty.is_error() {
                ok = false;
            } else if (arg.ty.is_matrix() || param.is_matrix())
                && !instantiates(param, &arg.ty, &mut bound)
                || matches!(param, Ty::Vector(_)) && !compatible(param, &arg.ty)
            {
                self.diags.error(arg.loc, diag::passing(&arg.ty, param));
                ok = false;
            }
        }
        if !ok {
            return self.poisoned(loc);
        }
        let ret = match ret {
            Ty::Matrix(m) => Ty::Matrix(MatTy {
                rows: instance(&m.rows, &bound),
                cols: instance(&m.cols, &bound),
                ..m
            }),
            other => other,
        };
        let kind = ExprKind::KernelCall {
            name,
            args,
            generic: generic_callee,
            on_callers_backend: false,
        };
        Expr::new(kind, ret, loc)
    }

    fn method_call(&mut self, m: &syn::ExprMethodCall, loc: Loc) -> Expr {
        let receiver = self.expr(&m.receiver);
        let args: Vec<Expr> = m.args.iter().map(|a| self.expr(a)).collect();
        let mut ty = Ty::unknown();
        if let Ty::Matrix(mat) = &receiver.ty {
            let method = m.method.to_string();
            if method == "transpose" && args.is_empty() {
                ty = Ty::Matrix(MatTy::unnamed(
                    mat.elem,
                    mat.cols.clone(),
                    mat.rows.clone(),
                    mat.layout,
                ));
            } else if method == "cast"
                && let Some(turbofish) = &m.turbofish
                && let Some(syn::GenericArgument::Type(t)) = turbofish.args.first()
                && let (Ty::Scalar(s), _) = resolve_type(t, self.env, self.diags)
                && s.is_element()
            {
                ty = Ty::Matrix(MatTy::unnamed(
                    s,
                    mat.rows.clone(),
                    mat.cols.clone(),
                    mat.layout,
                ));
            }
        }
        let kind = ExprKind::MethodCall {
            receiver: Box::new(receiver),
            method: m.method.clone(),
            turbofish: m.turbofish.as_ref().map(|t| t.to_token_stream()),
            args,
        };
        Expr::new(kind, ty, loc)
    }
}

/// Whether a value of type `from` may be passed to a kernel's parameter of
/// type `to`, where `to` may have the kernel's const generic dimensions:
/// the first argument to meet one binds it (into `bound`), and every other
/// must agree.
fn instantiates(to: &Ty, from: &Ty, bound: &mut Vec<(syn::Ident, Dim)>) -> bool {
    let (Ty::Matrix(to), Ty::Matrix(from)) = (to, from) else {
        return compatible(to, from);
    };
    let mut dim = |to: &Dim, from: &Dim| match to {
        Dim::Known(_) => to == from,
        Dim::Param(param) => match bound.iter().find(|(p, _)| p == param) {
            Some((_, earlier)) => earlier == from,
            None => {
                bound.push((param.clone(), from.clone()));
                true
            }
        },
    };
    to.elem == from.elem
        && to.layout == from.layout
        && dim(&to.rows, &from.rows)
        && dim(&to.cols, &from.cols)
}

/// A generic kernel's dimension as a call instantiates it.
fn instance(dim: &Dim, bound: &[(syn::Ident, Dim)]) -> Dim {
    match dim {
        Dim::Param(param) => bound
            .iter()
            .find(|(p, _)| p == param)
            .map_or_else(|| dim.clone(), |(_, d)| d.clone()),
        Dim::Known(_) => dim.clone(),
    }
}

/// Whether a value of type `from` may be used where `to` is expected,
/// as far as the matrix rules go (other mismatches are rustc's to report).
pub(super) fn compatible(to: &Ty, from: &Ty) -> bool {
    match (to, from) {
        (Ty::Error, _) | (_, Ty::Error) => true,
        (Ty::Matrix(a), Ty::Matrix(b)) => a.same_type(b),
        (Ty::Vector(a), Ty::Vector(b)) => a.same_type(b),
        (Ty::Matrix(_) | Ty::Vector(_), Ty::Other(None))
        | (Ty::Other(None), Ty::Matrix(_) | Ty::Vector(_)) => true,
        (Ty::Matrix(_) | Ty::Vector(_), _) | (_, Ty::Matrix(_) | Ty::Vector(_)) => false,
        _ => true,
    }
}

/// An integer `e` as a `usize` (an index or offset): `e as usize` unless it
/// is one, or a literal Rust infers as one.
pub(super) fn as_usize(e: Expr) -> Expr {
    if matches!(e.ty, Ty::Scalar(Scalar::Usize) | Ty::IntLiteral) {
        return e;
    }
    let (loc, span) = (e.loc, e.loc.start);
    let cast = ExprKind::Cast {
        expr: Box::new(e),
        ty: quote::quote_spanned!(span=> usize),
    };
    Expr::new(cast, Ty::Scalar(Scalar::Usize), loc)
}

/// A scalar condition as Rust's `bool`, as C reads one (`n ? a : b`, `if
/// (n)`, `while (n--)`, `n && m`): a number compared with zero, and C's
/// `!n` of a number `n == 0` (a number as a condition is no Rust, so `!`
/// there can only be C's logical not, not Rust's bitwise one); a `bool`,
/// or a value of a type the checker does not know, as it is.
fn truth(cond: Expr, logical_not: bool) -> Expr {
    let Expr { kind, ty, loc } = cond;
    let (n, nonzero) = match kind {
        // `if (!x)`: the parentheses C's statement needs are no operator.
        ExprKind::Paren(inner) | ExprKind::Group(inner) => return truth(*inner, logical_not),
        ExprKind::Unary {
            op: syn::UnOp::Not(_),
            expr,
        } if logical_not && zero_of(&expr).is_some() => (*expr, false),
        kind => (Expr::new(kind, ty, loc), true),
    };
    let Some(zero) = zero_of(&n) else {
        return n;
    };
    let op = if nonzero {
        syn::BinOp::Ne(syn::Token![!=](loc.start))
    } else {
        syn::BinOp::Eq(syn::Token![==](loc.start))
    };
    let (n_ty, n_loc) = (n.ty.clone(), n.loc);
    let kind = ExprKind::Binary {
        op,
        lhs: Box::new(Expr::new(ExprKind::Group(Box::new(n)), n_ty.clone(), n_loc)),
        rhs: Box::new(Expr::new(ExprKind::Verbatim(zero), n_ty, n_loc)),
    };
    Expr::new(kind, Ty::Scalar(Scalar::Bool), loc)
}

/// The zero of a number's type, written at `e`'s place; `None` for any
/// other type.
fn zero_of(e: &Expr) -> Option<proc_macro2::TokenStream> {
    let at = e.loc.start;
    Some(match &e.ty {
        Ty::Scalar(s) if s.is_element() => {
            let ty = s.to_tokens(at);
            quote::quote_spanned!(at=> <#ty as ::core::default::Default>::default())
        }
        Ty::IntLiteral => quote::quote_spanned!(at=> 0),
        Ty::FloatLiteral => quote::quote_spanned!(at=> 0.0),
        _ => return None,
    })
}

/// Whether `t` can move a pointer: an integer, not an unknown type.
fn offset(t: &Ty) -> bool {
    t.is_integer_like() && !matches!(t, Ty::Other(None) | Ty::Error)
}

/// C's `p + k` with `p` a pointer, a slice here: the slice from element
/// `k` on (`&p[k..]`, `&mut` where `p` is mutable), so that
/// `__builtin_matrix_column_major_load(p + k, ..)` reads where C's does. A
/// negative `k` is out of range, and panics.
fn pointer_offset(seq: Expr, offset: Expr, loc: Loc) -> Expr {
    let Ty::Seq { elem, mutable, .. } = seq.ty.clone() else {
        return seq;
    };
    let span = loc.start;
    let range = ExprKind::Range {
        start: Some(Box::new(as_usize(offset))),
        end: None,
        limits: syn::RangeLimits::HalfOpen(syn::Token![..](span)),
    };
    let range = Expr::new(range, Ty::Other(Some("range".into())), loc);
    let slice = Ty::Seq {
        elem,
        kind: SeqKind::Slice,
        mutable,
    };
    let index = ExprKind::Index {
        base: Box::new(seq),
        index: Box::new(range),
    };
    let index = Expr::new(index, slice.clone(), loc);
    let reference = ExprKind::Reference {
        mutable,
        expr: Box::new(index),
    };
    Expr::new(reference, slice, loc)
}

/// C's array where a pointer is wanted: `&a[0..]`, `&mut` where
/// `mutable`.
pub(super) fn decayed(array: Expr, mutable: bool) -> Expr {
    let mut array = array;
    if let Ty::Seq { mutable: m, .. } = &mut array.ty {
        *m = mutable;
    }
    let loc = array.loc;
    pointer_offset(array, Expr::usize_const(0, loc), loc)
}

/// C's usual arithmetic conversions of two scalar operands of different
/// types (`i < count` with an `int` and a `usize`, `x * n` with a `float`
/// and an `int`), which Rust would refuse: the one of the other type
/// converted (`as`, which converts as C does) to their common type, as
/// [`common_type`] defines it; an integer meeting a float literal
/// (`n * 0.5`) is a `double`, as in C. Shifts keep their operands (C
/// converts neither to the other), as do operands of any other type.
fn usual_conversions(op: &syn::BinOp, lhs: Expr, rhs: Expr) -> (Expr, Expr) {
    use syn::BinOp as B;
    let scalar = |t: &Ty| match t {
        Ty::Scalar(s) => Some(*s),
        // A float literal is C's `double`, which an integer meets as one.
        Ty::FloatLiteral => Some(Scalar::F64),
        _ => None,
    };
    let (Some(a), Some(b)) = (scalar(&lhs.ty), scalar(&rhs.ty)) else {
        return (lhs, rhs);
    };
    let literal = |t: &Ty| matches!(t, Ty::FloatLiteral);
    if (literal(&lhs.ty) && b.is_float()) || (literal(&rhs.ty) && a.is_float()) {
        // A float literal takes a float operand's type (Rust infers it).
        return (lhs, rhs);
    }
    let shift = matches!(op, B::Shl(_) | B::Shr(_));
    let Some(common) = common_type(a, b).filter(|_| a != b && !shift) else {
        return (lhs, rhs);
    };
    let convert = |e: Expr| {
        if matches!(e.ty, Ty::Scalar(s) if s == common) || literal(&e.ty) {
            return e;
        }
        cast(e, common)
    };
    (convert(lhs), convert(rhs))
}

/// `(e as T)`: a scalar converted as C converts it. In parentheses: `i as
/// usize < n` would read `<` as generics.
fn cast(e: Expr, to: Scalar) -> Expr {
    let (loc, span) = (e.loc, e.loc.start);
    let kind = ExprKind::Cast {
        expr: Box::new(e),
        ty: to.to_tokens(span),
    };
    let cast = Expr::new(kind, Ty::Scalar(to), loc);
    Expr::new(ExprKind::Paren(Box::new(cast)), Ty::Scalar(to), loc)
}

/// Whether C promotes an operand of type `s` to `int`: an integer type
/// narrower than `int` (`char`, `short` and their unsigned forms).
fn promotes(s: Scalar) -> bool {
    s.is_integer() && s.bits() < 32
}

/// The type C computes `a op b` in, for two arithmetic types of Rust's
/// primitives (`usize` and `isize` are `unsigned long` and `long`): the
/// wider float if either is one, else, after the promotion of types
/// narrower than `int` to `int`, the type of greater rank, unsigned where
/// the ranks tie or the signed type is no wider. `None` for anything else
/// (`bool`, `char`, the 128-bit integers, `f16` and `bf16`).
fn common_type(a: Scalar, b: Scalar) -> Option<Scalar> {
    let arithmetic = |s: Scalar| {
        s.is_element() && !matches!(s, Scalar::F16 | Scalar::BF16)
            || matches!(s, Scalar::Usize | Scalar::Isize)
    };
    if !arithmetic(a) || !arithmetic(b) {
        return None;
    }
    if a.is_float() || b.is_float() {
        let wide = |s: Scalar| if s.is_float() { s.bits() } else { 0 };
        return Some(if wide(a) >= wide(b) { a } else { b });
    }
    let promoted = |s: Scalar| if s.bits() < 32 { Scalar::I32 } else { s };
    let (a, b) = (promoted(a), promoted(b));
    if a == b {
        return Some(a);
    }
    // The pointer-sized types win a tie of width with their 64-bit twins,
    // so that an index stays a `usize`.
    let sized = |s: Scalar| matches!(s, Scalar::Usize | Scalar::Isize);
    let pick = |x: Scalar, y: Scalar| if sized(y) && !sized(x) { y } else { x };
    Some(match (a.is_signed(), b.is_signed()) {
        (sa, sb) if sa == sb => {
            if a.bits() > b.bits() || (a.bits() == b.bits() && pick(a, b) == a) {
                a
            } else {
                b
            }
        }
        _ => {
            let (signed, unsigned) = if a.is_signed() { (a, b) } else { (b, a) };
            if unsigned.bits() >= signed.bits() {
                unsigned
            } else {
                signed
            }
        }
    })
}

/// The type of a binary operation on two non-matrix operands.
fn scalar_binary_type(op: &syn::BinOp, lhs: &Ty, rhs: &Ty) -> Ty {
    use syn::BinOp as B;
    match op {
        B::Eq(_) | B::Ne(_) | B::Lt(_) | B::Le(_) | B::Gt(_) | B::Ge(_) | B::And(_) | B::Or(_) => {
            Ty::Scalar(Scalar::Bool)
        }
        _ => match (lhs, rhs) {
            (Ty::Scalar(s), _) | (_, Ty::Scalar(s)) => Ty::Scalar(*s),
            (Ty::FloatLiteral, _) | (_, Ty::FloatLiteral) => Ty::FloatLiteral,
            (Ty::IntLiteral, Ty::IntLiteral) => Ty::IntLiteral,
            _ => Ty::unknown(),
        },
    }
}

/// The value a closure's body gives: a block's tail expression, or the body.
pub(super) fn closure_tail(body: &syn::Expr) -> &syn::Expr {
    match body {
        syn::Expr::Block(b) => match b.block.stmts.last() {
            Some(syn::Stmt::Expr(tail, None)) => tail,
            _ => body,
        },
        _ => body,
    }
}

/// A closure's tokens before its body: `move |a, b: T| -> R`.
fn closure_head(c: &syn::ExprClosure) -> TokenStream {
    let syn::ExprClosure {
        attrs,
        lifetimes,
        constness,
        asyncness,
        capture,
        inputs_begin,
        inputs,
        inputs_end,
        output,
        ..
    } = c;
    quote::quote!(
        #(#attrs)* #lifetimes #constness #asyncness #capture
        #inputs_begin #inputs #inputs_end #output
    )
}

/// The name of a C cast's type when it is a single name the block does not
/// know (no typedef, no scalar).
fn unknown_type_name(ty: &syn::Type, env: &Env) -> Option<String> {
    let syn::Type::Path(p) = ty else {
        return None;
    };
    let name = p.path.get_ident()?.to_string();
    let known = env.typedefs.contains_key(&name) || Scalar::from_rust_name(&name).is_some();
    (!known).then_some(name)
}

/// `inner` converted to `elem` with `as` semantics (an explicit cast's
/// conversion, before a broadcast).
pub(super) fn converted(inner: Expr, elem: Scalar, loc: Loc) -> Expr {
    let kind = ExprKind::ConvertScalar {
        expr: Box::new(inner),
        to: elem,
    };
    Expr::new(kind, Ty::Scalar(elem), loc)
}

/// Whether an expression is a bare name (a format macro's `name = value`).
fn is_name(expr: &syn::Expr) -> bool {
    matches!(expr, syn::Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some())
}

/// std's macros that format or assert and return `()`.
const STD_STATEMENT_MACROS: &[&str] = &[
    "print",
    "println",
    "eprint",
    "eprintln",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
];

/// std's macros whose arguments are expressions and that return a value
/// (or never return).
const STD_VALUE_MACROS: &[&str] = &[
    "format",
    "write",
    "writeln",
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "vec",
    "dbg",
];

/// An element of a matrix value or a component of a vector value
/// (`(a + b)[0][1]`, `(v + w).x`): C has no storage to assign it.
fn is_unassignable_element(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Element { .. } | ExprKind::Index { .. }) && !e.is_place()
}

/// Whether an expression can stand left of `=` (`destructures`: Rust's
/// destructuring patterns too) or of a compound assignment: a place (a
/// name, an element, a field, a dereference), or a pattern of them. A
/// block, a literal or an operation is not, in C or in Rust.
fn assignable(e: &syn::Expr, destructures: bool) -> bool {
    match strip(e).0 {
        syn::Expr::Path(_)
        | syn::Expr::Index(_)
        | syn::Expr::Field(_)
        | syn::Expr::Macro(_)
        | syn::Expr::Unary(syn::ExprUnary {
            op: syn::UnOp::Deref(_),
            ..
        }) => true,
        syn::Expr::Tuple(_)
        | syn::Expr::Array(_)
        | syn::Expr::Call(_)
        | syn::Expr::Struct(_)
        | syn::Expr::Infer(_) => destructures,
        _ => false,
    }
}

/// `lhs op= rhs`, typed `()`.
fn compound_assign(op: syn::BinOp, lhs: Expr, rhs: Expr, loc: Loc) -> Expr {
    let kind = ExprKind::CompoundAssign {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    };
    Expr::new(kind, Ty::Unit, loc)
}

/// Whether a loop's condition is always true: `true`, or a nonzero
/// integer literal (C's `while (1)`).
fn forever(cond: &syn::Expr) -> bool {
    match strip(cond).0 {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => b.value,
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse::<u128>().is_ok_and(|v| v != 0),
        _ => false,
    }
}

/// Whether reading `e` again changes nothing and gives the same value: a
/// name, a literal, an element or field of one, or operators on them; no
/// call, assignment, block (`i++` is one) or macro.
fn rereadable(e: &syn::Expr) -> bool {
    match strip(e).0 {
        syn::Expr::Path(_) | syn::Expr::Lit(_) => true,
        syn::Expr::Index(i) => rereadable(&i.expr) && rereadable(&i.index),
        syn::Expr::Field(f) => rereadable(&f.base),
        syn::Expr::Unary(u) => rereadable(&u.expr),
        syn::Expr::Cast(c) => rereadable(&c.expr),
        syn::Expr::Binary(b) => {
            binary_of_assign(&b.op).is_none() && rereadable(&b.left) && rereadable(&b.right)
        }
        _ => false,
    }
}

/// Whether `e` (written as `src`) is a value whose type the block cannot
/// see (a kernel or typedef of another block, a method's result, a field
/// of a struct declared outside it), not a literal.
pub(super) fn unseen(e: &Expr, src: &syn::Expr) -> bool {
    matches!(e.ty, Ty::Other(None)) && NumLit::of(src).is_none()
}

/// The operator of a compound assignment: `+` for `+=`, and so on.
fn binary_of_assign(op: &syn::BinOp) -> Option<syn::BinOp> {
    use syn::BinOp as B;
    Some(match op {
        B::AddAssign(_) => B::Add(Default::default()),
        B::SubAssign(_) => B::Sub(Default::default()),
        B::MulAssign(_) => B::Mul(Default::default()),
        B::DivAssign(_) => B::Div(Default::default()),
        B::RemAssign(_) => B::Rem(Default::default()),
        B::BitAndAssign(_) => B::BitAnd(Default::default()),
        B::BitOrAssign(_) => B::BitOr(Default::default()),
        B::BitXorAssign(_) => B::BitXor(Default::default()),
        B::ShlAssign(_) => B::Shl(Default::default()),
        B::ShrAssign(_) => B::Shr(Default::default()),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Scalar::*;

    #[test]
    fn mixed_scalars_meet_in_cs_common_type() {
        // (a, b, C's type of a + b), with `long` for `isize`/`i64`.
        let cases = [
            (I32, F32, F32),
            (F32, F64, F64),
            (U64, F32, F32),
            (I32, U32, U32),
            (I64, U32, I64),
            (U64, I64, U64),
            (U8, I8, I32),
            (I16, U16, I32),
            (U16, U32, U32),
            (I32, Usize, Usize),
            (U64, Usize, Usize),
            (Usize, U64, Usize),
            (I64, Isize, Isize),
            (Isize, U32, Isize),
            (Isize, U64, U64),
        ];
        for (a, b, want) in cases {
            assert_eq!(common_type(a, b), Some(want), "{a:?} and {b:?}");
            assert_eq!(common_type(b, a), Some(want), "{b:?} and {a:?}");
        }
        for other in [Bool, Char, F16, BF16, I128] {
            assert_eq!(common_type(other, I32), None, "{other:?}");
        }
    }
}
