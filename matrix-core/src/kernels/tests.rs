//! Every backend's vocabulary and kernels against scalar references, run on
//! every backend this CPU supports, in one build; a backend it lacks is
//! reported as skipped, by name, on standard error.

use super::Isa;
use super::amx;
use super::dispatch::{Dispatch, Op};
use super::gemm::{
    Dims, KC, Operands, RunTime, gemm_in_order, gemm_pairs, gemm_with, mul_4x4_with, product_f32,
    product_f64, product_i32, product_i64,
};
use super::int8::{self, Byte, Int8Kernel};
use super::transpose::{
    Transposition, transpose, transpose_as_bits, transpose_f32, transpose_f64, transpose_u8,
    transpose_u16,
};
use super::widen::{self, Widen};
use crate::arith::Arith;
use crate::simd::dispatch::{Backend, backends, detected};
use crate::simd::{Group4, Pairs, SimdFloat, SimdVector, Tile, VecExt};

/// Runs `$suite(token)` for every backend the CPU supports, and reports the
/// others as skipped. On a thread with a large stack: unoptimized, a kernel
/// inlined into a test gives a stack slot to every value of every register
/// tile.
macro_rules! every_backend {
    ($suite:ident; $($(#[$doc:meta])* $name:ident = $code:literal, $text:literal, ($($cfg:tt)*), [$($feature:tt),*];)*) => {{
        $(
            #[cfg($($cfg)*)]
            match detected::<crate::simd::dispatch::$name>() {
                Some(t) => on_large_stack(move || $suite(t)),
                None => skipped(stringify!($suite), Backend::$name),
            }
        )*
    }};
}

/// Runs `f` on a thread with a 256 MiB stack, forwarding its panic.
fn on_large_stack(f: impl FnOnce() + Send + 'static) {
    let thread = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .expect("a test thread");
    if let Err(panic) = thread.join() {
        std::panic::resume_unwind(panic);
    }
}

/// Says, outside the test harness's capture, that a backend was skipped.
fn skipped(test: &str, backend: Backend) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "matrix-core {test}: backend {backend} SKIPPED (it needs {}, which this CPU lacks)",
        backend.features().join(" + ")
    );
}

/// Deterministic test data with many significant bits, so that a change of
/// summation order or of rounding changes the result.
trait Data: Copy + Default + PartialEq + core::fmt::Debug + crate::arith::Arith {
    fn data(n: usize, seed: u32) -> Vec<Self>;
    /// Bit patterns, which tell `-0.0` from `+0.0`.
    fn bits(v: &[Self]) -> Vec<u64>;
}

fn lcg(n: usize, seed: u32, mut each: impl FnMut(u32)) {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12345);
    for _ in 0..n {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        each(x);
    }
}

impl Data for f32 {
    fn data(n: usize, seed: u32) -> Vec<f32> {
        let mut v = Vec::with_capacity(n);
        lcg(n, seed, |x| {
            v.push(((x >> 8) as f32 / (1u32 << 24) as f32 - 0.5) * 4.0 + 1.0 / 3.0)
        });
        v
    }
    fn bits(v: &[f32]) -> Vec<u64> {
        v.iter().map(|x| u64::from(x.to_bits())).collect()
    }
}

impl Data for f64 {
    fn data(n: usize, seed: u32) -> Vec<f64> {
        f32::data(n, seed)
            .into_iter()
            .map(|v| v as f64 * (1.0 + 1.0 / 7.0))
            .collect()
    }
    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }
}

impl Data for i32 {
    fn data(n: usize, seed: u32) -> Vec<i32> {
        let mut v = Vec::with_capacity(n);
        lcg(n, seed ^ 0x55, |x| v.push(x as i32));
        v
    }
    fn bits(v: &[i32]) -> Vec<u64> {
        v.iter().map(|&x| x as u32 as u64).collect()
    }
}

impl Data for i64 {
    /// Two generated words per value: every bit of the 64 significant, so
    /// a multiplication built from 32-bit halves is checked in all of them.
    fn data(n: usize, seed: u32) -> Vec<i64> {
        let words = u32::data(2 * n, seed ^ 0x77);
        words
            .chunks(2)
            .map(|w| (u64::from(w[0]) << 32 | u64::from(w[1])) as i64)
            .collect()
    }
    fn bits(v: &[i64]) -> Vec<u64> {
        v.iter().map(|&x| x as u64).collect()
    }
}

impl Data for u64 {
    fn data(n: usize, seed: u32) -> Vec<u64> {
        i64::data(n, seed ^ 0x99)
            .into_iter()
            .map(|x| x as u64)
            .collect()
    }
    fn bits(v: &[u64]) -> Vec<u64> {
        v.to_vec()
    }
}

impl Data for i16 {
    fn data(n: usize, seed: u32) -> Vec<i16> {
        u16::data(n, seed ^ 0x11)
            .into_iter()
            .map(|x| x as i16)
            .collect()
    }
    fn bits(v: &[i16]) -> Vec<u64> {
        v.iter().map(|&x| u64::from(x as u16)).collect()
    }
}

/// `Data` for unsigned integers: the top bits of each generated word,
/// from a stream salted per type.
macro_rules! unsigned_data {
    ($($t:ty: $salt:literal;)*) => {$(
        impl Data for $t {
            fn data(n: usize, seed: u32) -> Vec<$t> {
                let mut v = Vec::with_capacity(n);
                lcg(n, seed ^ $salt, |x| v.push((x >> (32 - <$t>::BITS)) as $t));
                v
            }
            fn bits(v: &[$t]) -> Vec<u64> {
                v.iter().map(|&x| u64::from(x)).collect()
            }
        }
    )*};
}
unsigned_data! {
    u32: 0xAA;
    u16: 0x33;
    u8: 0x66;
}

/// The contract's product by plain loops: `acc = a[r][0]*b[0][c]`, then
/// `acc = a[r][k]*b[k][c] + acc` (fused or not) for `k = 1..`, then `+ c`.
fn reference<E: Data>(
    (m, k, n): (usize, usize, usize),
    a: &[E],
    b: &[E],
    addend: Option<&[E]>,
    fused: bool,
) -> Vec<E> {
    let mut out = vec![E::default(); m * n];
    for c in 0..n {
        for r in 0..m {
            let mut acc = a[r].mul(b[c * k]);
            for kk in 1..k {
                let (x, y) = (a[kk * m + r], b[c * k + kk]);
                acc = if fused {
                    x.mul_add(y, acc)
                } else {
                    acc.add(x.mul(y))
                };
            }
            if let Some(addend) = addend {
                acc = acc.add(addend[c * m + r]);
            }
            out[c * m + r] = acc;
        }
    }
    out
}

