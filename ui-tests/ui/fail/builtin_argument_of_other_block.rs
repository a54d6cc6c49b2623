use matrix_core::matrix;

matrix! {
    pub typedef float m3_t __attribute__((matrix_type(3, 3)));
}

matrix! {
    // `m3_t` is the block above's: this block checks no shape of it.
    pub fn t(a: m3_t) -> m3_t {
        __builtin_matrix_transpose(a)
    }
    pub fn stored(a: m3_t, b: m3_t, out: &mut [f32]) {
        __builtin_matrix_column_major_store(a * b, out, 3);
    }
}

fn main() {}
