//! Printing the AST as C and as a `matrix!` kernel.
//!
//! One printer serves both languages: they agree on the precedence of
//! everything the corpus uses, and differ only in casts, literals,
//! declarations and `for` loops. Parentheses are printed only where the
//! precedence needs them, so the macro's parser is exercised too.

use crate::ast::*;
use crate::ty::{Elem, Layout, MatTy};

/// The target language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// C with Clang's matrix extension.
    C,
    /// Rust inside `matrix!`.
    Rust,
}

fn wrap(s: (String, Prec), min: Prec) -> String {
    if s.1 < min { format!("({})", s.0) } else { s.0 }
}

fn stride(s: &Stride) -> String {
    match s {
        Stride::Const(n) => n.to_string(),
        Stride::Param(p) => p.clone(),
        Stride::Expr(t, _) => t.clone(),
    }
}

fn idx(i: &Idx) -> String {
    match i {
        Idx::Const(n) => n.to_string(),
        Idx::Var(v) => v.clone(),
        Idx::Expr(t, _) => t.clone(),
    }
}

/// The block's `const` items (Rust) / enumerators (C) that constant
/// expressions may name.
pub const CONSTS: &[(&str, u32)] = &[("K2", 2), ("K3", 3), ("K4", 4), ("K5", 5), ("K8", 8)];

/// The `const` items inside a `matrix!` block.
pub fn rs_consts() -> Vec<String> {
    CONSTS
        .iter()
        .map(|(n, v)| format!("const {n}: usize = {v};"))
        .collect()
}

/// The same constants in C.
pub fn c_consts() -> String {
    let items: Vec<String> = CONSTS.iter().map(|(n, v)| format!("{n} = {v}")).collect();
    format!("enum {{ {} }};", items.join(", "))
}

/// Prints a float so that C's and Rust's readers return the same double.
pub fn float_text(v: f64) -> String {
    let s = format!("{v:?}");
    assert!(
        s.contains('.') || s.contains('e'),
        "float literal without a point: {s}"
    );
    s
}

/// Prints a literal; negative literals are unary minus expressions.
pub fn lit(l: &Lit, lang: Lang) -> (String, Prec) {
    let (text, neg) = match *l {
        Lit::Int(v, suf, form) => {
            let s = match (lang, suf) {
                (_, IntSuffix::None) => "",
                (Lang::Rust, IntSuffix::U32) => "u32",
                (Lang::Rust, IntSuffix::I64) => "i64",
                (Lang::Rust, IntSuffix::U64) => "u64",
                (Lang::C, IntSuffix::U32) => "u",
                (Lang::C, IntSuffix::I64) => "L",
                (Lang::C, IntSuffix::U64) => "UL",
            };
            let mag = v.unsigned_abs();
            let digits = match (form, lang) {
                (IntForm::Hex, _) => format!("0x{mag:x}"),
                (IntForm::Underscore, Lang::Rust) => {
                    let d = mag.to_string();
                    format!("{}_{}", &d[..1], &d[1..])
                }
                _ => mag.to_string(),
            };
            let sign = if v < 0 { "-" } else { "" };
            (format!("{sign}{digits}{s}"), v < 0)
        }
        Lit::Float(v, suf, form) => {
            let s = match (lang, suf) {
                (_, FloatSuffix::None) => "",
                (Lang::Rust, FloatSuffix::F32) => "f32",
                (Lang::C, FloatSuffix::F32) => "f",
            };
            let t = match form {
                FloatForm::Plain => float_text(v),
                FloatForm::Exp => format!("{v:e}"),
            };
            (format!("{t}{s}"), v.is_sign_negative())
        }
    };
    (text, if neg { Prec::Unary } else { Prec::Primary })
}

