use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t {
        a * b + c
    }

    pub fn call(a: m4x4_t) -> m4x4_t {
        madd(a, a)
    }
}

fn main() {}
