use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn assign(a: m4x4_t, mut s: f32) -> f32 {
        s = a * s;
        s
    }
}

fn main() {}
