//! What the tests need around the corpus: finding clang-19 (and skipping
//! loudly without it), compiling and running the C side, reading clang's
//! and cargo's diagnostics, and comparing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::rt::Output;

/// The flags of the differential run.
pub const RUN_FLAGS: &[&str] = &["-fenable-matrix", "-ffp-contract=off", "-O1"];

/// The flags of the ill-typed check. The two `-Werror=` flags turn the
/// literal-conversion warnings into errors: the contract makes them errors
/// in the DSL, with the warning's text.
pub const CHECK_FLAGS: &[&str] = &[
    "-fenable-matrix",
    "-fsyntax-only",
    "-ferror-limit=0",
    "-Werror=literal-conversion",
    "-Werror=constant-conversion",
];

/// The oracle crate's directory.
pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The clangs the oracle runs: 19 for the specification and vectors, 22
/// for its row-major layout (`-fmatrix-memory-layout=row-major`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clang {
    V19,
    V22,
}

impl Clang {
    fn major(self) -> u32 {
        match self {
            Clang::V19 => 19,
            Clang::V22 => 22,
        }
    }

    /// The environment variable that points at this clang.
    fn variable(self) -> &'static str {
        match self {
            Clang::V19 => "ORACLE_CLANG",
            Clang::V22 => "ORACLE_CLANG22",
        }
    }
}

/// Finds clang-19: `$ORACLE_CLANG`, then `clang-19` on `PATH`, then the
/// Debian/Ubuntu locations. Only a clang whose version is 19 counts.
/// `ORACLE_NO_CLANG=1` pretends there is none (to try the skip path).
pub fn find_clang() -> Option<PathBuf> {
    find(Clang::V19)
}

/// Finds clang `version` as [`find_clang`] finds clang-19 (`$ORACLE_CLANG22`
/// for clang 22).
pub fn find(version: Clang) -> Option<PathBuf> {
    if std::env::var_os("ORACLE_NO_CLANG").is_some_and(|v| v == "1") {
        return None;
    }
    let major = version.major();
    let mut cands: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os(version.variable()) {
        cands.push(PathBuf::from(p));
    }
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            cands.push(d.join(format!("clang-{major}")));
        }
    }
    cands.push(PathBuf::from(format!("/usr/bin/clang-{major}")));
    cands.push(PathBuf::from(format!("/usr/lib/llvm-{major}/bin/clang")));
    let wanted = format!("clang version {major}.");
    cands.into_iter().find(|c| {
        Command::new(c).arg("--version").output().is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains(&wanted)
        })
    })
}

/// clang-19, or `None` after a loud notice that the test is skipped.
/// With `CI=true` in the environment a missing clang-19 fails the test.
pub fn require_clang(test: &str) -> Option<PathBuf> {
    require(Clang::V19, test)
}

/// Clang `version`, or `None` after a loud notice that the test is skipped;
/// with `CI=true` a missing clang fails the test.
pub fn require(version: Clang, test: &str) -> Option<PathBuf> {
    if let Some(c) = find(version) {
        return Some(c);
    }
    let (major, variable) = (version.major(), version.variable());
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    let msg = format!(
        "\n\
         ************************************************************************\n\
         * matrix-oracle: {test} SKIPPED: clang-{major} was not found.\n\
         * This test compares the matrix! macro with Clang's matrix extension\n\
         * and needs clang-{major} (looked for ${variable}, clang-{major} on PATH,\n\
         * /usr/bin/clang-{major}, /usr/lib/llvm-{major}/bin/clang).\n\
         * Install it with:   apt-get install -y clang-{major}\n\
         * (or point {variable} at a clang {major} binary), then rerun\n\
         *   cargo test -p matrix-oracle\n\
         * With CI=true a missing clang-{major} is a failure, not a skip.\n\
         ************************************************************************\n"
    );
    if ci {
        panic!("{msg}CI=true: refusing to skip.");
    }
    // Not `eprintln!`: libtest captures that for passing tests. Writing to
    // the stderr handle goes straight to the terminal, so the skip is
    // always seen.
    use std::io::Write;
    let _ = std::io::stderr().write_all(msg.as_bytes());
    None
}