/// Prints a matrix expression.
pub fn mexpr(e: &MExpr, lang: Lang) -> (String, Prec) {
    match e {
        MExpr::Var(v) => (v.clone(), Prec::Primary),
        MExpr::Bin(op, a, b) => {
            let p = op.prec();
            let l = wrap(mexpr(a, lang), p);
            let r = wrap(mexpr(b, lang), next(p));
            (format!("{l} {} {r}", op.sym()), p)
        }
        MExpr::Scalar {
            op,
            m,
            s,
            scalar_left,
        } => {
            let p = op.prec();
            let (l, r) = if *scalar_left {
                (wrap(sexpr(s, lang), p), wrap(mexpr(m, lang), next(p)))
            } else {
                (wrap(mexpr(m, lang), p), wrap(sexpr(s, lang), next(p)))
            };
            (format!("{l} {} {r}", op.sym()), p)
        }
        MExpr::Transpose(m) => (
            format!("__builtin_matrix_transpose({})", mexpr(m, lang).0),
            Prec::Postfix,
        ),
        MExpr::Cast { to, style, e } => match (lang, style) {
            (Lang::Rust, CastStyle::As) => (
                format!("{} as {}", wrap(mexpr(e, lang), Prec::As), to.name()),
                Prec::As,
            ),
            _ => (
                format!("({}) {}", to.name(), wrap(mexpr(e, lang), Prec::Unary)),
                Prec::Unary,
            ),
        },
        MExpr::Load {
            src,
            rows,
            cols,
            stride: st,
            rfc,
        } => {
            let name = if *rfc && lang == Lang::Rust {
                "__builtin_matrix_column_load"
            } else {
                "__builtin_matrix_column_major_load"
            };
            (
                format!(
                    "{name}({src}, {}, {}, {})",
                    rows.show(),
                    cols.show(),
                    stride(st)
                ),
                Prec::Postfix,
            )
        }
        MExpr::Rfc(op, a, b) => match lang {
            Lang::Rust => (
                format!(
                    "{}({}, {})",
                    op.builtin(),
                    mexpr(a, lang).0,
                    mexpr(b, lang).0
                ),
                Prec::Postfix,
            ),
            Lang::C => mexpr(&MExpr::Bin(op.op(), a.clone(), b.clone()), lang),
        },
        MExpr::RfcScale(m, sc) => match lang {
            Lang::Rust => (
                format!(
                    "__builtin_matrix_scalar_multiply({}, {})",
                    mexpr(m, lang).0,
                    sexpr(sc, lang).0
                ),
                Prec::Postfix,
            ),
            Lang::C => mexpr(
                &MExpr::Scalar {
                    op: BinOp::Mul,
                    m: m.clone(),
                    s: sc.clone(),
                    scalar_left: false,
                },
                lang,
            ),
        },
        MExpr::Insert { id, m, r, c, x } => match lang {
            Lang::Rust => (
                format!(
                    "__builtin_matrix_insert({}, {}, {}, {})",
                    mexpr(m, lang).0,
                    idx(r),
                    idx(c),
                    sexpr(x, lang).0
                ),
                Prec::Postfix,
            ),
            Lang::C => (
                format!(
                    "({{ __auto_type ins{id} = {}; ins{id}[{}][{}] = {}; ins{id}; }})",
                    mexpr(m, lang).0,
                    idx(r),
                    idx(c),
                    sexpr(x, lang).0
                ),
                Prec::Primary,
            ),
        },
        MExpr::Call { kernel, args } => (format!("{kernel}({})", args.join(", ")), Prec::Postfix),
        // The second operand may be a conditional itself: both languages
        // group them from the right.
        MExpr::Cond { c, a, b } => (
            format!(
                "{} ? {} : {}",
                wrap(sexpr(c, lang), Prec::Add),
                mexpr(a, lang).0,
                mexpr(b, lang).0
            ),
            Prec::Cond,
        ),
    }
}

fn next(p: Prec) -> Prec {
    match p {
        Prec::Cond => Prec::Add,
        Prec::Add => Prec::Mul,
        Prec::Mul => Prec::As,
        Prec::As => Prec::Unary,
        Prec::Unary => Prec::Postfix,
        Prec::Postfix | Prec::Primary => Prec::Primary,
    }
}

