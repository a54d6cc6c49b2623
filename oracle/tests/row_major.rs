//! Row-major matrices against clang 22's `-fmatrix-memory-layout=row-major`
//! (which makes every matrix of a translation unit row-major): the same
//! kernels on `matrix_type(R, C, row_major)` in `matrix!` and on plain
//! `matrix_type(R, C)` in a C file compiled row-major, run on the same
//! random inputs handed over as memory (row by row), their results compared
//! byte for byte.

use matrix_core::{Matrix, RowMajor, matrix};
use matrix_oracle::harness::{self, Clang};
use matrix_oracle::prng::SplitMix64;
use std::fmt::Write;

matrix! {
    typedef float m3x4 __attribute__((matrix_type(3, 4, row_major)));
    typedef float m4x2 __attribute__((matrix_type(4, 2, row_major)));
    typedef float m3x2 __attribute__((matrix_type(3, 2, row_major)));
    typedef float m4x3 __attribute__((matrix_type(4, 3, row_major)));
    typedef double d5x5 __attribute__((matrix_type(5, 5, row_major)));
    typedef int i3x4 __attribute__((matrix_type(3, 4, row_major)));
    typedef int i4x2 __attribute__((matrix_type(4, 2, row_major)));
    typedef int i3x2 __attribute__((matrix_type(3, 2, row_major)));

    fn arith(a: m3x4, b: m3x4, s: float) -> m3x4 {
        (a - b) * s + a / 3.0f32
    }
    fn prod(a: m3x4, b: m4x2) -> m3x2 {
        a * b
    }
    fn prod_add(a: m3x4, b: m4x2, c: m3x2) -> m3x2 {
        c + a * b
    }
    fn trans(a: m3x4, b: m4x3) -> m4x3 {
        __builtin_matrix_transpose(a) - b
    }
    fn elements(a: m3x4) -> m3x4 {
        let mut m = a;
        m[2][1] = a[0][3] * 2.0f32;
        m[1][3] -= a[2][0];
        m
    }
    fn doubles(a: d5x5, b: d5x5) -> d5x5 {
        a * b - __builtin_matrix_transpose(a) * 0.5
    }
    fn ints(a: i3x4, b: i4x2, c: i3x2) -> i3x2 {
        a * b * 3 - c
    }
}

const C_KERNELS: &str = r#"
typedef float m3x4 __attribute__((matrix_type(3, 4)));
typedef float m4x2 __attribute__((matrix_type(4, 2)));
typedef float m3x2 __attribute__((matrix_type(3, 2)));
typedef float m4x3 __attribute__((matrix_type(4, 3)));
typedef double d5x5 __attribute__((matrix_type(5, 5)));
typedef int i3x4 __attribute__((matrix_type(3, 4)));
typedef int i4x2 __attribute__((matrix_type(4, 2)));
typedef int i3x2 __attribute__((matrix_type(3, 2)));

m3x4 arith(m3x4 a, m3x4 b, float s) { return (a - b) * s + a / 3.0f; }
m3x2 prod(m3x4 a, m4x2 b) { return a * b; }
m3x2 prod_add(m3x4 a, m4x2 b, m3x2 c) { return c + a * b; }
m4x3 trans(m3x4 a, m4x3 b) { return __builtin_matrix_transpose(a) - b; }
m3x4 elements(m3x4 a) { m3x4 m = a; m[2][1] = a[0][3] * 2.0f; m[1][3] -= a[2][0]; return m; }
d5x5 doubles(d5x5 a, d5x5 b) { return a * b - __builtin_matrix_transpose(a) * 0.5; }
i3x2 ints(i3x4 a, i4x2 b, i3x2 c) { return a * b * 3 - c; }

#include <stdio.h>
#include <string.h>
static void out(const char *label, int i, const void *m, size_t bytes) {
    const unsigned char *p = m;
    printf("%s %d", label, i);
    for (size_t k = 0; k < bytes; k++) printf(" %02x", p[k]);
    printf("\n");
}
#define IN(T, name, ...) T name; { __typeof__(name[0][0]) e_[] = {__VA_ARGS__}; memcpy(&name, e_, sizeof name); }
"#;

/// Inputs per kernel.
const CASES: usize = 200;

/// A value with few significant bits, so that sums are often exact and
/// sometimes not.
fn small(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() % 256) as f64 - 128.0) / 8.0
}

/// A random row-major matrix of `T` (each element drawn by `draw`) and
/// its elements in memory order, as a C initializer.
fn random<T: matrix_core::Element + CLiteral, const R: usize, const C: usize>(
    rng: &mut SplitMix64,
    draw: impl Fn(&mut SplitMix64) -> T,
) -> (Matrix<T, R, C, RowMajor>, String) {
    let mut m = Matrix::<T, R, C, RowMajor>::default();
    for x in m.as_mut_slice() {
        *x = draw(rng);
    }
    let init: Vec<String> = m.as_slice().iter().map(CLiteral::literal).collect();
    (m, init.join(", "))
}

fn floats<const R: usize, const C: usize>(
    rng: &mut SplitMix64,
) -> (Matrix<f32, R, C, RowMajor>, String) {
    random(rng, |rng| small(rng) as f32 / 3.0)
}

