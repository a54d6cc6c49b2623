//! Tokens to AST: the items of a `matrix!` block.
//!
//! A block holds typedefs (C's `typedef ELEM NAME __attribute__((matrix_type(R, C)));`
//! or Rust's `type NAME = Matrix<T, R, C>;`), `const` items, kernels (`fn`
//! items whose bodies may use C-style casts and C's spellings of numeric
//! literals), and any other Rust item, which passes through untouched.
//! C's file-scope declarations are made Rust's first: the preprocessor's
//! lines (`cpreproc`), enumerations (`cenum`) and structures (`cstruct`).

mod ccast;
mod cconst;
mod cenum;
mod cfn;
mod cglobal;
mod ckeyword;
mod cliteral;
mod cpreproc;
mod cstmt;
mod cstruct;
mod cternary;
pub(crate) mod ctype;

pub(crate) use ccast::{COMPLEMENT, COMPOUND_LITERAL};
pub(crate) use cternary::is_conditional_mark;

use crate::diag::{self, Diagnostics, Loc};
use crate::types::{Layout, Scalar};
use proc_macro2::{Delimiter, TokenStream, TokenTree};
use quote::ToTokens;
use std::collections::HashSet;
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Expr, Ident, Token, Visibility};

/// A parsed `matrix!` block.
pub(crate) struct Block {
    /// `#![fp_contract(fast)]` and other inner attributes.
    pub(crate) inner_attrs: Vec<Attribute>,
    pub(crate) items: Vec<Item>,
}

pub(crate) enum Item {
    Typedef(Box<Typedef>),
    Const(syn::ItemConst),
    Kernel(Box<syn::ItemFn>, Head),
    /// Any other Rust item, emitted as written.
    Other(syn::Item),
}

/// How a kernel's head is written: `fn NAME(..)` or C's `TYPE NAME(..)`.
/// A function with a C head computes in C's arithmetic, integer
/// promotions included (two `unsigned char` add in `int`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Head {
    Rust,
    C,
}

/// `typedef ELEM NAME __attribute__((matrix_type(R, C)));`, or a plain scalar
/// `typedef ELEM NAME;`.
pub(crate) struct Typedef {
    pub(crate) attrs: Vec<Attribute>,
    pub(crate) vis: Visibility,
    pub(crate) name: Ident,
    pub(crate) elem: ElemSpelling,
    /// The `matrix_type(R, C)` arguments; `None` for a scalar typedef or
    /// an alias.
    pub(crate) dims: Option<Dims>,
    /// For `type NAME = OTHER;`, the item as written: when `OTHER` turns out
    /// to be no matrix or scalar type, it is the user's Rust and passes
    /// through.
    pub(crate) rust_item: Option<syn::ItemType>,
}

/// The arguments of a typedef's type attribute.
pub(crate) enum Dims {
    /// `matrix_type(R, C[, LAYOUT])`, or `Matrix<T, R, C[, L]>`.
    Matrix {
        rows: Box<Expr>,
        cols: Box<Expr>,
        /// The layout, or where a `Matrix`'s fourth argument names none.
        layout: Result<Layout, Loc>,
    },
    /// `ext_vector_type(N)`, or `Vector<T, N>`.
    Vector { len: Expr },
}

/// How a typedef spells its element type.
pub(crate) struct ElemSpelling {
    /// The words (`unsigned`, `long`) or the type's tokens, as written.
    pub(crate) text: String,
    /// The Rust type, when the spelling was a Rust type rather than C words.
    pub(crate) rust_type: Option<syn::Type>,
    pub(crate) words: Vec<String>,
    pub(crate) loc: Loc,
}

