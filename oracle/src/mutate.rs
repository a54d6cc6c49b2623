//! Ill-typed mutants of the corpus kernels.
//!
//! A mutant is a corpus kernel, renamed, with one ill-typed statement added
//! just before its return (or with its return type changed), and sometimes
//! new parameters to give the bad statement operands. The bad line carries
//! a marker comment (`// M012` in Rust, `/* M012 */` in C) so the test can
//! find its line in both files. clang-19 must reject the C line and the
//! macro the Rust line, with the same message once Clang's `(aka '...')`
//! parts are removed.
//!
//! Mutant kinds the contract decides differently on purpose are not
//! generated; see [`LEFT_OUT`].

use crate::ast::*;
use crate::emit::{self, Lang};
use crate::prng::SplitMix64;
use crate::ty::{Elem, MatTy};

/// Mutant kinds left out, and why.
pub const LEFT_OUT: &[(&str, &str)] = &[
    (
        "scalar -> matrix cast",
        "the contract (and the spec) broadcast it; clang-19 refuses it (contract: Decisions)",
    ),
    (
        "load/store without a stride",
        "the stride is optional in the contract and the spec; clang-19 requires it",
    ),
    (
        "RFC builtins (__builtin_matrix_add, ...)",
        "a DSL extension; clang-19 does not know them, so it is no oracle for them",
    ),
    ("++ and --", "Rust has no such operators"),
    ("unary +", "Rust has no unary plus"),
    (
        "comma in a subscript",
        "Rust has no comma operator; the text cannot arise",
    ),
    (
        "?: between matrices, matrix as a condition",
        "Rust has no ?:, and `if m` is rustc's own type error",
    ),
    (
        "invalid element type bool",
        "C spells it '_Bool', the contract 'bool': a spelling difference by design",
    ),
    (
        "scalar += matrix, element write of a prvalue",
        "Rust reports these itself (not a matrix rule); the contract is silent",
    ),
    (
        "const-qualified elements, long double, _BitInt, __int128",
        "not expressible in the DSL (element types are the contract's ten)",
    ),
    (
        "float -> int literal conversions in element writes",
        "element writes are ordinary Rust assignments (contract: Clarifications)",
    ),
];

/// One ill-typed mutant.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// `m042`.
    pub name: String,
    /// The kind of mistake (`add-shape`, ...).
    pub kind: &'static str,
    /// The corpus kernel it came from.
    pub base: String,
    /// The phrase Clang's message must start with (a sanity check of the
    /// generator; the message compared is Clang's own).
    pub expect: &'static str,
    /// The renamed kernel with any added parameters.
    pub kernel: Kernel,
    /// Lines added before the return: (Rust, C).
    pub lines: Vec<(String, String)>,
    /// Which added line is ill-typed; `None` means the return line.
    pub bad_line: Option<usize>,
    /// A replacement return type: (Rust, C).
    pub ret_override: Option<(String, String)>,
    /// Matrix types the added lines name (they get typedefs).
    pub types: Vec<MatTy>,
    /// Matrix types the added lines name by their alias typedef.
    pub aliases: Vec<MatTy>,
    /// A bad typedef instead of a kernel: (Rust, C).
    pub typedef: Option<(String, String)>,
}

impl Mutant {
    /// The marker comment for a language.
    pub fn marker(&self, lang: Lang) -> String {
        match lang {
            Lang::C => format!("/* {} */", self.name.to_uppercase()),
            Lang::Rust => format!("// {}", self.name.to_uppercase()),
        }
    }
}

/// Every kind generated.
pub const KINDS: &[&str] = &[
    "add-shape",
    "sub-shape",
    "add-elem",
    "mul-inner",
    "mul-elem",
    "div-matrix",
    "scalar-div-matrix",
    "literal-div-matrix",
    "neg",
    "not",
    "compare",
    "rem",
    "bitwise",
    "logic",
    "cast-shape",
    "cast-to-scalar",
    "row-oob",
    "col-oob",
    "negative-index",
    "oob-write",
    "oob-const-expr",
    "oob-const-item",
    "single-subscript",
    "single-subscript-write",
    "separated-subscripts",
    "index-not-integer",
    "address-of-element",
    "return-type",
    "let-type",
    "assign-type",
    "assign-product",
    "mul-assign-shape",
    "mul-assign-inner",
    "add-assign-shape",
    "div-assign-matrix",
    "load-stride",
    "store-stride",
    "store-elem",
    "store-readonly",
    "load-dimension",
    "load-dynamic-dimension",
    "transpose-scalar",
    "transpose-arity",
    "store-scalar",
    "literal-conversion",
    "typedef-size",
    "sugar-same-type-product",
    "sugar-mixed-alias",
];

