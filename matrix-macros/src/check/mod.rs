//! AST to typed IR: resolves typedefs, infers the shape and element type of
//! every matrix expression, and applies every rule of the specification.
//!
//! Errors are collected, not returned: a kernel with errors becomes a stub
//! (its signature with an unreachable body) so one mistake does not cascade
//! into rustc errors, and every error of the block is reported at once.

mod builtins;
mod cmath;
mod conditional;
mod cstring;
mod expr;
pub(crate) mod literal;
mod vector;

use crate::consteval::{self, Consts};
use crate::diag::{self, Diagnostics, Loc};
use crate::ir::{self, Contract};
use crate::parse::{self, Head, Item, ctype};
use crate::types::{Dim, Layout, MAX_DIMENSION, MatTy, Scalar, SeqKind, Ty, VecTy};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote_spanned};
use std::collections::{HashMap, HashSet};

/// A checked block, ready to emit.
pub(crate) struct Program {
    pub(crate) typedefs: Vec<TypedefDecl>,
    pub(crate) kernels: Vec<ir::Kernel>,
    /// `const` items and other Rust items, emitted as written.
    pub(crate) items: Vec<TokenStream>,
}

pub(crate) struct TypedefDecl {
    pub(crate) attrs: Vec<syn::Attribute>,
    pub(crate) vis: syn::Visibility,
    pub(crate) name: syn::Ident,
    /// The type it names, or `None` when it is invalid.
    pub(crate) target: Option<Resolved>,
    /// For an alias (`typedef mat44 mat4;`), the typedef of the block it
    /// names, which the emitted alias names in turn.
    pub(crate) alias_of: Option<syn::Ident>,
    /// Whether a kernel body of the block names it. The expansion of a
    /// cast or a compound literal names the type itself, not the alias, so
    /// rustc would take a typedef named only there for dead code.
    pub(crate) named_in_kernels: bool,
}

#[derive(Clone, Debug)]
pub(crate) enum Resolved {
    Matrix(MatTy),
    Vector(VecTy),
    Scalar(Scalar),
}

impl Resolved {
    /// The type a value of this typedef has.
    fn ty(&self) -> Ty {
        match self {
            Resolved::Matrix(m) => Ty::Matrix(m.clone()),
            Resolved::Vector(v) => Ty::Vector(v.clone()),
            Resolved::Scalar(s) => Ty::Scalar(*s),
        }
    }
}

/// The signature of a kernel of the block, for calls between kernels.
#[derive(Clone)]
struct KernelSig {
    params: Vec<Ty>,
    ret: Ty,
}

/// Everything a kernel body is checked against.
struct Env {
    typedefs: HashMap<String, Option<Resolved>>,
    consts: Consts,
    const_types: HashMap<String, Ty>,
    kernels: HashMap<String, KernelSig>,
    /// The const generic parameters of the kernel being checked.
    generics: Vec<syn::Ident>,
    /// The vector typedefs that declare their type (not aliases of
    /// another typedef), in the order the block writes them.
    vector_typedefs: Vec<(String, VecTy)>,
    /// The fields of the block's own structs (not generic ones), by the
    /// struct's name: each field's name (a tuple field's index) and type,
    /// so that `camera.view * v` is a product of a known matrix.
    structs: HashMap<String, Vec<(String, Ty)>>,
}

impl Env {
    /// The name Clang gives a vector of `elem` and `len` made by a
    /// component access (`v.xy`): the first typedef that declares that
    /// type, or none.
    pub(super) fn vector_name(&self, elem: Scalar, len: u64) -> Option<String> {
        self.vector_typedefs
            .iter()
            .find(|(_, v)| v.elem == elem && v.len == len)
            .map(|(name, _)| name.clone())
    }

    /// The fields of the struct of the block a value of type `ty` is (or
    /// a reference of type `ty` refers to).
    pub(super) fn struct_fields(&self, ty: &Ty) -> Option<&[(String, Ty)]> {
        match ty {
            Ty::Ref { inner, .. } => self.struct_fields(inner),
            Ty::Other(Some(name)) => self.structs.get(name).map(Vec::as_slice),
            _ => None,
        }
    }

