use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn make() -> m4x4_t {
        m4x4_t::splat(0.0)
    }

    pub fn get() -> f32 {
        make()[4][0]
    }
}

fn main() {}
