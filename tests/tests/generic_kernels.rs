//! Generic kernels: const-generic dimensions (`fn trace<const N: usize>(m:
//! Matrix<f32, N, N>)`) with every operation and builtin taking them, as
//! Clang's C++ templates take template-dependent dimensions. Each kernel is
//! instantiated at several shapes and compared with a plain scalar
//! reference on random inputs, bit for bit, on every backend this CPU runs.
//! clang-19's C mode has no templates, so the scalar reference is the
//! oracle here; the same operations at constant shapes are checked against
//! clang-19 by the oracle suite.

use matrix_core::{Matrix, matrix};
use matrix_tests::{Rng, Scalar, assert_same, load, matmul, store, transpose};

matrix! {
    typedef float m3x3_t __attribute__((matrix_type(3, 3)));
    typedef float m2x5_t __attribute__((matrix_type(2, 5)));

    fn trace<const N: usize>(m: Matrix<f32, N, N>) -> f32 {
        let mut sum: f32 = 0.0;
        for i in 0..N {
            sum += m[i][i];
        }
        sum
    }
    fn madd<const R: usize, const K: usize, const C: usize>(
        a: Matrix<f32, R, K>,
        b: Matrix<f32, K, C>,
        c: Matrix<f32, R, C>,
    ) -> Matrix<f32, R, C> {
        a * b + c
    }
    fn product_f64<const R: usize, const K: usize, const C: usize>(
        a: Matrix<f64, R, K>,
        b: Matrix<f64, K, C>,
    ) -> Matrix<f64, R, C> {
        a * b
    }
    fn product_i32<const R: usize, const K: usize, const C: usize>(
        a: Matrix<i32, R, K>,
        b: Matrix<i32, K, C>,
    ) -> Matrix<i32, R, C> {
        a * b
    }
    // A transposed operand, and the builtin spelling of the product.
    fn gram<const R: usize, const C: usize>(a: Matrix<f64, R, C>) -> Matrix<f64, C, C> {
        __builtin_matrix_multiply(__builtin_matrix_transpose(a), a)
    }
    fn transposed<const R: usize, const C: usize>(a: Matrix<i32, R, C>) -> Matrix<i32, C, R> {
        __builtin_matrix_transpose(a)
    }
    fn arith<const R: usize, const C: usize>(
        a: Matrix<f32, R, C>,
        b: Matrix<f32, R, C>,
        s: f32,
    ) -> Matrix<f32, R, C> {
        let mut m = (a - b) * s + 1.5f32;
        m /= 4.0f32;
        m
    }
    fn corners<const R: usize, const C: usize>(a: Matrix<i32, R, C>) -> i32 {
        a[0][0] + __builtin_matrix_extract(a, 0, 1) + a[R - 1][C - 1]
    }
    fn set<const R: usize, const C: usize>(a: Matrix<i32, R, C>, r: usize, c: usize, v: i32) -> Matrix<i32, R, C> {
        let mut m = a;
        m[r][c] = v;
        m[0][0] += 1;
        m
    }
    fn load_scaled<const R: usize, const C: usize>(src: &[f64], stride: usize) -> Matrix<f64, R, C> {
        let m: Matrix<f64, R, C> = __builtin_matrix_column_major_load(src, R, C, stride);
        m * 2.0
    }
    fn load_dense<const R: usize, const C: usize>(src: &[f64]) -> Matrix<f64, R, C> {
        __builtin_matrix_column_major_load(src, R, C, R)
    }
    fn store_into<const R: usize, const C: usize>(m: Matrix<f64, R, C>, dst: &mut [f64], stride: usize) {
        __builtin_matrix_column_major_store(m, dst, stride);
    }
    fn squares<const R: usize, const C: usize>(a: Matrix<f32, R, C>) -> Matrix<f32, R, C> {
        __builtin_matrix_map(a, |x| x * x + 1.0f32)
    }
    fn to_float<const R: usize, const C: usize>(a: Matrix<i32, R, C>) -> Matrix<f32, R, C> {
        (Matrix<f32, R, C>) a
    }
    fn rm_mad<const N: usize>(a: Matrix<f32, N, N, RowMajor>, b: Matrix<f32, N, N>) -> Matrix<f32, N, N> {
        __builtin_matrix_mad(a, b, b)
    }
    #[dispatch]
    fn dispatched_square<const N: usize>(a: Matrix<f32, N, N>) -> Matrix<f32, N, N> {
        a * a
    }
    // Inside `#[dispatch]` a 4x4 `f64` product takes its own kernel on
    // AVX-512 (256-bit vectors, not groups of four lanes).
    #[dispatch]
    fn dispatched_product_f64<const R: usize, const K: usize, const C: usize>(
        a: Matrix<f64, R, K>,
        b: Matrix<f64, K, C>,
    ) -> Matrix<f64, R, C> {
        a * b
    }
    // Kernels at constant shapes calling generic ones: the calls
    // instantiate them, and the results have the instantiated types.
    fn trace_of_square(m: m3x3_t) -> float {
        trace(madd(m, m, m)) + trace(squares(m))
    }
    fn gram_of_wide(m: m2x5_t) -> float {
        let g = gram((Matrix<f64, 2, 5>) m);
        (float) g[4][4]
    }
    // A generic kernel calling a generic kernel.
    fn trace_of_gram<const R: usize, const C: usize>(a: Matrix<f32, R, C>) -> f32 {
        let z: Matrix<f32, C, R> = __builtin_matrix_transpose(a);
        trace(madd(z, a, __builtin_matrix_fill(z * a, 0.0f32)))
    }
}

