//! A quantised two-layer perceptron, the int8 inference workload of the
//! seeds' `joint_matrix` design: `u8` activations times `i8` weights
//! accumulate in `i32` (`__builtin_matrix_mad`), then a closure on each
//! element applies the ReLU and requantises to `u8` (`__builtin_matrix_map`,
//! in the same pass). The first layer's weights come as a model file ships
//! them, packed for VNNI and AMX (`packed_b`: four `i8` of a column per
//! 32-bit word), and are read with `__builtin_matrix_load(.., packed_b)`.
//! The integer result is checked against a plain `i32` loop (it is exact),
//! and the classes it picks against the same network in `f32`.
//!
//! Run it with `cargo run --release --example int8_mlp`.

use matrix_core::{Matrix, MemoryLayout, matrix};

matrix! {
    const BATCH: usize = 16;
    const INPUTS: usize = 64;
    const HIDDEN: usize = 32;
    const CLASSES: usize = 8;

    /// A batch of inputs, one per row, quantised to `u8`.
    pub typedef unsigned char input_t __attribute__((matrix_type(BATCH, INPUTS)));
    pub typedef signed char w1_t __attribute__((matrix_type(INPUTS, HIDDEN)));
    pub typedef int acc1_t __attribute__((matrix_type(BATCH, HIDDEN)));
    pub typedef unsigned char hidden_t __attribute__((matrix_type(BATCH, HIDDEN)));
    pub typedef signed char w2_t __attribute__((matrix_type(HIDDEN, CLASSES)));
    pub typedef int logits_t __attribute__((matrix_type(BATCH, CLASSES)));

    /// `max(x·W + b, 0) >> shift`, saturated to `u8`, with `W` read from
    /// `packed_b` bytes: the multiply-accumulate widens into `i32`, the
    /// closure runs on each accumulator.
    pub fn hidden_layer(x: input_t, w: &[i8], b: acc1_t, shift: i32) -> hidden_t {
        let w = __builtin_matrix_load(w, INPUTS, HIDDEN, packed_b);
        __builtin_matrix_map(__builtin_matrix_mad(x, w, b), |v| -> u8 {
            let r = v >> shift;
            if r < 0 { 0 } else if r > 255 { 255 } else { r }
        })
    }

    /// The output layer's logits, in `i32`.
    pub fn output_layer(h: hidden_t, w: w2_t, b: logits_t) -> logits_t {
        __builtin_matrix_mad(h, w, b)
    }
}

/// Deterministic pseudo-random numbers (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A value in `[-1, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// `x·W + b` with a plain loop in `i32`.
fn plain<A, const M: usize, const K: usize, const N: usize>(
    x: &Matrix<A, M, K>,
    w: &Matrix<i8, K, N>,
    b: &Matrix<i32, M, N>,
) -> Matrix<i32, M, N>
where
    A: matrix_core::Element + Into<i32>,
{
    Matrix::from_fn(|r, c| {
        (0..K).fold(b[(r, c)], |acc, k| {
            acc.wrapping_add(x[(r, k)].into() * i32::from(w[(k, c)]))
        })
    })
}

fn main() {
    let mut rng = Rng(2026);
    // The network in `f32`: weights in [-1, 1), inputs in [0, 1).
    let w1 = Matrix::<f32, INPUTS, HIDDEN>::from_fn(|_, _| rng.unit() * 0.5);
    let w2 = Matrix::<f32, HIDDEN, CLASSES>::from_fn(|_, _| rng.unit());
    let x = Matrix::<f32, BATCH, INPUTS>::from_fn(|_, _| (rng.unit() + 1.0) / 2.0);

    // Quantised: inputs in 1/255 steps, weights in 1/127 steps; the hidden
    // accumulator (steps of 1/(255*127)) is brought to steps of about
    // 4/255 by `>> 9`, so that hidden values up to 4 fit a `u8`.
    let q = |v: f32, scale: f32| (v * scale).round();
    let xq: input_t = x.map(|v| q(v, 255.0) as u8);
    let w1q: w1_t = w1.map(|v| q(v, 127.0) as i8);
    let w2q: w2_t = w2.map(|v| q(v, 127.0) as i8);
    let (b1, b2) = (acc1_t::zero(), logits_t::zero());

    // The first layer's weights as a model file would hold them.
    let mut w1_packed = vec![0i8; INPUTS * HIDDEN];
    w1q.store(&mut w1_packed, MemoryLayout::PackedB);
    assert_eq!(
        &w1_packed[..4],
        &[w1q[(0, 0)], w1q[(1, 0)], w1q[(2, 0)], w1q[(3, 0)]]
    );

    let hidden = hidden_layer(xq, &w1_packed, b1, 9);
    let logits = output_layer(hidden, w2q, b2);

    // Exact: the same integers as a plain loop.
    let hidden_plain = plain(&xq, &w1q, &b1).map(|v| (v >> 9).clamp(0, 255) as u8);
    assert_eq!(
        hidden, hidden_plain,
        "hidden layer differs from the i32 loop"
    );
    assert_eq!(
        logits,
        plain(&hidden, &w2q, &b2),
        "logits differ from the i32 loop"
    );

    // Close to the float network: compare the class each row picks.
    let reference = (x * w1).map(|v| v.max(0.0)) * w2;
    let argmax = |row: [f32; CLASSES]| {
        (0..CLASSES)
            .max_by(|&a, &b| row[a].total_cmp(&row[b]))
            .unwrap_or(0)
    };
    let picked: Vec<(usize, usize)> = (0..BATCH)
        .map(|r| {
            let ints = logits.row(r).map(|v| v as f32);
            (argmax(ints), argmax(reference.row(r)))
        })
        .collect();
    let agree = picked.iter().filter(|(a, b)| a == b).count();
    println!(
        "int8 logits of the first rows:\n{}",
        logits.to_rows()[..3]
            .iter()
            .map(|r| format!("{r:?}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    println!("the integer layers equal a plain i32 loop exactly");
    println!("classes picked by int8 and f32 agree on {agree} of {BATCH} rows");
    println!("SIMD backend: {}", matrix_core::Backend::active());
}
