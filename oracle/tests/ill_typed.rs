//! Ill-typed mutants of the corpus kernels (`corpus/ill_typed.{c,rs}`):
//! clang-19 must reject each marked C line, and the `matrix!` macro the
//! marked Rust line, with the same message once Clang's `(aka '...')` parts
//! (and a `[-W...]` flag) are removed. All mutants sit in one C file and in
//! one `matrix!` block, compiled with `cargo check` in a scratch crate
//! under `target/`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use matrix_oracle::harness::{self, Diag};

struct MutantInfo {
    name: String,
    kind: String,
    expect: String,
}

fn manifest() -> Vec<MutantInfo> {
    let text = std::fs::read_to_string(harness::crate_dir().join("corpus/manifest.tsv"))
        .expect("read corpus/manifest.tsv");
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            if f.first() != Some(&"mutant") || f.len() < 5 {
                return None;
            }
            let (kind, expect) = f[4].split_once(": ").expect("kind: phrase");
            Some(MutantInfo {
                name: f[1].to_string(),
                kind: kind.to_string(),
                expect: expect.to_string(),
            })
        })
        .collect()
}

/// Errors grouped by owning mutant; errors outside any mutant go under
/// `None`.
fn by_owner(diags: &[Diag], owners: &[Option<usize>]) -> BTreeMap<Option<usize>, Vec<Diag>> {
    let mut m: BTreeMap<Option<usize>, Vec<Diag>> = BTreeMap::new();
    for d in diags {
        let o = owners.get(d.line).copied().flatten();
        m.entry(o).or_default().push(d.clone());
    }
    m
}

