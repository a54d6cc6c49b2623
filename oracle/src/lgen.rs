//! Random kernels that mix layouts, against clang-19.
//!
//! A layout changes where elements are stored, never their values: a
//! kernel over row-major and column-major types, with layout casts
//! between them, computes what the same kernel computes with every type
//! column-major. So the C twin of a kernel is the kernel with its layouts
//! erased: both typedef names of a shape (`f32m4x3` and `f32m4x3r`) name
//! one column-major type in C, and a layout cast `(f32m4x3r) a` becomes a
//! cast to the same type, which clang accepts. The Rust side keeps the
//! layouts: every operand and result of a product, sum, transpose or
//! multiply-accumulate has its own, and the runners convert inputs from
//! and results to column-major at the boundary.
//!
//! The DSL's extensions beyond Clang get C spellings with the same values:
//! `__builtin_matrix_mad(a, b, c)` is `a * b + c` (with 8-bit operands and
//! an `int` accumulator, `(int_m) a * (int_m) b + c`), the row-major loads
//! are transposed column-major loads, the packed loads (`packed_a`,
//! `packed_b`) C helper loops reading each element at its offset in
//! `MemoryLayout`'s table, and `__builtin_matrix_fill`, `_map`
//! and `_zip` are C helper functions with loops over the elements (a
//! scalar reference, compiled by clang). Closures stay within arithmetic
//! that C and Rust define alike: float arithmetic with `f`-suffixed
//! literals (no `double` detour), and bitwise integer operations.

use std::collections::BTreeSet;

use crate::ast::Domain;
use crate::dual::Ex;
use crate::emit::{self, Lang};
use crate::prng::SplitMix64;
use crate::ty::{Elem, Layout, MatTy};

/// A matrix type with its layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LTy {
    /// Element type and shape.
    pub m: MatTy,
    /// `true` for `row_major`.
    pub row_major: bool,
}

impl LTy {
    /// The typedef name: `f32m4x3` (column-major) or `f32m4x3r`.
    pub fn name(&self) -> String {
        if self.row_major {
            format!("{}r", self.m.name())
        } else {
            self.m.name()
        }
    }

    fn with(self, m: MatTy) -> LTy {
        LTy { m, ..self }
    }

    fn layout(self) -> Layout {
        if self.row_major {
            Layout::RowMajor
        } else {
            Layout::ColumnMajor
        }
    }
}

/// A kernel parameter.
#[derive(Clone, Debug)]
enum Param {
    Mat(String, LTy, Domain),
    Scalar(String, Elem, Domain),
    /// A slice of `n` elements to load from.
    Src(String, Elem, usize),
}

/// One generated kernel.
#[derive(Clone, Debug)]
pub struct LKernel {
    /// Its name (`l0000`).
    pub name: String,
    /// The seed its runners draw inputs from.
    pub input_seed: u64,
    params: Vec<Param>,
    /// C helper functions (fill, map, zip) it calls.
    helpers: Vec<String>,
    body: Vec<(String, String)>,
    ret: LTy,
    ret_expr: Ex,
    /// What the kernel exercises (for the manifest).
    pub features: BTreeSet<&'static str>,
    /// The types it names.
    pub types: BTreeSet<LTy>,
}

struct Gen<'r> {
    rng: &'r mut SplitMix64,
    name: String,
    params: Vec<Param>,
    helpers: Vec<String>,
    locals: Vec<(String, LTy)>,
    types: BTreeSet<LTy>,
    feats: BTreeSet<&'static str>,
}

const SMALL_FLOATS: Domain = Domain::Dyadic(-32, 32, 2);

