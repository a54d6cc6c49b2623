//! `matrix!` reached through a renamed dependency (`mc`), and re-exported
//! for other crates (`tests/reexport.rs` uses it through this crate only).

pub use mc::{Matrix, Vector, matrix};

mc::matrix! {
    /// A 2x2 `float` matrix.
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));
    /// A 2-element `float` vector.
    pub typedef float vec2 __attribute__((ext_vector_type(2)));

    /// `a * b + c`, `m * v`, a transpose, a subscript: each lowers to calls
    /// of the runtime, which the expansion must name as `mc`.
    pub fn kernel(a: m2x2_t, b: m2x2_t, c: m2x2_t, v: vec2, i: usize) -> vec2 {
        let m = __builtin_matrix_transpose(a * b + c);
        let mut w = m * v;
        w[i] += m[i][0];
        w
    }

    /// A `#[dispatch]` kernel, compiled once per backend.
    #[dispatch]
    pub fn twice(a: m2x2_t) -> m2x2_t {
        a + a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_of_a_renamed_dependency_run() {
        let a = m2x2_t::from_rows([[1.0, 2.0], [3.0, 4.0]]);
        let v = kernel(
            a,
            m2x2_t::identity(),
            m2x2_t::zero(),
            vec2::from_array([1.0, 1.0]),
            1,
        );
        // transpose(a) = [[1, 3], [2, 4]]; times (1, 1) = (4, 6); w[1] += m[1][0] = 2
        assert_eq!(v.to_array(), [4.0, 8.0]);
        assert_eq!(twice(a), a * 2.0);
    }
}
