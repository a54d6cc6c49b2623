//! Tells the code whether `matrix-core` itself is optimised: at opt-level 0
//! the run-time-shape product kernels (`kernels::dynamic`) use a plain loop,
//! since there every SIMD intrinsic is a function call.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(matrix_core_opt0)");
    println!("cargo::rerun-if-env-changed=OPT_LEVEL");
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        println!("cargo::rustc-cfg=matrix_core_opt0");
    }
}
