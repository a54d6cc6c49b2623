use matrix_core::matrix;

matrix! {
    pub typedef float m2x3r_t __attribute__((matrix_type(2, 3, row_major)));

    // A column-major load gives a column-major matrix.
    pub fn f(src: &[f32]) -> m2x3r_t {
        __builtin_matrix_column_major_load(src, 2, 3, 2)
    }
}

fn main() {}
