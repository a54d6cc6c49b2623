use matrix_core::matrix;

matrix! {
    pub typedef int i2x2_t __attribute__((matrix_type(2, 2)));

    /// `m[r][c]` as a place: plain and compound assignment, Rust's `+=` on
    /// the element.
    pub fn bump(mut m: i2x2_t, x: i32) -> i2x2_t {
        m[0][1] = x;
        m[1][0] += x;
        m[1][1] *= 3;
        m
    }
}

fn main() {
    let m = i2x2_t::from_rows([[1, 2], [3, 4]]);
    assert_eq!(bump(m, 10).to_rows(), [[1, 10], [13, 12]]);
}
