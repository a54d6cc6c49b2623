//! C's literal spellings (`0.5f`, `2u`, `10L`, `3ull`, `1.f`, `.5`) in kernels against
//! clang-19: each kernel's body is written the same in `matrix!` and in C,
//! run on the same inputs, and the results compared bit for bit. A `float`
//! literal is rounded from its decimal text once, as Clang rounds it:
//! `1.000000059604644775390625001f` is the `float` above 1, where the
//! `double` nearest to it (1 + 2^-24) would round to 1 by ties-to-even.

#![allow(
    clippy::excessive_precision,
    reason = "the test's literal has the digits that decide its rounding"
)]

use matrix_core::matrix;
use matrix_oracle::harness;
use std::fmt::Write;

matrix! {
    typedef float m2 __attribute__((matrix_type(2, 2)));
    typedef int mi2 __attribute__((matrix_type(2, 2)));
    typedef float float4 __attribute__((ext_vector_type(4)));

    fn scalar_float(x: f32) -> f32 { x * 0.5f + 1.000000059604644775390625001f - 2.0F }
    fn scalar_long(x: i64) -> i64 { x * 3L + 0x7FL - 10LL }
    fn scalar_unsigned(x: u32) -> u32 { x * 7u + 0xFFFFu - 1U }
    fn scalar_unsigned_long(x: u64) -> u64 { x + 4294967296u + 1ull + 2LU }
    fn matrix_float(m: m2) -> m2 { m * 1.000000059604644775390625001f + 0.1f }
    fn matrix_int(m: mi2) -> mi2 { m * 3u + 2L - 1ll }
    fn vector_literal(x: f32) -> float4 { (float4){x, 0.1f, 1.000000059604644775390625001f, 2} * 1.5f }
    fn math(x: f32) -> f32 { sqrtf(x + 2.0f) * fmaxf(x, 0.25F) }
    fn short_float(x: f32) -> f32 { x * .5f + 1.f - .25F * 3.F }
    fn short_double(x: f64) -> f64 { x * .1 + 3. }
}

/// The same kernels in C.
const C_KERNELS: &str = r#"
typedef float m2 __attribute__((matrix_type(2, 2)));
typedef int mi2 __attribute__((matrix_type(2, 2)));
typedef float float4 __attribute__((ext_vector_type(4)));

float scalar_float(float x) { return x * 0.5f + 1.000000059604644775390625001f - 2.0F; }
long scalar_long(long x) { return x * 3L + 0x7FL - 10LL; }
unsigned scalar_unsigned(unsigned x) { return x * 7u + 0xFFFFu - 1U; }
unsigned long scalar_unsigned_long(unsigned long x) { return x + 4294967296u + 1ull + 2LU; }
m2 matrix_float(m2 m) { return m * 1.000000059604644775390625001f + 0.1f; }
mi2 matrix_int(mi2 m) { return m * 3u + 2L - 1ll; }
float4 vector_literal(float x) { return (float4){x, 0.1f, 1.000000059604644775390625001f, 2} * 1.5f; }
float math(float x) { return sqrtf(x + 2.0f) * fmaxf(x, 0.25F); }
float short_float(float x) { return x * .5f + 1.f - .25F * 3.F; }
double short_double(double x) { return x * .1 + 3.; }
"#;

/// The inputs, small enough that no integer kernel overflows (Rust's
/// scalar arithmetic checks where C's wraps).
const INPUTS: [i32; 6] = [0, 1, -3, 7, 100, 12345];

fn c_program() -> String {
    let mut c = String::from("#include <math.h>\n#include <stdio.h>\n");
    c.push_str(harness::C_BITS);
    c.push_str(C_KERNELS);
    c.push_str("int main(void) {\n");
    for x in INPUTS {
        let (u, n) = (x.unsigned_abs(), -x);
        writeln!(
            c,
            "  printf(\"%u %ld %u %lu\\n\", fb(scalar_float({x}.0f)), scalar_long({x}), scalar_unsigned({u}u), scalar_unsigned_long({u}ul));\n\
             \x20 {{ m2 m; m[0][0] = {x}.0f; m[1][0] = 0.5f; m[0][1] = {n}.0f; m[1][1] = 3.0f;\n\
             \x20   m2 r = matrix_float(m); printf(\"%u %u %u %u\\n\", fb(r[0][0]), fb(r[1][0]), fb(r[0][1]), fb(r[1][1])); }}\n\
             \x20 {{ mi2 m; m[0][0] = {x}; m[1][0] = 2; m[0][1] = {n}; m[1][1] = 9;\n\
             \x20   mi2 r = matrix_int(m); printf(\"%d %d %d %d\\n\", r[0][0], r[1][0], r[0][1], r[1][1]); }}\n\
             \x20 {{ float4 v = vector_literal({x}.0f); printf(\"%u %u %u %u\\n\", fb(v.x), fb(v.y), fb(v.z), fb(v.w)); }}\n\
             \x20 printf(\"%u %u %llu\\n\", fb(math({x}.0f)), fb(short_float({x}.0f)), db(short_double({x}.0)));"
        )
        .unwrap();
    }
    c.push_str("  return 0;\n}\n");
    c
}

fn ours() -> Vec<String> {
    let mut lines = Vec::new();
    for x in INPUTS {
        let u = x.unsigned_abs();
        lines.push(format!(
            "{} {} {} {}",
            scalar_float(x as f32).to_bits(),
            scalar_long(i64::from(x)),
            scalar_unsigned(u),
            scalar_unsigned_long(u64::from(u)),
        ));
        let r = matrix_float(m2::from_rows([[x as f32, -x as f32], [0.5, 3.0]]));
        lines.push(format!(
            "{} {} {} {}",
            r[(0, 0)].to_bits(),
            r[(1, 0)].to_bits(),
            r[(0, 1)].to_bits(),
            r[(1, 1)].to_bits()
        ));
        let r = matrix_int(mi2::from_rows([[x, -x], [2, 9]]));
        lines.push(format!(
            "{} {} {} {}",
            r[(0, 0)],
            r[(1, 0)],
            r[(0, 1)],
            r[(1, 1)]
        ));
        let v = vector_literal(x as f32);
        lines.push(format!(
            "{} {} {} {}",
            v[0].to_bits(),
            v[1].to_bits(),
            v[2].to_bits(),
            v[3].to_bits()
        ));
        lines.push(format!(
            "{} {} {}",
            math(x as f32).to_bits(),
            short_float(x as f32).to_bits(),
            short_double(f64::from(x)).to_bits(),
        ));
    }
    lines
}

#[test]
fn literal_suffixes_agree_with_clang() {
    harness::assert_c_program_prints(
        "literal_suffixes_agree_with_clang",
        "c-literals",
        &c_program(),
        &ours(),
    );
}

#[test]
fn a_float_literal_rounds_once_from_its_decimal_text() {
    // Rounded through `double`, the literal would be 1.0.
    assert_eq!(scalar_float(0.0), (1.0 + f32::EPSILON) - 2.0);
    assert_eq!(vector_literal(0.0)[2], (1.0 + f32::EPSILON) * 1.5);
    assert_eq!(
        matrix_float(m2::splat(1.0))[(0, 0)],
        1.0 + f32::EPSILON + 0.1
    );
}
