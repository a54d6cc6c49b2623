use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn cond(a: m4x4_t) -> f32 {
        if a {
            1.0
        } else {
            0.0
        }
    }
}

fn main() {}
