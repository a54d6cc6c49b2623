use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn pick(a: m4x4_t, b: m4x4_t) -> f32 {
        __builtin_matrix_transpose(a * b)[2][3]
    }
}

fn main() {
    let a = m4x4_t::from_fn(|r, c| (r * 4 + c) as f32);
    let b = m4x4_t::identity();
    // (a*b)^T [2][3] == (a*b)[3][2] == a[3][2]
    assert_eq!(pick(a, b), 14.0);
}
