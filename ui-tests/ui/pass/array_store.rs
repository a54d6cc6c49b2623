use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn flatten(m: m4x4_t) -> [f32; 16] {
        let mut buf = [0f32; 16];
        __builtin_matrix_column_major_store(m, &mut buf, 4);
        buf
    }
}

fn main() {
    let m = m4x4_t::from_fn(|r, c| (c * 4 + r) as f32);
    let buf = flatten(m);
    assert_eq!(buf, core::array::from_fn(|k| k as f32));
}
