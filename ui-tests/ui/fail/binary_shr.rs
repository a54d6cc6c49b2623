use matrix_core::matrix;

matrix! {
    pub typedef int i4x4_t __attribute__((matrix_type(4, 4)));

    pub fn shr(i: i4x4_t, j: i4x4_t) -> i4x4_t {
        i >> j
    }
}

fn main() {}
