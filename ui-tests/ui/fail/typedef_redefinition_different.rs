use matrix_core::matrix;

matrix! {
    pub typedef float t __attribute__((matrix_type(2, 2)));
    pub typedef float t __attribute__((matrix_type(2, 3)));
}

fn main() {}