/// Parses a block, recovering at item boundaries so every syntax error is
/// reported; the items that did parse are returned too.
pub(crate) fn parse_block(input: TokenStream, diags: &mut Diagnostics) -> Block {
    let trees: Vec<TokenTree> = cpreproc::preprocess(input, diags).into_iter().collect();
    let trees = cenum::rewrite(trees);
    let names = typedef_names(&split_items(&trees));
    let trees = cstruct::rewrite(trees, &names);
    let mut chunks = split_items(&trees);

    let mut inner_attrs = Vec::new();
    if let Some(first) = chunks.first() {
        let parsed = Attribute::parse_inner.parse2(first.iter().cloned().collect());
        if let Ok(attrs) = parsed
            && !attrs.is_empty()
        {
            inner_attrs = attrs;
            chunks.remove(0);
        }
    }
    // Kernel bodies need the typedef names (C casts) and the structs'
    // members (initialisers), so collect them first.
    let type_names = typedef_names(&chunks);
    let structs = struct_members(&chunks);
    let mut constants = Vec::new();
    let mut items_chunks = Vec::with_capacity(chunks.len());
    for chunk in chunks {
        match cconst::classify(&chunk, &type_names) {
            cconst::Chunk::Constant(c) => constants.push(c),
            cconst::Chunk::Public(err) => diags.push(err),
            cconst::Chunk::Other => items_chunks.push(chunk),
        }
    }
    let names = Names {
        types: &type_names,
        structs: &structs,
        constants: &constants,
    };
    let mut items = Vec::new();
    for chunk in items_chunks {
        let tokens: TokenStream = chunk.into_iter().collect();
        match (|input: ParseStream| parse_item(input, &names)).parse2(tokens) {
            Ok(item) => items.push(item),
            Err(err) => diags.push(err),
        }
    }
    Block { inner_attrs, items }
}

/// Splits the block at item boundaries: after a top-level `;` or a braced
/// group that is not followed by `;`-terminated continuation (`else`).
fn split_items(trees: &[TokenTree]) -> Vec<Vec<TokenTree>> {
    let mut chunks = Vec::new();
    let mut current = Vec::new();
    let mut i = 0;
    // Inner attributes come first, as their own chunk.
    while let (
        Some(TokenTree::Punct(hash)),
        Some(TokenTree::Punct(bang)),
        Some(TokenTree::Group(g)),
    ) = (trees.get(i), trees.get(i + 1), trees.get(i + 2))
    {
        if hash.as_char() == '#' && bang.as_char() == '!' && g.delimiter() == Delimiter::Bracket {
            current.extend_from_slice(&trees[i..i + 3]);
            i += 3;
        } else {
            break;
        }
    }
    if !current.is_empty() {
        chunks.push(std::mem::take(&mut current));
    }
    while i < trees.len() {
        let tree = &trees[i];
        current.push(tree.clone());
        let ends = match tree {
            TokenTree::Punct(p) => p.as_char() == ';',
            // A brace group ends an item unless it is a `const` initializer
            // or a type (`= {`), which continue to a `;`, or a C `typedef
            // struct { .. } NAME;`, refused whole.
            TokenTree::Group(g) => {
                g.delimiter() == Delimiter::Brace
                    && !has_equals(&current)
                    && !current
                        .iter()
                        .any(|t| matches!(t, TokenTree::Ident(id) if id == "typedef"))
            }
            _ => false,
        };
        if ends {
            // C's `struct S { .. };`: its `;` with it, refused whole.
            let after_c_aggregate = matches!(current.as_slice(), [TokenTree::Punct(_)])
                && chunks
                    .last()
                    .is_some_and(|c: &Vec<TokenTree>| c.iter().any(is_aggregate_keyword));
            match chunks.last_mut() {
                Some(last) if after_c_aggregate => last.append(&mut current),
                _ => chunks.push(std::mem::take(&mut current)),
            }
        }
        i += 1;
    }
    if !current.is_empty() {
        chunks.push(current);
    }
    chunks
}

/// `struct`, `union` or `enum`: C's aggregates, which the block refuses
/// ([`diag::c_aggregate`]) but for the enumerations `cenum` reads.
fn is_aggregate_keyword(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Ident(id) if id == "struct" || id == "union" || id == "enum")
}

fn has_equals(chunk: &[TokenTree]) -> bool {
    chunk
        .iter()
        .any(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '='))
}

