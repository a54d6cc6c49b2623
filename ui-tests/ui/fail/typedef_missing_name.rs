use matrix_core::matrix;

matrix! {
    pub typedef __attribute__((matrix_type(4, 4)));
}

fn main() {}
