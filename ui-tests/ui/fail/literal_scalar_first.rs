use matrix_core::matrix;

matrix! {
    pub typedef int i4x4_t __attribute__((matrix_type(4, 4)));

    pub fn sub(i: i4x4_t) -> i4x4_t {
        0.5 - i
    }
}

fn main() {}
