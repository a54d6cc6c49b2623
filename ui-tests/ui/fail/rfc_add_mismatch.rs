use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn add(a: m4x4_t, c: m4x3_t) -> m4x4_t {
        __builtin_matrix_add(a, c)
    }
}

fn main() {}
