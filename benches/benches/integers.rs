//! Criterion benchmarks of integer matrix products for the element types
//! without a vector type of their own (`i8 u8 i16 u16 u32 i64 u64`), named
//! as `benches/matrix.rs` names its groups (`matrix mul 16x16 i16`,
//! `matrix madd 16x16 u8`; a non-square product is `matrix mul 3x5x2 i16`,
//! `M x K` times `K x N`). Columns:
//!
//! * `matrix-core`: the `Matrix` operator (`&a * &b`, `&a * &b + c`), which
//!   takes the widened `i32` kernel where it measured faster for the shape
//!   and backend, and the in-order loop elsewhere (`i64` and `u64`: the
//!   `i64` vectors);
//! * `scalar loop`: the in-order loop of the kernels (a copy: it is
//!   private), what every one of these types used before widening;
//! * `simd i32`: `Matrix<i32, ..>`'s product on `i32` operands of the same
//!   shape, the floor a conversion-free path could reach (`u32` runs
//!   exactly this where it takes the `i32` kernel: its operands are read
//!   as `i32` in place).
//! * `clang-19 off` (`i64` groups, with clang-19): Clang's `long` matrix
//!   product, `-O3 -fenable-matrix -march=native`, its batch loop in C.
//!
//! Operands sit at fixed page offsets and each criterion iteration runs
//! `BATCH` operations, as in `benches/matrix.rs`; times are per batch.
//!
//! ```sh
//! RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native \
//!     cargo bench -p matrix-benches --bench integers -- --warm-up-time 1 --measurement-time 2
//! ```

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
#[cfg(has_clang19)]
use matrix_benches::BATCH;
use matrix_benches::{OFFSET_A, OFFSET_B, OFFSET_C, OFFSET_OUT, Placed, batch2, batch3};
use matrix_core::private::Int8Kernel;
use matrix_core::{CastFrom, Element, Matrix};
#[cfg(has_clang19)]
use std::hint::black_box;

type Group<'a> = BenchmarkGroup<'a, WallTime>;

/// The integer element types of these groups: wrapping arithmetic.
trait Int: Element + CastFrom<u64> {
    fn wrapping_add(self, rhs: Self) -> Self;
    fn wrapping_mul(self, rhs: Self) -> Self;
}

macro_rules! int {
    ($($t:ty),*) => {$(
        impl Int for $t {
            fn wrapping_add(self, rhs: Self) -> Self {
                <$t>::wrapping_add(self, rhs)
            }
            fn wrapping_mul(self, rhs: Self) -> Self {
                <$t>::wrapping_mul(self, rhs)
            }
        }
    )*};
}
int!(i8, u8, i16, u16, u32, i64, u64);

/// Deterministic values over the whole range of `T` (wrapping happens).
fn data<T: Int, const R: usize, const C: usize>(seed: u64) -> [[T; R]; C] {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    std::array::from_fn(|_| {
        std::array::from_fn(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            T::cast_from(x >> 11)
        })
    })
}

/// The in-order loop of the kernels, line for line (it is private): down
/// columns, `a[r][0] * b[0][c]` first, then each further product added in
/// `k` order, wrapping, then the addend.
#[inline(always)]
fn scalar_loop<T: Int, const M: usize, const K: usize, const N: usize>(
    a: &[T],
    b: &[T],
    addend: Option<&[T]>,
    out: &mut [T],
) {
    let (m, k) = (M, K);
    assert!(a.len() == M * K && b.len() == K * N && out.len() == M * N);
    for (c, acc) in out.chunks_exact_mut(m).enumerate() {
        let b_col = &b[c * k..(c + 1) * k];
        for (x, &a_r) in acc.iter_mut().zip(&a[..m]) {
            *x = a_r.wrapping_mul(b_col[0]);
        }
        for (a_col, &b_k) in a.chunks_exact(m).zip(b_col).skip(1) {
            for (x, &a_r) in acc.iter_mut().zip(a_col) {
                *x = x.wrapping_add(a_r.wrapping_mul(b_k));
            }
        }
        if let Some(addend) = addend {
            for (x, &y) in acc.iter_mut().zip(&addend[c * m..(c + 1) * m]) {
                *x = x.wrapping_add(y);
            }
        }
    }
}

