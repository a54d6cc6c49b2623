//! Every corpus kernel, compiled by clang-19 (`-fenable-matrix
//! -ffp-contract=off -O1`) and by the `matrix!` macro, computes the same
//! outputs, bit for bit, on the same inputs (drawn from the kernel's seed
//! by the same SplitMix64 in C and in Rust). Floats compare by their bits,
//! except that any NaN equals any NaN. The row-major kernels (every type
//! `matrix_type(R, C, row_major)` in Rust) are compared with clang 22
//! compiling their C file with `-fmatrix-memory-layout=row-major`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::process::Command;

use matrix_oracle::harness::{self, Clang, Mismatch};
use matrix_oracle::rt::Runner;

include!("../corpus/chunks.rs");

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

struct ChunkResult {
    kernels: usize,
    agreeing: usize,
    compared_values: usize,
    mismatches: Vec<Mismatch>,
}

fn check_chunk(
    (clang, flags): (&std::path::Path, &[&str]),
    name: &str,
    kernels: &[(&str, Runner)],
) -> ChunkResult {
    // One directory per backend: the runs on the other backends (child
    // processes) compile the same chunks while this one runs.
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("matrix-oracle")
        .join(matrix_core::Backend::active().name());
    std::fs::create_dir_all(&dir).expect("tmp dir");
    let src = harness::crate_dir()
        .join("corpus")
        .join(format!("{name}.c"));
    let exe = dir.join(name);
    let warnings = harness::compile_c(clang, &src, &exe, flags);
    // A literal whose value changes is a warning in clang and an error in
    // the DSL: the well-typed corpus must have none.
    assert!(
        !warnings.contains("implicit conversion"),
        "{name}.c: clang warns about a conversion; the corpus is not well-typed:\n{warnings}"
    );
    let (ok, stdout, stderr) = harness::run(&mut Command::new(&exe));
    assert!(ok, "{name}: the C program failed:\n{stderr}");
    let c = harness::parse_c_outputs(&stdout);
    let mut res = ChunkResult {
        kernels: kernels.len(),
        agreeing: 0,
        compared_values: 0,
        mismatches: Vec::new(),
    };
    for &(k, runner) in kernels {
        let rust = match catch_unwind(AssertUnwindSafe(runner)) {
            Ok(r) => r,
            Err(e) => {
                let msg = e
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                res.mismatches.push(Mismatch {
                    kernel: k.into(),
                    what: format!("the Rust kernel panicked: {msg}"),
                });
                continue;
            }
        };
        res.compared_values += rust.iter().map(|o| o.bits.len()).sum::<usize>();
        let m = harness::compare(k, &rust, c.get(k));
        if m.is_empty() {
            res.agreeing += 1;
        }
        res.mismatches.extend(m);
    }
    res
}

#[test]
fn kernels_agree_with_clang() {
    let Some(clang) = harness::require_clang("kernels_agree_with_clang") else {
        return;
    };
    check_corpus((&clang, &[]), CHUNKS, "clang-19");
}

#[test]
fn row_major_kernels_agree_with_clang_22() {
    let Some(clang) = harness::require(Clang::V22, "row_major_kernels_agree_with_clang_22") else {
        return;
    };
    // At -O0: at -O1 clang 22's matrix lowering crashes on a transposed
    // operand of a row-major product (`__builtin_matrix_transpose(a) * b`).
    check_corpus(
        (&clang, &["-fmatrix-memory-layout=row-major", "-O0"]),
        ROW_MAJOR_CHUNKS,
        "clang 22 (row-major)",
    );
}

#[test]
fn vector_kernels_agree_with_clang() {
    let Some(clang) = harness::require_clang("vector_kernels_agree_with_clang") else {
        return;
    };
    // 256-bit and 512-bit vector arguments: both sides are clang's code, so
    // the ABI warning says nothing here.
    check_corpus(
        (&clang, &["-Wno-psabi"]),
        VECTOR_CHUNKS,
        "clang-19 (vectors)",
    );
}

#[test]
fn mixed_layout_kernels_agree_with_clang() {
    let Some(clang) = harness::require_clang("mixed_layout_kernels_agree_with_clang") else {
        return;
    };
    // Each kernel against its column-major twin: a layout moves elements,
    // never changes them.
    check_corpus((&clang, &[]), LAYOUT_CHUNKS, "clang-19 (layouts erased)");
}

/// Checks `chunks` (two at a time) against `clang` with `flags`, and
/// reports every disagreement.
fn check_corpus(
    clang: (&std::path::Path, &[&str]),
    chunks: &[(&str, &[(&str, Runner)])],
    oracle: &str,
) {
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(chunks.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(&(name, kernels)) = chunks.get(i) else {
                        break;
                    };
                    let r = check_chunk(clang, name, kernels);
                    results.lock().unwrap().push((name, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|r| r.0);
    let (mut kernels, mut agreeing, mut values) = (0, 0, 0);
    let mut mismatches = Vec::new();
    let mut files = Vec::new();
    for (name, r) in results {
        if !r.mismatches.is_empty() {
            files.push(format!("oracle/corpus/{name}.{{rs,c}}"));
        }
        kernels += r.kernels;
        agreeing += r.agreeing;
        values += r.compared_values;
        mismatches.extend(r.mismatches);
    }
    eprintln!(
        "matrix-oracle: {agreeing} of {kernels} kernels agree with {oracle} ({values} values compared)"
    );
    if !mismatches.is_empty() {
        let mut by_kernel: Vec<String> = mismatches.iter().map(|m| m.kernel.clone()).collect();
        by_kernel.dedup();
        let mut report = String::new();
        for m in mismatches.iter().take(60) {
            report.push_str(&format!("  {}: {}\n", m.kernel, m.what));
        }
        if mismatches.len() > 60 {
            report.push_str(&format!("  ... and {} more\n", mismatches.len() - 60));
        }
        panic!(
            "{} kernel(s) disagree with {oracle} ({} mismatching values or failures); \
             the kernels are in {}:\n{report}",
            by_kernel.len(),
            mismatches.len(),
            files.join(", ")
        );
    }
}