    /// The kernel's const generic parameter that `expr` names, if it is one.
    fn generic_param(&self, expr: &syn::Expr) -> Option<&syn::Ident> {
        let syn::Expr::Path(p) = expr::strip(expr).0 else {
            return None;
        };
        let ident = p.path.get_ident().filter(|_| p.qself.is_none())?;
        self.generics.iter().find(|g| *g == ident)
    }
}

/// Every identifier the kernel bodies of the block write.
fn kernel_body_names(items: &[Item]) -> HashSet<String> {
    let walk = parse::idents;
    let mut names = HashSet::new();
    for item in items {
        if let Item::Kernel(f, _) = item {
            walk(f.block.to_token_stream(), &mut names);
        }
    }
    names
}

/// The const generic parameters a kernel's signature declares.
fn const_generics(sig: &syn::Signature) -> Vec<syn::Ident> {
    sig.generics
        .const_params()
        .map(|c| c.ident.clone())
        .collect()
}

pub(crate) fn check(block: parse::Block, diags: &mut Diagnostics) -> Program {
    let mut contract = Contract::Off;
    for attr in &block.inner_attrs {
        if let Some(c) = fp_contract(attr, diags) {
            contract = c;
        }
    }
    let mut env = Env {
        typedefs: HashMap::new(),
        consts: Consts::new(),
        const_types: HashMap::new(),
        kernels: HashMap::new(),
        generics: Vec::new(),
        vector_typedefs: Vec::new(),
        structs: HashMap::new(),
    };
    // Constants first: typedef dimensions may name them.
    for item in &block.items {
        if let Item::Const(c) = item
            && let Some(v) = consteval::eval(&c.expr, &env.consts)
        {
            env.consts.insert(c.ident.to_string(), v);
        }
    }
    // Each typedef after the typedefs it names (a matrix typedef's element,
    // an alias's target), whatever the order they are written in.
    let mut typedefs = Vec::new();
    let mut passed_through = Vec::new();
    let named_in_kernels = kernel_body_names(&block.items);
    for typedef in dependency_order(&block.items) {
        if let Some(item) = &typedef.rust_item
            && !names_known_type(typedef, &env)
        {
            // `type NAME = OTHER;` with `OTHER` the user's own Rust type.
            passed_through.push(item.to_token_stream());
            continue;
        }
        let target = resolve_typedef(typedef, &env, diags);
        let name = typedef.name.to_string();
        if let (Some(Some(Resolved::Matrix(old))), Some(Resolved::Matrix(new))) =
            (env.typedefs.get(&name), &target)
        {
            if !old.same_type(new) {
                diags.error(Loc::of(&typedef.name), diag::typedef_redefinition(new, old));
            }
            continue; // an identical redefinition is allowed, as in C
        }
        let alias_of = match (typedef.dims.is_none(), typedef.elem.words.as_slice()) {
            (true, [word]) if matches!(env.typedefs.get(word), Some(Some(_))) => {
                Some(syn::Ident::new(word, typedef.elem.loc.start))
            }
            _ => None,
        };
        env.typedefs.insert(name, target.clone());
        typedefs.push(TypedefDecl {
            attrs: typedef.attrs.clone(),
            vis: typedef.vis.clone(),
            name: typedef.name.clone(),
            target,
            alias_of,
            named_in_kernels: named_in_kernels.contains(&typedef.name.to_string()),
        });
    }
    // In the order the block writes them (the loop above resolves them in
    // dependency order); an alias of a typedef declares no type.
    for item in &block.items {
        if let Item::Typedef(t) = item
            && let Some(decl) = typedefs.iter().find(|d| d.name == t.name)
            && decl.alias_of.is_none()
            && let Some(Resolved::Vector(v)) = &decl.target
            && !env
                .vector_typedefs
                .iter()
                .any(|(n, _)| decl.name == n.as_str())
        {
            env.vector_typedefs.push((decl.name.to_string(), v.clone()));
        }
    }
    for item in &block.items {
        if let Item::Other(syn::Item::Struct(s)) = item
            && s.generics.params.is_empty()
        {
            let fields = struct_fields(s, &env);
            env.structs.insert(s.ident.to_string(), fields);
        }
    }
    // `type NAME = STRUCT;` (C's `typedef struct tag NAME;`) names the
    // same fields.
    for item in &block.items {
        if let Item::Typedef(t) = item
            && let Some(alias) = &t.rust_item
            && let syn::Type::Path(p) = &*alias.ty
            && let Some(target) = p.path.get_ident()
            && let Some(fields) = env.structs.get(&target.to_string()).cloned()
        {
            env.structs.insert(t.name.to_string(), fields);
        }
    }
    for item in &block.items {
        if let Item::Const(c) = item {
            let mut scratch = Diagnostics::default();
            let ty = resolve_type(&c.ty, &env, &mut scratch).0;
            env.const_types.insert(c.ident.to_string(), ty);
        }
    }
    // Kernel signatures, so kernels may call each other in any order.
    let mut sigs = Vec::new();
    for item in &block.items {
        if let Item::Kernel(f, _) = item {
            let before = diags.len();
            env.generics = const_generics(&f.sig);
            let sig = resolve_signature(&f.sig, &env, diags);
            env.kernels.insert(
                f.sig.ident.to_string(),
                KernelSig {
                    params: sig.params.iter().map(|p| p.1.clone()).collect(),
                    ret: sig.ret.clone(),
                },
            );
            sigs.push((sig, diags.len() > before));
        }
    }
    let mut kernels = Vec::new();
    let mut items = passed_through;
    let mut sigs = sigs.into_iter();
    for item in block.items {
        match item {
            Item::Kernel(f, head) => {
                let Some((sig, sig_errors)) = sigs.next() else {
                    continue;
                };
                env.generics = const_generics(&f.sig);
                kernels.push(check_kernel(
                    *f, head, sig, sig_errors, contract, &env, diags,
                ));
            }
            Item::Const(c) => items.push(c.to_token_stream()),
            Item::Other(i) => items.push(i.to_token_stream()),
            Item::Typedef(_) => {}
        }
    }
    Program {
        typedefs,
        kernels,
        items,
    }
}

