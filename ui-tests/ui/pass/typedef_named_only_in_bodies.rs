//! A typedef that only a kernel body names (a cast, a compound literal) is
//! used: the expansion names the type it stands for, and rustc must not
//! call the alias dead code.
#![deny(dead_code)]

mod kernels {
    use matrix_core::matrix;

    matrix! {
        pub typedef float vec4 __attribute__((ext_vector_type(4)));
        pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));
        pub typedef int mi2x2_t __attribute__((matrix_type(2, 2)));

        pub fn last(x: f32) -> f32 {
            let v = (vec4){x, 1, 2, 3};
            v.w
        }

        pub fn truncated(a: m2x2_t) -> m2x2_t {
            (m2x2_t) ((mi2x2_t) a)
        }
    }
}

fn main() {
    assert_eq!(kernels::last(0.5), 3.0);
    let a = matrix_core::Matrix::<f32, 2, 2>::splat(2.75);
    assert_eq!(kernels::truncated(a), matrix_core::Matrix::splat(2.0));
}
