use matrix_core::matrix;

pub fn source() -> &'static [f32] {
    &[0.0; 16]
}

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn load() -> m4x4_t {
        __builtin_matrix_column_major_load(source(), 4, 4, 4)
    }
}

fn main() {}