impl Gen<'_> {
    fn note(&mut self, f: &'static str) {
        self.feats.insert(f);
    }

    fn dim(&mut self) -> u32 {
        self.rng.range(1, 6) as u32
    }

    fn layout_of(&mut self, m: MatTy) -> LTy {
        LTy {
            m,
            row_major: self.rng.chance(1, 2),
        }
    }

    /// A new matrix parameter of type `t`.
    fn param(&mut self, t: LTy) -> Ex {
        self.types.insert(t);
        let name = format!("a{}", self.params.len());
        let dom = if t.m.elem.is_float() {
            SMALL_FLOATS
        } else if self.rng.chance(1, 3) {
            Domain::Int(-8, 8)
        } else {
            Domain::Full
        };
        self.params.push(Param::Mat(name.clone(), t, dom));
        Ex::atom(name)
    }

    /// A new scalar parameter of type `e`.
    fn scalar_param(&mut self, e: Elem) -> Ex {
        let name = format!("s{}", self.params.len());
        let dom = if e.is_float() {
            SMALL_FLOATS
        } else {
            Domain::Full
        };
        self.params.push(Param::Scalar(name.clone(), e, dom));
        Ex::atom(name)
    }

    /// A scalar of type `e`: a parameter, a literal, or an element.
    fn scalar(&mut self, e: Elem, depth: u32) -> Ex {
        match self.rng.weighted(&[3, 2, if depth > 0 { 2 } else { 0 }]) {
            0 => self.scalar_param(e),
            1 => {
                let rs = literal(self.rng, e);
                Ex {
                    c: literal_c(&rs, e),
                    atom: !rs.starts_with('-'),
                    rs,
                }
            }
            _ => {
                self.note("element-read");
                let t = MatTy::new(e, self.dim(), self.dim());
                let lt = self.layout_of(t);
                let m = self.matrix(lt, depth - 1).paren();
                let (r, c) = (
                    self.rng.below(u64::from(t.rows)),
                    self.rng.below(u64::from(t.cols)),
                );
                Ex {
                    c: format!("{}[{r}][{c}]", m.c),
                    rs: format!("{}[{r}][{c}]", m.rs),
                    atom: true,
                }
            }
        }
    }

    /// A matrix of type `t`.
    fn matrix(&mut self, t: LTy, depth: u32) -> Ex {
        self.types.insert(t);
        if depth == 0 {
            return self.leaf(t);
        }
        let float = t.m.elem.is_float();
        let int8_acc = t.m.elem == Elem::I32;
        let w = [
            3, // leaf
            4, // layout cast
            3, // + -
            3, // scalar op
            4, // product
            3, // mad
            if int8_acc { 2 } else { 0 },
            2, // transpose
            2, // fill
            2, // map
            2, // zip
            2, // load
        ];
        match self.rng.weighted(&w) {
            0 => self.leaf(t),
            1 => {
                self.note("layout-cast");
                let from = LTy {
                    row_major: !t.row_major,
                    ..t
                };
                let e = self.matrix(from, depth - 1).paren();
                let name = t.name();
                Ex {
                    c: format!("({name}) {}", e.c),
                    rs: format!("({name}) {}", e.rs),
                    atom: false,
                }
            }
            2 => {
                let op = *self.rng.pick(&["+", "-"]);
                let a = self.matrix(t, depth - 1);
                let b = self.matrix(t, depth - 1);
                a.bin(op, b)
            }
            3 => {
                self.note("scalar-op");
                let ops: &[&str] = if float {
                    &["+", "-", "*", "/"]
                } else {
                    &["+", "-", "*"]
                };
                let op = *self.rng.pick(ops);
                let a = self.matrix(t, depth - 1);
                let s = self.scalar(t.m.elem, depth - 1);
                if op != "/" && self.rng.chance(1, 2) {
                    s.bin(op, a)
                } else {
                    a.bin(op, s)
                }
            }
            4 => {
                // Both operands in the result's layout (a product does not
                // mix layouts); a layout cast under an operand is folded.
                self.note("product");
                let k = self.dim();
                let a = self.matrix(t.with(MatTy::new(t.m.elem, t.m.rows, k)), depth - 1);
                let tb = t.with(MatTy::new(t.m.elem, k, t.m.cols));
                let mut b = self.matrix(tb, depth - 1);
                if clang_crashes_on_product(t.m, &b) {
                    b = self.leaf(tb);
                }
                a.bin("*", b)
            }
            5 => {
                self.note("mad");
                let k = self.dim();
                let la = self.layout_of(MatTy::new(t.m.elem, t.m.rows, k));
                let lb = self.layout_of(MatTy::new(t.m.elem, k, t.m.cols));
                self.note(mad_layouts(la, lb, t));
                let a = self.matrix(la, depth - 1);
                let mut b = self.matrix(lb, depth - 1);
                if clang_crashes_on_product(t.m, &b) {
                    b = self.leaf(lb);
                }
                let c = self.matrix(t, depth - 1);
                Ex {
                    c: format!(
                        "{} * {} + {}",
                        a.clone().paren().c,
                        b.clone().paren().c,
                        c.clone().paren().c
                    ),
                    rs: format!("__builtin_matrix_mad({}, {}, {})", a.rs, b.rs, c.rs),
                    atom: false,
                }
            }
            6 => self.int8_mad(t, depth),
            7 => {
                self.note("transpose");
                let from = t.with(MatTy::new(t.m.elem, t.m.cols, t.m.rows));
                let e = self.matrix(from, depth - 1);
                Ex::call("__builtin_matrix_transpose", &[&e])
            }
            8 => self.fill(t, depth),
            9 => self.map(t, depth),
            10 => self.zip(t, depth),
            _ => self.load(t),
        }
    }

    /// A parameter or local of type `t`.
    fn leaf(&mut self, t: LTy) -> Ex {
        let have: Vec<String> = self
            .locals
            .iter()
            .filter(|l| l.1 == t)
            .map(|l| l.0.clone())
            .collect();
        if !have.is_empty() && self.rng.chance(2, 3) {
            return Ex::atom(self.rng.pick(&have).clone());
        }
        self.param(t)
    }

    /// `__builtin_matrix_mad` of two 8-bit matrices into `int` (`t`).
    fn int8_mad(&mut self, t: LTy, depth: u32) -> Ex {
        self.note("int8-mad");
        let k = *self.rng.pick(&[1, 3, 4, 8, 16, 32, 64]);
        let (ea, eb) = (
            *self.rng.pick(&[Elem::I8, Elem::U8]),
            *self.rng.pick(&[Elem::I8, Elem::U8]),
        );
        let la = self.layout_of(MatTy::new(ea, t.m.rows, k));
        let lb = self.layout_of(MatTy::new(eb, k, t.m.cols));
        // An operand is a parameter, a local, or a load (the int8 layer's
        // weights come from memory, often `packed_b`).
        let operand = |g: &mut Self, lt: LTy| {
            if g.rng.chance(1, 3) {
                g.load(lt)
            } else {
                g.leaf(lt)
            }
        };
        let a = operand(self, la);
        let b = operand(self, lb);
        let c = self.matrix(t, depth - 1);
        let (ia, ib) = (
            MatTy::new(Elem::I32, t.m.rows, k),
            MatTy::new(Elem::I32, k, t.m.cols),
        );
        self.types.insert(LTy {
            m: ia,
            row_major: false,
        });
        self.types.insert(LTy {
            m: ib,
            row_major: false,
        });
        Ex {
            c: format!(
                "({}) {} * ({}) {} + {}",
                ia.name(),
                a.c,
                ib.name(),
                b.c,
                c.clone().paren().c
            ),
            rs: format!("__builtin_matrix_mad({}, {}, {})", a.rs, b.rs, c.rs),
            atom: false,
        }
    }

    /// `__builtin_matrix_fill(m, v)`.
    fn fill(&mut self, t: LTy, depth: u32) -> Ex {
        self.note("fill");
        let m = self.matrix(t, depth - 1);
        let v = self.scalar(t.m.elem, 0);
        let helper = format!("{}_fill{}", self.name, self.helpers.len());
        let e = t.m.elem.c();
        self.helpers.push(format!(
            "static {ty} {helper}({ty} m, {e} v) {{\n    (void)m;\n    {ty} r;\n{loops}        r[i][j] = v;\n    return r;\n}}",
            ty = t.m.name(),
            loops = loops(t.m),
        ));
        Ex {
            c: format!("{helper}({}, {})", m.c, v.c),
            rs: format!("__builtin_matrix_fill({}, {})", m.rs, v.rs),
            atom: true,
        }
    }

    /// `__builtin_matrix_map(m, |x| body)`.
    fn map(&mut self, t: LTy, depth: u32) -> Ex {
        self.note("map");
        let m = self.matrix(t, depth - 1);
        let (c_body, rs_body) = closure_body(self.rng, t.m.elem, false);
        let helper = format!("{}_map{}", self.name, self.helpers.len());
        let e = t.m.elem.c();
        self.helpers.push(format!(
            "static {ty} {helper}({ty} m) {{\n    {ty} r;\n{loops}        {{ {e} x = m[i][j]; r[i][j] = {c_body}; }}\n    return r;\n}}",
            ty = t.m.name(),
            loops = loops(t.m),
        ));
        Ex {
            c: format!("{helper}({})", m.c),
            rs: format!("__builtin_matrix_map({}, |x| {rs_body})", m.rs),
            atom: true,
        }
    }

    /// `__builtin_matrix_zip(a, b, |x, y| body)`: both in `t`'s layout.
    fn zip(&mut self, t: LTy, depth: u32) -> Ex {
        self.note("zip");
        let a = self.matrix(t, depth - 1);
        let b = self.matrix(t, depth - 1);
        let (c_body, rs_body) = closure_body(self.rng, t.m.elem, true);
        let helper = format!("{}_zip{}", self.name, self.helpers.len());
        let e = t.m.elem.c();
        self.helpers.push(format!(
            "static {ty} {helper}({ty} a, {ty} b) {{\n    {ty} r;\n{loops}        {{ {e} x = a[i][j], y = b[i][j]; r[i][j] = {c_body}; }}\n    return r;\n}}",
            ty = t.m.name(),
            loops = loops(t.m),
        ));
        Ex {
            c: format!("{helper}({}, {})", a.c, b.c),
            rs: format!("__builtin_matrix_zip({}, {}, |x, y| {rs_body})", a.rs, b.rs),
            atom: true,
        }
    }

    /// A load of `t` from a slice: in its layout's memory order, or in the
    /// packed layout whose lines are its lines (`packed_a` for column-major,
    /// `packed_b` for row-major), sometimes with a stride longer than a
    /// line. The C twin reads dense memory with the column-major load (a
    /// row-major one transposed) and packed memory with a helper loop that
    /// computes each element's offset as the layout's table states it.
    fn load(&mut self, t: LTy) -> Ex {
        self.types.insert(t);
        let m = t.m;
        let (r, c) = (m.rows as usize, m.cols as usize);
        let packed = self.rng.chance(1, 3);
        let g = if packed { group(m.elem) } else { 1 };
        // Lines of memory and their length: `t`'s lines, `g` to a word.
        let (lines, line) = if t.row_major {
            (r.div_ceil(g), c * g)
        } else {
            (c.div_ceil(g), r * g)
        };
        let stride = self
            .rng
            .chance(1, 3)
            .then(|| line + self.rng.range(1, 4) as usize);
        let s = stride.unwrap_or(line);
        let name = format!("src{}", self.params.len());
        self.params
            .push(Param::Src(name.clone(), m.elem, lines * s));
        if stride.is_some() {
            self.note("strided-load");
        }
        let stride_arg = stride.map(|s| format!(", {s}")).unwrap_or_default();
        // The DSL's spelling of the memory layout, the manifest's name for
        // the load, and the C twin.
        let (layout, feature, c_text) = match (packed, t.row_major) {
            (false, false) => (
                "column_major",
                "column-major-load",
                format!("__builtin_matrix_column_major_load({name}, {r}, {c}, {s})"),
            ),
            (false, true) => (
                "row_major",
                "row-major-load",
                format!(
                    "__builtin_matrix_transpose(__builtin_matrix_column_major_load({name}, {c}, {r}, {s}))"
                ),
            ),
            (true, row_major) => {
                let helper = format!("{}_unpack{}", self.name, self.helpers.len());
                let offset = if row_major {
                    format!("(i / {g}) * {s} + j * {g} + i % {g}")
                } else {
                    format!("(j / {g}) * {s} + i * {g} + j % {g}")
                };
                self.helpers.push(format!(
                    "static {ty} {helper}(const {e} *src) {{\n    {ty} r;\n{loops}        r[i][j] = src[{offset}];\n    return r;\n}}",
                    ty = m.name(),
                    e = m.elem.c(),
                    loops = loops(m),
                ));
                let call = format!("{helper}({name})");
                if row_major {
                    ("packed_b", "packed-b-load", call)
                } else {
                    ("packed_a", "packed-a-load", call)
                }
            }
        };
        self.note(feature);
        let rs = if layout == "row_major" && self.rng.chance(1, 2) {
            format!("__builtin_matrix_row_major_load({name}, {r}, {c}{stride_arg})")
        } else {
            format!("__builtin_matrix_load({name}, {r}, {c}, {layout}{stride_arg})")
        };
        Ex {
            c: c_text,
            rs,
            atom: true,
        }
    }
}

