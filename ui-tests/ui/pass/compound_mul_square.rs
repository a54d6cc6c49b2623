use matrix_core::matrix;

matrix! {
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));

    pub fn mul_assign(mut a: m2x2_t, b: m2x2_t) -> m2x2_t {
        a *= b;
        a
    }
}

fn main() {
    let a = m2x2_t::from_rows([[1.0, 2.0], [3.0, 4.0]]);
    let b = m2x2_t::from_rows([[5.0, 6.0], [7.0, 8.0]]);
    assert_eq!(mul_assign(a, b).to_rows(), [[19.0, 22.0], [43.0, 50.0]]);
}
