//! Random well-typed kernels on Clang's ext vectors
//! (`typedef T NAME __attribute__((ext_vector_type(N)))`).
//!
//! The vector language is C's spelling in both files, so the generator
//! prints each expression as it draws it, once per language ([`Ex`]); the
//! two texts differ only in `~` (Rust's `!`), declarations and signatures.
//! Every expression is drawn for a wanted type, so kernels are well-typed by
//! Clang's rules (clang-behaviour.md, and clang-19 itself when the corpus
//! is compiled), and free of undefined behaviour in C and of panics in Rust:
//! integer divisors are odd and positive (`(b & 7) | 1`), shift counts are
//! masked below the element's width, dynamic indices are drawn in range,
//! and a float converts to an integer only from an input whose values are
//! small. Vector integer arithmetic wraps in both languages (Clang emits no
//! `nsw` for vectors), so integer inputs are drawn from every bit pattern.
//! Scalar arithmetic (C promotes, the DSL does not) is float-only, between
//! two values of one type.

use std::collections::BTreeSet;

use crate::ast::Domain;
use crate::dual::Ex;
use crate::emit::{self, Lang};
use crate::prng::SplitMix64;
use crate::ty::{Elem, IdxTy, MatTy};

/// The vector lengths drawn, with their weights.
const LENGTHS: [(u32, u32); 8] = [
    (1, 1),
    (2, 6),
    (3, 6),
    (4, 10),
    (5, 1),
    (6, 1),
    (8, 3),
    (16, 2),
];

/// An ext vector type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VTy {
    /// The element type.
    pub elem: Elem,
    /// The number of elements (1 to 16).
    pub len: u32,
}

impl VTy {
    /// The typedef name both files use (`f32v4`).
    pub fn name(&self) -> String {
        format!("{}v{}", self.elem.rust(), self.len)
    }

    /// The name of its alias typedef (`f32v4_b`).
    pub fn alias(&self) -> String {
        format!("{}_b", self.name())
    }

    /// The same length with another element type.
    fn with_elem(self, elem: Elem) -> VTy {
        VTy { elem, ..self }
    }
}

/// The type of a value: a scalar, a vector or a matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A scalar of this element type.
    S(Elem),
    /// A vector.
    V(VTy),
    /// A matrix (`matrix_type(R, C)`), meeting vectors through scalars:
    /// Clang has no arithmetic between the two.
    M(MatTy),
}

impl Ty {
    fn c(self) -> String {
        match self {
            Ty::S(e) => e.c().to_string(),
            Ty::V(v) => v.name(),
            Ty::M(m) => m.name(),
        }
    }

    fn rust(self) -> String {
        match self {
            Ty::S(e) => e.rust().to_string(),
            Ty::V(v) => v.name(),
            Ty::M(m) => m.name(),
        }
    }

    fn elem(self) -> Elem {
        match self {
            Ty::S(e) => e,
            Ty::V(v) => v.elem,
            Ty::M(m) => m.elem,
        }
    }

    fn len(self) -> usize {
        match self {
            Ty::S(_) => 1,
            Ty::V(v) => v.len as usize,
            Ty::M(m) => m.len(),
        }
    }
}

/// A kernel parameter.
#[derive(Clone, Debug)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its type (an index parameter is a scalar of its index type).
    pub ty: PTy,
    /// How the runner draws it.
    pub dom: Domain,
    /// How a vector parameter's type is spelled.
    pub spelling: Spelling,
}

/// How a vector parameter's type is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// The typedef's name (`f32v4`).
    Typedef,
    /// An alias of the typedef (`f32v4_b`: `typedef f32v4 f32v4_b;` in C,
    /// that or `type f32v4_b = f32v4;` in `matrix!`), the same type.
    Alias,
    /// `Vector<f32, 4>` in Rust (the typedef's name in C).
    Generic,
}

/// A parameter's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PTy {
    /// A scalar or a vector.
    Val(Ty),
    /// An index, drawn in range.
    Index(IdxTy),
}

/// One generated vector kernel.
#[derive(Clone, Debug)]
pub struct VKernel {
    /// Its name (`v0000`).
    pub name: String,
    /// The seed its runners draw inputs from.
    pub input_seed: u64,
    /// Its parameters.
    pub params: Vec<Param>,
    /// The body's statements, in C and in Rust.
    body: Vec<(String, String)>,
    /// The return type.
    pub ret: Ty,
    /// The returned expression.
    ret_expr: Ex,
    /// What the kernel exercises (for the manifest).
    pub features: BTreeSet<&'static str>,
    /// Every vector type it names (in its signature, casts, literals and
    /// conversions).
    pub types: BTreeSet<VTy>,
    /// Every matrix type it names.
    pub matrices: BTreeSet<MatTy>,
}

/// A variable in scope.
#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    /// A local (may be assigned).
    local: bool,
}

struct Gen<'r> {
    rng: &'r mut SplitMix64,
    params: Vec<Param>,
    vars: Vec<Var>,
    types: BTreeSet<VTy>,
    matrices: BTreeSet<MatTy>,
    feats: BTreeSet<&'static str>,
    counters: [usize; 5],
}

/// The small float inputs: quarter steps in `[-8, 8]`.
const SMALL_FLOATS: Domain = Domain::Dyadic(-32, 32, 2);