/// Whether clang-19 crashes on the product `_ * rhs` of type `result`
/// ([`MatTy::clang_crashes_with_a_transposed_rhs`]). The C text decides:
/// the C twin of a row-major load transposes a column-major one, a
/// transpose in C alone (G2).
fn clang_crashes_on_product(result: MatTy, rhs: &Ex) -> bool {
    result.clang_crashes_with_a_transposed_rhs()
        && rhs.atom
        && rhs.c.starts_with("__builtin_matrix_transpose(")
}

/// The packing group of a packed layout: the elements of `e` that share a
/// 32-bit word (`MemoryLayout`'s `G`).
fn group(e: Elem) -> usize {
    if e.bits() <= 16 {
        32 / e.bits() as usize
    } else {
        1
    }
}

/// Which layouts a mad mixes, for the manifest.
fn mad_layouts(a: LTy, b: LTy, c: LTy) -> &'static str {
    const NAMES: [&str; 8] = [
        "mad-ccc", "mad-ccr", "mad-crc", "mad-crr", "mad-rcc", "mad-rcr", "mad-rrc", "mad-rrr",
    ];
    NAMES[usize::from(a.row_major) * 4 + usize::from(b.row_major) * 2 + usize::from(c.row_major)]
}

/// The C loops over a matrix's elements (`i` the row, `j` the column).
fn loops(m: MatTy) -> String {
    format!(
        "    for (int i = 0; i < {}; i++)\n      for (int j = 0; j < {}; j++)\n",
        m.rows, m.cols
    )
}

