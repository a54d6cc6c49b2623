use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn load(src: &[bool]) -> m4x4_t {
        __builtin_matrix_column_major_load(src, 4, 4, 4)
    }
}

fn main() {}