fn pick_len(rng: &mut SplitMix64) -> u32 {
    let w: Vec<u32> = LENGTHS.iter().map(|l| l.1).collect();
    LENGTHS[rng.weighted(&w)].0
}

/// Components of a swizzle of `n` elements read from a vector of `len`,
/// in one of Clang's three name sets; `distinct` for assignment targets.
fn swizzle(rng: &mut SplitMix64, len: u32, n: usize, distinct: bool) -> Option<String> {
    if distinct && n > len as usize {
        return None;
    }
    let mut idx: Vec<u32> = Vec::with_capacity(n);
    while idx.len() < n {
        let i = rng.below(u64::from(len)) as u32;
        if distinct && idx.contains(&i) {
            continue;
        }
        idx.push(i);
    }
    let set = if len <= 4 && n <= 4 {
        rng.weighted(&[5, 2, 2])
    } else {
        2
    };
    Some(match set {
        0 => idx.iter().map(|&i| b"xyzw"[i as usize] as char).collect(),
        1 => idx.iter().map(|&i| b"rgba"[i as usize] as char).collect(),
        _ => {
            let s0 = if rng.chance(1, 2) { 's' } else { 'S' };
            let hex: String = idx
                .iter()
                .map(|&i| {
                    let d = std::char::from_digit(i, 16).unwrap();
                    if rng.chance(1, 3) {
                        d.to_ascii_uppercase()
                    } else {
                        d
                    }
                })
                .collect();
            format!("{s0}{hex}")
        }
    })
}

/// An integer literal that fits every element type it may convert to.
fn int_lit(rng: &mut SplitMix64, e: Elem) -> Ex {
    let v = if e.is_signed_int() || e.is_float() {
        rng.range(-8, 8)
    } else {
        rng.range(0, 9)
    };
    let s = v.to_string();
    Ex {
        atom: v >= 0,
        c: s.clone(),
        rs: s,
    }
}

/// A float literal, exact in `f32`.
fn float_lit(rng: &mut SplitMix64) -> Ex {
    let v = rng.range(-24, 24) as f64 / 4.0;
    let s = emit::float_text(v);
    Ex {
        atom: v >= 0.0,
        c: s.clone(),
        rs: s,
    }
}

