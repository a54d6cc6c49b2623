use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn or(a: m4x4_t, t: bool) -> bool {
        a || t
    }
}

fn main() {}
