use matrix_core::matrix;

matrix! {
    pub typedef bool b2x2_t __attribute__((matrix_type(2, 2)));
}

fn main() {}
