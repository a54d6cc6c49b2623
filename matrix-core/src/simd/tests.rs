//! Every backend compiled into this build, tested against scalar code.
//!
//! A default `x86_64` build tests `scalar` and `sse2`;
//! `RUSTFLAGS='-C target-cpu=native'` on an AVX-512 machine tests all four;
//! `--features force-scalar` tests the kernels' public entry points on the
//! scalar backend.

use super::kernels::*;
use super::*;

/// Deterministic test data with many significant bits, so that a change of
/// summation order or of rounding changes the result.
fn data_f32(n: usize, seed: u32) -> Vec<f32> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12345);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((x >> 8) as f32 / (1u32 << 24) as f32 - 0.5) * 4.0 + 1.0 / 3.0
        })
        .collect()
}

fn data_f64(n: usize, seed: u32) -> Vec<f64> {
    data_f32(n, seed)
        .into_iter()
        .map(|v| v as f64 * (1.0 + 1.0 / 7.0))
        .collect()
}

fn data_i32(n: usize, seed: u32) -> Vec<i32> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(7);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            x as i32
        })
        .collect()
}

/// The contract's product by plain loops: `acc = a[r][0]*b[0][c]`, then
/// `acc = step(a[r][k], b[k][c], acc)` for `k = 1..`.
fn reference<E: Copy + Default>(
    (m, k, n): (usize, usize, usize),
    a: &[E],
    b: &[E],
    mul: impl Fn(E, E) -> E,
    step: impl Fn(E, E, E) -> E,
) -> Vec<E> {
    let mut out = vec![E::default(); m * n];
    for c in 0..n {
        for r in 0..m {
            let mut acc = mul(a[r], b[c * k]);
            for kk in 1..k {
                acc = step(a[kk * m + r], b[c * k + kk], acc);
            }
            out[c * m + r] = acc;
        }
    }
    out
}

fn ref_f32(s: (usize, usize, usize), a: &[f32], b: &[f32], fused: bool) -> Vec<f32> {
    if fused {
        reference(s, a, b, |x, y| x * y, |x, y, z| x.mul_add(y, z))
    } else {
        reference(s, a, b, |x, y| x * y, |x, y, z| z + x * y)
    }
}

fn ref_f64(s: (usize, usize, usize), a: &[f64], b: &[f64], fused: bool) -> Vec<f64> {
    if fused {
        reference(s, a, b, |x, y| x * y, |x, y, z| x.mul_add(y, z))
    } else {
        reference(s, a, b, |x, y| x * y, |x, y, z| z + x * y)
    }
}

fn ref_i32(s: (usize, usize, usize), a: &[i32], b: &[i32]) -> Vec<i32> {
    reference(s, a, b, i32::wrapping_mul, |x, y, z| {
        z.wrapping_add(x.wrapping_mul(y))
    })
}