/// `b` (`k x n`) stored transposed: the column-major `n x k` matrix.
fn stored_transposed<T: Copy>(k: usize, n: usize, b: &[T]) -> Vec<T> {
    let mut bt = b.to_vec();
    for j in 0..n {
        for kk in 0..k {
            bt[kk * n + j] = b[j * k + kk];
        }
    }
    bt
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

// ---------------------------------------------------------------------------
// The vocabulary

fn lanes_roundtrip<V: SimdVector>(t: V::Token, data: &[V::Elem]) {
    let l = V::LANES;
    for off in 0..=data.len() - l {
        let v = V::load(t, data, off);
        assert_eq!(v.lanes(), data[off..off + l].to_vec());
        let mut out = vec![V::Elem::default(); data.len()];
        v.store(&mut out, off);
        assert_eq!(&out[off..off + l], &data[off..off + l]);
        assert!(out[..off].iter().all(|x| *x == V::Elem::default()));
        assert!(out[off + l..].iter().all(|x| *x == V::Elem::default()));
    }
    for n in 0..=l {
        for off in [0, 1, data.len() - n] {
            let got = V::load_partial(t, data, off, n).lanes();
            assert_eq!(&got[..n], &data[off..off + n], "n={n} off={off}");
            assert!(got[n..].iter().all(|x| *x == V::Elem::default()));
            let mut out = vec![V::Elem::default(); data.len()];
            V::load(t, data, 0).store_partial(&mut out, off, n);
            assert_eq!(&out[off..off + n], &data[..n]);
            assert!(out[..off].iter().all(|x| *x == V::Elem::default()));
            assert!(out[off + n..].iter().all(|x| *x == V::Elem::default()));
        }
    }
    for (i, &x) in data.iter().enumerate() {
        assert_eq!(V::broadcast(t, data, i).lanes(), vec![x; l]);
        assert_eq!(V::splat(t, x).lanes(), vec![x; l]);
    }
    assert_eq!(V::zero(t).lanes(), vec![V::Elem::default(); l]);
}

fn arith<V: SimdVector>(t: V::Token, data: &[V::Elem])
where
    V::Elem: Data,
{
    let l = V::LANES;
    let (a, b, c) = (
        V::load(t, data, 0),
        V::load(t, data, l),
        V::load(t, data, 2 * l),
    );
    let (x, y, z) = (&data[..l], &data[l..2 * l], &data[2 * l..3 * l]);
    let lanes = |f: &dyn Fn(usize) -> V::Elem| (0..l).map(f).collect::<Vec<_>>();
    assert_eq!(a.add(b).lanes(), lanes(&|i| x[i].add(y[i])));
    assert_eq!(a.sub(b).lanes(), lanes(&|i| x[i].sub(y[i])));
    assert_eq!(a.mul(b).lanes(), lanes(&|i| x[i].mul(y[i])));
    assert_eq!(
        a.mul_then_add(b, c).lanes(),
        lanes(&|i| x[i].mul(y[i]).add(z[i]))
    );
    let fused = a.mul_add(b, c).lanes();
    if V::FUSED {
        assert_eq!(fused, lanes(&|i| x[i].mul_add(y[i], z[i])));
    } else {
        assert_eq!(fused, lanes(&|i| x[i].mul(y[i]).add(z[i])));
    }
}

fn div<V: SimdFloat>(t: V::Token, data: &[V::Elem])
where
    V::Elem: Data,
{
    let l = V::LANES;
    let got = V::load(t, data, 0).div(V::load(t, data, l)).lanes();
    let want: Vec<_> = (0..l).map(|i| data[i].div(data[l + i])).collect();
    assert_eq!(got, want);
}

fn group4<V: Group4>(t: V::Token, data: &[V::Elem]) {
    let l = V::LANES;
    for off in 0..=data.len() - 4 {
        let got = V::broadcast_x4(t, data, off).lanes();
        let want: Vec<_> = (0..l).map(|i| data[off + i % 4]).collect();
        assert_eq!(got, want);
    }
    let v = V::load(t, data, 0);
    let want = |g: usize| (0..l).map(|i| data[i / 4 * 4 + g]).collect::<Vec<_>>();
    assert_eq!(v.dup_in_x4::<0>().lanes(), want(0));
    assert_eq!(v.dup_in_x4::<1>().lanes(), want(1));
    assert_eq!(v.dup_in_x4::<2>().lanes(), want(2));
    assert_eq!(v.dup_in_x4::<3>().lanes(), want(3));
}

/// Every operation of one vector type.
fn vector<V: SimdFloat>(t: V::Token)
where
    V::Elem: Data,
{
    lanes_roundtrip::<V>(t, &V::Elem::data(41, 1));
    for seed in 0..8 {
        arith::<V>(t, &V::Elem::data(48, seed));
        div::<V>(t, &V::Elem::data(32, seed));
    }
}

fn vocabulary<S: Isa>(s: S) {
    vector::<S::F32x4>(s);
    vector::<S::F32x8>(s);
    vector::<S::F32>(s);
    vector::<S::F64x4>(s);
    vector::<S::F64>(s);
    lanes_roundtrip::<S::I32>(s, &i32::data(41, 3));
    for seed in 0..8 {
        arith::<S::I32>(s, &i32::data(48, seed));
    }
    lanes_roundtrip::<S::I16>(s, &i16::data(41, 3));
    lanes_roundtrip::<S::I16x16>(s, &i16::data(41, 3));
    lanes_roundtrip::<S::I16x8>(s, &i16::data(41, 3));
    for seed in 0..8 {
        arith::<S::I16>(s, &i16::data(96, seed));
        arith::<S::I16x16>(s, &i16::data(48, seed));
        arith::<S::I16x8>(s, &i16::data(48, seed));
    }
    lanes_roundtrip::<S::I64>(s, &i64::data(41, 3));
    for seed in 0..8 {
        arith::<S::I64>(s, &i64::data(48, seed));
    }
    // The edges of the 64-bit multiplication (built from 32-bit halves on
    // AVX2): every pair of them, as lanes.
    let edges = [
        0,
        1,
        -1,
        i64::MIN,
        i64::MAX,
        0xffff_ffff,
        0x1_0000_0000,
        -0xffff_ffff,
        0x7fff_ffff,
        -0x8000_0000,
        0x1234_5678_9abc_def0,
    ];
    let lanes = <S::I64 as SimdVector>::LANES;
    for &x in &edges {
        let ys: Vec<i64> = edges
            .iter()
            .copied()
            .cycle()
            .take(edges.len() + lanes)
            .collect();
        for off in 0..edges.len() {
            let got = <S::I64 as SimdVector>::splat(s, x)
                .mul(<S::I64 as SimdVector>::load(s, &ys, off))
                .lanes();
            let want: Vec<i64> = ys[off..off + lanes]
                .iter()
                .map(|&y| x.wrapping_mul(y))
                .collect();
            assert_eq!(got, want, "{x} * {:?}", &ys[off..off + lanes]);
        }
    }
    group4::<S::F32x4>(s, &f32::data(33, 4));
    group4::<S::F32x8>(s, &f32::data(33, 4));
    group4::<S::F32>(s, &f32::data(33, 4));
    group4::<S::I32>(s, &i32::data(33, 5));
    group4::<S::I64>(s, &i64::data(33, 5));
    if S::GROUP4_64 {
        group4::<S::F64G4>(s, &f64::data(33, 6));
    }
    // The fused form really rounds once where FUSED says so, and the
    // backend's `fuses` agrees with its vectors.
    let e = f32::EPSILON;
    let (a, b, c) = (1.0 + e, 1.0 - e, -1.0f32);
    let v = <S::F32 as SimdVector>::splat(s, a)
        .mul_add(
            <S::F32 as SimdVector>::splat(s, b),
            <S::F32 as SimdVector>::splat(s, c),
        )
        .lanes()[0];
    assert_eq!(v == a * b + c, !<S::F32 as SimdVector>::FUSED);
    assert_eq!(s.fuses(), <S::F32 as SimdVector>::FUSED);
    assert_eq!(s.fuses(), <S::F64 as SimdVector>::FUSED);
    assert_eq!(S::BACKEND.fuses(), s.fuses());
}

#[test]
fn vocabulary_on_every_backend() {
    backends!(every_backend, vocabulary);
}

fn out_of_bounds_panics<S: Isa>(s: S) {
    let caught = |f: &dyn Fn()| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_err();
    let d = f32::data(<S::F32 as SimdVector>::LANES + 2, 1);
    assert!(caught(&|| {
        let _ = <S::F32 as SimdVector>::load(s, &d, 3);
    }));
    assert!(caught(&|| {
        let mut d = vec![0.0f64; 5];
        <S::F64 as SimdVector>::splat(s, 1.0).store_partial(&mut d, 4, 2);
    }));
    assert!(caught(&|| {
        let d = i32::data(64, 1);
        let _ = <S::I32 as SimdVector>::load_partial(s, &d, 0, <S::I32 as SimdVector>::LANES + 1);
    }));
}

#[test]
fn out_of_bounds_accesses_panic_on_every_backend() {
    backends!(every_backend, out_of_bounds_panics);
}

// ---------------------------------------------------------------------------
// Transposes

/// A transpose of `N x N` tiles, checked on the block at (3, 2) of an
/// `(N + 5) x (N + 4)` source, written at (2, 3) of its `(N + 4) x (N + 5)`
/// transpose: every element of the block moved, and nothing else written.
fn check_tile<T: Data, const N: usize>(seed: u32, tile: impl Fn(Tile<'_, '_, T, N>)) {
    let (rows, cols) = (N + 5, N + 4);
    let src = T::data(rows * cols, seed);
    let mut d = vec![T::default(); rows * cols];
    tile(Tile::new(
        &src,
        (2 * rows + 3, rows),
        &mut d,
        (3 * cols + 2, cols),
    ));
    let mut expected = vec![T::default(); rows * cols];
    for c in 0..N {
        for r in 0..N {
            expected[(3 + r) * cols + 2 + c] = src[(2 + c) * rows + 3 + r];
        }
    }
    assert_eq!(T::bits(&d), T::bits(&expected), "{N}x{N} tile");
}

/// [`check_tile`] of each `type, n, method;` row: the tile method of `s`.
macro_rules! check_tiles {
    ($s:ident, $seed:ident: $($t:ty, $n:literal, $tile:ident;)*) => {$(
        check_tile::<$t, $n>($seed, |tile| $s.$tile(tile));
    )*};
}

/// Asserts that `run` transposes the `rows x cols` matrix `src` as
/// [`ref_transpose`] does.
fn check_transpose<T: Copy + Default + PartialEq + core::fmt::Debug>(
    rows: usize,
    cols: usize,
    src: &[T],
    what: &str,
    run: impl FnOnce(Transposition<'_, '_, T>),
) {
    let mut dst = vec![T::default(); src.len()];
    run(Transposition::new(rows, cols, src, &mut dst));
    assert_eq!(dst, ref_transpose(rows, cols, src), "{what} {rows}x{cols}");
}

fn transposes<S: Isa>(s: S) {
    for seed in 0..4 {
        let a = f32::data(64, seed);
        let a16: [f32; 16] = a[..16].try_into().unwrap();
        assert_eq!(
            s.transpose_4x4_f32(&a16).to_vec(),
            ref_transpose(4, 4, &a16)
        );
        let a64: [f32; 64] = a[..].try_into().unwrap();
        assert_eq!(
            s.transpose_8x8_f32(&a64).to_vec(),
            ref_transpose(8, 8, &a64)
        );
        check_tiles! {
            s, seed:
            f32, 4, transpose_4x4_f32_strided;
            f32, 8, transpose_8x8_f32_strided;
            f32, 16, transpose_16x16_f32_strided;
            f32, 16, transpose_16x16_f32_full_width;
            f64, 4, transpose_4x4_f64_strided;
            f64, 8, transpose_8x8_f64_strided;
            u16, 8, transpose_8x8_u16_strided;
            u8, 8, transpose_8x8_u8_strided;
            u8, 16, transpose_16x16_u8_strided;
        }
    }
    for (rows, cols) in [
        (1, 1),
        (4, 4),
        (8, 8),
        (5, 7),
        (12, 9),
        (16, 16),
        (17, 3),
        (33, 13),
        (12, 20),
        (20, 12),
        (16, 24),
        (11, 18),
        (32, 40),
        (35, 19),
        (16, 33),
        (48, 16),
        (64, 64),
    ] {
        let n = rows * cols;
        let f32s = f32::data(n, 4);
        check_transpose(rows, cols, &f32s, "f32", |m| {
            transpose_f32::<_, false>(s, m)
        });
        // The tiles for a CPU whose 512-bit units are full width, run
        // whatever this CPU's are (their result is the same).
        check_transpose(rows, cols, &f32s, "f32 full width", |m| {
            transpose_f32::<_, true>(s, m)
        });
        check_transpose(rows, cols, &f32s, "f32 in blocks", transpose);
        check_transpose(rows, cols, &f64::data(n, 5), "f64", |m| transpose_f64(s, m));
        check_transpose(rows, cols, &u16::data(n, 6), "u16", |m| transpose_u16(s, m));
        check_transpose(rows, cols, &u8::data(n, 7), "u8", |m| transpose_u8(s, m));
        // Other 8- and 16-bit types, moved as the bits of these.
        let i16s: Vec<i16> = u16::data(n, 8).into_iter().map(|x| x as i16).collect();
        check_transpose(rows, cols, &i16s, "i16", |m| {
            transpose_as_bits::<_, _, false>(s, m)
        });
        let i8s: Vec<i8> = u8::data(n, 9).into_iter().map(|x| x as i8).collect();
        check_transpose(rows, cols, &i8s, "i8", |m| {
            transpose_as_bits::<_, _, false>(s, m)
        });
        #[cfg(feature = "f16")]
        {
            use half::f16;
            let src: Vec<f16> = u16::data(rows * cols, 10)
                .into_iter()
                .map(f16::from_bits)
                .collect();
            let mut dst = vec![f16::ZERO; rows * cols];
            transpose_as_bits::<_, _, false>(s, Transposition::new(rows, cols, &src, &mut dst));
            let bits = |v: &[f16]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&dst),
                bits(&ref_transpose(rows, cols, &src)),
                "f16 {rows}x{cols}"
            );
        }
    }
}

