use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn init() -> m4x4_t {
        let z: m4x4_t = 1.0;
        z
    }
}

fn main() {}
