//! The typed IR the checker produces and the emitter consumes.
//!
//! Matrix operations are explicit nodes carrying their shapes; the rest of
//! Rust is kept as a tree of ordinary nodes so matrix operations nested in
//! any statement are found, typed and lowered.

use crate::diag::Loc;
use crate::types::{MatTy, MemoryLayout, Scalar, Ty};
use proc_macro2::TokenStream;

pub(crate) struct Kernel {
    pub(crate) attrs: Vec<syn::Attribute>,
    pub(crate) vis: syn::Visibility,
    /// The signature with C spellings and `Matrix<..>` resolved to Rust types.
    pub(crate) sig: syn::Signature,
    /// Whether multiply-add may fuse (`#[fp_contract(fast)]`).
    pub(crate) contract: Contract,
    pub(crate) body: Block,
    /// The kernel had errors: emit a stub with its signature only.
    pub(crate) stub: bool,
    /// Set by the lowering for kernels small enough to be
    /// `#[inline(always)]` in optimised builds.
    pub(crate) inline_when_optimised: bool,
    /// `#[dispatch]`: the body is compiled once per backend and chosen once
    /// per call.
    pub(crate) dispatch: Dispatch,
    /// Constant subscripts of generic dimensions: the kernel's function
    /// checks them when rustc instantiates it.
    pub(crate) index_checks: Vec<IndexCheck>,
}

/// A constant subscript below a generic dimension (`m[3][0]` of a
/// `Matrix<f32, N, N>`), checked at instantiation in the checker's words.
pub(crate) struct IndexCheck {
    pub(crate) index: u64,
    pub(crate) bound: syn::Ident,
    pub(crate) message: String,
    pub(crate) loc: crate::diag::Loc,
}

/// How a kernel's operations find their backend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dispatch {
    /// Each operation checks the detected backend (`private::Auto`).
    PerOperation,
    /// `#[dispatch]`: one check per call of the kernel, then the whole body
    /// compiled for the backend.
    PerCall,
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