/// A member of a struct of the block, as an initialiser fills it
/// (`cstruct` reads them, `cstmt` fills them).
#[derive(Clone, Debug)]
pub(crate) struct Member {
    pub(crate) name: Ident,
    /// The type of the member, or of its innermost element for an array.
    pub(crate) elem: Vec<TokenTree>,
    /// Each dimension of an array member, outermost first; empty for any
    /// other.
    pub(crate) dims: Vec<Vec<TokenTree>>,
}

/// The block's structs (C's and Rust's, and C's aliases of them) by name,
/// each with its members in order.
pub(crate) type Structs = std::collections::HashMap<String, Vec<Member>>;

/// What a kernel body's rewrites read of the block: its type names and
/// its structs' members.
struct Names<'a> {
    types: &'a HashSet<String>,
    structs: &'a Structs,
    /// The block's constants of vector and structure types, which the
    /// bodies that name them declare.
    constants: &'a [cconst::FileConstant],
}

/// The members of the block's structs (Rust's, C's once `cstruct` made
/// them Rust's, and the aliases `type NAME = STRUCT;`), by name.
fn struct_members(chunks: &[Vec<TokenTree>]) -> Structs {
    let mut structs: Structs = chunks
        .iter()
        .filter_map(|c| cstruct::rust_members(c))
        .collect();
    for chunk in chunks {
        if let Some(TokenTree::Ident(name)) = chunk
            .iter()
            .skip_while(|t| !matches!(t, TokenTree::Ident(id) if id == "type"))
            .nth(1)
            && let [
                ..,
                TokenTree::Punct(eq),
                TokenTree::Ident(target),
                TokenTree::Punct(semi),
            ] = chunk.as_slice()
            && eq.as_char() == '='
            && semi.as_char() == ';'
            && let Some(members) = structs.get(&target.to_string()).cloned()
        {
            structs.insert(name.to_string(), members);
        }
    }
    structs
}

/// The names declared by `typedef ... NAME ...;`, `type NAME = ...;` and
/// `struct NAME`.
fn typedef_names(chunks: &[Vec<TokenTree>]) -> HashSet<String> {
    let mut names = HashSet::new();
    for chunk in chunks {
        let idents: Vec<String> = chunk
            .iter()
            .filter_map(|t| match t {
                TokenTree::Ident(id) => Some(id.to_string()),
                _ => None,
            })
            .collect();
        if let Some(pos) = idents.iter().position(|w| w == "typedef") {
            let before_attr = idents[pos + 1..]
                .iter()
                .take_while(|w| *w != "__attribute__");
            if let Some(name) = before_attr.last() {
                names.insert(name.clone());
            }
        } else if let Some(pos) = idents.iter().position(|w| w == "type" || w == "struct")
            && let Some(name) = idents.get(pos + 1)
        {
            names.insert(name.clone());
        }
    }
    names
}

