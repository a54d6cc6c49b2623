use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn load(a: m4x4_t) -> m4x4_t {
        __builtin_matrix_column_major_load(a, 4, 4, 4)
    }
}

fn main() {}
