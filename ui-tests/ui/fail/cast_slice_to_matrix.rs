use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn cast(src: &[f32]) -> m4x4_t {
        src as m4x4_t
    }
}

fn main() {}
