use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m4x3_t __attribute__((matrix_type(4, 3)));

    pub fn broken(a: m4x4_t, c: m4x3_t) -> m4x4_t {
        a * c
    }

    pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t {
        a * b + c
    }
}

fn main() {
    let one = m4x4_t::identity();
    let r = madd(one, one, one);
    assert_eq!(r[(0, 0)], 2.0);
}
