//! Criterion benchmarks, named as mathbench names its operations
//! (`matrix mul 4x4 f32`, `matrix transpose 4x4`, ...), one column per
//! implementation:
//!
//! * `matrix-core`: the `Matrix` operators outside the macro (each checks
//!   the detected backend);
//! * `matrix-core mul_to` / `mad_to` / `transpose_to`: `a.mul_to(&b, &mut
//!   out)`, `a.mad_to(&b, &c, &mut out)` and `a.transpose_to(&mut out)`,
//!   the kernel writing `out` itself;
//! * `dispatch(||)` (4x4): the same batch loop inside
//!   `matrix_core::dispatch(#[inline(always)] || ...)`, compiled for the
//!   detected backend;
//! * `glam`: `Mat4` / `DMat4` (4x4 only);
//! * `nalgebra`: `SMatrix`;
//! * `clang-19 off` / `clang-19 fast`: Clang's matrix types, built by
//!   build.rs with `-ffp-contract=off`, and with `-ffp-contract=fast
//!   -mprefer-vector-width=512` (skipped without clang-19);
//! * `clang-19 off batch` (4x4): `-ffp-contract=off` kernels in the form of
//!   `dsl #[dispatch]`, one C loop over [`BATCH`] distinct operands, where
//!   `clang-19 off` runs one product [`BATCH`] times on the same operands;
//! * `dsl exact` / `dsl fast`: the `matrix!` kernels (feature `dsl`);
//! * `dsl load/store`: a `matrix!` kernel in the C kernels' own form,
//!   operands loaded from slices and the result stored into one;
//! * `dsl fast load/store`: the same under `#[fp_contract(fast)]`, the
//!   form `clang-19 fast` measures;
//! * `dsl #[dispatch]` (4x4): a `#[dispatch]` kernel running the whole batch,
//!   compiled once per backend.
//!
//! Operands sit at fixed page offsets and each criterion iteration runs
//! `BATCH` operations; see the crate documentation. Times are per batch;
//! `run.sh` divides them by `BATCH`.

#[cfg(any(feature = "dsl", has_clang19))]
use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use matrix_benches::*;

type Group<'a> = BenchmarkGroup<'a, WallTime>;

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

/// As [`col2`], with the batch loop inside `matrix_core::dispatch`: compiled
/// for the detected backend, every operation still checking it. `f` is
/// passed by value (a closure without captures is `Copy`), so that the
/// loop calls it directly and its `#[inline(always)]` holds: called
/// through `&f`, the reference's `Fn` shim stays out of line and `f` runs
/// the build's baseline code, the pitfall `dispatch`'s documentation
/// describes.
fn col2_dispatched<X: Copy, O: Copy>(
    g: &mut Group<'_>,
    id: &str,
    a: X,
    b: X,
    out: O,
    f: impl Fn(&X, &X, &mut O) + Copy,
) {
    let a = Placed::new(a, OFFSET_A);
    let b = Placed::new(b, OFFSET_B);
    let mut o = Placed::new(out, OFFSET_OUT);
    g.bench_function(id, |bch| {
        bch.iter(|| {
            matrix_core::dispatch(
                #[inline(always)]
                || batch2(&*a, &*b, &mut *o, f),
            )
        })
    });
}

/// A column whose `f` runs a whole batch: `f(a, b, out)` on [`BATCH`]
/// operands each (a `#[dispatch]` kernel looping over them).
#[cfg(feature = "dsl")]
fn col2_batch<X: Copy, O: Copy>(
    g: &mut Group<'_>,
    id: &str,
    a: X,
    b: X,
    out: O,
    f: impl Fn(&[X; BATCH], &[X; BATCH], &mut [O; BATCH]),
) {
    let a = Placed::new([a; BATCH], OFFSET_A);
    let b = Placed::new([b; BATCH], OFFSET_B);
    let mut o = Placed::new([out; BATCH], OFFSET_OUT);
    g.bench_function(id, |bch| {
        bch.iter(|| f(black_box(&*a), black_box(&*b), black_box(&mut *o)))
    });
}

/// As [`col2_batch`] with an addend `c`.
#[cfg(feature = "dsl")]
fn col3_batch<X: Copy, O: Copy>(
    g: &mut Group<'_>,
    id: &str,
    [a, b, c]: [X; 3],
    out: O,
    f: impl Fn(&[X; BATCH], &[X; BATCH], &[X; BATCH], &mut [O; BATCH]),
) {
    let a = Placed::new([a; BATCH], OFFSET_A);
    let b = Placed::new([b; BATCH], OFFSET_B);
    let c = Placed::new([c; BATCH], OFFSET_C);
    let mut o = Placed::new([out; BATCH], OFFSET_OUT);
    g.bench_function(id, |bch| {
        bch.iter(|| {
            f(
                black_box(&*a),
                black_box(&*b),
                black_box(&*c),
                black_box(&mut *o),
            )
        })
    });
}

/// As [`col2`] with an addend `c`.
fn col3<X: Copy, O: Copy>(
    g: &mut Group<'_>,
    id: &str,
    [a, b, c]: [X; 3],
    out: O,
    f: impl Fn(&X, &X, &X, &mut O),
) {
    let a = Placed::new(a, OFFSET_A);
    let b = Placed::new(b, OFFSET_B);
    let c = Placed::new(c, OFFSET_C);
    let mut o = Placed::new(out, OFFSET_OUT);
    g.bench_function(id, |bch| bch.iter(|| batch3(&*a, &*b, &*c, &mut *o, &f)));
}

/// As [`col2`] for one operand.
fn col1<X: Copy, O: Copy>(g: &mut Group<'_>, id: &str, a: X, out: O, f: impl Fn(&X, &mut O)) {
    let a = Placed::new(a, OFFSET_A);
    let mut o = Placed::new(out, OFFSET_OUT);
    g.bench_function(id, |bch| bch.iter(|| batch1(&*a, &mut *o, &f)));
}

/// A clang-19 column: `f(a, b, out, BATCH)` runs the batch loop in C.
#[cfg(has_clang19)]
fn clang2<T: Copy + Default, const NN: usize>(
    g: &mut Group<'_>,
    id: &str,
    a: [T; NN],
    b: [T; NN],
    f: fn(&[T; NN], &[T; NN], &mut [T; NN], usize),
) {
    let a = Placed::new(a, OFFSET_A);
    let b = Placed::new(b, OFFSET_B);
    let mut o = Placed::new([T::default(); NN], OFFSET_OUT);
    g.bench_function(id, |bch| {
        bch.iter(|| f(black_box(&*a), black_box(&*b), black_box(&mut *o), BATCH))
    });
}

/// The operands of a batch kernel: [`BATCH`] matrices of `NN` elements.
#[cfg(has_clang19)]
type Batch<T, const NN: usize> = [[T; NN]; BATCH];

