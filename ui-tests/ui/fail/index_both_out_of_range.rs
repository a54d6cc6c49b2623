use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn get(a: m4x4_t) -> f32 {
        a[4][4]
    }
}

fn main() {}
