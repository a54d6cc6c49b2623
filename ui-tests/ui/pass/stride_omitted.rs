use matrix_core::matrix;

matrix! {
    pub typedef float m2x3_t __attribute__((matrix_type(2, 3)));

    /// The stride is optional, as in the specification: it defaults to the rows.
    pub fn load(src: &[f32]) -> m2x3_t {
        __builtin_matrix_column_major_load(src, 2, 3)
    }

    pub fn store(m: m2x3_t, dst: &mut [f32]) {
        __builtin_matrix_column_major_store(m, dst);
    }
}

fn main() {
    let src: Vec<f32> = (0..6).map(|x| x as f32).collect();
    let m = load(&src);
    assert_eq!(m.to_rows(), [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]);
    let mut dst = [0.0f32; 6];
    store(m, &mut dst);
    assert_eq!(&dst[..], &src[..]);
}
