//! One Kalman filter tracking a point moving at constant velocity in the
//! plane: the predict and update steps are `matrix!` kernels, the innovation
//! covariance is inverted with `Matrix::inverse`. Prints each estimate.
//!
//! Run it with `cargo run --release --example kalman`.

use matrix_core::{Matrix, matrix};

matrix! {
    /// The state: position (x, y) and velocity (vx, vy).
    pub typedef double state_t __attribute__((matrix_type(4, 1)));
    /// Covariances and the transition of the state.
    pub typedef double cov_t __attribute__((matrix_type(4, 4)));
    /// A measurement: the position only.
    pub typedef double meas_t __attribute__((matrix_type(2, 1)));
    /// The measurement model, position out of the state.
    pub typedef double obs_t __attribute__((matrix_type(2, 4)));
    /// The gain.
    pub typedef double gain_t __attribute__((matrix_type(4, 2)));
    /// The measurement covariance.
    pub typedef double cov2_t __attribute__((matrix_type(2, 2)));

    /// Predict: x = F x, P = F P Fᵀ + Q.
    pub fn predict(f: cov_t, q: cov_t, x: state_t, p: cov_t) -> (state_t, cov_t) {
        (f * x, f * p * __builtin_matrix_transpose(f) + q)
    }

    /// The innovation covariance S = H P Hᵀ + R.
    pub fn innovation(h: obs_t, p: cov_t, r: cov2_t) -> cov2_t {
        h * p * __builtin_matrix_transpose(h) + r
    }

    /// Update with measurement z, given S⁻¹: K = P Hᵀ S⁻¹, x += K (z - H x),
    /// P = (I - K H) P.
    pub fn update(h: obs_t, x: state_t, p: cov_t, z: meas_t, s_inv: cov2_t) -> (state_t, cov_t) {
        let k = p * __builtin_matrix_transpose(h) * s_inv;
        let mut i = (cov_t) 0.0;
        for d in 0..4 {
            i[d][d] = 1.0;
        }
        (x + k * (z - h * x), (i - k * h) * p)
    }
}

fn main() {
    let dt = 0.5;
    let f = cov_t::from_rows([
        [1.0, 0.0, dt, 0.0],
        [0.0, 1.0, 0.0, dt],
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]);
    let h = obs_t::from_rows([[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]]);
    let q = cov_t::identity() * 1e-3;
    let r = cov2_t::identity() * 0.25;

    let mut x = state_t::zero();
    let mut p = cov_t::identity() * 10.0;
    // The true point starts at (0, 0) and moves by (1, 2) per unit time;
    // the measurements carry a small fixed wobble.
    let wobble = [0.3, -0.2, 0.1, -0.4, 0.2, 0.0, -0.1, 0.3];
    for (step, w) in wobble.iter().enumerate() {
        let t = (step + 1) as f64 * dt;
        let z = meas_t::from_rows([[t + w], [2.0 * t - w]]);
        (x, p) = predict(f, q, x, p);
        let s_inv = innovation(h, p, r)
            .inverse()
            .expect("S is positive definite");
        (x, p) = update(h, x, p, z, s_inv);
        println!(
            "t = {t:3.1}: position ({:6.3}, {:6.3}), velocity ({:5.3}, {:5.3})",
            x[(0, 0)],
            x[(1, 0)],
            x[(2, 0)],
            x[(3, 0)]
        );
    }
    // The velocity estimate approaches the true (1, 2).
    assert!((x[(2, 0)] - 1.0).abs() < 0.5 && (x[(3, 0)] - 2.0).abs() < 0.5);
    let _: Matrix<f64, 4, 4> = p;
}
