use matrix_core::matrix;

matrix! {
    pub typedef float big_t __attribute__((matrix_type(1048576, 1048576)));
}

fn main() {}