/// Runs a command, returning (success, stdout, stderr).
pub fn run(cmd: &mut Command) -> (bool, String, String) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What clang prints when it crashed rather than refused the source.
const CLANG_CRASHED: &str = "clang frontend command failed due to signal";

/// The flag clang compiles a chunk with again when it crashed on it (C2
/// in `FINDINGS.md`): clang-19 crashes in its code generation of `main`
/// for some generated chunks once every kernel is inlined into `main`, and
/// compiles them with `-fno-inline`. Inlining changes no value a C program
/// computes, so the chunk's output is the same.
pub const AFTER_A_CRASH: &[&str] = &["-fno-inline"];

/// Compiles a corpus C chunk into `exe` with [`RUN_FLAGS`] and `flags`;
/// returns clang's stderr (warnings). If clang crashes, compiles it again
/// with [`AFTER_A_CRASH`] and says so on stderr.
///
/// # Panics
///
/// If clang refuses the source, or crashes with [`AFTER_A_CRASH`] too.
pub fn compile_c(clang: &Path, source: &Path, exe: &Path, flags: &[&str]) -> String {
    let compile = |extra: &[&str]| {
        run(Command::new(clang)
            .args(RUN_FLAGS)
            .args(flags)
            .args(extra)
            .arg("-I")
            .arg(crate_dir().join("c"))
            .arg(source)
            .arg("-o")
            .arg(exe))
    };
    let (mut ok, _, mut err) = compile(&[]);
    if !ok && err.contains(CLANG_CRASHED) {
        // To the stderr handle, not `eprintln!` (see `require`'s skip),
        // so that a passing run says it too.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "note: {} crashed on {} (C2 in oracle/FINDINGS.md); compiling it again with {}",
            clang.display(),
            source.display(),
            AFTER_A_CRASH.join(" ")
        );
        (ok, _, err) = compile(AFTER_A_CRASH);
    }
    assert!(
        ok,
        "{} failed on {}:\n{err}",
        clang.display(),
        source.display()
    );
    err
}

/// Writes `source` to `target/oracle-NAME-BACKEND/NAME.c`, compiles it with
/// clang and `flags` (and `-lm`), runs it and returns its standard output.
/// One directory per backend: a suite's runs on the other backends (child
/// processes) compile the same program while this one runs it.
///
/// # Panics
///
/// If clang refuses the source or the program fails.
pub fn run_c_program(clang: &Path, name: &str, source: &str, flags: &[&str]) -> String {
    let backend = matrix_core::Backend::active().name();
    let dir = crate_dir().join(format!("../target/oracle-{name}-{backend}"));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
    let (file, exe) = (dir.join(format!("{name}.c")), dir.join(name));
    std::fs::write(&file, source).unwrap_or_else(|e| panic!("write {}: {e}", file.display()));
    let (ok, _, err) = run(Command::new(clang)
        .args(flags)
        .arg("-o")
        .arg(&exe)
        .arg(&file)
        .arg("-lm"));
    assert!(
        ok,
        "{} failed on {}:\n{err}",
        clang.display(),
        file.display()
    );
    let (ok, stdout, err) = run(&mut Command::new(&exe));
    assert!(ok, "{} failed:\n{err}", exe.display());
    stdout
}

/// Asserts that a C program printed `ours`, line for line, naming the first
/// lines that differ (`oracle` names the compiler in the message).
///
/// # Panics
///
/// If the line counts or any line differ.
pub fn assert_same_lines(ours: &[String], stdout: &str, oracle: &str) {
    let theirs: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        theirs.len(),
        ours.len(),
        "lines printed by the {oracle} program"
    );
    let differ: Vec<String> = ours
        .iter()
        .zip(&theirs)
        .filter(|(a, b)| a.as_str() != **b)
        .map(|(a, b)| format!("ours  {a}\n{oracle} {b}"))
        .collect();
    assert!(
        differ.is_empty(),
        "{} of {} results differ from {oracle}'s:\n{}",
        differ.len(),
        ours.len(),
        differ[..differ.len().min(10)].join("\n")
    );
}

/// C functions giving the bits of a `float` and a `double`, `fb(x)` and
/// `db(x)`, for programs that print results to compare bit for bit.
pub const C_BITS: &str = "#include <string.h>\n\
static unsigned fb(float x) { unsigned b; memcpy(&b, &x, 4); return b; }\n\
static unsigned long long db(double x) { unsigned long long b; memcpy(&b, &x, 8); return b; }\n";

