use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn shape(a: m4x4_t, c: m4x3_t) -> m4x4_t {
        a + c
    }

    pub fn index(a: m4x4_t) -> f32 {
        a[4][0]
    }

    pub fn negate(a: m4x4_t) -> m4x4_t {
        -a
    }

    pub fn store(a: m4x4_t, dst: &[f32]) {
        __builtin_matrix_column_major_store(a, dst, 4);
    }
}

fn main() {}
