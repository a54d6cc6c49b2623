//! A short tour: move a batch of points with a 4x4 transform, then fit a
//! quadratic to noisy samples by least squares — every matrix operation is a
//! kernel written in Clang's matrix-type spelling and checked at compile time.
//!
//! Run it with `cargo run --release --example tour`.

use matrix_core::{Matrix, matrix};

matrix! {
    /// A homogeneous 2-D transform.
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    /// Eight points, one per column: (x, y, 0, 1).
    pub typedef float points_t __attribute__((matrix_type(4, 8)));

    const SAMPLES: usize = 6;
    /// The least-squares design matrix: one row (1, x, x^2) per sample.
    pub typedef double design_t __attribute__((matrix_type(SAMPLES, 3)));
    pub typedef double samples_t __attribute__((matrix_type(SAMPLES, 1)));
    pub typedef double normal_t __attribute__((matrix_type(3, 3)));
    pub typedef double coeffs_t __attribute__((matrix_type(3, 1)));

    /// Rotation by the angle whose cosine and sine are `c` and `s`, then a
    /// translation by (`tx`, `ty`).
    pub fn rotate_translate(c: f32, s: f32, tx: f32, ty: f32) -> m4x4_t {
        let mut m = (m4x4_t) 0.0; // a C cast: broadcast
        m[0][0] = c;
        m[0][1] = -s;
        m[1][0] = s;
        m[1][1] = c;
        m[2][2] = 1.0;
        m[3][3] = 1.0;
        m[0][3] = tx;
        m[1][3] = ty;
        m
    }

    /// Points stored (x, y, 0, 1) one after another, read column by column.
    pub fn load_points(xyzw: &[f32]) -> points_t {
        __builtin_matrix_column_major_load(xyzw, 4, 8)
    }

    pub fn transform(m: m4x4_t, points: points_t) -> points_t {
        m * points
    }

    /// The normal equations of a least-squares fit: (AᵀA, Aᵀb).
    pub fn normal_equations(a: design_t, b: samples_t) -> (normal_t, coeffs_t) {
        let at = __builtin_matrix_transpose(a);
        (at * a, at * b)
    }

    /// A dense layer with a ReLU, max(W·x + b, 0), on eight inputs at once:
    /// a multiply-accumulate, then a closure on each element.
    pub fn dense_relu(w: m4x4_t, x: points_t, b: points_t) -> points_t {
        __builtin_matrix_map(__builtin_matrix_mad(w, x, b), |v| fmaxf(v, 0.0f32))
    }

    /// The residual b - A·x of a fit.
    pub fn residual(a: design_t, b: samples_t, x: coeffs_t) -> samples_t {
        b - a * x
    }
}

/// Solves the 3x3 system `n · x = r` by Gaussian elimination with partial
/// pivoting — ordinary Rust on `Matrix` values, outside the macro.
fn solve(n: normal_t, r: coeffs_t) -> coeffs_t {
    let mut a = n.to_rows();
    let mut b = [r[(0, 0)], r[(1, 0)], r[(2, 0)]];
    for col in 0..3 {
        let pivot = (col..3)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..3 {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; 3];
    for row in (0..3).rev() {
        let tail: f64 = (row + 1..3).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - tail) / a[row][row];
    }
    Matrix::from_columns([x])
}

fn main() {
    // 1. Transform a batch of points: a square and its diagonals' midpoints.
    let corners = [
        (0.0, 0.0),
        (1.0, 0.0),
        (1.0, 1.0),
        (0.0, 1.0),
        (0.5, 0.0),
        (1.0, 0.5),
        (0.5, 1.0),
        (0.0, 0.5),
    ];
    let xyzw: Vec<f32> = corners
        .iter()
        .flat_map(|&(x, y)| [x, y, 0.0, 1.0])
        .collect();
    let angle = std::f32::consts::FRAC_PI_2;
    let m = rotate_translate(angle.cos(), angle.sin(), 2.0, 1.0);
    let moved = transform(m, load_points(&xyzw));
    println!("transform (rotate 90 degrees, then move by (2, 1)):\n{m:.3}\n");
    println!("points, one per column (x, y, 0, 1):\n{moved:.2}\n");

    // 2. Fit y = c0 + c1 x + c2 x^2 to six samples of y = 1 - 2x + 0.5x^2 + noise.
    let xs: [f64; SAMPLES] = [-2.0, -1.0, 0.0, 1.0, 2.0, 3.0];
    let noise = [0.01, -0.02, 0.015, 0.0, -0.01, 0.02];
    let design = design_t::from_fn(|r, c| xs[r].powi(c as i32));
    let samples = samples_t::from_fn(|r, _| 1.0 - 2.0 * xs[r] + 0.5 * xs[r] * xs[r] + noise[r]);
    let (n, rhs) = normal_equations(design, samples);
    let coeffs = solve(n, rhs);
    let res = residual(design, samples, coeffs);
    let rms = (res.as_slice().iter().map(|e| e * e).sum::<f64>() / xs.len() as f64).sqrt();
    println!("normal matrix AᵀA:\n{n:.1}\n");
    println!(
        "fitted y = {:.4} + {:.4} x + {:.4} x^2   (true: 1 - 2 x + 0.5 x^2), rms residual {rms:.4}",
        coeffs[(0, 0)],
        coeffs[(1, 0)],
        coeffs[(2, 0)]
    );

    // 3. The same points through a dense layer with a ReLU.
    let bias = points_t::splat(-0.5);
    let activated = dense_relu(m, moved, bias);
    println!("max(M·p - 0.5, 0), one per column:\n{activated:.2}\n");
    println!("SIMD backend: {}", matrix_core::Backend::active());
}
