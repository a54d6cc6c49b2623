mod kernels {
    use matrix_core::matrix;

    matrix! {
        pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));
        pub(crate) typedef int i2x2_t __attribute__((matrix_type(2, 2)));
        typedef double private_t __attribute__((matrix_type(2, 2)));

        pub fn trace(m: m2x2_t) -> f32 {
            m[0][0] + m[1][1]
        }

        pub(crate) fn sum(m: i2x2_t) -> i32 {
            let d: private_t = (private_t) m;
            (d[0][0] + d[0][1] + d[1][0] + d[1][1]) as i32
        }
    }
}

use kernels::{i2x2_t, m2x2_t};

fn main() {
    assert_eq!(kernels::trace(m2x2_t::from_rows([[1.0, 2.0], [3.0, 4.0]])), 5.0);
    assert_eq!(kernels::sum(i2x2_t::from_rows([[1, 2], [3, 4]])), 10);
}
