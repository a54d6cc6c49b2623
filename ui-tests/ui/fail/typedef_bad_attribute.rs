use matrix_core::matrix;

matrix! {
    pub typedef float v_t __attribute__((vector_size(16)));
}

fn main() {}
