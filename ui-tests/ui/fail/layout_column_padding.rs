use matrix_core::matrix;

// The RFC's padding clause is not built: it is named in the error, with the
// way to reach padded memory (a stride), rather than counted as a third
// argument.
matrix! {
    pub typedef float m3x3_p __attribute__((matrix_type(3, 3, column_padding(1))));
    pub typedef double d3x3_p __attribute__((matrix_type(3, 3, row_major, column_padding(2))));
}

fn main() {}
