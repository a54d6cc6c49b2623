use matrix_core::matrix;

matrix! {
    pub typedef int i2x2_t __attribute__((matrix_type(2, 2)));

    /// Calls a kernel declared after it.
    pub fn quadruple(m: i2x2_t) -> i2x2_t {
        double(double(m))
    }

    pub fn double(m: i2x2_t) -> i2x2_t {
        m + m
    }

    /// Calls a kernel declared before it.
    pub fn octuple(m: i2x2_t) -> i2x2_t {
        double(quadruple(m))
    }
}

fn main() {
    let m = i2x2_t::from_rows([[1, 2], [3, 4]]);
    assert_eq!(quadruple(m).to_rows(), [[4, 8], [12, 16]]);
    assert_eq!(octuple(m).to_rows(), [[8, 16], [24, 32]]);
}
