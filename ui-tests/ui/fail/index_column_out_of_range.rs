use matrix_core::matrix;

matrix! {
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn get(c: m4x3_t) -> f32 {
        c[0][3]
    }
}

fn main() {}
