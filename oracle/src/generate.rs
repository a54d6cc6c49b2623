//! Random well-typed kernels.
//!
//! Every expression is generated for a wanted type, so the kernels are
//! well-typed by construction. Alongside each expression the generator
//! keeps an interval that bounds its values at run time ([`Iv`]); it uses
//! the bounds to keep the C side free of undefined behaviour (float to
//! integer conversions out of range, signed overflow in scalar element
//! arithmetic) and the Rust side free of overflow panics in element
//! arithmetic. Matrix arithmetic on integers may wrap freely: Clang emits
//! no `nsw` for it (clang-behaviour.md H14) and the DSL wraps.

use crate::ast::*;
use crate::prng::SplitMix64;
use crate::ty::{Elem, IdxTy, Layout, MatTy};

/// A bound on run-time values: every value lies in `lo..=hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iv {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

impl Iv {
    /// An interval.
    pub fn new(lo: f64, hi: f64) -> Iv {
        if lo.is_nan() || hi.is_nan() {
            return Iv::new(f64::NEG_INFINITY, f64::INFINITY);
        }
        Iv { lo, hi }
    }

    /// Every value of `e` (for floats, every value including infinities).
    pub fn full(e: Elem) -> Iv {
        Iv::new(e.min_value(), e.max_value())
    }

    /// The values a [`Domain`] draws, as values of `e`.
    pub fn of_domain(d: &Domain, e: Elem) -> Iv {
        let raw = match d {
            Domain::Int(lo, hi) => Iv::new(*lo as f64, *hi as f64),
            Domain::Full => return Iv::full(e),
            Domain::Dyadic(lo, hi, s) => {
                let k = 2f64.powi(*s as i32);
                Iv::new(*lo as f64 / k, *hi as f64 / k)
            }
            Domain::IntChoice(v) => Iv::new(
                v.iter().copied().min().unwrap() as f64,
                v.iter().copied().max().unwrap() as f64,
            ),
            Domain::FloatChoice(v) => Iv::new(
                v.iter().copied().fold(f64::INFINITY, f64::min),
                v.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            ),
        };
        raw.fit(e)
    }

    /// The smallest interval holding both.
    pub fn union(self, o: Iv) -> Iv {
        Iv::new(self.lo.min(o.lo), self.hi.max(o.hi))
    }

    /// Bound of `a + b`.
    pub fn plus(self, o: Iv) -> Iv {
        Iv::new(self.lo + o.lo, self.hi + o.hi)
    }

    /// Bound of `a - b`.
    pub fn minus(self, o: Iv) -> Iv {
        Iv::new(self.lo - o.hi, self.hi - o.lo)
    }

    /// Bound of `a * b`.
    pub fn times_iv(self, o: Iv) -> Iv {
        let c = [
            self.lo * o.lo,
            self.lo * o.hi,
            self.hi * o.lo,
            self.hi * o.hi,
        ];
        if c.iter().any(|x| x.is_nan()) {
            return Iv::new(f64::NEG_INFINITY, f64::INFINITY);
        }
        Iv::new(
            c.iter().copied().fold(f64::INFINITY, f64::min),
            c.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        )
    }

    /// Bound of a sum of `k` values of `self`.
    pub fn times(self, k: u32) -> Iv {
        Iv::new(self.lo * k as f64, self.hi * k as f64)
    }

    /// The largest magnitude.
    pub fn mag(self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }

    /// The bound after the result is stored in `e`: integers that may leave
    /// the type's range wrap, so the bound becomes the whole type; floats
    /// that may grow huge are treated as unbounded.
    pub fn fit(self, e: Elem) -> Iv {
        if e.is_float() {
            let limit = if e == Elem::F32 { 1e37 } else { 1e300 };
            if self.mag() > limit {
                Iv::new(f64::NEG_INFINITY, f64::INFINITY)
            } else {
                self
            }
        } else if self.fits(e) {
            self
        } else {
            Iv::full(e)
        }
    }

    /// `true` if every value fits `e` without wrapping.
    pub fn fits(self, e: Elem) -> bool {
        // `i64::MAX` and `u64::MAX` are no `f64`: they round up to a power
        // of two, where a sum drops its low bits (`u64::MAX + 10` is the
        // same `f64`), so for those types only a bound below the power of
        // two is known to fit.
        let below_max = if !e.is_float() && e.bits() == 64 {
            self.hi < e.max_value()
        } else {
            self.hi <= e.max_value()
        };
        self.lo >= e.min_value() && below_max
    }

    /// The bound after converting from `from` to `to` as C (and Rust's
    /// `as`) do, or `None` if some value would make the C conversion
    /// undefined (a float out of the integer type's range).
    pub fn convert(self, from: Elem, to: Elem) -> Option<Iv> {
        if from == Elem::F64 && to == Elem::F32 && self.mag() > f32::MAX as f64 {
            // Narrowing a double out of float's range: C leaves it
            // undefined (Annex F aside), so the corpus never does it.
            return None;
        }
        if from.is_float() && !to.is_float() {
            let ok = if to.is_unsigned() {
                self.lo > -1.0 && self.hi < 2f64.powi(to.bits() as i32 - 1)
            } else {
                self.mag() < 2f64.powi(to.bits() as i32 - 2)
            };
            if !ok {
                return None;
            }
            let lo = if to.is_unsigned() {
                self.lo.trunc().max(0.0)
            } else {
                self.lo.trunc()
            };
            Some(Iv::new(lo, self.hi.trunc()))
        } else {
            Some(self.fit(to))
        }
    }
}

/// One matrix variable in scope.
#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: MatTy,
    iv: Iv,
    local: bool,
}

/// State while generating one kernel.
struct KGen<'r> {
    rng: &'r mut SplitMix64,
    params: Vec<Param>,
    vars: Vec<Var>,
    mutated: Vec<String>,
    callees: &'r [Kernel],
    n: [u32; 9],
}

const N_MAT: usize = 0;
const N_SCALAR: usize = 1;
const N_IDX: usize = 2;
const N_STRIDE: usize = 3;
const N_SRC: usize = 4;
const N_DST: usize = 5;
const N_LOCAL: usize = 6;
const N_LOOP: usize = 7;
const N_INSERT: usize = 8;

/// The open findings of `oracle/FINDINGS.md` that stop the macro from
/// compiling a valid spelling. The generator writes an equivalent spelling
/// instead, so one bug does not stop the whole corpus from compiling, and
/// records it in [`Kernel::avoided`]; the original spellings go to
/// `corpus/accept.rs`, which must compile. Remove a finding once it is
/// fixed and regenerate, to put its pattern back into the corpus.
pub const OPEN_FINDINGS: &[&str] = &[];

