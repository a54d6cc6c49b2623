//! The checked-in corpus: kernels generated from a seed, split into chunks,
//! each printed as a C file (kernels, runners and `main`) and a Rust file
//! (one `matrix!` block and the runners), plus a manifest.

use std::collections::BTreeSet;

use crate::ast::*;
use crate::emit::{self, Lang};
use crate::generate;
use crate::lgen::{self, LKernel};
use crate::mutate;
use crate::prng::SplitMix64;
use crate::ty::{Layout, MatTy};
use crate::vgen::{self, VKernel};
use crate::vmutate;

/// Kernels per chunk file (each chunk is one `matrix!` block and one C
/// program).
pub const CHUNK: usize = 40;

/// Kernels over row-major matrices, after the others (compared with clang
/// 22's `-fmatrix-memory-layout=row-major`).
pub const ROW_MAJOR_KERNELS: usize = 80;

/// Kernels on Clang's ext vectors ([`vgen`]), after the row-major ones.
pub const VECTOR_KERNELS: usize = 160;

/// Kernels mixing layouts ([`lgen`]), compared with clang-19 on their
/// column-major twins.
pub const LAYOUT_KERNELS: usize = 120;

/// Ill-typed vector kernels, after the matrix mutants in
/// `ill_typed.{c,rs}`.
pub const VECTOR_MUTANTS: usize = 66;

/// Where the checked-in corpus lives, relative to the oracle crate.
pub const DIR: &str = "corpus";

/// The command that regenerates the corpus.
pub fn command(seed: u64, count: usize, mutants: usize) -> String {
    format!(
        "cargo run -p matrix-oracle --bin gen-corpus -- --seed {seed} --count {count} --mutants {mutants}"
    )
}

/// One generated file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    /// Path relative to the oracle crate (`corpus/kernels_00.rs`).
    pub path: String,
    /// Contents.
    pub text: String,
}

/// The whole corpus for a seed.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// The seed.
    pub seed: u64,
    /// The kernels.
    pub kernels: Vec<Kernel>,
    /// The row-major kernels.
    pub row_major: Vec<Kernel>,
    /// The kernels on ext vectors.
    pub vectors: Vec<VKernel>,
    /// The kernels mixing layouts.
    pub layouts: Vec<LKernel>,
    /// The ill-typed mutants.
    pub mutants: Vec<mutate::Mutant>,
    /// The ill-typed vector kernels.
    pub vector_mutants: Vec<vmutate::VMutant>,
    /// Number of mutants asked for.
    pub mutant_count: usize,
}

impl Corpus {
    /// Generates `count` kernels and `mutants` mutants from `seed`.
    pub fn generate(seed: u64, count: usize, mutants: usize) -> Corpus {
        let mut rng = SplitMix64::new(seed);
        let kernels = draw(&mut rng, count, 'k', generate::kernel);
        let mut mrng = SplitMix64::new(rng.next_u64());
        let muts = mutate::mutants(&mut mrng, &kernels, mutants);
        // Drawn from a stream of their own: the other files do not change.
        let mut rrng = SplitMix64::new(seed ^ 0x524f_575f_4d41_4a52);
        let row_major = draw(
            &mut rrng,
            ROW_MAJOR_KERNELS,
            'r',
            generate::row_major_kernel,
        );
        let mut vrng = SplitMix64::new(seed ^ 0x5645_4354_4f52_5321);
        let vectors = (0..VECTOR_KERNELS)
            .map(|i| vgen::kernel(&mut SplitMix64::new(vrng.next_u64()), &format!("v{i:04}")))
            .collect();
        let mut lrng = SplitMix64::new(seed ^ 0x4c41_594f_5554_5321);
        let layouts = (0..LAYOUT_KERNELS)
            .map(|i| lgen::kernel(&mut SplitMix64::new(lrng.next_u64()), &format!("l{i:04}")))
            .collect();
        let mut wrng = SplitMix64::new(seed ^ 0x5645_4354_4d55_5421);
        let vector_mutants = vmutate::mutants(&mut wrng, VECTOR_MUTANTS);
        Corpus {
            seed,
            kernels,
            row_major,
            vectors,
            layouts,
            vector_mutants,
            mutants: muts,
            mutant_count: mutants,
        }
    }

