use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn insert(a: m4x4_t, b: m4x4_t) -> m4x4_t {
        __builtin_matrix_insert(a, 0, 0, b)
    }
}

fn main() {}
