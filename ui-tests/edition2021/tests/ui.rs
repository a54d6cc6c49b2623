//! The C preprocessor's `##` in a block of a Rust 2021 crate: what pastes,
//! and Clang's errors for what does not. Regenerate the expected output
//! with `TRYBUILD=overwrite cargo test -p matrix-ui-tests-2021`.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