fn parse_item(input: ParseStream, names: &Names) -> syn::Result<Item> {
    let type_names = names.types;
    let attrs = input.call(Attribute::parse_outer)?;
    let ahead = input.fork();
    let _: Visibility = ahead.parse()?;
    if ahead.peek(Ident) && ahead.fork().parse::<Ident>()? == "typedef" {
        let vis: Visibility = input.parse()?;
        let _typedef: Ident = input.parse()?;
        return parse_typedef(input, attrs, vis).map(|t| Item::Typedef(Box::new(t)));
    }
    if ahead.peek(Token![type]) {
        let item: syn::ItemType = input.parse()?;
        let mut item = item;
        item.attrs.splice(0..0, attrs);
        return Ok(
            match rust_typedef(&item).or_else(|| rust_alias(&item, type_names)) {
                Some(typedef) => Item::Typedef(Box::new(typedef)),
                None => Item::Other(syn::Item::Type(item)),
            },
        );
    }
    if let Some(item) = c_constant(input, type_names)? {
        let mut item = item;
        item.attrs.splice(0..0, attrs);
        return Ok(Item::Const(item));
    }
    if ahead.peek(Token![const]) && !ahead.peek2(Token![fn]) && !ahead.peek2(Token![unsafe]) {
        let mut item: syn::ItemConst = input.parse()?;
        item.attrs.splice(0..0, attrs);
        return Ok(Item::Const(item));
    }
    if ahead.peek(Token![fn])
        || ahead.peek(Token![unsafe])
        || ahead.peek(Token![const])
        || ahead.peek(Token![extern])
        || ahead.peek(Token![async])
    {
        let vis: Visibility = input.parse()?;
        let sig: syn::Signature = input.parse()?;
        if !input.peek(syn::token::Brace) {
            return Err(input.error(diag::EXPECTED_FUNCTION_BODY));
        }
        let block = kernel_body(input, names, Head::Rust, &sig)?;
        return Ok(kernel(attrs, vis, sig, block, Head::Rust));
    }
    if let Some(head) = c_head_tokens(input) {
        if let Some((sig, any_mut)) = cfn::signature(&head, type_names) {
            let vis: Visibility = input.parse()?;
            for _ in 0..head.len() {
                let _: TokenTree = input.parse()?;
            }
            let sig: syn::Signature = syn::parse2(sig)?;
            let block = kernel_body(input, names, Head::C, &sig)?;
            let mut attrs = attrs;
            if any_mut {
                attrs.push(cfn::allow_unused_mut());
            }
            return Ok(kernel(attrs, vis, sig, block, Head::C));
        }
        if let Some(ty) = cfn::unknown_type(&head, type_names) {
            let message = diag::unknown_type_name(&ty.to_string());
            return Err(syn::Error::new(ty.span(), message));
        }
    }
    let aggregate = {
        let fork = input.fork();
        let _ = fork.parse::<Visibility>();
        fork.parse::<TokenTree>().ok().filter(is_aggregate_keyword)
    };
    let mut item: syn::Item = input.parse().map_err(|e| match &aggregate {
        // C's `struct S { float x, y; };`, which is no Rust.
        Some(word) => syn::Error::new(word.span(), diag::c_aggregate(&word.to_string())),
        None => syn::Error::new(e.span(), diag::EXPECTED_ITEM),
    })?;
    if let Some(item_attrs) = item_attrs_mut(&mut item) {
        item_attrs.splice(0..0, attrs);
    }
    Ok(Item::Other(item))
}

fn item_attrs_mut(item: &mut syn::Item) -> Option<&mut Vec<Attribute>> {
    Some(match item {
        syn::Item::Enum(i) => &mut i.attrs,
        syn::Item::Fn(i) => &mut i.attrs,
        syn::Item::Impl(i) => &mut i.attrs,
        syn::Item::Mod(i) => &mut i.attrs,
        syn::Item::Static(i) => &mut i.attrs,
        syn::Item::Struct(i) => &mut i.attrs,
        syn::Item::Trait(i) => &mut i.attrs,
        syn::Item::Union(i) => &mut i.attrs,
        syn::Item::Use(i) => &mut i.attrs,
        syn::Item::Macro(i) => &mut i.attrs,
        _ => return None,
    })
}

