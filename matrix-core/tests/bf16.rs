//! `__bf16` matrices (the `bf16` feature): element-wise arithmetic,
//! products, conversions and the widening `__builtin_matrix_mad` into a
//! `float` accumulator, in `matrix!` and on `Matrix`, against a scalar
//! reference and against clang-19 compiling the same kernels in C, on every
//! backend this CPU runs.
//!
//! The C side needs `__truncsfbf2` (float to `__bf16`, to nearest-even),
//! which the system's libgcc may lack; the test links its own, the IEEE
//! rounding written out in C.
#![cfg(feature = "bf16")]

use matrix_core::{Backend, CastFrom, Matrix, matrix};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

matrix! {
    typedef __bf16 bf;
    typedef __bf16 b4x4 __attribute__((matrix_type(4, 4)));
    typedef float f4x4 __attribute__((matrix_type(4, 4)));
    typedef int i4x4 __attribute__((matrix_type(4, 4)));
    typedef __bf16 b16x32 __attribute__((matrix_type(16, 32)));
    typedef __bf16 b32x16 __attribute__((matrix_type(32, 16)));
    typedef float f16x32 __attribute__((matrix_type(16, 32)));
    typedef float f32x16 __attribute__((matrix_type(32, 16)));
    typedef float f16x16 __attribute__((matrix_type(16, 16)));

    fn mad(a: b16x32, b: b32x16, c: f16x16) -> f16x16 {
        __builtin_matrix_mad(a, b, c)
    }
    fn widened(a: b16x32, b: b32x16, c: f16x16) -> f16x16 {
        (f16x32) a * (f32x16) b + c
    }
    fn prod(a: b4x4, b: b4x4, c: b4x4) -> b4x4 {
        a * b + c
    }
    fn arith(a: b4x4, b: b4x4, s: bf) -> b4x4 {
        let d = (a - b) * s;
        d + a / 2 - b
    }
    // In one expression Clang contracts `x * s + y` and its kin into
    // `llvm.fmuladd`, which for `__bf16` runs as a multiply and an add,
    // each rounded: the same bits as two statements.
    fn contracted(a: b4x4, b: b4x4, s: bf) -> b4x4 {
        (a - b) * s + a / 2
    }
    fn contracted_kin(a: b4x4, b: b4x4, s: bf, t: bf) -> b4x4 {
        let mut m = b - s * a;
        m -= a * t;
        let n = b - (m * s);
        a * s - n + b * t
    }
    fn narrow(f: f4x4) -> b4x4 {
        (b4x4) f
    }
    fn ints(i: i4x4) -> b4x4 {
        (b4x4) i
    }
    fn widen(a: b4x4) -> f4x4 {
        (f4x4) a
    }
}

const C_KERNELS: &str = r#"
#include <stdio.h>
#include <string.h>
#include <stdint.h>
typedef __bf16 b4x4 __attribute__((matrix_type(4, 4)));
typedef float f4x4 __attribute__((matrix_type(4, 4)));
typedef int i4x4 __attribute__((matrix_type(4, 4)));
typedef __bf16 b16x32 __attribute__((matrix_type(16, 32)));
typedef __bf16 b32x16 __attribute__((matrix_type(32, 16)));
typedef float f16x32 __attribute__((matrix_type(16, 32)));
typedef float f32x16 __attribute__((matrix_type(32, 16)));
typedef float f16x16 __attribute__((matrix_type(16, 16)));

/* Compiled at -O0, so that every kernel runs on its inputs as machine code:
   at -O1 clang-19 folds the kernels over the constant inputs, and folds a
   contracted __bf16 multiply-add with one rounding where the machine code
   rounds the product and the sum (and crashes on some of them). */
/* float to __bf16, to nearest-even (NaN stays NaN, quieted). */
__bf16 __truncsfbf2(float f) {
    uint32_t u; memcpy(&u, &f, 4);
    uint16_t r = (u & 0x7fffffff) > 0x7f800000 ? (uint16_t)((u >> 16) | 0x40)
                                               : (uint16_t)((u + 0x7fff + ((u >> 16) & 1)) >> 16);
    __bf16 b; memcpy(&b, &r, 2); return b;
}