/// Generates `count` mutants, cycling through [`KINDS`], each from a
/// random corpus kernel.
pub fn mutants(rng: &mut SplitMix64, kernels: &[Kernel], count: usize) -> Vec<Mutant> {
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() < count {
        let kind = KINDS[i % KINDS.len()];
        i += 1;
        let base = &kernels[rng.below(kernels.len() as u64) as usize];
        let name = format!("m{:03}", out.len());
        if let Some(m) = mutate(rng, base, kind, &name) {
            out.push(m);
        }
    }
    out
}

struct Ctx<'r> {
    rng: &'r mut SplitMix64,
    k: Kernel,
    vars: Vec<(String, MatTy)>,
    types: Vec<MatTy>,
    aliases: Vec<MatTy>,
    z: u32,
}

impl Ctx<'_> {
    fn param(&mut self, kind: ParamKind) -> String {
        let name = format!("z{}", self.z);
        self.z += 1;
        if let ParamKind::Mat(t, _) = &kind {
            self.types.push(*t);
        }
        self.k.params.push(Param {
            name: name.clone(),
            kind,
            tyname: TyName::Typedef,
        });
        name
    }

    fn mat(&mut self, t: MatTy) -> String {
        self.param(ParamKind::Mat(t, Domain::Int(0, 1)))
    }

    /// A new parameter spelled with the alias typedef of `t`.
    fn mat_alias(&mut self, t: MatTy) -> String {
        let n = self.param(ParamKind::Mat(t, Domain::Int(0, 1)));
        self.k.params.last_mut().expect("just pushed").tyname = TyName::Alias;
        self.aliases.push(t);
        n
    }

    fn small(&mut self) -> u32 {
        self.rng.range(1, 6) as u32
    }

    /// A matrix variable (of the kernel, or a new parameter) whose type
    /// satisfies `ok`.
    fn var(&mut self, ok: impl Fn(&MatTy) -> bool, fallback: MatTy) -> (String, MatTy) {
        let c: Vec<(String, MatTy)> = self.vars.iter().filter(|v| ok(&v.1)).cloned().collect();
        if !c.is_empty() && self.rng.chance(3, 4) {
            return self.rng.pick(&c).clone();
        }
        let n = self.mat(fallback);
        (n, fallback)
    }

    fn any_var(&mut self) -> (String, MatTy) {
        let t = self.rand_type();
        self.var(|_| true, t)
    }

    fn rand_type(&mut self) -> MatTy {
        let e = *self.rng.pick(&Elem::ALL);
        MatTy::new(e, self.small(), self.small())
    }

    fn other_shape(&mut self, t: MatTy) -> MatTy {
        loop {
            let (r, c) = (self.small(), self.small());
            if (r, c) != (t.rows, t.cols) {
                return MatTy::new(t.elem, r, c);
            }
        }
    }

    fn other_dim(&mut self, d: u32) -> u32 {
        loop {
            let x = self.small();
            if x != d {
                return x;
            }
        }
    }

    fn other_elem(&mut self, e: Elem) -> Elem {
        loop {
            let x = *self.rng.pick(&Elem::ALL);
            if x != e {
                return x;
            }
        }
    }

    fn scalar(&mut self) -> (String, Elem) {
        let e = *self.rng.pick(&Elem::ALL);
        (self.param(ParamKind::Scalar(e, Domain::Int(0, 1))), e)
    }
}

/// A literal of element type `e` for an element write.
fn elem_lit(e: Elem) -> String {
    if e.is_float() {
        "1.5".into()
    } else {
        "1".into()
    }
}

fn same(s: String) -> (String, String) {
    (s.clone(), s)
}

/// `let bad = EXPR;` in both languages (C: `__auto_type`).
fn let_bad(rs: String, c: String) -> (String, String) {
    (
        format!("let bad = {rs};"),
        format!("__auto_type bad = {c};"),
    )
}

fn let_bad_same(e: String) -> (String, String) {
    let_bad(e.clone(), e)
}