fn bits32(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn bits64(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn ref_transpose<T: Copy>(rows: usize, cols: usize, src: &[T]) -> Vec<T> {
    let mut out = Vec::with_capacity(src.len());
    for r in 0..rows {
        for c in 0..cols {
            out.push(src[c * rows + r]);
        }
    }
    out
}

/// Shapes 1..=17 in every dimension would be 4913 products per type and
/// backend; every `m` in 1..=17 against a spread of `k` and `n` (including
/// 1, the lane counts and their neighbours, and 17) covers every tail.
const KS: [usize; 8] = [1, 2, 3, 4, 5, 8, 9, 17];
const NS: [usize; 9] = [1, 2, 3, 4, 5, 7, 12, 16, 17];

/// Tests of one backend's vector types and functions.
macro_rules! backend_tests {
    ($backend:ident) => {
        mod $backend {
            use super::super::$backend as be;
            use super::super::{Group4, SimdFloat, SimdVector};
            use super::*;

            fn lanes_roundtrip<V: SimdVector>(data: &[V::Elem]) {
                let l = V::LANES;
                for off in 0..=data.len() - l {
                    let v = V::load(data, off);
                    assert_eq!(v.to_vec(), data[off..off + l].to_vec());
                    let mut out = vec![V::Elem::default(); data.len()];
                    v.store(&mut out, off);
                    assert_eq!(&out[off..off + l], &data[off..off + l]);
                    assert!(out[..off].iter().all(|x| *x == V::Elem::default()));
                    assert!(out[off + l..].iter().all(|x| *x == V::Elem::default()));
                }
                for n in 0..=l {
                    for off in [0, 1, data.len() - n] {
                        let v = V::load_partial(data, off, n);
                        let got = v.to_vec();
                        assert_eq!(&got[..n], &data[off..off + n], "n={n} off={off}");
                        assert!(got[n..].iter().all(|x| *x == V::Elem::default()));
                        let mut out = vec![V::Elem::default(); data.len()];
                        V::load(data, 0).store_partial(&mut out, off, n);
                        assert_eq!(&out[off..off + n], &data[..n]);
                        assert!(out[..off].iter().all(|x| *x == V::Elem::default()));
                        assert!(out[off + n..].iter().all(|x| *x == V::Elem::default()));
                    }
                }
                for i in 0..data.len() {
                    assert_eq!(V::broadcast(data, i).to_vec(), vec![data[i]; l]);
                    assert_eq!(V::splat(data[i]).to_vec(), vec![data[i]; l]);
                }
                assert_eq!(V::zero().to_vec(), vec![V::Elem::default(); l]);
            }

            fn arith<V: SimdVector>(
                data: &[V::Elem],
                add: impl Fn(V::Elem, V::Elem) -> V::Elem,
                sub: impl Fn(V::Elem, V::Elem) -> V::Elem,
                mul: impl Fn(V::Elem, V::Elem) -> V::Elem,
                fma: impl Fn(V::Elem, V::Elem, V::Elem) -> V::Elem,
            ) {
                let l = V::LANES;
                let (a, b, c) = (V::load(data, 0), V::load(data, l), V::load(data, 2 * l));
                let lanes = |f: &dyn Fn(usize) -> V::Elem| (0..l).map(f).collect::<Vec<_>>();
                let (x, y, z) = (&data[..l], &data[l..2 * l], &data[2 * l..3 * l]);
                assert_eq!(a.add(b).to_vec(), lanes(&|i| add(x[i], y[i])));
                assert_eq!(a.sub(b).to_vec(), lanes(&|i| sub(x[i], y[i])));
                assert_eq!(a.mul(b).to_vec(), lanes(&|i| mul(x[i], y[i])));
                assert_eq!(
                    a.mul_then_add(b, c).to_vec(),
                    lanes(&|i| add(mul(x[i], y[i]), z[i]))
                );
                let fused = a.mul_add(b, c).to_vec();
                if V::FUSED {
                    assert_eq!(fused, lanes(&|i| fma(x[i], y[i], z[i])));
                } else {
                    assert_eq!(fused, lanes(&|i| add(mul(x[i], y[i]), z[i])));
                }
            }

            fn group4<V: Group4>(data: &[V::Elem]) {
                let l = V::LANES;
                for off in 0..=data.len() - 4 {
                    let got = V::broadcast_x4(data, off).to_vec();
                    let want: Vec<_> = (0..l).map(|i| data[off + i % 4]).collect();
                    assert_eq!(got, want);
                }
                let v = V::load(data, 0);
                let want = |g: usize| (0..l).map(|i| data[i / 4 * 4 + g]).collect::<Vec<_>>();
                assert_eq!(v.dup_in_x4::<0>().to_vec(), want(0));
                assert_eq!(v.dup_in_x4::<1>().to_vec(), want(1));
                assert_eq!(v.dup_in_x4::<2>().to_vec(), want(2));
                assert_eq!(v.dup_in_x4::<3>().to_vec(), want(3));
            }

            #[test]
            fn vectors_load_store_partial_broadcast() {
                lanes_roundtrip::<be::F32Vec>(&data_f32(41, 1));
                lanes_roundtrip::<be::F64Vec>(&data_f64(41, 2));
                lanes_roundtrip::<be::I32Vec>(&data_i32(41, 3));
            }

            #[test]
            #[should_panic]
            fn load_out_of_bounds_panics() {
                let d = data_f32(be::F32Vec::LANES + 2, 1);
                let _ = be::F32Vec::load(&d, 3);
            }

            #[test]
            #[should_panic]
            fn partial_store_out_of_bounds_panics() {
                let mut d = vec![0.0f64; 5];
                be::F64Vec::splat(1.0).store_partial(&mut d, 4, 2);
            }

            #[test]
            #[should_panic]
            fn partial_load_too_many_lanes_panics() {
                let d = data_i32(64, 1);
                let _ = be::I32Vec::load_partial(&d, 0, be::I32Vec::LANES + 1);
            }

            #[test]
            fn vectors_arithmetic() {
                for seed in 0..8 {
                    arith::<be::F32Vec>(
                        &data_f32(48, seed),
                        |a, b| a + b,
                        |a, b| a - b,
                        |a, b| a * b,
                        f32::mul_add,
                    );
                    arith::<be::F64Vec>(
                        &data_f64(48, seed),
                        |a, b| a + b,
                        |a, b| a - b,
                        |a, b| a * b,
                        f64::mul_add,
                    );
                    arith::<be::I32Vec>(
                        &data_i32(48, seed),
                        i32::wrapping_add,
                        i32::wrapping_sub,
                        i32::wrapping_mul,
                        |a, b, c| a.wrapping_mul(b).wrapping_add(c),
                    );
                }
                // The fused form really rounds once where FUSED says so.
                let e = f32::EPSILON;
                let (a, b, c) = (1.0 + e, 1.0 - e, -1.0f32);
                let v = be::F32Vec::splat(a)
                    .mul_add(be::F32Vec::splat(b), be::F32Vec::splat(c))
                    .to_vec()[0];
                let unfused = a * b + c;
                assert_eq!(v == unfused, !<be::F32Vec as SimdVector>::FUSED);
            }

            fn div<V: SimdFloat>(data: &[V::Elem], f: impl Fn(V::Elem, V::Elem) -> V::Elem) {
                let l = V::LANES;
                let got = V::load(data, 0).div(V::load(data, l)).to_vec();
                let want: Vec<_> = (0..l).map(|i| f(data[i], data[l + i])).collect();
                assert_eq!(got, want);
            }

            #[test]
            fn vectors_div() {
                for seed in 0..8 {
                    div::<be::F32Vec>(&data_f32(32, seed), |a, b| a / b);
                    div::<be::F64Vec>(&data_f64(32, seed), |a, b| a / b);
                }
            }

            #[test]
            fn vectors_group4() {
                group4::<be::F32Vec>(&data_f32(33, 4));
                group4::<be::I32Vec>(&data_i32(33, 5));
            }

            #[test]
            fn transposes() {
                for seed in 0..4 {
                    let a = data_f32(64, seed);
                    let a16: [f32; 16] = a[..16].try_into().unwrap();
                    assert_eq!(
                        be::transpose_4x4_f32(&a16).to_vec(),
                        ref_transpose(4, 4, &a16)
                    );
                    let a64: [f32; 64] = a[..].try_into().unwrap();
                    assert_eq!(
                        be::transpose_8x8_f32(&a64).to_vec(),
                        ref_transpose(8, 8, &a64)
                    );
                    // strided: the 4x4 block at (1, 2) of a 6x7 source into
                    // a 7x6 destination
                    let s = data_f32(42, seed);
                    let mut d = vec![0.0; 42];
                    be::transpose_4x4_f32_strided(&s, 2 * 6 + 1, 6, &mut d, 7 + 2, 7);
                    for c in 0..4 {
                        for r in 0..4 {
                            assert_eq!(d[(1 + r) * 7 + 2 + c], s[(2 + c) * 6 + 1 + r]);
                        }
                    }
                }
            }

            fn products<
                V: SimdVector<Elem = f32>,
                W: SimdVector<Elem = f64>,
                I: SimdVector<Elem = i32>,
            >() {
                for m in 1..=17 {
                    for k in KS {
                        for n in NS {
                            let s = (m, k, n);
                            let seed = (m * 400 + k * 20 + n) as u32;
                            let (a, b) = (data_f32(m * k, seed), data_f32(k * n, seed + 1));
                            let mut out = vec![0.0; m * n];
                            gemm_with::<V, false>(m, k, n, &a, &b, None, &mut out);
                            assert_eq!(bits32(&out), bits32(&ref_f32(s, &a, &b, false)), "{s:?}");
                            gemm_with::<V, true>(m, k, n, &a, &b, None, &mut out);
                            assert_eq!(
                                bits32(&out),
                                bits32(&ref_f32(s, &a, &b, V::FUSED)),
                                "{s:?}"
                            );
                            let c = data_f32(m * n, seed + 2);
                            gemm_with::<V, false>(m, k, n, &a, &b, Some(&c), &mut out);
                            let want: Vec<f32> = ref_f32(s, &a, &b, false)
                                .iter()
                                .zip(&c)
                                .map(|(p, c)| p + c)
                                .collect();
                            assert_eq!(bits32(&out), bits32(&want), "madd {s:?}");

                            let (a, b) = (data_f64(m * k, seed), data_f64(k * n, seed + 1));
                            let mut out = vec![0.0; m * n];
                            gemm_with::<W, false>(m, k, n, &a, &b, None, &mut out);
                            assert_eq!(bits64(&out), bits64(&ref_f64(s, &a, &b, false)), "{s:?}");
                            gemm_with::<W, true>(m, k, n, &a, &b, None, &mut out);
                            assert_eq!(
                                bits64(&out),
                                bits64(&ref_f64(s, &a, &b, W::FUSED)),
                                "{s:?}"
                            );

                            let (a, b) = (data_i32(m * k, seed), data_i32(k * n, seed + 1));
                            let mut out = vec![0; m * n];
                            gemm_with::<I, false>(m, k, n, &a, &b, None, &mut out);
                            assert_eq!(out, ref_i32(s, &a, &b), "{s:?}");
                        }
                    }
                }
            }

            #[test]
            fn gemm_all_small_shapes_bit_exact() {
                products::<be::F32Vec, be::F64Vec, be::I32Vec>();
            }

            /// `b` (`k x n`) stored transposed, as `gemm_with_layout::<_, _, true>`
            /// reads it: the column-major `n x k` matrix.
            fn stored_transposed<T: Copy>(k: usize, n: usize, b: &[T]) -> Vec<T> {
                let mut bt = b.to_vec();
                for j in 0..n {
                    for kk in 0..k {
                        bt[kk * n + j] = b[j * k + kk];
                    }
                }
                bt
            }

            #[test]
            fn gemm_reads_a_transposed_right_operand_in_place() {
                for m in 1..=17 {
                    for k in KS {
                        for n in NS {
                            let s = (m, k, n);
                            let seed = (m * 400 + k * 20 + n) as u32;
                            let (a, b) = (data_f32(m * k, seed), data_f32(k * n, seed + 1));
                            let bt = stored_transposed(k, n, &b);
                            let c = data_f32(m * n, seed + 2);
                            let mut out = vec![0.0; m * n];
                            gemm_with_layout::<be::F32Vec, true, true>(
                                m, k, n, &a, &bt, None, &mut out,
                            );
                            let want = ref_f32(s, &a, &b, be::F32Vec::FUSED);
                            assert_eq!(bits32(&out), bits32(&want), "{s:?}");
                            gemm_with_layout::<be::F32Vec, false, true>(
                                m,
                                k,
                                n,
                                &a,
                                &bt,
                                Some(&c),
                                &mut out,
                            );
                            let want: Vec<f32> = ref_f32(s, &a, &b, false)
                                .iter()
                                .zip(&c)
                                .map(|(p, c)| p + c)
                                .collect();
                            assert_eq!(bits32(&out), bits32(&want), "madd {s:?}");

                            let (a, b) = (data_f64(m * k, seed), data_f64(k * n, seed + 1));
                            let bt = stored_transposed(k, n, &b);
                            let mut out = vec![0.0; m * n];
                            gemm_with_layout::<be::F64Vec, false, true>(
                                m, k, n, &a, &bt, None, &mut out,
                            );
                            assert_eq!(bits64(&out), bits64(&ref_f64(s, &a, &b, false)), "{s:?}");

                            let (a, b) = (data_i32(m * k, seed), data_i32(k * n, seed + 1));
                            let bt = stored_transposed(k, n, &b);
                            let mut out = vec![0; m * n];
                            gemm_with_layout::<be::I32Vec, false, true>(
                                m, k, n, &a, &bt, None, &mut out,
                            );
                            assert_eq!(out, ref_i32(s, &a, &b), "{s:?}");
                        }
                    }
                }
                // The 4x4x4 entry points, which transpose in registers.
                let (a, b) = (data_f32(16, 7), data_f32(16, 8));
                let bt = stored_transposed(4, 4, &b);
                let mut out = vec![0.0; 16];
                gemm_bt_f32::<4, 4, 4, false, true>(&a, &bt, None, &mut out);
                assert_eq!(bits32(&out), bits32(&ref_f32((4, 4, 4), &a, &b, false)));
                let (a, b) = (data_f64(16, 7), data_f64(16, 8));
                let bt = stored_transposed(4, 4, &b);
                let mut out = vec![0.0; 16];
                gemm_bt_f64::<4, 4, 4, false, true>(&a, &bt, None, &mut out);
                assert_eq!(bits64(&out), bits64(&ref_f64((4, 4, 4), &a, &b, false)));
                let (a, b) = (data_i32(16, 7), data_i32(16, 8));
                let bt = stored_transposed(4, 4, &b);
                let mut out = vec![0; 16];
                gemm_bt_i32::<4, 4, 4, false, true>(&a, &bt, None, &mut out);
                assert_eq!(out, ref_i32((4, 4, 4), &a, &b));
            }

            #[test]
            fn gemm_deep_k_blocks_bit_exact() {
                // k > KC: partial sums go through the output between blocks.
                for (m, k, n) in [(5, KC + 3, 3), (be::F32Vec::LANES * 4 + 1, 2 * KC + 1, 6)] {
                    let (a, b) = (data_f32(m * k, 9), data_f32(k * n, 10));
                    let c = data_f32(m * n, 11);
                    let mut out = vec![0.0; m * n];
                    gemm_with::<be::F32Vec, true>(m, k, n, &a, &b, Some(&c), &mut out);
                    let want: Vec<f32> = ref_f32((m, k, n), &a, &b, be::F32Vec::FUSED)
                        .iter()
                        .zip(&c)
                        .map(|(p, c)| p + c)
                        .collect();
                    assert_eq!(bits32(&out), bits32(&want));
                }
            }

            fn mul4x4<V: Group4<Elem = f32>>() {
                for seed in 0..16 {
                    let a: [f32; 16] = data_f32(16, seed).try_into().unwrap();
                    let b: [f32; 16] = data_f32(16, seed + 100).try_into().unwrap();
                    let c: [f32; 16] = data_f32(16, seed + 200).try_into().unwrap();
                    let s = (4, 4, 4);
                    let got = mul_4x4_with::<V, false>(&a, &b, None);
                    assert_eq!(bits32(&got), bits32(&ref_f32(s, &a, &b, false)));
                    let got = mul_4x4_with::<V, true>(&a, &b, None);
                    assert_eq!(bits32(&got), bits32(&ref_f32(s, &a, &b, V::FUSED)));
                    let got = mul_4x4_with::<V, false>(&a, &b, Some(&c));
                    let want: Vec<f32> = ref_f32(s, &a, &b, false)
                        .iter()
                        .zip(&c)
                        .map(|(p, c)| p + c)
                        .collect();
                    assert_eq!(bits32(&got), bits32(&want));
                }
            }

            #[test]
            fn product_4x4_group4() {
                mul4x4::<be::F32Vec>();
                for seed in 0..16 {
                    let a: [i32; 16] = data_i32(16, seed).try_into().unwrap();
                    let b: [i32; 16] = data_i32(16, seed + 100).try_into().unwrap();
                    let got = mul_4x4_with::<be::I32Vec, false>(&a, &b, None);
                    assert_eq!(got.to_vec(), ref_i32((4, 4, 4), &a, &b));
                }
            }

            #[test]
            fn map_with_tails() {
                for n in 0..=40 {
                    let (a, b, c) = (data_f32(n, 1), data_f32(n, 2), data_f32(n, 3));
                    let mut out = vec![0.0; n];
                    let s = be::F32Vec::splat(0.5);
                    map::<be::F32Vec, 3>([&a, &b, &c], &mut out, |[a, b, c]| {
                        a.add(b.mul(s)).sub(c)
                    });
                    let want: Vec<f32> = (0..n).map(|i| a[i] + b[i] * 0.5 - c[i]).collect();
                    assert_eq!(bits32(&out), bits32(&want));
                }
            }
        }
    };
}

backend_tests!(scalar);
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
backend_tests!(sse2);
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
))]
backend_tests!(avx2);
#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx2",
    target_feature = "fma"
))]
backend_tests!(avx512);

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx2",
    target_feature = "fma"
))]
#[test]
fn avx512_f64_4x4_group4() {
    for seed in 0..16 {
        let a: [f64; 16] = data_f64(16, seed).try_into().unwrap();
        let b: [f64; 16] = data_f64(16, seed + 100).try_into().unwrap();
        for fused in [false, true] {
            let got = if fused {
                mul_4x4_with::<super::avx512::F64Vec, true>(&a, &b, None)
            } else {
                mul_4x4_with::<super::avx512::F64Vec, false>(&a, &b, None)
            };
            assert_eq!(bits64(&got), bits64(&ref_f64((4, 4, 4), &a, &b, fused)));
        }
    }
}

