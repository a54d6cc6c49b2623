//! trybuild cases in a Rust 2021 crate: Rust 2024 lexes no `##`, so the C
//! preprocessor's token pasting, and its errors, are written here.
