//! Ill-typed vector kernels: one mistake each, in C and in `matrix!`.
//!
//! Each mutant is a small kernel of its own (vectors, and a matrix where
//! the mistake needs one) whose marked line holds the mistake. They join
//! the matrix mutants in `corpus/ill_typed.{c,rs}` (the Rust ones in a
//! second `matrix!` block), and `tests/ill_typed.rs` holds them to the same
//! rule: clang-19 rejects the marked C line, and the macro the marked Rust
//! line with clang's message.
//!
//! Vector mistakes the DSL words as its own on purpose (a constant index
//! out of range, which Clang accepts; `.hi` of an odd length; a cast that
//! reinterprets bytes; a length above 16) are not generated: the trybuild
//! cases cover them.

use std::collections::BTreeSet;

use crate::emit::Lang;
use crate::prng::SplitMix64;
use crate::ty::{Elem, MatTy};
use crate::vgen::VTy;

/// Every kind generated, with the phrase clang's message starts with.
pub const KINDS: &[(&str, &str)] = &[
    (
        "vec-length",
        "cannot convert between vector values of different size",
    ),
    (
        "vec-elem",
        "cannot convert between vector values of different size",
    ),
    (
        "vec-float-scalar",
        "cannot convert between vector values of different size",
    ),
    (
        "vec-compare-length",
        "cannot convert between vector values of different size",
    ),
    (
        "vec-component-exceeds",
        "vector component access exceeds type",
    ),
    ("vec-component-name", "illegal vector component name"),
    (
        "vec-duplicate-assign",
        "vector is not assignable (contains duplicate components)",
    ),
    ("vec-swizzle-rvalue-assign", "expression is not assignable"),
    ("vec-not-float", "invalid argument type"),
    ("vec-rem-float", "invalid operands to binary expression"),
    ("vec-bitwise-float", "invalid operands to binary expression"),
    ("vec-shift-float", "used type"),
    ("vec-let-type", "initializing"),
    ("vec-assign-type", "assigning to"),
    ("vec-return-type", "returning"),
    ("vec-to-scalar", "initializing"),
    (
        "convertvector-length",
        "first two arguments to __builtin_convertvector must have the same number of elements",
    ),
    (
        "convertvector-scalar",
        "first argument to __builtin_convertvector must be a vector",
    ),
    (
        "vec-cast-length",
        "invalid conversion between ext-vector type",
    ),
    ("vec-literal-vector", "initializing"),
    ("vec-index-float", "array subscript is not an integer"),
    (
        "vec-matrix-add",
        "cannot convert between vector and non-scalar values",
    ),
];

/// One ill-typed vector kernel.
#[derive(Clone, Debug)]
pub struct VMutant {
    /// `w007`.
    pub name: String,
    /// The kind of mistake.
    pub kind: &'static str,
    /// The phrase clang's message must start with.
    pub expect: &'static str,
    /// Parameters: (name, Rust type, C type).
    params: Vec<(String, String, String)>,
    /// Body lines: (Rust, C); the last is the marked one.
    lines: Vec<(String, String)>,
    /// The return type and value: (Rust type, C type, expression).
    ret: (String, String, String),
    /// The vector types it names.
    pub vectors: BTreeSet<VTy>,
    /// The matrix types it names.
    pub matrices: BTreeSet<MatTy>,
}

impl VMutant {
    /// The marker comment for a language.
    pub fn marker(&self, lang: Lang) -> String {
        match lang {
            Lang::C => format!("/* {} */", self.name.to_uppercase()),
            Lang::Rust => format!("// {}", self.name.to_uppercase()),
        }
    }