/// Builds `program` with clang-19 (`-O2 -fenable-matrix -ffp-contract=off`),
/// runs it and asserts that it printed `ours`, line for line; `test` names
/// the test in the report of a skip where clang-19 is missing, `name` the
/// program's directory.
///
/// # Panics
///
/// If clang refuses the program, it fails, or any line differs.
pub fn assert_c_program_prints(test: &str, name: &str, program: &str, ours: &[String]) {
    let Some(clang) = require_clang(test) else {
        return;
    };
    let flags = ["-O2", "-fenable-matrix", "-ffp-contract=off"];
    let stdout = run_c_program(&clang, name, program, &flags);
    assert_same_lines(ours, &stdout, "clang-19");
}

/// A case of a C text checked line by line: a C statement that prints one
/// line, and the line our kernels give.
pub type Case = (String, String);

/// `printf("FORMAT\n", CALL);` and `ours`: a case printing one value.
pub fn case(call: &str, format: &str, ours: impl ToString) -> Case {
    (
        format!("printf(\"{format}\\n\", {call});"),
        ours.to_string(),
    )
}

/// Builds the C program of `source` (the block's text, with `<stdio.h>`
/// and [`C_BITS`] before it) whose `main` runs `setup`, then each case's
/// statement, and asserts that it prints each case's line (see
/// [`assert_c_program_prints`]).
///
/// # Panics
///
/// If clang refuses the program, it fails, or any line differs.
pub fn assert_c_cases_print(test: &str, name: &str, source: &str, setup: &str, cases: &[Case]) {
    let mut c = String::from("#include <stdio.h>\n");
    c.push_str(C_BITS);
    c.push_str(source);
    c.push_str("\nint main(void) {\n");
    c.push_str(setup);
    for (statement, _) in cases {
        c.push_str(&format!("  {statement}\n"));
    }
    c.push_str("  return 0;\n}\n");
    let ours: Vec<String> = cases.iter().map(|c| c.1.clone()).collect();
    assert_c_program_prints(test, name, &c, &ours);
}

/// Outputs of one kernel, keyed by label.
pub type KernelOutputs = BTreeMap<String, (usize, Vec<u64>)>;

/// Parses the C runner's lines `@ KERNEL LABEL N v1 .. vN`.
pub fn parse_c_outputs(stdout: &str) -> BTreeMap<String, KernelOutputs> {
    let mut map: BTreeMap<String, KernelOutputs> = BTreeMap::new();
    for line in stdout.lines() {
        let mut it = line.split_ascii_whitespace();
        if it.next() != Some("@") {
            continue;
        }
        let k = it.next().expect("kernel name").to_string();
        let label = it.next().expect("label").to_string();
        let n: usize = it.next().expect("count").parse().expect("count");
        let vals: Vec<u64> = it.map(|v| v.parse().expect("value")).collect();
        assert_eq!(vals.len(), n, "short line for {k} {label}");
        map.entry(k).or_default().insert(label, (n, vals));
    }
    map
}

/// One disagreement between the two sides.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The kernel.
    pub kernel: String,
    /// What differs.
    pub what: String,
}

/// Compares one kernel's Rust outputs with the C ones. Matrices are
/// column-major; element `i` of an `R x C` return value is `[i % R][i / R]`
/// (the label says which output; positions are flat).
pub fn compare(kernel: &str, rust: &[Output], c: Option<&KernelOutputs>) -> Vec<Mismatch> {
    let mut out = Vec::new();
    let Some(c) = c else {
        out.push(Mismatch {
            kernel: kernel.into(),
            what: "no output from the C program".into(),
        });
        return out;
    };
    for o in rust {
        let Some((_, cv)) = c.get(&o.label) else {
            out.push(Mismatch {
                kernel: kernel.into(),
                what: format!("output {} missing on the C side", o.label),
            });
            continue;
        };
        if cv.len() != o.bits.len() {
            out.push(Mismatch {
                kernel: kernel.into(),
                what: format!(
                    "output {}: {} elements in Rust, {} in C",
                    o.label,
                    o.bits.len(),
                    cv.len()
                ),
            });
            continue;
        }
        for (i, (&r, &cc)) in o.bits.iter().zip(cv).enumerate() {
            if !crate::rt::agree(o.c_type, r, cc) {
                out.push(Mismatch {
                    kernel: kernel.into(),
                    what: format!(
                        "{}[{i}] ({}): rust {} != clang {}",
                        o.label,
                        o.c_type,
                        crate::rt::show(o.c_type, r),
                        crate::rt::show(o.c_type, cc)
                    ),
                });
            }
        }
    }
    for label in c.keys() {
        if !rust.iter().any(|o| &o.label == label) {
            out.push(Mismatch {
                kernel: kernel.into(),
                what: format!("output {label} missing on the Rust side"),
            });
        }
    }
    out
}