/// Prints a scalar expression.
pub fn sexpr(s: &SExpr, lang: Lang) -> (String, Prec) {
    match s {
        SExpr::Param(p) => (p.clone(), Prec::Primary),
        SExpr::Lit(l) => lit(l, lang),
        SExpr::Elem { m, r, c, rfc } if *rfc && lang == Lang::Rust => (
            format!(
                "__builtin_matrix_extract({}, {}, {})",
                mexpr(m, lang).0,
                idx(r),
                idx(c)
            ),
            Prec::Postfix,
        ),
        SExpr::Elem { m, r, c, .. } => (
            format!(
                "{}[{}][{}]",
                wrap(mexpr(m, lang), Prec::Postfix),
                idx(r),
                idx(c)
            ),
            Prec::Postfix,
        ),
        SExpr::Bin(op, a, b) => {
            let p = op.prec();
            let l = wrap(sexpr(a, lang), p);
            let r = wrap(sexpr(b, lang), next(p));
            (format!("{l} {} {r}", op.sym()), p)
        }
        SExpr::Cast(t, e) => match lang {
            Lang::Rust => (
                format!("{} as {}", wrap(sexpr(e, lang), Prec::As), t.rust()),
                Prec::As,
            ),
            Lang::C => (
                format!("({}){}", t.c(), wrap(sexpr(e, lang), Prec::Unary)),
                Prec::Unary,
            ),
        },
    }
}

fn op_assign(op: Option<BinOp>) -> String {
    match op {
        None => "=".into(),
        Some(o) => format!("{}=", o.sym()),
    }
}

/// Prints one statement on one line (without indentation).
pub fn stmt(s: &Stmt, k: &Kernel, lang: Lang) -> String {
    match s {
        Stmt::Let {
            name,
            ty,
            annot,
            init,
        } => {
            let e = mexpr(init, lang).0;
            match lang {
                // An unannotated `let` takes the initialiser's type, typedef
                // name or none, exactly like C's `__auto_type`.
                Lang::C if *annot == Annot::None => format!("__auto_type {name} = {e};"),
                Lang::C if *annot == Annot::Alias => format!("{} {name} = {e};", ty.alias()),
                Lang::C => format!("{} {name} = {e};", ty.name()),
                Lang::Rust => {
                    let m = if k.mutated.contains(name) { "mut " } else { "" };
                    let a = match annot {
                        Annot::None => String::new(),
                        Annot::Typedef => format!(": {}", ty.name()),
                        Annot::Alias => format!(": {}", ty.alias()),
                        Annot::Generic => format!(": {}", TyName::Generic.rust(ty, k.layout)),
                    };
                    format!("let {m}{name}{a} = {e};")
                }
            }
        }
        Stmt::Assign { name, e } => format!("{name} = {};", mexpr(e, lang).0),
        Stmt::Compound { name, op, rhs } => {
            let r = match rhs {
                Rhs::M(e) => mexpr(e, lang).0,
                Rhs::S(s) => sexpr(s, lang).0,
            };
            format!("{name} {}= {r};", op.sym())
        }
        Stmt::ElemSet { name, r, c, op, v } => format!(
            "{name}[{}][{}] {} {};",
            idx(r),
            idx(c),
            op_assign(*op),
            sexpr(v, lang).0
        ),
        Stmt::For { var, bound, body } => {
            let b = stmt(body, k, lang);
            match lang {
                Lang::C => format!("for (int {var} = 0; {var} < {bound}; {var}++) {{ {b} }}"),
                Lang::Rust => format!("for {var} in 0..{bound} {{ {b} }}"),
            }
        }
        Stmt::Store {
            m,
            dst,
            stride: st,
            rfc,
        } => {
            let name = if *rfc && lang == Lang::Rust {
                "__builtin_matrix_column_store"
            } else {
                "__builtin_matrix_column_major_store"
            };
            format!("{name}({}, {dst}, {});", mexpr(m, lang).0, stride(st))
        }
        Stmt::If { var, bound, body } => {
            let b = stmt(body, k, lang);
            match lang {
                Lang::C => format!("if ({var} < {bound}) {{ {b} }}"),
                Lang::Rust => format!("if {var} < {bound} {{ {b} }}"),
            }
        }
    }
}

