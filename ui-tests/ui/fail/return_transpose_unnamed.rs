use matrix_core::matrix;

matrix! {
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn ret(c: m4x3_t) -> m4x3_t {
        __builtin_matrix_transpose(c)
    }
}

fn main() {}
