use matrix_core::matrix;

matrix! {
    pub typedef unsigned u2x2_t __attribute__((matrix_type(2, 2)));

    /// `-1` becomes `UINT_MAX`, as in Clang; the sum wraps, no error.
    pub fn dec(u: u2x2_t) -> u2x2_t {
        u + -1
    }
}

fn main() {
    let u = u2x2_t::from_columns([[0, 1], [2, 3]]);
    assert_eq!(dec(u).to_columns(), [[u32::MAX, 0], [1, 2]]);
}
