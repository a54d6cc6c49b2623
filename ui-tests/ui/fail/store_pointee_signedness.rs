use matrix_core::matrix;

matrix! {
    pub typedef unsigned u4x4_t __attribute__((matrix_type(4, 4)));

    pub fn store(u: u4x4_t, dst: &mut [i32]) {
        __builtin_matrix_column_major_store(u, dst, 4);
    }
}

fn main() {}
