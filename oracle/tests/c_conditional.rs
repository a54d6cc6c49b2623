//! C's conditional operator `c ? a : b` in kernels against clang-19: each
//! kernel's body is written the same in `matrix!` and in C, run on the same
//! inputs, and the results compared bit for bit. The kernels cover a
//! numeric condition (compared with zero: `-0.0` is false, a NaN true),
//! nesting (C groups from the right), literal operands converted to a
//! float operand's type, matrix operands, a scalar splatted onto a vector
//! operand, and integer vector conditions, which choose lane by lane by
//! each lane's sign bit.

use matrix_core::matrix;
use matrix_oracle::harness;
use std::fmt::Write;

matrix! {
    typedef float m2 __attribute__((matrix_type(2, 2)));
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef int int4 __attribute__((ext_vector_type(4)));
    typedef unsigned int uint4 __attribute__((ext_vector_type(4)));

    fn leaky(x: f32) -> f32 { x > 0 ? x : 0.01f * x }
    fn int_condition(n: i32, x: f32) -> f32 { n ? x : -x }
    fn float_condition(x: f32, a: i32, b: i32) -> i32 { x ? a + 1 : b - 1 }
    fn sign(x: f64) -> f64 { x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0 }
    fn relu(x: f32) -> f32 { x > 0 ? x : 0 }
    fn nested_first(a: i32, b: i32) -> i32 { a > 0 ? b > 0 ? 1 : 2 : 3 }
    fn matrices(n: i32, a: m2, b: m2) -> m2 { n > 2 ? a * b : a + b * 2 }
    fn clamp_lanes(v: float4, lo: f32) -> float4 { v.x > lo ? v : lo }
    fn select(v: float4, w: float4) -> float4 { v > w ? v : w }
    fn select_unsigned(c: uint4, v: float4) -> float4 { c ? v : 2.0f }
    fn select_scalars(c: int4) -> int4 { c ? 7 : -7 }
    fn cast_condition(x: f32, a: f32) -> f32 { (int) x ? a : (float) (int) a }
    fn literal_condition(n: i32, v: float4, w: float4) -> float4 { (int4){n, -n, 0, -1} ? v : w }
    fn mixed_operands(n: i32, x: f32) -> f64 { n > 2 ? x : n * 0.5 }
}

