use matrix_core::matrix;

matrix! {
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));

    /// # Safety
    /// `src` must point at `(2 - 1) * 3 + 2` readable floats.
    pub unsafe fn load(src: *const f32) -> m2x2_t {
        unsafe { __builtin_matrix_column_major_load(src, 2, 2, 3) }
    }
}

fn main() {
    let data = [1.0f32, 2.0, 99.0, 3.0, 4.0];
    // SAFETY: `data` holds 5 floats, exactly what a 2x2 load with stride 3 reads.
    let m = unsafe { load(data.as_ptr()) };
    assert_eq!(m.to_columns(), [[1.0, 2.0], [3.0, 4.0]]);
}
