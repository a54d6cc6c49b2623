use matrix_core::matrix;

matrix! {
    pub typedef float z_t __attribute__((matrix_type(4, 0)));
}

fn main() {}
