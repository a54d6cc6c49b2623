use matrix_core::matrix;

matrix! {
    pub static ROWS: usize = 4;

    pub typedef float m_t __attribute__((matrix_type(ROWS, 4)));
}

fn main() {}
