use matrix_core::matrix;

matrix! {
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn store(c: m4x3_t, dst: &mut [f32]) {
        __builtin_matrix_column_major_store(c, dst, 3);
    }
}

fn main() {}