/// A literal of type `e` in Rust's spelling.
fn literal(rng: &mut SplitMix64, e: Elem) -> String {
    if e.is_float() {
        emit::float_text(rng.range(-16, 16) as f64 / 4.0)
    } else if e.is_unsigned() {
        rng.range(0, 9).to_string()
    } else {
        rng.range(-8, 8).to_string()
    }
}

/// The C spelling of a Rust literal of type `e` (`f` after a `float`'s).
fn literal_c(rs: &str, e: Elem) -> String {
    if e == Elem::F32 {
        format!("{rs}f")
    } else {
        rs.to_string()
    }
}

/// A closure body over `x` (and `y`), (C, Rust): float arithmetic, or
/// integer bit operations (C's promotions give the same bits back).
fn closure_body(rng: &mut SplitMix64, e: Elem, two: bool) -> (String, String) {
    // A map's second operand is a literal: (C, Rust).
    let (other_c, other) = match (two, e.is_float()) {
        (true, _) => ("y".to_string(), "y".to_string()),
        (false, true) => {
            let l = emit::float_text(rng.range(1, 16) as f64 / 4.0);
            (literal_c(&l, e), l)
        }
        (false, false) => {
            let k = rng.range(1, 15).to_string();
            (k.clone(), k)
        }
    };
    if e.is_float() {
        let l = literal(rng, e);
        let lc = literal_c(&l, e);
        let l = if l.starts_with('-') {
            format!("({l})")
        } else {
            l
        };
        let lc = if lc.starts_with('-') {
            format!("({lc})")
        } else {
            lc
        };
        match rng.below(5) {
            0 => (
                format!("x * {lc} + {other_c}"),
                format!("x * {l} + {other}"),
            ),
            1 => (
                format!("x - {other_c} * {lc}"),
                format!("x - {other} * {l}"),
            ),
            2 => (format!("x * {other_c}"), format!("x * {other}")),
            3 => (format!("-x + {lc}"), format!("-x + {l}")),
            _ => (
                format!("({other_c} + {lc}) * x"),
                format!("({other} + {l}) * x"),
            ),
        }
    } else {
        let k = rng.range(0, 15);
        let s = rng.below(u64::from(e.bits()).min(7));
        match rng.below(5) {
            0 => (format!("x ^ {other_c}"), format!("x ^ {other}")),
            1 => (
                format!("(x & {k}) | {other_c}"),
                format!("(x & {k}) | {other}"),
            ),
            2 => (format!("~x & {other_c}"), format!("!x & {other}")),
            3 => (format!("(x >> {s}) ^ {k}"), format!("(x >> {s}) ^ {k}")),
            _ => (
                format!("x | ({other_c} & {k})"),
                format!("x | ({other} & {k})"),
            ),
        }
    }
}