#[test]
fn transposes_on_every_backend() {
    backends!(every_backend, transposes);
}

/// Both forms of the tiles whose form depends on the build (one form in
/// builds with debug assertions, the other without), whichever this build
/// runs: AVX2's 8x8 tile from whole or half columns, AVX-512's 16x16 tile
/// from whole or quarter columns.
#[cfg(target_arch = "x86_64")]
#[test]
fn both_forms_of_the_tiles_chosen_by_build() {
    use crate::simd::dispatch::{Avx2, Avx512};
    use crate::simd::{avx2, avx512};
    /// A transpose of `N x N` `f32` tiles on backend `T`.
    type TileFn<T, const N: usize> = fn(T, Tile<'_, '_, f32, N>);
    /// Checks each of `forms` on backend `T` if the CPU has it.
    fn check_forms<T: crate::simd::Token, const N: usize>(forms: [TileFn<T, N>; 2]) {
        let Some(t) = detected::<T>() else {
            return skipped("both_forms_of_the_tiles_chosen_by_build", T::BACKEND);
        };
        for form in forms {
            for seed in 0..4 {
                check_tile::<f32, N>(seed, |tile| form(t, tile));
            }
        }
    }
    check_forms::<Avx2, 8>([
        avx2::transpose_8x8_f32_from_columns,
        avx2::transpose_8x8_f32_from_halves,
    ]);
    check_forms::<Avx512, 16>([
        avx512::transpose_16x16_f32_from_columns,
        avx512::transpose_16x16_f32_from_quarters,
    ]);
}

// ---------------------------------------------------------------------------
// Products

/// Shapes 1..=17 in every dimension would be 4913 products per type and
/// backend; every `m` in 1..=17 against a spread of `k` and `n` (including
/// 1, the lane counts and their neighbours, and 17) covers every tail.
const KS: [usize; 8] = [1, 2, 3, 4, 5, 8, 9, 17];
const NS: [usize; 9] = [1, 2, 3, 4, 5, 7, 12, 16, 17];

