use matrix_core::matrix;

matrix! {
    pub typedef int i4x4_t __attribute__((matrix_type(4, 4)));

    pub fn add(i: i4x4_t) -> i4x4_t {
        i + 2.5
    }
}

fn main() {}