/// The parameter list.
pub fn params(k: &Kernel, lang: Lang) -> String {
    let ps: Vec<String> = k
        .params
        .iter()
        .map(|p| {
            let n = &p.name;
            match (&p.kind, lang) {
                (ParamKind::Mat(t, _), Lang::C) => format!("{} {n}", p.tyname.c(t)),
                (ParamKind::Mat(t, _), Lang::Rust) => {
                    format!("{n}: {}", p.tyname.rust(t, k.layout))
                }
                (ParamKind::Scalar(e, _), Lang::C) => format!("{} {n}", e.c()),
                (ParamKind::Scalar(e, _), Lang::Rust) => format!("{n}: {}", e.rust()),
                (ParamKind::Index(t, _), Lang::C) => format!("{} {n}", t.c()),
                (ParamKind::Index(t, _), Lang::Rust) => format!("{n}: {}", t.rust()),
                (ParamKind::Stride(..), Lang::C) => format!("unsigned long {n}"),
                (ParamKind::Stride(..), Lang::Rust) => format!("{n}: usize"),
                (ParamKind::Src(e, ..), Lang::C) => format!("const {} *{n}", e.c()),
                (ParamKind::Src(e, ..), Lang::Rust) => format!("{n}: &[{}]", e.rust()),
                (ParamKind::Dst(e, ..), Lang::C) => format!("{} *{n}", e.c()),
                (ParamKind::Dst(e, ..), Lang::Rust) => format!("{n}: &mut [{}]", e.rust()),
            }
        })
        .collect();
    ps.join(", ")
}

/// The return type (`None` for unit / `void`).
pub fn ret_type(r: &Ret, lang: Lang) -> Option<String> {
    match r {
        Ret::Mat(t, _) => Some(t.name()),
        Ret::Scalar(e, _) => Some(match lang {
            Lang::C => e.c().to_string(),
            Lang::Rust => e.rust().to_string(),
        }),
        Ret::Unit => None,
    }
}

/// The return expression, if any.
pub fn ret_expr(r: &Ret, lang: Lang) -> Option<String> {
    match r {
        Ret::Mat(_, e) => Some(mexpr(e, lang).0),
        Ret::Scalar(_, s) => Some(sexpr(s, lang).0),
        Ret::Unit => None,
    }
}

/// A kernel as lines (no indentation for the signature, four spaces for
/// the body). `extra` lines go just before the return statement; the
/// return type may be overridden (for mutants).
pub fn kernel_lines(
    k: &Kernel,
    lang: Lang,
    extra: &[String],
    ret_override: Option<&str>,
) -> Vec<String> {
    let mut out = Vec::new();
    let ret = ret_override
        .map(str::to_string)
        .or_else(|| ret_type(&k.ret, lang));
    let ps = params(k, lang);
    if lang == Lang::Rust {
        out.extend(k.attrs.iter().cloned());
    }
    out.push(match (lang, ret) {
        (Lang::C, Some(t)) => format!("{t} {}({ps}) {{", k.name),
        (Lang::C, None) => format!("void {}({ps}) {{", k.name),
        (Lang::Rust, Some(t)) => format!("pub fn {}({ps}) -> {t} {{", k.name),
        (Lang::Rust, None) => format!("pub fn {}({ps}) {{", k.name),
    });
    for s in &k.body {
        out.push(format!("    {}", stmt(s, k, lang)));
    }
    for e in extra {
        out.push(format!("    {e}"));
    }
    if let Some(e) = ret_expr(&k.ret, lang) {
        out.push(match lang {
            Lang::C => format!("    return {e};"),
            Lang::Rust if k.explicit_return => format!("    return {e};"),
            Lang::Rust => format!("    {e}"),
        });
    }
    out.push("}".into());
    out
}

