use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn add_assign(mut s: f32, a: m4x4_t) -> f32 {
        s += a;
        s
    }
}

fn main() {}