    /// The kernel's lines in `lang`, the mistake's line marked.
    pub fn lines(&self, lang: Lang) -> Vec<String> {
        let (rt, ct, e) = &self.ret;
        let mut out = vec![match lang {
            Lang::Rust => {
                let ps: Vec<String> = self
                    .params
                    .iter()
                    .map(|p| format!("{}: {}", p.0, p.1))
                    .collect();
                format!("pub fn {}({}) -> {rt} {{", self.name, ps.join(", "))
            }
            Lang::C => {
                let ps: Vec<String> = self
                    .params
                    .iter()
                    .map(|p| format!("{} {}", p.2, p.0))
                    .collect();
                format!("{ct} {}({}) {{", self.name, ps.join(", "))
            }
        }];
        let n = self.lines.len();
        for (i, (rs, c)) in self.lines.iter().enumerate() {
            let l = match lang {
                Lang::Rust => rs,
                Lang::C => c,
            };
            if i + 1 == n {
                out.push(format!("    {l} {}", self.marker(lang)));
            } else {
                out.push(format!("    {l}"));
            }
        }
        // Without a line before it, the return is the mistake.
        out.push(match n {
            0 => format!("    return {e}; {}", self.marker(lang)),
            _ => format!("    return {e};"),
        });
        out.push("}".into());
        out
    }
}

struct Ctx<'r> {
    rng: &'r mut SplitMix64,
    m: VMutant,
}

impl Ctx<'_> {
    fn vty(&mut self) -> VTy {
        VTy {
            elem: *self.rng.pick(&Elem::ALL),
            len: *self.rng.pick(&[2, 3, 4, 8]),
        }
    }

    fn float_vty(&mut self) -> VTy {
        VTy {
            elem: *self.rng.pick(&[Elem::F32, Elem::F64]),
            len: *self.rng.pick(&[2, 3, 4, 8]),
        }
    }

    fn other_len(&mut self, v: VTy) -> VTy {
        loop {
            let len = *self.rng.pick(&[2, 3, 4, 8, 16]);
            if len != v.len {
                return VTy { len, ..v };
            }
        }
    }

    fn other_elem(&mut self, v: VTy) -> VTy {
        loop {
            let elem = *self.rng.pick(&Elem::ALL);
            if elem != v.elem {
                return VTy { elem, ..v };
            }
        }
    }

    /// A vector of `v`'s length whose elements have another size. (Clang
    /// bit casts the right operand of an operator to the left one's type
    /// where their elements fill as many bytes, `int4 + float4` included,
    /// so only another size is an error there.)
    fn other_width(&mut self, v: VTy) -> VTy {
        loop {
            let elem = *self.rng.pick(&Elem::ALL);
            if elem.bits() != v.elem.bits() {
                return VTy { elem, ..v };
            }
        }
    }

    /// A new vector parameter.
    fn v(&mut self, t: VTy) -> String {
        self.m.vectors.insert(t);
        let name = format!("a{}", self.m.params.len());
        self.m.params.push((name.clone(), t.name(), t.name()));
        name
    }

    /// A new scalar parameter.
    fn s(&mut self, e: Elem) -> String {
        let name = format!("a{}", self.m.params.len());
        self.m
            .params
            .push((name.clone(), e.rust().into(), e.c().into()));
        name
    }

    /// A new matrix parameter.
    fn mat(&mut self, t: MatTy) -> String {
        self.m.matrices.insert(t);
        let name = format!("a{}", self.m.params.len());
        self.m
            .params
            .push((name.clone(), matrix_name(&t), matrix_name(&t)));
        name
    }

    /// `let t0 = e;` (C `__auto_type`).
    fn let_auto(&mut self, e: &str) {
        self.line(format!("let t0 = {e};"), format!("__auto_type t0 = {e};"));
    }

    /// `let NAME: T = e;`.
    fn let_typed(&mut self, name: &str, t: &str, ct: &str, e: &str) {
        self.line(
            format!("let mut {name}: {t} = {e};"),
            format!("{ct} {name} = {e};"),
        );
    }

    fn line(&mut self, rs: String, c: String) {
        self.m.lines.push((rs, c));
    }

    /// Returns a new vector parameter of type `t`.
    fn ret_v(&mut self, t: VTy) {
        let p = self.v(t);
        self.m.ret = (t.name(), t.name(), p);
    }
}

/// A matrix typedef's name here (apart from the matrix mutants' typedefs,
/// which share the file).
fn matrix_name(t: &MatTy) -> String {
    format!("w{}", t.name())
}

/// A swizzle of `n` components from `xyzw` (all below `len`).
fn comps(rng: &mut SplitMix64, len: u32, n: usize) -> String {
    (0..n)
        .map(|_| b"xyzw"[rng.below(u64::from(len.min(4))) as usize] as char)
        .collect()
}

