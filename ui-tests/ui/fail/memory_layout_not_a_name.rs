use matrix_core::matrix;

matrix! {
    pub typedef signed char m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn store(m: m4x4_t, dst: &mut [i8]) {
        __builtin_matrix_store(m, dst, "packed_b");
    }
}

fn main() {}
