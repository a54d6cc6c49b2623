use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    #[dispatch]
    pub fn pick<'a>(a: &'a m4x4_t, b: &'a m4x4_t) -> &'a m4x4_t {
        a
    }
}

fn main() {}
