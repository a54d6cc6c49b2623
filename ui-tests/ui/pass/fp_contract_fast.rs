use matrix_core::matrix;

mod block {
    use matrix_core::matrix;

    matrix! {
        #![fp_contract(fast)]

        pub typedef double d2x2_t __attribute__((matrix_type(2, 2)));

        pub fn madd(a: d2x2_t, b: d2x2_t, c: d2x2_t) -> d2x2_t {
            a * b + c
        }
    }
}

matrix! {
    pub typedef double d2x2_t __attribute__((matrix_type(2, 2)));

    #[fp_contract(fast)]
    pub fn madd(a: d2x2_t, b: d2x2_t, c: d2x2_t) -> d2x2_t {
        a * b + c
    }

    #[fp_contract(off)]
    pub fn madd_off(a: d2x2_t, b: d2x2_t, c: d2x2_t) -> d2x2_t {
        a * b + c
    }
}

fn main() {
    // Exact inputs: contracted or not, the results agree.
    let a = d2x2_t::from_rows([[1.0, 2.0], [3.0, 4.0]]);
    let b = d2x2_t::identity();
    let c = d2x2_t::splat(0.5);
    let want = [[1.5, 2.5], [3.5, 4.5]];
    assert_eq!(madd(a, b, c).to_rows(), want);
    assert_eq!(madd_off(a, b, c).to_rows(), want);
    assert_eq!(block::madd(a, b, c).to_rows(), want);
}