impl Gen<'_> {
    fn fresh(&mut self, kind: usize, prefix: &str) -> String {
        let n = self.counters[kind];
        self.counters[kind] += 1;
        format!("{prefix}{n}")
    }

    fn note(&mut self, f: &'static str) {
        self.feats.insert(f);
    }

    /// A variable of type `ty`: one in scope, or a new parameter.
    fn var(&mut self, ty: Ty) -> Ex {
        let have: Vec<usize> = (0..self.vars.len())
            .filter(|&i| self.vars[i].ty == ty)
            .collect();
        if !have.is_empty() && self.rng.chance(2, 3) {
            let i = *self.rng.pick(&have);
            return Ex::atom(self.vars[i].name.clone());
        }
        self.param(ty)
    }

    /// A new value parameter of type `ty`.
    fn param(&mut self, ty: Ty) -> Ex {
        let (name, dom) = match ty {
            Ty::V(v) => {
                self.types.insert(v);
                let dom = if v.elem.is_float() {
                    SMALL_FLOATS
                } else if self.rng.chance(1, 4) {
                    small_ints(v.elem)
                } else {
                    Domain::Full
                };
                (self.fresh(0, "a"), dom)
            }
            Ty::S(e) => {
                let dom = if e.is_float() {
                    SMALL_FLOATS
                } else if self.rng.chance(1, 3) {
                    small_ints(e)
                } else {
                    Domain::Full
                };
                (self.fresh(1, "s"), dom)
            }
            Ty::M(m) => {
                self.matrices.insert(m);
                let dom = if m.elem.is_float() {
                    SMALL_FLOATS
                } else {
                    Domain::Full
                };
                (self.fresh(4, "m"), dom)
            }
        };
        let spelling = match (ty, self.rng.below(10)) {
            (Ty::V(_), 0 | 1) => {
                self.note("vector-generic-spelling");
                Spelling::Generic
            }
            (Ty::V(_), 2 | 3) => {
                self.note("vector-alias");
                Spelling::Alias
            }
            _ => Spelling::Typedef,
        };
        self.params.push(Param {
            name: name.clone(),
            ty: PTy::Val(ty),
            dom,
            spelling,
        });
        self.vars.push(Var {
            name: name.clone(),
            ty,
            local: false,
        });
        Ex::atom(name)
    }

    /// A float vector input of type `v`: a parameter, never assigned, so
    /// its values are the small ones [`SMALL_FLOATS`] draws.
    fn small_float_input(&mut self, v: VTy) -> Ex {
        let have: Vec<usize> = (0..self.vars.len())
            .filter(|&i| self.vars[i].ty == Ty::V(v) && !self.vars[i].local)
            .collect();
        if !have.is_empty() && self.rng.chance(1, 2) {
            let i = *self.rng.pick(&have);
            return Ex::atom(self.vars[i].name.clone());
        }
        self.param(Ty::V(v))
    }

    /// A vector of type `v`.
    fn vector(&mut self, v: VTy, depth: u32) -> Ex {
        self.types.insert(v);
        if depth == 0 {
            return match self.rng.weighted(&[6, 1, 1]) {
                0 => self.var(Ty::V(v)),
                1 => self.splat_cast(v, 0),
                _ => self.literal(v, 0),
            };
        }
        let int = !v.elem.is_float();
        // A comparison of 8-bit elements gives a vector of `char`, which C
        // (not the DSL, whose `char` is `i8`) keeps apart from `signed char`.
        let mask = v.elem.is_signed_int() && v.elem.bits() > 8;
        let w = [
            4,                        // variable
            6,                        // vector op vector
            5,                        // vector op scalar
            2,                        // unary
            5,                        // swizzle
            if mask { 3 } else { 0 }, // comparison
            2,                        // __builtin_convertvector
            2,                        // compound literal
            1,                        // splat cast
            if int { 3 } else { 0 },  // bitwise, shifts, integer division
            if int { 2 } else { 0 },  // another type's bytes
            2,                        // c ? a : b
        ];
        match self.rng.weighted(&w) {
            0 => self.var(Ty::V(v)),
            1 => {
                let ops: &[&str] = if int {
                    &["+", "-", "*"]
                } else {
                    &["+", "-", "*", "/"]
                };
                let op = *self.rng.pick(ops);
                let a = self.vector(v, depth - 1);
                let b = self.vector(v, depth - 1);
                a.bin(op, b)
            }
            2 => self.with_scalar(v, depth),
            3 => {
                let a = self.vector(v, depth - 1).paren();
                self.note("unary");
                if int && self.rng.chance(1, 2) {
                    Ex {
                        c: format!("~{}", a.c),
                        rs: format!("!{}", a.rs),
                        atom: false,
                    }
                } else {
                    Ex {
                        c: format!("-{}", a.c),
                        rs: format!("-{}", a.rs),
                        atom: false,
                    }
                }
            }
            4 => self.swizzled(v, depth),
            5 => self.comparison(v, depth),
            6 => self.convert(v, depth),
            7 => self.literal(v, depth - 1),
            8 => self.splat_cast(v, depth - 1),
            9 => self.integer_op(v, depth),
            10 => self.reinterpreted(v, depth),
            _ => self.conditional(v, depth),
        }
    }

    /// C's conditional operator: an integer vector of as many lanes of the
    /// same width choosing lane by lane (by each lane's sign bit), or a
    /// scalar choosing a whole operand; the second operand a vector, or a
    /// scalar splat onto the first's type.
    fn conditional(&mut self, v: VTy, depth: u32) -> Ex {
        self.note("conditional");
        let cond = if self.rng.chance(2, 3) {
            self.note("vector-condition");
            let ints: Vec<Elem> = Elem::INTS
                .into_iter()
                .filter(|e| e.bits() == v.elem.bits())
                .collect();
            let c = v.with_elem(*self.rng.pick(&ints));
            self.vector(c, depth - 1)
        } else {
            let e = *self.rng.pick(&Elem::ALL);
            self.scalar_value(e, depth - 1)
        };
        let a = self.vector(v, depth - 1);
        let b = if self.rng.chance(1, 3) {
            self.splat_operand(v.elem, depth - 1)
        } else {
            self.vector(v, depth - 1)
        };
        Ex::atom2(
            format!("({} ? {} : {})", cond.c, a.c, b.c),
            format!("({} ? {} : {})", cond.rs, a.rs, b.rs),
        )
    }

    /// A vector type other than `v` whose elements fill as many bytes
    /// (Clang's condition for a bit cast between them), if there is one.
    fn same_bits(&mut self, v: VTy) -> Option<VTy> {
        let bits = v.len * v.elem.bits();
        let others: Vec<VTy> = Elem::ALL
            .iter()
            .filter(|e| bits.is_multiple_of(e.bits()) && bits / e.bits() <= 16)
            .map(|&elem| VTy {
                elem,
                len: bits / elem.bits(),
            })
            .filter(|t| *t != v)
            .collect();
        (!others.is_empty()).then(|| *self.rng.pick(&others))
    }

    /// The bytes of a vector of another type read as the integer vector
    /// `v`: a cast `(v)(x)`, or the right operand of `a op x`, which Clang
    /// bit casts to `a`'s type. Only integer vectors are read so: bits
    /// read as a float may be a NaN, whose payload C and Rust need not
    /// propagate alike.
    fn reinterpreted(&mut self, v: VTy, depth: u32) -> Ex {
        let Some(from) = self.same_bits(v) else {
            return self.integer_op(v, depth);
        };
        let x = self.vector(from, depth - 1);
        if self.rng.chance(1, 2) {
            self.note("bitcast");
            let (name, x) = (v.name(), x.paren());
            Ex {
                c: format!("({name}){}", x.c),
                rs: format!("({name}){}", x.rs),
                atom: false,
            }
        } else {
            self.note("mixed-types");
            // `& | ^` take integer vectors only, whatever their types.
            let ops: &[&str] = if from.elem.is_float() {
                &["+", "-", "*"]
            } else {
                &["+", "-", "*", "&", "|", "^"]
            };
            let op = *self.rng.pick(ops);
            self.vector(v, depth - 1).bin(op, x)
        }
    }

    /// `a OP s` or `s OP a`: a scalar splat.
    fn with_scalar(&mut self, v: VTy, depth: u32) -> Ex {
        self.note("scalar-splat");
        let a = self.vector(v, depth - 1);
        let s = self.splat_operand(v.elem, depth - 1);
        let ops: &[&str] = if v.elem.is_float() {
            &["+", "-", "*", "/"]
        } else {
            &["+", "-", "*"]
        };
        let op = *self.rng.pick(ops);
        if self.rng.chance(1, 2) {
            a.bin(op, s)
        } else {
            s.bin(op, a)
        }
    }

    /// A scalar that converts to `elem` when splat: Clang converts any
    /// integer to an integer element and any arithmetic value to a float
    /// one.
    fn splat_operand(&mut self, elem: Elem, depth: u32) -> Ex {
        let from = if self.rng.chance(1, 2) {
            elem
        } else if elem.is_float() {
            *self.rng.pick(&Elem::ALL)
        } else {
            *self.rng.pick(&Elem::INTS)
        };
        if from != elem {
            self.note("splat-conversion");
        }
        self.scalar(from, elem, depth)
    }

    /// A scalar of type `e` that converts to `target` (a literal is drawn
    /// in `target`'s range, so that its value never changes).
    fn scalar(&mut self, e: Elem, target: Elem, depth: u32) -> Ex {
        let w = [3, 4, 5, if e.is_float() && depth > 0 { 2 } else { 0 }, 1];
        match self.rng.weighted(&w) {
            4 => self.matrix_element(e),
            0 => {
                // An element is a Rust scalar: a float one takes a float
                // literal (an integer literal converts only when splat).
                if e.is_float() {
                    float_lit(self.rng)
                } else {
                    int_lit(self.rng, target)
                }
            }
            1 => self.var(Ty::S(e)),
            2 => self.component(e, depth),
            _ => {
                self.note("scalar-arithmetic");
                let op = *self.rng.pick(&["+", "-", "*"]);
                let a = self.scalar_value(e, depth - 1);
                let b = self.scalar_value(e, depth - 1);
                a.bin(op, b)
            }
        }
    }

    /// A scalar of type `e` that is no literal (C would compute in
    /// `double` or `int` with one).
    fn scalar_value(&mut self, e: Elem, depth: u32) -> Ex {
        if self.rng.chance(1, 2) {
            self.var(Ty::S(e))
        } else {
            self.component(e, depth)
        }
    }

    /// One element of a vector of element type `e`: `.x`, `.s3`, `[k]`,
    /// `[i]` or a one-element `.hi`.
    fn component(&mut self, e: Elem, depth: u32) -> Ex {
        let len = pick_len(self.rng);
        let v = VTy { elem: e, len };
        let base = if depth > 0 && self.rng.chance(1, 3) {
            self.vector(v, depth - 1)
        } else {
            self.var(Ty::V(v))
        };
        match self.rng.weighted(&[4, 2, 2, if len == 2 { 1 } else { 0 }]) {
            0 => {
                self.note("component");
                let c = swizzle(self.rng, len, 1, false).unwrap();
                base.postfix(&format!(".{c}"))
            }
            1 => {
                self.note("subscript-constant");
                let k = self.rng.below(u64::from(len));
                base.postfix(&format!("[{k}]"))
            }
            2 => {
                self.note("subscript-dynamic");
                let i = self.index_param(len);
                base.postfix(&format!("[{i}]"))
            }
            _ => {
                self.note("hi-lo");
                let h = *self.rng.pick(&["hi", "lo", "even", "odd"]);
                base.postfix(&format!(".{h}"))
            }
        }
    }

    /// `m[r][c]` of a matrix input, with constant or dynamic indices.
    fn matrix_element(&mut self, e: Elem) -> Ex {
        self.note("matrix-element");
        let t = MatTy::new(e, self.rng.range(1, 4) as u32, self.rng.range(1, 4) as u32);
        let m = self.var(Ty::M(t));
        let r = if self.rng.chance(1, 2) {
            self.rng.below(u64::from(t.rows)).to_string()
        } else {
            self.index_param(t.rows)
        };
        let c = self.rng.below(u64::from(t.cols)).to_string();
        m.postfix(&format!("[{r}][{c}]"))
    }

    /// A matrix of type `m`: an input, or one with scalars (vector
    /// components among them) splat onto it.
    fn matrix(&mut self, m: MatTy, depth: u32) -> Ex {
        self.matrices.insert(m);
        if depth == 0 || self.rng.chance(1, 4) {
            return self.var(Ty::M(m));
        }
        self.note("matrix-splat");
        let a = self.matrix(m, depth - 1);
        let s = self.splat_operand(m.elem, depth - 1);
        let op = *self.rng.pick(&["+", "-", "*"]);
        if self.rng.chance(1, 2) {
            a.bin(op, s)
        } else {
            s.bin(op, a)
        }
    }

    /// A new index parameter drawn in `0..len`.
    fn index_param(&mut self, len: u32) -> String {
        let name = self.fresh(2, "i");
        let t = *self.rng.pick(&IdxTy::ALL);
        self.params.push(Param {
            name: name.clone(),
            ty: PTy::Index(t),
            dom: Domain::Int(0, i64::from(len) - 1),
            spelling: Spelling::Typedef,
        });
        name
    }

    /// A swizzle (or `.hi`/`.lo`/`.even`/`.odd`) giving a vector `v`.
    fn swizzled(&mut self, v: VTy, depth: u32) -> Ex {
        if v.len == 1 {
            return self.var(Ty::V(v));
        }
        self.note("swizzle");
        // `.hi .lo .even .odd` of a vector twice as long.
        if v.len * 2 <= 16 && self.rng.chance(1, 4) {
            self.note("hi-lo");
            let base = self.vector(
                VTy {
                    len: v.len * 2,
                    ..v
                },
                depth - 1,
            );
            let h = *self.rng.pick(&["hi", "lo", "even", "odd"]);
            return base.postfix(&format!(".{h}"));
        }
        // `.lo .even` of a vector of odd length, one shorter: Clang's halves
        // of the next even length, whose padding lane they leave out.
        if (2..=8).contains(&v.len) && self.rng.chance(1, 8) {
            self.note("hi-lo-odd");
            let base = self.vector(
                VTy {
                    len: v.len * 2 - 1,
                    ..v
                },
                depth - 1,
            );
            let h = *self.rng.pick(&["lo", "even"]);
            return base.postfix(&format!(".{h}"));
        }
        let from = loop {
            let l = pick_len(self.rng);
            if l >= 2 && (v.len <= 4 || l > 4) {
                break l;
            }
        };
        let base = self.vector(VTy { len: from, ..v }, depth - 1);
        let s = swizzle(self.rng, from, v.len as usize, false).unwrap();
        base.postfix(&format!(".{s}"))
    }

    /// A comparison giving the signed mask vector `v`.
    fn comparison(&mut self, v: VTy, depth: u32) -> Ex {
        self.note("comparison");
        let same_width: Vec<Elem> = Elem::ALL
            .into_iter()
            .filter(|e| e.bits() == v.elem.bits())
            .collect();
        let operand = v.with_elem(*self.rng.pick(&same_width));
        let op = *self
            .rng
            .pick(&["==", "!=", "<", "<=", ">", ">=", "&&", "||"]);
        // A float literal beside `&&` or `||` draws clang's warning of a
        // conversion to `_Bool` (the DSL's error): a vector operand there.
        let logical = op == "&&" || op == "||";
        if logical {
            self.note("logical");
        }
        let a = self.vector(operand, depth - 1);
        let b = if !logical && self.rng.chance(1, 3) {
            self.splat_operand(operand.elem, depth - 1)
        } else {
            self.vector(operand, depth - 1)
        };
        a.bin(op, b).paren()
    }

    /// `__builtin_convertvector(x, v)` from another element type.
    fn convert(&mut self, v: VTy, depth: u32) -> Ex {
        self.note("convertvector");
        let from = v.with_elem(*self.rng.pick(&Elem::ALL));
        let x = if from.elem.is_float() && !v.elem.is_float() {
            // Only small values convert to an integer: an input, or (for
            // an unsigned target) its square.
            let a = self.small_float_input(from);
            if v.elem.is_unsigned() {
                a.clone().bin("*", a)
            } else {
                a
            }
        } else {
            self.vector(from, depth - 1)
        };
        let name = v.name();
        Ex::atom2(
            format!("__builtin_convertvector({}, {name})", x.c),
            format!("__builtin_convertvector({}, {name})", x.rs),
        )
    }

    /// A compound literal `(v){a, b, ...}` with up to `v.len` scalars.
    fn literal(&mut self, v: VTy, depth: u32) -> Ex {
        self.note("compound-literal");
        let n = 1 + self.rng.below(u64::from(v.len)) as usize;
        let n = if self.rng.chance(2, 3) {
            v.len as usize
        } else {
            n
        };
        let mut c = Vec::new();
        let mut rs = Vec::new();
        for _ in 0..n {
            let e = self.splat_operand(v.elem, depth.min(1));
            c.push(e.c);
            rs.push(e.rs);
        }
        let name = v.name();
        Ex {
            c: format!("({name}){{{}}}", c.join(", ")),
            rs: format!("({name}){{{}}}", rs.join(", ")),
            atom: false,
        }
    }

    /// `(v)(s)`: a scalar splat by cast.
    fn splat_cast(&mut self, v: VTy, depth: u32) -> Ex {
        self.note("splat-cast");
        let s = self.splat_operand(v.elem, depth);
        let name = v.name();
        Ex {
            c: format!("({name})({})", s.c),
            rs: format!("({name})({})", s.rs),
            atom: false,
        }
    }

    /// `& | ^`, shifts with a masked count, `/` and `%` by an odd positive
    /// divisor, on an integer vector `v`.
    fn integer_op(&mut self, v: VTy, depth: u32) -> Ex {
        let op = *self.rng.pick(&["&", "|", "^", "<<", ">>", "/", "%"]);
        let a = self.vector(v, depth - 1);
        let b = self.integer_rhs(v, op, depth);
        a.bin(op, b)
    }

    /// A right operand for `op` (`& | ^ << >> / %`) on the integer vector
    /// `v` that keeps both languages defined: a shift count masked below
    /// the width, a divisor odd and positive.
    fn integer_rhs(&mut self, v: VTy, op: &str, depth: u32) -> Ex {
        match op {
            "<<" | ">>" => {
                self.note("shift");
                let mask = v.elem.bits() - 1;
                if self.rng.chance(1, 2) {
                    Ex::atom(self.rng.below(u64::from(mask) + 1).to_string())
                } else {
                    let b = self.vector(v, depth - 1);
                    b.bin("&", Ex::atom(mask.to_string()))
                }
            }
            "/" | "%" => {
                self.note("integer-division");
                if self.rng.chance(1, 2) {
                    Ex::atom(self.rng.pick(&[1, 3, 5, 7]).to_string())
                } else {
                    let b = self.vector(v, depth - 1);
                    b.bin("&", Ex::atom("7".into()))
                        .bin("|", Ex::atom("1".into()))
                }
            }
            _ => {
                self.note("bitwise");
                if self.rng.chance(1, 3) {
                    self.splat_operand(v.elem, depth - 1)
                } else {
                    self.vector(v, depth - 1)
                }
            }
        }
    }

    /// A compound assignment `op=` on a vector place of type `v`, with its
    /// right operand.
    fn compound_assign(&mut self, v: VTy, depth: u32) -> (&'static str, Ex) {
        self.note("compound-assign");
        let ops: &[&'static str] = if v.elem.is_float() {
            &["+", "-", "*", "/"]
        } else {
            &["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]
        };
        let op = *self.rng.pick(ops);
        let rhs = match op {
            "/" | "%" | "&" | "|" | "^" | "<<" | ">>" if !v.elem.is_float() => {
                self.note("integer-compound-assign");
                self.integer_rhs(v, op, depth)
            }
            _ if self.rng.chance(1, 3) => self.splat_operand(v.elem, depth),
            _ => self.vector(v, depth),
        };
        let op = match op {
            "+" => "+=",
            "-" => "-=",
            "*" => "*=",
            "/" => "/=",
            "%" => "%=",
            "&" => "&=",
            "|" => "|=",
            "^" => "^=",
            "<<" => "<<=",
            _ => ">>=",
        };
        (op, rhs)
    }

    /// The assignment operator for one element. Elements are Rust scalars
    /// (dsl-contract.md, "Clarifications"): the value has the element's
    /// type, and integer elements take only `=` (Rust's `+=` on an element
    /// panics on overflow where C's promoted arithmetic wraps).
    fn element_op(&mut self, e: Elem) -> &'static str {
        const FLOAT_OPS: [&str; 5] = ["=", "+=", "-=", "*=", "/="];
        if e.is_float() {
            FLOAT_OPS[self.rng.below(5) as usize]
        } else {
            "="
        }
    }

    /// A value of type `t`.
    fn value(&mut self, t: Ty, depth: u32) -> Ex {
        match t {
            Ty::V(v) => self.vector(v, depth),
            Ty::S(e) => self.scalar(e, e, depth),
            Ty::M(m) => self.matrix(m, depth),
        }
    }

    /// A statement on local `t` (of type `ty`), in C and in Rust.
    fn statement(&mut self, t: &str, ty: VTy) -> (String, String) {
        let depth = self.rng.range(1, 2) as u32;
        match self.rng.weighted(&[3, 3, 2, 2]) {
            0 => {
                let (op, rhs) = self.compound_assign(ty, depth);
                (
                    format!("{t} {op} {};", rhs.c),
                    format!("{t} {op} {};", rhs.rs),
                )
            }
            1 if ty.len >= 2 => {
                self.note("swizzle-assign");
                let n = 1 + self.rng.below(u64::from(ty.len.min(4))) as u32;
                let comps = swizzle(self.rng, ty.len, n as usize, true).unwrap();
                let part = VTy { len: n, ..ty };
                let (op, rhs) = if n == 1 {
                    let op = self.element_op(ty.elem);
                    (op, self.scalar(ty.elem, ty.elem, depth))
                } else if self.rng.chance(1, 2) {
                    self.compound_assign(part, depth)
                } else {
                    ("=", self.vector(part, depth))
                };
                (
                    format!("{t}.{comps} {op} {};", rhs.c),
                    format!("{t}.{comps} {op} {};", rhs.rs),
                )
            }
            2 => {
                self.note("subscript-assign");
                let i = if self.rng.chance(1, 2) {
                    self.rng.below(u64::from(ty.len)).to_string()
                } else {
                    self.index_param(ty.len)
                };
                let op = self.element_op(ty.elem);
                let rhs = self.scalar(ty.elem, ty.elem, depth);
                (
                    format!("{t}[{i}] {op} {};", rhs.c),
                    format!("{t}[{i}] {op} {};", rhs.rs),
                )
            }
            _ => {
                let rhs = self.vector(ty, depth);
                (format!("{t} = {};", rhs.c), format!("{t} = {};", rhs.rs))
            }
        }
    }
}