    /// Number of chunk files.
    pub fn chunks(&self) -> usize {
        self.kernels.len().div_ceil(CHUNK)
    }

    /// Every file of the corpus.
    pub fn files(&self) -> Vec<File> {
        let mut files = Vec::new();
        let cmd = command(self.seed, self.kernels.len(), self.mutant_count);
        let chunk_sets = [
            (&self.kernels, "kernels", 0xC0FF_EE00, Layout::ColumnMajor),
            (&self.row_major, "row_major", 0x524f_5700, Layout::RowMajor),
        ];
        for (kernels, prefix, stream, layout) in chunk_sets {
            for (i, ks) in kernels.chunks(CHUNK).enumerate() {
                let mut rng = SplitMix64::new(self.seed ^ (stream + i as u64));
                let (types, aliases) = types_of(ks);
                let tds = Typedefs::new(&types, &aliases, &mut rng).with_layout(layout);
                files.push(File {
                    path: format!("{DIR}/{prefix}_{i:02}.c"),
                    text: c_chunk(ks, &cmd, tds.c_lines(), &mut rng),
                });
                files.push(File {
                    path: format!("{DIR}/{prefix}_{i:02}.rs"),
                    text: {
                        let typedefs = tds.rs_lines(&mut rng);
                        rs_chunk(ks, &cmd, "Matrix", typedefs, &mut rng)
                    },
                });
            }
        }
        for (i, ks) in self.vectors.chunks(CHUNK).enumerate() {
            let mut rng = SplitMix64::new(self.seed ^ (0x5645_4300 + i as u64));
            files.push(File {
                path: format!("{DIR}/vectors_{i:02}.c"),
                text: c_chunk(
                    ks,
                    &cmd,
                    vgen::chunk_typedefs(ks, Lang::C, &mut rng),
                    &mut rng,
                ),
            });
            files.push(File {
                path: format!("{DIR}/vectors_{i:02}.rs"),
                text: {
                    let typedefs = vgen::chunk_typedefs(ks, Lang::Rust, &mut rng);
                    rs_chunk(ks, &cmd, "Vector", typedefs, &mut rng)
                },
            });
        }
        for (i, ks) in self.layouts.chunks(CHUNK).enumerate() {
            let mut rng = SplitMix64::new(self.seed ^ (0x4c41_5900 + i as u64));
            files.push(File {
                path: format!("{DIR}/layouts_{i:02}.c"),
                text: c_chunk(
                    ks,
                    &cmd,
                    lgen::chunk_typedefs(ks, Lang::C, &mut rng),
                    &mut rng,
                ),
            });
            files.push(File {
                path: format!("{DIR}/layouts_{i:02}.rs"),
                text: {
                    let typedefs = lgen::chunk_typedefs(ks, Lang::Rust, &mut rng);
                    rs_chunk(ks, &cmd, "Matrix", typedefs, &mut rng)
                },
            });
        }
        files.push(File {
            path: format!("{DIR}/chunks.rs"),
            text: chunks_index(
                [
                    self.chunks(),
                    self.row_major.len().div_ceil(CHUNK),
                    self.vectors.len().div_ceil(CHUNK),
                    self.layouts.len().div_ceil(CHUNK),
                ],
                &cmd,
            ),
        });
        let mut rng = SplitMix64::new(self.seed ^ 0xBAD);
        let (types, aliases) = mutate::all_types(&self.mutants);
        let tds = Typedefs::new(&types, &aliases, &mut rng);
        let rs = mutate::rs_file(&self.mutants, &cmd, &tds, &mut rng);
        let mut vrng = SplitMix64::new(self.seed ^ 0x5645_4354_4d55);
        let (vc, vrs) = vmutate::files(&self.vector_mutants, &mut vrng);
        files.push(File {
            path: format!("{DIR}/ill_typed.c"),
            text: mutate::c_file(&self.mutants, &cmd, &tds) + &vc,
        });
        files.push(File {
            path: format!("{DIR}/ill_typed.rs"),
            text: rs + &vrs,
        });
        let accept = self.accept_kernels();
        let (types, aliases) = types_of(&accept);
        let tds = Typedefs::new(&types, &aliases, &mut rng);
        files.push(File {
            path: format!("{DIR}/accept.c"),
            text: accept_c(&accept, &cmd, &tds),
        });
        files.push(File {
            path: format!("{DIR}/accept.rs"),
            text: accept_rs(&accept, &cmd, &tds, &mut rng),
        });
        files.push(File {
            path: format!("{DIR}/manifest.tsv"),
            text: self.manifest(&cmd),
        });
        files
    }

