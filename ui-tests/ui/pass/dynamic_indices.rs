use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn get_i64(m: m4x4_t, i: i64, j: i64) -> f32 {
        m[i][j]
    }

    pub fn get_u8(m: m4x4_t, i: u8, j: u8) -> f32 {
        m[i][j]
    }

    pub fn set_usize(mut m: m4x4_t, i: usize, j: usize, x: f32) -> m4x4_t {
        m[i][j] = x;
        m
    }
}

fn main() {
    let m = m4x4_t::from_fn(|r, c| (10 * r + c) as f32);
    assert_eq!(get_i64(m, 3, 1), 31.0);
    assert_eq!(get_u8(m, 2, 3), 23.0);
    assert_eq!(set_usize(m, 1, 2, -1.0)[(1, 2)], -1.0);
    // A dynamic index out of range panics, naming the range; it is never
    // undefined behaviour.
    std::panic::set_hook(Box::new(|_| {}));
    for (i, j) in [(4, 0), (-1, 0), (0, 4)] {
        let err = std::panic::catch_unwind(|| get_i64(m, i, j)).unwrap_err();
        let msg = err
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert!(msg.contains("[0, 4)"), "{msg}");
    }
}