/// A diagnostic: line (1-based) and message.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diag {
    /// Line in the file.
    pub line: usize,
    /// The message.
    pub msg: String,
}

/// The `error:` lines clang printed for `file` (`FILE:LINE:COL: error: MSG`).
pub fn clang_errors(stderr: &str, file_name: &str) -> Vec<Diag> {
    let mut v = Vec::new();
    for l in stderr.lines() {
        let Some(rest) = l.strip_prefix(file_name) else {
            continue;
        };
        let mut parts = rest.splitn(4, ':');
        let (_, line, _col, tail) = (parts.next(), parts.next(), parts.next(), parts.next());
        let (Some(line), Some(tail)) = (line, tail) else {
            continue;
        };
        if let (Ok(line), Some(msg)) = (line.parse(), tail.strip_prefix(" error: ")) {
            v.push(Diag {
                line,
                msg: msg.to_string(),
            });
        }
    }
    v
}

/// Clang's message as the DSL words it: without the `(aka '...')` parts
/// (contract, "Messages"), without the `(vector of 4 'float' values)` that
/// clang-19 adds after a vector typedef's name, and without a trailing
/// `[-W...]` flag.
pub fn normalize_clang(msg: &str) -> String {
    let mut s = msg.to_string();
    for (open, close) in [(" (aka '", "')"), (" (vector of ", " values)")] {
        while let Some(i) = s.find(open) {
            let Some(j) = s[i + open.len()..].find(close) else {
                break;
            };
            s.replace_range(i..i + open.len() + j + close.len(), "");
        }
    }
    if s.ends_with(']')
        && let Some(i) = s.rfind(" [-W")
    {
        s.truncate(i);
    }
    s
}

/// The lines of `text` that carry each marker (`marker(name)` -> line).
pub fn marker_lines(text: &str, markers: &[String]) -> Vec<Option<usize>> {
    markers
        .iter()
        .map(|m| {
            text.lines()
                .position(|l| l.trim_end().ends_with(m.as_str()))
                .map(|i| i + 1)
        })
        .collect()
}

/// For each line of `text`, the mutant whose item contains it: a mutant's
/// item starts at the line that declares `fn NAME(`, C `NAME(`, or the
/// marked typedef, and runs until the next one starts.
pub fn owners(text: &str, names: &[String], markers: &[String]) -> Vec<Option<usize>> {
    let mut starts: Vec<(usize, usize)> = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let t = l.trim_start();
        if t.starts_with("typedef") {
            if let Some(k) = markers
                .iter()
                .position(|m| t.trim_end().ends_with(m.as_str()))
            {
                starts.push((i + 1, k));
            }
            continue;
        }
        if !l.starts_with(' ') || t.starts_with("pub fn ") {
            for (k, n) in names.iter().enumerate() {
                if t.contains(&format!(" {n}(")) {
                    starts.push((i + 1, k));
                    break;
                }
            }
        }
    }
    let n_lines = text.lines().count();
    let mut own = vec![None; n_lines + 2];
    for (idx, &(start, k)) in starts.iter().enumerate() {
        let end = starts.get(idx + 1).map_or(n_lines + 1, |s| s.0);
        for o in own.iter_mut().take(end).skip(start) {
            *o = Some(k);
        }
    }
    own
}

