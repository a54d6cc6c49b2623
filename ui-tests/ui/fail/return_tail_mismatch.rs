use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef double d4x4_t __attribute__((matrix_type(4, 4)));

    pub fn ret(x: d4x4_t) -> m4x4_t {
        x
    }
}

fn main() {}