/// Generates one kernel named `name` from `rng`.
pub fn kernel(rng: &mut SplitMix64, name: &str) -> LKernel {
    let input_seed = rng.next_u64();
    let mut g = Gen {
        rng,
        name: name.to_string(),
        params: Vec::new(),
        helpers: Vec::new(),
        locals: Vec::new(),
        types: BTreeSet::new(),
        feats: BTreeSet::new(),
    };
    let elems = [
        Elem::F32,
        Elem::F64,
        Elem::I32,
        Elem::I32,
        Elem::I16,
        Elem::U8,
        Elem::I64,
        Elem::U32,
    ];
    let elem = *g.rng.pick(&elems);
    let mut body = Vec::new();
    for i in 0..g.rng.range(0, 2) {
        let t = MatTy::new(elem, g.dim(), g.dim());
        let lt = g.layout_of(t);
        let depth = g.rng.range(1, 3) as u32;
        let init = g.matrix(lt, depth);
        let name = format!("t{i}");
        body.push((
            format!("{} {name} = {};", lt.name(), init.c),
            format!("let mut {name}: {} = {};", lt.name(), init.rs),
        ));
        g.locals.push((name.clone(), lt));
        if g.rng.chance(1, 2) {
            g.note("element-write");
            let (r, c) = (
                g.rng.below(u64::from(t.rows)),
                g.rng.below(u64::from(t.cols)),
            );
            let v = g.scalar(elem, 1);
            body.push((
                format!("{name}[{r}][{c}] = {};", v.c),
                format!("{name}[{r}][{c}] = {};", v.rs),
            ));
        }
        if g.rng.chance(1, 3) {
            g.note("compound-assign");
            let op = *g.rng.pick(&["+=", "-="]);
            let e = g.matrix(lt, 1);
            body.push((
                format!("{name} {op} {};", e.c),
                format!("{name} {op} {};", e.rs),
            ));
        }
    }
    let ret = {
        let t = MatTy::new(elem, g.dim(), g.dim());
        g.layout_of(t)
    };
    let depth = g.rng.range(2, 4) as u32;
    let ret_expr = g.matrix(ret, depth);
    LKernel {
        name: name.to_string(),
        input_seed,
        params: g.params,
        helpers: g.helpers,
        body,
        ret,
        ret_expr,
        features: g.feats,
        types: g.types,
    }
}

