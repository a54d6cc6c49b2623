use matrix_core::matrix;

matrix! {
    pub typedef float m3x4_t __attribute__((matrix_type(3, 4)));

    pub fn set(mut c: m3x4_t) -> m3x4_t {
        c[0][4] = 1.0;
        c
    }
}

fn main() {}