/// Generates `count` vector mutants, cycling through [`KINDS`].
pub fn mutants(rng: &mut SplitMix64, count: usize) -> Vec<VMutant> {
    (0..count)
        .map(|i| {
            let (kind, expect) = KINDS[i % KINDS.len()];
            mutant(rng, kind, expect, &format!("w{i:03}"))
        })
        .collect()
}

fn mutant(rng: &mut SplitMix64, kind: &'static str, expect: &'static str, name: &str) -> VMutant {
    let mut cx = Ctx {
        rng,
        m: VMutant {
            name: name.into(),
            kind,
            expect,
            params: Vec::new(),
            lines: Vec::new(),
            ret: Default::default(),
            vectors: BTreeSet::new(),
            matrices: BTreeSet::new(),
        },
    };
    let t = cx.vty();
    cx.ret_v(t);
    let ops = ["+", "-", "*", "/"];
    match kind {
        "vec-length" | "vec-elem" | "vec-compare-length" => {
            let u = if kind == "vec-elem" {
                cx.other_width(t)
            } else {
                cx.other_len(t)
            };
            let (x, y) = (cx.v(t), cx.v(u));
            let op = if kind == "vec-compare-length" {
                *cx.rng.pick(&["<", "==", ">="])
            } else {
                *cx.rng.pick(&ops)
            };
            cx.let_auto(&format!("{x} {op} {y}"));
        }
        "vec-float-scalar" => {
            let v = VTy {
                elem: *cx.rng.pick(&Elem::INTS),
                ..t
            };
            let x = cx.v(v);
            let f = *cx.rng.pick(&[Elem::F32, Elem::F64]);
            let s = cx.s(f);
            let op = *cx.rng.pick(&ops);
            cx.let_auto(&format!("{x} {op} {s}"));
        }
        "vec-component-exceeds" => {
            let v = VTy {
                len: *cx.rng.pick(&[2, 3]),
                ..t
            };
            let x = cx.v(v);
            let c = if v.len == 2 { "z" } else { "w" };
            cx.let_auto(&format!("{x}.{c}"));
        }
        "vec-component-name" => {
            let x = cx.v(t);
            let c = *cx.rng.pick(&["q", "xq", "u"]);
            cx.let_auto(&format!("{x}.{c}"));
        }
        "vec-duplicate-assign" => {
            let x = cx.v(t);
            let c = comps(cx.rng, t.len, 1);
            let cc = format!("{c}{c}");
            cx.let_typed("t0", &t.name(), &t.name(), &x);
            let from = comps(cx.rng, t.len, 2);
            cx.line(
                format!("t0.{cc} = {x}.{from};"),
                format!("t0.{cc} = {x}.{from};"),
            );
        }
        "vec-swizzle-rvalue-assign" => {
            let (x, y) = (cx.v(t), cx.v(t));
            let c = comps(cx.rng, t.len, 1);
            cx.line(
                format!("({x} + {y}).{c} = {y}.{c};"),
                format!("({x} + {y}).{c} = {y}.{c};"),
            );
        }
        "vec-not-float" => {
            let v = cx.float_vty();
            let x = cx.v(v);
            cx.line(format!("let t0 = !{x};"), format!("__auto_type t0 = ~{x};"));
        }
        "vec-rem-float" | "vec-bitwise-float" | "vec-shift-float" => {
            let v = cx.float_vty();
            let (x, y) = (cx.v(v), cx.v(v));
            let op = match kind {
                "vec-rem-float" => "%",
                "vec-bitwise-float" => *cx.rng.pick(&["&", "|", "^"]),
                _ => *cx.rng.pick(&["<<", ">>"]),
            };
            cx.let_auto(&format!("{x} {op} {y}"));
        }
        "vec-let-type" | "vec-assign-type" | "vec-return-type" => {
            let u = if cx.rng.chance(1, 2) {
                cx.other_elem(t)
            } else {
                cx.other_len(t)
            };
            let y = cx.v(u);
            match kind {
                "vec-let-type" => cx.let_typed("t0", &t.name(), &t.name(), &y),
                "vec-assign-type" => {
                    let x = cx.v(t);
                    cx.let_typed("t0", &t.name(), &t.name(), &x);
                    cx.line(format!("t0 = {y};"), format!("t0 = {y};"));
                }
                _ => {
                    // The mistake is the return line: mark it instead.
                    cx.m.ret.2 = y.clone();
                }
            }
        }
        "vec-to-scalar" => {
            let x = cx.v(t);
            cx.let_typed("t0", t.elem.rust(), t.elem.c(), &x);
        }
        "convertvector-length" | "convertvector-scalar" => {
            let to = cx.other_elem(t);
            let x = if kind == "convertvector-length" {
                let u = cx.other_len(t);
                cx.v(u)
            } else {
                cx.s(t.elem)
            };
            cx.m.vectors.insert(to);
            cx.let_auto(&format!("__builtin_convertvector({x}, {})", to.name()));
        }
        "vec-cast-length" => {
            let u = cx.other_len(t);
            let y = cx.v(u);
            cx.let_auto(&format!("({})({y})", t.name()));
        }
        "vec-literal-vector" => {
            // A vector first element initialises the whole literal (C, not
            // OpenCL): of the wrong length, it is an error; of the right
            // one, the rest are excess elements, only a warning.
            let t = VTy {
                len: *cx.rng.pick(&[3, 4, 8]),
                ..t
            };
            cx.m.vectors.insert(t);
            let half = VTy { len: 2, ..t };
            let y = cx.v(half);
            cx.let_auto(&format!("({}){{{y}, 1}}", t.name()));
        }
        "vec-index-float" => {
            let x = cx.v(t);
            let f = *cx.rng.pick(&[Elem::F32, Elem::F64]);
            let s = cx.s(f);
            cx.let_auto(&format!("{x}[{s}]"));
        }
        _ => {
            // "vec-matrix-add": Clang has no arithmetic between a matrix
            // and a vector (the DSL's products are an extension).
            let m = MatTy::new(t.elem, t.len, 1);
            let (a, x) = (cx.mat(m), cx.v(t));
            let op = *cx.rng.pick(&["+", "-"]);
            if cx.rng.chance(1, 2) {
                cx.let_auto(&format!("{a} {op} {x}"));
            } else {
                cx.let_auto(&format!("{x} {op} {a}"));
            }
        }
    }
    let mut m = cx.m;
    if kind == "vec-return-type" {
        // No line before the return: the return is the marked line.
        m.lines.clear();
    }
    m
}