fn mutate(rng: &mut SplitMix64, base: &Kernel, kind: &'static str, name: &str) -> Option<Mutant> {
    // The ill-typed file holds mutants only, not the kernels a base would
    // call.
    if crate::corpus::features(base).contains("call") {
        return None;
    }
    let mut k = base.clone();
    k.name = name.to_string();
    let mut vars = Vec::new();
    for p in &k.params {
        // See below: a `Matrix<T, R, C>` spelling has no C counterpart.
        if let (ParamKind::Mat(t, _), false) = (&p.kind, p.tyname == TyName::Generic) {
            vars.push((p.name.clone(), *t));
        }
    }
    for s in &k.body {
        // Only locals whose type is spelled by a typedef. A local annotated
        // `Matrix<T, R, C>` has no C spelling (C names a matrix type only
        // through a typedef); an unannotated one takes its initialiser's
        // type name, which may come from a `Matrix<..>` parameter (named
        // in C) or from an RFC builtin (whose naming clang cannot judge).
        if let Stmt::Let {
            name, ty, annot, ..
        } = s
            && matches!(annot, Annot::Typedef | Annot::Alias)
        {
            vars.push((name.clone(), *ty));
        }
    }
    let mut cx = Ctx {
        rng,
        k,
        vars,
        types: Vec::new(),
        aliases: Vec::new(),
        z: 0,
    };
    let mut lines: Vec<(String, String)> = Vec::new();
    let mut bad_line = None;
    let mut ret_override = None;
    let mut typedef = None;
    let expect: &'static str;
    const INVALID: &str = "invalid operands to binary expression";
    match kind {
        "add-shape" | "sub-shape" => {
            let (x, t) = cx.any_var();
            let u = cx.other_shape(t);
            let y = cx.mat(u);
            let op = if kind == "add-shape" { "+" } else { "-" };
            lines.push(let_bad_same(format!("{x} {op} {y}")));
            expect = INVALID;
        }
        "add-elem" => {
            let (x, t) = cx.any_var();
            let e = cx.other_elem(t.elem);
            let y = cx.mat(t.with_elem(e));
            let op = if cx.rng.chance(1, 2) { "+" } else { "-" };
            lines.push(let_bad_same(format!("{x} {op} {y}")));
            expect = INVALID;
        }
        "mul-inner" => {
            let (x, t) = cx.any_var();
            let kd = cx.other_dim(t.cols);
            let c2 = cx.small();
            let y = cx.mat(MatTy::new(t.elem, kd, c2));
            lines.push(let_bad_same(format!("{x} * {y}")));
            expect = INVALID;
        }
        "mul-elem" => {
            let (x, t) = cx.any_var();
            let e = cx.other_elem(t.elem);
            let c2 = cx.small();
            let y = cx.mat(MatTy::new(e, t.cols, c2));
            lines.push(let_bad_same(format!("{x} * {y}")));
            expect = INVALID;
        }
        "div-matrix" => {
            let (x, t) = cx.any_var();
            let y = if cx.rng.chance(1, 2) {
                x.clone()
            } else {
                cx.mat(t)
            };
            lines.push(let_bad_same(format!("{x} / {y}")));
            expect = INVALID;
        }
        "scalar-div-matrix" => {
            let (x, _) = cx.any_var();
            let (s, _) = cx.scalar();
            lines.push(let_bad_same(format!("{s} / {x}")));
            expect = INVALID;
        }
        "literal-div-matrix" => {
            let (x, _) = cx.any_var();
            let l = *cx.rng.pick(&["2", "2.0", "1.5"]);
            lines.push(let_bad_same(format!("{l} / {x}")));
            expect = INVALID;
        }
        "neg" => {
            let (x, _) = cx.any_var();
            lines.push(let_bad_same(format!("-{x}")));
            expect = "invalid argument type";
        }
        "not" => {
            let (x, _) = cx.any_var();
            lines.push(let_bad_same(format!("!{x}")));
            expect = "invalid argument type";
        }
        "compare" => {
            let (x, t) = cx.any_var();
            let op = *cx.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
            let y = match cx.rng.below(3) {
                0 => x.clone(),
                1 => cx.mat(t),
                _ => "1".to_string(),
            };
            lines.push(let_bad_same(format!("{x} {op} {y}")));
            expect = INVALID;
        }
        "rem" => {
            let e = *cx.rng.pick(&Elem::INTS);
            let fb = MatTy::new(e, cx.small(), cx.small());
            let (x, t) = cx.var(|t| !t.elem.is_float(), fb);
            let y = if cx.rng.chance(1, 2) {
                cx.mat(t)
            } else {
                "3".into()
            };
            lines.push(let_bad_same(format!("{x} % {y}")));
            expect = INVALID;
        }
        "bitwise" => {
            let e = *cx.rng.pick(&Elem::INTS);
            let fb = MatTy::new(e, cx.small(), cx.small());
            let (x, t) = cx.var(|t| !t.elem.is_float(), fb);
            let op = *cx.rng.pick(&["&", "|", "^", "<<", ">>"]);
            let y = if cx.rng.chance(1, 2) {
                cx.mat(t)
            } else {
                "1".into()
            };
            lines.push(let_bad_same(format!("{x} {op} {y}")));
            expect = INVALID;
        }
        "logic" => {
            let (x, t) = cx.any_var();
            let op = *cx.rng.pick(&["&&", "||"]);
            let y = cx.mat(t);
            lines.push(let_bad_same(format!("{x} {op} {y}")));
            expect = INVALID;
        }
        "cast-shape" => {
            let (x, t) = cx.any_var();
            let mut u = cx.other_shape(t);
            u.elem = *cx.rng.pick(&Elem::ALL);
            cx.types.push(u);
            if cx.rng.chance(1, 2) {
                lines.push(let_bad(
                    format!("{x} as {}", u.name()),
                    format!("({}){x}", u.name()),
                ));
            } else {
                lines.push(let_bad(
                    format!("({}) {x}", u.name()),
                    format!("({}){x}", u.name()),
                ));
            }
            expect = "conversion between matrix types";
        }
        "cast-to-scalar" => {
            let (x, _) = cx.any_var();
            let e = *cx.rng.pick(&Elem::ALL);
            lines.push(let_bad(
                format!("{x} as {}", e.rust()),
                format!("({}){x}", e.c()),
            ));
            expect = "conversion between matrix type ";
        }
        "row-oob" => {
            let (x, t) = cx.any_var();
            let c = cx.rng.below(t.cols as u64);
            let r = t.rows + cx.rng.below(3) as u32;
            lines.push(let_bad_same(format!("{x}[{r}][{c}]")));
            expect = "matrix row index is outside the allowed range";
        }
        "col-oob" => {
            let (x, t) = cx.any_var();
            let r = cx.rng.below(t.rows as u64);
            let c = t.cols + cx.rng.below(3) as u32;
            lines.push(let_bad_same(format!("{x}[{r}][{c}]")));
            expect = "matrix column index is outside the allowed range";
        }
        "negative-index" => {
            let (x, _) = cx.any_var();
            if cx.rng.chance(1, 2) {
                lines.push(let_bad_same(format!("{x}[-1][0]")));
                expect = "matrix row index is outside the allowed range";
            } else {
                lines.push(let_bad_same(format!("{x}[0][-1]")));
                expect = "matrix column index is outside the allowed range";
            }
        }
        "oob-write" => {
            let (x, t) = cx.any_var();
            lines.push((
                format!("let mut bad = {x};"),
                format!("__auto_type bad = {x};"),
            ));
            cx.types.push(t);
            let v = elem_lit(t.elem);
            if cx.rng.chance(1, 2) {
                lines.push(same(format!("bad[{}][0] = {v};", t.rows)));
                expect = "matrix row index is outside the allowed range";
            } else {
                lines.push(same(format!(
                    "bad[0][{}] {}= {v};",
                    t.cols,
                    cx.rng.pick(&["", "+", "*"])
                )));
                expect = "matrix column index is outside the allowed range";
            }
            bad_line = Some(1);
        }
        "oob-const-expr" => {
            let (x, t) = cx.any_var();
            lines.push(let_bad_same(format!("{x}[{} + 1][0]", t.rows - 1)));
            expect = "matrix row index is outside the allowed range";
        }
        "oob-const-item" => {
            // A constant expression over the block's `const` items.
            let (x, t) = cx.any_var();
            let extra = cx.rng.below(3) as u32;
            let e = crate::generate::const_expr(cx.rng, t.cols + extra);
            lines.push(let_bad_same(format!("{x}[0][{e}]")));
            expect = "matrix column index is outside the allowed range";
        }
        "single-subscript" => {
            let (x, t) = cx.any_var();
            let i = cx.rng.below(t.rows as u64);
            lines.push(let_bad_same(format!("{x}[{i}]")));
            expect = "single subscript expressions are not allowed for matrix values";
        }
        "single-subscript-write" => {
            let (x, t) = cx.any_var();
            cx.types.push(t);
            lines.push((
                format!("let mut bad = {x};"),
                format!("__auto_type bad = {x};"),
            ));
            lines.push(same(format!("bad[0] = {};", elem_lit(t.elem))));
            bad_line = Some(1);
            expect = "single subscript expressions are not allowed for matrix values";
        }
        "separated-subscripts" => {
            let (x, _) = cx.any_var();
            lines.push(let_bad_same(format!("({x}[0])[0]")));
            expect = "matrix row and column subscripts cannot be separated by any expression";
        }
        "index-not-integer" => {
            let (x, _) = cx.any_var();
            let f = if cx.rng.chance(1, 2) {
                Elem::F32
            } else {
                Elem::F64
            };
            let s = cx.param(ParamKind::Scalar(f, Domain::Int(0, 1)));
            if cx.rng.chance(1, 2) {
                lines.push(let_bad_same(format!("{x}[{s}][0]")));
                expect = "matrix row index is not an integer";
            } else {
                lines.push(let_bad_same(format!("{x}[0][{s}]")));
                expect = "matrix column index is not an integer";
            }
        }
        "address-of-element" => {
            let (x, _) = cx.any_var();
            lines.push(let_bad_same(format!("&{x}[0][0]")));
            expect = "address of matrix element requested";
        }
        "return-type" => {
            let Ret::Mat(t, e) = cx.k.ret.clone() else {
                return None;
            };
            // The message names the tail's type: it must be spelled alike
            // in both languages.
            if !naming_safe(&cx.k, &e) {
                return None;
            }
            let u = if cx.rng.chance(1, 2) {
                let e = cx.other_elem(t.elem);
                t.with_elem(e)
            } else {
                let mut u = cx.other_shape(t);
                u.elem = *cx.rng.pick(&Elem::ALL);
                u
            };
            cx.types.push(u);
            ret_override = Some(same(u.name()));
            expect = "returning ";
        }
        "let-type" => {
            let (x, t) = cx.any_var();
            let u = if cx.rng.chance(1, 2) {
                let e = cx.other_elem(t.elem);
                t.with_elem(e)
            } else {
                cx.other_shape(t)
            };
            cx.types.push(u);
            let init = match cx.rng.below(3) {
                0 => x.clone(),
                1 => format!("__builtin_matrix_transpose({x})"),
                _ => format!("{x} + {x}"),
            };
            let init_ty = if init.starts_with("__builtin") {
                t.transposed()
            } else {
                t
            };
            if init_ty == u {
                return None;
            }
            lines.push((
                format!("let bad: {} = {init};", u.name()),
                format!("{} bad = {init};", u.name()),
            ));
            expect = "initializing ";
        }
        "assign-type" => {
            let (x, t) = cx.any_var();
            cx.types.push(t);
            let u = if cx.rng.chance(1, 2) {
                let e = cx.other_elem(t.elem);
                t.with_elem(e)
            } else {
                cx.other_shape(t)
            };
            let y = cx.mat(u);
            lines.push((
                format!("let mut bad = {x};"),
                format!("__auto_type bad = {x};"),
            ));
            lines.push(same(format!("bad = {y};")));
            bad_line = Some(1);
            expect = "assigning to ";
        }
        "assign-product" => {
            let (x, t) = cx.any_var();
            cx.types.push(t);
            let kd = cx.small();
            let c2 = cx.other_dim(t.cols);
            let a = cx.mat(MatTy::new(t.elem, t.rows, kd));
            let b = cx.mat(MatTy::new(t.elem, kd, c2));
            lines.push((
                format!("let mut bad = {x};"),
                format!("__auto_type bad = {x};"),
            ));
            lines.push(same(format!("bad = {a} * {b};")));
            bad_line = Some(1);
            expect = "assigning to ";
        }
        "mul-assign-shape" => {
            let (x, t) = cx.any_var();
            cx.types.push(t);
            let kd = cx.other_dim(t.cols);
            let y = cx.mat(MatTy::new(t.elem, t.cols, kd));
            lines.push((
                format!("let mut bad = {x};"),
                format!("__auto_type bad = {x};"),
            ));
            lines.push(same(format!("bad *= {y};")));
            bad_line = Some(1);
            expect = "assigning to ";
        }
        "mul-assign-inner" => {
            let (x, t) = cx.any_var();
            cx.types.push(t);
            let kd = cx.other_dim(t.cols);
            let y = cx.mat(MatTy::new(t.elem, kd, t.cols));
            lines.push((
                format!("let mut bad = {x};"),
                format!("__auto_type bad = {x};"),
            ));
            lines.push(same(format!("bad *= {y};")));
            bad_line = Some(1);
            expect = INVALID;
        }
        "add-assign-shape" => {
            let (x, t) = cx.any_var();
            cx.types.push(t);
            let u = cx.other_shape(t);
            let y = cx.mat(u);
            let op = *cx.rng.pick(&["+=", "-="]);
            lines.push((
                format!("let mut bad = {x};"),
                format!("__auto_type bad = {x};"),
            ));
            lines.push(same(format!("bad {op} {y};")));
            bad_line = Some(1);
            expect = INVALID;
        }
        "div-assign-matrix" => {
            let (x, t) = cx.any_var();
            cx.types.push(t);
            let y = cx.mat(t);
            lines.push((
                format!("let mut bad = {x};"),
                format!("__auto_type bad = {x};"),
            ));
            lines.push(same(format!("bad /= {y};")));
            bad_line = Some(1);
            expect = INVALID;
        }
        "load-stride" => {
            let e = *cx.rng.pick(&Elem::ALL);
            let r = cx.rng.range(2, 6) as u32;
            let c = cx.small();
            let s = cx.rng.below(r as u64);
            let src = cx.param(ParamKind::Src(e, 64, Domain::Int(0, 1)));
            lines.push(let_bad_same(format!(
                "__builtin_matrix_column_major_load({src}, {r}, {c}, {s})"
            )));
            expect = "stride must be greater or equal to the number of rows";
        }
        "store-stride" => {
            let e = *cx.rng.pick(&Elem::INTS);
            let fb = MatTy::new(e, cx.rng.range(2, 6) as u32, cx.small());
            let (x, t) = cx.var(|t| t.rows >= 2, fb);
            let s = cx.rng.below(t.rows as u64);
            let dst = cx.param(ParamKind::Dst(t.elem, 300, Domain::Int(0, 1)));
            lines.push(same(format!(
                "__builtin_matrix_column_major_store({x}, {dst}, {s});"
            )));
            expect = "stride must be greater or equal to the number of rows";
        }
        "store-elem" => {
            let (x, t) = cx.any_var();
            let e = cx.other_elem(t.elem);
            let dst = cx.param(ParamKind::Dst(e, 300, Domain::Int(0, 1)));
            lines.push(same(format!(
                "__builtin_matrix_column_major_store({x}, {dst}, {});",
                t.rows
            )));
            expect =
                "the pointee of the 2nd argument must match the element type of the 1st argument";
        }
        "store-readonly" => {
            let (x, t) = cx.any_var();
            let src = cx.param(ParamKind::Src(t.elem, 300, Domain::Int(0, 1)));
            lines.push(same(format!(
                "__builtin_matrix_column_major_store({x}, {src}, {});",
                t.rows
            )));
            expect = "cannot store matrix to read-only pointer";
        }
        "load-dimension" => {
            let e = *cx.rng.pick(&Elem::ALL);
            let src = cx.param(ParamKind::Src(e, 64, Domain::Int(0, 1)));
            match cx.rng.below(4) {
                0 => {
                    lines.push(let_bad_same(format!(
                        "__builtin_matrix_column_major_load({src}, 0, 2, 1)"
                    )));
                    expect = "row dimension is outside the allowed range [1, 1048575]";
                }
                1 => {
                    lines.push(let_bad_same(format!(
                        "__builtin_matrix_column_major_load({src}, 2, 0, 2)"
                    )));
                    expect = "column dimension is outside the allowed range [1, 1048575]";
                }
                2 => {
                    lines.push(let_bad_same(format!(
                        "__builtin_matrix_column_major_load({src}, 1048576, 1, 1048576)"
                    )));
                    expect = "row dimension is outside the allowed range [1, 1048575]";
                }
                _ => {
                    lines.push(let_bad_same(format!(
                        "__builtin_matrix_column_major_load({src}, 1, 1048576, 1)"
                    )));
                    expect = "column dimension is outside the allowed range [1, 1048575]";
                }
            }
        }
        "load-dynamic-dimension" => {
            let e = *cx.rng.pick(&Elem::ALL);
            let src = cx.param(ParamKind::Src(e, 64, Domain::Int(0, 1)));
            let n = cx.param(ParamKind::Stride(1, 2));
            if cx.rng.chance(1, 2) {
                lines.push(let_bad_same(format!(
                    "__builtin_matrix_column_major_load({src}, {n}, 2, 4)"
                )));
                expect = "row argument must be a constant unsigned integer expression";
            } else {
                lines.push(let_bad_same(format!(
                    "__builtin_matrix_column_major_load({src}, 2, {n}, 2)"
                )));
                expect = "column argument must be a constant unsigned integer expression";
            }
        }
        "transpose-scalar" => {
            let (s, _) = cx.scalar();
            lines.push(let_bad_same(format!("__builtin_matrix_transpose({s})")));
            expect = "1st argument must be a matrix";
        }
        "transpose-arity" => {
            let (x, _) = cx.any_var();
            lines.push(let_bad_same(format!(
                "__builtin_matrix_transpose({x}, {x})"
            )));
            expect = "too many arguments to function call, expected 1, have 2";
        }
        "store-scalar" => {
            let (s, e) = cx.scalar();
            let dst = cx.param(ParamKind::Dst(e, 4, Domain::Int(0, 1)));
            lines.push(same(format!(
                "__builtin_matrix_column_major_store({s}, {dst}, 1);"
            )));
            expect = "1st argument must be a matrix";
        }
        "literal-conversion" => {
            let e = *cx.rng.pick(&Elem::INTS);
            let fb = MatTy::new(e, cx.small(), cx.small());
            let (x, t) = cx.var(|t| !t.elem.is_float(), fb);
            let op = *cx.rng.pick(&["+", "-", "*", "/"]);
            let lit = match (t.elem, cx.rng.below(4)) {
                (_, 0) => "2.5",
                (_, 1) if t.elem.bits() < 64 => match t.elem.bits() {
                    8 => "0x100",
                    16 => "0x1_0000",
                    _ => "0x1_0000_0000",
                },
                (Elem::I8, _) => "200",
                (Elem::U8, _) => "300",
                (Elem::I16, _) | (Elem::U16, _) => "70000",
                (Elem::I32, _) | (Elem::U32, _) => "5000000000",
                _ => "0.5",
            };
            // C has no digit separators.
            let c_lit = lit.replace('_', "");
            lines.push(let_bad(
                format!("{x} {op} {lit}"),
                format!("{x} {op} {c_lit}"),
            ));
            expect = "implicit conversion from ";
        }
        "sugar-same-type-product" => {
            // clang-19 keeps the typedef of a product whose operands have
            // the same typedef (the common sugared type).
            let n = cx.small();
            let e = *cx.rng.pick(&Elem::ALL);
            let t = MatTy::new(e, n, n);
            let x = cx.mat(t);
            let y = if cx.rng.chance(1, 2) {
                x.clone()
            } else {
                cx.mat(t)
            };
            let f = cx.other_elem(e);
            let u = t.with_elem(f);
            cx.types.push(u);
            lines.push((
                format!("let bad: {} = {x} * {y};", u.name()),
                format!("{} bad = {x} * {y};", u.name()),
            ));
            expect = "initializing ";
        }
        "sugar-mixed-alias" => {
            // Two typedefs of one type: the result has no typedef name.
            let n = cx.small();
            let e = *cx.rng.pick(&Elem::ALL);
            let t = MatTy::new(e, n, n);
            let x = cx.mat(t);
            let y = cx.mat_alias(t);
            let op = *cx.rng.pick(&["+", "-", "*"]);
            let (l, r) = if cx.rng.chance(1, 2) { (x, y) } else { (y, x) };
            let f = cx.other_elem(e);
            let u = t.with_elem(f);
            cx.types.push(u);
            lines.push((
                format!("let bad: {} = {l} {op} {r};", u.name()),
                format!("{} bad = {l} {op} {r};", u.name()),
            ));
            expect = "initializing ";
        }
        "typedef-size" => {
            let e = *cx.rng.pick(&Elem::ALL);
            let (r, c, exp) = match cx.rng.below(4) {
                0 => (0, 4, "zero matrix size"),
                1 => (3, 0, "zero matrix size"),
                2 => (1048576, 2, "matrix row size too large"),
                _ => (2, 1048576, "matrix column size too large"),
            };
            let tn = format!("bad_{name}");
            typedef = Some((
                format!(
                    "typedef {} {tn} __attribute__((matrix_type({r}, {c})));",
                    e.rust()
                ),
                format!(
                    "typedef {} {tn} __attribute__((matrix_type({r}, {c})));",
                    e.c()
                ),
            ));
            expect = exp;
        }
        _ => unreachable!("unknown mutant kind {kind}"),
    }
    if ret_override.is_none() && typedef.is_none() && bad_line.is_none() {
        bad_line = Some(lines.len() - 1);
    }
    Some(Mutant {
        name: name.to_string(),
        kind,
        base: base.name.clone(),
        expect,
        kernel: cx.k,
        lines,
        bad_line,
        ret_override,
        types: cx.types,
        aliases: cx.aliases,
        typedef,
    })
}

