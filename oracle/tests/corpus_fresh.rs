//! The checked-in corpus is exactly what the generator prints for the seed
//! and counts recorded in `corpus/manifest.tsv` (no clang needed).

use matrix_oracle::corpus::{self, Corpus};
use matrix_oracle::harness;

fn header_value(manifest: &str, key: &str) -> u64 {
    manifest
        .lines()
        .find_map(|l| l.strip_prefix(&format!("# {key}\t")))
        .unwrap_or_else(|| panic!("manifest has no '# {key}' line"))
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("manifest '# {key}': {e}"))
}

#[test]
fn corpus_matches_the_generator() {
    let root = harness::crate_dir();
    let manifest = std::fs::read_to_string(root.join("corpus/manifest.tsv"))
        .expect("read corpus/manifest.tsv");
    let seed = header_value(&manifest, "seed");
    let count = header_value(&manifest, "kernels") as usize;
    let mutants = header_value(&manifest, "mutants") as usize;
    assert!(count >= 300, "only {count} kernels");
    assert!(mutants >= 100, "only {mutants} mutants");
    let c = Corpus::generate(seed, count, mutants);
    let mut stale = Vec::new();
    for f in c.files() {
        let on_disk = std::fs::read_to_string(root.join(&f.path)).unwrap_or_default();
        if on_disk != f.text {
            stale.push(f.path);
        }
    }
    assert!(
        stale.is_empty(),
        "corpus files differ from the generator's output: {stale:?}\nregenerate with: {}",
        corpus::command(seed, count, mutants)
    );
}
