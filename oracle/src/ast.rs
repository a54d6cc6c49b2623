//! The one AST from which a kernel is printed both as C and as a `matrix!`
//! kernel.

use crate::ty::{Elem, IdxTy, Layout, MatTy};

/// How a runner draws a value (the same in C and Rust; see [`crate::rt`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Domain {
    /// An integer in `lo..=hi`, converted to the target type.
    Int(i64, i64),
    /// 64 random bits, truncated to the (integer) target type.
    Full,
    /// `k / 2^shift` for an integer `k` in `lo..=hi` (exact in `f32`).
    Dyadic(i64, i64, u32),
    /// One of a few integers.
    IntChoice(Vec<i64>),
    /// One of a few floats (written exactly in both languages).
    FloatChoice(Vec<f64>),
}

/// The kind of a kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// A matrix passed by value.
    Mat(MatTy, Domain),
    /// A scalar of an element type.
    Scalar(Elem, Domain),
    /// A dynamic index, drawn in `0..bound`.
    Index(IdxTy, u32),
    /// A dynamic stride (`usize`, C `unsigned long`), drawn in `lo..=hi`.
    Stride(u32, u32),
    /// A source of loads: `&[T]`, C `const T *`, with `len` elements.
    Src(Elem, usize, Domain),
    /// A destination of stores: `&mut [T]`, C `T *`, with `len` elements
    /// whose initial values are drawn too (so gaps are compared).
    Dst(Elem, usize, Domain),
}

/// How a matrix type is spelled in Rust (C always uses a typedef name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TyName {
    /// The type's typedef (`f32m4x4`).
    Typedef,
    /// A second typedef of the same type (`f32m4x4_b`), in both languages.
    Alias,
    /// `Matrix<f32, 4, 4>` (Rust only; C uses the typedef).
    Generic,
}

impl TyName {
    /// The Rust spelling of `t` in a chunk of layout `layout`.
    pub fn rust(self, t: &MatTy, layout: Layout) -> String {
        match self {
            TyName::Typedef => t.name(),
            TyName::Alias => t.alias(),
            TyName::Generic => format!(
                "Matrix<{}, {}, {}{}>",
                t.elem.rust(),
                t.rows,
                t.cols,
                layout.generic_suffix()
            ),
        }
    }

    /// The C spelling of `t`.
    pub fn c(self, t: &MatTy) -> String {
        match self {
            TyName::Alias => t.alias(),
            _ => t.name(),
        }
    }
}

/// A kernel parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Its name (the same in both languages).
    pub name: String,
    /// Its type and how its value is drawn.
    pub kind: ParamKind,
    /// How a matrix parameter's type is spelled.
    pub tyname: TyName,
}

/// Binary operators of the corpus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
}

impl BinOp {
    /// The operator's spelling.
    pub fn sym(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        }
    }

    /// Its precedence level (see [`Prec`]).
    pub fn prec(self) -> Prec {
        match self {
            BinOp::Add | BinOp::Sub => Prec::Add,
            BinOp::Mul | BinOp::Div => Prec::Mul,
        }
    }
}

/// Precedence levels shared by the two printers (C and Rust agree on them
/// for everything the corpus uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prec {
    /// C's conditional `c ? a : b` (the macro's too).
    Cond,
    /// `+ -`
    Add,
    /// `* /`
    Mul,
    /// Rust `as`.
    As,
    /// Unary minus, C-style cast.
    Unary,
    /// Subscript, call.
    Postfix,
    /// Names, literals, parenthesised expressions.
    Primary,
}

/// The spelling of a matrix cast in Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastStyle {
    /// `x as NAME`
    As,
    /// `(NAME) x`, the C spelling the DSL accepts.
    CStyle,
}

/// A stride argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Stride {
    /// A literal.
    Const(u32),
    /// A `Stride` parameter.
    Param(String),
    /// A constant expression over literals and the block's `const` items
    /// (the same text in both languages), with its value.
    Expr(String, u32),
}

/// A subscript.
#[derive(Clone, Debug, PartialEq)]
pub enum Idx {
    /// A literal index.
    Const(u32),
    /// An `Index` parameter or a loop variable.
    Var(String),
    /// A constant expression (see [`Stride::Expr`]).
    Expr(String, u32),
}