/// Whether the type clang names for `e` is spelled alike by the Rust
/// kernel: no RFC builtins (clang has none), and every variable typed by a
/// typedef (see `vars` in `mutate`).
fn naming_safe(k: &Kernel, e: &MExpr) -> bool {
    let var_ok = |v: &str| {
        k.params
            .iter()
            .any(|p| p.name == v && matches!(p.tyname, TyName::Typedef | TyName::Alias))
            || k.body.iter().any(|s| {
                matches!(s, Stmt::Let { name, annot: Annot::Typedef | Annot::Alias, .. } if name == v)
            })
    };
    fn walk(e: &MExpr, ok: &dyn Fn(&str) -> bool) -> bool {
        match e {
            MExpr::Var(v) => ok(v),
            MExpr::Load { rfc, .. } => !rfc,
            MExpr::Rfc(..)
            | MExpr::RfcScale(..)
            | MExpr::Insert { .. }
            | MExpr::Call { .. }
            | MExpr::Cond { .. } => false,
            MExpr::Bin(_, a, b) => walk(a, ok) && walk(b, ok),
            MExpr::Scalar { m, .. } => walk(m, ok),
            MExpr::Transpose(_) | MExpr::Cast { .. } => true,
        }
    }
    walk(e, &var_ok)
}