/// An element as a C literal of its type.
trait CLiteral {
    fn literal(&self) -> String;
}
impl CLiteral for f32 {
    fn literal(&self) -> String {
        format!("{self:e}f")
    }
}
impl CLiteral for f64 {
    fn literal(&self) -> String {
        format!("{self:e}")
    }
}
impl CLiteral for i32 {
    fn literal(&self) -> String {
        self.to_string()
    }
}

/// `label i` and the bytes of `m`'s memory, as the C side prints them.
fn bytes<T: bytemuck_free::Bytes>(label: &str, i: usize, m: &[T]) -> String {
    let mut s = format!("{label} {i}");
    for x in m {
        for b in x.le_bytes() {
            write!(s, " {b:02x}").unwrap();
        }
    }
    s
}

/// The little-endian bytes of the element types used here.
mod bytemuck_free {
    pub trait Bytes {
        fn le_bytes(&self) -> Vec<u8>;
    }
    impl Bytes for f32 {
        fn le_bytes(&self) -> Vec<u8> {
            self.to_le_bytes().to_vec()
        }
    }
    impl Bytes for f64 {
        fn le_bytes(&self) -> Vec<u8> {
            self.to_le_bytes().to_vec()
        }
    }
    impl Bytes for i32 {
        fn le_bytes(&self) -> Vec<u8> {
            self.to_le_bytes().to_vec()
        }
    }
}

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

#[test]
fn row_major_kernels_agree_with_clang_22() {
    let Some(clang) = harness::require(Clang::V22, "row_major_kernels_agree_with_clang_22") else {
        return;
    };
    let mut rng = SplitMix64::new(0x726f_776d);
    let mut c = String::from(C_KERNELS);
    c.push_str("int main(void) {\n");
    let mut ours: Vec<String> = Vec::new();
    for i in 0..CASES {
        let (a, ai) = floats::<3, 4>(&mut rng);
        let (b, bi) = floats::<3, 4>(&mut rng);
        let (p, pi) = floats::<4, 2>(&mut rng);
        let (q, qi) = floats::<3, 2>(&mut rng);
        let (t, ti) = floats::<4, 3>(&mut rng);
        let s = small(&mut rng) as f32;
        writeln!(c, "  {{ IN(m3x4, a, {ai}) IN(m3x4, b, {bi}) IN(m4x2, p, {pi}) IN(m3x2, q, {qi}) IN(m4x3, t, {ti})").unwrap();
        writeln!(
            c,
            "    m3x4 r1 = arith(a, b, {s:e}f); out(\"arith\", {i}, &r1, sizeof r1);"
        )
        .unwrap();
        writeln!(
            c,
            "    m3x2 r2 = prod(a, p); out(\"prod\", {i}, &r2, sizeof r2);"
        )
        .unwrap();
        writeln!(
            c,
            "    m3x2 r3 = prod_add(a, p, q); out(\"prod_add\", {i}, &r3, sizeof r3);"
        )
        .unwrap();
        writeln!(
            c,
            "    m4x3 r4 = trans(a, t); out(\"trans\", {i}, &r4, sizeof r4);"
        )
        .unwrap();
        writeln!(
            c,
            "    m3x4 r5 = elements(a); out(\"elements\", {i}, &r5, sizeof r5); }}"
        )
        .unwrap();
        ours.push(bytes("arith", i, arith(a, b, s).as_slice()));
        ours.push(bytes("prod", i, prod(a, p).as_slice()));
        ours.push(bytes("prod_add", i, prod_add(a, p, q).as_slice()));
        ours.push(bytes("trans", i, trans(a, t).as_slice()));
        ours.push(bytes("elements", i, elements(a).as_slice()));

        let (x, xi) = random::<f64, 5, 5>(&mut rng, |rng| small(rng) / 7.0);
        let (y, yi) = random::<f64, 5, 5>(&mut rng, |rng| small(rng) / 7.0);
        writeln!(c, "  {{ IN(d5x5, x, {xi}) IN(d5x5, y, {yi}) d5x5 r = doubles(x, y); out(\"doubles\", {i}, &r, sizeof r); }}").unwrap();
        ours.push(bytes("doubles", i, doubles(x, y).as_slice()));

        let (u, ui) = random::<i32, 3, 4>(&mut rng, |rng| rng.next_u64() as i32);
        let (v, vi) = random::<i32, 4, 2>(&mut rng, |rng| rng.next_u64() as i32);
        let (w, wi) = random::<i32, 3, 2>(&mut rng, |rng| rng.next_u64() as i32);
        writeln!(c, "  {{ IN(i3x4, u, {ui}) IN(i4x2, v, {vi}) IN(i3x2, w, {wi}) i3x2 r = ints(u, v, w); out(\"ints\", {i}, &r, sizeof r); }}").unwrap();
        ours.push(bytes("ints", i, ints(u, v, w).as_slice()));
    }
    c.push_str("  return 0;\n}\n");

    let stdout = harness::run_c_program(
        &clang,
        "row-major",
        &c,
        &[
            "-fenable-matrix",
            "-fmatrix-memory-layout=row-major",
            "-O1",
            "-ffp-contract=off",
            "-fwrapv",
        ],
    );
    harness::assert_same_lines(&ours, &stdout, "clang-22");
}