f16x16 widened(b16x32 a, b32x16 b, f16x16 c) { return (f16x32) a * (f32x16) b + c; }
b4x4 prod(b4x4 a, b4x4 b, b4x4 c) { return a * b + c; }
b4x4 arith(b4x4 a, b4x4 b, __bf16 s) { b4x4 d = (a - b) * s; return d + a / 2 - b; }
b4x4 contracted(b4x4 a, b4x4 b, __bf16 s) { return (a - b) * s + a / 2; }
b4x4 contracted_kin(b4x4 a, b4x4 b, __bf16 s, __bf16 t) {
    b4x4 m = b - s * a;
    m -= a * t;
    b4x4 n = b - (m * s);
    return a * s - n + b * t;
}
b4x4 narrow(f4x4 f) { return (b4x4) f; }
b4x4 ints(i4x4 i) { return (b4x4) i; }
f4x4 widen(b4x4 a) { return (f4x4) a; }

static void out(const char *label, int i, const void *m, size_t bytes) {
    const unsigned char *p = m;
    printf("%s %d", label, i);
    for (size_t k = 0; k < bytes; k++) printf(" %02x", p[k]);
    printf("\n");
}
#define IN(T, E, name, ...) T name; { E e_[] = {__VA_ARGS__}; memcpy(&name, e_, sizeof name); }
"#;

/// Random inputs per kernel.
const CASES: usize = 60;

/// A small deterministic generator (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// A float with few significant bits, sometimes far from 1.
    fn float(&mut self) -> f32 {
        let v = ((self.next() % 512) as f32 - 256.0) / 7.0;
        if self.next().is_multiple_of(8) {
            v * 1e-3
        } else {
            v
        }
    }
}

fn bf16_matrix<const R: usize, const C: usize>(rng: &mut Rng) -> Matrix<bf, R, C> {
    Matrix::<f32, R, C>::from_fn(|_, _| rng.float()).cast()
}

/// The elements' little-endian bytes, in memory (column-major) order.
fn hex(label: &str, i: usize, bytes: impl IntoIterator<Item = u8>) -> String {
    let mut s = format!("{label} {i}");
    for b in bytes {
        write!(s, " {b:02x}").unwrap();
    }
    s
}
fn bf_bytes<const R: usize, const C: usize>(m: &Matrix<bf, R, C>) -> Vec<u8> {
    m.as_slice()
        .iter()
        .flat_map(|x| x.to_bits().to_le_bytes())
        .collect()
}
fn f32_bytes<const R: usize, const C: usize>(m: &Matrix<f32, R, C>) -> Vec<u8> {
    m.as_slice().iter().flat_map(|x| x.to_le_bytes()).collect()
}
/// A C initializer of `__bf16` elements, as their bits.
fn bf_init<const R: usize, const C: usize>(m: &Matrix<bf, R, C>) -> String {
    let v: Vec<String> = m
        .as_slice()
        .iter()
        .map(|x| format!("{:#06x}", x.to_bits()))
        .collect();
    v.join(", ")
}
fn f32_init<const R: usize, const C: usize>(m: &Matrix<f32, R, C>) -> String {
    let v: Vec<String> = m.as_slice().iter().map(|x| format!("{x:e}f")).collect();
    v.join(", ")
}

/// `a * b + c` with every operand widened to `f32` first, each sum in `k`
/// order and the addend last: the scalar reference of the widening mad.
fn reference_mad<const M: usize, const K: usize, const N: usize>(
    a: &Matrix<bf, M, K>,
    b: &Matrix<bf, K, N>,
    c: &Matrix<f32, M, N>,
) -> Matrix<f32, M, N> {
    Matrix::from_fn(|i, j| {
        let mut sum = a[(i, 0)].to_f32() * b[(0, j)].to_f32();
        for k in 1..K {
            sum += a[(i, k)].to_f32() * b[(k, j)].to_f32();
        }
        sum + c[(i, j)]
    })
}

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    if std::env::var_os(Backend::OVERRIDE_VARIABLE).is_some() {
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let current = Backend::active();
    for &backend in Backend::ALL {
        if backend == current {
            continue;
        }
        if !backend.is_supported() {
            notice(&format!(
                "bf16: backend {backend} SKIPPED (it needs {}, which this CPU lacks)",
                backend.features().join(" + ")
            ));
            continue;
        }
        let status = Command::new(&exe)
            .args(["--skip", "on_every_backend"])
            .env(Backend::OVERRIDE_VARIABLE, backend.name())
            .status()
            .expect("re-running the test binary");
        assert!(
            status.success(),
            "the bf16 tests failed on backend {backend}"
        );
    }
}