fn mutant_lines(m: &Mutant, lang: Lang) -> Vec<String> {
    let pick = |p: &(String, String)| match lang {
        Lang::Rust => p.0.clone(),
        Lang::C => p.1.clone(),
    };
    if let Some(t) = &m.typedef {
        return vec![format!("{} {}", pick(t), m.marker(lang))];
    }
    let mut extra: Vec<String> = m.lines.iter().map(pick).collect();
    if let Some(i) = m.bad_line {
        extra[i] = format!("{} {}", extra[i], m.marker(lang));
    }
    let ro = m.ret_override.as_ref().map(pick);
    let mut lines = emit::kernel_lines(&m.kernel, lang, &extra, ro.as_deref());
    if m.bad_line.is_none() {
        // The return statement is the line before the closing brace.
        let n = lines.len();
        lines[n - 2] = format!("{} {}", lines[n - 2], m.marker(lang));
    }
    lines
}

/// The matrix types and alias types the mutants name.
pub fn all_types(ms: &[Mutant]) -> (Vec<MatTy>, Vec<MatTy>) {
    let mut v = Vec::new();
    let mut a = Vec::new();
    for m in ms {
        if m.typedef.is_none() {
            v.extend(m.kernel.mat_types());
            v.extend(m.types.iter().copied());
            a.extend(m.kernel.aliases());
            a.extend(m.aliases.iter().copied());
        }
    }
    v.sort();
    v.dedup();
    a.sort();
    a.dedup();
    (v, a)
}