/// The stride of a load or store: the distance between its columns (or
/// rows, in row-major memory).
pub(crate) enum Stride {
    /// Omitted: the length of a line, so the lines are dense.
    Dense,
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

impl ArithOp {
    /// The arithmetic operator `op` is, if it is one.
    pub(crate) fn of(op: &syn::BinOp) -> Option<ArithOp> {
        match op {
            syn::BinOp::Add(_) => Some(ArithOp::Add),
            syn::BinOp::Sub(_) => Some(ArithOp::Sub),
            syn::BinOp::Mul(_) => Some(ArithOp::Mul),
            syn::BinOp::Div(_) => Some(ArithOp::Div),
            _ => None,
        }
    }
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
    /// `a * b` on two matrices; the lowering sets the contraction.
    Product {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        contract: Contract,
    },
    /// `a * b + c` (or `c + a * b`, `addend_first`) fused by the lowering:
    /// the product's sums are completed, then the addend is added.
    ProductAdd {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        addend: Box<Expr>,
        addend_first: bool,
        contract: Contract,
    },
    Transpose(Box<Expr>),
    /// A chain of element-wise operations fused by the lowering into one
    /// pass: the `inputs` (matrices, and scalars broadcast to every element)
    /// are evaluated once, in source order, then every element of the result
    /// is `body` over the inputs' elements at its position.
    Map {
        inputs: Vec<Expr>,
        body: MapBody,
    },
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
    /// A load from memory in order `memory` (the result has the layout
    /// whose lines the memory's are).
    Load {
        src: Box<Expr>,
        to: MatTy,
        stride: Stride,
        pointer: bool,
        memory: MemoryLayout,
        /// May be read in place: the lines are dense and `src` is a `&[T]`
        /// parameter, memory the kernel cannot change. A product operand,
        /// and a `let` bound to a reference to it, borrow the matrix there
        /// (`private::load_view`); elsewhere the load is a value, a copy.
        view: bool,
    },
    Store {
        matrix: Box<Expr>,
        dst: Box<Expr>,
        stride: Stride,
        pointer: bool,
        /// The memory's order.
        memory: MemoryLayout,
    },
    /// `__builtin_matrix_insert(m, r, c, x)`: a copy with one element replaced.
    Insert {
        matrix: Box<Expr>,
        row: Index,
        col: Index,
        value: Box<Expr>,
    },
    /// `place op= value` on a matrix place, evaluated as `place = place op value`:
    /// the place is read, then written (an index expression inside it runs
    /// twice). `value` is the whole `place op value`, whose left operand is
    /// [`ExprKind::PlaceValue`].
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
    /// A call of another kernel of the block.
    KernelCall {
        name: syn::Ident,
        args: Vec<Expr>,
        /// The callee has generic dimensions.
        generic: bool,
        /// The callee's body is called directly, on the caller's backend
        /// (set by the lowering in `#[dispatch]` kernels), rather than the
        /// kernel itself.
        on_callers_backend: bool,
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
    /// A closure: its head as written (`move |a, b: T| -> R`), its body
    /// checked like the kernel's.
    Closure {
        head: TokenStream,
        body: Box<Expr>,
    },
    /// A formatting or assertion macro of std (`println!`, `assert_eq!`,
    /// ...): its arguments checked, its format strings as written.
    Macro {
        mac: syn::Macro,
        args: Vec<Expr>,
    },
    /// The lanes `lanes` of a vector, as a new vector of type `to`
    /// (`v.zyx`).
    Swizzle {
        base: Box<Expr>,
        lanes: Vec<usize>,
        to: crate::types::VecTy,
    },
    /// `place.xy = value`: each selected lane of the place set from the
    /// value's lanes in order.
    SwizzleAssign {
        place: Box<Expr>,
        lanes: Vec<usize>,
        value: Box<Expr>,
    },
    /// A comparison of two vectors of one type, or `&&`/`||` of them (each
    /// lane compared with zero): lane `i` of the `mask` vector is -1 where
    /// it holds, 0 where not.
    VectorCompare {
        op: syn::BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
        mask: crate::types::VecTy,
    },
    /// A compound literal `(float4){a, v2, b}`: each part a scalar
    /// (already converted) filling one lane or a vector of the element type
    /// filling as many, the lanes after them zero.
    VectorLiteral {
        parts: Vec<Expr>,
        to: crate::types::VecTy,
    },
    /// A matrix's row or column as a vector, or (with `value`) the matrix
    /// with that line replaced; `bound` is the number of lines.
    Line {
        matrix: Box<Expr>,
        index: Index,
        is_row: bool,
        bound: crate::types::Dim,
        value: Option<Box<Expr>>,
    },
    /// `x[r][c]` on a value whose type the block cannot see, through
    /// `matrix_core::KernelIndex` (constant indices checked by rustc).
    UnseenElement {
        base: Box<Expr>,
        row: Index,
        col: Index,
    },
    /// C's `mask ? then : otherwise` on an integer vector `mask`: lane `i`
    /// is `then`'s where lane `i` of `mask` has its sign bit set, else
    /// `otherwise`'s (both vectors of `to`, each evaluated once).
    VectorSelect {
        mask: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
        to: crate::types::VecTy,
    },
    /// A scalar (already converted) in every lane of a vector of `to`.
    VectorSplat {
        scalar: Box<Expr>,
        to: crate::types::VecTy,
    },
    /// A format macro's named argument, `name = value`.
    NamedArg {
        name: TokenStream,
        value: Box<Expr>,
    },
}

/// The per-element computation of an [`ExprKind::Map`].
pub(crate) enum MapBody {
    /// The element of input `n` (a scalar input is the same for every element).
    Input(usize),
    /// One element-wise operation in the element type `elem`.
    Op {
        op: ArithOp,
        elem: Scalar,
        lhs: Box<MapBody>,
        rhs: Box<MapBody>,
    },
    /// `as` conversion of an element (a matrix cast).
    Cast { expr: Box<MapBody>, to: Scalar },
    /// The closure of `__builtin_matrix_map` or `__builtin_matrix_zip`
    /// applied to the elements `args`: each parameter a name and the
    /// element type it receives, the body checked like a kernel's, of type
    /// `out`.
    Closure {
        params: Vec<(syn::Ident, Scalar)>,
        args: Vec<MapBody>,
        body: Box<Expr>,
        out: Scalar,
    },
}

impl MapBody {
    /// The same computation with every input index moved up by `offset`.
    pub(crate) fn shifted(self, offset: usize) -> MapBody {
        self.with_inputs(&mut |n| MapBody::Input(n + offset))
    }

    /// The same computation with each input `n` replaced by `with[n]`
    /// (each input appears once in a body; one that is not replaced keeps
    /// its index).
    pub(crate) fn substituted(self, with: &mut [Option<MapBody>]) -> MapBody {
        self.with_inputs(&mut |n| {
            with.get_mut(n)
                .and_then(Option::take)
                .unwrap_or(MapBody::Input(n))
        })
    }

