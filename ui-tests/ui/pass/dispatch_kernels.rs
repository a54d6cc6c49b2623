//! `#[dispatch]` kernels: compiled once per backend, chosen at each call,
//! and computing what the same kernel without it computes.
use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef int i4x4_t __attribute__((matrix_type(4, 4)));

    pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t {
        a * b + c
    }

    /// Documented, with a loop, a call to another kernel and references.
    #[dispatch]
    pub fn madd_all(a: &[m4x4_t; 4], b: &m4x4_t, c: m4x4_t) -> m4x4_t {
        let mut acc = c;
        for i in 0..4 {
            acc = madd(a[i], *b, acc);
        }
        acc
    }

    #[dispatch]
    #[fp_contract(off)]
    pub fn madd_off(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t {
        a * b + c
    }

    /// # Safety
    /// `p` must point at 16 readable `i32`s.
    #[dispatch]
    pub unsafe fn load(p: *const i32) -> i4x4_t {
        unsafe { __builtin_matrix_column_major_load(p, 4, 4, 4) }
    }

    #[dispatch]
    pub fn scale_in_place(m: &mut i4x4_t, k: i32) {
        *m = *m * k;
    }
}

fn main() {
    let a = m4x4_t::from_fn(|r, c| (r * 4 + c) as f32);
    let b = m4x4_t::identity();
    let c = m4x4_t::splat(1.0);
    let want = a + a + a + a + c;
    assert_eq!(madd_all(&[a; 4], &b, c), want);
    assert_eq!(madd_off(a, b, c), a + c);

    let data: [i32; 16] = core::array::from_fn(|i| i as i32);
    // SAFETY: `data` holds the 16 elements the load reads.
    let mut m = unsafe { load(data.as_ptr()) };
    scale_in_place(&mut m, 3);
    assert_eq!(m[(1, 2)], 3 * (2 * 4 + 1));
}