fn random<T: Scalar, const R: usize, const C: usize>(rng: &mut Rng) -> Matrix<T, R, C> {
    Matrix::from_column_major(&rng.vec::<T>(R * C))
}

/// Small floats whose sums and products are exact enough to compare the
/// element operations one by one.
fn small<const R: usize, const C: usize>(rng: &mut Rng) -> Matrix<f32, R, C> {
    Matrix::from_fn(|_, _| (rng.below(200) as f32 - 100.0) / 8.0)
}

fn products_at<const R: usize, const K: usize, const C: usize>(rng: &mut Rng) {
    for _ in 0..20 {
        let (a, b, c) = (
            random::<f32, R, K>(rng),
            random::<f32, K, C>(rng),
            random::<f32, R, C>(rng),
        );
        let ab = matmul(a.as_slice(), b.as_slice(), R, K, C);
        let expected: Vec<f32> = ab.iter().zip(c.as_slice()).map(|(x, y)| x + y).collect();
        assert_same(madd(a, b, c).as_slice(), &expected, "madd");

        let (a, b) = (random::<f64, R, K>(rng), random::<f64, K, C>(rng));
        let expected = matmul(a.as_slice(), b.as_slice(), R, K, C);
        assert_same(product_f64(a, b).as_slice(), &expected, "product_f64");
        assert_same(
            dispatched_product_f64(a, b).as_slice(),
            &expected,
            "dispatched_product_f64",
        );
        let at = transpose(a.as_slice(), R, K);
        let expected = matmul(&at, a.as_slice(), K, R, K);
        assert_same(gram(a).as_slice(), &expected, "gram");

        let (a, b) = (random::<i32, R, K>(rng), random::<i32, K, C>(rng));
        let expected = matmul(a.as_slice(), b.as_slice(), R, K, C);
        assert_same(product_i32(a, b).as_slice(), &expected, "product_i32");
        let expected = transpose(a.as_slice(), R, K);
        assert_same(transposed(a).as_slice(), &expected, "transposed");
    }
}

#[test]
fn products_and_transposes_at_every_instantiated_shape() {
    let mut rng = Rng::new(0x6e6e_7269_6373);
    products_at::<1, 1, 1>(&mut rng);
    products_at::<2, 3, 4>(&mut rng);
    products_at::<4, 4, 4>(&mut rng);
    products_at::<5, 7, 3>(&mut rng);
    products_at::<8, 8, 8>(&mut rng);
    products_at::<16, 16, 16>(&mut rng);
    products_at::<3, 33, 9>(&mut rng);
}