/// The ill-typed file parts for the vector mutants: C (typedefs and
/// kernels) and Rust (a second `matrix!` block).
pub fn files(ms: &[VMutant], rng: &mut SplitMix64) -> (String, String) {
    let vectors: BTreeSet<VTy> = ms.iter().flat_map(|m| m.vectors.iter().copied()).collect();
    let matrices: BTreeSet<MatTy> = ms.iter().flat_map(|m| m.matrices.iter().copied()).collect();
    let mut c = String::from("\n/* Ill-typed vector kernels. */\n");
    let mut rs = String::from("\n// Ill-typed vector kernels.\nmatrix! {\n");
    for l in crate::vgen::typedefs(&vectors, Lang::C, rng) {
        c.push_str(&l);
        c.push('\n');
    }
    for l in crate::vgen::typedefs(&vectors, Lang::Rust, rng) {
        rs.push_str(&format!("    {l}\n"));
    }
    for t in &matrices {
        let dims = (t.rows.to_string(), t.cols.to_string());
        c.push_str(&crate::emit::c_typedef(t, &matrix_name(t), &dims));
        c.push('\n');
        let sp = *rng.pick(t.elem.typedef_spellings());
        let layout = crate::ty::Layout::ColumnMajor;
        let l = crate::emit::rs_typedef("", sp, &matrix_name(t), &dims, layout);
        rs.push_str(&format!("    {l}\n"));
    }
    for m in ms {
        c.push('\n');
        rs.push('\n');
        for l in m.lines(Lang::C) {
            c.push_str(&l);
            c.push('\n');
        }
        for l in m.lines(Lang::Rust) {
            rs.push_str(&format!("    {l}\n"));
        }
    }
    rs.push_str("}\n");
    (c, rs)
}