impl LKernel {
    /// The kernel's lines in `lang` (in C, its helpers first).
    pub fn lines(&self, lang: Lang, rng: &mut SplitMix64) -> Vec<String> {
        let mut out = Vec::new();
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| match (lang, p) {
                (Lang::C, Param::Mat(n, t, _)) => format!("{} {n}", t.m.name()),
                (Lang::C, Param::Scalar(n, e, _)) => format!("{} {n}", e.c()),
                (Lang::C, Param::Src(n, e, _)) => format!("const {} *{n}", e.c()),
                (Lang::Rust, Param::Mat(n, t, _)) if rng.chance(1, 5) => format!(
                    "{n}: Matrix<{}, {}, {}{}>",
                    t.m.elem.rust(),
                    t.m.rows,
                    t.m.cols,
                    t.layout().generic_suffix()
                ),
                (Lang::Rust, Param::Mat(n, t, _)) => format!("{n}: {}", t.name()),
                (Lang::Rust, Param::Scalar(n, e, _)) => format!("{n}: {}", e.rust()),
                (Lang::Rust, Param::Src(n, e, _)) => format!("{n}: &[{}]", e.rust()),
            })
            .collect();
        match lang {
            Lang::C => {
                for h in &self.helpers {
                    out.extend(h.lines().map(str::to_string));
                    out.push(String::new());
                }
                out.push(format!(
                    "{} {}({}) {{",
                    self.ret.m.name(),
                    self.name,
                    params.join(", ")
                ));
            }
            Lang::Rust => out.push(format!(
                "pub fn {}({}) -> {} {{",
                self.name,
                params.join(", "),
                self.ret.name()
            )),
        }
        for (c, rs) in &self.body {
            out.push(format!(
                "    {}",
                match lang {
                    Lang::C => c,
                    Lang::Rust => rs,
                }
            ));
        }
        out.push(match lang {
            Lang::C => format!("    return {};", self.ret_expr.c),
            Lang::Rust => format!("    {}", self.ret_expr.rs),
        });
        out.push("}".into());
        out
    }

    /// The C runner: draws the inputs column-major, calls the kernel,
    /// prints its result column-major.
    pub fn c_runner(&self) -> Vec<String> {
        let mut arrays = Vec::new();
        let mut body = Vec::new();
        for p in &self.params {
            match p {
                Param::Mat(n, t, d) => {
                    let dom = emit::c_dom(d, &mut arrays, &format!("{n}_dom"));
                    body.push(format!(
                        "    {e} {n}_b[{len}]; rt_fill_{f}(&rng, {n}_b, {len}, {dom}); {ty} {n} = __builtin_matrix_column_major_load({n}_b, {r}, {c}, {r});",
                        e = t.m.elem.c(),
                        len = t.m.len(),
                        f = emit::c_fill(t.m.elem),
                        ty = t.m.name(),
                        r = t.m.rows,
                        c = t.m.cols,
                    ));
                }
                Param::Scalar(n, e, d) => {
                    let dom = emit::c_dom(d, &mut arrays, &format!("{n}_dom"));
                    body.push(format!(
                        "    {} {n}; rt_fill_{}(&rng, &{n}, 1, {dom});",
                        e.c(),
                        emit::c_fill(*e)
                    ));
                }
                Param::Src(n, e, len) => {
                    let dom = if e.is_float() {
                        "RT_DOM_DYADIC(-32LL, 32LL, 2)"
                    } else {
                        "RT_DOM_FULL"
                    };
                    body.push(format!(
                        "    {} {n}[{len}]; rt_fill_{}(&rng, {n}, {len}, {dom});",
                        e.c(),
                        emit::c_fill(*e)
                    ));
                }
            }
        }
        let args: Vec<&str> = self.params.iter().map(param_name).collect();
        let m = self.ret.m;
        let mut out = vec![format!("static void run_{}(void) {{", self.name)];
        out.extend(arrays);
        out.push(format!(
            "    rt_rng rng = {{0x{:016x}ULL}};",
            self.input_seed
        ));
        out.extend(body);
        out.push(format!(
            "    {} r = {}({});",
            m.name(),
            self.name,
            args.join(", ")
        ));
        out.push(format!(
            "    {} r_b[{len}]; __builtin_matrix_column_major_store(r, r_b, {}); rt_out_{}(\"{}\", \"ret\", r_b, {len});",
            m.elem.c(),
            m.rows,
            emit::c_fill(m.elem),
            self.name,
            len = m.len()
        ));
        out.push("}".into());
        out
    }

    /// The Rust twin of [`LKernel::c_runner`].
    pub fn rs_runner(&self) -> Vec<String> {
        let mut out = vec![
            format!("fn run_{}() -> Vec<rt::Output> {{", self.name),
            format!(
                "    let mut rng = rt::Rng::new(0x{:016x});",
                self.input_seed
            ),
        ];
        for p in &self.params {
            out.push(match p {
                Param::Mat(n, t, d) => format!(
                    "    let {n}: {} = Matrix::<{e}, {r}, {c}>::from_column_major(&rt::vec::<{e}>(&mut rng, {len}, {dom})).to_layout();",
                    t.name(),
                    e = t.m.elem.rust(),
                    r = t.m.rows,
                    c = t.m.cols,
                    len = t.m.len(),
                    dom = emit::rs_dom(d),
                ),
                Param::Scalar(n, e, d) => format!(
                    "    let {n}: {} = rt::draw(&mut rng, {});",
                    e.rust(),
                    emit::rs_dom(d)
                ),
                Param::Src(n, e, len) => {
                    let dom = if e.is_float() { "rt::Dom::Dyadic(-32, 32, 2)" } else { "rt::Dom::Full" };
                    format!("    let {n} = rt::vec::<{}>(&mut rng, {len}, {dom});", e.rust())
                }
            });
        }
        let args: Vec<String> = self
            .params
            .iter()
            .map(|p| match p {
                Param::Src(n, ..) => format!("&{n}"),
                p => param_name(p).to_string(),
            })
            .collect();
        out.push(format!("    let r = {}({});", self.name, args.join(", ")));
        out.push(
            "    vec![rt::Output::new(\"ret\", r.to_layout::<matrix_core::ColumnMajor>().as_slice())]"
                .into(),
        );
        out.push("}".into());
        out
    }
}