/// Each field of `s` with its type as the checker sees it (rustc reports
/// a field's unknown type, so nothing is reported here).
fn struct_fields(s: &syn::ItemStruct, env: &Env) -> Vec<(String, Ty)> {
    let mut scratch = Diagnostics::default();
    s.fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let name = f
                .ident
                .as_ref()
                .map_or_else(|| i.to_string(), |id| id.to_string());
            (name, resolve_type(&f.ty, env, &mut scratch).0)
        })
        .collect()
}

/// `#[fp_contract(fast)]` / `#[fp_contract(off)]`, or `None` for another attribute.
fn fp_contract(attr: &syn::Attribute, diags: &mut Diagnostics) -> Option<Contract> {
    if !attr.path().is_ident("fp_contract") {
        return None;
    }
    let mode = attr
        .parse_args::<syn::Ident>()
        .map(|i| i.to_string())
        .unwrap_or_default();
    match mode.as_str() {
        "fast" => Some(Contract::Fast),
        "off" => Some(Contract::Off),
        other => {
            diags.error(Loc::of(attr), diag::unknown_fp_contract(other));
            None
        }
    }
}

/// The block's typedefs, each after the typedefs of the block it names
/// (its element or its alias's target), otherwise in the order written; a
/// cycle leaves its typedefs in written order, to be reported as unknown.
fn dependency_order(items: &[Item]) -> Vec<&parse::Typedef> {
    let mut pending: Vec<&parse::Typedef> = items
        .iter()
        .filter_map(|i| match i {
            Item::Typedef(t) => Some(&**t),
            _ => None,
        })
        .collect();
    let mut ordered = Vec::with_capacity(pending.len());
    while !pending.is_empty() {
        let waits = |t: &parse::Typedef, pending: &[&parse::Typedef]| {
            let [word] = t.elem.words.as_slice() else {
                return false;
            };
            pending
                .iter()
                .any(|p| p.name == word && !std::ptr::eq(*p, t))
        };
        let ready: Vec<usize> = (0..pending.len())
            .filter(|&i| !waits(pending[i], &pending))
            .collect();
        if ready.is_empty() {
            ordered.append(&mut pending);
            break;
        }
        for &i in ready.iter().rev() {
            ordered.push(pending.remove(i));
        }
        let done = ordered.len() - ready.len();
        ordered[done..].reverse();
    }
    ordered
}

/// Whether a typedef names a type the block knows: a C or Rust scalar, or
/// one of the block's typedefs.
fn names_known_type(t: &parse::Typedef, env: &Env) -> bool {
    resolve_element(&t.elem, env).is_some()
        || matches!(t.elem.words.as_slice(), [w] if matches!(env.typedefs.get(w), Some(Some(_))))
}

