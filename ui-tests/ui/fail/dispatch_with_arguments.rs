use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    #[dispatch(avx2)]
    pub fn mul(a: m4x4_t, b: m4x4_t) -> m4x4_t {
        a * b
    }
}

fn main() {}