fn param_name(p: &Param) -> &str {
    match p {
        Param::Mat(n, ..) | Param::Scalar(n, ..) | Param::Src(n, ..) => n,
    }
}

/// The typedef lines of a chunk in `lang`: in Rust each type in its
/// layout (column-major sometimes spelled out); in C both names of a shape
/// name the one column-major type.
pub fn chunk_typedefs(ks: &[LKernel], lang: Lang, rng: &mut SplitMix64) -> Vec<String> {
    let mut types: BTreeSet<LTy> = ks.iter().flat_map(|k| k.types.iter().copied()).collect();
    if lang == Lang::C {
        // C code names a shape's column-major type (signatures, helpers)
        // and its row-major name (casts): both, for every shape.
        let shapes: Vec<MatTy> = types.iter().map(|t| t.m).collect();
        for m in shapes {
            for row_major in [false, true] {
                types.insert(LTy { m, row_major });
            }
        }
    }
    types
        .iter()
        .map(|t| {
            let dims = (t.m.rows.to_string(), t.m.cols.to_string());
            match lang {
                Lang::C => emit::c_typedef(&t.m, &t.name(), &dims),
                Lang::Rust => {
                    let sp = *rng.pick(t.m.elem.typedef_spellings());
                    let explicit = !t.row_major && rng.chance(1, 4);
                    let line = emit::rs_typedef("", sp, &t.name(), &dims, t.layout());
                    if explicit {
                        line.replace(")));", ", column_major)));")
                    } else {
                        line
                    }
                }
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// G2: the C twin of a row-major load is a transpose, which C1 crashes
    /// on as the right operand of a 1x1 integer product.
    #[test]
    fn a_transpose_in_c_alone_is_avoided_as_c1() {
        let load = Ex::atom2(
            "__builtin_matrix_transpose(__builtin_matrix_column_major_load(src1, 4, 1, 4))".into(),
            "__builtin_matrix_row_major_load(src1, 1, 4)".into(),
        );
        assert!(clang_crashes_on_product(MatTy::new(Elem::U8, 1, 1), &load));
        assert!(clang_crashes_on_product(MatTy::new(Elem::I32, 1, 1), &load));
        assert!(!clang_crashes_on_product(
            MatTy::new(Elem::F32, 1, 1),
            &load
        ));
        assert!(!clang_crashes_on_product(MatTy::new(Elem::U8, 1, 2), &load));
        // A sum that starts with a transpose is no transpose.
        let sum = load.bin("+", Ex::atom("b".into()));
        assert!(!clang_crashes_on_product(MatTy::new(Elem::U8, 1, 1), &sum));
    }
}
