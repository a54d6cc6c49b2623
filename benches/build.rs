//! Builds the clang-19 matrix-type kernels in `c/matrix.c` (benchmark column
//! (e)) twice: `-ffp-contract=off` (symbols `*_off`) and `-ffp-contract=fast
//! -mprefer-vector-width=512` (symbols `*_fast`), both with `-O3
//! -fenable-matrix -march=native`. Without clang-19 the crate still builds:
//! the cfg `has_clang19` is not set, the clang columns are skipped, and a
//! note is printed.

use std::path::Path;
use std::process::Command;

fn find_clang() -> Option<String> {
    // CLANG19, when set, is the only candidate (set it to a missing path to
    // build without the clang columns).
    let candidates = match std::env::var("CLANG19") {
        Ok(c) => vec![c],
        Err(_) => vec!["/usr/bin/clang-19".to_owned(), "clang-19".to_owned()],
    };
    candidates.into_iter().find(|c| {
        Command::new(c).arg("--version").output().is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("version 19")
        })
    })
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(has_clang19)");
    println!("cargo::rerun-if-changed=c/matrix.c");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=CLANG19");
    let Some(clang) = find_clang() else {
        println!(
            "cargo::warning=clang-19 not found (set CLANG19 to its path): the clang-19 benchmark columns are skipped"
        );
        return;
    };
    let src = Path::new("c/matrix.c");
    let variants: [(&str, &[&str]); 2] = [
        ("off", &["-ffp-contract=off"]),
        ("fast", &["-ffp-contract=fast", "-mprefer-vector-width=512"]),
    ];
    // The two builds take ~20 s and ~5 s (clang unrolls the 64x64 product
    // fully); run them side by side, each in its own directory: `cc` names
    // the object after the source, so in one directory the two builds
    // wrote the same file, and one archive could get the other's object
    // (a link then failed for want of one variant's symbols).
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::thread::scope(|s| {
        for (suffix, flags) in variants {
            let (clang, out) = (&clang, &out);
            s.spawn(move || {
                let mut b = cc::Build::new();
                b.compiler(clang)
                    .out_dir(out.join(suffix))
                    .file(src)
                    .opt_level(3)
                    .flag("-fenable-matrix")
                    .flag("-march=native")
                    .define("SUFFIX", format!("_{suffix}").as_str())
                    .warnings(true);
                for f in flags {
                    b.flag(f);
                }
                b.compile(&format!("matrix_clang_{suffix}"));
            });
        }
    });
    println!("cargo::rustc-cfg=has_clang19");
}
