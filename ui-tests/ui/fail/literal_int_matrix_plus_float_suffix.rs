use matrix_core::matrix;

matrix! {
    pub typedef int i4x4_t __attribute__((matrix_type(4, 4)));

    // `2.5f` is C's `float` literal, so the conversion is from 'float'.
    pub fn add(i: i4x4_t) -> i4x4_t {
        i + 2.5f
    }
}

fn main() {}
