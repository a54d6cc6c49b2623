use matrix_core::matrix;

matrix! {
    pub typedef real_number real;
}

fn main() {}