/// Benchmarks `f` on `a`, `b` (placed at their offsets) into `out`.
fn col2<X: Copy, Y: Copy, O: Copy>(
    g: &mut Group<'_>,
    id: &str,
    a: X,
    b: Y,
    out: O,
    f: impl Fn(&X, &Y, &mut O),
) {
    let a = Placed::new(a, OFFSET_A);
    let b = Placed::new(b, OFFSET_B);
    let mut o = Placed::new(out, OFFSET_OUT);
    g.bench_function(id, |bch| bch.iter(|| batch2(&*a, &*b, &mut *o, &f)));
}

/// As [`col2`] with an addend `c`.
fn col3<X: Copy, Y: Copy, O: Copy>(
    g: &mut Group<'_>,
    id: &str,
    (a, b, c): (X, Y, O),
    out: O,
    f: impl Fn(&X, &Y, &O, &mut O),
) {
    let a = Placed::new(a, OFFSET_A);
    let b = Placed::new(b, OFFSET_B);
    let c = Placed::new(c, OFFSET_C);
    let mut o = Placed::new(out, OFFSET_OUT);
    g.bench_function(id, |bch| bch.iter(|| batch3(&*a, &*b, &*c, &mut *o, &f)));
}

/// The group name: `matrix mul 4x4 i16`, or `matrix mul 3x5x2 i16`.
fn name<T>(op: &str, m: usize, k: usize, n: usize) -> String {
    let t = std::any::type_name::<T>();
    if m == k && k == n {
        format!("matrix {op} {m}x{n} {t}")
    } else {
        format!("matrix {op} {m}x{k}x{n} {t}")
    }
}

