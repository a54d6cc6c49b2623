use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m3x4_t __attribute__((matrix_type(3, 4)));

    /// (3x4) *= (4x4) keeps the 3x4 type: Clang accepts it.
    pub fn scale_rows(mut c34: m3x4_t, a: m4x4_t) -> m3x4_t {
        c34 *= a;
        c34
    }
}

fn main() {
    let c = m3x4_t::from_fn(|r, c| (r * 4 + c) as f32);
    let a = m4x4_t::identity() * 2.0;
    let r = scale_rows(c, a);
    assert_eq!(r.to_rows(), [[0.0, 2.0, 4.0, 6.0], [8.0, 10.0, 12.0, 14.0], [16.0, 18.0, 20.0, 22.0]]);
}