/// A constant dimension of a load: the value and, optionally, a constant
/// expression spelling it.
#[derive(Clone, Debug, PartialEq)]
pub struct Dim {
    /// The value.
    pub value: u32,
    /// A constant expression with that value, or `None` for the literal.
    pub text: Option<String>,
}

impl Dim {
    /// A literal dimension.
    pub fn lit(value: u32) -> Dim {
        Dim { value, text: None }
    }

    /// How it is printed.
    pub fn show(&self) -> String {
        self.text.clone().unwrap_or_else(|| self.value.to_string())
    }
}

/// Operators that also have an RFC builtin spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RfcOp {
    /// `__builtin_matrix_add`
    Add,
    /// `__builtin_matrix_sub`
    Sub,
    /// `__builtin_matrix_multiply`
    Multiply,
}

impl RfcOp {
    /// The builtin's name.
    pub fn builtin(self) -> &'static str {
        match self {
            RfcOp::Add => "__builtin_matrix_add",
            RfcOp::Sub => "__builtin_matrix_sub",
            RfcOp::Multiply => "__builtin_matrix_multiply",
        }
    }

    /// The C operator it means.
    pub fn op(self) -> BinOp {
        match self {
            RfcOp::Add => BinOp::Add,
            RfcOp::Sub => BinOp::Sub,
            RfcOp::Multiply => BinOp::Mul,
        }
    }
}

/// A matrix-valued expression.
#[derive(Clone, Debug, PartialEq)]
pub enum MExpr {
    /// A parameter or local.
    Var(String),
    /// `a + b`, `a - b` (same type) or `a * b` (matrix product).
    Bin(BinOp, Box<MExpr>, Box<MExpr>),
    /// `m op s` or, with `scalar_left`, `s op m`.
    Scalar {
        /// The operator.
        op: BinOp,
        /// The matrix operand.
        m: Box<MExpr>,
        /// The scalar operand.
        s: Box<SExpr>,
        /// Whether the scalar is the left operand.
        scalar_left: bool,
    },
    /// `__builtin_matrix_transpose(m)`
    Transpose(Box<MExpr>),
    /// An element-wise conversion to another type of the same shape.
    Cast {
        /// The target type (always named by its typedef).
        to: MatTy,
        /// The Rust spelling.
        style: CastStyle,
        /// The operand.
        e: Box<MExpr>,
    },
    /// `__builtin_matrix_column_major_load(src, rows, cols, stride)`
    Load {
        /// A `Src` parameter.
        src: String,
        /// Rows of the result.
        rows: Dim,
        /// Columns of the result.
        cols: Dim,
        /// The stride.
        stride: Stride,
        /// Rust spells it `__builtin_matrix_column_load` (the RFC's name).
        rfc: bool,
    },
    /// An RFC builtin in Rust (`__builtin_matrix_add(a, b)`), the operator
    /// in C.
    Rfc(RfcOp, Box<MExpr>, Box<MExpr>),
    /// `__builtin_matrix_scalar_multiply(m, s)` in Rust, `m * s` in C.
    RfcScale(Box<MExpr>, Box<SExpr>),
    /// `__builtin_matrix_insert(m, r, c, x)` in Rust; in C a statement
    /// expression that copies `m` and sets the element.
    Insert {
        /// A number unique in the kernel (names C's temporary).
        id: u32,
        /// The matrix.
        m: Box<MExpr>,
        /// Row.
        r: Idx,
        /// Column.
        c: Idx,
        /// The new element (converted to the element type).
        x: Box<SExpr>,
    },
    /// A call of an earlier kernel of the same chunk.
    Call {
        /// The callee.
        kernel: String,
        /// Parameter names of the caller, one per callee parameter.
        args: Vec<String>,
    },
    /// C's conditional operator `c ? a : b`, a scalar `c` compared with
    /// zero, `a` and `b` of one type.
    Cond {
        /// The condition.
        c: Box<SExpr>,
        /// The value where `c` is not zero.
        a: Box<MExpr>,
        /// The value where it is.
        b: Box<MExpr>,
    },
}

/// Suffix of an integer literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntSuffix {
    /// none (`int`)
    None,
    /// Rust `u32`, C `u`
    U32,
    /// Rust `i64`, C `L`
    I64,
    /// Rust `u64`, C `UL`
    U64,
}

