use matrix_core::matrix;

matrix! {
    pub typedef signed char m6x5_t __attribute__((matrix_type(6, 5)));

    pub fn store(m: m6x5_t, dst: &mut [i8]) {
        // A packed_b line of 1-byte elements is 4 rows of each column: 20.
        __builtin_matrix_store(m, dst, packed_b, 19);
    }
}

fn main() {}
