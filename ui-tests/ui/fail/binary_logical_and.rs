use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn and(a: m4x4_t, b: m4x4_t) -> bool {
        a && b
    }
}

fn main() {}
