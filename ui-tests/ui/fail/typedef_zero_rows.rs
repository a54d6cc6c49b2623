use matrix_core::matrix;

matrix! {
    pub typedef float z_t __attribute__((matrix_type(0, 4)));
}

fn main() {}
