use matrix_core::matrix;

matrix! {
    pub typedef float m_t __attribute__((matrix_type(4)));
}

fn main() {}
