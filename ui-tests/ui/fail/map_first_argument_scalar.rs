use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));

    pub fn f(a: m4x4_t, b: m2x2_t) -> m4x4_t {
        __builtin_matrix_map(1.0f32, |x| x)
    }
}

fn main() {}