/// `type NAME = Matrix<T, R, C>;` is a typedef in the Rust spelling.
fn rust_typedef(item: &syn::ItemType) -> Option<Typedef> {
    let syn::Type::Path(path) = &*item.ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if path.qself.is_some() {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let args: Vec<&syn::GenericArgument> = args.args.iter().collect();
    let (elem, dims) = match args.as_slice() {
        [syn::GenericArgument::Type(elem), rows, cols, layout @ ..]
            if last.ident == "Matrix" && layout.len() <= 1 =>
        {
            let layout = match layout {
                [l] => rust_layout(l).ok_or_else(|| Loc::of(*l)),
                _ => Ok(Layout::default()),
            };
            (
                elem,
                Dims::Matrix {
                    rows: Box::new(generic_expr(rows)?),
                    cols: Box::new(generic_expr(cols)?),
                    layout,
                },
            )
        }
        [syn::GenericArgument::Type(elem), len] if last.ident == "Vector" => (
            elem,
            Dims::Vector {
                len: generic_expr(len)?,
            },
        ),
        _ => return None,
    };
    Some(Typedef {
        attrs: item.attrs.clone(),
        vis: item.vis.clone(),
        name: item.ident.clone(),
        elem: elem_spelling_of_type(elem),
        dims: Some(dims),
        rust_item: None,
    })
}

/// `type NAME = OTHER;` where `OTHER` is a typedef of the block or a Rust
/// scalar type: an alias, `typedef OTHER NAME;` in C. Any other `type` item
/// is the user's own Rust and passes through.
fn rust_alias(item: &syn::ItemType, type_names: &HashSet<String>) -> Option<Typedef> {
    let syn::Type::Path(path) = &*item.ty else {
        return None;
    };
    let target = path.path.get_ident().filter(|_| path.qself.is_none())?;
    let name = target.to_string();
    if !type_names.contains(&name) && Scalar::from_rust_name(&name).is_none() {
        return None;
    }
    Some(Typedef {
        attrs: item.attrs.clone(),
        vis: item.vis.clone(),
        name: item.ident.clone(),
        elem: elem_spelling_of_type(&item.ty),
        dims: None,
        rust_item: Some(item.clone()),
    })
}

/// The layout argument of `Matrix<T, R, C, L>`: `ColumnMajor` or
/// `RowMajor` (any path ending in one).
pub(crate) fn rust_layout(arg: &syn::GenericArgument) -> Option<Layout> {
    let syn::GenericArgument::Type(syn::Type::Path(p)) = arg else {
        return None;
    };
    let last = p.path.segments.last()?;
    if p.qself.is_some() || !last.arguments.is_none() {
        return None;
    }
    Layout::from_rust_name(&last.ident.to_string())
}

/// A const generic argument as an expression (`4`, `N`, `{ N + 1 }`).
pub(crate) fn generic_expr(arg: &syn::GenericArgument) -> Option<Expr> {
    match arg {
        syn::GenericArgument::Const(expr) => Some(match expr {
            Expr::Block(b) if b.block.stmts.len() == 1 => match &b.block.stmts[0] {
                syn::Stmt::Expr(e, None) => e.clone(),
                _ => expr.clone(),
            },
            _ => expr.clone(),
        }),
        // `N` parses as a type path.
        syn::GenericArgument::Type(syn::Type::Path(p)) if p.qself.is_none() => {
            Some(Expr::Path(syn::ExprPath {
                attrs: vec![],
                qself: None,
                path: p.path.clone(),
            }))
        }
        _ => None,
    }
}

pub(crate) fn elem_spelling_of_type(ty: &syn::Type) -> ElemSpelling {
    let text = quote::ToTokens::to_token_stream(ty)
        .to_string()
        .replace(" ", "");
    let words = match ty {
        syn::Type::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
            vec![p.path.get_ident().unwrap().to_string()]
        }
        _ => Vec::new(),
    };
    ElemSpelling {
        text,
        rust_type: Some(ty.clone()),
        words,
        loc: Loc::of(ty),
    }
}