    /// The kernels the generator steered around open findings, in the
    /// spelling it avoided, with every kernel they call.
    pub fn accept_kernels(&self) -> Vec<Kernel> {
        let mut want: BTreeSet<String> = self
            .kernels
            .iter()
            .filter(|k| !k.avoided.is_empty())
            .map(|k| k.name.clone())
            .collect();
        // Callees first: add them until nothing changes.
        loop {
            let before = want.len();
            for k in &self.kernels {
                if want.contains(&k.name) {
                    want.extend(callees(k));
                }
            }
            if want.len() == before {
                break;
            }
        }
        self.kernels
            .iter()
            .filter(|k| want.contains(&k.name))
            .map(Kernel::unavoided)
            .collect()
    }

    fn manifest(&self, cmd: &str) -> String {
        let mut s = String::new();
        s.push_str("# matrix-oracle corpus manifest. Regenerate with:\n");
        s.push_str(&format!("#   {cmd}\n"));
        s.push_str(&format!(
            "# seed\t{}\n# kernels\t{}\n# mutants\t{}\n",
            self.seed,
            self.kernels.len(),
            self.mutants.len()
        ));
        s.push_str("# kind\tname\tfile\tinput_seed_or_base\tfeatures_or_expected_phrase\n");
        for (i, k) in self.kernels.iter().enumerate() {
            let f: Vec<&str> = features(k).into_iter().collect();
            s.push_str(&format!(
                "kernel\t{}\tkernels_{:02}\t0x{:016x}\t{}\n",
                k.name,
                i / CHUNK,
                k.input_seed,
                f.join(",")
            ));
        }
        for (i, k) in self.row_major.iter().enumerate() {
            let f: Vec<&str> = features(k).into_iter().collect();
            s.push_str(&format!(
                "row_major\t{}\trow_major_{:02}\t0x{:016x}\t{}\n",
                k.name,
                i / CHUNK,
                k.input_seed,
                f.join(",")
            ));
        }
        for (i, k) in self.layouts.iter().enumerate() {
            let f: Vec<&str> = k.features.iter().copied().collect();
            s.push_str(&format!(
                "layout\t{}\tlayouts_{:02}\t0x{:016x}\t{}\n",
                k.name,
                i / CHUNK,
                k.input_seed,
                f.join(",")
            ));
        }
        for (i, k) in self.vectors.iter().enumerate() {
            let f: Vec<&str> = k.features.iter().copied().collect();
            s.push_str(&format!(
                "vector\t{}\tvectors_{:02}\t0x{:016x}\t{}\n",
                k.name,
                i / CHUNK,
                k.input_seed,
                f.join(",")
            ));
        }
        for m in &self.mutants {
            s.push_str(&format!(
                "mutant\t{}\till_typed\t{}\t{}: {}\n",
                m.name, m.base, m.kind, m.expect
            ));
        }
        for m in &self.vector_mutants {
            s.push_str(&format!(
                "mutant\t{}\till_typed\t-\t{}: {}\n",
                m.name, m.kind, m.expect
            ));
        }
        s
    }
}

