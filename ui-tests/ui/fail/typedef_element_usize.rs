use matrix_core::matrix;

matrix! {
    pub typedef usize z2x2_t __attribute__((matrix_type(2, 2)));
}

fn main() {}
