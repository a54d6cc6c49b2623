use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    #[dispatch]
    pub const fn first(a: m4x4_t) -> f32 {
        a[0][0]
    }
}

fn main() {}
