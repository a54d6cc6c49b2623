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
use crate::ty::{Elem, IdxTy, MatTy};

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
        } else if self.lo >= e.min_value() && self.hi <= e.max_value() {
            self
        } else {
            Iv::full(e)
        }
    }

    /// `true` if every value fits `e` without wrapping.
    pub fn fits(self, e: Elem) -> bool {
        self.lo >= e.min_value() && self.hi <= e.max_value()
    }

    /// The bound after converting from `from` to `to` as C (and Rust's
    /// `as`) do, or `None` if some value would make the C conversion
    /// undefined (a float out of the integer type's range).
    pub fn convert(self, from: Elem, to: Elem) -> Option<Iv> {
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
    n: [u32; 8],
}

const N_MAT: usize = 0;
const N_SCALAR: usize = 1;
const N_IDX: usize = 2;
const N_STRIDE: usize = 3;
const N_SRC: usize = 4;
const N_DST: usize = 5;
const N_LOCAL: usize = 6;
const N_LOOP: usize = 7;

/// Generates one well-typed kernel named `name` from `rng`.
pub fn kernel(rng: &mut SplitMix64, name: &str) -> Kernel {
    let input_seed = rng.next_u64();
    let mut g = KGen {
        rng,
        params: Vec::new(),
        vars: Vec::new(),
        mutated: Vec::new(),
        n: [0; 8],
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
    let explicit_return = !matches!(ret, Ret::Unit) && g.rng.chance(1, 5);
    Kernel {
        name: name.to_string(),
        params: g.params,
        mutated: g.mutated,
        body,
        ret,
        explicit_return,
        input_seed,
    }
}

impl KGen<'_> {
    fn fresh(&mut self, which: usize, prefix: &str) -> String {
        let k = self.n[which];
        self.n[which] += 1;
        format!("{prefix}{k}")
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
            Domain::Dyadic(-32, 32, 2)
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
        self.params.push(Param {
            name: name.clone(),
            kind: ParamKind::Mat(ty, dom),
        });
        self.vars.push(Var {
            name: name.clone(),
            ty,
            iv,
            local: false,
        });
        (MExpr::Var(name), iv)
    }

    fn stride(&mut self, rows: u32) -> (Stride, u32) {
        if self.rng.chance(1, 3) {
            let name = self.fresh(N_STRIDE, "n");
            self.params.push(Param {
                name: name.clone(),
                kind: ParamKind::Stride(rows, rows + 3),
            });
            (Stride::Param(name), rows + 3)
        } else {
            let s = rows + self.rng.range(0, 3) as u32;
            (Stride::Const(s), s)
        }
    }

    fn load(&mut self, ty: MatTy) -> (MExpr, Iv) {
        let (stride, max_stride) = self.stride(ty.rows);
        let len = ((ty.cols - 1) * max_stride + ty.rows) as usize + self.rng.range(0, 2) as usize;
        let name = self.fresh(N_SRC, "src");
        let dom = self.value_domain(ty.elem);
        let iv = Iv::of_domain(&dom, ty.elem);
        self.params.push(Param {
            name: name.clone(),
            kind: ParamKind::Src(ty.elem, len, dom),
        });
        (
            MExpr::Load {
                src: name,
                rows: ty.rows,
                cols: ty.cols,
                stride,
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
        self.params.push(Param {
            name: name.clone(),
            kind: ParamKind::Dst(ty.elem, len, dom),
        });
        Stmt::Store {
            m,
            dst: name,
            stride,
        }
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
                // Prefer locals: they carry the kernel's statements.
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
        match self.rng.weighted(&[w_leaf, 3, 3, 3, 1, 1]) {
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
                (MExpr::Bin(op, Box::new(a), Box::new(b)), iv.fit(ty.elem))
            }
            2 => self.scalar_op(ty, depth),
            3 => {
                let k = self.dim();
                let (a, ia) = self.mexpr(MatTy::new(ty.elem, ty.rows, k), depth - 1);
                let db = self.rng.below(depth as u64) as u32;
                let (b, ib) = self.mexpr(MatTy::new(ty.elem, k, ty.cols), db);
                let iv = ia.times_iv(ib).times(k).fit(ty.elem);
                (MExpr::Bin(BinOp::Mul, Box::new(a), Box::new(b)), iv)
            }
            4 => {
                let (a, ia) = self.mexpr(ty.transposed(), depth - 1);
                (MExpr::Transpose(Box::new(a)), ia)
            }
            _ => {
                for _ in 0..4 {
                    let from = self.elem();
                    if from == ty.elem {
                        continue;
                    }
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
        self.params.push(Param {
            name: name.clone(),
            kind: ParamKind::Scalar(p, dom),
        });
        SExpr::Param(name)
    }

    /// A domain for a scalar of type `p` that will be converted to `e`
    /// without undefined behaviour.
    fn scalar_domain(&mut self, p: Elem, e: Elem) -> Domain {
        if p.is_float() {
            if e.is_unsigned() {
                Domain::Dyadic(0, 32, 2)
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
            match self.rng.weighted(&[6, 3, 2, 1]) {
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
                _ => {
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
            }
        }
    }

    /// A literal operand for a matrix of element `e`; its value never
    /// changes when converted (which would be a warning in clang and an
    /// error in the DSL), except for float rounding and `unsigned + -1`.
    fn operand_literal(&mut self, e: Elem) -> (SExpr, Iv) {
        let lit = if e.is_float() {
            match self.rng.weighted(&[3, 4, 1]) {
                0 => Lit::Int(self.rng.range(0, 9), self.int_suffix()),
                1 => {
                    let v = self.rng.range(-32, 32) as f64 / 4.0;
                    Lit::Float(v, self.float_suffix())
                }
                _ => Lit::Float(*self.rng.pick(&[0.1, 0.3, 1.1, 2.7]), self.float_suffix()),
            }
        } else {
            match self.rng.weighted(&[6, 2, 1]) {
                0 => Lit::Int(self.rng.range(0, 9), self.int_suffix()),
                1 => {
                    if e.is_signed_int() {
                        Lit::Int(
                            self.rng.range(-5, -1),
                            *self.rng.pick(&[IntSuffix::None, IntSuffix::I64]),
                        )
                    } else {
                        Lit::Int(-1, IntSuffix::None)
                    }
                }
                _ => Lit::Float(self.rng.range(1, 4) as f64, self.float_suffix()),
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
                match self.rng.weighted(&[2, 2]) {
                    0 => Lit::Int(*self.rng.pick(&[1, 2, 3, 4, 8]), self.int_suffix()),
                    _ => Lit::Float(
                        *self.rng.pick(&[0.5, 2.0, 4.0, 1.5, 3.0]),
                        self.float_suffix(),
                    ),
                }
            } else if e.is_signed_int() && self.rng.chance(1, 4) {
                Lit::Int(-2, IntSuffix::None)
            } else {
                Lit::Int(*self.rng.pick(&[1, 2, 3, 4, 5, 7]), self.int_suffix())
            };
            let min_abs = match lit {
                Lit::Int(v, _) => v.unsigned_abs() as f64,
                Lit::Float(v, _) => v.abs(),
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

    /// An index into a dimension of size `n`: a literal or a new parameter.
    fn index(&mut self, n: u32) -> Idx {
        if self.rng.chance(1, 3) {
            let name = self.fresh(N_IDX, "i");
            let t = *self.rng.pick(&IdxTy::ALL);
            self.params.push(Param {
                name: name.clone(),
                kind: ParamKind::Index(t, n),
            });
            Idx::Var(name)
        } else {
            Idx::Const(self.rng.below(n as u64) as u32)
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
        (
            SExpr::Elem {
                m: Box::new(m),
                r,
                c,
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
                    return (
                        SExpr::Elem {
                            m: Box::new(MExpr::Var(name)),
                            r,
                            c,
                        },
                        iv,
                    );
                }
                2 => {
                    let lit = if e.is_float() {
                        Lit::Float(self.rng.range(-32, 32) as f64 / 4.0, FloatSuffix::None)
                    } else if e.is_signed_int() {
                        Lit::Int(self.rng.range(-9, 9), IntSuffix::None)
                    } else {
                        Lit::Int(self.rng.range(0, 9), IntSuffix::None)
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

    fn stmt(&mut self) -> Stmt {
        let locals = self.locals();
        let wl = if locals.is_empty() { 0 } else { 1 };
        match self.rng.weighted(&[5, 3 * wl, 3 * wl, wl, wl, 2]) {
            0 => {
                let ty = self.pick_type();
                let d = self.depth();
                let (init, iv) = self.mexpr(ty, d);
                let name = self.fresh(N_LOCAL, "t");
                let annot = match self.rng.weighted(&[4, 4, 1]) {
                    0 => Annot::None,
                    1 => Annot::Typedef,
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
            _ => self.store(),
        }
    }

    /// `t[r][c] (op)= v` on local `i`.
    fn elem_set(&mut self, i: usize, r: Idx, c: Idx) -> Stmt {
        let (ty, old) = (self.vars[i].ty, self.vars[i].iv);
        let e = ty.elem;
        let (v, iv) = self.elem_value(e);
        let mut op = match self.rng.weighted(&[4, 2, 2, 2, 1]) {
            0 => None,
            1 => Some(BinOp::Add),
            2 => Some(BinOp::Sub),
            3 => Some(BinOp::Mul),
            _ => Some(BinOp::Div),
        };
        let mut v = v;
        let mut iv = iv;
        let result = match op {
            None => iv,
            Some(BinOp::Add) => old.plus(iv),
            Some(BinOp::Sub) => old.minus(iv),
            Some(BinOp::Mul) => old.times_iv(iv),
            Some(BinOp::Div) => {
                if e.is_float() {
                    let d = *self.rng.pick(&[2.0, 4.0, 0.5]);
                    v = SExpr::Lit(Lit::Float(d, FloatSuffix::None));
                    iv = Iv::new(-old.mag() / d, old.mag() / d);
                    iv
                } else {
                    let d = *self.rng.pick(&[2, 3, 5]);
                    v = SExpr::Lit(Lit::Int(d, IntSuffix::None));
                    iv = Iv::new(if e.is_unsigned() { 0.0 } else { -old.mag() }, old.mag());
                    iv
                }
            }
        };
        // Element arithmetic is ordinary scalar arithmetic in both
        // languages: it must not overflow an integer type.
        // In a loop, a compound update that reads its own matrix would feed
        // on values the bound above does not cover.
        let in_loop = matches!(r, Idx::Var(ref n) if n.starts_with('l'))
            || matches!(c, Idx::Var(ref n) if n.starts_with('l'));
        let self_read = in_loop && sexpr_reads(&v, &self.vars[i].name);
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
                let (e, ie) = self.mexpr(sq, d.min(3));
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

/// Whether `s` reads the variable `name`.
fn sexpr_reads(s: &SExpr, name: &str) -> bool {
    match s {
        SExpr::Param(_) | SExpr::Lit(_) => false,
        SExpr::Elem { m, .. } => mexpr_reads(m, name),
        SExpr::Cast(_, e) => sexpr_reads(e, name),
    }
}

fn mexpr_reads(e: &MExpr, name: &str) -> bool {
    match e {
        MExpr::Var(v) => v == name,
        MExpr::Load { .. } => false,
        MExpr::Bin(_, a, b) => mexpr_reads(a, name) || mexpr_reads(b, name),
        MExpr::Scalar { m, s, .. } => mexpr_reads(m, name) || sexpr_reads(s, name),
        MExpr::Transpose(m) => mexpr_reads(m, name),
        MExpr::Cast { e, .. } => mexpr_reads(e, name),
    }
}

/// The bound of a literal's value once converted to `e`.
fn lit_iv(lit: &Lit, e: Elem) -> Iv {
    match *lit {
        Lit::Int(v, suffix) => {
            let v = v as f64;
            if v < 0.0 && (e.is_unsigned() || matches!(suffix, IntSuffix::U32 | IntSuffix::U64)) {
                Iv::full(e)
            } else {
                Iv::new(v, v).fit(e)
            }
        }
        Lit::Float(v, _) => Iv::new(v, v).fit(e),
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

    #[test]
    fn kernels_are_deterministic() {
        let a = kernel(&mut SplitMix64::new(5), "k");
        let b = kernel(&mut SplitMix64::new(5), "k");
        assert_eq!(a, b);
    }
}
