use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn addr(mut a: m4x4_t) -> m4x4_t {
        let p = &mut a[0][0];
        *p = 1.0;
        a
    }
}

fn main() {}