fn parse_typedef(
    input: ParseStream,
    attrs: Vec<Attribute>,
    vis: Visibility,
) -> syn::Result<Typedef> {
    if let Ok(word) = input.fork().parse::<TokenTree>()
        && is_aggregate_keyword(&word)
    {
        return Err(syn::Error::new(
            word.span(),
            diag::c_aggregate(&word.to_string()),
        ));
    }
    // Everything up to `__attribute__` or `;`: the element words, then the name.
    let mut before: Vec<TokenTree> = Vec::new();
    while !input.is_empty() && !input.peek(Token![;]) {
        if input.peek(Ident) && input.fork().parse::<Ident>()? == "__attribute__" {
            break;
        }
        // A `macro_rules!` fragment (`$t:ty`) arrives as an invisible group.
        match input.parse()? {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => before.extend(g.stream()),
            tree => before.push(tree),
        }
    }
    let name = match before.pop() {
        // `syn::Ident`'s parser refuses keywords, which cannot name a type.
        Some(TokenTree::Ident(name)) if syn::parse2::<Ident>(name.to_token_stream()).is_ok() => {
            name
        }
        _ => return Err(input.error("expected the typedef's name before `__attribute__`")),
    };
    if before.is_empty() {
        return Err(syn::Error::new(
            name.span(),
            "expected an element type before the typedef's name",
        ));
    }
    let elem_tokens: TokenStream = before.iter().cloned().collect();
    let all_words = ctype::words(&before);
    let elem = match all_words {
        Some(words) if words.len() > 1 || words.iter().all(|w| ctype::is_c_type_word(w)) => {
            ElemSpelling {
                text: words.join(" "),
                rust_type: None,
                words,
                loc: Loc::of(&elem_tokens),
            }
        }
        _ => match syn::parse2::<syn::Type>(elem_tokens.clone()) {
            Ok(ty) => elem_spelling_of_type(&ty),
            Err(_) => ElemSpelling {
                text: elem_tokens.to_string(),
                rust_type: None,
                words: Vec::new(),
                loc: Loc::of(&elem_tokens),
            },
        },
    };
    let dims = if input.peek(Token![;]) {
        None
    } else {
        let attr: Ident = input.parse()?;
        Some(parse_attribute(input, Loc::of(&attr))?)
    };
    if !input.peek(Token![;]) {
        return Err(input.error(diag::EXPECTED_SEMICOLON_AFTER_TYPEDEF));
    }
    input.parse::<Token![;]>()?;
    Ok(Typedef {
        attrs,
        vis,
        name,
        elem,
        dims,
        rust_item: None,
    })
}

/// `((matrix_type(R, C)))` or `((ext_vector_type(N)))` after `__attribute__`.
fn parse_attribute(input: ParseStream, attr_loc: Loc) -> syn::Result<Dims> {
    let wrong = |loc: Loc| diag::error_at(loc, diag::EXPECTED_MATRIX_TYPE_ATTRIBUTE);
    let outer: proc_macro2::Group = input.parse().map_err(|_| wrong(attr_loc))?;
    let inner = single_paren_group(outer.stream()).ok_or_else(|| wrong(Loc::of(&outer)))?;
    let mut trees = inner.stream().into_iter();
    let (Some(TokenTree::Ident(kind)), Some(TokenTree::Group(args)), None) =
        (trees.next(), trees.next(), trees.next())
    else {
        return Err(wrong(Loc::of(&inner)));
    };
    let vector = kind == "ext_vector_type";
    if !(vector || kind == "matrix_type") || args.delimiter() != Delimiter::Parenthesis {
        return Err(wrong(Loc::of(&inner)));
    }
    let exprs =
        syn::punctuated::Punctuated::<Expr, Token![,]>::parse_terminated.parse2(args.stream())?;
    let mut exprs: Vec<Expr> = exprs.into_iter().collect();
    let arguments = Loc::of(&kind).to(Loc::from(args.span()));
    if vector {
        return match (exprs.pop(), exprs.is_empty()) {
            (Some(len), true) => Ok(Dims::Vector { len }),
            _ => Err(diag::error_at(arguments, diag::REQUIRES_ONE_ARGUMENT)),
        };
    }
    // The RFC's `column_padding(P)` clause is named for what it is, not
    // counted as an extra argument.
    if let Some(clause) = exprs.iter().skip(2).find(|e| is_column_padding(e)) {
        return Err(diag::error_at(
            Loc::of(clause),
            diag::COLUMN_PADDING_UNSUPPORTED,
        ));
    }
    // The optional third argument is ours: a layout, named. (Any other
    // third argument is an extra one, as Clang counts.)
    let named = |e: &Expr| match e {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
        _ => None,
    };
    let layout = match exprs.get(2).filter(|_| exprs.len() == 3).and_then(named) {
        Some(name) => {
            let arg = exprs.pop().expect("three arguments");
            Layout::from_attribute_name(&name)
                .ok_or_else(|| diag::error_at(Loc::of(&arg), diag::UNKNOWN_LAYOUT))?
        }
        None => Layout::default(),
    };
    let layout = Ok(layout);
    match (exprs.pop(), exprs.pop(), exprs.is_empty()) {
        (Some(cols), Some(rows), true) => Ok(Dims::Matrix {
            rows: Box::new(rows),
            cols: Box::new(cols),
            layout,
        }),
        _ => Err(diag::error_at(arguments, diag::REQUIRES_TWO_ARGUMENTS)),
    }
}