    /// The same computation with each input `n` replaced by `input(n)`.
    fn with_inputs(self, input: &mut impl FnMut(usize) -> MapBody) -> MapBody {
        match self {
            MapBody::Input(n) => input(n),
            MapBody::Op { op, elem, lhs, rhs } => MapBody::Op {
                op,
                elem,
                lhs: Box::new(lhs.with_inputs(input)),
                rhs: Box::new(rhs.with_inputs(input)),
            },
            MapBody::Cast { expr, to } => MapBody::Cast {
                expr: Box::new(expr.with_inputs(input)),
                to,
            },
            MapBody::Closure {
                params,
                args,
                body,
                out,
            } => MapBody::Closure {
                params,
                args: args.into_iter().map(|a| a.with_inputs(input)).collect(),
                body,
                out,
            },
        }
    }

    /// Whether the body applies a closure of `__builtin_matrix_map` or
    /// `__builtin_matrix_zip`.
    pub(crate) fn applies_closure(&self) -> bool {
        match self {
            MapBody::Input(_) => false,
            MapBody::Op { lhs, rhs, .. } => lhs.applies_closure() || rhs.applies_closure(),
            MapBody::Cast { expr, .. } => expr.applies_closure(),
            MapBody::Closure { .. } => true,
        }
    }

    /// Visits the expressions inside the closures of the body.
    fn for_each_expr_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        match self {
            MapBody::Input(_) => {}
            MapBody::Op { lhs, rhs, .. } => {
                lhs.for_each_expr_mut(f);
                rhs.for_each_expr_mut(f);
            }
            MapBody::Cast { expr, .. } => expr.for_each_expr_mut(f),
            MapBody::Closure { args, body, .. } => {
                args.iter_mut().for_each(|a| a.for_each_expr_mut(f));
                body.for_each_expr_mut(f);
            }
        }
    }
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

    /// The `usize` constant `value`, written at `loc` (an index or a
    /// length the checker adds).
    pub(crate) fn usize_const(value: u64, loc: Loc) -> Expr {
        let lit = crate::types::usize_lit(value, loc.start);
        let tokens = quote::ToTokens::to_token_stream(&lit);
        Expr::new(
            ExprKind::ConstScalar(tokens),
            Ty::Scalar(Scalar::Usize),
            loc,
        )
    }

    /// Whether the expression designates storage (can be assigned to).
    pub(crate) fn is_place(&self) -> bool {
        match &self.kind {
            ExprKind::Path(_) | ExprKind::Field { .. } => true,
            // A component of a vector value (`(a + b).x`) is no storage, as
            // in C; other subscripts are Rust's (or a pointer's) places.
            ExprKind::Index { base, .. } => !matches!(base.ty, Ty::Vector(_)) || base.is_place(),
            ExprKind::Unary {
                op: syn::UnOp::Deref(_),
                ..
            } => true,
            ExprKind::Element { base, .. } | ExprKind::UnseenElement { base, .. } => {
                base.is_place()
            }
            ExprKind::Paren(e) | ExprKind::Group(e) => e.is_place(),
            _ => false,
        }
    }
}

impl Block {
    /// Visits every expression of the block, children before parents.
    pub(crate) fn for_each_expr_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        for stmt in &mut self.stmts {
            match stmt {
                Stmt::Let { init, diverge, .. } => {
                    if let Some(init) = init {
                        init.for_each_expr_mut(f);
                    }
                    if let Some(block) = diverge {
                        block.for_each_expr_mut(f);
                    }
                }
                Stmt::Expr { expr, .. } => expr.for_each_expr_mut(f),
                Stmt::Verbatim(_) => {}
            }
        }
    }
}