/// The public entry points on the active backend, with constant shapes.
#[test]
fn active_backend_entry_points() {
    fn check<const M: usize, const K: usize, const N: usize>() {
        let s = (M, K, N);
        let (a, b, c) = (data_f32(M * K, 1), data_f32(K * N, 2), data_f32(M * N, 3));
        let mut out = vec![0.0; M * N];
        gemm_f32::<M, K, N, false>(&a, &b, &mut out);
        assert_eq!(bits32(&out), bits32(&ref_f32(s, &a, &b, false)), "{s:?}");
        gemm_f32::<M, K, N, true>(&a, &b, &mut out);
        assert_eq!(
            bits32(&out),
            bits32(&ref_f32(s, &a, &b, F32Vec::FUSED)),
            "{s:?}"
        );
        gemm_madd_f32::<M, K, N, false>(&a, &b, &c, &mut out);
        let want: Vec<f32> = ref_f32(s, &a, &b, false)
            .iter()
            .zip(&c)
            .map(|(p, c)| p + c)
            .collect();
        assert_eq!(bits32(&out), bits32(&want), "{s:?}");

        let (a, b) = (data_f64(M * K, 1), data_f64(K * N, 2));
        let mut out = vec![0.0; M * N];
        gemm_f64::<M, K, N, false>(&a, &b, &mut out);
        assert_eq!(bits64(&out), bits64(&ref_f64(s, &a, &b, false)), "{s:?}");
        gemm_f64::<M, K, N, true>(&a, &b, &mut out);
        assert_eq!(
            bits64(&out),
            bits64(&ref_f64(s, &a, &b, F64Vec::FUSED)),
            "{s:?}"
        );

        let (a, b) = (data_i32(M * K, 1), data_i32(K * N, 2));
        let mut out = vec![0; M * N];
        gemm_i32::<M, K, N, false>(&a, &b, &mut out);
        assert_eq!(out, ref_i32(s, &a, &b), "{s:?}");

        let src = data_f32(M * N, 4);
        let mut dst = vec![0.0; M * N];
        transpose_f32::<M, N>(&src, &mut dst);
        assert_eq!(dst, ref_transpose(M, N, &src));
        transpose(M, N, &src, &mut dst);
        assert_eq!(dst, ref_transpose(M, N, &src));
    }
    check::<1, 1, 1>();
    check::<4, 4, 4>();
    check::<8, 8, 8>();
    check::<5, 7, 3>();
    check::<12, 5, 9>();
    check::<16, 16, 16>();
    check::<17, 17, 17>();
    check::<32, 32, 32>();
    check::<64, 64, 64>();
    check::<33, 3, 13>();

    for seed in 0..8 {
        let a: [f32; 16] = data_f32(16, seed).try_into().unwrap();
        let b: [f32; 16] = data_f32(16, seed + 1).try_into().unwrap();
        let c: [f32; 16] = data_f32(16, seed + 2).try_into().unwrap();
        let s = (4, 4, 4);
        assert_eq!(
            bits32(&mul_4x4_f32::<false>(&a, &b)),
            bits32(&ref_f32(s, &a, &b, false))
        );
        assert_eq!(
            bits32(&mul_4x4_f32::<true>(&a, &b)),
            bits32(&ref_f32(s, &a, &b, F32Vec::FUSED))
        );
        let want: Vec<f32> = ref_f32(s, &a, &b, false)
            .iter()
            .zip(&c)
            .map(|(p, c)| p + c)
            .collect();
        assert_eq!(bits32(&madd_4x4_f32::<false>(&a, &b, &c)), bits32(&want));
        let (a, b) = (a.map(|x| x as f64), b.map(|x| x as f64));
        assert_eq!(
            bits64(&mul_4x4_f64::<false>(&a, &b)),
            bits64(&ref_f64(s, &a, &b, false))
        );
        let ai: [i32; 16] = data_i32(16, seed).try_into().unwrap();
        let bi: [i32; 16] = data_i32(16, seed + 1).try_into().unwrap();
        assert_eq!(mul_4x4_i32(&ai, &bi).to_vec(), ref_i32(s, &ai, &bi));
    }
}

#[test]
fn backend_name_matches_cfg() {
    let expected = if cfg!(feature = "force-scalar") {
        "scalar"
    } else if cfg!(all(target_arch = "x86_64", target_feature = "avx512f")) {
        "avx512"
    } else if cfg!(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        target_feature = "fma"
    )) {
        "avx2"
    } else if cfg!(all(target_arch = "x86_64", target_feature = "sse2")) {
        "sse2"
    } else {
        "scalar"
    };
    assert_eq!(BACKEND, expected);
}
