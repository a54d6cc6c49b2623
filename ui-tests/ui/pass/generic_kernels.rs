//! Generic kernels: const-generic dimensions in every operation, called
//! from Rust and from kernels at constant shapes.
use matrix_core::{Matrix, matrix};

matrix! {
    typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn trace<const N: usize>(m: Matrix<f32, N, N>) -> f32 {
        let mut sum: f32 = 0.0;
        for i in 0..N {
            sum += m[i][i];
        }
        sum
    }
    pub fn madd<const R: usize, const K: usize, const C: usize>(
        a: Matrix<f32, R, K>,
        b: Matrix<f32, K, C, RowMajor>,
        c: Matrix<f32, R, C>,
    ) -> Matrix<f32, R, C> {
        __builtin_matrix_mad(a, b, c) + __builtin_matrix_transpose(__builtin_matrix_transpose(c))
    }
    pub fn load<const R: usize, const C: usize>(src: &[f64]) -> Matrix<f64, R, C> {
        let m: Matrix<f64, R, C> = __builtin_matrix_column_major_load(src, R, C, R);
        __builtin_matrix_map(m, |x| x * 2.0)
    }
    pub fn corner<const N: usize>(m: Matrix<f32, N, N>) -> f32 {
        m[N - 1][0] + m[1][1]
    }
    pub fn of_constant_shape(m: m4x4_t) -> float {
        trace(m) + corner(m)
    }
}

fn main() {
    let m = Matrix::<f32, 4, 4>::from_fn(|r, c| (r * 4 + c) as f32);
    assert_eq!(trace(m), 30.0);
    assert_eq!(of_constant_shape(m), 30.0 + 12.0 + 5.0);
    let b = Matrix::<f32, 4, 2>::from_fn(|r, c| (r + c) as f32).to_layout::<matrix_core::RowMajor>();
    let c = Matrix::<f32, 4, 2>::default();
    assert_eq!(madd(m, b, c)[(0, 0)], 14.0);
    let src = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    assert_eq!(load::<2, 3>(&src)[(1, 2)], 12.0);
}
