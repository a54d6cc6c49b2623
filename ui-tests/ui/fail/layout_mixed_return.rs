use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m4x4r_t __attribute__((matrix_type(4, 4, row_major)));

    pub fn f(b: m4x4r_t) -> m4x4_t {
        b
    }
}

fn main() {}
