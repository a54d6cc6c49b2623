//! `m[r][c]` and matrix operations inside std's formatting and assertion
//! macros and inside closures mean what they mean elsewhere in a kernel.
use matrix_core::matrix;
use std::fmt::Write;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn trace(m: m4x4_t) -> f32 {
        (0..4).map(|i| m[i][i]).sum()
    }

    pub fn describe(m: m4x4_t) -> String {
        let mut out = format!("{} {}", m[0][0], m[3][3]);
        write!(out, " {last}", last = m[3][0]).unwrap();
        assert_eq!(m[1][1], (m * m)[1][1] / m[1][1], "diagonal {}", m[1][1]);
        assert!(m[2][2] > 0.0);
        println!("{:?}", __builtin_matrix_transpose(m)[0][3]);
        out
    }

    pub fn apply_all(ms: &[m4x4_t], k: f32) -> Vec<m4x4_t> {
        let scale = |v: m4x4_t| -> m4x4_t { v * k };
        let mut out: Vec<m4x4_t> = ms.iter().map(|m| scale(*m)).collect();
        out.iter_mut().for_each(|m: &mut m4x4_t| (*m)[0][0] = 0.0);
        out
    }

    pub fn norms(ms: &[m4x4_t]) -> Vec<f32> {
        let norm = |m: m4x4_t| sqrtf((0..4).map(|i| m[i][i] * m[i][i]).sum());
        debug_assert!(ms.len() < 1000, "{} matrices, first {}", ms.len(), ms[0][0][0]);
        ms.iter().map(|m| norm(*m)).collect()
    }

    pub fn first_negative(m: m4x4_t) -> Option<usize> {
        let find = |m: m4x4_t| {
            for i in 0..4 {
                if m[i][0] < 0.0 {
                    return Some(i);
                }
            }
            None
        };
        find(m)
    }
}

fn main() {
    let d = m4x4_t::from_fn(|r, c| if r == c { (r + 1) as f32 } else { 0.0 });
    assert_eq!(trace(d), 10.0);
    assert_eq!(describe(d), "1 4 0");
    let scaled = apply_all(&[d, d], 2.0);
    assert_eq!(scaled[1][(0, 0)], 0.0);
    assert_eq!(scaled[1][(1, 1)], 4.0);
    assert_eq!(norms(&[d]), vec![30f32.sqrt()]);
    let mut m = d;
    assert_eq!(first_negative(m), None);
    m[(2, 0)] = -1.0;
    assert_eq!(first_negative(m), Some(2));
}