impl Expr {
    /// Visits this expression and every expression inside it, children first.
    pub(crate) fn for_each_expr_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        fn each(exprs: &mut [Expr], f: &mut impl FnMut(&mut Expr)) {
            exprs.iter_mut().for_each(|e| e.for_each_expr_mut(f));
        }
        fn index(i: &mut Index, f: &mut impl FnMut(&mut Expr)) {
            if let Index::Dynamic(e) = i {
                e.for_each_expr_mut(f);
            }
        }
        fn stride(s: &mut Stride, f: &mut impl FnMut(&mut Expr)) {
            if let Stride::Dynamic(e) = s {
                e.for_each_expr_mut(f);
            }
        }
        match &mut self.kind {
            ExprKind::Elementwise { lhs, rhs, .. }
            | ExprKind::Product { lhs, rhs, .. }
            | ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign { lhs, rhs }
            | ExprKind::CompoundAssign { lhs, rhs, .. }
            | ExprKind::Index {
                base: lhs,
                index: rhs,
            }
            | ExprKind::WithScalar {
                matrix: lhs,
                scalar: rhs,
                ..
            }
            | ExprKind::SwizzleAssign {
                place: lhs,
                value: rhs,
                ..
            }
            | ExprKind::VectorCompare { lhs, rhs, .. }
            | ExprKind::MatrixCompound {
                place: lhs,
                value: rhs,
            } => {
                lhs.for_each_expr_mut(f);
                rhs.for_each_expr_mut(f);
            }
            ExprKind::ProductAdd {
                lhs, rhs, addend, ..
            } => {
                lhs.for_each_expr_mut(f);
                rhs.for_each_expr_mut(f);
                addend.for_each_expr_mut(f);
            }
            ExprKind::Transpose(e)
            | ExprKind::ConvertScalar { expr: e, .. }
            | ExprKind::MatrixCast { expr: e, .. }
            | ExprKind::Splat { scalar: e, .. }
            | ExprKind::Unary { expr: e, .. }
            | ExprKind::Paren(e)
            | ExprKind::Group(e)
            | ExprKind::Let { expr: e, .. }
            | ExprKind::Field { base: e, .. }
            | ExprKind::Reference { expr: e, .. }
            | ExprKind::Cast { expr: e, .. }
            | ExprKind::Repeat { expr: e, .. }
            | ExprKind::Try(e)
            | ExprKind::Closure { body: e, .. }
            | ExprKind::Swizzle { base: e, .. }
            | ExprKind::VectorSplat { scalar: e, .. }
            | ExprKind::NamedArg { value: e, .. } => e.for_each_expr_mut(f),
            ExprKind::Macro { args, .. } | ExprKind::VectorLiteral { parts: args, .. } => {
                each(args, f)
            }
            ExprKind::Line {
                matrix,
                index: i,
                value,
                ..
            } => {
                matrix.for_each_expr_mut(f);
                index(i, f);
                if let Some(v) = value {
                    v.for_each_expr_mut(f);
                }
            }
            ExprKind::VectorSelect {
                mask,
                then,
                otherwise,
                ..
            } => {
                mask.for_each_expr_mut(f);
                then.for_each_expr_mut(f);
                otherwise.for_each_expr_mut(f);
            }
            ExprKind::Element { base, row, col, .. }
            | ExprKind::UnseenElement { base, row, col } => {
                base.for_each_expr_mut(f);
                index(row, f);
                index(col, f);
            }
            ExprKind::Load { src, stride: s, .. } => {
                src.for_each_expr_mut(f);
                stride(s, f);
            }
            ExprKind::Store {
                matrix,
                dst,
                stride: s,
                ..
            } => {
                matrix.for_each_expr_mut(f);
                dst.for_each_expr_mut(f);
                stride(s, f);
            }
            ExprKind::Insert {
                matrix,
                row,
                col,
                value,
            } => {
                matrix.for_each_expr_mut(f);
                index(row, f);
                index(col, f);
                value.for_each_expr_mut(f);
            }
            ExprKind::Call { func, args } => {
                func.for_each_expr_mut(f);
                each(args, f);
            }
            ExprKind::KernelCall { args, .. } => each(args, f),
            ExprKind::MethodCall { receiver, args, .. } => {
                receiver.for_each_expr_mut(f);
                each(args, f);
            }
            ExprKind::Block { block, .. } | ExprKind::Loop { body: block, .. } => {
                block.for_each_expr_mut(f)
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                cond.for_each_expr_mut(f);
                then.for_each_expr_mut(f);
                if let Some(o) = otherwise {
                    o.for_each_expr_mut(f);
                }
            }
            ExprKind::While { cond: e, body, .. } | ExprKind::For { iter: e, body, .. } => {
                e.for_each_expr_mut(f);
                body.for_each_expr_mut(f);
            }
            ExprKind::Match { expr, arms } => {
                expr.for_each_expr_mut(f);
                for arm in arms {
                    if let Some(g) = &mut arm.guard {
                        g.for_each_expr_mut(f);
                    }
                    arm.body.for_each_expr_mut(f);
                }
            }
            ExprKind::Return(e) | ExprKind::Break { expr: e, .. } => {
                if let Some(e) = e {
                    e.for_each_expr_mut(f);
                }
            }
            ExprKind::Tuple(es) | ExprKind::Array(es) => each(es, f),
            ExprKind::Map { inputs, body } => {
                each(inputs, f);
                body.for_each_expr_mut(f);
            }
            ExprKind::Range { start, end, .. } => {
                if let Some(e) = start {
                    e.for_each_expr_mut(f);
                }
                if let Some(e) = end {
                    e.for_each_expr_mut(f);
                }
            }
            ExprKind::ConstScalar(_)
            | ExprKind::PlaceValue
            | ExprKind::Path(_)
            | ExprKind::Verbatim(_)
            | ExprKind::Continue(_) => {}
        }
        f(self);
    }
}