fn avoiding(finding: &str) -> bool {
    OPEN_FINDINGS.contains(&finding)
}

/// Whether `k` may be called from a later kernel: it returns a matrix and
/// takes only matrices, scalars and indices.
pub fn callable(k: &Kernel) -> bool {
    matches!(k.ret, Ret::Mat(..))
        && k.params.iter().all(|p| {
            matches!(
                p.kind,
                ParamKind::Mat(..) | ParamKind::Scalar(..) | ParamKind::Index(..)
            )
        })
}

/// A constant expression over literals and the block's constants
/// ([`crate::emit::CONSTS`]) whose value is `v`; the same text is valid C
/// and Rust and never goes below zero.
pub fn const_expr(rng: &mut SplitMix64, v: u32) -> String {
    let ks = crate::emit::CONSTS;
    let mut forms: Vec<String> = Vec::new();
    for &(n, k) in ks {
        if k == v {
            forms.push(n.to_string());
        }
        if k < v {
            forms.push(format!("{n} + {}", v - k));
        }
        if k <= v && v.is_multiple_of(k) && v / k > 1 {
            forms.push(format!("{n} * {}", v / k));
        }
        forms.push(format!("{} - {n}", v + k));
        forms.push(format!("({n} * {v}) / {n}"));
    }
    if v >= 1 {
        forms.push(format!("{} + 1", v - 1));
    } else {
        forms.push("K2 - 2".into());
    }
    rng.pick(&forms).clone()
}

/// Generates one well-typed kernel named `name` from `rng`; it may call
/// the kernels of `callees` (earlier kernels of its chunk).
pub fn kernel(rng: &mut SplitMix64, name: &str, callees: &[Kernel]) -> Kernel {
    let input_seed = rng.next_u64();
    let mut g = KGen {
        rng,
        params: Vec::new(),
        vars: Vec::new(),
        mutated: Vec::new(),
        callees,
        n: [0; 9],
    };
    let n_stmts = g.rng.weighted(&[3, 4, 4, 3, 2, 1]);
    let mut body = Vec::new();
    for _ in 0..n_stmts {
        let s = g.stmt();
        body.push(s);
    }
    let ret = match g.rng.weighted(&[16, 2, 2]) {
        0 => {
            let ty = g.pick_type();
            let d = g.depth();
            let (e, _) = g.mexpr(ty, d);
            Ret::Mat(ty, e)
        }
        1 => {
            let (s, e, _) = g.elem_read(2);
            Ret::Scalar(e, s)
        }
        _ => {
            if !body.iter().any(|s| matches!(s, Stmt::Store { .. })) {
                let s = g.store();
                body.push(s);
            }
            Ret::Unit
        }
    };
    let mut explicit_return = !matches!(ret, Ret::Unit) && g.rng.chance(1, 5);
    let mut avoided = Vec::new();
    if avoiding("F2")
        && !explicit_return
        && matches!(body.last(), Some(Stmt::For { .. } | Stmt::If { .. }))
        && crate::emit::ret_expr(&ret, crate::emit::Lang::Rust)
            .is_some_and(|t| starts_with_c_cast(&t))
    {
        // FINDINGS.md F2: the macro cannot parse a tail that starts with a
        // C-style cast right after a block-like statement.
        explicit_return = true;
        avoided.push("F2".to_string());
    }
    if avoiding("F5")
        && !explicit_return
        && matches!(&ret, Ret::Scalar(_, SExpr::Elem { m, .. }) if matches!(**m, MExpr::Insert { .. }))
    {
        // FINDINGS.md F5: an element of `__builtin_matrix_insert(..)` as the
        // tail does not compile.
        explicit_return = true;
        avoided.push("F5".to_string());
    }
    let mut attrs = Vec::new();
    if g.rng.chance(1, 4) {
        attrs.push(format!("/// Kernel `{name}` of the oracle corpus."));
    }
    if g.rng.chance(1, 8) {
        attrs.push(
            g.rng
                .pick(&[
                    "#[inline]",
                    "#[inline(never)]",
                    "#[allow(unused_variables)]",
                ])
                .to_string(),
        );
    }
    Kernel {
        name: name.to_string(),
        params: g.params,
        mutated: g.mutated,
        body,
        ret,
        explicit_return,
        input_seed,
        attrs,
        avoided,
        layout: Layout::ColumnMajor,
    }
}

/// A random kernel over row-major matrices: one that reads and writes no
/// memory (the column-major load and store builtins are refused for
/// row-major matrices by clang 22), drawn again from `rng` until it is so.
pub fn row_major_kernel(rng: &mut SplitMix64, name: &str, callees: &[Kernel]) -> Kernel {
    loop {
        let k = kernel(rng, name, callees);
        let memory = k.params.iter().any(|p| {
            matches!(
                p.kind,
                ParamKind::Src(..) | ParamKind::Dst(..) | ParamKind::Stride(..)
            )
        });
        if !memory {
            return Kernel {
                layout: Layout::RowMajor,
                ..k
            };
        }
    }
}