/// The clang-19 column of the `dsl #[dispatch]` form, `clang-19 off
/// batch`: `f(a, b, out)` runs [`BATCH`] products of distinct operands in C.
#[cfg(has_clang19)]
fn clang2_batch<T: Copy + Default, const NN: usize>(
    g: &mut Group<'_>,
    a: [T; NN],
    b: [T; NN],
    f: fn(&Batch<T, NN>, &Batch<T, NN>, &mut Batch<T, NN>),
) {
    let a = Placed::new([a; BATCH], OFFSET_A);
    let b = Placed::new([b; BATCH], OFFSET_B);
    let mut o = Placed::new([[T::default(); NN]; BATCH], OFFSET_OUT);
    g.bench_function("clang-19 off batch", |bch| {
        bch.iter(|| f(black_box(&*a), black_box(&*b), black_box(&mut *o)))
    });
}

/// As [`clang2_batch`] for `a * b + c`.
#[cfg(has_clang19)]
fn clang3_batch<T: Copy + Default, const NN: usize>(
    g: &mut Group<'_>,
    [a, b, c]: [[T; NN]; 3],
    f: CMaddBatch<T, NN>,
) {
    let a = Placed::new([a; BATCH], OFFSET_A);
    let b = Placed::new([b; BATCH], OFFSET_B);
    let c = Placed::new([c; BATCH], OFFSET_C);
    let mut o = Placed::new([[T::default(); NN]; BATCH], OFFSET_OUT);
    g.bench_function("clang-19 off batch", |bch| {
        bch.iter(|| {
            f(
                black_box(&*a),
                black_box(&*b),
                black_box(&*c),
                black_box(&mut *o),
            )
        })
    });
}

/// A clang-19 batch kernel of `a * b + c`: `f(a, b, c, out)`.
#[cfg(has_clang19)]
type CMaddBatch<T, const NN: usize> =
    fn(&Batch<T, NN>, &Batch<T, NN>, &Batch<T, NN>, &mut Batch<T, NN>);

/// A clang-19 kernel of `a * b + c`: `f(a, b, c, out, iterations)`.
#[cfg(has_clang19)]
type CMadd<T, const NN: usize> = fn(&[T; NN], &[T; NN], &[T; NN], &mut [T; NN], usize);

/// A clang-19 column of `a * b + c`.
#[cfg(has_clang19)]
fn clang3<T: Copy + Default, const NN: usize>(
    g: &mut Group<'_>,
    id: &str,
    [a, b, c]: [[T; NN]; 3],
    f: CMadd<T, NN>,
) {
    let a = Placed::new(a, OFFSET_A);
    let b = Placed::new(b, OFFSET_B);
    let c = Placed::new(c, OFFSET_C);
    let mut o = Placed::new([T::default(); NN], OFFSET_OUT);
    g.bench_function(id, |bch| {
        bch.iter(|| {
            f(
                black_box(&*a),
                black_box(&*b),
                black_box(&*c),
                black_box(&mut *o),
                BATCH,
            )
        })
    });
}

/// A clang-19 column of a transpose.
#[cfg(has_clang19)]
fn clang1<T: Copy + Default, const NN: usize>(
    g: &mut Group<'_>,
    id: &str,
    a: [T; NN],
    f: fn(&[T; NN], &mut [T; NN], usize),
) {
    let a = Placed::new(a, OFFSET_A);
    let mut o = Placed::new([T::default(); NN], OFFSET_OUT);
    g.bench_function(id, |bch| {
        bch.iter(|| f(black_box(&*a), black_box(&mut *o), BATCH))
    });
}