fn header(cmd: &str, lang: Lang) -> String {
    let (o, c) = match lang {
        Lang::C => ("/*", " */"),
        Lang::Rust => ("//", ""),
    };
    format!(
        "{o} @generated by `{cmd}`{c}\n{o} Do not edit; regenerate (see oracle/README.md).{c}\n"
    )
}

/// The typedefs of a block: every type the kernels name, with the
/// dimensions sometimes spelled as constant expressions, and the alias
/// typedefs the kernels use.
pub struct Typedefs {
    /// (type, typedef name, (rows, cols) text), in order.
    pub items: Vec<(MatTy, String, (String, String))>,
    /// The layout of every type (in C, the file's compiler flag).
    pub layout: Layout,
}

impl Typedefs {
    /// Typedefs for `types` and `aliases`, spelled with `rng`.
    pub fn new(types: &[MatTy], aliases: &[MatTy], rng: &mut SplitMix64) -> Typedefs {
        let mut items = Vec::new();
        let dims = |t: &MatTy, rng: &mut SplitMix64| {
            if rng.chance(1, 6) {
                (
                    generate::const_expr(rng, t.rows),
                    generate::const_expr(rng, t.cols),
                )
            } else {
                (t.rows.to_string(), t.cols.to_string())
            }
        };
        for t in types {
            let d = dims(t, rng);
            items.push((*t, t.name(), d));
        }
        for t in aliases {
            let d = dims(t, rng);
            items.push((*t, t.alias(), d));
        }
        Typedefs {
            items,
            layout: Layout::ColumnMajor,
        }
    }

    /// The same typedefs in `layout`.
    pub fn with_layout(self, layout: Layout) -> Typedefs {
        Typedefs { layout, ..self }
    }

    /// The C lines: the constants, then the typedefs.
    pub fn c_lines(&self) -> Vec<String> {
        let mut v = vec![emit::c_consts()];
        for (t, name, d) in &self.items {
            v.push(emit::c_typedef(t, name, d));
        }
        v
    }

    /// The `matrix!` lines (element spellings and visibility drawn from
    /// `rng`): the constants, then the typedefs.
    pub fn rs_lines(&self, rng: &mut SplitMix64) -> Vec<String> {
        let mut v = emit::rs_consts();
        for (t, name, d) in &self.items {
            let sp = *rng.pick(t.elem.typedef_spellings());
            let vis = *rng.pick(&["", "", "", "pub ", "pub(crate) "]);
            v.push(emit::rs_typedef(vis, sp, name, d, self.layout));
        }
        v
    }
}

/// `count` kernels named `{prefix}0000`..., each from a seed drawn from
/// `rng`, made by `make`; a kernel may call the earlier kernels of its chunk.
fn draw(
    rng: &mut SplitMix64,
    count: usize,
    prefix: char,
    make: fn(&mut SplitMix64, &str, &[Kernel]) -> Kernel,
) -> Vec<Kernel> {
    let mut kernels: Vec<Kernel> = Vec::with_capacity(count);
    for i in 0..count {
        let mut sub = SplitMix64::new(rng.next_u64());
        let chunk_start = i / CHUNK * CHUNK;
        let k = make(
            &mut sub,
            &format!("{prefix}{i:04}"),
            &kernels[chunk_start..],
        );
        kernels.push(k);
    }
    kernels
}

fn types_of(ks: &[Kernel]) -> (Vec<MatTy>, Vec<MatTy>) {
    let mut set = BTreeSet::new();
    let mut aliases = BTreeSet::new();
    for k in ks {
        set.extend(k.mat_types());
        aliases.extend(k.aliases());
    }
    (set.into_iter().collect(), aliases.into_iter().collect())
}