/// The C file of all mutants (for `clang-19 -fsyntax-only`).
pub fn c_file(ms: &[Mutant], cmd: &str, tds: &crate::corpus::Typedefs) -> String {
    let mut out = format!(
        "/* @generated by `{cmd}` */\n/* Ill-typed mutants: clang-19 must reject each marked line. */\n\n"
    );
    for l in tds.c_lines() {
        out.push_str(&l);
        out.push('\n');
    }
    for m in ms {
        out.push('\n');
        for l in mutant_lines(m, Lang::C) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

/// The Rust file of all mutants: the `lib.rs` of a scratch crate, with all
/// mutants in one `matrix!` block.
pub fn rs_file(
    ms: &[Mutant],
    cmd: &str,
    tds: &crate::corpus::Typedefs,
    rng: &mut SplitMix64,
) -> String {
    let mut out = format!(
        "// @generated by `{cmd}`\n// Ill-typed mutants: the macro must reject each marked line.\n\n"
    );
    out.push_str("#![allow(unused, clippy::all)]\n");
    out.push_str("use matrix_core::matrix;\nuse matrix_core::Matrix;\n\n");
    out.push_str("matrix! {\n");
    for l in tds.rs_lines(rng) {
        out.push_str(&format!("    {l}\n"));
    }
    for m in ms {
        out.push('\n');
        for l in mutant_lines(m, Lang::Rust) {
            out.push_str(&format!("    {l}\n"));
        }
    }
    out.push_str(
        "}\n\n// Well-typed kernels the macro must accept (see accept.rs).\nmod accept;\n",
    );
    out
}
