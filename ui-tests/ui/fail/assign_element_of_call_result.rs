use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn get() -> m4x4_t {
        m4x4_t::splat(0.0)
    }

    pub fn set() {
        get()[0][0] = 1.0;
    }
}

fn main() {}