fn small_ints(e: Elem) -> Domain {
    if e.is_unsigned() {
        Domain::Int(0, 16)
    } else {
        Domain::Int(-8, 8)
    }
}

/// Generates one kernel named `name` from `rng`.
pub fn kernel(rng: &mut SplitMix64, name: &str) -> VKernel {
    let input_seed = rng.next_u64();
    let mut g = Gen {
        rng,
        params: Vec::new(),
        vars: Vec::new(),
        types: BTreeSet::new(),
        matrices: BTreeSet::new(),
        feats: BTreeSet::new(),
        counters: [0; 5],
    };
    let mut body = Vec::new();
    let locals = g.rng.range(0, 2);
    for _ in 0..locals {
        let elem = *g.rng.pick(&Elem::ALL);
        let ty = VTy {
            elem,
            len: pick_len(g.rng),
        };
        let t = g.fresh(3, "t");
        let depth = g.rng.range(1, 3) as u32;
        let init = g.vector(ty, depth);
        g.types.insert(ty);
        let typed = g.rng.chance(3, 4);
        let rs_ty = if typed {
            format!(": {}", ty.name())
        } else {
            String::new()
        };
        body.push((
            format!("{} {t} = {};", ty.name(), init.c),
            format!("let mut {t}{rs_ty} = {};", init.rs),
        ));
        g.vars.push(Var {
            name: t.clone(),
            ty: Ty::V(ty),
            local: true,
        });
        for _ in 0..g.rng.range(0, 2) {
            body.push(g.statement(&t, ty));
        }
    }
    let ret = if g.rng.chance(1, 5) {
        Ty::S(*g.rng.pick(&Elem::ALL))
    } else if g.rng.chance(1, 8) {
        let (r, c) = (g.rng.range(1, 4) as u32, g.rng.range(1, 4) as u32);
        Ty::M(MatTy::new(*g.rng.pick(&Elem::ALL), r, c))
    } else {
        Ty::V(VTy {
            elem: *g.rng.pick(&Elem::ALL),
            len: pick_len(g.rng),
        })
    };
    let depth = g.rng.range(2, 4) as u32;
    let ret_expr = g.value(ret, depth);
    if let Ty::V(v) = ret {
        g.types.insert(v);
    }
    VKernel {
        name: name.to_string(),
        input_seed,
        params: g.params,
        body,
        ret,
        ret_expr,
        features: g.feats,
        types: g.types,
        matrices: g.matrices,
    }
}

