use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn addr(a: m4x4_t) -> f32 {
        let p = &a[0][0];
        *p
    }
}

fn main() {}