fn elementwise_at<const R: usize, const C: usize>(rng: &mut Rng) {
    for _ in 0..20 {
        let (a, b) = (random::<f32, R, C>(rng), random::<f32, R, C>(rng));
        let s: f32 = rng.scalar();
        let expected: Vec<f32> = a
            .as_slice()
            .iter()
            .zip(b.as_slice())
            .map(|(x, y)| ((x - y) * s + 1.5) / 4.0)
            .collect();
        assert_same(arith(a, b, s).as_slice(), &expected, "arith");
        let expected: Vec<f32> = a.as_slice().iter().map(|x| x * x + 1.0).collect();
        assert_same(squares(a).as_slice(), &expected, "squares");

        // Scalar `+` is Rust's (it panics on overflow in debug builds).
        let m = Matrix::<i32, R, C>::from_fn(|_, _| rng.below(2000) as i32 - 1000);
        if C > 1 {
            let expected = m[(0, 0)] + m[(0, 1)] + m[(R - 1, C - 1)];
            assert_eq!(corners(m), expected, "corners");
        }
        let m = random::<i32, R, C>(rng);
        let (r, c, v) = (rng.below(R), rng.below(C), rng.scalar::<i32>());
        let mut expected = m;
        expected[(r, c)] = v;
        expected[(0, 0)] = expected[(0, 0)].wrapping_add(1);
        assert_eq!(set(m, r, c, v), expected, "set");
        let expected: Vec<f32> = m.as_slice().iter().map(|&x| x as f32).collect();
        assert_same(to_float(m).as_slice(), &expected, "to_float");

        let stride = R + rng.below(3);
        let src = rng.vec::<f64>(stride * C);
        let expected: Vec<f64> = load(&src, R, C, stride).iter().map(|x| x * 2.0).collect();
        assert_same(
            load_scaled::<R, C>(&src, stride).as_slice(),
            &expected,
            "load_scaled",
        );
        let dense = load_dense::<R, C>(&src[..R * C]);
        assert_same(dense.as_slice(), &src[..R * C], "load_dense");
        let mut dst = rng.vec::<f64>(stride * C);
        let mut expected = dst.clone();
        store(dense.as_slice(), R, C, &mut expected, stride);
        store_into(dense, &mut dst, stride);
        assert_same(&dst, &expected, "store_into");
    }
}

#[test]
fn elementwise_operations_subscripts_loads_and_stores() {
    let mut rng = Rng::new(0x656c_656d);
    elementwise_at::<1, 2>(&mut rng);
    elementwise_at::<3, 3>(&mut rng);
    elementwise_at::<4, 7>(&mut rng);
    elementwise_at::<16, 5>(&mut rng);
}

fn square_kernels_at<const N: usize>(rng: &mut Rng) {
    for _ in 0..20 {
        let m = small::<N, N>(rng);
        let expected = (0..N).fold(0.0f32, |sum, i| sum + m[(i, i)]);
        assert_eq!(trace(m).to_bits(), expected.to_bits(), "trace");

        let b = random::<f32, N, N>(rng);
        let a = random::<f32, N, N>(rng);
        let ab = matmul(a.as_slice(), b.as_slice(), N, N, N);
        let expected: Vec<f32> = ab.iter().zip(b.as_slice()).map(|(x, y)| x + y).collect();
        assert_same(rm_mad(a.to_layout(), b).as_slice(), &expected, "rm_mad");
        let expected = matmul(a.as_slice(), a.as_slice(), N, N, N);
        assert_same(
            dispatched_square(a).as_slice(),
            &expected,
            "dispatched_square",
        );
    }
}

#[test]
fn square_kernels_row_major_operands_and_dispatch() {
    let mut rng = Rng::new(0x7371_7561_7265);
    square_kernels_at::<1>(&mut rng);
    square_kernels_at::<4>(&mut rng);
    square_kernels_at::<9>(&mut rng);
    square_kernels_at::<16>(&mut rng);
}

#[test]
fn kernels_at_constant_shapes_instantiate_generic_ones() {
    let mut rng = Rng::new(0x6361_6c6c);
    for _ in 0..50 {
        let m = small::<3, 3>(&mut rng);
        let mm = matmul(m.as_slice(), m.as_slice(), 3, 3, 3);
        let mmm: Vec<f32> = mm.iter().zip(m.as_slice()).map(|(x, y)| x + y).collect();
        let squares: Vec<f32> = m.as_slice().iter().map(|x| x * x + 1.0).collect();
        let tr = |v: &[f32]| v[0] + v[4] + v[8];
        assert_eq!(trace_of_square(m), tr(&mmm) + tr(&squares));

        let w = small::<2, 5>(&mut rng);
        let wide: Vec<f64> = w.as_slice().iter().map(|&x| f64::from(x)).collect();
        let g = matmul(&transpose(&wide, 2, 5), &wide, 5, 2, 5);
        assert_eq!(gram_of_wide(w), g[24] as f32);

        let a = small::<3, 5>(&mut rng);
        let at = transpose(a.as_slice(), 3, 5);
        let g = matmul(&at, a.as_slice(), 5, 3, 5);
        let expected = (0..5).fold(0.0f32, |sum, i| sum + (g[i * 5 + i] + 0.0));
        assert_eq!(trace_of_gram(a), expected);
    }
}

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}