impl VKernel {
    /// The kernel's lines in `lang` (a `matrix!` item in Rust).
    pub fn lines(&self, lang: Lang, rng: &mut SplitMix64) -> Vec<String> {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| match (lang, p.ty) {
                (_, PTy::Val(Ty::V(v))) if p.spelling == Spelling::Alias => match lang {
                    Lang::C => format!("{} {}", v.alias(), p.name),
                    Lang::Rust => format!("{}: {}", p.name, v.alias()),
                },
                (Lang::C, PTy::Val(t)) => format!("{} {}", t.c(), p.name),
                (Lang::C, PTy::Index(i)) => format!("{} {}", i.c(), p.name),
                (Lang::Rust, PTy::Val(Ty::V(v))) if p.spelling == Spelling::Generic => {
                    format!("{}: Vector<{}, {}>", p.name, v.elem.rust(), v.len)
                }
                (Lang::Rust, PTy::Val(t)) => format!("{}: {}", p.name, t.rust()),
                (Lang::Rust, PTy::Index(i)) => format!("{}: {}", p.name, i.rust()),
            })
            .collect();
        let ret_ty = match lang {
            Lang::C => self.ret.c(),
            Lang::Rust => self.ret.rust(),
        };
        let mut out = vec![match lang {
            Lang::C => format!("{ret_ty} {}({}) {{", self.name, params.join(", ")),
            Lang::Rust => format!("pub fn {}({}) -> {ret_ty} {{", self.name, params.join(", ")),
        }];
        for (c, rs) in &self.body {
            out.push(format!(
                "    {}",
                match lang {
                    Lang::C => c,
                    Lang::Rust => rs,
                }
            ));
        }
        let e = self.ret_expr.text(lang);
        out.push(match lang {
            Lang::Rust if rng.chance(1, 2) => format!("    {e}"),
            _ => format!("    return {e};"),
        });
        out.push("}".into());
        out
    }

    /// The C runner: draws the inputs, calls the kernel, prints its result.
    pub fn c_runner(&self) -> Vec<String> {
        let mut arrays = Vec::new();
        let mut body = Vec::new();
        for p in &self.params {
            let tag = format!("{}_dom", p.name);
            let dom = emit::c_dom(&p.dom, &mut arrays, &tag);
            let n = &p.name;
            body.push(match p.ty {
                PTy::Val(Ty::V(v)) => format!(
                    "    {} {n}; {{ {} b[{len}]; rt_fill_{}(&rng, b, {len}, {dom}); for (int j = 0; j < {len}; j++) {n}[j] = b[j]; }}",
                    v.name(),
                    v.elem.c(),
                    emit::c_fill(v.elem),
                    len = v.len
                ),
                PTy::Val(Ty::S(e)) => format!(
                    "    {} {n}; rt_fill_{}(&rng, &{n}, 1, {dom});",
                    e.c(),
                    emit::c_fill(e)
                ),
                PTy::Val(Ty::M(m)) => format!(
                    "    {} {n}_b[{len}]; rt_fill_{}(&rng, {n}_b, {len}, {dom}); {} {n} = __builtin_matrix_column_major_load({n}_b, {}, {}, {});",
                    m.elem.c(),
                    emit::c_fill(m.elem),
                    m.name(),
                    m.rows,
                    m.cols,
                    m.rows,
                    len = m.len()
                ),
                PTy::Index(i) => format!(
                    "    {} {n}; rt_fill_{}(&rng, &{n}, 1, {dom});",
                    i.c(),
                    emit::idx_fill(i)
                ),
            });
        }
        let args: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        let e = self.ret.elem();
        let n = self.ret.len();
        let mut out = vec![format!("static void run_{}(void) {{", self.name)];
        out.extend(arrays);
        out.push(format!(
            "    rt_rng rng = {{0x{:016x}ULL}};",
            self.input_seed
        ));
        out.extend(body);
        out.push(format!(
            "    {} r = {}({});",
            self.ret.c(),
            self.name,
            args.join(", ")
        ));
        out.push(match self.ret {
            Ty::S(_) => format!(
                "    rt_out_{}(\"{}\", \"ret\", &r, 1);",
                emit::c_fill(e),
                self.name
            ),
            Ty::V(_) => format!(
                "    {{ {} b[{n}]; for (int j = 0; j < {n}; j++) b[j] = r[j]; rt_out_{}(\"{}\", \"ret\", b, {n}); }}",
                e.c(),
                emit::c_fill(e),
                self.name
            ),
            Ty::M(m) => format!(
                "    {{ {} b[{n}]; __builtin_matrix_column_major_store(r, b, {}); rt_out_{}(\"{}\", \"ret\", b, {n}); }}",
                e.c(),
                m.rows,
                emit::c_fill(e),
                self.name
            ),
        });
        out.push("}".into());
        out
    }

    /// The Rust runner, the twin of [`VKernel::c_runner`].
    pub fn rs_runner(&self) -> Vec<String> {
        let mut out = vec![
            format!("fn run_{}() -> Vec<rt::Output> {{", self.name),
            format!(
                "    let mut rng = rt::Rng::new(0x{:016x});",
                self.input_seed
            ),
        ];
        for p in &self.params {
            let dom = emit::rs_dom(&p.dom);
            let n = &p.name;
            out.push(match p.ty {
                PTy::Val(Ty::V(v)) => format!(
                    "    let {n} = {}::from_array(rt::vec::<{}>(&mut rng, {}, {dom}).try_into().unwrap());",
                    v.name(),
                    v.elem.rust(),
                    v.len
                ),
                PTy::Val(Ty::S(e)) => {
                    format!("    let {n}: {} = rt::draw(&mut rng, {dom});", e.rust())
                }
                PTy::Val(Ty::M(m)) => format!(
                    "    let {n} = {}::from_column_major(&rt::vec::<{}>(&mut rng, {}, {dom}));",
                    m.name(),
                    m.elem.rust(),
                    m.len()
                ),
                PTy::Index(i) => {
                    format!("    let {n}: {} = rt::draw(&mut rng, {dom});", i.rust())
                }
            });
        }
        let args: Vec<&str> = self.params.iter().map(|p| p.name.as_str()).collect();
        out.push(format!("    let r = {}({});", self.name, args.join(", ")));
        out.push(match self.ret {
            Ty::S(_) => "    vec![rt::Output::new(\"ret\", &[r])]".into(),
            Ty::V(_) | Ty::M(_) => "    vec![rt::Output::new(\"ret\", r.as_slice())]".into(),
        });
        out.push("}".into());
        out
    }
}