/// Whether an attribute argument is `column_padding(..)`.
fn is_column_padding(arg: &Expr) -> bool {
    matches!(arg, Expr::Call(call) if matches!(&*call.func,
        Expr::Path(p) if p.qself.is_none() && p.path.is_ident("column_padding")))
}

fn single_paren_group(stream: TokenStream) -> Option<proc_macro2::Group> {
    let mut trees = stream.into_iter();
    match (trees.next(), trees.next()) {
        (Some(TokenTree::Group(g)), None) if g.delimiter() == Delimiter::Parenthesis => Some(g),
        _ => None,
    }
}

/// A C constant at file scope (`static const float K[3] = {..};`,
/// `parse::cglobal`), taken from `input` as a `const` item; `None`, with
/// nothing taken, where the item is not one.
fn c_constant(
    input: ParseStream,
    type_names: &HashSet<String>,
) -> syn::Result<Option<syn::ItemConst>> {
    let fork = input.fork();
    let Ok(vis) = fork.parse::<Visibility>() else {
        return Ok(None);
    };
    let c_words = fork.peek(Token![static]) || (fork.peek(Token![const]) && fork.peek2(Ident));
    if !c_words {
        return Ok(None);
    }
    let mut tokens = Vec::new();
    while !fork.is_empty() && tokens.len() < 100_000 {
        let Ok(t) = fork.parse::<TokenTree>() else {
            return Ok(None);
        };
        let end = matches!(&t, TokenTree::Punct(p) if p.as_char() == ';');
        tokens.push(t);
        if end {
            break;
        }
    }
    let Some(item) = cglobal::constant(&vis.to_token_stream(), &tokens, type_names) else {
        // `static float s = 0;`: C's state between calls (not `static
        // float f(..) {..}`, a function, which ends with its body).
        if let [TokenTree::Ident(stored), .., TokenTree::Punct(semi)] = tokens.as_slice()
            && stored == "static"
            && semi.as_char() == ';'
            && ctype::type_at(&tokens, 1, type_names).is_some()
        {
            return Err(syn::Error::new(stored.span(), diag::STATIC_STATE));
        }
        return Ok(None);
    };
    let _: Visibility = input.parse()?;
    for _ in 0..tokens.len() {
        let _: TokenTree = input.parse()?;
    }
    syn::parse2(item).map(Some)
}

/// The tokens from `input`'s start (after a Rust visibility) to the first
/// brace group, if one comes within 64 tokens: what may be a C function's
/// head (`parse::cfn`).
fn c_head_tokens(input: ParseStream) -> Option<Vec<TokenTree>> {
    let fork = input.fork();
    let _: Visibility = fork.parse().ok()?;
    let mut head = Vec::new();
    while !fork.is_empty() && !fork.peek(syn::token::Brace) && head.len() < 64 {
        head.push(fork.parse::<TokenTree>().ok()?);
    }
    fork.peek(syn::token::Brace).then_some(head)
}

/// A kernel's body, after C's spellings are rewritten to Rust (names that
/// are Rust keywords, literals, casts and compound literals, conditionals,
/// statements).
fn kernel_body(
    input: ParseStream,
    names: &Names,
    head: Head,
    sig: &syn::Signature,
) -> syn::Result<syn::Block> {
    let type_names = names.types;
    let body: proc_macro2::Group = input.parse()?;
    let params: HashSet<String> = sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(pt) => match &*pt.pat {
                syn::Pat::Ident(id) => Some(syn::ext::IdentExt::unraw(&id.ident).to_string()),
                _ => None,
            },
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let body = cconst::prepend(body, names.constants, &params);
    let body = ckeyword::rewrite(TokenStream::from(TokenTree::Group(body)));
    let body = cstruct::arrows(body);
    let body = cliteral::rewrite(body);
    let body = match head {
        Head::C => cliteral::char_codes(body),
        Head::Rust => body,
    };
    let body = ccast::rewrite(body, type_names);
    let body = cternary::rewrite(body);
    syn::parse2(cstmt::rewrite(body, type_names, names.structs))
}

