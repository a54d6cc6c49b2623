use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));

    pub fn f(m: m4x4_t) -> m4x4_t {
        let g = |a: m4x4_t| -> m2x2_t { a * a };
        m
    }
}

fn main() {}