/// `matrix mul NxN T`: every column but glam's and the DSL's.
macro_rules! mul_group {
    ($c:expr, $t:ty, $n:literal, $data:ident, $clang:ident, $extra:expr) => {{
        const NN: usize = $n * $n;
        type M = matrix_core::Matrix<$t, $n, $n>;
        type S = nalgebra::SMatrix<$t, $n, $n>;
        let (da, db) = ($data::<NN>(1), $data::<NN>(2));
        let mut g = $c.benchmark_group(concat!("matrix mul ", $n, "x", $n, " ", stringify!($t)));
        let from = |d: &[$t; NN]| M::from_column_major(d);
        col2(
            &mut g,
            "matrix-core",
            from(&da),
            from(&db),
            M::zero(),
            |a, b, o| *o = a * b,
        );
        col2(
            &mut g,
            "matrix-core mul_to",
            from(&da),
            from(&db),
            M::zero(),
            |a, b, o| a.mul_to(b, o),
        );
        if $n == 4 {
            let from = |d: &[$t; NN]| M::from_column_major(d);
            col2_dispatched(
                &mut g,
                "dispatch(||)",
                from(&da),
                from(&db),
                M::zero(),
                // Inlined into each backend's copy of the batch loop, as
                // `dispatch`'s own closure is (see its documentation).
                #[inline(always)]
                |a, b, o| *o = a * b,
            );
        }
        let from = |d: &[$t; NN]| S::from_column_slice(d);
        col2(
            &mut g,
            "nalgebra",
            from(&da),
            from(&db),
            S::zeros(),
            |a, b, o| a.mul_to(b, o),
        );
        #[cfg(has_clang19)]
        {
            clang2(&mut g, "clang-19 off", da, db, clang::off::$clang);
            clang2(&mut g, "clang-19 fast", da, db, clang::fast::$clang);
        }
        let extra: fn(&mut Group<'_>, [$t; NN], [$t; NN]) = $extra;
        extra(&mut g, da, db);
        g.finish();
    }};
}

/// A `matrix-core by value` column: `*o = *a * *b`, the operands copied
/// first as a `matrix!` kernel's by-value parameters are.
fn by_value<T: matrix_core::Element, const N: usize>(
    g: &mut Group<'_>,
    a: matrix_core::Matrix<T, N, N>,
    b: matrix_core::Matrix<T, N, N>,
) {
    col2(g, "matrix-core by value", a, b, a, |a, b, o| *o = *a * *b);
}

/// The matrix of column-major `d`.
fn from_cm<T: matrix_core::Element, const N: usize>(d: &[T]) -> matrix_core::Matrix<T, N, N> {
    matrix_core::Matrix::from_column_major(d)
}

fn products(c: &mut Criterion) {
    // Shapes whose columns fill no whole vector: 3x3 `f32` (graphics), 7x7
    // and 6x6 `f64` (a rigid body's spatial inertia).
    mul_group!(c, f32, 3, data_f32, mul_f32_3, |g, a, b| {
        by_value::<f32, 3>(g, from_cm(&a), from_cm(&b));
    });
    mul_group!(c, f32, 7, data_f32, mul_f32_7, |g, a, b| {
        by_value::<f32, 7>(g, from_cm(&a), from_cm(&b));
    });
    mul_group!(c, f64, 6, data_f64, mul_f64_6, |g, a, b| {
        by_value::<f64, 6>(g, from_cm(&a), from_cm(&b));
    });
    mul_group!(c, f32, 4, data_f32, mul_f32_4, |g, a, b| {
        col2(
            g,
            "glam",
            glam::Mat4::from_cols_array(&a),
            glam::Mat4::from_cols_array(&b),
            glam::Mat4::ZERO,
            |a, b, o| *o = *a * *b,
        );
        #[cfg(has_clang19)]
        clang2_batch(g, a, b, clang::batch::mul_f32_4);
        #[cfg(feature = "dsl")]
        dsl::mul_4x4_f32(g, a, b);
    });
    mul_group!(c, f32, 8, data_f32, mul_f32_8, |_g, _a, _b| {
        #[cfg(feature = "dsl")]
        dsl::mul_8x8_f32(_g, _a, _b);
    });
    mul_group!(c, f32, 16, data_f32, mul_f32_16, |_g, _a, _b| {
        #[cfg(feature = "dsl")]
        dsl::mul_16x16_f32(_g, _a, _b);
    });
    mul_group!(c, f32, 32, data_f32, mul_f32_32, |_g, _a, _b| {
        #[cfg(feature = "dsl")]
        dsl::mul_32x32_f32(_g, _a, _b);
    });
    mul_group!(c, f32, 64, data_f32, mul_f32_64, |_g, _a, _b| {
        #[cfg(feature = "dsl")]
        dsl::mul_64x64_f32(_g, _a, _b);
    });
    mul_group!(c, f64, 4, data_f64, mul_f64_4, |g, a, b| {
        col2(
            g,
            "glam",
            glam::DMat4::from_cols_array(&a),
            glam::DMat4::from_cols_array(&b),
            glam::DMat4::ZERO,
            |a, b, o| *o = *a * *b,
        );
        #[cfg(has_clang19)]
        clang2_batch(g, a, b, clang::batch::mul_f64_4);
        #[cfg(feature = "dsl")]
        dsl::mul_4x4_f64(g, a, b);
    });
    mul_group!(c, f64, 8, data_f64, mul_f64_8, |_g, _a, _b| {
        #[cfg(feature = "dsl")]
        dsl::mul_8x8_f64(_g, _a, _b);
    });
    mul_group!(c, i32, 4, data_i32, mul_i32_4, |_g, _a, _b| {
        #[cfg(has_clang19)]
        clang2_batch(_g, _a, _b, clang::batch::mul_i32_4);
        #[cfg(feature = "dsl")]
        dsl::mul_4x4_i32(_g, _a, _b);
    });
}

/// `matrix madd NxN f32`: `a * b + c`.
macro_rules! madd_group {
    ($c:expr, $n:literal, $clang:ident, $extra:expr) => {{
        const NN: usize = $n * $n;
        type M = matrix_core::Matrix<f32, $n, $n>;
        type S = nalgebra::SMatrix<f32, $n, $n>;
        let d = [data_f32::<NN>(1), data_f32::<NN>(2), data_f32::<NN>(3)];
        let mut g = $c.benchmark_group(concat!("matrix madd ", $n, "x", $n, " f32"));
        let from = |d: &[f32; NN]| M::from_column_major(d);
        col3(
            &mut g,
            "matrix-core",
            d.each_ref().map(from),
            M::zero(),
            |a, b, c, o| *o = a * b + *c,
        );
        col3(
            &mut g,
            "matrix-core mad_to",
            d.each_ref().map(from),
            M::zero(),
            |a, b, c, o| a.mad_to(b, c, o),
        );
        if $n == 4 {
            let [a, b, c] = d.each_ref().map(from);
            let a = Placed::new(a, OFFSET_A);
            let b = Placed::new(b, OFFSET_B);
            let c = Placed::new(c, OFFSET_C);
            let mut o = Placed::new(M::zero(), OFFSET_OUT);
            g.bench_function("dispatch(||)", |bch| {
                bch.iter(|| {
                    matrix_core::dispatch(
                        #[inline(always)]
                        || batch3(&*a, &*b, &*c, &mut *o, |a, b, c, o| *o = a * b + *c),
                    )
                })
            });
        }
        let from = |d: &[f32; NN]| S::from_column_slice(d);
        col3(
            &mut g,
            "nalgebra",
            d.each_ref().map(from),
            S::zeros(),
            |a, b, c, o| *o = a * b + c,
        );
        #[cfg(has_clang19)]
        {
            clang3(&mut g, "clang-19 off", d, clang::off::$clang);
            clang3(&mut g, "clang-19 fast", d, clang::fast::$clang);
        }
        let extra: fn(&mut Group<'_>, [[f32; NN]; 3]) = $extra;
        extra(&mut g, d);
        g.finish();
    }};
}

fn madds(c: &mut Criterion) {
    madd_group!(c, 4, madd_f32_4, |g, d| {
        let [a, b, c] = d.map(|x| glam::Mat4::from_cols_array(&x));
        col3(g, "glam", [a, b, c], glam::Mat4::ZERO, |a, b, c, o| {
            *o = *a * *b + *c
        });
        #[cfg(has_clang19)]
        clang3_batch(g, d, clang::batch::madd_f32_4);
        #[cfg(feature = "dsl")]
        dsl::madd_4x4_f32(g, d);
    });
    madd_group!(c, 8, madd_f32_8, |_g, _d| {
        #[cfg(feature = "dsl")]
        dsl::madd_8x8_f32(_g, _d);
    });
}

/// `matrix transpose NxN` (`f32`; other types name theirs after the
/// shape: `matrix transpose 8x8 f64`).
macro_rules! transpose_group {
    ($c:expr, $n:literal, $clang:ident, $extra:expr) => {
        transpose_group!($c, f32, data_f32, $n, "", $clang, $extra)
    };
    ($c:expr, $t:ty, $data:ident, $n:literal, $suffix:literal, $clang:ident, $extra:expr) => {{
        const NN: usize = $n * $n;
        type M = matrix_core::Matrix<$t, $n, $n>;
        type S = nalgebra::SMatrix<$t, $n, $n>;
        let d = $data::<NN>(1);
        let mut g = $c.benchmark_group(concat!("matrix transpose ", $n, "x", $n, $suffix));
        col1(
            &mut g,
            "matrix-core",
            M::from_column_major(&d),
            M::zero(),
            |a, o| *o = a.transpose(),
        );
        col1(
            &mut g,
            "matrix-core transpose_to",
            M::from_column_major(&d),
            M::zero(),
            |a, o| a.transpose_to(o),
        );
        // The harness's floor: a plain copy moves the same bytes, so a
        // transpose can be no faster than this column.
        col1(&mut g, "copy", d, [0.0 as $t; NN], |a, o| *o = *a);
        col1(
            &mut g,
            "nalgebra",
            S::from_column_slice(&d),
            S::zeros(),
            |a, o| a.transpose_to(o),
        );
        #[cfg(has_clang19)]
        {
            clang1(&mut g, "clang-19 off", d, clang::off::$clang);
            clang1(&mut g, "clang-19 fast", d, clang::fast::$clang);
        }
        let extra: fn(&mut Group<'_>, [$t; NN]) = $extra;
        extra(&mut g, d);
        g.finish();
    }};
}

fn transposes(c: &mut Criterion) {
    transpose_group!(c, 4, transpose_f32_4, |g, d| {
        col1(
            g,
            "glam",
            glam::Mat4::from_cols_array(&d),
            glam::Mat4::ZERO,
            |a, o| *o = a.transpose(),
        );
        #[cfg(feature = "dsl")]
        dsl::transpose_4x4(g, d);
    });
    transpose_group!(c, 8, transpose_f32_8, |_g, _d| {
        #[cfg(feature = "dsl")]
        dsl::transpose_8x8(_g, _d);
    });
    transpose_group!(c, 16, transpose_f32_16, |_g, _d| {
        #[cfg(feature = "dsl")]
        dsl::transpose_16x16(_g, _d);
    });
    transpose_group!(c, f64, data_f64, 8, " f64", transpose_f64_8, |_, _| ());
    transpose_group!(c, f64, data_f64, 16, " f64", transpose_f64_16, |_, _| ());
    transpose_group!(c, u8, data_u8, 16, " u8", transpose_u8_16, |_, _| ());
    transpose_group!(c, u16, data_u16, 8, " u16", transpose_u16_8, |_, _| ());
    transpose_group!(c, u16, data_u16, 16, " u16", transpose_u16_16, |_, _| ());
}

/// Column (f): the `matrix!` macro's kernels, in the DSL syntax of the
/// contract. Off by default (feature `dsl`) until the macro lowers them.
#[cfg(feature = "dsl")]
mod dsl {
    use super::{Group, col1, col2, col2_batch, col3, col3_batch};
    use matrix_core::{Matrix, RowMajor, matrix};

    matrix! {
        typedef float m4x4_t __attribute__((matrix_type(4, 4)));
        typedef float m8x8_t __attribute__((matrix_type(8, 8)));
        typedef float m16x16_t __attribute__((matrix_type(16, 16)));
        typedef float m32x32_t __attribute__((matrix_type(32, 32)));
        typedef float m64x64_t __attribute__((matrix_type(64, 64)));
        typedef double d4x4_t __attribute__((matrix_type(4, 4)));
        typedef double d8x8_t __attribute__((matrix_type(8, 8)));
        typedef int i4x4_t __attribute__((matrix_type(4, 4)));
        typedef float m16x16r_t __attribute__((matrix_type(16, 16, row_major)));

        pub fn k_mul_4x4_f32(a: m4x4_t, b: m4x4_t) -> m4x4_t { a * b }
        pub fn k_cast_mul_16x16(a: m16x16r_t, b: m16x16_t) -> m16x16_t { (m16x16_t) a * b }
        pub fn k_rm_mul_16x16(a: m16x16r_t, b: m16x16r_t) -> m16x16r_t { a * b }
        pub fn k_mul_8x8_f32(a: m8x8_t, b: m8x8_t) -> m8x8_t { a * b }
        pub fn k_mul_16x16_f32(a: m16x16_t, b: m16x16_t) -> m16x16_t { a * b }
        pub fn k_mul_32x32_f32(a: m32x32_t, b: m32x32_t) -> m32x32_t { a * b }
        pub fn k_mul_64x64_f32(a: m64x64_t, b: m64x64_t) -> m64x64_t { a * b }
        pub fn k_mul_4x4_f64(a: d4x4_t, b: d4x4_t) -> d4x4_t { a * b }
        pub fn k_mul_8x8_f64(a: d8x8_t, b: d8x8_t) -> d8x8_t { a * b }
        pub fn k_mul_4x4_i32(a: i4x4_t, b: i4x4_t) -> i4x4_t { a * b }
        pub fn k_madd_4x4_f32(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t { a * b + c }
        pub fn k_madd_8x8_f32(a: m8x8_t, b: m8x8_t, c: m8x8_t) -> m8x8_t { a * b + c }
        pub fn k_transpose_4x4(a: m4x4_t) -> m4x4_t { __builtin_matrix_transpose(a) }
        pub fn k_transpose_8x8(a: m8x8_t) -> m8x8_t { __builtin_matrix_transpose(a) }
        pub fn k_chain_4x4(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t { (a + b) * 0.5f32 - c }
        pub fn k_chain_8x8(a: m8x8_t, b: m8x8_t, c: m8x8_t) -> m8x8_t { (a + b) * 0.5f32 - c }
        pub fn k_chain_16x16(a: m16x16_t, b: m16x16_t, c: m16x16_t) -> m16x16_t {
            (a + b) * 0.5f32 - c
        }
        pub fn k_map_16x16(a: m16x16_t, b: m16x16_t, c: m16x16_t) -> m16x16_t {
            __builtin_matrix_map(a + b, |x| x * x + 0.5f32) - c
        }
        pub fn k_mul_bt_16x16(a: m16x16_t, b: m16x16_t) -> m16x16_t {
            a * __builtin_matrix_transpose(b)
        }

        // Clang's own form, as `benches/c/matrix.c` writes it: operands
        // loaded from memory, the product stored into memory.
        pub fn s_mul_4x4_f32(a: &[f32], b: &[f32], out: &mut [f32]) {
            let x: m4x4_t = __builtin_matrix_column_major_load(a, 4, 4, 4);
            let y: m4x4_t = __builtin_matrix_column_major_load(b, 4, 4, 4);
            __builtin_matrix_column_major_store(x * y, out, 4);
        }
        pub fn s_mul_8x8_f32(a: &[f32], b: &[f32], out: &mut [f32]) {
            let x: m8x8_t = __builtin_matrix_column_major_load(a, 8, 8, 8);
            let y: m8x8_t = __builtin_matrix_column_major_load(b, 8, 8, 8);
            __builtin_matrix_column_major_store(x * y, out, 8);
        }
        pub fn s_mul_16x16_f32(a: &[f32], b: &[f32], out: &mut [f32]) {
            let x: m16x16_t = __builtin_matrix_column_major_load(a, 16, 16, 16);
            let y: m16x16_t = __builtin_matrix_column_major_load(b, 16, 16, 16);
            __builtin_matrix_column_major_store(x * y, out, 16);
        }
        pub fn s_mul_4x4_f64(a: &[f64], b: &[f64], out: &mut [f64]) {
            let x: d4x4_t = __builtin_matrix_column_major_load(a, 4, 4, 4);
            let y: d4x4_t = __builtin_matrix_column_major_load(b, 4, 4, 4);
            __builtin_matrix_column_major_store(x * y, out, 4);
        }
        pub fn s_mul_8x8_f64(a: &[f64], b: &[f64], out: &mut [f64]) {
            let x: d8x8_t = __builtin_matrix_column_major_load(a, 8, 8, 8);
            let y: d8x8_t = __builtin_matrix_column_major_load(b, 8, 8, 8);
            __builtin_matrix_column_major_store(x * y, out, 8);
        }
        pub fn s_mul_4x4_i32(a: &[i32], b: &[i32], out: &mut [i32]) {
            let x: i4x4_t = __builtin_matrix_column_major_load(a, 4, 4, 4);
            let y: i4x4_t = __builtin_matrix_column_major_load(b, 4, 4, 4);
            __builtin_matrix_column_major_store(x * y, out, 4);
        }
        pub fn s_madd_4x4_f32(a: &[f32], b: &[f32], c: &[f32], out: &mut [f32]) {
            let x: m4x4_t = __builtin_matrix_column_major_load(a, 4, 4, 4);
            let y: m4x4_t = __builtin_matrix_column_major_load(b, 4, 4, 4);
            let z: m4x4_t = __builtin_matrix_column_major_load(c, 4, 4, 4);
            __builtin_matrix_column_major_store(x * y + z, out, 4);
        }
        pub fn s_madd_8x8_f32(a: &[f32], b: &[f32], c: &[f32], out: &mut [f32]) {
            let x: m8x8_t = __builtin_matrix_column_major_load(a, 8, 8, 8);
            let y: m8x8_t = __builtin_matrix_column_major_load(b, 8, 8, 8);
            let z: m8x8_t = __builtin_matrix_column_major_load(c, 8, 8, 8);
            __builtin_matrix_column_major_store(x * y + z, out, 8);
        }

        pub fn s_transpose_8x8(a: &[f32], out: &mut [f32]) {
            __builtin_matrix_column_major_store(
                __builtin_matrix_transpose(__builtin_matrix_column_major_load(a, 8, 8)),
                out,
            );
        }
        pub fn s_transpose_16x16(a: &[f32], out: &mut [f32]) {
            let x: m16x16_t = __builtin_matrix_column_major_load(a, 16, 16);
            __builtin_matrix_column_major_store(__builtin_matrix_transpose(x), out);
        }

        /// A batch of products, compiled once per backend.
        #[dispatch]
        pub fn d_mul_4x4_f32(a: &[m4x4_t; 16], b: &[m4x4_t; 16], out: &mut [m4x4_t; 16]) {
            for i in 0..16 {
                out[i] = a[i] * b[i];
            }
        }
        #[dispatch]
        pub fn d_mul_4x4_f64(a: &[d4x4_t; 16], b: &[d4x4_t; 16], out: &mut [d4x4_t; 16]) {
            for i in 0..16 {
                out[i] = a[i] * b[i];
            }
        }
        #[dispatch]
        pub fn d_mul_4x4_i32(a: &[i4x4_t; 16], b: &[i4x4_t; 16], out: &mut [i4x4_t; 16]) {
            for i in 0..16 {
                out[i] = a[i] * b[i];
            }
        }
        #[dispatch]
        pub fn d_madd_4x4_f32(
            a: &[m4x4_t; 16],
            b: &[m4x4_t; 16],
            c: &[m4x4_t; 16],
            out: &mut [m4x4_t; 16],
        ) {
            for i in 0..16 {
                out[i] = a[i] * b[i] + c[i];
            }
        }

        #[fp_contract(fast)]
        pub fn f_mul_4x4_f32(a: m4x4_t, b: m4x4_t) -> m4x4_t { a * b }
        #[fp_contract(fast)]
        pub fn f_mul_8x8_f32(a: m8x8_t, b: m8x8_t) -> m8x8_t { a * b }
        #[fp_contract(fast)]
        pub fn f_mul_16x16_f32(a: m16x16_t, b: m16x16_t) -> m16x16_t { a * b }
        #[fp_contract(fast)]
        pub fn f_mul_32x32_f32(a: m32x32_t, b: m32x32_t) -> m32x32_t { a * b }
        #[fp_contract(fast)]
        pub fn f_mul_64x64_f32(a: m64x64_t, b: m64x64_t) -> m64x64_t { a * b }
        #[fp_contract(fast)]
        pub fn f_mul_4x4_f64(a: d4x4_t, b: d4x4_t) -> d4x4_t { a * b }
        #[fp_contract(fast)]
        pub fn f_mul_8x8_f64(a: d8x8_t, b: d8x8_t) -> d8x8_t { a * b }
        #[fp_contract(fast)]
        pub fn f_madd_4x4_f32(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t { a * b + c }
        #[fp_contract(fast)]
        pub fn f_madd_8x8_f32(a: m8x8_t, b: m8x8_t, c: m8x8_t) -> m8x8_t { a * b + c }

        // The C kernels' own form under `fast` contraction: what
        // `clang-19 fast` measures.
        #[fp_contract(fast)]
        pub fn sf_mul_4x4_f32(a: &[f32], b: &[f32], out: &mut [f32]) {
            let x: m4x4_t = __builtin_matrix_column_major_load(a, 4, 4, 4);
            let y: m4x4_t = __builtin_matrix_column_major_load(b, 4, 4, 4);
            __builtin_matrix_column_major_store(x * y, out, 4);
        }
        #[fp_contract(fast)]
        pub fn sf_mul_8x8_f32(a: &[f32], b: &[f32], out: &mut [f32]) {
            let x: m8x8_t = __builtin_matrix_column_major_load(a, 8, 8, 8);
            let y: m8x8_t = __builtin_matrix_column_major_load(b, 8, 8, 8);
            __builtin_matrix_column_major_store(x * y, out, 8);
        }
        #[fp_contract(fast)]
        pub fn sf_mul_16x16_f32(a: &[f32], b: &[f32], out: &mut [f32]) {
            let x: m16x16_t = __builtin_matrix_column_major_load(a, 16, 16, 16);
            let y: m16x16_t = __builtin_matrix_column_major_load(b, 16, 16, 16);
            __builtin_matrix_column_major_store(x * y, out, 16);
        }
        #[fp_contract(fast)]
        pub fn sf_mul_4x4_f64(a: &[f64], b: &[f64], out: &mut [f64]) {
            let x: d4x4_t = __builtin_matrix_column_major_load(a, 4, 4, 4);
            let y: d4x4_t = __builtin_matrix_column_major_load(b, 4, 4, 4);
            __builtin_matrix_column_major_store(x * y, out, 4);
        }
        #[fp_contract(fast)]
        pub fn sf_mul_8x8_f64(a: &[f64], b: &[f64], out: &mut [f64]) {
            let x: d8x8_t = __builtin_matrix_column_major_load(a, 8, 8, 8);
            let y: d8x8_t = __builtin_matrix_column_major_load(b, 8, 8, 8);
            __builtin_matrix_column_major_store(x * y, out, 8);
        }
        #[fp_contract(fast)]
        pub fn sf_madd_4x4_f32(a: &[f32], b: &[f32], c: &[f32], out: &mut [f32]) {
            let x: m4x4_t = __builtin_matrix_column_major_load(a, 4, 4, 4);
            let y: m4x4_t = __builtin_matrix_column_major_load(b, 4, 4, 4);
            let z: m4x4_t = __builtin_matrix_column_major_load(c, 4, 4, 4);
            __builtin_matrix_column_major_store(x * y + z, out, 4);
        }
        #[fp_contract(fast)]
        pub fn sf_madd_8x8_f32(a: &[f32], b: &[f32], c: &[f32], out: &mut [f32]) {
            let x: m8x8_t = __builtin_matrix_column_major_load(a, 8, 8, 8);
            let y: m8x8_t = __builtin_matrix_column_major_load(b, 8, 8, 8);
            let z: m8x8_t = __builtin_matrix_column_major_load(c, 8, 8, 8);
            __builtin_matrix_column_major_store(x * y + z, out, 8);
        }
    }

    /// Warns when a `dsl exact` kernel does not compute the contract's
    /// result (that of the `Matrix` operators).
    fn check(same: bool, name: &str) {
        if !same {
            eprintln!("warning: dsl kernel {name} differs from the contract's result");
        }
    }

    macro_rules! mul {
        ($name:ident, $t:ty, $n:literal, $exact:ident $(, fast $fast:ident)? $(, dispatch $batch:ident)? $(, memory $memory:ident)? $(, fast_memory $fast_memory:ident)?) => {
            pub(super) fn $name(g: &mut Group<'_>, a: [$t; $n * $n], b: [$t; $n * $n]) {
                type M = Matrix<$t, $n, $n>;
                let (a, b) = (M::from_column_major(&a), M::from_column_major(&b));
                check($exact(a, b) == &a * &b, stringify!($exact));
                col2(g, "dsl exact", a, b, M::zero(), |a, b, o| {
                    *o = $exact(*a, *b)
                });
                $(
                    let mut out = M::zero();
                    $memory(a.as_slice(), b.as_slice(), out.as_mut_slice());
                    check(out == &a * &b, stringify!($memory));
                    col2(g, "dsl load/store", a, b, M::zero(), |a, b, o| {
                        $memory(a.as_slice(), b.as_slice(), o.as_mut_slice())
                    });
                )?
                // Called by name, not through a `fn` pointer, so that the
                // kernel inlines into the batch loop as the exact one does.
                $(col2(g, "dsl fast", a, b, M::zero(), |a, b, o| {
                    *o = $fast(*a, *b)
                });)?
                $(
                    col2(g, "dsl fast load/store", a, b, M::zero(), |a, b, o| {
                        $fast_memory(a.as_slice(), b.as_slice(), o.as_mut_slice())
                    });
                )?
                $(
                    let mut out = [M::zero(); 16];
                    $batch(&[a; 16], &[b; 16], &mut out);
                    check(out[15] == &a * &b, stringify!($batch));
                    col2_batch(g, "dsl #[dispatch]", a, b, M::zero(), |a, b, o| $batch(a, b, o));
                )?
            }
        };
    }
    mul!(mul_4x4_f32, f32, 4, k_mul_4x4_f32, fast f_mul_4x4_f32, dispatch d_mul_4x4_f32, memory s_mul_4x4_f32, fast_memory sf_mul_4x4_f32);
    mul!(mul_8x8_f32, f32, 8, k_mul_8x8_f32, fast f_mul_8x8_f32, memory s_mul_8x8_f32, fast_memory sf_mul_8x8_f32);
    mul!(mul_16x16_f32, f32, 16, k_mul_16x16_f32, fast f_mul_16x16_f32, memory s_mul_16x16_f32, fast_memory sf_mul_16x16_f32);
    mul!(mul_32x32_f32, f32, 32, k_mul_32x32_f32, fast f_mul_32x32_f32);
    mul!(mul_64x64_f32, f32, 64, k_mul_64x64_f32, fast f_mul_64x64_f32);
    mul!(mul_4x4_f64, f64, 4, k_mul_4x4_f64, fast f_mul_4x4_f64, dispatch d_mul_4x4_f64, memory s_mul_4x4_f64, fast_memory sf_mul_4x4_f64);
    mul!(mul_8x8_f64, f64, 8, k_mul_8x8_f64, fast f_mul_8x8_f64, memory s_mul_8x8_f64, fast_memory sf_mul_8x8_f64);
    mul!(mul_4x4_i32, i32, 4, k_mul_4x4_i32, dispatch d_mul_4x4_i32, memory s_mul_4x4_i32);

    macro_rules! madd {
        ($name:ident, $n:literal, $exact:ident, $fast:ident, memory $memory:ident, fast_memory $fast_memory:ident $(, dispatch $batch:ident)?) => {
            pub(super) fn $name(g: &mut Group<'_>, d: [[f32; $n * $n]; 3]) {
                type M = Matrix<f32, $n, $n>;
                let m = d.map(|x| M::from_column_major(&x));
                check(
                    $exact(m[0], m[1], m[2]) == &m[0] * &m[1] + m[2],
                    stringify!($exact),
                );
                col3(g, "dsl exact", m, M::zero(), |a, b, c, o| {
                    *o = $exact(*a, *b, *c)
                });
                let mut out = M::zero();
                $memory(m[0].as_slice(), m[1].as_slice(), m[2].as_slice(), out.as_mut_slice());
                check(out == &m[0] * &m[1] + m[2], stringify!($memory));
                col3(g, "dsl load/store", m, M::zero(), |a, b, c, o| {
                    $memory(a.as_slice(), b.as_slice(), c.as_slice(), o.as_mut_slice())
                });
                col3(g, "dsl fast", m, M::zero(), |a, b, c, o| {
                    *o = $fast(*a, *b, *c)
                });
                col3(g, "dsl fast load/store", m, M::zero(), |a, b, c, o| {
                    $fast_memory(a.as_slice(), b.as_slice(), c.as_slice(), o.as_mut_slice())
                });
                $(
                    let mut out = [M::zero(); 16];
                    $batch(&[m[0]; 16], &[m[1]; 16], &[m[2]; 16], &mut out);
                    check(out[15] == &m[0] * &m[1] + m[2], stringify!($batch));
                    col3_batch(g, "dsl #[dispatch]", m, M::zero(), |a, b, c, o| $batch(a, b, c, o));
                )?
            }
        };
    }
    madd!(madd_4x4_f32, 4, k_madd_4x4_f32, f_madd_4x4_f32, memory s_madd_4x4_f32, fast_memory sf_madd_4x4_f32, dispatch d_madd_4x4_f32);
    madd!(madd_8x8_f32, 8, k_madd_8x8_f32, f_madd_8x8_f32, memory s_madd_8x8_f32, fast_memory sf_madd_8x8_f32);

    macro_rules! transpose {
        ($name:ident, $n:literal $(, exact $k:ident)? $(, memory $memory:ident)?) => {
            pub(super) fn $name(g: &mut Group<'_>, d: [f32; $n * $n]) {
                type M = Matrix<f32, $n, $n>;
                $(col1(
                    g,
                    "dsl exact",
                    M::from_column_major(&d),
                    M::zero(),
                    |a, o| *o = $k(*a),
                );)?
                $(
                    let a = M::from_column_major(&d);
                    let mut out = M::zero();
                    $memory(a.as_slice(), out.as_mut_slice());
                    check(out == a.transpose(), stringify!($memory));
                    col1(g, "dsl load/store", a, M::zero(), |a, o| {
                        $memory(a.as_slice(), o.as_mut_slice())
                    });
                )?
            }
        };
    }
    transpose!(transpose_4x4, 4, exact k_transpose_4x4);
    transpose!(transpose_8x8, 8, exact k_transpose_8x8, memory s_transpose_8x8);
    transpose!(transpose_16x16, 16, memory s_transpose_16x16);

    macro_rules! chain {
        ($name:ident, $n:literal, $k:ident) => {
            pub(super) fn $name(g: &mut Group<'_>, d: [[f32; $n * $n]; 3]) {
                type M = Matrix<f32, $n, $n>;
                let m = d.map(|x| M::from_column_major(&x));
                check(
                    $k(m[0], m[1], m[2]) == (m[0] + m[1]) * 0.5 - m[2],
                    stringify!($k),
                );
                col3(g, "dsl exact", m, M::zero(), |a, b, c, o| {
                    *o = $k(*a, *b, *c)
                });
            }
        };
    }
    chain!(chain_4x4, 4, k_chain_4x4);
    chain!(chain_8x8, 8, k_chain_8x8);
    chain!(chain_16x16, 16, k_chain_16x16);

    pub(super) fn map_16x16(g: &mut Group<'_>, d: [[f32; 256]; 3]) {
        type M = Matrix<f32, 16, 16>;
        let m = d.map(|x| M::from_column_major(&x));
        check(
            k_map_16x16(m[0], m[1], m[2]) == (m[0] + m[1]).map(|x| x * x + 0.5) - m[2],
            "k_map_16x16",
        );
        col3(g, "dsl exact", m, M::zero(), |a, b, c, o| {
            *o = k_map_16x16(*a, *b, *c)
        });
    }

    /// The DSL's folded conversion: `(m16x16_t) a * b` with `a` row-major.
    pub(super) fn layouts_16x16(
        g: &mut Group<'_>,
        a: (Matrix<f32, 16, 16>, Matrix<f32, 16, 16, RowMajor>),
        b: (Matrix<f32, 16, 16>, Matrix<f32, 16, 16, RowMajor>),
    ) {
        check(k_cast_mul_16x16(a.1, b.0) == a.0 * b.0, "k_cast_mul_16x16");
        check(
            k_rm_mul_16x16(a.1, b.1) == (a.0 * b.0).to_layout(),
            "k_rm_mul_16x16",
        );
        // The DSL's own baseline: its kernels take their operands by value,
        // which costs the same copies in every column of theirs.
        col2(
            g,
            "dsl cm = cm * cm",
            a.0,
            b.0,
            Matrix::zero(),
            |a, b, o| *o = k_mul_16x16_f32(*a, *b),
        );
        col2(
            g,
            "dsl cm = (cm) rm * cm",
            a.1,
            b.0,
            Matrix::zero(),
            |a, b, o| *o = k_cast_mul_16x16(*a, *b),
        );
        col2(
            g,
            "dsl rm = rm * rm",
            a.1,
            b.1,
            Matrix::default(),
            |a, b, o| *o = k_rm_mul_16x16(*a, *b),
        );
    }

    pub(super) fn mul_bt_16x16(g: &mut Group<'_>, a: [f32; 256], b: [f32; 256]) {
        type M = Matrix<f32, 16, 16>;
        let (a, b) = (M::from_column_major(&a), M::from_column_major(&b));
        check(k_mul_bt_16x16(a, b) == a * b.transpose(), "k_mul_bt_16x16");
        col2(g, "dsl exact", a, b, M::zero(), |a, b, o| {
            *o = k_mul_bt_16x16(*a, *b)
        });
    }
}

/// `matrix chain NxN f32`: the element-wise chain `(a + b) * 0.5 - c`.
macro_rules! chain_group {
    ($c:expr, $n:literal, $extra:expr) => {{
        const NN: usize = $n * $n;
        type M = matrix_core::Matrix<f32, $n, $n>;
        type S = nalgebra::SMatrix<f32, $n, $n>;
        let d = [data_f32::<NN>(1), data_f32::<NN>(2), data_f32::<NN>(3)];
        let mut g = $c.benchmark_group(concat!("matrix chain ", $n, "x", $n, " f32"));
        let from = |d: &[f32; NN]| M::from_column_major(d);
        col3(
            &mut g,
            "matrix-core",
            d.each_ref().map(from),
            M::zero(),
            |a, b, c, o| *o = (*a + *b) * 0.5 - *c,
        );
        let from = |d: &[f32; NN]| S::from_column_slice(d);
        col3(
            &mut g,
            "nalgebra",
            d.each_ref().map(from),
            S::zeros(),
            |a, b, c, o| *o = (a + b) * 0.5 - c,
        );
        col3(&mut g, "scalar loop", d, [0.0; NN], |a, b, c, o| {
            for i in 0..NN {
                o[i] = (a[i] + b[i]) * 0.5 - c[i];
            }
        });
        let extra: fn(&mut Group<'_>, [[f32; NN]; 3]) = $extra;
        extra(&mut g, d);
        g.finish();
    }};
}

fn chains(c: &mut Criterion) {
    chain_group!(c, 4, |g, d| {
        let [a, b, c] = d.map(|x| glam::Mat4::from_cols_array(&x));
        col3(g, "glam", [a, b, c], glam::Mat4::ZERO, |a, b, c, o| {
            *o = (*a + *b) * 0.5 - *c
        });
        #[cfg(feature = "dsl")]
        dsl::chain_4x4(g, d);
    });
    chain_group!(c, 8, |_g, _d| {
        #[cfg(feature = "dsl")]
        dsl::chain_8x8(_g, _d);
    });
    chain_group!(c, 16, |_g, _d| {
        #[cfg(feature = "dsl")]
        dsl::chain_16x16(_g, _d);
    });
}

/// `matrix map 16x16 f32`: a closure on each element inside an element-wise
/// chain, `map(a + b, |x| x * x + 0.5) - c` (`__builtin_matrix_map` in the
/// DSL: one pass; `Matrix::map` between two operators: three).
fn maps(c: &mut Criterion) {
    const NN: usize = 256;
    type M = matrix_core::Matrix<f32, 16, 16>;
    let d = [data_f32::<NN>(1), data_f32::<NN>(2), data_f32::<NN>(3)];
    let mut g = c.benchmark_group("matrix map 16x16 f32");
    let from = |d: &[f32; NN]| M::from_column_major(d);
    col3(
        &mut g,
        "matrix-core",
        d.each_ref().map(from),
        M::zero(),
        |a, b, c, o| *o = (*a + *b).map(|x| x * x + 0.5) - *c,
    );
    col3(&mut g, "scalar loop", d, [0.0; NN], |a, b, c, o| {
        for i in 0..NN {
            let x = a[i] + b[i];
            o[i] = (x * x + 0.5) - c[i];
        }
    });
    #[cfg(feature = "dsl")]
    dsl::map_16x16(&mut g, d);
    g.finish();
}

/// `matrix mul a*bT 16x16 f32`: a product with a transposed right operand.
fn transposed_products(c: &mut Criterion) {
    const NN: usize = 256;
    type M = matrix_core::Matrix<f32, 16, 16>;
    type S = nalgebra::SMatrix<f32, 16, 16>;
    let (da, db) = (data_f32::<NN>(1), data_f32::<NN>(2));
    let mut g = c.benchmark_group("matrix mul a*bT 16x16 f32");
    let from = |d: &[f32; NN]| M::from_column_major(d);
    col2(
        &mut g,
        "matrix-core",
        from(&da),
        from(&db),
        M::zero(),
        |a, b, o| *o = a * b.transpose(),
    );
    let from = |d: &[f32; NN]| S::from_column_slice(d);
    col2(
        &mut g,
        "nalgebra",
        from(&da),
        from(&db),
        S::zeros(),
        |a, b, o| a.mul_to(&b.transpose(), o),
    );
    #[cfg(feature = "dsl")]
    dsl::mul_bt_16x16(&mut g, da, db);
    g.finish();
}

/// `matrix layouts NxN f32`: products whose operands are row-major
/// ([`matrix_core::RowMajor`]) against the all-column-major product of
/// the same shape; the conversions are folded into the kernels' reads
/// (only a left operand that ends up transposed is converted first). The
/// `mul_to` columns have the kernel write the caller's matrix, with no
/// addend to zero and no result to copy out: the kernels alone, which the
/// other columns' stack frames blur.
macro_rules! layout_group {
    ($c:expr, $n:literal, $extra:expr) => {{
        use matrix_core::{ColumnMajor, RowMajor};
        const NN: usize = $n * $n;
        type M = matrix_core::Matrix<f32, $n, $n>;
        type R = matrix_core::Matrix<f32, $n, $n, RowMajor>;
        let (da, db) = (data_f32::<NN>(1), data_f32::<NN>(2));
        let mut g = $c.benchmark_group(concat!("matrix layouts ", $n, "x", $n, " f32"));
        let (a, b) = (M::from_column_major(&da), M::from_column_major(&db));
        let both = |m: M| (m, m.to_layout::<RowMajor>());
        let (a, b) = (both(a), both(b));
        // Each column's own operands, each at its offset as in every other
        // group (a pair of both layouts would put the row-major left
        // operand where the right one is).
        col2(&mut g, "cm = cm * cm", a.0, b.0, M::zero(), |a, b, o| {
            *o = a * b
        });
        col2(&mut g, "rm = rm * rm", a.1, b.1, R::default(), |a, b, o| {
            *o = a * b
        });
        // The baseline of the `mad` columns, which pay for their zero
        // addend alike.
        col2(
            &mut g,
            "cm = cm * cm (mad)",
            a.0,
            b.0,
            M::zero(),
            |a, b, o| *o = a.mad(b, &M::zero()),
        );
        col2(
            &mut g,
            "cm = cm * rm (mad)",
            a.0,
            b.1,
            M::zero(),
            |a, b, o| *o = a.mad(b, &M::zero()),
        );
        col2(
            &mut g,
            "cm = rm * cm (mad)",
            a.1,
            b.0,
            M::zero(),
            |a, b, o| *o = a.mad(b, &M::zero()),
        );
        col2(
            &mut g,
            "cm = cm * cm (mul_to)",
            a.0,
            b.0,
            M::zero(),
            |a, b, o| a.mul_to(b, o),
        );
        col2(
            &mut g,
            "cm = rm * cm (mul_to)",
            a.1,
            b.0,
            M::zero(),
            |a, b, o| a.mul_to(b, o),
        );
        col2(
            &mut g,
            "cm = cm * rm (mul_to)",
            a.0,
            b.1,
            M::zero(),
            |a, b, o| a.mul_to(b, o),
        );
        col2(
            &mut g,
            "rm = cm * cm (mul_to)",
            a.0,
            b.0,
            R::default(),
            |a, b, o| a.mul_to(b, o),
        );
        // The conversion those two mixes make, alone: into the caller's
        // matrix, and returned.
        col1(
            &mut g,
            "rm to cm, to_layout_into",
            a.1,
            M::zero(),
            |a, o| a.to_layout_into(o),
        );
        col1(&mut g, "rm to cm, to_layout", a.1, M::zero(), |a, o| {
            *o = a.to_layout()
        });
        col2(
            &mut g,
            "cm = rm * cm, converted first",
            a.1,
            b.0,
            M::zero(),
            |a, b, o| *o = a.to_layout::<ColumnMajor>() * b,
        );
        $extra(&mut g, a, b);
        g.finish();
    }};
}

fn layouts(c: &mut Criterion) {
    layout_group!(c, 16, |_g: &mut Group<'_>, _a, _b| {
        #[cfg(feature = "dsl")]
        dsl::layouts_16x16(_g, _a, _b);
    });
    layout_group!(c, 64, |_g: &mut Group<'_>, _a, _b| {});
}

criterion_group!(
    benches,
    products,
    madds,
    transposes,
    chains,
    maps,
    transposed_products,
    layouts
);
criterion_main!(benches);