impl KGen<'_> {
    fn fresh(&mut self, which: usize, prefix: &str) -> String {
        let k = self.n[which];
        self.n[which] += 1;
        format!("{prefix}{k}")
    }

    fn push_param(&mut self, name: &str, kind: ParamKind) {
        self.params.push(Param {
            name: name.to_string(),
            kind,
            tyname: TyName::Typedef,
        });
    }

    fn depth(&mut self) -> u32 {
        1 + self.rng.weighted(&[3, 4, 4, 3, 2]) as u32
    }

    fn dim(&mut self) -> u32 {
        match self.rng.weighted(&[12, 6, 2]) {
            0 => self.rng.range(1, 4) as u32,
            1 => self.rng.range(5, 8) as u32,
            _ => self.rng.range(9, 16) as u32,
        }
    }

    fn elem(&mut self) -> Elem {
        *self.rng.pick(&Elem::ALL)
    }

    /// A type for a new expression: often one already in scope.
    fn pick_type(&mut self) -> MatTy {
        if !self.vars.is_empty() && self.rng.chance(1, 2) {
            let i = self.rng.below(self.vars.len() as u64) as usize;
            return self.vars[i].ty;
        }
        let e = self.elem();
        let (r, c) = (self.dim(), self.dim());
        MatTy::new(e, r, c)
    }

    fn value_domain(&mut self, e: Elem) -> Domain {
        if e.is_float() {
            if self.rng.chance(1, 8) {
                Domain::FloatChoice(special_floats(e, e))
            } else {
                Domain::Dyadic(-32, 32, 2)
            }
        } else if self.rng.chance(1, 2) {
            Domain::Full
        } else if e.is_signed_int() {
            Domain::Int(-8, 8)
        } else {
            Domain::Int(0, 16)
        }
    }

    fn mat_param(&mut self, ty: MatTy) -> (MExpr, Iv) {
        let name = self.fresh(N_MAT, "a");
        let dom = self.value_domain(ty.elem);
        let iv = Iv::of_domain(&dom, ty.elem);
        let tyname = match self.rng.weighted(&[12, 3, 2]) {
            0 => TyName::Typedef,
            1 => TyName::Alias,
            _ => TyName::Generic,
        };
        self.params.push(Param {
            name: name.clone(),
            kind: ParamKind::Mat(ty, dom),
            tyname,
        });
        self.vars.push(Var {
            name: name.clone(),
            ty,
            iv,
            local: false,
        });
        (MExpr::Var(name), iv)
    }

    /// A constant `v`: the literal or, sometimes, a constant expression.
    fn konst(&mut self, v: u32) -> Option<String> {
        if self.rng.chance(1, 5) {
            Some(const_expr(self.rng, v))
        } else {
            None
        }
    }

    fn stride(&mut self, rows: u32) -> (Stride, u32) {
        if self.rng.chance(1, 3) {
            let name = self.fresh(N_STRIDE, "n");
            self.push_param(&name, ParamKind::Stride(rows, rows + 3));
            (Stride::Param(name), rows + 3)
        } else {
            let s = rows + self.rng.range(0, 3) as u32;
            match self.konst(s) {
                Some(t) => (Stride::Expr(t, s), s),
                None => (Stride::Const(s), s),
            }
        }
    }

    fn dim_of(&mut self, v: u32) -> Dim {
        Dim {
            value: v,
            text: self.konst(v),
        }
    }

    fn load(&mut self, ty: MatTy) -> (MExpr, Iv) {
        let (stride, max_stride) = self.stride(ty.rows);
        let len = ((ty.cols - 1) * max_stride + ty.rows) as usize + self.rng.range(0, 2) as usize;
        let name = self.fresh(N_SRC, "src");
        let dom = self.value_domain(ty.elem);
        let iv = Iv::of_domain(&dom, ty.elem);
        self.push_param(&name, ParamKind::Src(ty.elem, len, dom));
        let rows = self.dim_of(ty.rows);
        let cols = self.dim_of(ty.cols);
        let rfc = self.rng.chance(1, 5);
        (
            MExpr::Load {
                src: name,
                rows,
                cols,
                stride,
                rfc,
            },
            iv,
        )
    }

    fn store(&mut self) -> Stmt {
        let ty = self.pick_type();
        let d = self.depth();
        let (m, _) = self.mexpr(ty, d);
        let (stride, max_stride) = self.stride(ty.rows);
        let len = ((ty.cols - 1) * max_stride + ty.rows) as usize + self.rng.range(0, 2) as usize;
        let name = self.fresh(N_DST, "dst");
        let dom = self.value_domain(ty.elem);
        self.push_param(&name, ParamKind::Dst(ty.elem, len, dom));
        let rfc = self.rng.chance(1, 5);
        Stmt::Store {
            m,
            dst: name,
            stride,
            rfc,
        }
    }

    /// A call of an earlier kernel returning `ty`, with new parameters
    /// drawn like the callee's own.
    fn call(&mut self, callee: usize) -> (MExpr, MatTy, Iv) {
        let k = &self.callees[callee];
        let Ret::Mat(ty, _) = k.ret else {
            unreachable!("callable kernels return matrices")
        };
        let kname = k.name.clone();
        let kinds: Vec<ParamKind> = k.params.iter().map(|p| p.kind.clone()).collect();
        let mut args = Vec::new();
        for kind in kinds {
            let (which, prefix) = match &kind {
                ParamKind::Mat(..) => (N_MAT, "a"),
                ParamKind::Scalar(..) => (N_SCALAR, "s"),
                _ => (N_IDX, "i"),
            };
            let name = self.fresh(which, prefix);
            self.push_param(&name, kind);
            args.push(name);
        }
        (
            MExpr::Call {
                kernel: kname,
                args,
            },
            ty,
            Iv::full(ty.elem),
        )
    }

    /// A leaf of type `ty`: a variable in scope, a new parameter or a load.
    fn leaf(&mut self, ty: MatTy) -> (MExpr, Iv) {
        let same: Vec<usize> = (0..self.vars.len())
            .filter(|&i| self.vars[i].ty == ty)
            .collect();
        let w_var = if same.is_empty() { 0 } else { 5 };
        let w_param = if self.n[N_MAT] < 10 { 3 } else { 1 };
        match self.rng.weighted(&[w_var, w_param, 1]) {
            0 => {
                let i = same[self.rng.below(same.len() as u64) as usize];
                let v = &self.vars[i];
                (MExpr::Var(v.name.clone()), v.iv)
            }
            1 => self.mat_param(ty),
            _ => self.load(ty),
        }
    }

    /// A matrix expression of type `ty` and depth at most `depth`.
    fn mexpr(&mut self, ty: MatTy, depth: u32) -> (MExpr, Iv) {
        if depth == 0 {
            return self.leaf(ty);
        }
        let w_leaf = if depth <= 1 { 3 } else { 1 };
        match self.rng.weighted(&[w_leaf, 3, 3, 3, 1, 1, 1, 1]) {
            0 => self.leaf(ty),
            1 => {
                let op = if self.rng.chance(1, 2) {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let (a, ia) = self.mexpr(ty, depth - 1);
                let db = self.rng.below(depth as u64) as u32;
                let (b, ib) = self.mexpr(ty, db);
                let iv = if op == BinOp::Add {
                    ia.plus(ib)
                } else {
                    ia.minus(ib)
                };
                let e = if self.rng.chance(1, 8) {
                    let r = if op == BinOp::Add {
                        RfcOp::Add
                    } else {
                        RfcOp::Sub
                    };
                    MExpr::Rfc(r, Box::new(a), Box::new(b))
                } else {
                    MExpr::Bin(op, Box::new(a), Box::new(b))
                };
                (e, iv.fit(ty.elem))
            }
            2 => self.scalar_op(ty, depth),
            3 => {
                let k = self.dim();
                let (a, ia) = self.mexpr(MatTy::new(ty.elem, ty.rows, k), depth - 1);
                let db = self.rng.below(depth as u64) as u32;
                let (mut b, mut ib) = self.mexpr(MatTy::new(ty.elem, k, ty.cols), db);
                if clang_crashes_on_product(ty, &b) {
                    (b, ib) = self.leaf(MatTy::new(ty.elem, k, ty.cols));
                }
                let iv = ia.times_iv(ib).times(k).fit(ty.elem);
                let e = if self.rng.chance(1, 8) {
                    MExpr::Rfc(RfcOp::Multiply, Box::new(a), Box::new(b))
                } else {
                    MExpr::Bin(BinOp::Mul, Box::new(a), Box::new(b))
                };
                (e, iv)
            }
            4 => {
                let (a, ia) = self.mexpr(ty.transposed(), depth - 1);
                (MExpr::Transpose(Box::new(a)), ia)
            }
            5 => {
                let (m, im) = self.mexpr(ty, depth - 1);
                let r = self.index(ty.rows);
                let c = self.index(ty.cols);
                let (x, ix) = self.scalar_operand(ty.elem);
                let id = self.n[N_INSERT];
                self.n[N_INSERT] += 1;
                (
                    MExpr::Insert {
                        id,
                        m: Box::new(m),
                        r,
                        c,
                        x: Box::new(x),
                    },
                    im.union(ix),
                )
            }
            6 => self.conditional(ty, depth),
            _ => {
                for _ in 0..4 {
                    // Mostly another element type; sometimes the same one
                    // (an identity conversion).
                    let from = if self.rng.chance(1, 8) {
                        ty.elem
                    } else {
                        self.elem()
                    };
                    let (a, ia) = self.mexpr(ty.with_elem(from), depth - 1);
                    if let Some(iv) = ia.convert(from, ty.elem) {
                        let style = if self.rng.chance(1, 3) {
                            CastStyle::CStyle
                        } else {
                            CastStyle::As
                        };
                        return (
                            MExpr::Cast {
                                to: ty,
                                style,
                                e: Box::new(a),
                            },
                            iv,
                        );
                    }
                }
                self.leaf(ty)
            }
        }
    }

    /// `c ? a : b`: a scalar parameter of any element type as the
    /// condition, drawn where zero is common so that each operand is
    /// chosen, and two operands of `ty`.
    fn conditional(&mut self, ty: MatTy, depth: u32) -> (MExpr, Iv) {
        let p = self.elem();
        let dom = if p.is_float() {
            Domain::FloatChoice(vec![0.0, -0.0, 1.5, -2.0])
        } else if p.is_signed_int() {
            Domain::Int(-1, 1)
        } else {
            Domain::Int(0, 1)
        };
        let c = self.scalar_param(p, dom);
        let (a, ia) = self.mexpr(ty, depth - 1);
        let db = self.rng.below(u64::from(depth)) as u32;
        let (b, ib) = self.mexpr(ty, db);
        let e = MExpr::Cond {
            c: Box::new(c),
            a: Box::new(a),
            b: Box::new(b),
        };
        (e, ia.union(ib))
    }

    /// `m op s`, `s op m` (`+ - *`) or `m / s`.
    fn scalar_op(&mut self, ty: MatTy, depth: u32) -> (MExpr, Iv) {
        let (m, im) = self.mexpr(ty, depth - 1);
        let op = match self.rng.weighted(&[3, 3, 3, 2]) {
            0 => BinOp::Add,
            1 => BinOp::Sub,
            2 => BinOp::Mul,
            _ => BinOp::Div,
        };
        if op == BinOp::Div {
            let (s, min_abs) = self.divisor(ty.elem);
            let iv = if ty.elem.is_float() {
                let b = im.mag() / min_abs;
                Iv::new(-b, b).fit(ty.elem)
            } else {
                let b = im.mag();
                Iv::new(if ty.elem.is_unsigned() { 0.0 } else { -b }, b).fit(ty.elem)
            };
            return (
                MExpr::Scalar {
                    op,
                    m: Box::new(m),
                    s: Box::new(s),
                    scalar_left: false,
                },
                iv,
            );
        }
        let (s, is) = self.scalar_operand(ty.elem);
        let scalar_left = self.rng.chance(1, 3);
        let iv = match (op, scalar_left) {
            (BinOp::Add, _) => im.plus(is),
            (BinOp::Sub, false) => im.minus(is),
            (BinOp::Sub, true) => is.minus(im),
            _ => im.times_iv(is),
        };
        if op == BinOp::Mul && !scalar_left && self.rng.chance(1, 5) {
            return (MExpr::RfcScale(Box::new(m), Box::new(s)), iv.fit(ty.elem));
        }
        (
            MExpr::Scalar {
                op,
                m: Box::new(m),
                s: Box::new(s),
                scalar_left,
            },
            iv.fit(ty.elem),
        )
    }

    fn scalar_param(&mut self, p: Elem, dom: Domain) -> SExpr {
        let name = self.fresh(N_SCALAR, "s");
        self.push_param(&name, ParamKind::Scalar(p, dom));
        SExpr::Param(name)
    }

    /// A domain for a scalar of type `p` that will be converted to `e`
    /// without undefined behaviour.
    fn scalar_domain(&mut self, p: Elem, e: Elem) -> Domain {
        if p.is_float() {
            if e.is_unsigned() {
                Domain::Dyadic(0, 32, 2)
            } else if e.is_float() && self.rng.chance(1, 6) {
                Domain::FloatChoice(special_floats(p, e))
            } else {
                Domain::Dyadic(-32, 32, 2)
            }
        } else if self.rng.chance(1, 3) {
            Domain::Full
        } else if p.is_signed_int() {
            Domain::Int(-8, 8)
        } else {
            Domain::Int(0, 16)
        }
    }

    /// A scalar operand that meets a matrix of element `e` (often of
    /// another type), with the bound of its value converted to `e`.
    fn scalar_operand(&mut self, e: Elem) -> (SExpr, Iv) {
        loop {
            match self.rng.weighted(&[6, 3, 2, 1, 1]) {
                0 => {
                    let p = self.elem();
                    let dom = self.scalar_domain(p, e);
                    let iv = Iv::of_domain(&dom, p).convert(p, e).expect("safe domain");
                    return (self.scalar_param(p, dom), iv);
                }
                1 => return self.operand_literal(e),
                2 => {
                    if self.vars.is_empty() {
                        continue;
                    }
                    let (s, from, iv) = self.elem_read(1);
                    if let Some(iv) = iv.convert(from, e) {
                        return (s, iv);
                    }
                }
                3 => {
                    // `(s as T)`: a cast scalar meets the matrix.
                    let p = self.elem();
                    let q = self.elem();
                    let dom = self.scalar_domain(p, q);
                    let iv = Iv::of_domain(&dom, p).convert(p, q).expect("safe domain");
                    if let Some(iv) = iv.convert(q, e) {
                        let s = self.scalar_param(p, dom);
                        return (SExpr::Cast(q, Box::new(s)), iv);
                    }
                }
                _ => {
                    // `s0 op s1` on two scalars of one type.
                    let p = self.elem();
                    let dom = if p.is_float() {
                        Domain::Dyadic(if e.is_unsigned() { 0 } else { -32 }, 32, 2)
                    } else if p.is_signed_int() {
                        Domain::Int(-8, 8)
                    } else {
                        Domain::Int(0, 15)
                    };
                    let op = *self.rng.pick(&[BinOp::Add, BinOp::Sub, BinOp::Mul]);
                    let ia = Iv::of_domain(&dom, p);
                    let iv = match op {
                        BinOp::Add => ia.plus(ia),
                        BinOp::Sub => ia.minus(ia),
                        _ => ia.times_iv(ia),
                    };
                    if !p.is_float() && !iv.fits(p) {
                        continue;
                    }
                    if e.is_unsigned() && iv.lo < 0.0 && p.is_float() {
                        continue;
                    }
                    let Some(iv) = iv.convert(p, e) else { continue };
                    let a = self.scalar_param(p, dom.clone());
                    let b = self.scalar_param(p, dom);
                    return (SExpr::Bin(op, Box::new(a), Box::new(b)), iv);
                }
            }
        }
    }

    fn int_lit(&mut self, v: i64, suffix: IntSuffix) -> Lit {
        let form = match self.rng.weighted(&[8, 1, 1]) {
            0 => IntForm::Dec,
            1 => IntForm::Hex,
            _ => IntForm::Underscore,
        };
        Lit::Int(v, suffix, form)
    }

    fn float_lit(&mut self, v: f64, suffix: FloatSuffix) -> Lit {
        let form = if self.rng.chance(1, 6) {
            FloatForm::Exp
        } else {
            FloatForm::Plain
        };
        Lit::Float(v, suffix, form)
    }

    /// A literal operand for a matrix of element `e`; its value never
    /// changes when converted (which would be a warning in clang and an
    /// error in the DSL), except for float rounding and `unsigned + -1`.
    fn operand_literal(&mut self, e: Elem) -> (SExpr, Iv) {
        let lit = if e.is_float() {
            match self.rng.weighted(&[3, 3, 2]) {
                0 => {
                    let v = self.rng.range(0, 20);
                    let s = self.int_suffix();
                    self.int_lit(v, s)
                }
                1 => {
                    let v = self.rng.range(-32, 32) as f64 / 4.0;
                    let s = self.float_suffix();
                    self.float_lit(v, s)
                }
                _ => {
                    // Not exact in binary; 1.0000000596046448 is exactly
                    // 1 + 2^-24 as a double, which ties to 1.0f (double
                    // rounding: C converts the double literal to float).
                    let v = if self.rng.chance(1, 3) {
                        1.0000000596046448
                    } else {
                        *self.rng.pick(&[0.1, 0.3, 1.1, 2.7, 1e-3, 123.456])
                    };
                    // A float literal meeting a double matrix keeps its
                    // float rounding, and a float literal is rounded once,
                    // from its decimal to float (`1.0000000596046448f32` is
                    // 1 + 2^-23, not 1): both worth drawing often.
                    let s = if (e == Elem::F64 || v == 1.0000000596046448) && self.rng.chance(1, 2)
                    {
                        FloatSuffix::F32
                    } else {
                        self.float_suffix()
                    };
                    self.float_lit(v, s)
                }
            }
        } else {
            match self.rng.weighted(&[6, 2, 1]) {
                0 => {
                    let hi = if e == Elem::I8 { 127 } else { 255 };
                    let v = if self.rng.chance(1, 4) {
                        self.rng.range(10, hi)
                    } else {
                        self.rng.range(0, 9)
                    };
                    let s = self.int_suffix();
                    self.int_lit(v, s)
                }
                1 => {
                    if e.is_signed_int() {
                        let v = self.rng.range(-5, -1);
                        let s = *self.rng.pick(&[IntSuffix::None, IntSuffix::I64]);
                        self.int_lit(v, s)
                    } else {
                        Lit::Int(-1, IntSuffix::None, IntForm::Dec)
                    }
                }
                _ => {
                    let v = self.rng.range(1, 4) as f64;
                    let s = self.float_suffix();
                    self.float_lit(v, s)
                }
            }
        };
        let iv = lit_iv(&lit, e);
        (SExpr::Lit(lit), iv)
    }

    fn int_suffix(&mut self) -> IntSuffix {
        match self.rng.weighted(&[6, 1, 1, 1]) {
            0 => IntSuffix::None,
            1 => IntSuffix::U32,
            2 => IntSuffix::I64,
            _ => IntSuffix::U64,
        }
    }

    fn float_suffix(&mut self) -> FloatSuffix {
        if self.rng.chance(1, 4) {
            FloatSuffix::F32
        } else {
            FloatSuffix::None
        }
    }

    /// A nonzero divisor for a matrix of element `e`: never 0 and never -1
    /// once converted (so no division by zero and no `MIN / -1`). Returns
    /// the smallest magnitude after conversion.
    fn divisor(&mut self, e: Elem) -> (SExpr, f64) {
        if self.rng.chance(1, 3) {
            let lit = if e.is_float() {
                if self.rng.chance(1, 2) {
                    let v = *self.rng.pick(&[1, 2, 3, 4, 8]);
                    let s = self.int_suffix();
                    self.int_lit(v, s)
                } else {
                    let v = *self.rng.pick(&[0.5, 2.0, 4.0, 1.5, 3.0]);
                    let s = self.float_suffix();
                    self.float_lit(v, s)
                }
            } else if e.is_signed_int() && self.rng.chance(1, 4) {
                Lit::Int(-2, IntSuffix::None, IntForm::Dec)
            } else {
                let v = *self.rng.pick(&[1, 2, 3, 4, 5, 7]);
                let s = self.int_suffix();
                self.int_lit(v, s)
            };
            let min_abs = match lit {
                Lit::Int(v, ..) => v.unsigned_abs() as f64,
                Lit::Float(v, ..) => v.abs(),
            };
            return (SExpr::Lit(lit), min_abs);
        }
        let p = self.elem();
        let (dom, min_abs) = match (p.is_float(), e.is_float()) {
            (true, true) => (
                Domain::FloatChoice(vec![0.5, 1.0, 2.0, 4.0, -2.0, 0.25, 3.0, 1.5, -0.75]),
                0.25,
            ),
            (false, _) => {
                if p.is_signed_int() {
                    (Domain::IntChoice(vec![1, 2, 3, 4, 5, 7, -2, -3, -7]), 1.0)
                } else {
                    (Domain::IntChoice(vec![1, 2, 3, 4, 5, 7]), 1.0)
                }
            }
            (true, false) => {
                if e.is_signed_int() {
                    (
                        Domain::FloatChoice(vec![1.0, 1.5, 2.0, 2.5, 3.0, 4.0, -2.0, -2.5, -3.5]),
                        1.0,
                    )
                } else {
                    (Domain::FloatChoice(vec![1.0, 1.5, 2.0, 2.5, 3.0, 4.0]), 1.0)
                }
            }
        };
        (self.scalar_param(p, dom), min_abs)
    }

    /// An index into a dimension of size `n`: a literal, a constant
    /// expression or a new parameter.
    fn index(&mut self, n: u32) -> Idx {
        if self.rng.chance(1, 3) {
            let name = self.fresh(N_IDX, "i");
            let t = *self.rng.pick(&IdxTy::ALL);
            self.push_param(&name, ParamKind::Index(t, n));
            Idx::Var(name)
        } else {
            let v = self.rng.below(n as u64) as u32;
            match self.konst(v) {
                Some(t) => Idx::Expr(t, v),
                None => Idx::Const(v),
            }
        }
    }

    /// `m[r][c]` of a variable in scope (or of a small expression).
    fn elem_read(&mut self, depth: u32) -> (SExpr, Elem, Iv) {
        let (m, ty, iv) = if self.vars.is_empty() || self.rng.chance(1, 5) {
            let ty = self.pick_type();
            let (m, iv) = self.mexpr(ty, depth);
            (m, ty, iv)
        } else {
            let i = self.rng.below(self.vars.len() as u64) as usize;
            let v = &self.vars[i];
            (MExpr::Var(v.name.clone()), v.ty, v.iv)
        };
        let r = self.index(ty.rows);
        let c = self.index(ty.cols);
        let rfc = self.rng.chance(1, 6);
        (
            SExpr::Elem {
                m: Box::new(m),
                r,
                c,
                rfc,
            },
            ty.elem,
            iv,
        )
    }

    /// A scalar of exactly type `e` (for element writes).
    fn elem_value(&mut self, e: Elem) -> (SExpr, Iv) {
        loop {
            match self.rng.weighted(&[3, 4, 2, 3]) {
                0 => {
                    let dom = self.scalar_domain(e, e);
                    let iv = Iv::of_domain(&dom, e);
                    return (self.scalar_param(e, dom), iv);
                }
                1 => {
                    let same: Vec<usize> = (0..self.vars.len())
                        .filter(|&i| self.vars[i].ty.elem == e)
                        .collect();
                    if same.is_empty() {
                        continue;
                    }
                    let i = same[self.rng.below(same.len() as u64) as usize];
                    let (name, ty, iv) =
                        (self.vars[i].name.clone(), self.vars[i].ty, self.vars[i].iv);
                    let r = self.index(ty.rows);
                    let c = self.index(ty.cols);
                    let rfc = self.rng.chance(1, 6);
                    return (
                        SExpr::Elem {
                            m: Box::new(MExpr::Var(name)),
                            r,
                            c,
                            rfc,
                        },
                        iv,
                    );
                }
                2 => {
                    let lit = if e.is_float() {
                        let v = self.rng.range(-32, 32) as f64 / 4.0;
                        self.float_lit(v, FloatSuffix::None)
                    } else if e.is_signed_int() {
                        let v = self.rng.range(-9, 9);
                        self.int_lit(v, IntSuffix::None)
                    } else {
                        let v = self.rng.range(0, 9);
                        self.int_lit(v, IntSuffix::None)
                    };
                    let iv = lit_iv(&lit, e);
                    return (SExpr::Lit(lit), iv);
                }
                _ => {
                    if !self.vars.is_empty() && self.rng.chance(1, 2) {
                        let (s, from, iv) = self.elem_read(1);
                        if from == e {
                            return (s, iv);
                        }
                        if let Some(iv) = iv.convert(from, e) {
                            return (SExpr::Cast(e, Box::new(s)), iv);
                        }
                    } else {
                        let p = self.elem();
                        if p == e {
                            continue;
                        }
                        let dom = self.scalar_domain(p, e);
                        let iv = Iv::of_domain(&dom, p).convert(p, e).expect("safe domain");
                        let s = self.scalar_param(p, dom);
                        return (SExpr::Cast(e, Box::new(s)), iv);
                    }
                }
            }
        }
    }

    fn locals(&self) -> Vec<usize> {
        (0..self.vars.len())
            .filter(|&i| self.vars[i].local)
            .collect()
    }

    fn mark_mutated(&mut self, name: &str) {
        if !self.mutated.iter().any(|m| m == name) {
            self.mutated.push(name.to_string());
        }
    }

    fn new_local(&mut self, ty: MatTy, iv: Iv, init: MExpr) -> Stmt {
        let name = self.fresh(N_LOCAL, "t");
        let annot = match self.rng.weighted(&[4, 4, 1, 1]) {
            0 => Annot::None,
            1 => Annot::Typedef,
            2 => Annot::Alias,
            _ => Annot::Generic,
        };
        self.vars.push(Var {
            name: name.clone(),
            ty,
            iv,
            local: true,
        });
        Stmt::Let {
            name,
            ty,
            annot,
            init,
        }
    }

    fn stmt(&mut self) -> Stmt {
        let locals = self.locals();
        let wl = if locals.is_empty() { 0 } else { 1 };
        let callable: Vec<usize> = (0..self.callees.len())
            .filter(|&i| callable(&self.callees[i]))
            .collect();
        let wc = if callable.is_empty() { 0 } else { 1 };
        match self.rng.weighted(&[5, 3 * wl, 3 * wl, wl, wl, 2, wl, wc]) {
            0 => {
                let ty = self.pick_type();
                let d = self.depth();
                let (init, iv) = self.mexpr(ty, d);
                self.new_local(ty, iv, init)
            }
            1 => {
                let i = *self.rng.pick(&locals);
                let r = self.index(self.vars[i].ty.rows);
                let c = self.index(self.vars[i].ty.cols);
                self.elem_set(i, r, c)
            }
            2 => {
                let i = *self.rng.pick(&locals);
                self.compound(i)
            }
            3 => {
                let i = *self.rng.pick(&locals);
                let ty = self.vars[i].ty;
                let d = self.depth();
                let (e, iv) = self.mexpr(ty, d);
                self.vars[i].iv = iv;
                let name = self.vars[i].name.clone();
                self.mark_mutated(&name);
                Stmt::Assign { name, e }
            }
            4 => {
                let i = *self.rng.pick(&locals);
                let ty = self.vars[i].ty;
                let var = self.fresh(N_LOOP, "l");
                let over_rows = self.rng.chance(1, 2);
                let bound = if over_rows { ty.rows } else { ty.cols };
                let (r, c) = if over_rows {
                    (
                        Idx::Var(var.clone()),
                        Idx::Const(self.rng.below(ty.cols as u64) as u32),
                    )
                } else {
                    (
                        Idx::Const(self.rng.below(ty.rows as u64) as u32),
                        Idx::Var(var.clone()),
                    )
                };
                let body = self.elem_set(i, r, c);
                Stmt::For {
                    var,
                    bound,
                    body: Box::new(body),
                }
            }
            5 => self.store(),
            6 => {
                // `if i < k { ... }` on a new index parameter: the body may
                // or may not run, so the bound is the union of both.
                let i = *self.rng.pick(&locals);
                let old = self.vars[i].iv;
                let n = self.rng.range(2, 6) as u32;
                let var = self.fresh(N_IDX, "i");
                let t = *self.rng.pick(&IdxTy::ALL);
                self.push_param(&var, ParamKind::Index(t, n));
                let bound = self.rng.range(1, n as i64 - 1) as u32;
                let body = if self.rng.chance(1, 2) {
                    let r = self.index(self.vars[i].ty.rows);
                    let c = self.index(self.vars[i].ty.cols);
                    self.elem_set(i, r, c)
                } else {
                    self.compound(i)
                };
                self.vars[i].iv = self.vars[i].iv.union(old);
                Stmt::If {
                    var,
                    bound,
                    body: Box::new(body),
                }
            }
            _ => {
                let c = *self.rng.pick(&callable);
                let (e, ty, iv) = self.call(c);
                self.new_local(ty, iv, e)
            }
        }
    }

    /// `t[r][c] (op)= v` on local `i`.
    fn elem_set(&mut self, i: usize, r: Idx, c: Idx) -> Stmt {
        let (ty, old) = (self.vars[i].ty, self.vars[i].iv);
        let e = ty.elem;
        let (mut v, mut iv) = self.elem_value(e);
        let mut op = match self.rng.weighted(&[4, 2, 2, 2, 1]) {
            0 => None,
            1 => Some(BinOp::Add),
            2 => Some(BinOp::Sub),
            3 => Some(BinOp::Mul),
            _ => Some(BinOp::Div),
        };
        let result = match op {
            None => iv,
            Some(BinOp::Add) => old.plus(iv),
            Some(BinOp::Sub) => old.minus(iv),
            Some(BinOp::Mul) => old.times_iv(iv),
            Some(BinOp::Div) => {
                if e.is_float() {
                    let d = *self.rng.pick(&[2.0, 4.0, 0.5]);
                    v = SExpr::Lit(Lit::Float(d, FloatSuffix::None, FloatForm::Plain));
                    iv = Iv::new(-old.mag() / d, old.mag() / d);
                } else {
                    let d = *self.rng.pick(&[2, 3, 5]);
                    v = SExpr::Lit(Lit::Int(d, IntSuffix::None, IntForm::Dec));
                    iv = Iv::new(if e.is_unsigned() { 0.0 } else { -old.mag() }, old.mag());
                }
                iv
            }
        };
        // In a loop, a compound update that reads its own matrix would feed
        // on values the bound above does not cover.
        let in_loop = matches!(r, Idx::Var(ref n) if n.starts_with('l'))
            || matches!(c, Idx::Var(ref n) if n.starts_with('l'));
        let self_read = in_loop && sexpr_reads(&v, &self.vars[i].name);
        // Element arithmetic is ordinary scalar arithmetic in both
        // languages: it must not overflow an integer type.
        let result = if !e.is_float() && op.is_some() && (!result.fits(e) || self_read) {
            op = None;
            let (v2, iv2) = self.elem_value(e);
            v = v2;
            iv2
        } else if self_read {
            op = None;
            iv
        } else {
            result.fit(e)
        };
        self.vars[i].iv = old.union(result);
        let name = self.vars[i].name.clone();
        self.mark_mutated(&name);
        Stmt::ElemSet { name, r, c, op, v }
    }

    /// `t op= rhs` on local `i`.
    fn compound(&mut self, i: usize) -> Stmt {
        let (ty, old) = (self.vars[i].ty, self.vars[i].iv);
        let d = self.depth();
        let (op, rhs, iv) = match self.rng.weighted(&[2, 2, 2, 2, 1]) {
            0 => {
                let op = if self.rng.chance(1, 2) {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let (e, ie) = self.mexpr(ty, d);
                let iv = if op == BinOp::Add {
                    old.plus(ie)
                } else {
                    old.minus(ie)
                };
                (op, Rhs::M(e), iv)
            }
            1 => {
                let op = *self.rng.pick(&[BinOp::Add, BinOp::Sub, BinOp::Mul]);
                let (s, is) = self.scalar_operand(ty.elem);
                let iv = match op {
                    BinOp::Add => old.plus(is),
                    BinOp::Sub => old.minus(is),
                    _ => old.times_iv(is),
                };
                (op, Rhs::S(s), iv)
            }
            2 => {
                let sq = MatTy::new(ty.elem, ty.cols, ty.cols);
                let (mut e, mut ie) = self.mexpr(sq, d.min(3));
                if clang_crashes_on_product(ty, &e) {
                    (e, ie) = self.leaf(sq);
                }
                (BinOp::Mul, Rhs::M(e), old.times_iv(ie).times(ty.cols))
            }
            3 => {
                let (s, min_abs) = self.divisor(ty.elem);
                let iv = if ty.elem.is_float() {
                    Iv::new(-old.mag() / min_abs, old.mag() / min_abs)
                } else {
                    Iv::new(
                        if ty.elem.is_unsigned() {
                            0.0
                        } else {
                            -old.mag()
                        },
                        old.mag(),
                    )
                };
                (BinOp::Div, Rhs::S(s), iv)
            }
            _ => {
                let (s, is) = self.scalar_operand(ty.elem);
                (BinOp::Mul, Rhs::S(s), old.times_iv(is))
            }
        };
        self.vars[i].iv = iv.fit(ty.elem);
        let name = self.vars[i].name.clone();
        self.mark_mutated(&name);
        Stmt::Compound { name, op, rhs }
    }
}

/// Whether clang-19 crashes on the product `_ * rhs` of type `result`
/// ([`MatTy::clang_crashes_with_a_transposed_rhs`]).
fn clang_crashes_on_product(result: MatTy, rhs: &MExpr) -> bool {
    result.clang_crashes_with_a_transposed_rhs() && matches!(rhs, MExpr::Transpose(_))
}

/// Whether Rust text starts with a C-style cast `(NAME) ...`.
fn starts_with_c_cast(t: &str) -> bool {
    let Some(rest) = t.strip_prefix('(') else {
        return false;
    };
    let Some(end) = rest.find(')') else {
        return false;
    };
    let inner = &rest[..end];
    !inner.is_empty()
        && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && rest[end + 1..].starts_with(' ')
}

/// Special float inputs for a value of type `p` that meets (or is) a
/// matrix of element `e`: signed zeros, subnormals, values whose sums and
/// products overflow to infinity (and then give NaN). All of them fit `p`
/// and `e`, so no conversion overflows.
fn special_floats(p: Elem, e: Elem) -> Vec<f64> {
    let mut v = vec![-0.0, 0.0, 1.0, -1.0, 0.5, -3.0, 1e-40, 3e37, -2e38];
    if p == Elem::F64 && e == Elem::F64 {
        v.extend([1e300, -1e-310]);
    }
    v
}

/// Whether `s` reads the variable `name`.
fn sexpr_reads(s: &SExpr, name: &str) -> bool {
    match s {
        SExpr::Param(_) | SExpr::Lit(_) => false,
        SExpr::Elem { m, .. } => mexpr_reads(m, name),
        SExpr::Cast(_, e) => sexpr_reads(e, name),
        SExpr::Bin(_, a, b) => sexpr_reads(a, name) || sexpr_reads(b, name),
    }
}

fn mexpr_reads(e: &MExpr, name: &str) -> bool {
    match e {
        MExpr::Var(v) => v == name,
        MExpr::Load { .. } | MExpr::Call { .. } => false,
        MExpr::Bin(_, a, b) | MExpr::Rfc(_, a, b) => mexpr_reads(a, name) || mexpr_reads(b, name),
        MExpr::Scalar { m, s, .. } | MExpr::RfcScale(m, s) | MExpr::Insert { m, x: s, .. } => {
            mexpr_reads(m, name) || sexpr_reads(s, name)
        }
        MExpr::Transpose(m) => mexpr_reads(m, name),
        MExpr::Cast { e, .. } => mexpr_reads(e, name),
        MExpr::Cond { c, a, b } => {
            sexpr_reads(c, name) || mexpr_reads(a, name) || mexpr_reads(b, name)
        }
    }
}

/// The bound of a literal's value once converted to `e`.
fn lit_iv(lit: &Lit, e: Elem) -> Iv {
    match *lit {
        Lit::Int(v, suffix, _) => {
            let v = v as f64;
            if v < 0.0 && (e.is_unsigned() || matches!(suffix, IntSuffix::U32 | IntSuffix::U64)) {
                Iv::full(e)
            } else {
                Iv::new(v, v).fit(e)
            }
        }
        Lit::Float(v, ..) => Iv::new(v, v).fit(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_to_unsigned_needs_nonnegative_bound() {
        assert!(Iv::new(-0.5, 3.0).convert(Elem::F32, Elem::U8).is_some());
        assert!(Iv::new(-1.5, 3.0).convert(Elem::F32, Elem::U8).is_none());
        assert!(Iv::new(0.0, 300.0).convert(Elem::F64, Elem::U8).is_none());
    }

    #[test]
    fn integer_bounds_wrap_to_the_whole_type() {
        assert_eq!(Iv::new(0.0, 300.0).fit(Elem::U8), Iv::full(Elem::U8));
        assert_eq!(Iv::new(-3.0, 3.0).fit(Elem::I8), Iv::new(-3.0, 3.0));
    }

    /// Evaluates `+ - * /`, parentheses, literals and the block constants.
    fn eval(s: &str) -> i64 {
        fn expr(t: &[String], i: &mut usize) -> i64 {
            let mut v = term(t, i);
            while *i < t.len() && (t[*i] == "+" || t[*i] == "-") {
                let op = t[*i].clone();
                *i += 1;
                let r = term(t, i);
                v = if op == "+" { v + r } else { v - r };
                assert!(v >= 0, "negative intermediate");
            }
            v
        }
        fn term(t: &[String], i: &mut usize) -> i64 {
            let mut v = atom(t, i);
            while *i < t.len() && (t[*i] == "*" || t[*i] == "/") {
                let op = t[*i].clone();
                *i += 1;
                let r = atom(t, i);
                v = if op == "*" { v * r } else { v / r };
            }
            v
        }
        fn atom(t: &[String], i: &mut usize) -> i64 {
            let a = t[*i].clone();
            *i += 1;
            if a == "(" {
                let v = expr(t, i);
                assert_eq!(t[*i], ")");
                *i += 1;
                return v;
            }
            if let Some(&(_, k)) = crate::emit::CONSTS.iter().find(|(n, _)| *n == a) {
                return k as i64;
            }
            a.parse().expect("literal")
        }
        let spaced = s.replace('(', " ( ").replace(')', " ) ");
        let toks: Vec<String> = spaced.split_whitespace().map(str::to_string).collect();
        let mut i = 0;
        let v = expr(&toks, &mut i);
        assert_eq!(i, toks.len(), "trailing tokens in {s}");
        v
    }

    #[test]
    fn constant_expressions_have_their_value() {
        let mut rng = SplitMix64::new(3);
        for v in 0..40u32 {
            for _ in 0..30 {
                let e = const_expr(&mut rng, v);
                assert_eq!(eval(&e), v as i64, "{e}");
            }
        }
    }

    #[test]
    fn kernels_are_deterministic() {
        let a = kernel(&mut SplitMix64::new(5), "k", &[]);
        let b = kernel(&mut SplitMix64::new(5), "k", &[]);
        assert_eq!(a, b);
    }
}
