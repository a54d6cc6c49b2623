use matrix_core::matrix;

matrix! {
    pub typedef signed char m4x4_t __attribute__((matrix_type(4, 4)));

    // packed_b packs groups of rows: the load's matrix is row-major.
    pub fn load(src: &[i8]) -> m4x4_t {
        __builtin_matrix_load(src, 4, 4, packed_b)
    }
}

fn main() {}
