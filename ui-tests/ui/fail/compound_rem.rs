use matrix_core::matrix;

matrix! {
    pub typedef int i4x4_t __attribute__((matrix_type(4, 4)));

    pub fn rem_assign(mut i: i4x4_t) -> i4x4_t {
        i %= 2;
        i
    }
}

fn main() {}