fn kernel(
    attrs: Vec<Attribute>,
    vis: Visibility,
    sig: syn::Signature,
    block: syn::Block,
    head: Head,
) -> Item {
    let f = syn::ItemFn {
        attrs,
        vis,
        modifiers: Default::default(),
        sig,
        block: Box::new(block),
    };
    Item::Kernel(Box::new(f), head)
}

/// Every identifier in `tokens`, groups' too, added to `out`.
pub(crate) fn idents(tokens: TokenStream, out: &mut HashSet<String>) {
    for t in tokens {
        match t {
            TokenTree::Ident(id) => {
                out.insert(id.to_string());
            }
            TokenTree::Group(g) => idents(g.stream(), out),
            TokenTree::Punct(_) | TokenTree::Literal(_) => {}
        }
    }
}

/// Whether an item of the block may start at `trees[i]`: the block's
/// start, or after a `;` or a braced group.
pub(super) fn item_start(trees: &[TokenTree], i: usize) -> bool {
    i == 0
        || matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == ';')
        || matches!(&trees[i - 1], TokenTree::Group(g) if g.delimiter() == Delimiter::Brace)
}

/// A lone punctuation token `c` at `span`.
pub(super) fn punct(c: char, span: proc_macro2::Span) -> TokenTree {
    let mut p = proc_macro2::Punct::new(c, proc_macro2::Spacing::Alone);
    p.set_span(span);
    TokenTree::Punct(p)
}

/// A group of `inner` in `delimiter`, at `span`.
/// `g` with its contents rewritten by `rewrite`, its delimiter and span
/// kept.
pub(super) fn regroup(
    g: &proc_macro2::Group,
    rewrite: impl FnOnce(&[TokenTree]) -> Vec<TokenTree>,
) -> TokenTree {
    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
    group(g.delimiter(), rewrite(&inner), g.span())
}

pub(super) fn group(
    delimiter: Delimiter,
    inner: Vec<TokenTree>,
    span: proc_macro2::Span,
) -> TokenTree {
    let mut g = proc_macro2::Group::new(delimiter, inner.into_iter().collect());
    g.set_span(span);
    TokenTree::Group(g)
}

/// Asserts that `rewritten` turns each case's source text into its
/// expected text: the rewrites' tests, as tables.
#[cfg(test)]
#[track_caller]
pub(crate) fn assert_rewrites(rewritten: impl Fn(&str) -> String, cases: &[(&str, &str)]) {
    for (src, want) in cases {
        assert_eq!(rewritten(src), *want, "rewriting {src:?}");
    }
}

/// Asserts that `out` starts with `prefix`.
#[cfg(test)]
#[track_caller]
pub(crate) fn assert_starts_with(out: &str, prefix: &str) {
    assert!(
        out.starts_with(prefix),
        "{out} does not start with {prefix:?}"
    );
}

/// Asserts that `out` holds each of `parts`.
#[cfg(test)]
#[track_caller]
pub(crate) fn assert_contains(out: &str, parts: &[&str]) {
    for part in parts {
        assert!(out.contains(part), "{part:?} not in {out}");
    }
}

/// The tokens separated by spaces, but joint punctuation (`==`) and
/// groups' delimiters (invisible ones as `«»`) without: how the rewrites'
/// tests read their output.
#[cfg(test)]
pub(crate) fn show(tokens: TokenStream) -> String {
    let mut out = String::new();
    let mut joint = true;
    for tree in tokens {
        if !joint {
            out.push(' ');
        }
        joint = false;
        match tree {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("«", "»"),
                };
                out += &format!("{open}{}{close}", show(g.stream()));
            }
            TokenTree::Punct(p) => {
                out.push(p.as_char());
                joint = p.spacing() == proc_macro2::Spacing::Joint;
            }
            other => out += &other.to_string(),
        }
    }
    out
}
