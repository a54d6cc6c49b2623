//! A `#![no_std]` library that uses `matrix-core` without its `std`
//! feature: the `matrix!` macro, the run-time backend choice (CPUID read
//! without `std`) and the operators must all build for it.

#![no_std]

use matrix_core::matrix;

matrix! {
    /// A 4x4 `float` matrix.
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    /// A 4-element `float` vector.
    pub typedef float vec4 __attribute__((ext_vector_type(4)));

    /// `a * b + c`, summed as Clang sums it.
    pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t {
        a * b + c
    }

    /// `m` times `v`, then `v` added.
    #[dispatch]
    pub fn transform(m: m4x4_t, v: vec4) -> vec4 {
        m * v + v
    }
}

/// The trace of `a * b + identity`, through the kernel.
pub fn trace_of_madd(a: m4x4_t, b: m4x4_t) -> f32 {
    let m = madd(a, b, m4x4_t::identity());
    (0..4).map(|i| m[(i, i)]).sum()
}

/// The name of the backend the kernels run on.
pub fn backend_name() -> &'static str {
    matrix_core::Backend::active().name()
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;

    #[test]
    fn kernels_run_without_std() {
        let a = m4x4_t::from_fn(|r, c| (r * 4 + c) as f32);
        assert_eq!(
            trace_of_madd(a, m4x4_t::identity()),
            0.0 + 5.0 + 10.0 + 15.0 + 4.0
        );
        let v = transform(m4x4_t::splat(1.0), vec4::from_array([1.0, 2.0, 3.0, 4.0]));
        assert_eq!(v.to_array(), [11.0, 12.0, 13.0, 14.0]);
        assert!(matrix_core::Backend::supported().any(|b| b.name() == backend_name()));
    }
}
