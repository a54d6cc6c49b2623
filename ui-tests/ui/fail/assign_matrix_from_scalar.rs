use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn assign(mut a: m4x4_t, s: f32) -> m4x4_t {
        a = s;
        a
    }
}

fn main() {}