/// A JSON value (just enough to read cargo's messages).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number (kept as text).
    Num(String),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object (keys in order).
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// Parses one JSON document.
    pub fn parse(s: &str) -> Option<Json> {
        let b = s.as_bytes();
        let mut i = 0;
        let v = parse_value(b, &mut i)?;
        skip_ws(b, &mut i);
        (i == b.len()).then_some(v)
    }

    /// `self[key]` for objects.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(kv) => kv.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The array items.
    pub fn as_arr(&self) -> &[Json] {
        match self {
            Json::Arr(v) => v,
            _ => &[],
        }
    }

    /// The number as `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
}

fn skip_ws(b: &[u8], i: &mut usize) {
    while *i < b.len() && b[*i].is_ascii_whitespace() {
        *i += 1;
    }
}

fn parse_value(b: &[u8], i: &mut usize) -> Option<Json> {
    skip_ws(b, i);
    match *b.get(*i)? {
        b'n' => {
            *i += 4;
            Some(Json::Null)
        }
        b't' => {
            *i += 4;
            Some(Json::Bool(true))
        }
        b'f' => {
            *i += 5;
            Some(Json::Bool(false))
        }
        b'"' => parse_string(b, i).map(Json::Str),
        b'[' => {
            *i += 1;
            let mut v = Vec::new();
            loop {
                skip_ws(b, i);
                if *b.get(*i)? == b']' {
                    *i += 1;
                    return Some(Json::Arr(v));
                }
                v.push(parse_value(b, i)?);
                skip_ws(b, i);
                if *b.get(*i)? == b',' {
                    *i += 1;
                }
            }
        }
        b'{' => {
            *i += 1;
            let mut v = Vec::new();
            loop {
                skip_ws(b, i);
                if *b.get(*i)? == b'}' {
                    *i += 1;
                    return Some(Json::Obj(v));
                }
                let k = parse_string(b, i)?;
                skip_ws(b, i);
                if *b.get(*i)? != b':' {
                    return None;
                }
                *i += 1;
                let val = parse_value(b, i)?;
                v.push((k, val));
                skip_ws(b, i);
                if *b.get(*i)? == b',' {
                    *i += 1;
                }
            }
        }
        _ => {
            let start = *i;
            while *i < b.len() && (b[*i].is_ascii_digit() || b"+-.eE".contains(&b[*i])) {
                *i += 1;
            }
            (start < *i).then(|| Json::Num(String::from_utf8_lossy(&b[start..*i]).into_owned()))
        }
    }
}

fn parse_string(b: &[u8], i: &mut usize) -> Option<String> {
    if b.get(*i) != Some(&b'"') {
        return None;
    }
    *i += 1;
    let mut out: Vec<u8> = Vec::new();
    loop {
        let c = *b.get(*i)?;
        *i += 1;
        match c {
            b'"' => return String::from_utf8(out).ok(),
            b'\\' => {
                let e = *b.get(*i)?;
                *i += 1;
                match e {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'u' => {
                        let hex = std::str::from_utf8(b.get(*i..*i + 4)?).ok()?;
                        *i += 4;
                        let mut cp = u32::from_str_radix(hex, 16).ok()?;
                        if (0xD800..0xDC00).contains(&cp) && b.get(*i..*i + 2) == Some(b"\\u") {
                            let lo = std::str::from_utf8(b.get(*i + 2..*i + 6)?).ok()?;
                            let lo = u32::from_str_radix(lo, 16).ok()?;
                            *i += 6;
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        }
                        let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    }
                    other => out.push(other),
                }
            }
            _ => out.push(c),
        }
    }
}

/// The errors of a `cargo check --message-format=json` run whose primary
/// span is in a file named `file_name`, plus every other error message.
pub fn cargo_errors(stdout: &str, file_name: &str) -> (Vec<Diag>, Vec<String>) {
    let mut here = Vec::new();
    let mut other = Vec::new();
    for line in stdout.lines() {
        let Some(j) = Json::parse(line) else {
            continue;
        };
        if j.get("reason").and_then(Json::as_str) != Some("compiler-message") {
            continue;
        }
        let Some(m) = j.get("message") else { continue };
        if m.get("level").and_then(Json::as_str) != Some("error") {
            continue;
        }
        let msg = m
            .get("message")
            .and_then(Json::as_str)
            .unwrap_or("")
            .to_string();
        let spans = m.get("spans").map(Json::as_arr).unwrap_or(&[]);
        let primary = spans
            .iter()
            .find(|s| matches!(s.get("is_primary"), Some(Json::Bool(true))));
        match primary {
            Some(s)
                if s.get("file_name")
                    .and_then(Json::as_str)
                    .is_some_and(|f| f.ends_with(file_name)) =>
            {
                let line = s.get("line_start").and_then(Json::as_u64).unwrap_or(0) as usize;
                here.push(Diag { line, msg });
            }
            _ => other.push(msg),
        }
    }
    (here, other)
}

