use matrix_core::matrix;

matrix! {
    pub typedef int i2x2_t __attribute__((matrix_type(2, 2)));

    /// 2.0 converts to 2 exactly: no diagnostic.
    pub fn add(i: i2x2_t) -> i2x2_t {
        i + 2.0
    }
}

fn main() {
    let i = i2x2_t::from_rows([[1, -1], [7, -7]]);
    assert_eq!(add(i).to_rows(), [[3, 1], [9, -5]]);
}
