//! Every diagnostic of `matrix!`, and the near misses that must compile.
//!
//! Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test -p matrix-ui-tests`, then read every
//! `.stderr`: each should hold exactly the macro's error, worded as Clang
//! words it, underlining the offending tokens, and nothing from rustc after it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