/// A C typedef named `name` of type `t`, with the dimensions spelled
/// `dims` (literals or constant expressions).
pub fn c_typedef(t: &MatTy, name: &str, dims: &(String, String)) -> String {
    format!(
        "typedef {} {name} __attribute__((matrix_type({}, {})));",
        t.elem.c(),
        dims.0,
        dims.1
    )
}

/// A `matrix!` typedef with the given visibility prefix, element spelling
/// and layout.
pub fn rs_typedef(
    vis: &str,
    spelling: &str,
    name: &str,
    dims: &(String, String),
    layout: Layout,
) -> String {
    format!(
        "{vis}typedef {spelling} {name} __attribute__((matrix_type({}, {}{})));",
        dims.0,
        dims.1,
        layout.attribute_suffix()
    )
}

pub(crate) fn c_fill(e: Elem) -> &'static str {
    match e {
        Elem::I8 => "i8",
        Elem::I16 => "i16",
        Elem::I32 => "i32",
        Elem::I64 => "i64",
        Elem::U8 => "u8",
        Elem::U16 => "u16",
        Elem::U32 => "u32",
        Elem::U64 => "u64",
        Elem::F32 => "f32",
        Elem::F64 => "f64",
    }
}

pub(crate) fn idx_fill(t: crate::ty::IdxTy) -> &'static str {
    use crate::ty::IdxTy;
    match t {
        IdxTy::U8 => "u8",
        IdxTy::U16 => "u16",
        IdxTy::U32 => "u32",
        IdxTy::I32 => "i32",
        IdxTy::I64 => "i64",
        IdxTy::Usize => "u64",
    }
}

pub(crate) fn c_dom(d: &Domain, arrays: &mut Vec<String>, tag: &str) -> String {
    match d {
        Domain::Int(lo, hi) => format!("RT_DOM_INT({lo}LL, {hi}LL)"),
        Domain::Full => "RT_DOM_FULL".into(),
        Domain::Dyadic(lo, hi, s) => format!("RT_DOM_DYADIC({lo}LL, {hi}LL, {s})"),
        Domain::IntChoice(v) => {
            let vals: Vec<String> = v.iter().map(|x| format!("{x}LL")).collect();
            arrays.push(format!(
                "    static const long long {tag}[] = {{{}}};",
                vals.join(", ")
            ));
            format!("RT_DOM_ICHOICE({tag})")
        }
        Domain::FloatChoice(v) => {
            let vals: Vec<String> = v.iter().map(|x| float_text(*x)).collect();
            arrays.push(format!(
                "    static const double {tag}[] = {{{}}};",
                vals.join(", ")
            ));
            format!("RT_DOM_FCHOICE({tag})")
        }
    }
}

pub(crate) fn rs_dom(d: &Domain) -> String {
    match d {
        Domain::Int(lo, hi) => format!("rt::Dom::Int({lo}, {hi})"),
        Domain::Full => "rt::Dom::Full".into(),
        Domain::Dyadic(lo, hi, s) => format!("rt::Dom::Dyadic({lo}, {hi}, {s})"),
        Domain::IntChoice(v) => {
            let vals: Vec<String> = v.iter().map(|x| x.to_string()).collect();
            format!("rt::Dom::IntChoice(&[{}])", vals.join(", "))
        }
        Domain::FloatChoice(v) => {
            let vals: Vec<String> = v.iter().map(|x| float_text(*x)).collect();
            format!("rt::Dom::FloatChoice(&[{}])", vals.join(", "))
        }
    }
}

