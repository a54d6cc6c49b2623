use matrix_core::matrix;

matrix! {
    pub typedef signed char m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn load(src: &[i8]) -> m4x4_t {
        __builtin_matrix_load(src, 4, 4, packed_c)
    }
}

fn main() {}