/// A kernel of a chunk file: a matrix kernel or a vector kernel.
trait ChunkKernel {
    /// Its name.
    fn name(&self) -> &str;
    /// Its lines in `lang` (a few spellings drawn from `rng`).
    fn lines(&self, lang: Lang, rng: &mut SplitMix64) -> Vec<String>;
    /// The C runner: draws its inputs, calls it, prints its outputs.
    fn c_runner(&self) -> Vec<String>;
    /// The Rust twin of the C runner.
    fn rs_runner(&self) -> Vec<String>;
}

impl ChunkKernel for Kernel {
    fn name(&self) -> &str {
        &self.name
    }
    fn lines(&self, lang: Lang, _: &mut SplitMix64) -> Vec<String> {
        emit::kernel_lines(self, lang, &[], None)
    }
    fn c_runner(&self) -> Vec<String> {
        emit::c_runner(self)
    }
    fn rs_runner(&self) -> Vec<String> {
        emit::rs_runner(self)
    }
}

impl ChunkKernel for LKernel {
    fn name(&self) -> &str {
        &self.name
    }
    fn lines(&self, lang: Lang, rng: &mut SplitMix64) -> Vec<String> {
        LKernel::lines(self, lang, rng)
    }
    fn c_runner(&self) -> Vec<String> {
        LKernel::c_runner(self)
    }
    fn rs_runner(&self) -> Vec<String> {
        LKernel::rs_runner(self)
    }
}

impl ChunkKernel for VKernel {
    fn name(&self) -> &str {
        &self.name
    }
    fn lines(&self, lang: Lang, rng: &mut SplitMix64) -> Vec<String> {
        VKernel::lines(self, lang, rng)
    }
    fn c_runner(&self) -> Vec<String> {
        VKernel::c_runner(self)
    }
    fn rs_runner(&self) -> Vec<String> {
        VKernel::rs_runner(self)
    }
}

