//! Typed IR to tokens naming `::matrix_core` only.
//!
//! Matrix operations become calls of `Matrix`'s operators and of the
//! runtime's `private` helpers; everything else is re-emitted as written.
//! Nothing here decides semantics: the checker did.

use crate::check::{Program, Resolved};
use crate::ir::{
    ArithOp, Block, Contract, Dispatch, Expr, ExprKind, Index, Kernel, MapBody, Stmt, Stride,
};
use crate::types::{Dim, Layout, MatTy, MemoryLayout, Scalar, SeqKind, Ty, usize_lit};
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
                    "`{}`: a {}x{} matrix of `{}`, {}.",
                    MatTy {
                        name: None,
                        ..m.clone()
                    },
                    m.rows,
                    m.cols,
                    m.elem.rust_name(),
                    m.layout.attribute_name().replace('_', "-"),
                ),
            ),
            Some(Resolved::Vector(v)) => (
                v.to_tokens(span),
                format!(
                    "`{} __attribute__((ext_vector_type({})))`: a vector of {} `{}`.",
                    v.elem.c_name(),
                    v.len,
                    v.len,
                    v.elem.rust_name()
                ),
            ),
            Some(Resolved::Scalar(s)) => (s.to_tokens(span), format!("`{}`.", s.c_name())),
            None => (
                quote_spanned!(span=> ::matrix_core::private::InvalidMatrixType),
                String::new(),
            ),
        };
        // An alias names its target, so the target counts as used.
        let target = match (&t.alias_of, &t.target) {
            (Some(of), Some(_)) => of.to_token_stream(),
            _ => target,
        };
        let has_doc = attrs.iter().any(|a| a.path().is_ident("doc"));
        let doc = (!has_doc && !doc.is_empty()).then(|| quote!(#[doc = #doc]));
        let used = t.named_in_kernels.then(|| quote!(#[allow(dead_code)]));
        out.extend(quote_spanned! {span=>
            #(#attrs)*
            #doc
            #[allow(non_camel_case_types)]
            #used
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
    let body = if k.stub {
        // The signature alone, so callers still type-check while the body's
        // errors are reported by the macro.
        quote!({ ::core::unreachable!() })
    } else {
        let stmts = k.body.stmts.iter().map(stmt);
        let traits = operand_traits();
        quote!({ #traits #(#stmts)* })
    };
    let body_fn = kernel_body_fn(k, body);
    let wrapper = match k.dispatch {
        Dispatch::PerCall if !k.stub => dispatched_wrapper(k),
        _ => wrapper(k),
    };
    quote!(#body_fn #wrapper)
}

/// The name of the `Dispatch` value every operation of a kernel body runs
/// on: `private::Auto` outside `#[dispatch]` kernels, a backend token inside.
fn isa() -> proc_macro2::Ident {
    format_ident!("__matrix_isa", span = Span::mixed_site())
}

/// The hidden function holding a kernel's body: the kernel's signature,
/// generic over where its operations run (`__D`), with the `Dispatch`
/// value as a first parameter.
fn body_fn_name(kernel: &syn::Ident) -> proc_macro2::Ident {
    format_ident!("__matrix_kernel_{}", kernel, span = kernel.span())
}

/// Where a kernel's attribute goes: the user's function, the hidden body,
/// or both.
fn attr_places(attr: &syn::Attribute) -> (bool, bool) {
    let path = attr.path();
    let lint_or_cfg = [
        "cfg",
        "cfg_attr",
        "allow",
        "warn",
        "deny",
        "forbid",
        "track_caller",
    ]
    .iter()
    .any(|name| path.is_ident(name));
    if path.is_ident("expect") {
        // Fulfilled by the body, where the user's code is.
        (false, true)
    } else if lint_or_cfg {
        (true, true)
    } else {
        (true, false)
    }
}

/// The body function keeps the kernel's `const`, `async` and `unsafe`: it is
/// what the kernel runs, so it can be called wherever the kernel can.
/// The traits of the operators whose operand types the macro cannot see
/// (`matrix_core::Kernel{Add,Sub,Mul,Div}`), in scope in every kernel body.
fn operand_traits() -> TokenStream {
    quote! {
        #[allow(unused_imports)]
        use ::matrix_core::{
            KernelAdd as _, KernelDiv as _, KernelIndex as _, KernelMul as _, KernelSub as _,
        };
    }
}

fn kernel_body_fn(k: &Kernel, body: TokenStream) -> TokenStream {
    let mut sig = k.sig.clone();
    sig.ident = body_fn_name(&k.sig.ident);
    sig.abi = None;
    let d = format_ident!("__D", span = Span::mixed_site());
    let lifetimes = sig
        .generics
        .params
        .iter()
        .take_while(|p| matches!(p, syn::GenericParam::Lifetime(_)))
        .count();
    sig.generics.params.insert(
        lifetimes,
        syn::parse_quote!(#d: ::matrix_core::private::Dispatch),
    );
    let isa = isa();
    sig.inputs.insert(0, syn::parse_quote!(#isa: #d));
    let attrs = k.attrs.iter().filter(|a| attr_places(a).1);
    quote! {
        #(#attrs)*
        #[doc(hidden)]
        #[inline(always)]
        // A C structure's initialiser sets its members after its zero.
        #[allow(
            clippy::too_many_arguments,
            clippy::field_reassign_with_default,
            unused_variables,
            unused_mut,
            non_snake_case
        )]
        #sig #body
    }
}

/// The kernel's own parameters renamed `__matrix_arg{i}`, and those names.
fn forwarded_params(sig: &syn::Signature) -> (syn::Signature, Vec<proc_macro2::Ident>) {
    let mut sig = sig.clone();
    let mut names = Vec::new();
    for (i, input) in sig.inputs.iter_mut().enumerate() {
        if let syn::FnArg::Typed(pt) = input {
            let name = format_ident!("__matrix_arg{}", i, span = Span::mixed_site());
            *pt.pat = syn::parse_quote!(#name);
            names.push(name);
        }
    }
    (sig, names)
}

/// The turbofish of a call of the kernel's body with `d` as its backend:
/// `::<d, T, N>` for the kernel's type and const parameters.
fn body_turbofish(sig: &syn::Signature, d: TokenStream) -> TokenStream {
    let params = sig.generics.params.iter().filter_map(|p| match p {
        syn::GenericParam::Lifetime(_) => None,
        syn::GenericParam::Type(t) => Some(t.ident.to_token_stream()),
        syn::GenericParam::Const(c) => Some(c.ident.to_token_stream()),
    });
    quote!(::<#d, #(#params),*>)
}

/// The attributes of the kernel's own function: the user's, and unless the
/// user decided, how it is inlined.
fn wrapper_attrs(k: &Kernel) -> TokenStream {
    let attrs = k.attrs.iter().filter(|a| attr_places(a).0);
    // A kernel is a thin wrapper around shape-specialised code: let callers
    // in other codegen units and crates inline it, unless the user decided.
    // A small one is always inlined in optimised builds, so that its
    // by-value matrices are not copied for the call (see the lowering's
    // `INLINE_WORK`); debug builds keep one copy of its written-out body.
    let user_decided = k.attrs.iter().any(|a| a.path().is_ident("inline"));
    let inline = if user_decided {
        None
    } else if k.inline_when_optimised {
        Some(
            quote!(#[cfg_attr(debug_assertions, inline)] #[cfg_attr(not(debug_assertions), inline(always))]),
        )
    } else {
        Some(quote!(#[inline]))
    };
    quote!(#(#attrs)* #inline)
}

/// A call of the kernel's body: `unsafe` when the kernel is an `unsafe fn`
/// (whose caller took on its obligations).
fn call_body(k: &Kernel, d: TokenStream, isa: TokenStream, args: &[TokenStream]) -> TokenStream {
    let body = body_fn_name(&k.sig.ident);
    let turbofish = body_turbofish(&k.sig, d);
    let mut call = quote!(#body #turbofish (#isa, #(#args),*));
    if k.sig.asyncness.is_some() {
        call = quote!(#call.await);
    }
    if matches!(k.sig.safety, syn::Safety::Unsafe(_)) {
        quote!(unsafe { #call })
    } else {
        call
    }
}

/// The kernel's function: its body on `private::Auto`, each operation
/// checking the detected backend.
fn wrapper(k: &Kernel) -> TokenStream {
    let attrs = wrapper_attrs(k);
    let vis = &k.vis;
    let (sig, args) = forwarded_params(&k.sig);
    let args: Vec<TokenStream> = args.iter().map(ToTokens::to_token_stream).collect();
    let auto = quote!(::matrix_core::private::Auto);
    let call = call_body(k, auto.clone(), auto, &args);
    let checks = index_checks(k);
    quote! {
        #attrs
        #vis #sig {
            #checks
            #call
        }
    }
}

/// The kernel's constant subscripts of generic dimensions, checked when
/// rustc instantiates the kernel's function: a failed check is a compile
/// error on the subscript, in the checker's words.
fn index_checks(k: &Kernel) -> TokenStream {
    if k.stub {
        return TokenStream::new();
    }
    k.index_checks
        .iter()
        .map(|c| {
            let span = c.loc.start;
            let (index, bound, message) = (usize_lit(c.index, span), &c.bound, &c.message);
            quote_spanned!(span=> const { ::core::assert!(#index < #bound, #message) };)
        })
        .collect()
}

/// A `#[dispatch]` kernel's function: one check of the backend, then the
/// body compiled for it (`private::dispatch_kernel`). The body is handed
/// over as a `private::KernelBody` of the tuple of the arguments, whose
/// types get named lifetimes (an impl cannot name elided ones).
fn dispatched_wrapper(k: &Kernel) -> TokenStream {
    let attrs = wrapper_attrs(k);
    let vis = &k.vis;
    let site = Span::mixed_site();
    let (sig, args) = forwarded_params(&k.sig);
    let mut lifetimes = Vec::new();
    let arg_types: Vec<syn::Type> = sig
        .inputs
        .iter()
        .filter_map(|input| match input {
            syn::FnArg::Typed(pt) => {
                let mut ty = (*pt.ty).clone();
                name_elided_lifetimes(&mut ty, &mut lifetimes);
                Some(ty)
            }
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let output = match &sig.output {
        syn::ReturnType::Default => quote!(()),
        syn::ReturnType::Type(_, ty) => ty.to_token_stream(),
    };
    let generics = &sig.generics;
    let where_clause = &generics.where_clause;
    // The marker type carries the kernel's type and const parameters.
    let kernel_ty = format_ident!("__MatrixKernel", span = site);
    let type_params: Vec<TokenStream> = generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Lifetime(_) => None,
            syn::GenericParam::Type(t) => {
                let ident = &t.ident;
                Some(quote!(#ident))
            }
            syn::GenericParam::Const(c) => {
                let (ident, ty) = (&c.ident, &c.ty);
                Some(quote!(const #ident: #ty))
            }
        })
        .collect();
    let marker_args = generics.params.iter().filter_map(|p| match p {
        syn::GenericParam::Lifetime(_) => None,
        syn::GenericParam::Type(t) => Some(t.ident.to_token_stream()),
        syn::GenericParam::Const(c) => Some(c.ident.to_token_stream()),
    });
    let marker_args: Vec<TokenStream> = marker_args.collect();
    let phantom_types = generics.params.iter().filter_map(|p| match p {
        syn::GenericParam::Type(t) => {
            let ident = &t.ident;
            Some(quote!(fn() -> #ident))
        }
        _ => None,
    });
    // Lifetimes first: the kernel's, then the named elided ones.
    let (user_lifetimes, others): (Vec<_>, Vec<_>) = generics
        .params
        .iter()
        .cloned()
        .partition(|p| matches!(p, syn::GenericParam::Lifetime(_)));
    let impl_params: Vec<syn::GenericParam> = user_lifetimes
        .into_iter()
        .chain(lifetimes.iter().map(|l| syn::parse_quote!(#l)))
        .chain(others)
        .collect();
    let d = format_ident!("__D", span = site);
    let isa = isa();
    let unpacked = format_ident!("__matrix_args", span = site);
    let fields: Vec<TokenStream> = (0..args.len())
        .map(|i| {
            let i = syn::Index::from(i);
            quote!(#unpacked.#i)
        })
        .collect();
    let call = call_body(k, d.to_token_stream(), isa.to_token_stream(), &fields);
    let checks = index_checks(k);
    quote! {
        #attrs
        #vis #sig {
            struct #kernel_ty<#(#type_params),*>(::core::marker::PhantomData<(#(#phantom_types,)*)>);
            impl<#(#impl_params),*> ::matrix_core::private::KernelBody<(#(#arg_types,)*)>
                for #kernel_ty<#(#marker_args),*> #where_clause
            {
                type Output = #output;
                #[inline(always)]
                fn run<#d: ::matrix_core::private::Dispatch>(
                    self,
                    #isa: #d,
                    #unpacked: (#(#arg_types,)*),
                ) -> #output {
                    #call
                }
            }
            #checks
            ::matrix_core::private::dispatch_kernel(
                #kernel_ty::<#(#marker_args),*>(::core::marker::PhantomData),
                (#(#args,)*),
            )
        }
    }
}

/// Gives every elided lifetime of a parameter type (`&[f32]`, `&'_ T`,
/// `Foo<'_>`) a name of its own, `'__matrix_lt{i}`, collected in `named`.
fn name_elided_lifetimes(ty: &mut syn::Type, named: &mut Vec<syn::Lifetime>) {
    let fresh = |named: &mut Vec<syn::Lifetime>| {
        let l = syn::Lifetime::new(&format!("'__matrix_lt{}", named.len()), Span::mixed_site());
        named.push(l.clone());
        l
    };
    match ty {
        syn::Type::Reference(r) => {
            if r.lifetime.as_ref().is_none_or(|l| l.ident == "_") {
                r.lifetime = Some(fresh(named));
            }
            name_elided_lifetimes(&mut r.elem, named);
        }
        syn::Type::Slice(s) => name_elided_lifetimes(&mut s.elem, named),
        syn::Type::Array(a) => name_elided_lifetimes(&mut a.elem, named),
        syn::Type::Ptr(p) => name_elided_lifetimes(&mut p.elem, named),
        syn::Type::Paren(p) => name_elided_lifetimes(&mut p.elem, named),
        syn::Type::Group(g) => name_elided_lifetimes(&mut g.elem, named),
        syn::Type::Tuple(t) => t
            .elems
            .iter_mut()
            .for_each(|e| name_elided_lifetimes(e, named)),
        syn::Type::Path(p) => {
            for seg in p.path.segments.iter_mut() {
                if let syn::PathArguments::AngleBracketed(args) = &mut seg.arguments {
                    for arg in args.args.iter_mut() {
                        match arg {
                            syn::GenericArgument::Lifetime(l) if l.ident == "_" => {
                                *l = fresh(named);
                            }
                            syn::GenericArgument::Type(t) => name_elided_lifetimes(t, named),
                            _ => {}
                        }
                    }
                }
            }
        }
        _ => {}
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
        | ExprKind::Map { .. }
        | ExprKind::SwizzleAssign { .. }
        | ExprKind::Transpose(_)
        | ExprKind::Product { .. }
        | ExprKind::ProductAdd { .. }
        | ExprKind::Return(_)
        | ExprKind::Break { .. }
        // An invisible group (a C cast's) at a statement's head is a whole
        // statement to rustc: `(T) m` as the matrix of
        // `__builtin_matrix_extract` in a kernel's tail was read as the
        // cast, then an array `[(r, c)]`.
        | ExprKind::Group(_) => quote!((#tokens)),
        _ => tokens,
    }
}

fn index(i: &Index, axis: &str, bound: &Dim, span: Span) -> TokenStream {
    match i {
        // Below a generic dimension, the kernel's function checks it.
        &Index::Const(v) => usize_lit(v, span).into_token_stream(),
        Index::Dynamic(e) => {
            let e = expr(e);
            let bound = bound.to_tokens(span);
            let f = format_ident!("{}_index", axis, span = span);
            quote_spanned!(span=> ::matrix_core::private::#f(#e, #bound))
        }
    }
}

/// `let name = &e;`, `e` emitted by `operand`: an operand that is a place
/// (a parameter, `*p`), or a load that reads in place (a reference to the
/// matrix in memory), is read where it is, with no copy; any other is a
/// temporary that the `let` keeps alive.
fn borrowed(
    name: &proc_macro2::Ident,
    e: &Expr,
    operand: &dyn Fn(&Expr) -> TokenStream,
    span: Span,
) -> TokenStream {
    match load_in_place(e) {
        Some(reference) => quote_spanned!(span=> let #name = #reference;),
        None => {
            let value = operand(e);
            quote_spanned!(span=> let #name = &#value;)
        }
    }
}

/// A reference to the matrix a load reads in place (`private::load_view`),
/// if `e` is such a load: what a product operand, or a `let` bound to a
/// reference, borrows instead of a copy. Elsewhere the load is a value.
fn load_in_place(e: &Expr) -> Option<TokenStream> {
    let span = e.loc.start;
    match &e.kind {
        ExprKind::Paren(inner) | ExprKind::Group(inner) => load_in_place(inner),
        ExprKind::Load {
            src,
            to,
            view: true,
            ..
        } => {
            let (elem, rows, cols, layout) = (
                to.elem.to_tokens(span),
                to.rows.to_tokens(span),
                to.cols.to_tokens(span),
                to.layout.to_tokens(span),
            );
            let src = as_slice(src, false);
            Some(
                quote_spanned!(span=> ::matrix_core::private::load_view::<#elem, #rows, #cols, #layout>(#src)),
            )
        }
        _ => None,
    }
}

/// The runtime's function for a load or store (`what`) in memory order
/// `memory`: `private::load`, `load_ptr`, `load_packed`, `load_packed_ptr`,
/// and the same for `store`.
fn memory_function(what: &str, memory: MemoryLayout, pointer: bool, span: Span) -> syn::Ident {
    let packed = if memory.is_packed() { "_packed" } else { "" };
    let pointer = if pointer { "_ptr" } else { "" };
    format_ident!("{what}{packed}{pointer}", span = span)
}

/// The stride of a load or store of an `m`-shaped matrix in memory order
/// `memory`.
fn stride(s: &Stride, m: &MatTy, memory: MemoryLayout, span: Span) -> TokenStream {
    match s {
        Stride::Dense => match memory.line_len(&m.rows, &m.cols, m.elem) {
            Some(len) => usize_lit(len, span).into_token_stream(),
            // A generic dimension: the length is computed when it is known.
            None => {
                let line = memory.line_dim(&m.rows, &m.cols).to_tokens(span);
                let group = usize_lit(memory.group(m.elem), span);
                quote_spanned!(span=> #line * #group)
            }
        },
        Stride::Const(v) => usize_lit(*v, span).into_token_stream(),
        Stride::Dynamic(e) => {
            let e = expr(e);
            let (rows, cols) = (m.rows.to_tokens(span), m.cols.to_tokens(span));
            if memory.is_packed() {
                // The load or store checks it against the packed line.
                let (elem, memory) = (m.elem.to_tokens(span), memory.to_tokens(span));
                quote_spanned!(span=> ::matrix_core::private::packed_stride::<#elem, _>(#e, #memory, #rows, #cols))
            } else {
                let memory = memory.lines().to_tokens(span);
                quote_spanned!(span=> ::matrix_core::private::stride::<#memory, _>(#e, #rows, #cols))
            }
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
        | ExprKind::ProductAdd { .. }
        | ExprKind::Map { .. } => arithmetic(e, &expr),
        ExprKind::Transpose(m) => transpose(m, span, None),
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
            let r = index(row, "row", &shape.rows, span);
            let c = index(col, "column", &shape.cols, span);
            quote_spanned!(span=> #base[(#r, #c)])
        }
        ExprKind::MatrixCast { expr: inner, to } => {
            let Ty::Matrix(from) = &inner.ty else {
                return quote!(());
            };
            let mut value = expr(inner);
            if from.elem != to.elem {
                let elem = to.elem.to_tokens(span);
                value = quote_spanned!(span=> ::matrix_core::Matrix::cast::<#elem>(#value));
            }
            if from.layout != to.layout {
                let layout = to.layout.to_tokens(span);
                value =
                    quote_spanned!(span=> ::matrix_core::Matrix::to_layout::<#layout>(&(#value)));
            }
            value
        }
        ExprKind::Splat { scalar, to } => {
            let s = expr(scalar);
            let (elem, rows, cols, layout) = (
                to.elem.to_tokens(span),
                to.rows.to_tokens(span),
                to.cols.to_tokens(span),
                to.layout.to_tokens(span),
            );
            quote_spanned!(span=> ::matrix_core::private::splat::<#elem, #rows, #cols, #layout>(#s))
        }
        ExprKind::Load {
            src,
            to,
            stride: s,
            pointer,
            memory,
            ..
        } => {
            let (elem, rows, cols) = (
                to.elem.to_tokens(span),
                to.rows.to_tokens(span),
                to.cols.to_tokens(span),
            );
            let s = stride(s, to, *memory, span);
            let src = if *pointer {
                expr(src)
            } else {
                as_slice(src, false)
            };
            let layout = to.layout.to_tokens(span);
            let func = memory_function("load", *memory, *pointer, span);
            let call = if memory.is_packed() {
                let memory = memory.to_tokens(span);
                quote_spanned!(span=> #func::<#elem, #rows, #cols, #layout>(#src, #memory, #s))
            } else {
                quote_spanned!(span=> #func::<#elem, #rows, #cols, #layout>(#src, #s))
            };
            quote_spanned!(span=> ::matrix_core::private::#call)
        }
        ExprKind::Store {
            matrix,
            dst,
            stride: s,
            pointer,
            memory,
        } => {
            let Ty::Matrix(m) = &matrix.ty else {
                return quote!(());
            };
            let (elem, rows, cols) = (
                m.elem.to_tokens(span),
                m.rows.to_tokens(span),
                m.cols.to_tokens(span),
            );
            let s = stride(s, m, *memory, span);
            let mut value = expr(matrix);
            let dst = if *pointer {
                expr(dst)
            } else {
                as_slice(dst, true)
            };
            if !memory.is_packed() && !*pointer && m.layout == memory.lines() {
                let sink = Sink {
                    dst: dst.clone(),
                    stride: s.clone(),
                    ty: m,
                };
                if let Some(stored) = stored_by_kernel(matrix, &sink) {
                    return stored;
                }
            }
            let func = memory_function("store", *memory, *pointer, span);
            let call = if memory.is_packed() {
                let (layout, memory) = (m.layout.to_tokens(span), memory.to_tokens(span));
                quote_spanned!(span=> #func::<#elem, #rows, #cols, #layout>(#value, #dst, #memory, #s))
            } else {
                let lines = memory.lines();
                if m.layout != lines {
                    // A matrix of the other layout is converted to the memory's.
                    let lines = lines.to_tokens(span);
                    value = quote_spanned!(span=> ::matrix_core::Matrix::to_layout::<#lines>(&(#value)));
                }
                let lines = lines.to_tokens(span);
                quote_spanned!(span=> #func::<#elem, #rows, #cols, #lines>(#value, #dst, #s))
            };
            quote_spanned!(span=> ::matrix_core::private::#call)
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
                index(row, "row", &m.rows, span),
                index(col, "column", &m.cols, span),
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
            let (mut l, r) = (expr(lhs), expr(rhs));
            if let ExprKind::Group(_) = lhs.kind {
                // rustc reads a C cast's invisible group through: `«r as
                // u32» << 24` would take `u32 <<` for generics.
                l = quote!((#l));
            }
            quote!(#l #op #r)
        }
        ExprKind::Unary { op, expr: inner } => {
            let inner = expr(inner);
            quote!(#op #inner)
        }
        ExprKind::Call { func, args } => {
            let func = operand(func);
            let args = args.iter().map(expr);
            quote_spanned!(span=> #func(#(#args),*))
        }
        ExprKind::KernelCall {
            name,
            args,
            on_callers_backend,
            ..
        } => {
            let args = args.iter().map(expr);
            if *on_callers_backend {
                let body = body_fn_name(name);
                let isa = isa();
                quote!(#body(#isa, #(#args),*))
            } else {
                quote!(#name(#(#args),*))
            }
        }
        ExprKind::MethodCall {
            receiver,
            method,
            turbofish,
            args,
        } => {
            let receiver = operand(receiver);
            let args = args.iter().map(expr);
            quote_spanned!(span=> #receiver.#method #turbofish(#(#args),*))
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
            let (l, r) = (place(lhs), expr(rhs));
            quote!(#l = #r)
        }
        ExprKind::CompoundAssign { op, lhs, rhs } => {
            let (l, r) = (place(lhs), expr(rhs));
            quote!(#l #op #r)
        }
        ExprKind::UnseenElement { .. } => unseen_element(e, false),
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
            if !*mutable && let Some(reference) = load_in_place(inner) {
                return reference;
            }
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
        ExprKind::Closure { head, body } => {
            let body = expr(body);
            quote!(#head #body)
        }
        ExprKind::Macro { mac, args } => {
            let path = &mac.path;
            let bang = &mac.bang_token;
            let args = args.iter().map(expr);
            let args = quote!(#(#args),*);
            let mut tokens = quote!(#path #bang);
            match &mac.delimiter {
                syn::MacroDelimiter::Paren(p) => p.surround(&mut tokens, |t| t.extend(args)),
                syn::MacroDelimiter::Brace(b) => b.surround(&mut tokens, |t| t.extend(args)),
                syn::MacroDelimiter::Bracket(b) => b.surround(&mut tokens, |t| t.extend(args)),
            }
            tokens
        }
        ExprKind::Swizzle { base, lanes, to } => {
            let v = format_ident!("__matrix_v", span = Span::mixed_site());
            let base = expr(base);
            let ty = to.to_tokens(span);
            let lanes = lanes.iter().map(|&l| usize_lit(l as u64, span));
            // A path call, not a block: it may start a statement.
            quote_spanned!(span=> <#ty>::from_array({ let #v = #base; [#(#v[#lanes]),*] }))
        }
        ExprKind::SwizzleAssign {
            place,
            lanes,
            value,
        } => {
            let (v, p) = (
                format_ident!("__matrix_v", span = Span::mixed_site()),
                format_ident!("__matrix_place", span = Span::mixed_site()),
            );
            let (place, value) = (expr(place), expr(value));
            let from = (0..lanes.len() as u64).map(|i| usize_lit(i, span));
            let to = lanes.iter().map(|&l| usize_lit(l as u64, span));
            quote_spanned!(span=> {
                let #v = #value;
                let #p = &mut #place;
                #( #p[#to] = #v[#from]; )*
            })
        }
        ExprKind::VectorCompare { op, lhs, rhs, mask } => {
            let (l, r, i) = (
                format_ident!("__matrix_l", span = Span::mixed_site()),
                format_ident!("__matrix_r", span = Span::mixed_site()),
                format_ident!("__matrix_i", span = Span::mixed_site()),
            );
            let test = if let syn::BinOp::And(_) | syn::BinOp::Or(_) = op {
                // A lane is true where it is not zero (`-0.0` is zero, a
                // NaN is not).
                let zero = match &lhs.ty {
                    Ty::Vector(v) => {
                        let elem = v.elem.to_tokens(span);
                        quote_spanned!(span=> <#elem as ::core::default::Default>::default())
                    }
                    _ => quote_spanned!(span=> ::core::default::Default::default()),
                };
                quote_spanned!(span=> (#l[#i] != #zero) #op (#r[#i] != #zero))
            } else {
                quote_spanned!(span=> #l[#i] #op #r[#i])
            };
            let (lhs, rhs) = (expr(lhs), expr(rhs));
            let ty = mask.to_tokens(span);
            quote_spanned!(span=> <#ty>::from_fn({
                let (#l, #r) = (#lhs, #rhs);
                move |#i| if #test { -1 } else { 0 }
            }))
        }
        ExprKind::VectorSelect {
            mask,
            then,
            otherwise,
            to,
        } => {
            let (c, a, b, i) = (
                format_ident!("__matrix_c", span = Span::mixed_site()),
                format_ident!("__matrix_a", span = Span::mixed_site()),
                format_ident!("__matrix_b", span = Span::mixed_site()),
                format_ident!("__matrix_i", span = Span::mixed_site()),
            );
            let (mask, then, otherwise) = (expr(mask), expr(then), expr(otherwise));
            let ty = to.to_tokens(span);
            // The sign bit, of a signed or an unsigned lane.
            quote_spanned!(span=> <#ty>::from_fn({
                let (#c, #a, #b) = (#mask, #then, #otherwise);
                move |#i| if #c[#i].leading_zeros() == 0 { #a[#i] } else { #b[#i] }
            }))
        }
        ExprKind::VectorLiteral { parts, to } => {
            let ty = to.to_tokens(span);
            let mut lets = Vec::new();
            let mut lanes = Vec::new();
            for (i, part) in parts.iter().enumerate() {
                let name = format_ident!("__matrix_part{}", i, span = Span::mixed_site());
                let value = expr(part);
                lets.push(quote_spanned!(span=> let #name = #value;));
                match &part.ty {
                    Ty::Vector(v) => lanes.extend((0..v.len).map(|l| {
                        let l = usize_lit(l, span);
                        quote_spanned!(span=> #name[#l])
                    })),
                    _ => lanes.push(name.into_token_stream()),
                }
            }
            while (lanes.len() as u64) < to.len {
                lanes.push(quote_spanned!(span=> ::core::default::Default::default()));
            }
            quote_spanned!(span=> <#ty>::from_array({ #(#lets)* [#(#lanes),*] }))
        }
        ExprKind::Line {
            matrix,
            index: i,
            is_row,
            bound,
            value,
        } => {
            let axis = if *is_row { "row" } else { "column" };
            let i = index(i, axis, bound, span);
            let m = expr(matrix);
            match value {
                None => {
                    let f = format_ident!("{}", axis, span = span);
                    quote_spanned!(span=> ::matrix_core::private::#f(&#m, #i))
                }
                Some(v) => {
                    let f = format_ident!("with_{}", axis, span = span);
                    let v = expr(v);
                    quote_spanned!(span=> ::matrix_core::private::#f(#m, #i, #v))
                }
            }
        }
        ExprKind::VectorSplat { scalar, to } => {
            let scalar = expr(scalar);
            let ty = to.to_tokens(span);
            quote_spanned!(span=> <#ty>::splat(#scalar))
        }
        ExprKind::NamedArg { name, value } => {
            let value = expr(value);
            quote!(#name = #value)
        }
    }
}

/// An expression written to: an element the block cannot see is reached
/// mutably.
fn place(e: &Expr) -> TokenStream {
    match &e.kind {
        ExprKind::UnseenElement { .. } => unseen_element(e, true),
        _ => expr(e),
    }
}

/// `x[r][c]` through `matrix_core::KernelIndex`: constant indices as const
/// parameters (a matrix checks them when the build monomorphises).
fn unseen_element(e: &Expr, mutable: bool) -> TokenStream {
    let span = e.loc.start;
    let ExprKind::UnseenElement { base, row, col } = &e.kind else {
        unreachable!("called on an element")
    };
    let base = operand(base);
    let method =
        |name: &str| format_ident!("{}{}", name, if mutable { "_mut" } else { "" }, span = span);
    match (row, col) {
        (Index::Const(r), Index::Const(c)) => {
            let (r, c) = (usize_lit(*r, span), usize_lit(*c, span));
            let m = method("kernel_at_const");
            quote_spanned!(span=> (*#base.#m::<#r, #c>()))
        }
        _ => {
            let at = |i: &Index| match i {
                Index::Const(v) => usize_lit(*v, span).into_token_stream(),
                Index::Dynamic(d) => {
                    let d = expr(d);
                    quote_spanned!(span=> ::matrix_core::private::unseen_index(#d))
                }
            };
            let (r, c) = (at(row), at(col));
            let m = method("kernel_at");
            quote_spanned!(span=> (*#base.#m(#r, #c)))
        }
    }
}

/// The largest transpose (in elements) written out in debug builds.
const STRAIGHT_LINE_TRANSPOSE: u64 = 256;

/// `transpose(m)` on the runtime's transpose (`private::transpose`, or
/// `private::store_transpose` where it is stored). A transpose returned by
/// value, up to 16x16, is written out as one array of the elements in
/// their new places in debug builds whose matrix-core is unoptimised
/// (`private::WRITE_OUT_DEBUG_TRANSPOSES`): at opt-level 0 that is a few
/// moves, not a call per element. A stored one runs on the runtime in
/// every build: written out, an 8x8 `f32` transpose stored into a slice
/// took 134 ns against the runtime's 104 ns (dev profile; 16x16: 313 ns
/// against 284 ns), and with matrix-core optimised 135 ns against 73 ns
/// (16x16: 326 ns against 134 ns; dev-profile benchmarks, AVX-512 Xeon).
fn transpose(m: &Expr, span: Span, sink: Option<&Sink>) -> TokenStream {
    let Ty::Matrix(shape) = &m.ty else {
        return quote!(());
    };
    let site = Span::mixed_site();
    let name = format_ident!("__transpose_operand", span = site);
    let operand = borrowed(&name, m, &expr, span);
    let isa = isa();
    // A stored transpose's destination, evaluated once after the operand.
    let (sink, bind_sink) = sink.map(|s| s.bound(span)).unzip();
    let kernel = match &sink {
        Some(Sink { dst, stride, .. }) => {
            quote_spanned!(span=> ::matrix_core::private::store_transpose(#isa, #name, #dst, #stride))
        }
        None => quote_spanned!(span=> ::matrix_core::private::transpose(#isa, #name)),
    };
    // The written-out form names the elements of a column-major matrix
    // of a known shape.
    let written_out = match (shape.rows.known(), shape.cols.known()) {
        (Some(rows), Some(cols))
            if sink.is_none()
                && rows * cols <= STRAIGHT_LINE_TRANSPOSE
                && shape.layout == Layout::ColumnMajor =>
        {
            Some((rows, cols))
        }
        _ => None,
    };
    let Some((shape_rows, shape_cols)) = written_out else {
        return quote_spanned!(span=> { #operand #bind_sink #kernel });
    };
    let element = |r: u64, c: u64| format_ident!("__t_{}_{}", r, c, span = site);
    let columns = (0..shape_cols).map(|c| {
        let column = (0..shape_rows).map(|r| element(r, c));
        quote!([#(#column),*])
    });
    // Column `r` of the result is row `r` of the operand.
    let transposed = (0..shape_rows).map(|r| {
        let row = (0..shape_cols).map(|c| element(r, c));
        quote!([#(#row),*])
    });
    let elem = shape.elem.to_tokens(span);
    let (rows, cols) = (shape.cols.to_tokens(span), shape.rows.to_tokens(span));
    let written = quote_spanned!(span=> ::matrix_core::Matrix::<#elem, #rows, #cols>::from_columns([#(#transposed),*]));
    quote_spanned! {span=> {
        #operand
        if ::core::cfg!(debug_assertions) && ::matrix_core::private::WRITE_OUT_DEBUG_TRANSPOSES {
            let [#(#columns),*] = *::matrix_core::Matrix::as_columns(#name);
            #written
        } else {
            #kernel
        }
    }}
}

/// The layout of a matrix expression's value.
fn layout_of(e: &Expr) -> Layout {
    match &e.ty {
        Ty::Matrix(m) => m.layout,
        _ => Layout::ColumnMajor,
    }
}

/// The matrix under a `__builtin_matrix_transpose` operand, if it is one.
fn transposed(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Paren(inner) | ExprKind::Group(inner) => transposed(inner),
        ExprKind::Transpose(inner) => Some(inner),
        _ => None,
    }
}

/// A product operand with its layout conversions folded: the matrix under
/// casts that change only the layout (`(m_rm_t) a`), which the runtime
/// reads in its own layout, in place. A product's value does not depend
/// on its operands' layouts.
fn unconverted(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Paren(inner) | ExprKind::Group(inner) => unconverted(inner),
        ExprKind::MatrixCast { expr: inner, to } => match &inner.ty {
            Ty::Matrix(from) if from.elem == to.elem => unconverted(inner),
            _ => e,
        },
        _ => e,
    }
}

/// The 8-bit matrix under a conversion of it to `int` (`(int_m_t) a`, and
/// the widening of `__builtin_matrix_mad`), if `e` is one.
fn widened_byte(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Paren(inner) | ExprKind::Group(inner) => widened_byte(inner),
        ExprKind::MatrixCast { expr: inner, to } if to.elem == Scalar::I32 => match &inner.ty {
            Ty::Matrix(from) if matches!(from.elem, Scalar::I8 | Scalar::U8) => {
                Some(unconverted(inner))
            }
            _ => None,
        },
        _ => None,
    }
}

/// A product (and addend) of two 8-bit matrices widened to `int`, on the
/// runtime's widening multiply-accumulate (`Matrix::mad`), which runs the
/// CPU's int8 dot-product kernels: the same wrapping `i32` sums as widening
/// first, without the widened copies. The operands are evaluated once, in
/// source order (the addend first for `c + a * b`).
fn widening_mad(
    (a, b, addend): (&Expr, &Expr, Option<(&Expr, bool)>),
    out: Layout,
    span: Span,
    operand_tokens: &dyn Fn(&Expr) -> TokenStream,
) -> TokenStream {
    let (Ty::Matrix(a_ty), Ty::Matrix(b_ty)) = (&a.ty, &b.ty) else {
        return quote!(());
    };
    let site = Span::mixed_site();
    let (name_a, name_b, name_c) = (
        format_ident!("__mad_lhs", span = site),
        format_ident!("__mad_rhs", span = site),
        format_ident!("__mad_addend", span = site),
    );
    let bind = |name: &proc_macro2::Ident, e: &Expr| {
        let value = operand_tokens(e);
        quote_spanned!(span=> let #name = &#value;)
    };
    let (m, n) = (a_ty.rows.to_tokens(span), b_ty.cols.to_tokens(span));
    let layout = out.to_tokens(span);
    let zero = quote_spanned!(span=> let #name_c = &::matrix_core::Matrix::<i32, #m, #n, #layout>::default(););
    let (first, last) = match addend {
        Some((c, true)) => (Some(bind(&name_c, c)), None),
        Some((c, false)) => (None, Some(bind(&name_c, c))),
        None => (None, Some(zero)),
    };
    let (bind_a, bind_b) = (bind(&name_a, a), bind(&name_b, b));
    quote_spanned! {span=> {
        #first
        #bind_a
        #bind_b
        #last
        ::matrix_core::Matrix::mad(#name_a, #name_b, #name_c)
    }}
}

/// The call of the runtime's product (`private::product`, or
/// `private::store_product` into `sink`) on the operands bound to `l`, `r`
/// and the addend `c`; `l_t` and `r_t` say that `l` and
/// `r` are the untransposed matrices of transposed operands (the runtime
/// decides how to read each).
fn kernel_call(
    a: &MatTy,
    b: &MatTy,
    (out, contract): (Layout, Contract),
    span: Span,
    (l, l_t): (&proc_macro2::Ident, bool),
    (r, r_t): (&proc_macro2::Ident, bool),
    (c, sink): (Option<&proc_macro2::Ident>, Option<&Sink>),
) -> TokenStream {
    let elem = a.elem.to_tokens(span);
    let (m, k, n) = (
        a.rows.to_tokens(span),
        a.cols.to_tokens(span),
        b.cols.to_tokens(span),
    );
    let fast = contract == Contract::Fast;
    let layout = |transposed: bool| {
        if transposed {
            quote_spanned!(span=> Transposed)
        } else {
            quote_spanned!(span=> Plain)
        }
    };
    let (lhs, rhs) = (layout(l_t), layout(r_t));
    let c = match c {
        Some(c) => c.to_token_stream(),
        None => quote_spanned!(span=> ()),
    };
    let isa = isa();
    let out = out.to_tokens(span);
    let (function, sink) = match sink {
        Some(Sink { dst, stride, .. }) => (quote!(store_product), Some(quote!(#dst, #stride,))),
        None => (quote!(product), None),
    };
    quote_spanned! {span=>
        ::matrix_core::private::#function::<_, #elem, #m, #k, #n, #fast, #out>(
            #isa,
            ::matrix_core::private::#lhs(#l),
            ::matrix_core::private::#rhs(#r),
            #c,
            #sink
        )
    }
}

/// The store of `e` into `sink` when `e` is a product (or a fused
/// product-add) or a transpose, whose kernel then writes into memory
/// itself.
fn stored_by_kernel(e: &Expr, sink: &Sink) -> Option<TokenStream> {
    match &e.kind {
        ExprKind::Paren(inner) | ExprKind::Group(inner) => stored_by_kernel(inner, sink),
        ExprKind::Transpose(m) => Some(transpose(m, e.loc.start, Some(sink))),
        _ => product_node(e, &expr, Some(sink)),
    }
}

/// A product or fused product-add node on the runtime's kernel (its value
/// stored into `sink` when there is one), its operands emitted by
/// `operand`; `None` for any other node.
fn product_node(
    e: &Expr,
    operand: &dyn Fn(&Expr) -> TokenStream,
    sink: Option<&Sink>,
) -> Option<TokenStream> {
    let (lhs, rhs, addend, contract) = match &e.kind {
        ExprKind::Product { lhs, rhs, contract } => (lhs, rhs, None, contract),
        ExprKind::ProductAdd {
            lhs,
            rhs,
            addend,
            addend_first,
            contract,
        } => (lhs, rhs, Some((&**addend, *addend_first)), contract),
        _ => return None,
    };
    let out = (layout_of(e), *contract);
    Some(product(lhs, rhs, addend, out, e.loc.start, operand, sink))
}

/// Where a stored product or transpose goes: a column-major store of a
/// column-major matrix (or row-major of row-major) into a slice, `dst` and
/// `stride` the store's arguments, `ty` the stored matrix's type. The
/// kernel writes the slice itself where its lines are dense
/// (`private::store_product`, `private::store_transpose`).
struct Sink<'a> {
    dst: TokenStream,
    stride: TokenStream,
    ty: &'a MatTy,
}

impl Sink<'_> {
    /// The sink with its destination and stride evaluated once, into
    /// locals (the `let`s returned, to be placed after the operands', as
    /// the store's own arguments are evaluated after its value): for a
    /// value computed in two forms.
    fn bound(&self, span: Span) -> (Sink<'_>, TokenStream) {
        let site = Span::mixed_site();
        let (dst, stride) = (
            format_ident!("__store_dst", span = site),
            format_ident!("__store_stride", span = site),
        );
        let (dst_value, stride_value) = (&self.dst, &self.stride);
        let lets = quote_spanned!(span=> let #dst = #dst_value; let #stride = #stride_value;);
        let bound = Sink {
            dst: dst.into_token_stream(),
            stride: stride.into_token_stream(),
            ty: self.ty,
        };
        (bound, lets)
    }

    /// `value` stored into `sink` where there is one.
    fn stored(sink: Option<&Sink>, value: TokenStream, span: Span) -> TokenStream {
        match sink {
            Some(sink) => sink.store(value, span),
            None => value,
        }
    }

    /// The store of `value`, a matrix computed otherwise.
    fn store(&self, value: TokenStream, span: Span) -> TokenStream {
        let Sink { dst, stride, ty } = self;
        let (elem, rows, cols, layout) = (
            ty.elem.to_tokens(span),
            ty.rows.to_tokens(span),
            ty.cols.to_tokens(span),
            ty.layout.to_tokens(span),
        );
        quote_spanned!(span=> ::matrix_core::private::store::<#elem, #rows, #cols, #layout>(#value, #dst, #stride))
    }
}

/// The largest product (`M * K * N` multiply-adds, an 8x8 by 8x8) written
/// out element by element for debug builds.
const STRAIGHT_LINE_TERMS: u64 = 512;

/// A product, or a fused product-add, on the runtime's product kernel
/// (`private::product`). The operands are evaluated once, in source order
/// (the addend first for `c + a * b`), and bound by reference: an operand
/// that is a place (a parameter, `*p`) is read where it is.
///
/// A transposed operand is handed over untransposed, marked as such: the
/// runtime reads a transposed right operand in place and transposes a left
/// one first.
///
/// Products of up to [`STRAIGHT_LINE_TERMS`] multiply-adds have a second
/// form for debug builds (`debug_assertions`), where at opt-level 0 the
/// kernel's vocabulary is not inlined and a 4x4 product costs hundreds of
/// calls:
/// * an unfused product of plain operands in the result's layout runs on
///   `private::product_same_layout`, what `Matrix`'s `*` runs: loops over
///   the storage's lines inlined into the kernel where matrix-core is
///   unoptimised, the kernel where it is optimised (a 4x4 `f32` product
///   took 105 ns that way and 147 ns written out, an 8x8 one 669 ns and
///   1,447 ns: dev profile, on an AVX-512 Xeon); stored into a slice, its
///   kernel call (`private::store_product`) writes the slice on those
///   same loops there;
/// * any other column-major one (fused, or with a transposed operand) is
///   written out, element by element: a few hundred plain instructions.
///
/// Every form computes every sum in the same order (`a[r][0] * b[0][c]`,
/// then `+ a[r][k] * b[k][c]` for each `k`, then the addend), and under
/// `#[fp_contract(fast)]` the written-out form fuses the steps exactly
/// when `private::fuses` says the kernel does on the backend at hand, so
/// the bits do not depend on the profile. A transposed operand is read in
/// place in the written-out form (its elements are named the other way
/// round).
fn product(
    lhs: &Expr,
    rhs: &Expr,
    addend: Option<(&Expr, bool)>,
    (out, contract): (Layout, Contract),
    span: Span,
    operand_tokens: &dyn Fn(&Expr) -> TokenStream,
    sink: Option<&Sink>,
) -> TokenStream {
    // Layout conversions of an operand are folded into its read.
    let (lhs, rhs) = (unconverted(lhs), unconverted(rhs));
    if let (Some(a), Some(b)) = (widened_byte(lhs), widened_byte(rhs)) {
        let value = widening_mad((a, b, addend), out, span, operand_tokens);
        return Sink::stored(sink, value, span);
    }
    let (Ty::Matrix(a), Ty::Matrix(b)) = (&lhs.ty, &rhs.ty) else {
        return quote!(());
    };
    let elem = a.elem;
    let (m, k, n) = (&a.rows, &a.cols, &b.cols);
    let fast = contract == Contract::Fast;
    let site = Span::mixed_site();
    let (name_a, name_b, name_c) = (
        format_ident!("__product_lhs", span = site),
        format_ident!("__product_rhs", span = site),
        format_ident!("__product_addend", span = site),
    );
    // A transposed operand is bound untransposed.
    let (lhs_inner, rhs_inner) = (transposed(lhs), transposed(rhs));
    // The operands, bound in source order (the addend first for `c + a * b`).
    // By reference: an operand that is a place (a parameter, `*p`) is then
    // read where it is, with no copy; any other is a temporary that the
    // `let` keeps alive.
    let bind = |name: &proc_macro2::Ident, e: &Expr| borrowed(name, e, operand_tokens, span);
    let mut lets = Vec::new();
    if let Some((c, true)) = addend {
        lets.push(bind(&name_c, c));
    }
    lets.push(bind(&name_a, lhs_inner.unwrap_or(lhs)));
    lets.push(bind(&name_b, rhs_inner.unwrap_or(rhs)));
    if let Some((c, false)) = addend {
        lets.push(bind(&name_c, c));
    }

    let kernel = |sink: Option<&Sink>| {
        kernel_call(
            a,
            b,
            (out, contract),
            span,
            (&name_a, lhs_inner.is_some()),
            (&name_b, rhs_inner.is_some()),
            (addend.map(|_| &name_c), sink),
        )
    };
    // The shape where it is known, when the product is small enough for a
    // debug form.
    let small = match (m.known(), k.known(), n.known()) {
        (Some(m), Some(k), Some(n)) if m * k * n <= STRAIGHT_LINE_TERMS => Some((m, k, n)),
        _ => None,
    };
    // An unfused product of plain operands in the result's layout: in
    // debug builds, the runtime's form for them (`Matrix`'s `*`). Stored,
    // it is the kernel call, which writes the destination itself, on
    // that same form where matrix-core is unoptimised.
    let same_layout =
        !fast && lhs_inner.is_none() && rhs_inner.is_none() && a.layout == out && b.layout == out;
    if small.is_some() && same_layout && sink.is_none() {
        let kernel = kernel(None);
        let c = match addend {
            Some(_) => name_c.to_token_stream(),
            None => quote_spanned!(span=> ()),
        };
        let isa = isa();
        return quote_spanned! {span=> {
            #(#lets)*
            if ::core::cfg!(debug_assertions) {
                ::matrix_core::private::product_same_layout(#isa, #name_a, #name_b, #c)
            } else {
                #kernel
            }
        }};
    }
    // The written-out form names the elements of column-major matrices.
    let column_major = |t: &MatTy| t.layout == Layout::ColumnMajor;
    let written_out = small.filter(|_| {
        !same_layout && column_major(a) && column_major(b) && out == Layout::ColumnMajor
    });
    let Some((m, k, n)) = written_out else {
        let kernel = kernel(sink);
        return quote_spanned! {span=> {
            #(#lets)*
            #kernel
        }};
    };
    // A stored product's destination, evaluated once after the operands,
    // for both forms.
    let (bound_sink, bind_sink) = sink.map(|s| s.bound(span)).unzip();
    let kernel = kernel(bound_sink.as_ref());

    // `let [[x_0_0, x_1_0, ..], ..] = *as_columns(&x);`: one local per
    // element, named by its place in the operand as the product uses it.
    let element =
        |prefix: &str, r: u64, c: u64| format_ident!("__{}_{}_{}", prefix, r, c, span = site);
    let destructure = |name: &proc_macro2::Ident, prefix: &str, rows: u64, cols: u64, t: bool| {
        // Stored `rows x cols`; when transposed, stored element (r, c) is
        // the operand's (c, r).
        let (rows, cols) = if t { (cols, rows) } else { (rows, cols) };
        let columns = (0..cols).map(|c| {
            let column = (0..rows).map(|r| {
                if t {
                    element(prefix, c, r)
                } else {
                    element(prefix, r, c)
                }
            });
            quote!([#(#column),*])
        });
        quote_spanned!(span=> let [#(#columns),*] = *::matrix_core::Matrix::as_columns(#name);)
    };
    let unpack_a = destructure(&name_a, "a", m, k, lhs_inner.is_some());
    let unpack_b = destructure(&name_b, "b", k, n, rhs_inner.is_some());
    let unpack_c = addend.map(|_| destructure(&name_c, "c", m, n, false));

    let elem_tokens = elem.to_tokens(span);
    let (m_lit, n_lit) = (usize_lit(m, span), usize_lit(n, span));
    // The element operations are the runtime's (`private::add` and the
    // others: wrapping for integers), always inlined, so there is no call
    // even at opt-level 0.
    let sums = |fused: bool| {
        let columns = (0..n).map(|c| {
            let column = (0..m).map(|r| {
                let (a0, b0) = (element("a", r, 0), element("b", 0, c));
                let mut acc = quote!(::matrix_core::private::mul(#a0, #b0));
                for step in 1..k {
                    let (x, y) = (element("a", r, step), element("b", step, c));
                    acc = if fused {
                        quote!(::matrix_core::private::mul_add(#x, #y, #acc))
                    } else {
                        quote!(::matrix_core::private::add(#acc, ::matrix_core::private::mul(#x, #y)))
                    };
                }
                if addend.is_some() {
                    let z = element("c", r, c);
                    acc = quote!(::matrix_core::private::add(#acc, #z));
                }
                acc
            });
            quote!([#(#column),*])
        });
        quote_spanned!(span=> ::matrix_core::Matrix::<#elem_tokens, #m_lit, #n_lit>::from_columns([#(#columns),*]))
    };
    let isa = isa();
    let written_out = if fast {
        let (fused, unfused) = (sums(true), sums(false));
        quote_spanned! {span=>
            if ::matrix_core::private::fuses::<#elem_tokens, _>(#isa) { #fused } else { #unfused }
        }
    } else {
        sums(false)
    };
    let written_out = Sink::stored(bound_sink.as_ref(), written_out, span);

    quote_spanned! {span=> {
        #(#lets)*
        #bind_sink
        if ::core::cfg!(debug_assertions) {
            #unpack_a
            #unpack_b
            #unpack_c
            #written_out
        } else {
            #kernel
        }
    }}
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
        ExprKind::Product { .. } | ExprKind::ProductAdd { .. } => {
            product_node(e, operand, None).unwrap_or_default()
        }
        ExprKind::Map { inputs, body } => map(e, inputs, body, operand),
        // `place op= value` with a value the block cannot see
        // (`Checker::mixed`): `place.kernel_op(value)`.
        ExprKind::MethodCall {
            receiver,
            method,
            turbofish,
            args,
        } if matches!(receiver.kind, ExprKind::PlaceValue) => {
            let receiver = operand(receiver);
            let args = args.iter().map(expr);
            quote_spanned!(span=> #receiver.#method #turbofish(#(#args),*))
        }
        _ => operand(e),
    }
}

/// The largest element-wise chain (in elements, an 8x8) written out in
/// debug builds. At opt-level 0, `(x + y) * 2.0 - x` on `f32` took, written
/// out against the loop: 4x4 125 against 190 ns, 8x8 340 against 540 to
/// 665 ns, 12x12 1,165 against 1,000 to 1,080 ns, 16x16 2,000 against
/// 1,570 ns (a timing loop in a scratch crate, on an AVX-512 Xeon): above
/// 8x8, the locals of the written-out form outgrow what it saves.
const STRAIGHT_LINE_MAP: u64 = 64;

/// An element-wise chain in one pass: each input evaluated once, in source
/// order, then one loop over the elements of the result, which the runtime
/// runs as one element-wise pass (`private::elementwise`).
///
/// A chain of a known shape of up to [`STRAIGHT_LINE_MAP`] elements whose
/// body applies no closure is also written out, element by element, for
/// debug builds (`debug_assertions`), as products are (see [`product`]):
/// at opt-level 0 the loop is a bounds check, an index and a stack round
/// trip per operand and element, the written-out form one load per
/// operand element and the operations. Both compute each element with the
/// same operations in the same order. A body applying a closure keeps the
/// loop, so that the closure's tokens are not repeated per element.
fn map(
    e: &Expr,
    inputs: &[Expr],
    body: &MapBody,
    operand: &dyn Fn(&Expr) -> TokenStream,
) -> TokenStream {
    let span = e.loc.start;
    let Ty::Matrix(out) = &e.ty else {
        return quote!(());
    };
    let site = Span::mixed_site();
    let names: Vec<_> = (0..inputs.len())
        .map(|n| format_ident!("__map_input{}", n, span = site))
        .collect();
    let i = format_ident!("__map_i", span = site);
    let lets = inputs.iter().zip(&names).map(|(input, name)| {
        let value = operand(input);
        match &input.ty {
            // Bound by value, as C evaluates an operand (viewed as a
            // column-major slice inside the pass, below).
            Ty::Matrix(_) => quote_spanned!(span=> let #name = #value;),
            Ty::Scalar(s) => {
                let ty = s.to_tokens(span);
                quote_spanned!(span=> let #name: #ty = #value;)
            }
            _ => quote_spanned!(span=> let #name = #value;),
        }
    });
    // The slices are taken inside the pass, so that their length is the
    // matrix type's constant there even where the optimiser keeps the pass
    // out of line (a large crate's inlining budget): slices captured from
    // outside have run-time lengths in an outlined pass, which then checks
    // bounds and runs one element at a time (measured: 8x slower).
    let slices = inputs
        .iter()
        .zip(&names)
        .filter(|(input, _)| matches!(input.ty, Ty::Matrix(_)))
        .map(
            |(_, name)| quote_spanned!(span=> let #name = ::matrix_core::Matrix::as_slice(&#name);),
        );
    let cx = MapCtx {
        inputs,
        names: &names,
        i: &i,
        at: None,
        span,
        operand,
    };
    let element = map_body(body, &cx);
    let elem = out.elem.to_tokens(span);
    let (rows, cols) = (out.rows.to_tokens(span), out.cols.to_tokens(span));
    let layout = out.layout.to_tokens(span);
    let out_ty = out.to_tokens(span);
    let known = out.rows.known().zip(out.cols.known());
    let len = match known {
        Some((r, c)) => usize_lit(r * c, span).into_token_stream(),
        None => quote_spanned!(span=> #rows * #cols),
    };
    let dst = format_ident!("__map_dst", span = site);
    let isa = isa();
    // Every matrix input has the result's layout (the checker requires
    // it), so the pass pairs elements by memory position.
    let pass = quote_spanned! {span=>
        ::matrix_core::private::elementwise::<_, #elem, #rows, #cols, #layout>(#isa, #[inline(always)] |#dst: &mut #out_ty| {
            let #dst = ::matrix_core::Matrix::as_mut_slice(#dst);
            #(#slices)*
            let mut #i = 0usize;
            while #i < #len {
                #dst[#i] = #element;
                #i += 1;
            }
        })
    };
    let written_out = known.filter(|(r, c)| r * c <= STRAIGHT_LINE_MAP && !body.applies_closure());
    let Some((r, c)) = written_out else {
        return quote_spanned!(span=> { #(#lets)* #pass });
    };
    // The storage's lines: columns in column-major, rows in row-major.
    let (line, lines) = match out.layout {
        Layout::ColumnMajor => (r, c),
        Layout::RowMajor => (c, r),
    };
    // `let [[x_0, x_1, ..], ..] = *storage(&x);`: one local per element
    // of each matrix input, numbered in memory order.
    let unpack = inputs
        .iter()
        .zip(&names)
        .filter(|(input, _)| matches!(input.ty, Ty::Matrix(_)))
        .map(|(_, name)| {
            let storage = (0..lines).map(|l| {
                let line = (0..line).map(|k| map_element(name, l * line + k));
                quote!([#(#line),*])
            });
            quote_spanned!(span=> let [#(#storage),*] = *::matrix_core::private::storage(&#name);)
        });
    let storage = (0..lines).map(|l| {
        let line = (0..line).map(|k| {
            map_body(
                body,
                &MapCtx {
                    at: Some(l * line + k),
                    ..cx
                },
            )
        });
        quote!([#(#line),*])
    });
    quote_spanned! {span=> {
        #(#lets)*
        if ::core::cfg!(debug_assertions) {
            #(#unpack)*
            ::matrix_core::Matrix::<#elem, #rows, #cols, #layout>::from_storage([#(#storage),*])
        } else {
            #pass
        }
    }}
}

/// The local holding element `at` (in memory order) of the matrix bound to
/// `name`, in a written-out chain.
fn map_element(name: &proc_macro2::Ident, at: u64) -> proc_macro2::Ident {
    format_ident!("{}_{}", name, at, span = Span::mixed_site())
}

/// What the elements of a map are computed from: its inputs, the names
/// they are bound to, the element index (a variable of the pass's loop, or
/// the constant `at` of a written-out chain), and the expression emitter
/// (for the bodies of closures).
#[derive(Clone, Copy)]
struct MapCtx<'a> {
    inputs: &'a [Expr],
    names: &'a [proc_macro2::Ident],
    i: &'a proc_macro2::Ident,
    at: Option<u64>,
    span: Span,
    operand: &'a dyn Fn(&Expr) -> TokenStream,
}

/// The expression computing one element of a map, at index `i`: the
/// runtime's element operations (`private::add` and the others: wrapping
/// for integers, division by zero panicking as `Matrix`'s does), always
/// inlined, so there is no call per element even at opt-level 0. A
/// closure of `__builtin_matrix_map`/`_zip` is the user's closure, typed,
/// called on the elements.
fn map_body(body: &MapBody, cx: &MapCtx<'_>) -> TokenStream {
    let span = cx.span;
    match body {
        MapBody::Input(n) => {
            let name = &cx.names[*n];
            let i = cx.i;
            match (&cx.inputs[*n].ty, cx.at) {
                (Ty::Matrix(_), None) => quote_spanned!(span=> #name[#i]),
                (Ty::Matrix(_), Some(at)) => map_element(name, at).into_token_stream(),
                _ => quote_spanned!(span=> #name),
            }
        }
        MapBody::Op { op, lhs, rhs, .. } => {
            let (l, r) = (map_body(lhs, cx), map_body(rhs, cx));
            let f = match op {
                ArithOp::Add => quote_spanned!(span=> add),
                ArithOp::Sub => quote_spanned!(span=> sub),
                ArithOp::Mul => quote_spanned!(span=> mul),
                ArithOp::Div => quote_spanned!(span=> div),
            };
            quote_spanned!(span=> ::matrix_core::private::#f(#l, #r))
        }
        MapBody::Cast { expr, to } => {
            let inner = map_body(expr, cx);
            let to = to.to_tokens(span);
            quote_spanned!(span=> ::matrix_core::private::cast::<#to, _>(#inner))
        }
        MapBody::Closure {
            params,
            args,
            body,
            out,
        } => {
            let typed = params.iter().map(|(name, elem)| {
                let ty = elem.to_tokens(span);
                quote_spanned!(span=> #name: #ty)
            });
            let args = args.iter().map(|a| map_body(a, cx));
            let out = out.to_tokens(span);
            let body = (cx.operand)(body);
            let apply = format_ident!("apply{}", params.len());
            quote_spanned!(span=> ::matrix_core::private::#apply(#[inline(always)] |#(#typed),*| -> #out { #body }, #(#args),*))
        }
    }
}