fn resolve_typedef(t: &parse::Typedef, env: &Env, diags: &mut Diagnostics) -> Option<Resolved> {
    let elem = resolve_element(&t.elem, env);
    let Some(dims) = &t.dims else {
        // An alias of a matrix typedef (`typedef mat44 mat4;`) is the same
        // type, named by the alias in messages, as Clang names it.
        let name = Some(t.name.to_string());
        if let [word] = t.elem.words.as_slice() {
            match env.typedefs.get(word) {
                Some(Some(Resolved::Matrix(target))) => {
                    return Some(Resolved::Matrix(MatTy {
                        name,
                        ..target.clone()
                    }));
                }
                Some(Some(Resolved::Vector(target))) => {
                    return Some(Resolved::Vector(VecTy {
                        name,
                        ..target.clone()
                    }));
                }
                _ => {}
            }
        }
        // A scalar typedef: any scalar is fine.
        return match elem {
            Some(s) => Some(Resolved::Scalar(s)),
            None => {
                diags.error(t.elem.loc, diag::unknown_type_name(&t.elem.text));
                None
            }
        };
    };
    let (rows, cols, layout) = match dims {
        parse::Dims::Matrix { rows, cols, layout } => (rows, cols, layout),
        parse::Dims::Vector { len } => return resolve_vector(t, elem, len, env, diags),
    };
    let elem = matrix_element(elem, &t.elem, diags);
    let shape = dimensions(rows, cols, env, diags);
    let layout = match layout {
        Ok(layout) => Some(*layout),
        Err(at) => {
            diags.error(*at, diag::UNKNOWN_RUST_LAYOUT);
            None
        }
    };
    let (elem, (rows, cols), layout) = (elem?, shape?, layout?);
    Some(Resolved::Matrix(MatTy {
        elem,
        rows,
        cols,
        layout,
        name: Some(t.name.to_string()),
    }))
}

/// `typedef ELEM NAME __attribute__((ext_vector_type(N)));`
fn resolve_vector(
    t: &parse::Typedef,
    elem: Option<Scalar>,
    len: &syn::Expr,
    env: &Env,
    diags: &mut Diagnostics,
) -> Option<Resolved> {
    let elem = match elem {
        Some(s) if s.is_element() => Some(s),
        _ => {
            let spelling = match t.elem.words.as_slice() {
                [word] => match env.typedefs.get(word) {
                    Some(Some(other)) => format!("{}", other.ty()),
                    _ => element_spelling(&t.elem, elem),
                },
                _ => element_spelling(&t.elem, elem),
            };
            diags.error(t.elem.loc, diag::invalid_vector_element_type(&spelling));
            None
        }
    };
    let len = match consteval::eval(len, &env.consts) {
        None => {
            diags.error(Loc::of(len), diag::VECTOR_REQUIRES_INTEGER_CONSTANT);
            None
        }
        Some(0) => {
            diags.error(Loc::of(len), diag::ZERO_VECTOR_SIZE);
            None
        }
        Some(n) if !(1..=MAX_VECTOR_LEN).contains(&n) => {
            diags.error(Loc::of(len), diag::vector_too_long(n));
            None
        }
        Some(n) => Some(n as u64),
    };
    Some(Resolved::Vector(VecTy {
        elem: elem?,
        len: len?,
        name: Some(t.name.to_string()),
    }))
}

/// The longest vector: `matrix_core::Vector` has 1 to 16 elements.
const MAX_VECTOR_LEN: i128 = 16;

fn element_spelling(spelling: &parse::ElemSpelling, scalar: Option<Scalar>) -> String {
    match (scalar, spelling.rust_type.is_some()) {
        (Some(s), true) => s.c_name().to_string(),
        _ => spelling.text.clone(),
    }
}

/// The element of a matrix type spelled `spelling`, if `elem` may be one
/// (reporting Clang's error otherwise, or ours for a 16-bit float whose
/// feature is off).
fn matrix_element(
    elem: Option<Scalar>,
    spelling: &parse::ElemSpelling,
    diags: &mut Diagnostics,
) -> Option<Scalar> {
    match elem {
        Some(s) if s.is_element() => match s.missing_feature() {
            None => Some(s),
            Some(feature) => {
                diags.error(spelling.loc, diag::needs_feature(s.c_name(), feature));
                None
            }
        },
        _ => {
            diags.error(
                spelling.loc,
                diag::invalid_element_type(&element_spelling(spelling, elem)),
            );
            None
        }
    }
}

