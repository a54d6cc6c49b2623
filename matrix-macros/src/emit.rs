//! Typed IR to tokens naming `::matrix_core` only.
//!
//! Matrix operations become calls of `Matrix`'s operators and of the
//! runtime's `private` helpers; everything else is re-emitted as written.
//! Nothing here decides semantics: the checker did.

use crate::check::{Program, Resolved};
use crate::ir::{ArithOp, Block, Contract, Expr, ExprKind, Index, Kernel, Stmt, Stride};
use crate::types::{MatTy, SeqKind, Ty, usize_lit};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};

pub(crate) fn emit(program: &Program) -> TokenStream {
    let mut out = TokenStream::new();
    for t in &program.typedefs {
        let attrs = &t.attrs;
        let vis = &t.vis;
        let name = &t.name;
        let span = name.span();
        let (target, doc) = match &t.target {
            Some(Resolved::Matrix(m)) => (
                m.to_tokens(span),
                format!(
                    "`{}`: a {}x{} matrix of `{}`, column-major.",
                    MatTy {
                        name: None,
                        ..m.clone()
                    },
                    m.rows,
                    m.cols,
                    m.elem.rust_name()
                ),
            ),
            Some(Resolved::Scalar(s)) => (s.to_tokens(span), format!("`{}`.", s.c_name())),
            None => (
                quote_spanned!(span=> ::matrix_core::private::InvalidMatrixType),
                String::new(),
            ),
        };
        let has_doc = attrs.iter().any(|a| a.path().is_ident("doc"));
        let doc = (!has_doc && !doc.is_empty()).then(|| quote!(#[doc = #doc]));
        out.extend(quote_spanned! {span=>
            #(#attrs)*
            #doc
            #[allow(non_camel_case_types)]
            #vis type #name = #target;
        });
    }
    out.extend(program.items.iter().cloned());
    for kernel in &program.kernels {
        out.extend(emit_kernel(kernel));
    }
    out
}

fn emit_kernel(k: &Kernel) -> TokenStream {
    let attrs = &k.attrs;
    let vis = &k.vis;
    let sig = &k.sig;
    if k.stub {
        // The signature alone, so callers still type-check while the body's
        // errors are reported by the macro.
        return quote! {
            #(#attrs)*
            #[allow(unused_variables, unused_mut)]
            #vis #sig { ::core::unreachable!() }
        };
    }
    let body = block(&k.body);
    // A kernel is a thin wrapper around shape-specialised code: let callers
    // in other codegen units and crates inline it, unless the user decided.
    let inline = (!attrs.iter().any(|a| a.path().is_ident("inline"))).then(|| quote!(#[inline]));
    quote! {
        #(#attrs)*
        #inline
        #vis #sig #body
    }
}

fn block(b: &Block) -> TokenStream {
    let stmts = b.stmts.iter().map(stmt);
    quote!({ #(#stmts)* })
}

fn stmt(s: &Stmt) -> TokenStream {
    match s {
        Stmt::Let {
            attrs,
            pat,
            ty,
            init,
            diverge,
        } => {
            let ty = ty.as_ref().map(|t| quote!(: #t));
            let init = init.as_ref().map(|i| {
                let e = expr(i);
                quote!(= #e)
            });
            let diverge = diverge.as_ref().map(|d| {
                let b = block(d);
                quote!(else #b)
            });
            quote!(#(#attrs)* let #pat #ty #init #diverge;)
        }
        Stmt::Expr { expr: e, semi } => {
            let e = expr(e);
            if *semi { quote!(#e;) } else { e }
        }
        Stmt::Verbatim(tokens) => tokens.clone(),
    }
}

/// An operand where Rust's precedence could split it: wrapped when needed.
fn operand(e: &Expr) -> TokenStream {
    let tokens = expr(e);
    match &e.kind {
        ExprKind::Binary { .. }
        | ExprKind::Unary { .. }
        | ExprKind::Cast { .. }
        | ExprKind::Range { .. }
        | ExprKind::Reference { .. }
        | ExprKind::Assign { .. }
        | ExprKind::CompoundAssign { .. }
        | ExprKind::If { .. }
        | ExprKind::Match { .. }
        | ExprKind::Block { .. }
        // Emitted as a block, which would start a statement at a tail's head.
        | ExprKind::Insert { .. }
        | ExprKind::Return(_)
        | ExprKind::Break { .. } => quote!((#tokens)),
        _ => tokens,
    }
}

fn index(i: &Index, axis: &str, bound: u64, span: Span) -> TokenStream {
    match i {
        Index::Const(v) => usize_lit(*v, span).into_token_stream(),
        Index::Dynamic(e) => {
            let e = expr(e);
            let bound = usize_lit(bound, span);
            let f = format_ident!("{}_index", axis, span = span);
            quote_spanned!(span=> ::matrix_core::private::#f(#e, #bound))
        }
    }
}

fn stride(s: &Stride, rows: u64, span: Span) -> TokenStream {
    let rows = usize_lit(rows, span);
    match s {
        Stride::Rows => rows.into_token_stream(),
        Stride::Const(v) => usize_lit(*v, span).into_token_stream(),
        Stride::Dynamic(e) => {
            let e = expr(e);
            quote_spanned!(span=> ::matrix_core::private::stride(#e, #rows))
        }
    }
}

fn op_trait(op: ArithOp, span: Span) -> TokenStream {
    match op {
        ArithOp::Add => quote_spanned!(span=> ::core::ops::Add::add),
        ArithOp::Sub => quote_spanned!(span=> ::core::ops::Sub::sub),
        ArithOp::Mul => quote_spanned!(span=> ::core::ops::Mul::mul),
        ArithOp::Div => quote_spanned!(span=> ::core::ops::Div::div),
    }
}

/// `&[T]` for a load/store from an operand of sequence type.
fn as_slice(e: &Expr, mutable: bool) -> TokenStream {
    let tokens = operand(e);
    match &e.ty {
        Ty::Seq {
            kind: SeqKind::Array | SeqKind::Vec,
            ..
        } if mutable => quote!(&mut #tokens[..]),
        Ty::Seq {
            kind: SeqKind::Array | SeqKind::Vec,
            ..
        } => quote!(&#tokens[..]),
        _ => tokens,
    }
}

fn expr(e: &Expr) -> TokenStream {
    let span = e.loc.start;
    match &e.kind {
        ExprKind::Elementwise { .. }
        | ExprKind::WithScalar { .. }
        | ExprKind::Product { .. }
        | ExprKind::ProductAdd { .. } => arithmetic(e, &expr),
        ExprKind::Transpose(m) => {
            let m = expr(m);
            quote_spanned!(span=> ::matrix_core::Matrix::transpose(#m))
        }
        ExprKind::ConvertScalar { expr: inner, to } => {
            let inner = expr(inner);
            let to = to.to_tokens(span);
            quote_spanned!(span=> ::matrix_core::private::convert::<#to, _>(#inner))
        }
        ExprKind::ConstScalar(tokens) => tokens.clone(),
        ExprKind::Element {
            base,
            row,
            col,
            shape,
        } => {
            let base = operand(base);
            let r = index(row, "row", shape.rows, span);
            let c = index(col, "column", shape.cols, span);
            quote_spanned!(span=> #base[(#r, #c)])
        }
        ExprKind::MatrixCast { expr: inner, to } => {
            let inner = expr(inner);
            let elem = to.elem.to_tokens(span);
            quote_spanned!(span=> ::matrix_core::Matrix::cast::<#elem>(#inner))
        }
        ExprKind::Splat { scalar, to } => {
            let s = expr(scalar);
            let ty = to.to_tokens(span);
            quote_spanned!(span=> <#ty>::splat(#s))
        }
        ExprKind::Load {
            src,
            to,
            stride: s,
            pointer,
        } => {
            let (elem, rows, cols) = (
                to.elem.to_tokens(span),
                usize_lit(to.rows, span),
                usize_lit(to.cols, span),
            );
            let s = stride(s, to.rows, span);
            if *pointer {
                let src = expr(src);
                quote_spanned!(span=> ::matrix_core::private::column_major_load_ptr::<#elem, #rows, #cols>(#src, #s))
            } else {
                let src = as_slice(src, false);
                quote_spanned!(span=> ::matrix_core::private::column_major_load::<#elem, #rows, #cols>(#src, #s))
            }
        }
        ExprKind::Store {
            matrix,
            dst,
            stride: s,
            pointer,
        } => {
            let Ty::Matrix(m) = &matrix.ty else {
                return quote!(());
            };
            let (elem, rows, cols) = (
                m.elem.to_tokens(span),
                usize_lit(m.rows, span),
                usize_lit(m.cols, span),
            );
            let s = stride(s, m.rows, span);
            let value = expr(matrix);
            if *pointer {
                let dst = expr(dst);
                quote_spanned!(span=> ::matrix_core::private::column_major_store_ptr::<#elem, #rows, #cols>(#value, #dst, #s))
            } else {
                let dst = as_slice(dst, true);
                quote_spanned!(span=> ::matrix_core::private::column_major_store::<#elem, #rows, #cols>(#value, #dst, #s))
            }
        }
        ExprKind::Insert {
            matrix,
            row,
            col,
            value,
        } => {
            let Ty::Matrix(m) = &e.ty else {
                return quote!(());
            };
            let (r, c) = (
                index(row, "row", m.rows, span),
                index(col, "column", m.cols, span),
            );
            let (matrix, value) = (expr(matrix), expr(value));
            let tmp = format_ident!("__matrix", span = Span::mixed_site());
            quote_spanned!(span=> { let mut #tmp = #matrix; #tmp[(#r, #c)] = #value; #tmp })
        }
        ExprKind::MatrixCompound { place, value } => {
            // `place = place op value`: the place is read, then written.
            let place_tokens = expr(place);
            let value = with_place(value, &place_tokens);
            quote_spanned!(span=> #place_tokens = #value)
        }
        ExprKind::PlaceValue => quote!(()),
        ExprKind::Path(tokens) | ExprKind::Verbatim(tokens) => tokens.clone(),
        ExprKind::Binary { op, lhs, rhs } => {
            let (l, r) = (expr(lhs), expr(rhs));
            quote!(#l #op #r)
        }
        ExprKind::Unary { op, expr: inner } => {
            let inner = expr(inner);
            quote!(#op #inner)
        }
        ExprKind::Call { func, args } => {
            let func = operand(func);
            let args = args.iter().map(expr);
            quote!(#func(#(#args),*))
        }
        ExprKind::MethodCall {
            receiver,
            method,
            turbofish,
            args,
        } => {
            let receiver = operand(receiver);
            let args = args.iter().map(expr);
            quote!(#receiver.#method #turbofish(#(#args),*))
        }
        ExprKind::Paren(inner) => {
            let inner = expr(inner);
            quote!((#inner))
        }
        ExprKind::Group(inner) => {
            let inner = expr(inner);
            proc_macro2::Group::new(proc_macro2::Delimiter::None, inner).into_token_stream()
        }
        ExprKind::Block {
            label,
            block: b,
            unsafety,
        } => {
            let b = block(b);
            let unsafety = unsafety.then(|| quote_spanned!(span=> unsafe));
            quote!(#label #unsafety #b)
        }
        ExprKind::If {
            cond,
            then,
            otherwise,
        } => {
            let cond = expr(cond);
            let then = block(then);
            let otherwise = otherwise.as_ref().map(|o| {
                let o = expr(o);
                quote!(else #o)
            });
            quote!(if #cond #then #otherwise)
        }
        ExprKind::While { label, cond, body } => {
            let (cond, body) = (expr(cond), block(body));
            quote!(#label while #cond #body)
        }
        ExprKind::Loop { label, body } => {
            let body = block(body);
            quote!(#label loop #body)
        }
        ExprKind::For {
            label,
            pat,
            iter,
            body,
        } => {
            let (iter, body) = (expr(iter), block(body));
            quote!(#label for #pat in #iter #body)
        }
        ExprKind::Match {
            expr: scrutinee,
            arms,
        } => {
            let scrutinee = expr(scrutinee);
            let arms = arms.iter().map(|arm| {
                let pat = &arm.pat;
                let guard = arm.guard.as_ref().map(|g| {
                    let g = expr(g);
                    quote!(if #g)
                });
                let body = expr(&arm.body);
                quote!(#pat #guard => #body,)
            });
            quote!(match #scrutinee { #(#arms)* })
        }
        ExprKind::Let { pat, expr: value } => {
            let value = expr(value);
            quote!(let #pat = #value)
        }
        ExprKind::Return(value) => {
            let value = value.as_ref().map(|v| expr(v));
            quote_spanned!(span=> return #value)
        }
        ExprKind::Break { label, expr: value } => {
            let value = value.as_ref().map(|v| expr(v));
            quote_spanned!(span=> break #label #value)
        }
        ExprKind::Continue(label) => quote_spanned!(span=> continue #label),
        ExprKind::Assign { lhs, rhs } => {
            let (l, r) = (expr(lhs), expr(rhs));
            quote!(#l = #r)
        }
        ExprKind::CompoundAssign { op, lhs, rhs } => {
            let (l, r) = (expr(lhs), expr(rhs));
            quote!(#l #op #r)
        }
        ExprKind::Field { base, member } => {
            let base = operand(base);
            quote!(#base.#member)
        }
        ExprKind::Index { base, index: i } => {
            let (base, i) = (operand(base), expr(i));
            quote!(#base[#i])
        }
        ExprKind::Reference {
            mutable,
            expr: inner,
        } => {
            let inner = expr(inner);
            if *mutable {
                quote!(&mut #inner)
            } else {
                quote!(&#inner)
            }
        }
        ExprKind::Cast { expr: inner, ty } => {
            let inner = operand(inner);
            quote!(#inner as #ty)
        }
        ExprKind::Tuple(elems) => {
            let elems = elems.iter().map(expr);
            if elems.len() == 1 {
                quote!((#(#elems,)*))
            } else {
                quote!((#(#elems),*))
            }
        }
        ExprKind::Array(elems) => {
            let elems = elems.iter().map(expr);
            quote!([#(#elems),*])
        }
        ExprKind::Repeat { expr: value, len } => {
            let value = expr(value);
            quote!([#value; #len])
        }
        ExprKind::Range { start, end, limits } => {
            let start = start.as_ref().map(|s| operand(s));
            let end = end.as_ref().map(|s| operand(s));
            quote!(#start #limits #end)
        }
        ExprKind::Try(inner) => {
            let inner = operand(inner);
            quote!(#inner?)
        }
    }
}

/// A product, or a fused product-add, on the runtime's product kernel; the
/// operands are passed in source order so they are evaluated in it.
fn product(
    lhs: &Expr,
    rhs: &Expr,
    addend: Option<(&Expr, bool)>,
    contract: Contract,
    span: Span,
    operand_tokens: &dyn Fn(&Expr) -> TokenStream,
) -> TokenStream {
    let (Ty::Matrix(a), Ty::Matrix(b)) = (&lhs.ty, &rhs.ty) else {
        return quote!(());
    };
    let elem = a.elem.to_tokens(span);
    let (m, k, n) = (
        usize_lit(a.rows, span),
        usize_lit(a.cols, span),
        usize_lit(b.cols, span),
    );
    let fast = contract == Contract::Fast;
    let (l, r) = (operand_tokens(lhs), operand_tokens(rhs));
    let generics = quote_spanned!(span=> ::<#elem, #m, #k, #n, #fast>);
    match addend {
        None => quote_spanned!(span=> ::matrix_core::private::product #generics(&#l, &#r)),
        Some((c, false)) => {
            let c = operand_tokens(c);
            quote_spanned!(span=> ::matrix_core::private::product_add #generics(&#l, &#r, &#c))
        }
        Some((c, true)) => {
            let c = operand_tokens(c);
            quote_spanned!(span=> ::matrix_core::private::addend_plus_product #generics(&#c, &#l, &#r))
        }
    }
}

/// Emits the value of a compound assignment, reading the place for
/// [`ExprKind::PlaceValue`].
fn with_place(value: &Expr, place: &TokenStream) -> TokenStream {
    let side = |e: &Expr| match e.kind {
        ExprKind::PlaceValue => place.clone(),
        _ => expr(e),
    };
    arithmetic(value, &side)
}

/// The matrix arithmetic nodes, their operands emitted by `operand`
/// (ordinarily [`expr`]; for a compound assignment, one that reads the place).
fn arithmetic(e: &Expr, operand: &dyn Fn(&Expr) -> TokenStream) -> TokenStream {
    let span = e.loc.start;
    match &e.kind {
        ExprKind::Elementwise { op, lhs, rhs }
        | ExprKind::WithScalar {
            op,
            matrix: lhs,
            scalar: rhs,
            scalar_first: false,
        } => {
            let f = op_trait(*op, span);
            let (l, r) = (operand(lhs), operand(rhs));
            quote_spanned!(span=> #f(#l, #r))
        }
        ExprKind::WithScalar {
            op,
            matrix,
            scalar,
            scalar_first: true,
        } => {
            let f = op_trait(*op, span);
            let (s, m) = (operand(scalar), operand(matrix));
            quote_spanned!(span=> #f(#s, #m))
        }
        ExprKind::Product { lhs, rhs, contract } => {
            product(lhs, rhs, None, *contract, span, operand)
        }
        ExprKind::ProductAdd {
            lhs,
            rhs,
            addend,
            addend_first,
            contract,
        } => product(
            lhs,
            rhs,
            Some((addend, *addend_first)),
            *contract,
            span,
            operand,
        ),
        _ => operand(e),
    }
}
