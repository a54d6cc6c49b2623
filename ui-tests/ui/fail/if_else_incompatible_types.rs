use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn pick(t: bool, a: m4x4_t, c: m4x3_t) -> m4x4_t {
        let r = if t { a } else { c };
        r
    }
}

fn main() {}
