use matrix_core::matrix;

// matrix-core's `bf16` and `f16` features are off in this crate.
matrix! {
    pub typedef __bf16 b2x2 __attribute__((matrix_type(2, 2)));
    pub typedef _Float16 h2x2 __attribute__((matrix_type(2, 2)));
    pub fn widen(a: Matrix<bf16, 2, 2>) -> Matrix<bf16, 2, 2> { a }
}

fn main() {}