#[test]
fn widening_mad_is_the_f32_product_of_the_widened_operands() {
    let mut rng = Rng(0x6266_3136);
    for _ in 0..CASES {
        let (a, b) = (
            bf16_matrix::<16, 32>(&mut rng),
            bf16_matrix::<32, 16>(&mut rng),
        );
        let c = Matrix::<f32, 16, 16>::from_fn(|_, _| rng.float());
        let expected = reference_mad(&a, &b, &c);
        assert_eq!(f32_bytes(&mad(a, b, c)), f32_bytes(&expected));
        assert_eq!(f32_bytes(&widened(a, b, c)), f32_bytes(&expected));
        assert_eq!(f32_bytes(&a.mad(&b, &c)), f32_bytes(&expected));
        // ... and the `Matrix` operators on the widened operands.
        let (wa, wb): (f16x32, f32x16) = (a.cast(), b.cast());
        assert_eq!(f32_bytes(&(wa * wb + c)), f32_bytes(&expected));
    }
}

#[test]
fn conversions_round_as_clang_does() {
    let one = bf::cast_from(1.0f32);
    // float -> bf16 to nearest-even: 1 + 2^-8 is a tie, 1 + 2^-8 + 2^-20 is not.
    assert_eq!(bf::cast_from(1.0f32 + 2f32.powi(-8)), one);
    assert_eq!(
        bf::cast_from(1.0f32 + 2f32.powi(-8) + 2f32.powi(-20)).to_bits(),
        0x3f81
    );
    // double -> bf16 rounds once: just above the tie by less than a float ulp.
    assert_eq!(
        bf::cast_from(1.0f64 + 2f64.powi(-8) + 2f64.powi(-40)).to_bits(),
        0x3f81
    );
    assert_eq!(bf::cast_from(1.0f64 + 2f64.powi(-8)), one);
    // an integer goes through float, as Clang's cvtsi2ss then __truncsfbf2:
    // 2^40 + 2^32 + 1 rounds to the tie 2^40 + 2^32 in float, then to even.
    let big = (1i64 << 40) + (1 << 32) + 1;
    assert_eq!(bf::cast_from(big), bf::cast_from((1i64 << 40) as f32));
    // bf16 -> int truncates, -> float is exact.
    assert_eq!(i32::cast_from(bf::cast_from(-2.75f32)), -2);
    assert_eq!(
        f32::cast_from(bf::cast_from(0.1f32)),
        bf::cast_from(0.1f32).to_f32()
    );
    // Every finite bf16 survives bf16 -> f64 -> bf16 and bf16 -> f32 -> bf16.
    for bits in 0..=u16::MAX {
        let x = bf::from_bits(bits);
        if !x.is_nan() {
            assert_eq!(bf::cast_from(f64::cast_from(x)).to_bits(), bits);
            assert_eq!(bf::cast_from(f32::cast_from(x)).to_bits(), bits);
        }
    }
}

#[test]
fn element_wise_arithmetic_rounds_each_operation() {
    // Clang rounds every operation of a __bf16 matrix to __bf16: 1 + 2^-8
    // is a tie that rounds to 1, twice, where float would keep 1 + 2^-7.
    let a = Matrix::<bf, 2, 2>::splat(bf::cast_from(1.0f32));
    let b = Matrix::<bf, 2, 2>::splat(bf::cast_from(2f32.powi(-8)));
    assert_eq!((a + b + b).as_slice()[0].to_bits(), 0x3f80);
}