/// A chunk's C program: `typedefs`, each kernel and its runner, `main`.
fn c_chunk<K: ChunkKernel>(
    ks: &[K],
    cmd: &str,
    typedefs: Vec<String>,
    rng: &mut SplitMix64,
) -> String {
    let mut out = header(cmd, Lang::C);
    out.push_str("#include \"oracle_rt.h\"\n\n");
    for l in typedefs {
        out.push_str(&l);
        out.push('\n');
    }
    for k in ks {
        out.push('\n');
        for l in k.lines(Lang::C, rng) {
            out.push_str(&l);
            out.push('\n');
        }
        out.push('\n');
        for l in k.c_runner() {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out.push_str("\nint main(void) {\n");
    for k in ks {
        out.push_str(&format!("    run_{}();\n", k.name()));
    }
    out.push_str("    return 0;\n}\n");
    out
}

/// A chunk's Rust file: one `matrix!` block (`typedefs`, the kernels), the
/// runners and their list. `value_type` is the value type the runners may
/// name (`Matrix`, `Vector`).
fn rs_chunk<K: ChunkKernel>(
    ks: &[K],
    cmd: &str,
    value_type: &str,
    typedefs: Vec<String>,
    rng: &mut SplitMix64,
) -> String {
    let mut out = header(cmd, Lang::Rust);
    out.push_str("use matrix_core::matrix;\n");
    out.push_str(&format!(
        "#[allow(unused_imports)]\nuse matrix_core::{value_type};\n"
    ));
    out.push_str("use matrix_oracle::rt;\n\n");
    out.push_str("matrix! {\n");
    for l in typedefs {
        out.push_str(&format!("    {l}\n"));
    }
    for k in ks {
        out.push('\n');
        for l in k.lines(Lang::Rust, rng) {
            out.push_str(&format!("    {l}\n"));
        }
    }
    out.push_str("}\n");
    for k in ks {
        out.push('\n');
        for l in k.rs_runner() {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out.push_str("\n/// Every kernel of this chunk with its runner.\n");
    out.push_str("pub const KERNELS: &[(&str, rt::Runner)] = &[\n");
    for k in ks {
        out.push_str(&format!("    (\"{0}\", run_{0}),\n", k.name()));
    }
    out.push_str("];\n");
    out
}

fn accept_c(ks: &[Kernel], cmd: &str, tds: &Typedefs) -> String {
    let mut out = header(cmd, Lang::C);
    out.push_str("/* Kernels in spellings the generator avoids in kernels_NN (open\n   findings): clang-19 accepts them, so must the macro. */\n\n");
    for l in tds.c_lines() {
        out.push_str(&l);
        out.push('\n');
    }
    for k in ks {
        out.push('\n');
        for l in emit::kernel_lines(k, Lang::C, &[], None) {
            out.push_str(&l);
            out.push('\n');
        }
    }
    out
}

fn accept_rs(ks: &[Kernel], cmd: &str, tds: &Typedefs, rng: &mut SplitMix64) -> String {
    let mut out = header(cmd, Lang::Rust);
    out.push_str("// Kernels in spellings the generator avoids in kernels_NN (open\n// findings): clang-19 accepts them, so must the macro.\n");
    out.push_str("use matrix_core::Matrix;\nuse matrix_core::matrix;\n\nmatrix! {\n");
    for l in tds.rs_lines(rng) {
        out.push_str(&format!("    {l}\n"));
    }
    for k in ks {
        out.push('\n');
        for l in emit::kernel_lines(k, Lang::Rust, &[], None) {
            out.push_str(&format!("    {l}\n"));
        }
    }
    out.push_str("}\n");
    out
}

/// The kernels `k` calls.
fn callees(k: &Kernel) -> Vec<String> {
    fn m(e: &MExpr, out: &mut Vec<String>) {
        match e {
            MExpr::Call { kernel, .. } => out.push(kernel.clone()),
            MExpr::Var(_) | MExpr::Load { .. } => {}
            MExpr::Bin(_, a, b) | MExpr::Rfc(_, a, b) => {
                m(a, out);
                m(b, out);
            }
            MExpr::Scalar { m: x, s: y, .. }
            | MExpr::RfcScale(x, y)
            | MExpr::Insert { m: x, x: y, .. } => {
                m(x, out);
                sc(y, out);
            }
            MExpr::Transpose(x) | MExpr::Cast { e: x, .. } => m(x, out),
            MExpr::Cond { c, a, b } => {
                sc(c, out);
                m(a, out);
                m(b, out);
            }
        }
    }
    fn sc(e: &SExpr, out: &mut Vec<String>) {
        match e {
            SExpr::Elem { m: x, .. } => m(x, out),
            SExpr::Cast(_, x) => sc(x, out),
            SExpr::Bin(_, a, b) => {
                sc(a, out);
                sc(b, out);
            }
            SExpr::Param(_) | SExpr::Lit(_) => {}
        }
    }
    fn st(s: &Stmt, out: &mut Vec<String>) {
        match s {
            Stmt::Let { init: e, .. } | Stmt::Assign { e, .. } | Stmt::Store { m: e, .. } => {
                m(e, out)
            }
            Stmt::Compound { rhs, .. } => match rhs {
                Rhs::M(e) => m(e, out),
                Rhs::S(x) => sc(x, out),
            },
            Stmt::ElemSet { v, .. } => sc(v, out),
            Stmt::For { body, .. } | Stmt::If { body, .. } => st(body, out),
        }
    }
    let mut out = Vec::new();
    for s in &k.body {
        st(s, &mut out);
    }
    match &k.ret {
        Ret::Mat(_, e) => m(e, &mut out),
        Ret::Scalar(_, x) => sc(x, &mut out),
        Ret::Unit => {}
    }
    out
}

/// `chunks.rs`: a module per chunk file, and the lists of the column-major,
/// row-major, vector and mixed-layout chunks.
fn chunks_index([n, row_major, vectors, layouts]: [usize; 4], cmd: &str) -> String {
    let mut out = header(cmd, Lang::Rust);
    let names = |prefix: &'static str, n: usize| (0..n).map(move |i| format!("{prefix}_{i:02}"));
    for name in names("kernels", n)
        .chain(names("row_major", row_major))
        .chain(names("vectors", vectors))
        .chain(names("layouts", layouts))
    {
        out.push_str(&format!(
            "#[allow(unused, clippy::all)]\nmod {name} {{\n    include!(\"{name}.rs\");\n}}\n"
        ));
    }
    for (what, konst, prefix, count) in [
        ("Every chunk", "CHUNKS", "kernels", n),
        (
            "Every row-major chunk",
            "ROW_MAJOR_CHUNKS",
            "row_major",
            row_major,
        ),
        ("Every vector chunk", "VECTOR_CHUNKS", "vectors", vectors),
        (
            "Every mixed-layout chunk",
            "LAYOUT_CHUNKS",
            "layouts",
            layouts,
        ),
    ] {
        out.push_str(&format!("\n/// {what}: its name and its kernels.\n"));
        out.push_str(&format!(
            "pub const {konst}: &[(&str, &[(&str, matrix_oracle::rt::Runner)])] = &[\n"
        ));
        for name in names(prefix, count) {
            out.push_str(&format!("    (\"{name}\", {name}::KERNELS),\n"));
        }
        out.push_str("];\n");
    }
    out
}

/// Feature tags of a kernel, for the manifest and the coverage summary.
pub fn features(k: &Kernel) -> BTreeSet<&'static str> {
    let mut f = BTreeSet::new();
    for p in &k.params {
        match p.tyname {
            TyName::Alias => {
                f.insert("alias-typedef");
            }
            TyName::Generic => {
                f.insert("generic-param");
            }
            TyName::Typedef => {}
        }
    }
    if !k.attrs.is_empty() {
        f.insert("attributes");
    }
    for s in &k.body {
        stmt_features(s, k, &mut f);
    }
    match &k.ret {
        Ret::Mat(_, e) => mexpr_features(e, k, &mut f),
        Ret::Scalar(_, s) => {
            f.insert("scalar-return");
            sexpr_features(s, k, &mut f)
        }
        Ret::Unit => {
            f.insert("unit-return");
        }
    }
    f
}

fn stmt_features(s: &Stmt, k: &Kernel, f: &mut BTreeSet<&'static str>) {
    match s {
        Stmt::Let { init, .. } => mexpr_features(init, k, f),
        Stmt::Assign { e, .. } => {
            f.insert("assign");
            mexpr_features(e, k, f)
        }
        Stmt::Compound { rhs, op, .. } => {
            f.insert(match op {
                BinOp::Add => "+=",
                BinOp::Sub => "-=",
                BinOp::Mul => "*=",
                BinOp::Div => "/=",
            });
            match rhs {
                Rhs::M(e) => mexpr_features(e, k, f),
                Rhs::S(s) => sexpr_features(s, k, f),
            }
        }
        Stmt::ElemSet { v, r, c, .. } => {
            f.insert("element-write");
            idx_features(r, f);
            idx_features(c, f);
            sexpr_features(v, k, f)
        }
        Stmt::For { body, .. } => {
            f.insert("for");
            stmt_features(body, k, f)
        }
        Stmt::If { body, .. } => {
            f.insert("if");
            stmt_features(body, k, f)
        }
        Stmt::Store { m, stride, rfc, .. } => {
            f.insert(if *rfc { "rfc-store" } else { "store" });
            if matches!(stride, Stride::Param(_)) {
                f.insert("dynamic-stride");
            }
            mexpr_features(m, k, f)
        }
    }
}

fn mexpr_features(e: &MExpr, k: &Kernel, f: &mut BTreeSet<&'static str>) {
    match e {
        MExpr::Var(_) => {}
        MExpr::Bin(op, a, b) => {
            f.insert(if *op == BinOp::Mul {
                "product"
            } else {
                "elementwise"
            });
            mexpr_features(a, k, f);
            mexpr_features(b, k, f);
        }
        MExpr::Scalar { op, m, s, .. } => {
            f.insert(if *op == BinOp::Div {
                "divide"
            } else {
                "scalar-op"
            });
            if let SExpr::Param(p) = &**s {
                f.insert("scalar-param");
                let _ = k.param(p);
            }
            if let SExpr::Lit(_) = &**s {
                f.insert("literal");
            }
            mexpr_features(m, k, f);
            sexpr_features(s, k, f);
        }
        MExpr::Transpose(m) => {
            f.insert("transpose");
            mexpr_features(m, k, f)
        }
        MExpr::Cast { style, e, .. } => {
            f.insert(if *style == CastStyle::CStyle {
                "c-style-cast"
            } else {
                "as-cast"
            });
            mexpr_features(e, k, f)
        }
        MExpr::Load {
            stride,
            rfc,
            rows,
            cols,
            ..
        } => {
            f.insert(if *rfc { "rfc-load" } else { "load" });
            if matches!(stride, Stride::Param(_)) {
                f.insert("dynamic-stride");
            }
            if matches!(stride, Stride::Expr(..)) || rows.text.is_some() || cols.text.is_some() {
                f.insert("const-expr");
            }
        }
        MExpr::Rfc(op, a, b) => {
            f.insert(match op {
                RfcOp::Add => "rfc-add",
                RfcOp::Sub => "rfc-sub",
                RfcOp::Multiply => "rfc-multiply",
            });
            mexpr_features(a, k, f);
            mexpr_features(b, k, f);
        }
        MExpr::RfcScale(m, s) => {
            f.insert("rfc-scalar-multiply");
            mexpr_features(m, k, f);
            sexpr_features(s, k, f);
        }
        MExpr::Insert { m, x, r, c, .. } => {
            f.insert("rfc-insert");
            idx_features(r, f);
            idx_features(c, f);
            mexpr_features(m, k, f);
            sexpr_features(x, k, f);
        }
        MExpr::Call { .. } => {
            f.insert("call");
        }
        MExpr::Cond { c, a, b } => {
            f.insert("conditional");
            sexpr_features(c, k, f);
            mexpr_features(a, k, f);
            mexpr_features(b, k, f);
        }
    }
}

fn idx_features(i: &Idx, f: &mut BTreeSet<&'static str>) {
    match i {
        Idx::Var(_) => {
            f.insert("dynamic-index");
        }
        Idx::Expr(..) => {
            f.insert("const-expr");
        }
        Idx::Const(_) => {}
    }
}

fn sexpr_features(s: &SExpr, k: &Kernel, f: &mut BTreeSet<&'static str>) {
    match s {
        SExpr::Param(_) => {}
        SExpr::Elem { m, r, c, rfc } => {
            f.insert(if *rfc { "rfc-extract" } else { "element-read" });
            idx_features(r, f);
            idx_features(c, f);
            mexpr_features(m, k, f)
        }
        SExpr::Cast(_, e) => {
            f.insert("scalar-cast");
            sexpr_features(e, k, f)
        }
        SExpr::Bin(_, a, b) => {
            f.insert("scalar-arith");
            sexpr_features(a, k, f);
            sexpr_features(b, k, f);
        }
        SExpr::Lit(Lit::Int(_, _, IntForm::Hex | IntForm::Underscore))
        | SExpr::Lit(Lit::Float(_, _, FloatForm::Exp)) => {
            f.insert("literal-form");
        }
        SExpr::Lit(_) => {}
    }
}
