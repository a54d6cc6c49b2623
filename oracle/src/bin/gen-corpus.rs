//! Regenerates the checked-in corpus under `oracle/corpus/`.
//!
//! `cargo run -p matrix-oracle --bin gen-corpus -- --seed 2026 --count 320 --mutants 180`
//! (`--check` compares instead of writing, and fails if a file differs).

use std::path::PathBuf;
use std::process::ExitCode;

use matrix_oracle::corpus::Corpus;

fn main() -> ExitCode {
    let mut seed = 2026u64;
    let mut count = 320usize;
    let mut mutants = 180usize;
    let mut check = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = |name: &str| {
            args.next()
                .unwrap_or_else(|| panic!("{name} needs a value"))
                .parse::<u64>()
                .unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        match a.as_str() {
            "--seed" => seed = val("--seed"),
            "--count" => count = val("--count") as usize,
            "--mutants" => mutants = val("--mutants") as usize,
            "--check" => check = true,
            other => {
                eprintln!(
                    "unknown argument {other}\nusage: gen-corpus [--seed N] [--count N] [--mutants N] [--check]"
                );
                return ExitCode::FAILURE;
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let corpus = Corpus::generate(seed, count, mutants);
    let files = corpus.files();
    let mut stale = 0;
    if !check {
        let dir = root.join(matrix_oracle::corpus::DIR);
        std::fs::create_dir_all(&dir).expect("create corpus dir");
        // Remove chunk files of an earlier, larger corpus.
        for e in std::fs::read_dir(&dir).expect("read corpus dir").flatten() {
            let p = e.path();
            let keep = files.iter().any(|f| root.join(&f.path) == p);
            if !keep
                && p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("kernels_"))
            {
                std::fs::remove_file(&p).expect("remove stale file");
            }
        }
    }
    for f in &files {
        let path = root.join(&f.path);
        if check {
            let old = std::fs::read_to_string(&path).unwrap_or_default();
            if old != f.text {
                eprintln!("stale: {}", f.path);
                stale += 1;
            }
        } else {
            std::fs::write(&path, &f.text).unwrap_or_else(|e| panic!("write {}: {e}", f.path));
        }
    }
    if check && stale > 0 {
        eprintln!("{stale} corpus file(s) differ from the generator's output");
        return ExitCode::FAILURE;
    }
    println!(
        "{} {} kernels in {} chunks, {} row-major kernels and {} mutants (seed {seed}) under oracle/{}",
        if check { "checked" } else { "wrote" },
        corpus.kernels.len(),
        corpus.chunks(),
        corpus.row_major.len(),
        corpus.mutants.len(),
        matrix_oracle::corpus::DIR
    );
    ExitCode::SUCCESS
}