/// The C runner of a kernel: draws the inputs, calls it, prints outputs.
pub fn c_runner(k: &Kernel) -> Vec<String> {
    let mut arrays = Vec::new();
    let mut body = Vec::new();
    body.push(format!("    rt_rng rng = {{0x{:016x}ULL}};", k.input_seed));
    let mut args = Vec::new();
    let mut outs = Vec::new();
    for p in &k.params {
        let n = &p.name;
        let tag = format!("{n}_dom");
        match &p.kind {
            ParamKind::Mat(t, d) => {
                let dom = c_dom(d, &mut arrays, &tag);
                body.push(format!(
                    "    {} {n}_b[{}]; rt_fill_{}(&rng, {n}_b, {}, {dom});",
                    t.elem.c(),
                    t.len(),
                    c_fill(t.elem),
                    t.len()
                ));
                body.push(match k.layout {
                    Layout::ColumnMajor => format!(
                        "    {} {n} = __builtin_matrix_column_major_load({n}_b, {}, {}, {});",
                        t.name(),
                        t.rows,
                        t.cols,
                        t.rows
                    ),
                    // The column-major builtins do not exist for row-major
                    // matrices: element by element, in the same order.
                    Layout::RowMajor => format!(
                        "    {} {n}; for (int j = 0; j < {}; j++) for (int i = 0; i < {}; i++) {n}[i][j] = {n}_b[j * {} + i];",
                        t.name(),
                        t.cols,
                        t.rows,
                        t.rows
                    ),
                });
                args.push(n.clone());
            }
            ParamKind::Scalar(e, d) => {
                let dom = c_dom(d, &mut arrays, &tag);
                body.push(format!(
                    "    {} {n}; rt_fill_{}(&rng, &{n}, 1, {dom});",
                    e.c(),
                    c_fill(*e)
                ));
                args.push(n.clone());
            }
            ParamKind::Index(t, bound) => {
                body.push(format!(
                    "    {} {n}; rt_fill_{}(&rng, &{n}, 1, RT_DOM_INT(0LL, {}LL));",
                    t.c(),
                    idx_fill(*t),
                    bound - 1
                ));
                args.push(n.clone());
            }
            ParamKind::Stride(lo, hi) => {
                body.push(format!(
                    "    unsigned long {n}; rt_fill_u64(&rng, &{n}, 1, RT_DOM_INT({lo}LL, {hi}LL));"
                ));
                args.push(n.clone());
            }
            ParamKind::Src(e, len, d) | ParamKind::Dst(e, len, d) => {
                let dom = c_dom(d, &mut arrays, &tag);
                body.push(format!(
                    "    {} {n}[{len}]; rt_fill_{}(&rng, {n}, {len}, {dom});",
                    e.c(),
                    c_fill(*e)
                ));
                args.push(n.clone());
                if matches!(p.kind, ParamKind::Dst(..)) {
                    outs.push(format!(
                        "    rt_out_{}(\"{}\", \"{n}\", {n}, {len});",
                        c_fill(*e),
                        k.name
                    ));
                }
            }
        }
    }
    let call = format!("{}({})", k.name, args.join(", "));
    match &k.ret {
        Ret::Mat(t, _) => {
            body.push(format!("    {} r = {call};", t.name()));
            body.push(match k.layout {
                Layout::ColumnMajor => format!(
                    "    {} r_b[{}]; __builtin_matrix_column_major_store(r, r_b, {});",
                    t.elem.c(),
                    t.len(),
                    t.rows
                ),
                Layout::RowMajor => format!(
                    "    {} r_b[{}]; for (int j = 0; j < {}; j++) for (int i = 0; i < {}; i++) r_b[j * {} + i] = r[i][j];",
                    t.elem.c(),
                    t.len(),
                    t.cols,
                    t.rows,
                    t.rows
                ),
            });
            body.push(format!(
                "    rt_out_{}(\"{}\", \"ret\", r_b, {});",
                c_fill(t.elem),
                k.name,
                t.len()
            ));
        }
        Ret::Scalar(e, _) => {
            body.push(format!("    {} r = {call};", e.c()));
            body.push(format!(
                "    rt_out_{}(\"{}\", \"ret\", &r, 1);",
                c_fill(*e),
                k.name
            ));
        }
        Ret::Unit => body.push(format!("    {call};")),
    }
    body.extend(outs);
    let mut out = vec![format!("static void run_{}(void) {{", k.name)];
    out.extend(arrays);
    out.extend(body);
    out.push("}".into());
    out
}

