use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn add(a: m4x4_t, s: f32) -> m4x4_t {
        __builtin_matrix_add(a, s)
    }
}

fn main() {}