/// How an integer literal is written (the value is the same).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntForm {
    /// `12`
    Dec,
    /// `0xc`
    Hex,
    /// Rust `1_2` (C `12`)
    Underscore,
}

/// How a float literal is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatForm {
    /// `2.5`
    Plain,
    /// `25e-1`
    Exp,
}

/// Suffix of a float literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    /// none (`double`)
    None,
    /// Rust `f32`, C `f`
    F32,
}

/// A literal.
#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    /// An integer literal, possibly negative (printed as unary minus).
    Int(i64, IntSuffix, IntForm),
    /// A float literal (finite; printed so that both languages read the
    /// same double).
    Float(f64, FloatSuffix, FloatForm),
}

/// A scalar-valued expression.
#[derive(Clone, Debug, PartialEq)]
pub enum SExpr {
    /// A `Scalar` parameter.
    Param(String),
    /// A literal.
    Lit(Lit),
    /// `m[r][c]`, or in Rust `__builtin_matrix_extract(m, r, c)`.
    Elem {
        /// The matrix.
        m: Box<MExpr>,
        /// Row.
        r: Idx,
        /// Column.
        c: Idx,
        /// Rust uses the RFC's `__builtin_matrix_extract`.
        rfc: bool,
    },
    /// `e as T`, C `(T)e`.
    Cast(Elem, Box<SExpr>),
    /// `a op b` on two scalars of one type (`+ - *`), never overflowing.
    Bin(BinOp, Box<SExpr>, Box<SExpr>),
}

/// The right-hand side of a compound assignment.
#[derive(Clone, Debug, PartialEq)]
pub enum Rhs {
    /// A matrix.
    M(MExpr),
    /// A scalar.
    S(SExpr),
}

/// How a `let` spells its type in Rust (C always declares it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Annot {
    /// `let t = e;`
    None,
    /// `let t: NAME = e;`
    Typedef,
    /// `let t: NAME_b = e;` (the alias typedef, in both languages)
    Alias,
    /// `let t: Matrix<T, R, C> = e;`
    Generic,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `let [mut] name[: ty] = init;`
    Let {
        /// Local name.
        name: String,
        /// Its type.
        ty: MatTy,
        /// Rust annotation.
        annot: Annot,
        /// Initialiser.
        init: MExpr,
    },
    /// `name = e;`
    Assign {
        /// A local.
        name: String,
        /// Same type as the local.
        e: MExpr,
    },
    /// `name op= rhs;`
    Compound {
        /// A local.
        name: String,
        /// The operator.
        op: BinOp,
        /// The operand.
        rhs: Rhs,
    },
    /// `name[r][c] (op)= v;`
    ElemSet {
        /// A local.
        name: String,
        /// Row.
        r: Idx,
        /// Column.
        c: Idx,
        /// `None` for plain `=`.
        op: Option<BinOp>,
        /// Value of the element type.
        v: SExpr,
    },
    /// `for var in 0..bound { body }` (C: `for (int var = 0; ...)`).
    For {
        /// Loop variable.
        var: String,
        /// Upper bound (exclusive).
        bound: u32,
        /// The single statement of the body (an `ElemSet`).
        body: Box<Stmt>,
    },
    /// `__builtin_matrix_column_major_store(m, dst, stride);`
    Store {
        /// The matrix.
        m: MExpr,
        /// A `Dst` parameter.
        dst: String,
        /// The stride.
        stride: Stride,
        /// Rust spells it `__builtin_matrix_column_store` (the RFC's name).
        rfc: bool,
    },
    /// `if var < bound { body }` on an `Index` parameter.
    If {
        /// The parameter.
        var: String,
        /// The bound compared with.
        bound: u32,
        /// The single statement of the body.
        body: Box<Stmt>,
    },
}

/// What a kernel returns.
#[derive(Clone, Debug, PartialEq)]
pub enum Ret {
    /// A matrix.
    Mat(MatTy, MExpr),
    /// A scalar.
    Scalar(Elem, SExpr),
    /// Nothing (the kernel only stores).
    Unit,
}