/// The Rust runner of a kernel (outside the `matrix!` block).
pub fn rs_runner(k: &Kernel) -> Vec<String> {
    let mut body = vec![format!(
        "    let mut rng = rt::Rng::new(0x{:016x});",
        k.input_seed
    )];
    let mut args = Vec::new();
    let mut outs = Vec::new();
    for p in &k.params {
        let n = &p.name;
        match &p.kind {
            ParamKind::Mat(t, d) => {
                body.push(match k.layout {
                    Layout::ColumnMajor => format!(
                        "    let {n} = {}::from_column_major(&rt::vec::<{}>(&mut rng, {}, {}));",
                        t.name(),
                        t.elem.rust(),
                        t.len(),
                        rs_dom(d)
                    ),
                    Layout::RowMajor => format!(
                        "    let {n}: {} = Matrix::<{}, {}, {}>::from_column_major(&rt::vec::<{}>(&mut rng, {}, {})).to_layout();",
                        t.name(),
                        t.elem.rust(),
                        t.rows,
                        t.cols,
                        t.elem.rust(),
                        t.len(),
                        rs_dom(d)
                    ),
                });
                args.push(n.clone());
            }
            ParamKind::Scalar(e, d) => {
                body.push(format!(
                    "    let {n}: {} = rt::draw(&mut rng, {});",
                    e.rust(),
                    rs_dom(d)
                ));
                args.push(n.clone());
            }
            ParamKind::Index(t, bound) => {
                body.push(format!(
                    "    let {n}: {} = rt::draw(&mut rng, rt::Dom::Int(0, {}));",
                    t.rust(),
                    bound - 1
                ));
                args.push(n.clone());
            }
            ParamKind::Stride(lo, hi) => {
                body.push(format!(
                    "    let {n}: usize = rt::draw(&mut rng, rt::Dom::Int({lo}, {hi}));"
                ));
                args.push(n.clone());
            }
            ParamKind::Src(e, len, d) => {
                body.push(format!(
                    "    let {n} = rt::vec::<{}>(&mut rng, {len}, {});",
                    e.rust(),
                    rs_dom(d)
                ));
                args.push(format!("&{n}"));
            }
            ParamKind::Dst(e, len, d) => {
                body.push(format!(
                    "    let mut {n} = rt::vec::<{}>(&mut rng, {len}, {});",
                    e.rust(),
                    rs_dom(d)
                ));
                args.push(format!("&mut {n}"));
                outs.push(format!("rt::Output::new(\"{n}\", &{n})"));
            }
        }
    }
    let call = format!("{}({})", k.name, args.join(", "));
    let mut results = Vec::new();
    match &k.ret {
        Ret::Mat(..) => {
            body.push(format!("    let r = {call};"));
            // Column-major order in both languages, whatever the layout.
            results.push(match k.layout {
                Layout::ColumnMajor => "rt::Output::new(\"ret\", r.as_slice())".to_string(),
                Layout::RowMajor => {
                    "rt::Output::new(\"ret\", r.to_layout::<matrix_core::ColumnMajor>().as_slice())"
                        .to_string()
                }
            });
        }
        Ret::Scalar(..) => {
            body.push(format!("    let r = {call};"));
            results.push("rt::Output::new(\"ret\", &[r])".to_string());
        }
        Ret::Unit => body.push(format!("    {call};")),
    }
    results.extend(outs);
    body.push(format!("    vec![{}]", results.join(", ")));
    let mut out = vec![format!("fn run_{}() -> Vec<rt::Output> {{", k.name)];
    out.extend(body);
    out.push("}".into());
    out
}
