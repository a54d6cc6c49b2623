use matrix_core::matrix;

matrix! {
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn store(m: m4x3_t, dst: &mut [f32]) {
        __builtin_matrix_row_major_store(m, dst, 2);
    }
}

fn main() {}