/// The same kernels in C.
const C_KERNELS: &str = r#"
typedef float m2 __attribute__((matrix_type(2, 2)));
typedef float float4 __attribute__((ext_vector_type(4)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef unsigned int uint4 __attribute__((ext_vector_type(4)));

float leaky(float x) { return x > 0 ? x : 0.01f * x; }
float int_condition(int n, float x) { return n ? x : -x; }
int float_condition(float x, int a, int b) { return x ? a + 1 : b - 1; }
double sign(double x) { return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0; }
float relu(float x) { return x > 0 ? x : 0; }
int nested_first(int a, int b) { return a > 0 ? b > 0 ? 1 : 2 : 3; }
m2 matrices(int n, m2 a, m2 b) { return n > 2 ? a * b : a + b * 2; }
float4 clamp_lanes(float4 v, float lo) { return v.x > lo ? v : lo; }
float4 select(float4 v, float4 w) { return v > w ? v : w; }
float4 select_unsigned(uint4 c, float4 v) { return c ? v : 2.0f; }
int4 select_scalars(int4 c) { return c ? 7 : -7; }
float cast_condition(float x, float a) { return (int) x ? a : (float) (int) a; }
float4 literal_condition(int n, float4 v, float4 w) { return (int4){n, -n, 0, -1} ? v : w; }
double mixed_operands(int n, float x) { return n > 2 ? x : n * 0.5; }
"#;

/// The inputs: each `x` is a float, an integer, and the lanes' seed.
const INPUTS: [f32; 8] = [0.0, -0.0, 1.5, -2.25, 3.0, f32::NAN, 100.0, -7.0];

/// `x` as C source (`NAN` and `-0.0f` spelled so).
fn c_float(x: f32) -> String {
    if x.is_nan() {
        "NAN".into()
    } else {
        format!("{x:?}f")
    }
}

/// The input of `cast_condition`, whose `(int)` C leaves undefined for a
/// NaN.
fn cast_input(x: f32) -> f32 {
    if x.is_nan() { 3.25 } else { x * 0.5 }
}

/// The lanes each input gives a vector: signs and magnitudes vary by lane.
fn lanes(x: f32) -> [f32; 4] {
    let x = if x.is_nan() { 0.5 } else { x };
    [x, -x + 1.0, x * 2.0 - 3.0, 4.0 - x]
}

/// The integer lanes: both signs, and `u32`s with and without the top bit.
fn int_lanes(x: f32) -> [i32; 4] {
    let n = if x.is_nan() { 9 } else { x as i32 };
    [n, -n, n - 1, i32::MIN + n.abs()]
}

fn c_program() -> String {
    let mut c = String::from("#include <math.h>\n#include <stdio.h>\n");
    c.push_str(harness::C_BITS);
    c.push_str(C_KERNELS);
    c.push_str(
        "static void pv(float4 v) { printf(\"%u %u %u %u\\n\", fb(v.x), fb(v.y), fb(v.z), fb(v.w)); }\n\
         int main(void) {\n",
    );
    for x in INPUTS {
        let (f, n) = (c_float(x), if x.is_nan() { 9 } else { x as i32 });
        let neg = -n;
        let half = c_float(cast_input(x));
        let [l0, l1, l2, l3] = lanes(x).map(c_float);
        let [m0, m1, m2, m3] = lanes(-x).map(c_float);
        let [i0, i1, i2, i3] = int_lanes(x);
        writeln!(
            c,
            "  printf(\"%u %u %u %d %llu %d %d\\n\", fb(leaky({f})), fb(relu({f})), fb(int_condition({n}, {f})), float_condition({f}, {n}, {n}), db(sign((double){f})), nested_first({n}, {n} - 2), nested_first({neg}, 1));\n\
             \x20 {{ m2 a, b; a[0][0] = {l0}; a[1][0] = {l1}; a[0][1] = {l2}; a[1][1] = {l3};\n\
             \x20   b[0][0] = {m0}; b[1][0] = {m1}; b[0][1] = {m2}; b[1][1] = {m3};\n\
             \x20   m2 r = matrices({n}, a, b); printf(\"%u %u %u %u\\n\", fb(r[0][0]), fb(r[1][0]), fb(r[0][1]), fb(r[1][1])); }}\n\
             \x20 {{ float4 v = {{{l0}, {l1}, {l2}, {l3}}}, w = {{{m0}, {m1}, {m2}, {m3}}};\n\
             \x20   int4 c = {{{i0}, {i1}, {i2}, {i3}}}; uint4 u = (uint4) c;\n\
             \x20   pv(clamp_lanes(v, {f})); pv(select(v, w)); pv(select_unsigned(u, v));\n\
             \x20   int4 s = select_scalars(c); printf(\"%d %d %d %d\\n\", s.x, s.y, s.z, s.w);\n\
             \x20   printf(\"%u\\n\", fb(cast_condition({half}, {l1}))); pv(literal_condition({n}, v, w));\n\
             \x20   printf(\"%llu\\n\", db(mixed_operands({n}, {f}))); }}"
        )
        .unwrap();
    }
    c.push_str("  return 0;\n}\n");
    c
}

/// The bits of `xs`, as the C program prints them.
fn bits(xs: &[f32]) -> String {
    let b: Vec<String> = xs.iter().map(|x| x.to_bits().to_string()).collect();
    b.join(" ")
}

fn ours() -> Vec<String> {
    let mut lines = Vec::new();
    for x in INPUTS {
        let n = if x.is_nan() { 9 } else { x as i32 };
        lines.push(format!(
            "{} {} {} {} {} {} {}",
            leaky(x).to_bits(),
            relu(x).to_bits(),
            int_condition(n, x).to_bits(),
            float_condition(x, n, n),
            sign(f64::from(x)).to_bits(),
            nested_first(n, n - 2),
            nested_first(-n, 1),
        ));
        let [l0, l1, l2, l3] = lanes(x);
        let [m0, m1, m2, m3] = lanes(-x);
        let a = m2::from_rows([[l0, l2], [l1, l3]]);
        let b = m2::from_rows([[m0, m2], [m1, m3]]);
        let r = matrices(n, a, b);
        // Column-major, the order the C program prints.
        lines.push(bits(r.as_slice()));
        let (v, w) = (float4::from_array(lanes(x)), float4::from_array(lanes(-x)));
        let c = int4::from_array(int_lanes(x));
        let u = uint4::from_array(int_lanes(x).map(|i| i as u32));
        lines.push(bits(clamp_lanes(v, x).as_slice()));
        lines.push(bits(select(v, w).as_slice()));
        lines.push(bits(select_unsigned(u, v).as_slice()));
        let s = select_scalars(c).to_array();
        lines.push(format!("{} {} {} {}", s[0], s[1], s[2], s[3]));
        lines.push(cast_condition(cast_input(x), l1).to_bits().to_string());
        lines.push(bits(literal_condition(n, v, w).as_slice()));
        lines.push(mixed_operands(n, x).to_bits().to_string());
    }
    lines
}

#[test]
fn conditionals_agree_with_clang() {
    harness::assert_c_program_prints(
        "conditionals_agree_with_clang",
        "c-conditional",
        &c_program(),
        &ours(),
    );
}

#[test]
fn a_scalar_condition_evaluates_only_the_operand_it_chooses() {
    matrix! {
        fn first_or_index(v: &[f32], i: usize) -> f32 { i < v.len() ? v[i] : v[0] }
    }
    // `v[5]` would panic if it were evaluated.
    assert_eq!(first_or_index(&[1.0, 2.0], 5), 1.0);
    assert_eq!(first_or_index(&[1.0, 2.0], 1), 2.0);
}

#[test]
fn a_conditional_inside_a_map_is_computed_per_element() {
    matrix! {
        typedef float m4x4_t __attribute__((matrix_type(4, 4)));
        fn activate(x: m4x4_t, w: m4x4_t, b: m4x4_t) -> m4x4_t {
            __builtin_matrix_map(__builtin_matrix_mad(x, w, b), |v| v > 0 ? v : 0.01f * v) * 0.5
        }
    }
    let x = m4x4_t::from_fn(|r, c| r as f32 - c as f32 * 0.75);
    let w = m4x4_t::from_fn(|r, c| (r * 4 + c) as f32 * 0.125 - 1.0);
    let b = m4x4_t::from_fn(|r, c| c as f32 - 1.5 + r as f32 * 0.25);
    let sum = x * w + b;
    let expected = m4x4_t::from_fn(|r, c| {
        let v = sum[(r, c)];
        (if v > 0.0 { v } else { 0.01 * v }) * 0.5
    });
    let got = activate(x, w, b);
    assert!(
        (0..16).any(|i| got.as_slice()[i] < 0.0),
        "some elements take the second operand"
    );
    for i in 0..16 {
        assert_eq!(
            got.as_slice()[i].to_bits(),
            expected.as_slice()[i].to_bits(),
            "element {i}"
        );
    }
}
