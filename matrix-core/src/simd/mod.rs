//! SIMD backends (placeholder until the backends land).

/// The name of the backend compiled in.
pub const BACKEND: &str = "scalar";