#[test]
fn bf16_kernels_agree_with_clang_19() {
    let Some(clang) = clang_19() else {
        let msg = "bf16_kernels_agree_with_clang_19 SKIPPED: clang-19 is not installed \
                   (apt-get install -y clang-19)";
        // With CI=true (as `.ci/run` sets it) a missing clang fails.
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(!ci, "{msg}; CI=true refuses to skip");
        notice(msg);
        return;
    };
    let mut rng = Rng(0x6266_6331);
    let mut c = String::from(C_KERNELS);
    c.push_str("int main(void) {\n");
    let mut ours = Vec::new();
    for i in 0..CASES {
        let (a, b) = (
            bf16_matrix::<16, 32>(&mut rng),
            bf16_matrix::<32, 16>(&mut rng),
        );
        let acc = Matrix::<f32, 16, 16>::from_fn(|_, _| rng.float());
        let (x, y, z) = (
            bf16_matrix::<4, 4>(&mut rng),
            bf16_matrix::<4, 4>(&mut rng),
            bf16_matrix::<4, 4>(&mut rng),
        );
        let (s, t) = (bf::cast_from(rng.float()), bf::cast_from(rng.float()));
        let f =
            Matrix::<f32, 4, 4>::from_fn(|_, _| f32::from_bits(rng.next() as u32 & 0xbfff_ffff));
        let n = Matrix::<i32, 4, 4>::from_fn(|_, _| rng.next() as i32);
        let n_init: Vec<String> = n.as_slice().iter().map(|v| format!("{v}")).collect();
        writeln!(
            c,
            "  {{ IN(b16x32, uint16_t, a, {}) IN(b32x16, uint16_t, b, {}) IN(f16x16, float, acc, {})",
            bf_init(&a),
            bf_init(&b),
            f32_init(&acc)
        )
        .unwrap();
        writeln!(
            c,
            "    IN(b4x4, uint16_t, x, {}) IN(b4x4, uint16_t, y, {}) IN(b4x4, uint16_t, z, {})",
            bf_init(&x),
            bf_init(&y),
            bf_init(&z)
        )
        .unwrap();
        writeln!(
            c,
            "    IN(f4x4, float, f, {}) IN(i4x4, int, n, {}) uint16_t sb = {:#06x}, tb = {:#06x}; __bf16 s, t; memcpy(&s, &sb, 2); memcpy(&t, &tb, 2);",
            f32_init(&f),
            n_init.join(", "),
            s.to_bits(),
            t.to_bits()
        )
        .unwrap();
        for (name, call, ty) in [
            ("widened", "widened(a, b, acc)", "f16x16"),
            ("prod", "prod(x, y, z)", "b4x4"),
            ("arith", "arith(x, y, s)", "b4x4"),
            ("contracted", "contracted(x, y, s)", "b4x4"),
            ("contracted_kin", "contracted_kin(x, y, s, t)", "b4x4"),
            ("narrow", "narrow(f)", "b4x4"),
            ("ints", "ints(n)", "b4x4"),
            ("widen", "widen(x)", "f4x4"),
        ] {
            writeln!(
                c,
                "    {{ {ty} r = {call}; out(\"{name}\", {i}, &r, sizeof r); }}"
            )
            .unwrap();
        }
        c.push_str("  }\n");
        ours.push(hex("widened", i, f32_bytes(&mad(a, b, acc))));
        ours.push(hex("prod", i, bf_bytes(&prod(x, y, z))));
        ours.push(hex("arith", i, bf_bytes(&arith(x, y, s))));
        ours.push(hex("contracted", i, bf_bytes(&contracted(x, y, s))));
        ours.push(hex(
            "contracted_kin",
            i,
            bf_bytes(&contracted_kin(x, y, s, t)),
        ));
        ours.push(hex("narrow", i, bf_bytes(&narrow(f))));
        ours.push(hex("ints", i, bf_bytes(&ints(n))));
        ours.push(hex("widen", i, f32_bytes(&widen(x))));
    }
    c.push_str("  return 0;\n}\n");
    let stdout = run_c(&clang, &c);
    let theirs: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        theirs.len(),
        ours.len(),
        "clang printed {} lines",
        theirs.len()
    );
    for (ours, theirs) in ours.iter().zip(&theirs) {
        assert_eq!(ours, theirs, "on backend {}", Backend::active());
    }
}

/// A line on the terminal even when the test passes (libtest captures
/// `println!` and `eprintln!`, not the stderr handle).
fn notice(msg: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{msg}");
}

fn clang_19() -> Option<PathBuf> {
    let ok = Command::new("clang-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| PathBuf::from("clang-19"))
}

/// Compiles `source` with clang-19 and returns what it prints.
fn run_c(clang: &Path, source: &str) -> String {
    let dir = std::env::temp_dir().join(format!("matrix-core-bf16-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let (src, exe) = (dir.join("bf16.c"), dir.join("bf16"));
    std::fs::write(&src, source).expect("writing the C file");
    let compiled = Command::new(clang)
        .args(["-fenable-matrix", "-O0", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("running clang-19");
    assert!(
        compiled.status.success(),
        "clang-19 failed:\n{}",
        String::from_utf8_lossy(&compiled.stderr)
    );
    let run = Command::new(&exe).output().expect("running the C program");
    assert!(run.status.success(), "the C program failed");
    let _ = std::fs::remove_dir_all(&dir);
    String::from_utf8(run.stdout).expect("UTF-8 output")
}