#[test]
fn mutants_are_rejected_like_clang() {
    let Some(clang) = harness::require_clang("mutants_are_rejected_like_clang") else {
        return;
    };
    let dir = harness::crate_dir().join("corpus");
    let muts = manifest();
    assert!(
        muts.len() >= 100,
        "the corpus has only {} mutants",
        muts.len()
    );
    let names: Vec<String> = muts.iter().map(|m| m.name.clone()).collect();
    let c_path = dir.join("ill_typed.c");
    let c_text = std::fs::read_to_string(&c_path).expect("read ill_typed.c");
    let rs_text = std::fs::read_to_string(dir.join("ill_typed.rs")).expect("read ill_typed.rs");
    let c_markers: Vec<String> = names
        .iter()
        .map(|n| format!("/* {} */", n.to_uppercase()))
        .collect();
    let rs_markers: Vec<String> = names
        .iter()
        .map(|n| format!("// {}", n.to_uppercase()))
        .collect();
    let c_lines = harness::marker_lines(&c_text, &c_markers);
    let rs_lines = harness::marker_lines(&rs_text, &rs_markers);
    let c_own = harness::owners(&c_text, &names, &c_markers);
    let rs_own = harness::owners(&rs_text, &names, &rs_markers);

    // C side.
    let (_, _, stderr) = harness::run(
        Command::new(&clang)
            .args(harness::CHECK_FLAGS)
            .arg("ill_typed.c")
            .current_dir(&dir),
    );
    let c_errs = by_owner(&harness::clang_errors(&stderr, "ill_typed.c"), &c_own);

    // Rust side.
    // The well-typed kernels of accept.{c,rs}: clang-19 accepts the C.
    let accept_c = harness::run(
        Command::new(&clang)
            .args(["-fenable-matrix", "-fsyntax-only"])
            .arg("accept.c")
            .current_dir(&dir),
    );
    let accept_c_errors = harness::clang_errors(&accept_c.2, "accept.c");
    let accept_rs = std::fs::read_to_string(dir.join("accept.rs")).expect("read accept.rs");

    let scratch = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("oracle-ill-typed");
    let (stdout, cargo_err) =
        harness::check_scratch_crate(&scratch, &rs_text, &[("accept.rs", &accept_rs)]);
    let (rs_diags, other) = harness::cargo_errors(&stdout, "lib.rs");
    let (accept_diags, other) = {
        let (a, _) = harness::cargo_errors(&stdout, "accept.rs");
        let other: Vec<String> = other
            .into_iter()
            .filter(|m| !a.iter().any(|d| &d.msg == m))
            .collect();
        (a, other)
    };
    assert!(
        !rs_diags.is_empty() || !other.is_empty(),
        "cargo check of the mutants reported no error at all; cargo said:\n{cargo_err}"
    );
    let rs_errs = by_owner(&rs_diags, &rs_own);

    let mut ok = 0;
    let mut generator_bugs = Vec::new();
    let mut failures = Vec::new();
    let mut per_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (i, m) in muts.iter().enumerate() {
        let (Some(cl), Some(rl)) = (c_lines[i], rs_lines[i]) else {
            generator_bugs.push(format!("{}: marker not found", m.name));
            continue;
        };
        let none = Vec::new();
        let ce = c_errs.get(&Some(i)).unwrap_or(&none);
        let re = rs_errs.get(&Some(i)).unwrap_or(&none);
        let entry = per_kind.entry(m.kind.as_str()).or_default();
        entry.1 += 1;
        // The oracle: clang's errors on the marked line.
        let expected: Vec<String> = ce
            .iter()
            .filter(|d| d.line == cl)
            .map(|d| harness::normalize_clang(&d.msg))
            .collect();
        let stray_c: Vec<&Diag> = ce.iter().filter(|d| d.line != cl).collect();
        if expected.is_empty()
            || !expected.iter().any(|e| e.starts_with(&m.expect))
            || !stray_c.is_empty()
        {
            generator_bugs.push(format!(
                "{} ({}): clang-19 did not reject the marked line {cl} with '{}...' alone: {:?}",
                m.name, m.kind, m.expect, ce
            ));
            continue;
        }
        let on_line: Vec<&str> = re
            .iter()
            .filter(|d| d.line == rl)
            .map(|d| d.msg.as_str())
            .collect();
        let stray_rs: Vec<&Diag> = re.iter().filter(|d| d.line != rl).collect();
        let matched = expected.iter().all(|e| on_line.contains(&e.as_str()));
        if matched && stray_rs.is_empty() {
            ok += 1;
            entry.0 += 1;
            continue;
        }
        let what = if re.is_empty() {
            "accepted by the macro (no error in this kernel)".to_string()
        } else if on_line.is_empty() {
            format!("rejected on another line: {stray_rs:?}")
        } else if !matched {
            format!("wrong message: macro said {on_line:?}")
        } else {
            format!("extra errors on other lines: {stray_rs:?}")
        };
        failures.push(format!(
            "{} ({}), ill_typed.rs:{rl} / ill_typed.c:{cl}: clang-19 says {:?}; {what}",
            m.name, m.kind, expected
        ));
    }
    let outside_c = c_errs.get(&None).cloned().unwrap_or_default();
    let outside_rs = rs_errs.get(&None).cloned().unwrap_or_default();
    eprintln!(
        "matrix-oracle: {ok} of {} ill-typed mutants rejected by the macro with clang-19's message on the same line",
        muts.len()
    );
    for (k, (good, n)) in &per_kind {
        eprintln!("    {k:<24} {good}/{n}");
    }
    let mut report = String::new();
    for f in generator_bugs.iter().chain(&failures) {
        report.push_str(&format!("  {f}\n"));
    }
    for d in &outside_c {
        report.push_str(&format!(
            "  ill_typed.c:{}: error outside any mutant: {}\n",
            d.line, d.msg
        ));
    }
    for d in &outside_rs {
        report.push_str(&format!(
            "  ill_typed.rs:{}: error outside any mutant: {}\n",
            d.line, d.msg
        ));
    }
    for d in &accept_c_errors {
        report.push_str(&format!(
            "  accept.c:{}: clang-19 rejects a kernel of the well-typed corpus (generator bug): {}\n",
            d.line, d.msg
        ));
    }
    let accept_lines: Vec<&str> = accept_rs.lines().collect();
    for d in &accept_diags {
        let kernel = accept_lines[..d.line.min(accept_lines.len())]
            .iter()
            .rev()
            .find_map(|l| l.trim_start().strip_prefix("pub fn "))
            .and_then(|l| l.split('(').next())
            .unwrap_or("?");
        report.push_str(&format!(
            "  accept.rs:{} ({kernel}): the macro rejects a kernel clang-19 accepts: {}\n",
            d.line, d.msg
        ));
    }
    let n_accept = accept_lines
        .iter()
        .filter(|l| l.trim_start().starts_with("pub fn "))
        .count();
    eprintln!(
        "matrix-oracle: {} of {n_accept} kernels in accept.rs (spellings the corpus avoids) accepted by the macro",
        n_accept.saturating_sub(
            accept_diags
                .iter()
                .map(|d| d.line)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        )
    );
    for msg in &other {
        report.push_str(&format!("  cargo: error without a span in lib.rs: {msg}\n"));
    }
    assert!(
        report.is_empty(),
        "{} mutant(s) not rejected like clang-19 ({} generator problems):\n{report}",
        failures.len(),
        generator_bugs.len()
    );
}