fn resolve_element(spelling: &parse::ElemSpelling, env: &Env) -> Option<Scalar> {
    // C words mean C types (`char` is `i8`); a Rust type means the Rust one.
    let direct = match (&spelling.rust_type, spelling.words.as_slice()) {
        (None, words) => ctype::from_c_spelling(words),
        (Some(_), [single]) => Scalar::from_rust_name(single),
        (Some(_), _) => None,
    };
    if direct.is_some() {
        return direct;
    }
    if let [single] = spelling.words.as_slice()
        && let Some(Some(Resolved::Scalar(s))) = env.typedefs.get(single)
    {
        return Some(*s);
    }
    None
}

/// Checks `R` and `C` of a matrix type, reporting Clang's errors. Each is
/// an integer constant in [1, 1048575] or a const generic parameter of the
/// kernel.
fn dimensions(
    rows: &syn::Expr,
    cols: &syn::Expr,
    env: &Env,
    diags: &mut Diagnostics,
) -> Option<(Dim, Dim)> {
    // A parameter, or the constant's value (negative values read as huge
    // unsigned ones, as in Clang).
    let raw = |expr: &syn::Expr, diags: &mut Diagnostics| match env.generic_param(expr) {
        Some(param) => Some(Err(param.clone())),
        None => {
            let value = consteval::eval(expr, &env.consts).map(Ok);
            if value.is_none() {
                diags.error(Loc::of(expr), diag::REQUIRES_INTEGER_CONSTANT);
            }
            value
        }
    };
    let (r, c) = (raw(rows, diags), raw(cols, diags));
    let (r, c) = (r?, c?);
    if let Some(zero) = [(&r, rows), (&c, cols)]
        .into_iter()
        .find_map(|(v, e)| (v == &Ok(0)).then_some(e))
    {
        diags.error(Loc::of(zero), diag::ZERO_MATRIX_SIZE);
        return None;
    }
    let mut dim = |v: Result<i128, syn::Ident>, expr: &syn::Expr, too_large: &str| match v {
        Err(param) => Some(Dim::Param(param)),
        Ok(v) if v < 0 || v > i128::from(MAX_DIMENSION) => {
            diags.error(Loc::of(expr), too_large);
            None
        }
        Ok(v) => Some(Dim::Known(v as u64)),
    };
    let rows = dim(r, rows, diag::ROW_SIZE_TOO_LARGE)?;
    let cols = dim(c, cols, diag::COLUMN_SIZE_TOO_LARGE)?;
    Some((rows, cols))
}