/// `matrix mul` of `T` for an `M x K` by `K x N` product: `matrix-core`
/// and `scalar loop`, then the columns `extra` adds.
fn mul<T: Int, const M: usize, const K: usize, const N: usize>(
    c: &mut Criterion,
    extra: impl Fn(&mut Group<'_>, [[T; M]; K], [[T; K]; N]),
) {
    let (da, db) = (data::<T, M, K>(1), data::<T, K, N>(2));
    let mut g = c.benchmark_group(name::<T>("mul", M, K, N));
    let (ma, mb) = (
        Matrix::<T, M, K>::from_column_major(da.as_flattened()),
        Matrix::<T, K, N>::from_column_major(db.as_flattened()),
    );
    col2(&mut g, "matrix-core", ma, mb, Matrix::zero(), |a, b, o| {
        *o = a * b
    });
    col2(
        &mut g,
        "scalar loop",
        da,
        db,
        [[T::ZERO; M]; N],
        |a, b, o| {
            scalar_loop::<T, M, K, N>(
                a.as_flattened(),
                b.as_flattened(),
                None,
                o.as_flattened_mut(),
            )
        },
    );
    extra(&mut g, da, db);
    g.finish();
}

/// [`mul`] with the `simd i32` column.
fn mul_widened<T: Int, const M: usize, const K: usize, const N: usize>(c: &mut Criterion)
where
    i32: CastFrom<T>,
{
    mul::<T, M, K, N>(c, |g, da, db| {
        let widen = |d: &[T]| d.iter().map(|&x| i32::cast_from(x)).collect::<Vec<_>>();
        col2(
            g,
            "simd i32",
            Matrix::<i32, M, K>::from_column_major(&widen(da.as_flattened())),
            Matrix::<i32, K, N>::from_column_major(&widen(db.as_flattened())),
            Matrix::zero(),
            |a, b, o| *o = a * b,
        );
    });
}

/// `matrix madd` (`a * b + c`) of `T`: `matrix-core` and `scalar loop`.
fn madd_widened<T: Int, const M: usize, const K: usize, const N: usize>(c: &mut Criterion) {
    let (da, db, dc) = (data::<T, M, K>(1), data::<T, K, N>(2), data::<T, M, N>(3));
    let mut g = c.benchmark_group(name::<T>("madd", M, K, N));
    let ops = (
        Matrix::<T, M, K>::from_column_major(da.as_flattened()),
        Matrix::<T, K, N>::from_column_major(db.as_flattened()),
        Matrix::<T, M, N>::from_column_major(dc.as_flattened()),
    );
    col3(&mut g, "matrix-core", ops, Matrix::zero(), |a, b, c, o| {
        *o = a * b + *c
    });
    col3(
        &mut g,
        "scalar loop",
        (da, db, dc),
        [[T::ZERO; M]; N],
        |a, b, c, o| {
            scalar_loop::<T, M, K, N>(
                a.as_flattened(),
                b.as_flattened(),
                Some(c.as_flattened()),
                o.as_flattened_mut(),
            )
        },
    );
    g.finish();
}

/// `matrix mad MxKxN u8*i8+i32`: the widening multiply-accumulate of int8
/// inference (`Matrix::mad`, `__builtin_matrix_mad` in `matrix!`) against
/// a plain loop in `i32`, as a user would write it.
fn mad_int8<const M: usize, const K: usize, const N: usize>(c: &mut Criterion) {
    let (da, db, dc) = (
        data::<u8, M, K>(1),
        data::<u64, K, N>(2),
        data::<u64, M, N>(3),
    );
    let b = db.map(|col| col.map(|x| x as i8));
    let acc = dc.map(|col| col.map(|x| (x as i32) >> 8));
    let mut g = c.benchmark_group(format!("matrix mad {M}x{K}x{N} u8*i8+i32"));
    let ops = (
        Matrix::<u8, M, K>::from_column_major(da.as_flattened()),
        Matrix::<i8, K, N>::from_column_major(b.as_flattened()),
        Matrix::<i32, M, N>::from_column_major(acc.as_flattened()),
    );
    col3(&mut g, "matrix-core", ops, Matrix::zero(), |a, b, c, o| {
        *o = a.mad(b, c)
    });
    col3(
        &mut g,
        "matrix-core mad_to",
        ops,
        Matrix::zero(),
        |a, b, c, o| a.mad_to(b, c, o),
    );
    // Each int8 kernel on its own, where the CPU has it.
    for kernel in Int8Kernel::ALL {
        if !kernel.is_supported() {
            eprintln!(
                "matrix mad {M}x{K}x{N}: int8 kernel {} SKIPPED (it needs {})",
                kernel.name(),
                kernel.needs()
            );
            continue;
        }
        let id = format!("kernel {}", kernel.name());
        col3(&mut g, &id, ops, Matrix::zero(), |a, b, c, o| {
            let abc = (a.as_slice(), b.as_slice(), c.as_slice());
            kernel.mad(abc, (M, K, N), o.as_mut_slice());
        });
    }
    // What `Matrix::mad` ran before the int8 kernels: both operands
    // widened to `i32`, then the `i32` product.
    col3(&mut g, "widened i32", ops, Matrix::zero(), |a, b, c, o| {
        *o = a.cast::<i32>() * b.cast::<i32>() + *c
    });
    col3(
        &mut g,
        "plain loop",
        (da, b, acc),
        [[0; M]; N],
        |a, b, c, o| {
            for j in 0..N {
                for r in 0..M {
                    let mut sum = c[j][r];
                    for k in 0..K {
                        sum = sum.wrapping_add(i32::from(a[k][r]) * i32::from(b[j][k]));
                    }
                    o[j][r] = sum;
                }
            }
        },
    );
    g.finish();
}

/// `matrix mad MxKxN bf16*bf16+f32`: the widening multiply-accumulate of
/// bfloat16 operands into an `f32` accumulator (`Matrix::mad`) against the
/// plain loop a user would write (each product in `f32`, summed in `k`
/// order: the same bits), in the order that vectorises.
#[cfg(feature = "bf16")]
fn mad_bf16<const M: usize, const K: usize, const N: usize>(c: &mut Criterion) {
    use matrix_core::private::bf16;
    let da: [[bf16; M]; K] =
        data::<u8, M, K>(1).map(|col| col.map(|x| bf16::from_f32((f32::from(x) - 128.0) / 16.0)));
    let db: [[bf16; K]; N] =
        data::<u8, K, N>(2).map(|col| col.map(|x| bf16::from_f32(f32::from(x) / 64.0)));
    let acc: [[f32; M]; N] = data::<u8, M, N>(3).map(|col| col.map(f32::from));
    let mut g = c.benchmark_group(format!("matrix mad {M}x{K}x{N} bf16*bf16+f32"));
    let ops = (
        Matrix::<bf16, M, K>::from_column_major(da.as_flattened()),
        Matrix::<bf16, K, N>::from_column_major(db.as_flattened()),
        Matrix::<f32, M, N>::from_column_major(acc.as_flattened()),
    );
    col3(&mut g, "matrix-core", ops, Matrix::zero(), |a, b, c, o| {
        *o = a.mad(b, c)
    });
    // Down each column of the result, `k` outermost: the same sums in the
    // same order, and a loop LLVM vectorises across the rows.
    col3(
        &mut g,
        "plain loop",
        (da, db, acc),
        [[0.0; M]; N],
        |a, b, c, o| {
            for j in 0..N {
                let b_j = b[j].map(|x| x.to_f32());
                for r in 0..M {
                    o[j][r] = a[0][r].to_f32() * b_j[0];
                }
                for k in 1..K {
                    for r in 0..M {
                        o[j][r] += a[k][r].to_f32() * b_j[k];
                    }
                }
                for r in 0..M {
                    o[j][r] += c[j][r];
                }
            }
        },
    );
    g.finish();
}

/// The `bf16` groups, with the `bf16` feature.
fn bf16_mads(c: &mut Criterion) {
    #[cfg(feature = "bf16")]
    {
        mad_bf16::<16, 32, 16>(c);
        mad_bf16::<64, 64, 64>(c);
    }
    let _ = c;
}

fn int8(c: &mut Criterion) {
    mad_int8::<16, 64, 16>(c);
    mad_int8::<64, 64, 64>(c);
    // Around where `Int8Kernel::choose` starts packing.
    mad_int8::<8, 16, 4>(c);
    mad_int8::<16, 16, 16>(c);
    mad_int8::<16, 32, 16>(c);
    mad_int8::<32, 32, 32>(c);
}

/// Every widened type at one shape.
macro_rules! widened_types {
    ($c:expr, $m:literal, $k:literal, $n:literal) => {
        mul_widened::<i8, $m, $k, $n>($c);
        mul_widened::<u8, $m, $k, $n>($c);
        mul_widened::<i16, $m, $k, $n>($c);
        mul_widened::<u16, $m, $k, $n>($c);
        mul_widened::<u32, $m, $k, $n>($c);
    };
}

fn products(c: &mut Criterion) {
    widened_types!(c, 4, 4, 4);
    widened_types!(c, 8, 8, 8);
    widened_types!(c, 16, 16, 16);
    widened_types!(c, 32, 32, 32);
    // Where the thresholds of the widening's choice lie.
    widened_types!(c, 3, 5, 2);
    widened_types!(c, 12, 12, 12);
    widened_types!(c, 16, 4, 16);
    widened_types!(c, 16, 8, 16);
    widened_types!(c, 8, 16, 8);
}

fn madds(c: &mut Criterion) {
    madd_widened::<i8, 4, 4, 4>(c);
    madd_widened::<u16, 4, 4, 4>(c);
    madd_widened::<i16, 16, 16, 16>(c);
    madd_widened::<u8, 16, 16, 16>(c);
    madd_widened::<u32, 16, 16, 16>(c);
}

/// A `clang-19 off` column: Clang's `long` matrix product of the same
/// operands, its batch loop in C.
#[cfg(has_clang19)]
fn clang_i64<const M: usize, const NN: usize>(
    g: &mut Group<'_>,
    (da, db): ([[i64; M]; M], [[i64; M]; M]),
    f: fn(&[i64; NN], &[i64; NN], &mut [i64; NN], usize),
) {
    let flat =
        |d: [[i64; M]; M]| -> [i64; NN] { d.as_flattened().try_into().expect("M * M elements") };
    let a = Placed::new(flat(da), OFFSET_A);
    let b = Placed::new(flat(db), OFFSET_B);
    let mut o = Placed::new([0; NN], OFFSET_OUT);
    g.bench_function("clang-19 off", |bch| {
        bch.iter(|| f(black_box(&*a), black_box(&*b), black_box(&mut *o), BATCH))
    });
}

/// `i64` and `u64` products, on the `i64` vectors (AVX-512DQ's `vpmullq`,
/// or AVX2's multiplication built from 32-bit ones), against the loop and
/// Clang's `long` matrices.
fn wide(c: &mut Criterion) {
    mul::<i64, 4, 4, 4>(c, |_g, _a, _b| {
        #[cfg(has_clang19)]
        clang_i64(_g, (_a, _b), matrix_benches::clang::off::mul_i64_4);
    });
    mul::<i64, 8, 8, 8>(c, |_g, _a, _b| {
        #[cfg(has_clang19)]
        clang_i64(_g, (_a, _b), matrix_benches::clang::off::mul_i64_8);
    });
    mul::<i64, 16, 16, 16>(c, |_g, _a, _b| {
        #[cfg(has_clang19)]
        clang_i64(_g, (_a, _b), matrix_benches::clang::off::mul_i64_16);
    });
    mul::<u64, 16, 16, 16>(c, |_, _, _| {});
}

criterion_group!(benches, products, madds, wide, int8, bf16_mads);
criterion_main!(benches);
