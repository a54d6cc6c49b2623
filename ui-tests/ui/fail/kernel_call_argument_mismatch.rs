use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef int i4x4_t __attribute__((matrix_type(4, 4)));

    pub fn take(a: m4x4_t) -> m4x4_t {
        a
    }

    pub fn call(x: i4x4_t) -> m4x4_t {
        take(x)
    }
}

fn main() {}
