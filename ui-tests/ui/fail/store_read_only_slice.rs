use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn store(a: m4x4_t, dst: &[f32]) {
        __builtin_matrix_column_major_store(a, dst, 4);
    }
}

fn main() {}
