use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn set(mut a: m4x4_t, s: f32) -> m4x4_t {
        a[2] = s;
        a
    }
}

fn main() {}
