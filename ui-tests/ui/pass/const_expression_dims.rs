use matrix_core::{Matrix, matrix};

matrix! {
    pub const N: usize = 1;

    pub typedef float m_t __attribute__((matrix_type((N + 1) * 2, N + 2)));

    pub fn first(m: m_t) -> f32 {
        m[(N + 1) * 2 - 1][N + 1]
    }
}

fn main() {
    let m: Matrix<f32, 4, 3> = m_t::from_fn(|r, c| (10 * r + c) as f32);
    assert_eq!(first(m), 32.0);
}
