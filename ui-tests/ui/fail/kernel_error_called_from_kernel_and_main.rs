use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn broken(a: m4x4_t, c: m4x3_t) -> m4x4_t {
        a - c
    }

    pub fn caller(a: m4x4_t, c: m4x3_t) -> m4x4_t {
        broken(a, c) * 2.0
    }
}

fn main() {
    let r = caller(m4x4_t::splat(1.0), m4x3_t::splat(1.0));
    assert_eq!(r[(0, 0)], 0.0);
}