/// The typedef lines of a chunk: C's, and `matrix!`'s (element spellings
/// and visibility drawn from `rng`).
pub fn typedefs(types: &BTreeSet<VTy>, lang: Lang, rng: &mut SplitMix64) -> Vec<String> {
    types
        .iter()
        .map(|t| {
            let attr = format!("__attribute__((ext_vector_type({})))", t.len);
            match lang {
                Lang::C => format!("typedef {} {} {attr};", t.elem.c(), t.name()),
                Lang::Rust => {
                    let sp = *rng.pick(t.elem.typedef_spellings());
                    let vis = *rng.pick(&["", "", "pub ", "pub(crate) "]);
                    format!("{vis}typedef {sp} {} {attr};", t.name())
                }
            }
        })
        .collect()
}

/// The matrix typedef lines of a chunk, in `lang`.
pub fn matrix_typedefs(types: &BTreeSet<MatTy>, lang: Lang, rng: &mut SplitMix64) -> Vec<String> {
    types
        .iter()
        .map(|t| {
            let dims = (t.rows.to_string(), t.cols.to_string());
            match lang {
                Lang::C => emit::c_typedef(t, &t.name(), &dims),
                Lang::Rust => {
                    let sp = *rng.pick(t.elem.typedef_spellings());
                    emit::rs_typedef("", sp, &t.name(), &dims, crate::ty::Layout::ColumnMajor)
                }
            }
        })
        .collect()
}

/// The typedef lines of a chunk of kernels in `lang`: its vector types,
/// then its matrix types.
pub fn chunk_typedefs(ks: &[VKernel], lang: Lang, rng: &mut SplitMix64) -> Vec<String> {
    let types: BTreeSet<VTy> = ks.iter().flat_map(|k| k.types.iter().copied()).collect();
    let mats: BTreeSet<MatTy> = ks.iter().flat_map(|k| k.matrices.iter().copied()).collect();
    let aliased: BTreeSet<VTy> = ks
        .iter()
        .flat_map(|k| &k.params)
        .filter_map(|p| match p.ty {
            PTy::Val(Ty::V(v)) if p.spelling == Spelling::Alias => Some(v),
            _ => None,
        })
        .collect();
    let mut lines = typedefs(&types, lang, rng);
    for v in aliased {
        lines.push(match lang {
            Lang::Rust if rng.chance(1, 2) => format!("type {} = {};", v.alias(), v.name()),
            _ => format!("typedef {} {};", v.name(), v.alias()),
        });
    }
    lines.extend(matrix_typedefs(&mats, lang, rng));
    lines
}