/// One product kernel, checked against the reference on one shape: plain,
/// fused, with an addend, and with the right operand stored transposed.
fn check_product<E: Data>(
    shape: (usize, usize, usize),
    seed: u32,
    fused: bool,
    run: impl Fn(bool, &Operands<'_, E>, &mut [E]),
) {
    check_product_of(shape, seed, fused, true, run);
}

/// [`check_product`], with the right operand stored transposed only if
/// `transposed_b`.
fn check_product_of<E: Data>(
    shape: (usize, usize, usize),
    seed: u32,
    fused: bool,
    transposed_b: bool,
    run: impl Fn(bool, &Operands<'_, E>, &mut [E]),
) {
    let (m, k, n) = shape;
    let (a, b, c) = (
        E::data(m * k, seed),
        E::data(k * n, seed + 1),
        E::data(m * n, seed + 2),
    );
    let bt = stored_transposed(k, n, &b);
    for (fuse, addend, transposed) in [
        (false, None, false),
        (true, None, false),
        (false, Some(&c[..]), false),
        (true, Some(&c[..]), false),
        (false, None, true),
        (true, Some(&c[..]), true),
    ] {
        if transposed && !transposed_b {
            continue;
        }
        let p = Operands {
            m,
            ldo: m,
            k,
            n,
            a: &a,
            b: if transposed { &bt } else { &b },
            bt: transposed,
            addend,
        };
        let mut out = vec![E::default(); m * n];
        run(fuse, &p, &mut out);
        let want = reference(shape, &a, &b, addend, fuse && fused);
        assert_eq!(
            E::bits(&out),
            E::bits(&want),
            "{shape:?} fuse={fuse} addend={} bt={transposed}",
            addend.is_some()
        );
    }
}

/// Every product kernel on every small shape, the shape given by `D` (known
/// only at run time), against the reference.
fn products_as<S: Isa, D: Dims>(s: S) {
    let fused = s.fuses();
    for m in 1..=17 {
        for k in KS {
            for n in NS {
                let shape = (m, k, n);
                let seed = (m * 400 + k * 20 + n) as u32;
                check_product::<f32>(shape, seed, fused, |fuse, p, out| match fuse {
                    true => product_f32::<S, true, D>(s, p, out),
                    false => product_f32::<S, false, D>(s, p, out),
                });
                check_product::<f64>(shape, seed, fused, |fuse, p, out| match fuse {
                    true => product_f64::<S, true, D>(s, p, out),
                    false => product_f64::<S, false, D>(s, p, out),
                });
                check_product::<i32>(shape, seed, false, |_, p, out| {
                    product_i32::<S, D>(s, p, out)
                });
                check_product::<u32>(shape, seed, false, |_, p, out| {
                    widen::product_u32::<S, D>(s, p, out)
                });
                check_product::<i64>(shape, seed, false, |_, p, out| {
                    product_i64::<S, D>(s, p, out)
                });
                check_product::<u64>(shape, seed, false, |_, p, out| {
                    widen::product_u64::<S, D>(s, p, out)
                });
            }
        }
    }
}

fn products<S: Isa>(s: S) {
    products_as::<S, RunTime>(s);
}

#[test]
fn products_of_every_small_shape_on_every_backend() {
    backends!(every_backend, products);
}

/// A shape known only at run time, with [`Dims::IN_KERNEL`] and
/// [`Dims::RETURNED`] as given.
struct RunTimeAs<const IN_KERNEL: bool, const RETURNED: bool>;

impl<const IN_KERNEL: bool, const RETURNED: bool> Dims for RunTimeAs<IN_KERNEL, RETURNED> {
    const KNOWN: bool = RunTime::KNOWN;
    const M: usize = RunTime::M;
    const K: usize = RunTime::K;
    const N: usize = RunTime::N;
    const BT: bool = RunTime::BT;
    const LDO: usize = RunTime::LDO;
    const IN_KERNEL: bool = IN_KERNEL;
    const RETURNED: bool = RETURNED;
}

/// A product inside a `#[dispatch]` kernel.
type InKernel = RunTimeAs<true, false>;

/// `f64` products of up to four rows as a `#[dispatch]` kernel runs them:
/// the 4x4x4 one on vectors of four lanes where the backend has groups of
/// four lanes ([`Isa::GROUP4_64`]), the others as outside a kernel.
fn f64_products_in_a_kernel<S: Isa>(s: S) {
    let fused = s.fuses();
    for m in 1..=4 {
        for k in KS {
            for n in NS {
                let seed = (m * 400 + k * 20 + n) as u32;
                check_product::<f64>((m, k, n), seed, fused, |fuse, p, out| match fuse {
                    true => product_f64::<S, true, InKernel>(s, p, out),
                    false => product_f64::<S, false, InKernel>(s, p, out),
                });
            }
        }
    }
}

#[test]
fn f64_products_in_a_kernel_on_every_backend() {
    backends!(every_backend, f64_products_in_a_kernel);
}

/// Every product kernel on every small shape with its result returned by
/// value ([`Dims::RETURNED`]: partial vectors through copies), every row
/// count to 17 covering every tail of every vector width.
fn returned_products<S: Isa>(s: S) {
    products_as::<S, RunTimeAs<false, true>>(s);
}

#[test]
fn returned_products_on_every_backend() {
    backends!(every_backend, returned_products);
}

fn run_time_shape_products<S: Isa>(s: S) {
    let fused = s.fuses();
    for shape in [
        (1, 1, 1),
        (4, 4, 4),
        (5, 7, 3),
        (8, 8, 8),
        (16, 16, 16),
        (17, 33, 9),
        (64, 64, 64),
    ] {
        let seed = (shape.0 * 7 + shape.2) as u32;
        check_product::<f32>(shape, seed, fused, |fuse, p, out| s.gemm_f32(fuse, p, out));
        check_product::<f64>(shape, seed, fused, |fuse, p, out| s.gemm_f64(fuse, p, out));
        check_product::<i32>(shape, seed, false, |_, p, out| s.gemm_i32(p, out));
        check_product::<u32>(shape, seed, false, |_, p, out| s.gemm_u32(p, out));
        check_product::<i64>(shape, seed, false, |_, p, out| s.gemm_i64(p, out));
        check_product::<u64>(shape, seed, false, |_, p, out| s.gemm_u64(p, out));
    }
}

#[test]
fn run_time_shape_products_on_every_backend() {
    backends!(every_backend, run_time_shape_products);
}

/// One kernel writing a block of `m` rows of a result whose columns are
/// `ldo` elements apart: the block holds the whole product's bits, and
/// not one element of the other rows is written.
fn check_strided_result<E: Data>(
    (m, k, n): (usize, usize, usize),
    ldo: usize,
    seed: u32,
    fused: bool,
    run: impl Fn(bool, &Operands<'_, E>, &mut [E]),
) {
    let (a, b) = (E::data(m * k, seed), E::data(k * n, seed + 1));
    let span = (n - 1) * ldo + m;
    let c = E::data(span, seed + 2);
    let whole_c: Vec<E> = (0..n).flat_map(|j| c[j * ldo..][..m].to_vec()).collect();
    let before = E::data(span, seed + 3);
    for (fuse, addend) in [
        (false, None),
        (true, None),
        (false, Some(&c[..])),
        (true, Some(&c[..])),
    ] {
        let p = Operands {
            m,
            ldo,
            k,
            n,
            a: &a,
            b: &b,
            bt: false,
            addend,
        };
        let mut out = before.clone();
        run(fuse, &p, &mut out);
        let whole_addend = addend.map(|_| &whole_c[..]);
        let want = reference((m, k, n), &a, &b, whole_addend, fuse && fused);
        for j in 0..n {
            let what = format!(
                "{:?} ldo={ldo} fuse={fuse} addend={} column {j}",
                (m, k, n),
                addend.is_some()
            );
            assert_eq!(
                E::bits(&out[j * ldo..][..m]),
                E::bits(&want[j * m..][..m]),
                "{what}"
            );
            if j + 1 < n {
                let gap = j * ldo + m..(j + 1) * ldo;
                assert_eq!(
                    E::bits(&out[gap.clone()]),
                    E::bits(&before[gap]),
                    "{what}: other rows written"
                );
            }
        }
    }
}

fn strided_results<S: Isa>(s: S) {
    let fused = s.fuses();
    // Blocks of 16 and 32 rows (what a transposed left operand is cut
    // into), a depth above `KC` (partial sums through the block), and a
    // partial last vector of rows.
    for (shape, ldo) in [
        ((16, 37, 5), 48),
        ((32, 9, 7), 64),
        ((16, KC + 5, 3), 35),
        ((5, 3, 4), 11),
    ] {
        let seed = (shape.0 * 31 + shape.1) as u32;
        check_strided_result::<f32>(shape, ldo, seed, fused, |fuse, p, out| match fuse {
            true => gemm_with::<S::F32, true, RunTime>(s, p, out),
            false => gemm_with::<S::F32, false, RunTime>(s, p, out),
        });
        check_strided_result::<f64>(shape, ldo, seed, fused, |fuse, p, out| match fuse {
            true => gemm_with::<S::F64, true, RunTime>(s, p, out),
            false => gemm_with::<S::F64, false, RunTime>(s, p, out),
        });
        check_strided_result::<f32>(shape, ldo, seed, fused, |fuse, p, out| {
            gemm_in_order(p, fuse && fused, out)
        });
        if shape.0 >= 16 {
            check_strided_result::<f32>(shape, ldo, seed, fused, |fuse, p, out| match fuse {
                true => product_f32::<S, true, RunTime>(s, p, out),
                false => product_f32::<S, false, RunTime>(s, p, out),
            });
            check_strided_result::<f64>(shape, ldo, seed, fused, |fuse, p, out| match fuse {
                true => product_f64::<S, true, RunTime>(s, p, out),
                false => product_f64::<S, false, RunTime>(s, p, out),
            });
        }
    }
}

#[test]
fn strided_results_on_every_backend() {
    backends!(every_backend, strided_results);
}

/// The check the kernels of whole results make (`check_whole_product`)
/// refuses a block of rows.
#[test]
#[should_panic(expected = "a block of 4 rows of a result with columns 9 apart")]
fn the_whole_result_check_refuses_a_block_of_rows() {
    let (a, b) = ([1.0f32; 16], [1.0f32; 16]);
    let p = Operands {
        m: 4,
        ldo: 9,
        k: 4,
        n: 4,
        a: &a,
        b: &b,
        bt: false,
        addend: None,
    };
    let out = [0.0f32; 31];
    super::check::check_whole_product(&p, &out);
}

fn deep_products<S: Isa>(s: S) {
    // k > KC: partial sums go through the output between blocks.
    let wide = <S::F32 as SimdVector>::LANES * 4 + 1;
    for shape in [(5, KC + 3, 3), (wide, 2 * KC + 1, 6)] {
        check_product::<f32>(shape, 9, s.fuses(), |fuse, p, out| match fuse {
            true => gemm_with::<S::F32, true, RunTime>(s, p, out),
            false => gemm_with::<S::F32, false, RunTime>(s, p, out),
        });
    }
}

#[test]
fn deep_products_on_every_backend() {
    backends!(every_backend, deep_products);
}

fn pairs<V: Pairs>(t: V::Token, data: &[V::Elem]) {
    let (l, h) = (V::LANES, V::LANES / 2);
    for off in 0..=data.len() - h {
        let got = V::halves(t, data, off).lanes();
        let want: Vec<_> = (0..l).map(|i| data[off + i % h]).collect();
        assert_eq!(got, want);
    }
    for len in 1..=4 {
        for (lo, hi) in [(0, 5), (9, 2), (data.len() - len, 0)] {
            let got = V::quads(t, data, lo, hi, len).lanes();
            let want: Vec<_> = (0..l)
                .map(|i| {
                    let (from, g) = (if i < h { lo } else { hi }, i % 4);
                    if g < len {
                        data[from + g]
                    } else {
                        V::Elem::default()
                    }
                })
                .collect();
            assert_eq!(got, want, "len {len} from {lo} and {hi}");
        }
    }
    for len in 1..=h {
        for (lo, hi) in [(0, h), (9, 2), (data.len() - len, 0)] {
            let x = V::columns(t, data, lo, hi, len);
            let want: Vec<_> = (0..l)
                .map(|i| {
                    let (from, g) = if i < h { (lo, i) } else { (hi, i - h) };
                    if g < len {
                        data[from + g]
                    } else {
                        V::Elem::default()
                    }
                })
                .collect();
            assert_eq!(x.lanes(), want, "len {len} from {lo} and {hi}");
            // Quarter `q`: lanes `4q..4q + 4` of each half, in every group
            // of four lanes of that half.
            let quarter = |q: usize| -> Vec<_> {
                (0..l).map(|i| want[(i / h) * h + 4 * q + i % 4]).collect()
            };
            assert_eq!(x.quarter::<0>().lanes(), quarter(0), "len {len}");
            assert_eq!(x.quarter::<1>().lanes(), quarter(1), "len {len}");
        }
    }
    let caught = |f: &dyn Fn()| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_err();
    let n = data.len();
    assert!(caught(&|| {
        let _ = V::halves(t, data, n - h + 1);
    }));
    assert!(caught(&|| {
        let _ = V::columns(t, data, n - h + 1, 0, h);
    }));
    assert!(caught(&|| {
        let _ = V::columns(t, data, 0, n - 1, 2);
    }));
    assert!(caught(&|| {
        let _ = V::columns(t, data, 0, 0, 0);
    }));
    assert!(caught(&|| {
        let _ = V::columns(t, data, 0, 0, h + 1);
    }));
    assert!(caught(&|| {
        let _ = V::quads(t, data, n - 3, 0, 4);
    }));
    assert!(caught(&|| {
        let _ = V::quads(t, data, 0, n - 1, 2);
    }));
    assert!(caught(&|| {
        let _ = V::quads(t, data, 0, 0, 0);
    }));
    assert!(caught(&|| {
        let _ = V::quads(t, data, 0, 0, 5);
    }));
}

/// [`gemm_pairs`] on every shape of eight rows that [`products`] covers,
/// and deeper ones, whatever the CPU's width (which decides only whether
/// the products take it), its results stored whole and in halves; and an
/// 8-row product on the 256-bit vectors it replaces where the width says
/// so.
#[cfg(target_arch = "x86_64")]
#[test]
fn column_pairs_of_8_row_f32_products() {
    use crate::simd::{avx2, avx512, dispatch::Avx512};
    let Some(s) = detected::<Avx512>() else {
        return skipped("column_pairs_of_8_row_f32_products", Backend::Avx512);
    };
    on_large_stack(move || {
        pairs::<avx512::F32x16<Avx512>>(s, &f32::data(33, 7));
        for k in KS.into_iter().chain([6, 7, 33, KC + 3]) {
            for n in NS.into_iter().chain([6, 8, 9, 10, 11, 13]) {
                let seed = (k * 20 + n) as u32;
                for halves in [false, true] {
                    check_product_of::<f32>(
                        (8, k, n),
                        seed,
                        true,
                        false,
                        |fuse, p, out| match fuse {
                            true => gemm_pairs::<avx512::F32x16<Avx512>, true>(s, p, halves, out),
                            false => gemm_pairs::<avx512::F32x16<Avx512>, false>(s, p, halves, out),
                        },
                    );
                }
                check_product::<f32>((8, k, n), seed, true, |fuse, p, out| match fuse {
                    true => gemm_with::<avx2::F32x8<Avx512>, true, RunTime>(s, p, out),
                    false => gemm_with::<avx2::F32x8<Avx512>, false, RunTime>(s, p, out),
                });
            }
        }
        let caught =
            |f: &dyn Fn()| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).is_err();
        // An 8x8 product with `b` stored transposed, a 4x8 one.
        let (a, b) = (f32::data(64, 1), f32::data(64, 2));
        let mut out = vec![0.0; 64];
        for (m, bt) in [(8, true), (4, false)] {
            let (a, out) = (&a[..m * 8], &mut out[..m * 8]);
            let p = Operands {
                m,
                ldo: m,
                k: 8,
                n: 8,
                a,
                b: &b,
                bt,
                addend: None,
            };
            assert!(caught(&|| gemm_pairs::<avx512::F32x16<Avx512>, false>(
                s,
                &p,
                false,
                &mut out.to_vec()
            )));
        }
    });
}

fn products_4x4<S: Isa>(s: S) {
    fn arrays<E: Data>(seed: u32) -> [[E; 16]; 3] {
        [0, 100, 200].map(|o| E::data(16, seed + o).try_into().unwrap())
    }
    fn check<V: Group4>(t: V::Token, seed: u32)
    where
        V::Elem: Data,
    {
        let [a, b, c] = arrays::<V::Elem>(seed);
        let mut out = [V::Elem::default(); 16];
        for (fuse, addend) in [(false, None), (true, None), (false, Some(&c))] {
            if fuse {
                mul_4x4_with::<V, true>(t, &a, &b, addend, &mut out);
            } else {
                mul_4x4_with::<V, false>(t, &a, &b, addend, &mut out);
            }
            let want = reference((4, 4, 4), &a, &b, addend.map(|c| &c[..]), fuse && V::FUSED);
            assert_eq!(V::Elem::bits(&out), V::Elem::bits(&want));
        }
    }
    for seed in 0..16 {
        check::<S::F32>(s, seed);
        check::<S::F32x4>(s, seed);
        check::<S::I32>(s, seed);
        if S::GROUP4_64 {
            check::<S::I64>(s, seed);
        }
        if S::GROUP4_64 {
            check::<S::F64G4>(s, seed);
        }
    }
}

#[test]
fn products_4x4_on_every_backend() {
    backends!(every_backend, products_4x4);
}

/// `T`'s widened product against the in-order loop, for shapes on both
/// sides of every threshold of `widen::pays` (and, for the 8-bit types,
/// `widen::product_8`'s) and of the buffers.
fn widened<S: Isa>(s: S) {
    fn check<S: Isa, T: Widen>(s: S, from: fn(u32) -> T, eight_bits: bool) {
        // Random values over the whole range, then the edge values (MIN,
        // MAX, -1, 0, 1 of the type: every sum wraps).
        let edges = [
            0,
            1,
            u32::MAX,
            0x7fff_ffff,
            0x8000_0000,
            0x7fff,
            0x8000,
            0x7f,
            0x80,
            0xff,
            0xffff,
        ];
        let shapes = [
            (1, 1, 1),
            (4, 4, 4),
            (3, 5, 2),
            (8, 8, 8),
            (17, 3, 17),
            (16, 4, 16),
            (16, 16, 16),
            (33, 40, 2),
            (2, 300, 5),
            (40, 33, 40),
            (16, 3, 16),
            (32, 9, 3),
            (48, 17, 5),
            (8, 16, 8),
            (8, 17, 3),
            (24, 24, 24),
        ];
        for ((m, k, n), edge_values) in shapes.into_iter().flat_map(|s| [(s, false), (s, true)]) {
            let data = |len: usize, seed: u32| -> Vec<T> {
                i32::data(len, seed)
                    .into_iter()
                    .map(|x| match edge_values {
                        false => from(x as u32),
                        true => from(edges[x as u32 as usize % edges.len()]),
                    })
                    .collect()
            };
            let (a, b, c) = (data(m * k, 1), data(k * n, 2), data(m * n, 3));
            for addend in [None, Some(&c[..])] {
                let p = Operands {
                    m,
                    ldo: m,
                    k,
                    n,
                    a: &a,
                    b: &b,
                    bt: false,
                    addend,
                };
                let mut want = vec![T::default(); m * n];
                gemm_in_order(&p, false, &mut want);
                let mut out = vec![T::default(); m * n];
                widen::widened::<S, _, RunTime>(s, &p, &mut out);
                assert_eq!(out, want, "widened {m}x{k}x{n}");
                widen::product::<S, _, RunTime>(s, &p, &mut out);
                assert_eq!(out, want, "chosen {m}x{k}x{n}");
                widen::product_dyn(s, &p, &mut out);
                assert_eq!(out, want, "run-time shape {m}x{k}x{n}");
                if eight_bits {
                    widen::widened_16::<S, _, RunTime>(s, &p, &mut out);
                    assert_eq!(out, want, "widened to i16 {m}x{k}x{n}");
                    widen::product_8::<S, _, RunTime>(s, &p, &mut out);
                    assert_eq!(out, want, "8-bit chosen {m}x{k}x{n}");
                    widen::product_8_dyn(s, &p, &mut out);
                    assert_eq!(out, want, "8-bit run-time shape {m}x{k}x{n}");
                }
            }
        }
    }
    check::<S, i8>(s, |x| x as i8, true);
    check::<S, u8>(s, |x| x as u8, true);
    check::<S, i16>(s, |x| x as i16, false);
    check::<S, u16>(s, |x| x as u16, false);
}

/// The `i16` and `u16` products as chosen (on the `i16` kernel where the
/// rows fill its vectors, otherwise widened or in order), with compile-time
/// and run-time shapes, against the in-order reference; edge values
/// included (every sum wraps).
fn sixteen_bit<S: Isa>(s: S) {
    let lanes = <S::I16 as SimdVector>::LANES;
    let shapes = [
        (lanes, 1, 1),
        (lanes, 16, lanes),
        (2 * lanes, 5, 3),
        (3 * lanes, 33, 17),
        (8, 8, 8),
        (24, 9, 5),
        (16, 16, 16),
        (48, 7, 3),
        (64, 3, 9),
        (lanes + 1, 4, 2),
        (5, 3, 7),
    ];
    for (i, &shape) in shapes.iter().enumerate() {
        let seed = 40 + i as u32;
        check_product::<i16>(shape, seed, false, |_, p, out| {
            widen::product_16::<S, _, RunTime>(s, p, out)
        });
        check_product::<u16>(shape, seed, false, |_, p, out| {
            widen::product_16::<S, _, RunTime>(s, p, out)
        });
        check_product::<i16>(shape, seed, false, |_, p, out| s.gemm_i16(p, out));
        check_product::<u16>(shape, seed, false, |_, p, out| s.gemm_u16(p, out));
        let (m, k, n) = shape;
        let edges: Vec<i16> = [0, 1, -1, i16::MIN, i16::MAX, 0x00ff, 0x0100, -0x0100]
            .into_iter()
            .cycle()
            .take(m * k + k * n)
            .collect();
        let (a, b) = edges.split_at(m * k);
        let p = Operands {
            m,
            ldo: m,
            k,
            n,
            a,
            b,
            bt: false,
            addend: None,
        };
        let mut want = vec![0; m * n];
        gemm_in_order(&p, false, &mut want);
        let mut out = vec![0; m * n];
        widen::product_16::<S, _, RunTime>(s, &p, &mut out);
        assert_eq!(out, want, "edges {shape:?}");
    }
}

#[test]
fn sixteen_bit_products_on_every_backend() {
    backends!(every_backend, sixteen_bit);
}

#[test]
fn widened_products_on_every_backend() {
    backends!(every_backend, widened);
}

// ---------------------------------------------------------------------------
// Dispatch

/// An operation that reports the backend it runs on and a kernel's result.
struct WhereAmI;

impl Op for WhereAmI {
    type Output = (Backend, Vec<u64>);
    fn run<S: Isa>(self, s: S) -> Self::Output {
        let (a, b) = (f32::data(64, 1), f32::data(64, 2));
        let p = Operands {
            m: 8,
            ldo: 8,
            k: 8,
            n: 8,
            a: &a,
            b: &b,
            bt: false,
            addend: None,
        };
        let mut out = vec![0.0; 64];
        product_f32::<S, false, RunTime>(s, &p, &mut out);
        (S::BACKEND, f32::bits(&out))
    }
}

fn tokens_run_their_backend<S: Isa>(s: S) {
    let (backend, bits) = s.run(WhereAmI);
    assert_eq!(backend, S::BACKEND);
    assert_eq!(s.backend(), S::BACKEND);
    // Exact products are the same bits on every backend.
    let (_, auto_bits) = super::dispatch::Auto.run(WhereAmI);
    assert_eq!(bits, auto_bits);
}

#[test]
fn tokens_run_their_backend_and_agree() {
    backends!(every_backend, tokens_run_their_backend);
    assert_eq!(super::dispatch::Auto.run(WhereAmI).0, Backend::active());
}

#[test]
fn narrowed_tokens_prove_implied_backends() {
    fn check<S: Isa>(s: S) {
        let scalar = s
            .narrow::<crate::simd::dispatch::Scalar>()
            .expect("every backend implies the scalar one");
        assert_eq!(scalar.run(WhereAmI).0, Backend::Scalar);
        assert!(s.narrow::<S>().is_some());
    }
    backends!(every_backend, check);
}

/// `a * b + c` of 8-bit column-major operands, in order, in `i32`.
fn int8_reference<A: int8::Byte, B: int8::Byte>(
    (a, b, c): (&[A], &[B], &[i32]),
    (m, k, n): (usize, usize, usize),
) -> Vec<i32> {
    let value = |x: u8, signed: bool| {
        if signed {
            i32::from(x as i8)
        } else {
            i32::from(x)
        }
    };
    let mut out = c.to_vec();
    for j in 0..n {
        for r in 0..m {
            for kk in 0..k {
                let p =
                    value(a[kk * m + r].bits(), A::SIGNED) * value(b[j * k + kk].bits(), B::SIGNED);
                out[j * m + r] = out[j * m + r].wrapping_add(p);
            }
        }
    }
    out
}

/// Shapes on both sides of every vector, tile and group boundary, with
/// random bytes and the extremes (every byte 0x80 or 0x7f or 0xff, where
/// the corrections and the wrapping matter most).
const INT8_SHAPES: [(usize, usize, usize); 16] = [
    (1, 1, 1),
    (3, 5, 2),
    (8, 16, 4),
    (9, 17, 5),
    (16, 64, 16),
    (17, 65, 15),
    (32, 128, 48),
    (33, 3, 7),
    (16, 0, 16),
    (5, 0, 3),
    (0, 3, 5),
    (64, 64, 64),
    (20, 100, 40),
    (15, 63, 17),
    // Whole tiles of the result, a depth that is not whole.
    (32, 36, 16),
    (16, 100, 32),
];

/// Runs `run` on every shape, every pair of signs and every fill, against
/// [`int8_reference`].
fn int8_suite(name: &str, run: &dyn Fn(Int8Ops<'_>, Shape, &mut [i32])) {
    fn bytes(n: usize, seed: u32, fill: Option<u8>) -> Vec<u8> {
        let mut v = Vec::with_capacity(n);
        lcg(n, seed, |x| v.push(fill.unwrap_or((x >> 13) as u8)));
        v
    }
    for &(m, k, n) in &INT8_SHAPES {
        for fill in [None, Some(0x80), Some(0x7f), Some(0xff)] {
            let (ua, ub) = (bytes(m * k, 1, fill), bytes(k * n, 2, fill));
            let (sa, sb): (Vec<i8>, Vec<i8>) = (
                ua.iter().map(|&x| x as i8).collect(),
                ub.iter().map(|&x| x as i8).collect(),
            );
            let c: Vec<i32> = i32::data(m * n, 3);
            let mut out = vec![0; m * n];
            let shape = (m, k, n);
            let mut check = |ops: Int8Ops<'_>, want: Vec<i32>, signs: &str| {
                out.fill(0);
                run(ops, shape, &mut out);
                assert_eq!(out, want, "{name} {signs} {m}x{k}x{n} fill {fill:?}");
            };
            check(
                Int8Ops::UU(&ua, &ub, &c),
                int8_reference((&ua, &ub, &c), shape),
                "u8*u8",
            );
            check(
                Int8Ops::US(&ua, &sb, &c),
                int8_reference((&ua, &sb, &c), shape),
                "u8*i8",
            );
            check(
                Int8Ops::SU(&sa, &ub, &c),
                int8_reference((&sa, &ub, &c), shape),
                "i8*u8",
            );
            check(
                Int8Ops::SS(&sa, &sb, &c),
                int8_reference((&sa, &sb, &c), shape),
                "i8*i8",
            );
        }
    }
}

/// `(m, k, n)`: an `m x k` by `k x n` product.
type Shape = (usize, usize, usize);

/// The operands of one int8 test case, in one of the four pairs of signs.
enum Int8Ops<'a> {
    UU(&'a [u8], &'a [u8], &'a [i32]),
    US(&'a [u8], &'a [i8], &'a [i32]),
    SU(&'a [i8], &'a [u8], &'a [i32]),
    SS(&'a [i8], &'a [i8], &'a [i32]),
}

/// Evaluates `$body` with `$ab` bound to the operands, whatever their signs.
macro_rules! with_int8_ops {
    ($ops:expr, |$ab:ident| $body:expr) => {
        match $ops {
            Int8Ops::UU(a, b, c) => {
                let $ab = (a, b, c);
                $body
            }
            Int8Ops::US(a, b, c) => {
                let $ab = (a, b, c);
                $body
            }
            Int8Ops::SU(a, b, c) => {
                let $ab = (a, b, c);
                $body
            }
            Int8Ops::SS(a, b, c) => {
                let $ab = (a, b, c);
                $body
            }
        }
    };
}

#[test]
fn int8_kernels_on_every_int8_kernel_this_cpu_has() {
    use std::io::Write;
    for kernel in Int8Kernel::ALL {
        if !kernel.is_supported() {
            let _ = writeln!(
                std::io::stderr(),
                "matrix-core int8 kernel {} SKIPPED (it needs {}, which this CPU lacks)",
                kernel.name(),
                kernel.needs()
            );
            continue;
        }
        int8_suite(kernel.name(), &|ops, shape, out| {
            with_int8_ops!(ops, |abc| kernel.mad(abc, shape, out));
        });
    }
}

/// `a`'s `packed_a` words are the same whatever the buffer held before
/// (the AMX driver reuses one per thread, unzeroed): each word is `a`'s
/// bytes of its row and group (top bits flipped as asked), or the two
/// 16-bit values of the pair form, and zero in the padding.
#[test]
fn packed_a_words_overwrite_whatever_the_buffer_held() {
    for (m, k) in [(16, 64), (17, 65), (3, 7), (32, 6), (16, 3), (0, 4), (5, 0)] {
        let mut a = Vec::with_capacity(m * k);
        lcg(m * k, 7, |x| a.push((x >> 11) as i8));
        for (form, flip) in [
            (int8::Form::FlippedBytes, 0),
            (int8::Form::FlippedBytes, 0x80),
            (int8::Form::Pairs, 0),
        ] {
            let per = if form == int8::Form::Pairs { 2 } else { 4 };
            let (mp, groups) = (m.next_multiple_of(16), k.div_ceil(per) + 1);
            let mut want = vec![0u32; groups * mp];
            for (q, words) in want.chunks_exact_mut(mp.max(1)).enumerate() {
                for (r, word) in words.iter_mut().enumerate().take(m) {
                    for i in (0..per).filter(|i| per * q + i < k) {
                        let x = a[(per * q + i) * m + r];
                        *word |= if per == 2 {
                            u32::from(x.wide() as u16) << (16 * i)
                        } else {
                            u32::from(x.bits() ^ flip) << (8 * i)
                        };
                    }
                }
            }
            for held in [0, u32::MAX, 0x5a5a_5a5a] {
                let mut pa = vec![held; groups * mp];
                int8::pack_a_words(form, &a, (m, k), mp, flip, &mut pa);
                assert_eq!(pa, want, "{m}x{k} {form:?} flip {flip:#x}, held {held:#x}");
            }
        }
    }
}

/// The AMX driver's packing of sixteen rows, one byte permute per group
/// of four columns (AVX512-VBMI), writes the words of
/// [`int8::pack_a_words`], padding included, whatever the buffer held.
#[cfg(target_arch = "x86_64")]
#[test]
fn amx_packs_sixteen_rows_as_pack_a_words() {
    for k in [0, 4, 8, 60, 64, 128] {
        let mut a = Vec::with_capacity(16 * k);
        lcg(16 * k, 11, |x| a.push((x >> 7) as u8));
        // Room for the padding to whole tiles of 64 bytes, and one more.
        let words = 4 * (k.next_multiple_of(64) + 64);
        let mut want = vec![u32::MAX; words];
        int8::pack_a_words(int8::Form::FlippedBytes, &a, (16, k), 16, 0, &mut want);
        for held in [0, u32::MAX, 0x5a5a_5a5a] {
            let mut at = vec![held; words];
            if !amx::packed_16_rows(&a, k, &mut at) {
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "matrix-core amx_packs_sixteen_rows_as_pack_a_words SKIPPED \
                     (it needs avx512vbmi, which this CPU lacks)"
                );
                return;
            }
            assert_eq!(at, want, "16x{k}, held {held:#x}");
        }
    }
}

/// The AMX driver (packing, tiling, the instruction per pair of signs) on
/// the emulated tiles: every machine runs it, with or without AMX.
#[test]
fn amx_driver_on_emulated_tiles() {
    int8_suite("amx (emulated tiles)", &|ops, shape, out| {
        let mut tiles = amx::Emulated::new();
        with_int8_ops!(ops, |abc| amx::mad_on(&mut tiles, abc, shape, out));
    });
}

/// Emulated tiles that count how each accumulator tile starts.
struct CountingTiles {
    tiles: amx::Emulated,
    zeroed: usize,
    loaded: usize,
}

impl amx::Tiles for CountingTiles {
    fn load_acc(&mut self, src: &[i32], stride: usize) {
        self.loaded += 1;
        self.tiles.load_acc(src, stride);
    }
    fn zero_acc(&mut self) {
        self.zeroed += 1;
        self.tiles.zero_acc();
    }
    fn load_operands<B: Byte>(&mut self, first: (&[B], usize), second: (&[u32], usize)) {
        self.tiles.load_operands(first, second);
    }
    fn dot(&mut self, signs: amx::Signs) {
        self.tiles.dot(signs);
    }
    fn store_acc(&mut self, dst: &mut [i32], stride: usize) {
        self.tiles.store_acc(dst, stride);
    }
}

/// A zero accumulator (what a product and `__builtin_matrix_fill(m, 0)`
/// give) starts every tile with `tilezero`, another one loads it; both give
/// the reference's integers.
#[test]
fn amx_driver_starts_a_zero_accumulator_with_tilezero() {
    // Two by two accumulator tiles, two steps along `k` each: `b` and the
    // result in place (whole tiles), `b^T` alone padded (a depth that is
    // not whole), and both through padded copies.
    for (m, k, n) in [(32, 128, 32), (32, 100, 32), (32, 128, 20)] {
        let a: Vec<i8> = (0..m * k).map(|i| (i * 37 % 251) as i8).collect();
        let b: Vec<u8> = (0..k * n).map(|i| (i * 91 % 256) as u8).collect();
        let tiles = 2 * 2;
        for c in [vec![0; m * n], (0..m * n).map(|i| i as i32 - 300).collect()] {
            let mut counting = CountingTiles {
                tiles: amx::Emulated::new(),
                zeroed: 0,
                loaded: 0,
            };
            let mut out = vec![0; m * n];
            amx::mad_on(&mut counting, (&a, &b, &c), (m, k, n), &mut out);
            assert_eq!(out, int8_reference((&a, &b, &c), (m, k, n)));
            let zero = c.iter().all(|&x| x == 0);
            let expected = if zero { (tiles, 0) } else { (0, tiles) };
            assert_eq!((counting.zeroed, counting.loaded), expected);
        }
    }
}

/// The tiles are configured once per thread: a product leaves them in the
/// driver's configuration, and after other code releases them the next
/// product configures them again (an unconfigured tile instruction would
/// fault) and gives the reference's integers.
#[test]
fn amx_tiles_stay_configured_per_thread_and_survive_a_release() {
    use std::io::Write;
    if !Int8Kernel::Amx.is_supported() {
        let _ = writeln!(
            std::io::stderr(),
            "matrix-core amx_tiles_stay_configured_per_thread_and_survive_a_release \
             SKIPPED (it needs {}, which this CPU lacks)",
            Int8Kernel::Amx.needs()
        );
        return;
    }
    let (m, k, n) = (16, 64, 16);
    let a: Vec<u8> = (0..m * k).map(|i| (i * 37 % 256) as u8).collect();
    let b: Vec<i8> = (0..k * n).map(|i| (i * 91 % 251) as i8).collect();
    let c: Vec<i32> = (0..m * n).map(|i| i as i32 - 100).collect();
    let want = int8_reference((&a, &b, &c), (m, k, n));
    for _ in 0..2 {
        let mut out = vec![0; m * n];
        Int8Kernel::Amx.mad((&a, &b, &c), (m, k, n), &mut out);
        assert_eq!(out, want);
        assert!(
            amx::configured(),
            "the tiles stay configured after a product"
        );
        amx::release();
        assert!(!amx::configured(), "tilerelease leaves no configuration");
    }
}

#[test]
fn int8_kernel_choice_follows_the_backend_and_shape() {
    // Too small for packing: always the widened i32 kernel.
    assert_eq!(Int8Kernel::choose(4, 4, 4), None);
    let chosen = Int8Kernel::choose(16, 64, 16);
    let vnni = [Int8Kernel::Amx, Int8Kernel::Avx512Vnni, Int8Kernel::AvxVnni];
    match Backend::active() {
        Backend::Scalar | Backend::Sse2 => assert_eq!(chosen, None),
        _ if !vnni.iter().any(|k| k.is_supported()) => assert_eq!(chosen, None),
        _ => {
            let kernel = chosen.expect("a VNNI or AMX kernel on AVX2 and AVX-512");
            assert!(kernel.is_supported() && vnni.contains(&kernel));
        }
    }
    assert!(amx::pays(16, 64, 16) && amx::pays(64, 64, 64) && amx::pays(32, 32, 32));
    assert!(amx::pays(16, 32, 16) && !amx::pays(17, 64, 16) && amx::pays(16, 16, 16));
    assert!(!amx::pays(32, 15, 32) && amx::pays(16, 65, 16));
    // 16x16x16 is below the packing's bound, but not AMX's.
    let small = Int8Kernel::choose(16, 16, 16);
    if Backend::active() >= Backend::Avx512 && Int8Kernel::Amx.is_supported() {
        assert_eq!(small, Some(Int8Kernel::Amx));
    } else {
        assert_eq!(small, None);
    }
}

#[test]
#[should_panic(expected = "operands of a 2x3 by 3x4 multiply-accumulate")]
fn int8_kernel_checks_its_operands() {
    Int8Kernel::Portable.mad((&[0u8; 6], &[0i8; 11], &[0; 8]), (2, 3, 4), &mut [0; 8]);
}

// ---------------------------------------------------------------------------
// The passes of debug builds (`passes`), which every build's tests run

/// The storage of a `rows x cols` column-major matrix as `[[T; ROWS];
/// COLS]`, from its elements.
fn lines_of<T: Copy + Default, const ROWS: usize, const COLS: usize>(v: &[T]) -> [[T; ROWS]; COLS] {
    let mut out = [[T::default(); ROWS]; COLS];
    out.as_flattened_mut().copy_from_slice(v);
    out
}

/// Every line form and slice form of `passes` against plain loops, for a
/// `ROWS x COLS` storage (lines of `ROWS`), on `E`.
fn passes_of<E: Data + Default, const ROWS: usize, const COLS: usize>(seed: u32) {
    use super::passes::{self, Arithmetic};
    let len = ROWS * COLS;
    let (a, b) = (E::data(len, seed), E::data(len, seed + 1));
    // Integer division by zero panics; divide by a value without zeros.
    let nonzero: Vec<E> = b
        .iter()
        .map(|&y| if y == E::default() { a[0] } else { y })
        .collect();
    let s = E::data(1, seed + 2)[0];
    let shape = format!("{ROWS}x{COLS}");
    for op in [
        Arithmetic::Add,
        Arithmetic::Sub,
        Arithmetic::Mul,
        Arithmetic::Div,
    ] {
        let b = if op == Arithmetic::Div { &nonzero } else { &b };
        let expect: Vec<E> = a.iter().zip(b).map(|(&x, &y)| op.apply(x, y)).collect();
        let mut lines = lines_of::<E, ROWS, COLS>(&a);
        passes::zip_lines(&mut lines, &lines_of::<E, ROWS, COLS>(b), op);
        assert_eq!(
            E::bits(lines.as_flattened()),
            E::bits(&expect),
            "zip_lines {op:?} {shape}"
        );
        let mut flat = a.clone();
        passes::zip(op, &mut flat, b);
        assert_eq!(E::bits(&flat), E::bits(&expect), "zip {op:?} {shape}");
        for scalar_first in [false, true] {
            // Integer division by zero panics: the data has no zero divisor.
            assert!(s != E::default() && !a.contains(&E::default()));
            let expect: Vec<E> = a
                .iter()
                .map(|&x| {
                    if scalar_first {
                        op.apply(s, x)
                    } else {
                        op.apply(x, s)
                    }
                })
                .collect();
            let mut lines = lines_of::<E, ROWS, COLS>(&a);
            passes::scalar_lines(&mut lines, op, s, scalar_first);
            let what = format!("{op:?} {shape} scalar first: {scalar_first}");
            assert_eq!(
                E::bits(lines.as_flattened()),
                E::bits(&expect),
                "scalar_lines {what}"
            );
            let mut flat = a.clone();
            passes::with_scalar(op, &mut flat, s, scalar_first);
            assert_eq!(E::bits(&flat), E::bits(&expect), "with_scalar {what}");
        }
    }
    let expect = ref_transpose(ROWS, COLS, &a);
    let mut lines = [[E::default(); COLS]; ROWS];
    passes::transpose_lines(&lines_of::<E, ROWS, COLS>(&a), &mut lines);
    assert_eq!(lines.as_flattened(), &expect[..], "transpose_lines {shape}");
}

/// The small products of `passes` against [`reference`]: an `M x K` by
/// `K x N` product of column-major storages, and the same product of
/// row-major ones (whose storages are those of the transposes).
fn product_passes_of<E: Data + Default, const M: usize, const K: usize, const N: usize>(seed: u32) {
    use super::passes;
    let (a, b) = (E::data(M * K, seed), E::data(K * N, seed + 1));
    let expect = if K == 0 {
        vec![E::default(); M * N]
    } else {
        reference((M, K, N), &a, &b, None, false)
    };
    // Whatever `out` held is overwritten.
    let mut out = lines_of::<E, M, N>(&E::data(M * N, seed + 2));
    passes::product_columns(&lines_of::<E, M, K>(&a), &lines_of::<E, K, N>(&b), &mut out);
    assert_eq!(
        E::bits(out.as_flattened()),
        E::bits(&expect),
        "product_columns {M}x{K}x{N}"
    );
    // Row-major: a's rows are aᵀ's columns.
    let (at, bt) = (ref_transpose(M, K, &a), ref_transpose(K, N, &b));
    let mut out = lines_of::<E, N, M>(&E::data(M * N, seed + 3));
    passes::product_rows(
        &lines_of::<E, K, M>(&at),
        &lines_of::<E, N, K>(&bt),
        &mut out,
    );
    let expect_rows = ref_transpose(M, N, &expect);
    assert_eq!(
        E::bits(out.as_flattened()),
        E::bits(&expect_rows),
        "product_rows {M}x{K}x{N}"
    );
}

/// Shapes whose lines take each arm of `passes`' unrolling: lengths 1 to
/// 4, 8 and 16 unrolled, 5, 6 and 17 in the loop.
#[test]
fn debug_passes_equal_plain_loops() {
    macro_rules! shapes {
        ($e:ty: $(($r:literal, $c:literal)),*) => {$(
            passes_of::<$e, $r, $c>($r * 31 + $c);
        )*};
    }
    shapes!(f32: (1, 1), (2, 3), (3, 2), (4, 4), (5, 3), (8, 8), (16, 2), (17, 3), (6, 16));
    shapes!(f64: (1, 4), (3, 3), (4, 2), (8, 5), (16, 16));
    shapes!(i32: (2, 2), (4, 4), (5, 5), (8, 3), (16, 1));
    shapes!(u32: (3, 4), (4, 3), (17, 2));
}

#[test]
fn debug_products_equal_the_reference() {
    macro_rules! shapes {
        ($e:ty: $(($m:literal, $k:literal, $n:literal)),*) => {$(
            product_passes_of::<$e, $m, $k, $n>($m * 100 + $k * 10 + $n);
        )*};
    }
    shapes!(f32: (1, 1, 1), (4, 4, 4), (2, 3, 4), (4, 1, 3), (3, 4, 2), (1, 4, 16), (16, 4, 1));
    shapes!(f64: (4, 4, 4), (2, 2, 2), (3, 3, 3), (4, 2, 8));
    shapes!(i32: (2, 0, 3));
    shapes!(i32: (4, 4, 4), (3, 2, 5), (1, 16, 4));
    shapes!(u32: (4, 4, 4), (2, 8, 2));
}