/// A Rust type as the checker sees it, and its tokens with C spellings and
/// `Matrix<..>` resolved (`float` becomes `f32`, `Matrix<f32, N, 4>` becomes
/// `::matrix_core::Matrix<f32, 3, 4>`).
fn resolve_type(ty: &syn::Type, env: &Env, diags: &mut Diagnostics) -> (Ty, TokenStream) {
    let span = Loc::of(ty).start;
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last();
            if let Some(last) = last.filter(|l| l.ident == "Matrix") {
                let (ty, tokens) = resolve_matrix_path(last, env, diags, span);
                let Ty::Matrix(m) = &ty else {
                    return (ty, tokens);
                };
                // The user's own path (and so their import), arguments
                // resolved, the layout kept (as the runtime's path).
                let mut path = p.path.clone();
                if let Some(seg) = path.segments.last_mut() {
                    let args = m.generic_args(span);
                    seg.arguments = syn::PathArguments::AngleBracketed(syn::parse_quote!(#args));
                }
                return (ty, path.to_token_stream());
            }
            if let Some(last) = last.filter(|l| l.ident == "Vector")
                && let syn::PathArguments::AngleBracketed(args) = &last.arguments
                && let [syn::GenericArgument::Type(elem), len] =
                    args.args.iter().collect::<Vec<_>>()[..]
            {
                let spelling = parse::elem_spelling_of_type(elem);
                let scalar = resolve_element(&spelling, env);
                let len = parse::generic_expr(len);
                let resolved = len.and_then(|len| {
                    let typedef = parse::Typedef {
                        attrs: Vec::new(),
                        vis: syn::Visibility::Inherited,
                        name: syn::Ident::new("Vector", span),
                        elem: spelling,
                        dims: None,
                        rust_item: None,
                    };
                    resolve_vector(&typedef, scalar, &len, env, diags)
                });
                return match resolved {
                    Some(Resolved::Vector(v)) => {
                        (Ty::Vector(VecTy { name: None, ..v }), ty.to_token_stream())
                    }
                    _ => (Ty::Error, ty.to_token_stream()),
                };
            }
            if let Some(ident) = p.path.get_ident() {
                let name = ident.to_string();
                match env.typedefs.get(&name) {
                    Some(Some(resolved)) => return (resolved.ty(), ty.to_token_stream()),
                    Some(None) => return (Ty::Error, ty.to_token_stream()),
                    None => {}
                }
                if let Some(s) = Scalar::from_rust_name(&name) {
                    return (Ty::Scalar(s), ty.to_token_stream());
                }
                if name != "char"
                    && ctype::is_c_type_word(&name)
                    && let Some(s) = ctype::from_c_spelling(&[name])
                {
                    return (Ty::Scalar(s), s.to_tokens(ident.span()));
                }
            }
            if let Some(last) = last {
                if last.ident == "Matrix" {
                    return resolve_matrix_path(last, env, diags, span);
                }
                if last.ident == "Vec"
                    && let syn::PathArguments::AngleBracketed(args) = &last.arguments
                    && let Some(syn::GenericArgument::Type(inner)) = args.args.first()
                {
                    let (elem, tokens) = resolve_type(inner, env, diags);
                    let vec = quote_spanned!(span=> ::std::vec::Vec<#tokens>);
                    return (
                        Ty::Seq {
                            elem: Box::new(elem),
                            kind: SeqKind::Vec,
                            mutable: true,
                        },
                        vec,
                    );
                }
            }
            (Ty::Other(Some(spelling(ty))), ty.to_token_stream())
        }
        syn::Type::Reference(r) => {
            let mutable = r.mutability.is_some();
            let (inner, tokens) = resolve_type(&r.elem, env, diags);
            let lifetime = &r.lifetime;
            let mutability = &r.mutability;
            let out = quote_spanned!(span=> & #lifetime #mutability #tokens);
            let ty = match inner {
                Ty::Seq { elem, .. } => Ty::Seq {
                    elem,
                    kind: SeqKind::Slice,
                    mutable,
                },
                Ty::Error => Ty::Error,
                inner => Ty::Ref {
                    inner: Box::new(inner),
                    mutable,
                },
            };
            (ty, out)
        }
        syn::Type::Slice(s) => {
            let (elem, tokens) = resolve_type(&s.elem, env, diags);
            (
                Ty::Seq {
                    elem: Box::new(elem),
                    kind: SeqKind::Slice,
                    mutable: false,
                },
                quote_spanned!(span=> [#tokens]),
            )
        }
        syn::Type::Array(a) => {
            let (elem, tokens) = resolve_type(&a.elem, env, diags);
            let len = &a.len;
            (
                Ty::Seq {
                    elem: Box::new(elem),
                    kind: SeqKind::Array,
                    mutable: true,
                },
                quote_spanned!(span=> [#tokens; #len]),
            )
        }
        syn::Type::Ptr(p) => {
            let (elem, tokens) = resolve_type(&p.elem, env, diags);
            let mutable = matches!(p.mutability, syn::PointerMutability::Mut(_));
            let out = if mutable {
                quote_spanned!(span=> *mut #tokens)
            } else {
                quote_spanned!(span=> *const #tokens)
            };
            (
                Ty::Ptr {
                    elem: Box::new(elem),
                    mutable,
                },
                out,
            )
        }
        syn::Type::Paren(p) => resolve_type(&p.elem, env, diags),
        syn::Type::Group(g) => resolve_type(&g.elem, env, diags),
        syn::Type::Tuple(t) if t.elems.is_empty() => (Ty::Unit, ty.to_token_stream()),
        syn::Type::Tuple(t) => {
            let elems: Vec<TokenStream> = t
                .elems
                .iter()
                .map(|e| resolve_type(e, env, diags).1)
                .collect();
            (
                Ty::Other(Some(spelling(ty))),
                quote_spanned!(span=> (#(#elems,)*)),
            )
        }
        _ => (Ty::Other(Some(spelling(ty))), ty.to_token_stream()),
    }
}

fn spelling(ty: &syn::Type) -> String {
    ty.to_token_stream()
        .to_string()
        .replace(" ,", ",")
        .replace(" < ", "<")
        .replace(" >", ">")
        .replace("& ", "&")
}

/// `Matrix<T, R, C>` inside the block: checked like a typedef.
fn resolve_matrix_path(
    seg: &syn::PathSegment,
    env: &Env,
    diags: &mut Diagnostics,
    span: Span,
) -> (Ty, TokenStream) {
    let syn::PathArguments::AngleBracketed(args) = &seg.arguments else {
        return (Ty::Other(Some("Matrix".into())), seg.to_token_stream());
    };
    let args: Vec<&syn::GenericArgument> = args.args.iter().collect();
    let [syn::GenericArgument::Type(elem_ty), rows, cols, layout @ ..] = args.as_slice() else {
        diags.error(Loc::of(seg), "expected `Matrix<T, ROWS, COLUMNS>`");
        return (
            Ty::Error,
            quote_spanned!(span=> ::matrix_core::private::InvalidMatrixType),
        );
    };
    let layout = match layout {
        [] => Some(Layout::default()),
        [l] => {
            let found = parse::rust_layout(l);
            if found.is_none() {
                diags.error(Loc::of(*l), diag::UNKNOWN_RUST_LAYOUT);
            }
            found
        }
        _ => {
            diags.error(Loc::of(seg), "expected `Matrix<T, ROWS, COLUMNS>`");
            None
        }
    };
    let spelling = parse::elem_spelling_of_type(elem_ty);
    let elem = match &spelling.words[..] {
        [single] => Scalar::from_rust_name(single).or_else(|| match env.typedefs.get(single) {
            Some(Some(Resolved::Scalar(s))) => Some(*s),
            _ => None,
        }),
        _ => None,
    };
    let elem = matrix_element(elem, &spelling, diags);
    let (Some(rows), Some(cols)) = (parse::generic_expr(rows), parse::generic_expr(cols)) else {
        diags.error(Loc::of(seg), diag::REQUIRES_INTEGER_CONSTANT);
        return (
            Ty::Error,
            quote_spanned!(span=> ::matrix_core::private::InvalidMatrixType),
        );
    };
    let shape = dimensions(&rows, &cols, env, diags);
    match (elem, shape, layout) {
        (Some(elem), Some((r, c)), Some(layout)) => {
            let m = MatTy::unnamed(elem, r, c, layout);
            let tokens = m.to_tokens(span);
            (Ty::Matrix(m), tokens)
        }
        _ => (
            Ty::Error,
            quote_spanned!(span=> ::matrix_core::private::InvalidMatrixType),
        ),
    }
}

/// A kernel's parameters and return type.
struct Signature {
    params: Vec<(Option<syn::Ident>, Ty)>,
    ret: Ty,
    rewritten: syn::Signature,
}

fn resolve_signature(sig: &syn::Signature, env: &Env, diags: &mut Diagnostics) -> Signature {
    let mut rewritten = sig.clone();
    let mut params = Vec::new();
    for input in rewritten.inputs.iter_mut() {
        match input {
            syn::FnArg::Typed(pt) => {
                let (ty, tokens) = resolve_type(&pt.ty, env, diags);
                let name = match &*pt.pat {
                    syn::Pat::Ident(pi) => Some(pi.ident.clone()),
                    _ => None,
                };
                if let Ok(t) = syn::parse2::<syn::Type>(tokens) {
                    *pt.ty = t;
                }
                params.push((name, ty));
            }
            syn::FnArg::Receiver(r) => {
                diags.error(
                    Loc::of(r),
                    "kernels are free functions: `self` is not allowed here",
                );
            }
        }
    }
    // The stub keeps the typed parameters only: a receiver would be a rustc error.
    rewritten.inputs = std::mem::take(&mut rewritten.inputs)
        .into_pairs()
        .filter(|pair| matches!(pair.value(), syn::FnArg::Typed(_)))
        .collect();
    let ret = match &mut rewritten.output {
        syn::ReturnType::Default => Ty::Unit,
        syn::ReturnType::Type(_, ty) => {
            let (resolved, tokens) = resolve_type(ty, env, diags);
            if let Ok(t) = syn::parse2::<syn::Type>(tokens) {
                **ty = t;
            }
            resolved
        }
    };
    Signature {
        params,
        ret,
        rewritten,
    }
}

fn check_kernel(
    f: syn::ItemFn,
    head: Head,
    sig: Signature,
    sig_errors: bool,
    block_contract: Contract,
    env: &Env,
    diags: &mut Diagnostics,
) -> ir::Kernel {
    let mut contract = block_contract;
    let mut dispatch = ir::Dispatch::PerOperation;
    let mut refused_dispatch = false;
    let mut attrs = Vec::new();
    for attr in f.attrs {
        if attr.path().is_ident(DISPATCH) {
            if dispatch_attribute(&attr, &f.sig, diags) {
                dispatch = ir::Dispatch::PerCall;
            } else {
                refused_dispatch = true;
            }
            continue;
        }
        match fp_contract(&attr, diags) {
            Some(c) => contract = c,
            None if attr.path().is_ident("fp_contract") => {}
            None => attrs.push(attr),
        }
    }
    let before = diags.len();
    let mut checker = expr::Checker::new(env, diags, sig.ret.clone());
    checker.c_arithmetic = head == Head::C;
    for (name, ty) in &sig.params {
        if let Some(name) = name {
            checker.bind_param(&name.to_string(), ty.clone());
        }
    }
    let body = checker.kernel_body(&f.block, &sig.ret);
    // A refused `#[dispatch]` stubs the body too: the kernel it asked for
    // cannot exist, and rustc has nothing to add about the one written.
    let index_checks = std::mem::take(&mut checker.index_checks);
    let stub = sig_errors || refused_dispatch || checker.poisoned || diags.len() > before;
    ir::Kernel {
        attrs,
        vis: f.vis,
        sig: sig.rewritten,
        contract,
        body,
        stub,
        inline_when_optimised: false,
        dispatch,
        index_checks,
    }
}

/// The kernel attribute that compiles a kernel once per backend.
const DISPATCH: &str = "dispatch";

/// Checks `#[dispatch]` on a kernel with signature `sig`: it takes no
/// arguments, and the kernel must be an ordinary function (chosen at run
/// time, so not `const`; not `async`) returning a value, not a reference
/// (the dispatched body cannot tie its result to its arguments' lifetimes).
/// Reports what is wrong; `true` when it applies.
fn dispatch_attribute(
    attr: &syn::Attribute,
    sig: &syn::Signature,
    diags: &mut Diagnostics,
) -> bool {
    if !matches!(attr.meta, syn::Meta::Path(_)) {
        diags.error(Loc::of(attr), diag::DISPATCH_TAKES_NO_ARGUMENTS);
        return false;
    }
    let refused = if let Some(c) = &sig.constness {
        Some((Loc::of(c), "a `const fn`"))
    } else if let Some(a) = &sig.asyncness {
        Some((Loc::of(a), "an `async fn`"))
    } else {
        match &sig.output {
            syn::ReturnType::Type(_, ty) if mentions_reference(ty.to_token_stream()) => {
                Some((Loc::of(ty), "a kernel that returns a reference"))
            }
            _ => None,
        }
    };
    match refused {
        Some((loc, what)) => {
            diags.error(loc, diag::dispatch_not_applicable(what));
            false
        }
        None => true,
    }
}

/// Whether tokens contain a reference or a lifetime.
fn mentions_reference(tokens: TokenStream) -> bool {
    any_token(
        tokens,
        &|t| matches!(t, proc_macro2::TokenTree::Punct(p) if p.as_char() == '&' || p.as_char() == '\''),
    )
}

/// Whether some token of `tokens`, at any depth of groups, satisfies
/// `pred`.
pub(super) fn any_token(
    tokens: TokenStream,
    pred: &dyn Fn(&proc_macro2::TokenTree) -> bool,
) -> bool {
    tokens.into_iter().any(|t| match &t {
        proc_macro2::TokenTree::Group(g) => pred(&t) || any_token(g.stream(), pred),
        _ => pred(&t),
    })
}
