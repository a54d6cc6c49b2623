//! Compiles `c/transform.c` with clang-19's `-fenable-matrix` for the
//! `c_interop` example. Without clang-19 the example is built without it
//! and says so when run; under `CI=true` a missing clang-19 fails the build.

fn main() {
    println!("cargo::rerun-if-changed=c/transform.c");
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rustc-check-cfg=cfg(clang_matrix)");
    let built = cc::Build::new()
        .compiler("clang-19")
        .file("c/transform.c")
        // Clang's matrix types; no contraction, so its products round each
        // operation as the `matrix!` kernels do in exact mode.
        .flag("-fenable-matrix")
        .flag("-ffp-contract=off")
        .cargo_warnings(false)
        // The example links the library itself (`#[link]`): cargo's
        // `rustc-link-lib` would reach the package's library only.
        .cargo_metadata(false)
        .try_compile("matrix_transform");
    match built {
        Ok(()) => {
            let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
            println!("cargo::rustc-link-search=native={out}");
            println!("cargo::rustc-cfg=clang_matrix");
        }
        Err(e) if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("clang-19 could not compile c/transform.c: {e}")
        }
        Err(e) => println!("cargo::warning=c_interop runs without C: clang-19 failed ({e})"),
    }
}