/// Writes a scratch crate whose `lib.rs` is `lib` (with the modules
/// `others` beside it: (file name, text)), depending on
/// matrix-core by path, in `dir`; runs `cargo check --message-format=json`
/// with its own target directory (under the workspace's `target/`) and
/// returns cargo's stdout and stderr.
pub fn check_scratch_crate(dir: &Path, lib: &str, others: &[(&str, &str)]) -> (String, String) {
    std::fs::create_dir_all(dir).expect("scratch dir");
    let core = crate_dir().join("..").join("matrix-core");
    let toml = format!(
        "[package]\nname = \"oracle-ill-typed\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
         [lib]\npath = \"lib.rs\"\n\n[dependencies]\nmatrix-core = {{ path = {:?} }}\n\n[workspace]\n",
        core.canonicalize().unwrap_or(core)
    );
    std::fs::write(dir.join("Cargo.toml"), toml).expect("write Cargo.toml");
    std::fs::write(dir.join("lib.rs"), lib).expect("write lib.rs");
    for (name, text) in others {
        std::fs::write(dir.join(name), text).unwrap_or_else(|e| panic!("write {name}: {e}"));
    }
    let lock = crate_dir().join("..").join("Cargo.lock");
    if !dir.join("Cargo.lock").exists()
        && let Ok(l) = std::fs::read(&lock)
    {
        std::fs::write(dir.join("Cargo.lock"), l).expect("write Cargo.lock");
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let (_, out, err) = run(Command::new(cargo)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("CARGO_BUILD_TARGET_DIR")
        .args(["check", "--lib", "--message-format=json"]));
    (out, err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aka_parts_are_removed() {
        let m = "invalid operands to binary expression ('m4x4_t' (aka 'float __attribute__((matrix_type(4, 4)))') and 'm4x3_t' (aka 'float __attribute__((matrix_type(4, 3)))'))";
        assert_eq!(
            normalize_clang(m),
            "invalid operands to binary expression ('m4x4_t' and 'm4x3_t')"
        );
        assert_eq!(
            normalize_clang(
                "cannot convert between vector values of different size ('u8v3' (vector of 3 'unsigned char' values) and 'float')"
            ),
            "cannot convert between vector values of different size ('u8v3' and 'float')"
        );
        assert_eq!(
            normalize_clang(
                "implicit conversion from 'double' to 'int' changes value from 2.5 to 2 [-Werror,-Wliteral-conversion]"
            ),
            "implicit conversion from 'double' to 'int' changes value from 2.5 to 2"
        );
    }

    #[test]
    fn clang_lines_are_parsed() {
        let e = "x.c:12:5: error: zero matrix size\nx.c:13:1: warning: w\n   12 | foo\n";
        assert_eq!(
            clang_errors(e, "x.c"),
            vec![Diag {
                line: 12,
                msg: "zero matrix size".into()
            }]
        );
    }

    #[test]
    fn json_reads_cargo_messages() {
        let l = r#"{"reason":"compiler-message","message":{"level":"error","message":"a \"b\" \u00e9","spans":[{"file_name":"lib.rs","line_start":7,"is_primary":true}]}}"#;
        let (here, other) = cargo_errors(l, "lib.rs");
        assert!(other.is_empty());
        assert_eq!(
            here,
            vec![Diag {
                line: 7,
                msg: "a \"b\" é".into()
            }]
        );
    }

    #[test]
    fn c_outputs_are_parsed() {
        let m = parse_c_outputs("@ k1 ret 2 1 2\nnoise\n@ k1 dst0 1 9\n");
        assert_eq!(m["k1"]["ret"], (2, vec![1, 2]));
        assert_eq!(m["k1"]["dst0"], (1, vec![9]));
    }
}
