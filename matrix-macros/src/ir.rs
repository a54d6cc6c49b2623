//! The typed IR the checker produces and the emitter consumes.
//!
//! Matrix operations are explicit nodes carrying their shapes; the rest of
//! Rust is kept as a tree of ordinary nodes so matrix operations nested in
//! any statement are found, typed and lowered.

use crate::diag::Loc;
use crate::types::{MatTy, Scalar, Ty};
use proc_macro2::TokenStream;

pub(crate) struct Kernel {
    pub(crate) attrs: Vec<syn::Attribute>,
    pub(crate) vis: syn::Visibility,
    /// The signature with C spellings and `Matrix<..>` resolved to Rust types.
    pub(crate) sig: syn::Signature,
    /// Read by the lowering: whether multiply-add may fuse.
    #[allow(dead_code)] // the SIMD lowering (issue 4) is its reader
    pub(crate) contract: Contract,
    pub(crate) body: Block,
    /// The kernel had errors: emit a stub with its signature only.
    pub(crate) stub: bool,
}

/// Floating-point contraction (`#[fp_contract(fast)]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Contract {
    /// Every multiply and add rounded, in the contract's order.
    Off,
    /// Multiply-add may fuse into FMA.
    Fast,
}

pub(crate) struct Block {
    pub(crate) stmts: Vec<Stmt>,
}

pub(crate) enum Stmt {
    Let {
        attrs: Vec<syn::Attribute>,
        pat: syn::Pat,
        ty: Option<TokenStream>,
        init: Option<Box<Expr>>,
        diverge: Option<Block>,
    },
    Expr {
        expr: Expr,
        semi: bool,
    },
    /// Items and statement macros, emitted as written.
    Verbatim(TokenStream),
}

pub(crate) struct Expr {
    pub(crate) kind: ExprKind,
    pub(crate) ty: Ty,
    pub(crate) loc: Loc,
}

/// A matrix subscript: known at expansion time, or checked at run time.
pub(crate) enum Index {
    Const(u64),
    Dynamic(Box<Expr>),
}

/// The column stride of a load or store.
pub(crate) enum Stride {
    /// Omitted: the number of rows.
    Rows,
    Const(u64),
    Dynamic(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
}

pub(crate) enum ExprKind {
    // ---- Matrix operations -------------------------------------------------
    /// `a + b`, `a - b` on two matrices of one type.
    Elementwise {
        op: ArithOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// A matrix and a scalar already converted to the element type;
    /// `scalar_first` for `s + m`, `s - m`, `s * m`.
    WithScalar {
        op: ArithOp,
        matrix: Box<Expr>,
        scalar: Box<Expr>,
        scalar_first: bool,
    },
    /// `a * b` on two matrices.
    Product {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Transpose(Box<Expr>),
    /// A scalar variable converted to an element type with `as` semantics.
    ConvertScalar {
        expr: Box<Expr>,
        to: Scalar,
    },
    /// A literal converted at expansion time: the element's literal tokens.
    ConstScalar(TokenStream),
    /// `m[r][c]`, as a value or a place.
    Element {
        base: Box<Expr>,
        row: Index,
        col: Index,
        shape: MatTy,
    },
    /// `m as T` between matrix types of one shape.
    MatrixCast {
        expr: Box<Expr>,
        to: MatTy,
    },
    /// A scalar (already converted) broadcast to a matrix type.
    Splat {
        scalar: Box<Expr>,
        to: MatTy,
    },
    Load {
        src: Box<Expr>,
        to: MatTy,
        stride: Stride,
        pointer: bool,
    },
    Store {
        matrix: Box<Expr>,
        dst: Box<Expr>,
        stride: Stride,
        pointer: bool,
    },
    /// `__builtin_matrix_insert(m, r, c, x)`: a copy with one element replaced.
    Insert {
        matrix: Box<Expr>,
        row: Index,
        col: Index,
        value: Box<Expr>,
    },
    /// `place op= value` on a matrix place, evaluated as `place = place op value`
    /// with the place evaluated once; `value` is the whole `place op value`
    /// whose left operand is [`ExprKind::PlaceValue`].
    MatrixCompound {
        place: Box<Expr>,
        value: Box<Expr>,
    },
    /// The current value of the place of an enclosing `MatrixCompound`.
    PlaceValue,

    // ---- Rust --------------------------------------------------------------
    /// A variable or other path, as written.
    Path(TokenStream),
    /// Literals, closures, macros, and anything the checker does not model:
    /// the tokens as written.
    Verbatim(TokenStream),
    Binary {
        op: syn::BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Unary {
        op: syn::UnOp,
        expr: Box<Expr>,
    },
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
    },
    MethodCall {
        receiver: Box<Expr>,
        method: syn::Ident,
        turbofish: Option<TokenStream>,
        args: Vec<Expr>,
    },
    Paren(Box<Expr>),
    /// An invisible group (a C-style cast keeps its precedence this way).
    Group(Box<Expr>),
    Block {
        label: Option<syn::Label>,
        block: Block,
        unsafety: bool,
    },
    If {
        cond: Box<Expr>,
        then: Block,
        otherwise: Option<Box<Expr>>,
    },
    While {
        label: Option<syn::Label>,
        cond: Box<Expr>,
        body: Block,
    },
    Loop {
        label: Option<syn::Label>,
        body: Block,
    },
    For {
        label: Option<syn::Label>,
        pat: syn::Pat,
        iter: Box<Expr>,
        body: Block,
    },
    Match {
        expr: Box<Expr>,
        arms: Vec<Arm>,
    },
    Let {
        pat: syn::Pat,
        expr: Box<Expr>,
    },
    Return(Option<Box<Expr>>),
    Break {
        label: Option<syn::Lifetime>,
        expr: Option<Box<Expr>>,
    },
    Continue(Option<syn::Lifetime>),
    Assign {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    CompoundAssign {
        op: syn::BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Field {
        base: Box<Expr>,
        member: syn::Member,
    },
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    Reference {
        mutable: bool,
        expr: Box<Expr>,
    },
    Cast {
        expr: Box<Expr>,
        ty: TokenStream,
    },
    Tuple(Vec<Expr>),
    Array(Vec<Expr>),
    Repeat {
        expr: Box<Expr>,
        len: TokenStream,
    },
    Range {
        start: Option<Box<Expr>>,
        end: Option<Box<Expr>>,
        limits: syn::RangeLimits,
    },
    Try(Box<Expr>),
}

pub(crate) struct Arm {
    pub(crate) pat: syn::Pat,
    pub(crate) guard: Option<Expr>,
    pub(crate) body: Expr,
}

impl Expr {
    pub(crate) fn new(kind: ExprKind, ty: Ty, loc: Loc) -> Expr {
        Expr { kind, ty, loc }
    }

    /// Whether the expression designates storage (can be assigned to).
    pub(crate) fn is_place(&self) -> bool {
        match &self.kind {
            ExprKind::Path(_) | ExprKind::Field { .. } | ExprKind::Index { .. } => true,
            ExprKind::Unary {
                op: syn::UnOp::Deref(_),
                ..
            } => true,
            ExprKind::Element { base, .. } => base.is_place(),
            ExprKind::Paren(e) | ExprKind::Group(e) => e.is_place(),
            _ => false,
        }
    }
}