/// A kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// Its name (`k0042`).
    pub name: String,
    /// Parameters in order; the runner draws them in this order.
    pub params: Vec<Param>,
    /// Locals that some statement mutates (they get `let mut`).
    pub mutated: Vec<String>,
    /// Statements.
    pub body: Vec<Stmt>,
    /// The return value.
    pub ret: Ret,
    /// In Rust, `return e;` instead of a tail expression.
    pub explicit_return: bool,
    /// The seed of the inputs.
    pub input_seed: u64,
    /// Rust-only lines before the `fn` (doc comments, attributes).
    pub attrs: Vec<String>,
    /// Open findings (`oracle/FINDINGS.md`) whose pattern the generator
    /// steered this kernel around; [`Kernel::unavoided`] puts them back.
    pub avoided: Vec<String>,
    /// The layout of its chunk's matrix types.
    pub layout: Layout,
}

impl Kernel {
    /// The kernel as generated before steering around open findings.
    pub fn unavoided(&self) -> Kernel {
        let mut k = self.clone();
        for f in &self.avoided {
            match f.as_str() {
                // F2: the tail was turned into `return e;`.
                "F2" | "F5" => k.explicit_return = false,
                other => panic!("unknown finding {other}"),
            }
        }
        k.avoided.clear();
        k
    }

    /// The parameter named `name`.
    pub fn param(&self, name: &str) -> Option<&Param> {
        self.params.iter().find(|p| p.name == name)
    }

    /// The matrix types the kernel spells with their alias typedef.
    pub fn aliases(&self) -> Vec<MatTy> {
        let mut v = Vec::new();
        for p in &self.params {
            if let (ParamKind::Mat(t, _), TyName::Alias) = (&p.kind, p.tyname) {
                v.push(*t);
            }
        }
        for s in &self.body {
            if let Stmt::Let {
                ty,
                annot: Annot::Alias,
                ..
            } = s
            {
                v.push(*ty);
            }
        }
        v.sort();
        v.dedup();
        v
    }

    /// Every matrix type the kernel names (for typedefs).
    pub fn mat_types(&self) -> Vec<MatTy> {
        let mut v = Vec::new();
        for p in &self.params {
            if let ParamKind::Mat(t, _) = &p.kind {
                v.push(*t);
            }
        }
        for s in &self.body {
            stmt_types(s, &mut v);
        }
        match &self.ret {
            Ret::Mat(t, e) => {
                v.push(*t);
                expr_types(e, &mut v);
            }
            Ret::Scalar(_, s) => sexpr_types(s, &mut v),
            Ret::Unit => {}
        }
        v.sort();
        v.dedup();
        v
    }
}

fn stmt_types(s: &Stmt, v: &mut Vec<MatTy>) {
    match s {
        Stmt::Let { ty, init, .. } => {
            v.push(*ty);
            expr_types(init, v);
        }
        Stmt::Assign { e, .. } => expr_types(e, v),
        Stmt::Compound { rhs, .. } => match rhs {
            Rhs::M(e) => expr_types(e, v),
            Rhs::S(s) => sexpr_types(s, v),
        },
        Stmt::ElemSet { v: val, .. } => sexpr_types(val, v),
        Stmt::For { body, .. } | Stmt::If { body, .. } => stmt_types(body, v),
        Stmt::Store { m, .. } => expr_types(m, v),
    }
}

fn expr_types(e: &MExpr, v: &mut Vec<MatTy>) {
    match e {
        MExpr::Var(_) | MExpr::Load { .. } | MExpr::Call { .. } => {}
        MExpr::Bin(_, a, b) | MExpr::Rfc(_, a, b) => {
            expr_types(a, v);
            expr_types(b, v);
        }
        MExpr::Scalar { m, s, .. } | MExpr::RfcScale(m, s) | MExpr::Insert { m, x: s, .. } => {
            expr_types(m, v);
            sexpr_types(s, v);
        }
        MExpr::Transpose(m) => expr_types(m, v),
        MExpr::Cond { c, a, b } => {
            sexpr_types(c, v);
            expr_types(a, v);
            expr_types(b, v);
        }
        MExpr::Cast { to, e, .. } => {
            v.push(*to);
            expr_types(e, v);
        }
    }
}

fn sexpr_types(s: &SExpr, v: &mut Vec<MatTy>) {
    match s {
        SExpr::Param(_) | SExpr::Lit(_) => {}
        SExpr::Elem { m, .. } => expr_types(m, v),
        SExpr::Cast(_, e) => sexpr_types(e, v),
        SExpr::Bin(_, a, b) => {
            sexpr_types(a, v);
            sexpr_types(b, v);
        }
    }
}
