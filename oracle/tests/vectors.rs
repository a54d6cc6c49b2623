//! Vectors in kernels against clang-19: the same kernels written in C on
//! `ext_vector_type` and in `matrix!`, run on the same random inputs,
//! compared bit for bit.

use matrix_core::matrix;
use matrix_oracle::harness;
use matrix_oracle::prng::SplitMix64;
use std::fmt::Write;

matrix! {
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef float float2 __attribute__((ext_vector_type(2)));
    typedef double double3 __attribute__((ext_vector_type(3)));
    typedef int int4 __attribute__((ext_vector_type(4)));
    typedef signed char char4 __attribute__((ext_vector_type(4)));
    typedef unsigned int uint2 __attribute__((ext_vector_type(2)));
    typedef unsigned int uint4 __attribute__((ext_vector_type(4)));
    typedef float float3 __attribute__((ext_vector_type(3)));
    typedef short short8 __attribute__((ext_vector_type(8)));
    typedef short short6 __attribute__((ext_vector_type(6)));
    typedef double double2 __attribute__((ext_vector_type(2)));

    fn swizzle_arith(a: float4, b: float4, s: f32) -> float4 {
        (a.wzyx + b * s) / (b.xxyy + 3) - a.s2
    }
    fn int_splat(a: int4, k: i64, s: i16) -> int4 {
        a * 7 + k - s
    }
    fn compare(a: float4, b: float4) -> int4 {
        (a <= b) + (a > 0.5) - (a.yxwz == b)
    }
    fn literal(x: f32, v: float2) -> float4 {
        (float4){x, v.y, v.x, 1} * (float4)(x) + (float4){v.y}
    }
    fn assign(mut a: float4, b: float2) -> float4 {
        a.zx = b;
        a.y *= 2;
        a.w = a.x - a.z;
        a.wy -= b * 0.5;
        a
    }
    fn convert(a: float4) -> int4 {
        __builtin_convertvector(a * 100, int4)
    }
    fn doubles(a: double3, b: double3) -> double3 {
        a.zxy * b - a + a.x
    }
    fn chars(a: char4, b: char4) -> char4 {
        a * b + a.wzyx
    }
    fn unsigned(a: uint2, k: u32) -> uint2 {
        a - k + a.yx * 3
    }
    // `!` is Rust's spelling of C's `~`.
    fn bits(a: int4, b: int4, s: i32) -> int4 {
        ((a % b) ^ (a & b | s)) + (a >> (b & 31)) - !a
    }
    fn ushift(u: uint4, v: uint4) -> uint4 {
        (u << (v & 31)) | (u >> 3) ^ !v % 7
    }
    // Every compound assignment on a swizzle; the right operand keeps its
    // grouping (`t.yx += a ^ b` is `t.yx = t.yx + (a ^ b)`).
    fn swizzle_compound(mut t: int4, a: int4, b: int4) -> int4 {
        t.yx += (a.xy > b.zw) ^ a.zw;
        t.zy -= a.xy * b.yx + 3;
        t.wx *= a.xz | 1;
        t.xw %= (b.yz & 7) | 1;
        t.zyx /= (a.xyz & 5) | 1;
        t.xz <<= b.xy & 7;
        t.yw >>= a.zw & 15;
        t.wz &= a.xy - 1;
        t.xy |= b.zw ^ 12;
        t.wyz ^= 7 + a.yzw;
        t
    }
    // Vectors of two types whose elements fill as many bytes: a cast reads
    // the bytes as they are, and an operator reads its right operand's
    // bytes as the left one's type (a shift: one length, one element size).
    fn bitcasts(a: float4, i: int4, s: short8, u: uint4, f: float3, h: short6) -> int4 {
        let mut t = i + a;
        t += a * 2;
        let m = a < t;
        let w = (int4)(s + t);
        let g = (float3)(h + f);
        t ^ m ^ w ^ (int4)(a.wzyx) + (t << (u & 7)) + (int4)((float4){g.x, g.y, g.z, 0})
    }
    // `&&` and `||` on vectors: each lane compared with zero (`-0.0` is
    // zero), a mask of the operands' type after their conversions.
    fn logical(a: float4, b: float4, i: int4, s: short8, d: double2) -> int4 {
        (a && b) - ((i || a) << 1) + ((int4)(s && i) & 4) + ((int4)(d.xy || 0) & 8) + (1 || a) * 16
    }
    // A scalar where a vector is expected (an initialiser, an argument, a
    // returned value) converts to the element type and splats.
    fn twice(x: float4) -> float4 {
        x * 2
    }
    fn splats(d: f64, l: i64, k: i32) -> float4 {
        let v: float4 = 1;
        let w: int4 = d;
        if k > 3 {
            return k;
        }
        v + __builtin_convertvector(w, float4) + twice(l) + twice(0.5)
    }
}

const C_KERNELS: &str = r#"
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float2 __attribute__((ext_vector_type(2)));
typedef double double3 __attribute__((ext_vector_type(3)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef signed char char4 __attribute__((ext_vector_type(4)));
typedef unsigned int uint2 __attribute__((ext_vector_type(2)));
typedef unsigned int uint4 __attribute__((ext_vector_type(4)));
typedef float float3 __attribute__((ext_vector_type(3)));
typedef short short8 __attribute__((ext_vector_type(8)));
typedef short short6 __attribute__((ext_vector_type(6)));

float4 swizzle_arith(float4 a, float4 b, float s) {
    return (a.wzyx + b * s) / (b.xxyy + 3) - a.s2;
}
int4 int_splat(int4 a, long k, short s) { return a * 7 + k - s; }
int4 compare(float4 a, float4 b) { return (a <= b) + (a > 0.5) - (a.yxwz == b); }
float4 literal(float x, float2 v) {
    return (float4){x, v.y, v.x, 1} * (float4)(x) + (float4){v.y};
}
float4 assign(float4 a, float2 b) { a.zx = b; a.y *= 2; a.w = a.x - a.z; a.wy -= b * 0.5; return a; }
int4 convert(float4 a) { return __builtin_convertvector(a * 100, int4); }
double3 doubles(double3 a, double3 b) { return a.zxy * b - a + a.x; }
char4 chars(char4 a, char4 b) { return a * b + a.wzyx; }
uint2 unsigned_(uint2 a, unsigned k) { return a - k + a.yx * 3; }
int4 bits(int4 a, int4 b, int s) { return ((a % b) ^ (a & b | s)) + (a >> (b & 31)) - ~a; }
uint4 ushift(uint4 u, uint4 v) { return (u << (v & 31)) | (u >> 3) ^ ~v % 7; }
int4 swizzle_compound(int4 t, int4 a, int4 b) {
    t.yx += (a.xy > b.zw) ^ a.zw;
    t.zy -= a.xy * b.yx + 3;
    t.wx *= a.xz | 1;
    t.xw %= (b.yz & 7) | 1;
    t.zyx /= (a.xyz & 5) | 1;
    t.xz <<= b.xy & 7;
    t.yw >>= a.zw & 15;
    t.wz &= a.xy - 1;
    t.xy |= b.zw ^ 12;
    t.wyz ^= 7 + a.yzw;
    return t;
}
int4 bitcasts(float4 a, int4 i, short8 s, uint4 u, float3 f, short6 h) {
    int4 t = i + a;
    t += a * 2;
    __auto_type m = a < t;
    __auto_type w = (int4)(s + t);
    __auto_type g = (float3)(h + f);
    return t ^ m ^ w ^ (int4)(a.wzyx) + (t << (u & 7)) + (int4)((float4){g.x, g.y, g.z, 0});
}
typedef double double2 __attribute__((ext_vector_type(2)));
int4 logical(float4 a, float4 b, int4 i, short8 s, double2 d) {
    return (a && b) - ((i || a) << 1) + ((int4)(s && i) & 4) + ((int4)(d.xy || 0) & 8) + (1 || a) * 16;
}
float4 twice(float4 x) { return x * 2; }
float4 splats(double d, long l, int k) {
    float4 v = 1;
    int4 w = d;
    if (k > 3) { return k; }
    return v + __builtin_convertvector(w, float4) + twice(l) + twice(0.5);
}
"#;

/// Inputs per kernel.
const CASES: usize = 200;

fn small(rng: &mut SplitMix64) -> f64 {
    // Quarter steps in [-8, 8), some ties, some equal to each other.
    ((rng.next_u64() % 64) as f64 - 32.0) / 4.0
}

#[test]
fn vector_kernels_agree_with_clang() {
    let Some(clang) = harness::require_clang("vector_kernels_agree_with_clang") else {
        return;
    };
    let mut rng = SplitMix64::new(0x7665_6374);
    let mut bits_rng = SplitMix64::new(0x6269_7473);
    let mut c = String::from(C_KERNELS);
    c.push_str("#include <stdio.h>\n#include <string.h>\n");
    c.push_str("static unsigned fb(float x) { unsigned b; memcpy(&b, &x, 4); return b; }\n");
    c.push_str(
        "static unsigned long long db(double x) { unsigned long long b; memcpy(&b, &x, 8); return b; }\n",
    );
    c.push_str("int main(void) {\n");
    let mut ours: Vec<String> = Vec::new();
    let fl = |x: f32| x.to_bits().to_string();
    for i in 0..CASES {
        let f4 = |rng: &mut SplitMix64| [0; 4].map(|_| small(rng) as f32);
        let (a, b, s) = (f4(&mut rng), f4(&mut rng), small(&mut rng) as f32);
        let lit = |v: [f32; 4]| {
            format!(
                "(float4){{{:?}f, {:?}f, {:?}f, {:?}f}}",
                v[0], v[1], v[2], v[3]
            )
        };
        let bits4 = |v: [f32; 4]| v.map(fl).join(" ");
        writeln!(c, "  {{ float4 r = swizzle_arith({}, {}, {s:?}f); printf(\"sa {i} %u %u %u %u\\n\", fb(r.x), fb(r.y), fb(r.z), fb(r.w)); }}", lit(a), lit(b)).unwrap();
        let r = swizzle_arith(a.into(), b.into(), s);
        ours.push(format!("sa {i} {}", bits4(r.to_array())));

        writeln!(c, "  {{ int4 r = compare({}, {}); printf(\"cmp {i} %d %d %d %d\\n\", r.x, r.y, r.z, r.w); }}", lit(a), lit(b)).unwrap();
        let r = compare(a.into(), b.into()).to_array();
        ours.push(format!("cmp {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        let v2 = [a[0], b[1]];
        writeln!(c, "  {{ float4 r = literal({s:?}f, (float2){{{:?}f, {:?}f}}); printf(\"lit {i} %u %u %u %u\\n\", fb(r.x), fb(r.y), fb(r.z), fb(r.w)); }}", v2[0], v2[1]).unwrap();
        ours.push(format!(
            "lit {i} {}",
            bits4(literal(s, v2.into()).to_array())
        ));

        writeln!(c, "  {{ float4 r = assign({}, (float2){{{:?}f, {:?}f}}); printf(\"asg {i} %u %u %u %u\\n\", fb(r.x), fb(r.y), fb(r.z), fb(r.w)); }}", lit(a), v2[0], v2[1]).unwrap();
        ours.push(format!(
            "asg {i} {}",
            bits4(assign(a.into(), v2.into()).to_array())
        ));

        writeln!(
            c,
            "  {{ int4 r = convert({}); printf(\"cv {i} %d %d %d %d\\n\", r.x, r.y, r.z, r.w); }}",
            lit(a)
        )
        .unwrap();
        let r = convert(a.into()).to_array();
        ours.push(format!("cv {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        let d3 = |rng: &mut SplitMix64| [0; 3].map(|_| small(rng) / 3.0);
        let (x, y) = (d3(&mut rng), d3(&mut rng));
        let dl = |v: [f64; 3]| format!("(double3){{{:e}, {:e}, {:e}}}", v[0], v[1], v[2]);
        writeln!(c, "  {{ double3 r = doubles({}, {}); printf(\"dbl {i} %llu %llu %llu\\n\", db(r.x), db(r.y), db(r.z)); }}", dl(x), dl(y)).unwrap();
        let r = doubles(x.into(), y.into()).to_array();
        ours.push(format!(
            "dbl {i} {} {} {}",
            r[0].to_bits(),
            r[1].to_bits(),
            r[2].to_bits()
        ));

        let ints = [0; 4].map(|_| rng.next_u64() as i32);
        let (k, sh) = (rng.next_u64() as i64, rng.next_u64() as i16);
        writeln!(c, "  {{ int4 r = int_splat((int4){{{}, {}, {}, {}}}, {k}L, {sh}); printf(\"int {i} %d %d %d %d\\n\", r.x, r.y, r.z, r.w); }}", ints[0], ints[1], ints[2], ints[3]).unwrap();
        let r = int_splat(ints.into(), k, sh).to_array();
        ours.push(format!("int {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        let (p, q) = (
            [0; 4].map(|_| rng.next_u64() as i8),
            [0; 4].map(|_| rng.next_u64() as i8),
        );
        writeln!(c, "  {{ char4 r = chars((char4){{{}, {}, {}, {}}}, (char4){{{}, {}, {}, {}}}); printf(\"chr {i} %d %d %d %d\\n\", r.x, r.y, r.z, r.w); }}", p[0], p[1], p[2], p[3], q[0], q[1], q[2], q[3]).unwrap();
        let r = chars(p.into(), q.into()).to_array();
        ours.push(format!("chr {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        let (u, uk) = ([0; 2].map(|_| rng.next_u64() as u32), rng.next_u64() as u32);
        writeln!(c, "  {{ uint2 r = unsigned_((uint2){{{}u, {}u}}, {uk}u); printf(\"uns {i} %u %u\\n\", r.x, r.y); }}", u[0], u[1]).unwrap();
        let r = unsigned(u.into(), uk).to_array();
        ours.push(format!("uns {i} {} {}", r[0], r[1]));

        // Divisors never zero, and never -1 (`INT_MIN % -1` is undefined in
        // C). From a generator of their own, so that the inputs above stay
        // those they were.
        let rng = &mut bits_rng;
        let x = [0; 4].map(|_| rng.next_u64() as i32);
        let y = [0; 4].map(
            |_| match (rng.next_u64() as i32 >> (rng.next_u64() % 31)) | 1 {
                -1 => 3,
                d => d,
            },
        );
        let sv = rng.next_u64() as i32;
        writeln!(c, "  {{ int4 r = bits((int4){{{}, {}, {}, {}}}, (int4){{{}, {}, {}, {}}}, {sv}); printf(\"bit {i} %d %d %d %d\\n\", r.x, r.y, r.z, r.w); }}", x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]).unwrap();
        let r = bits(x.into(), y.into(), sv).to_array();
        ours.push(format!("bit {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        let (u4, v4) = (
            [0; 4].map(|_| rng.next_u64() as u32),
            [0; 4].map(|_| rng.next_u64() as u32),
        );
        writeln!(c, "  {{ uint4 r = ushift((uint4){{{}u, {}u, {}u, {}u}}, (uint4){{{}u, {}u, {}u, {}u}}); printf(\"ush {i} %u %u %u %u\\n\", r.x, r.y, r.z, r.w); }}", u4[0], u4[1], u4[2], u4[3], v4[0], v4[1], v4[2], v4[3]).unwrap();
        let r = ushift(u4.into(), v4.into()).to_array();
        ours.push(format!("ush {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        let [t, a, b] = [0; 3].map(|_| [0; 4].map(|_| rng.next_u64() as i32 >> 8));
        let int4 = |v: [i32; 4]| format!("(int4){{{}, {}, {}, {}}}", v[0], v[1], v[2], v[3]);
        writeln!(c, "  {{ int4 r = swizzle_compound({}, {}, {}); printf(\"swc {i} %d %d %d %d\\n\", r.x, r.y, r.z, r.w); }}", int4(t), int4(a), int4(b)).unwrap();
        let r = swizzle_compound(t.into(), a.into(), b.into()).to_array();
        ours.push(format!("swc {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        let f4 = [0; 4].map(|_| small(rng) as f32);
        let ints = [0; 4].map(|_| rng.next_u64() as i32);
        let shorts = [0; 8].map(|_| rng.next_u64() as i16);
        let u4 = [0; 4].map(|_| rng.next_u64() as u32);
        let f3 = [0; 3].map(|_| small(rng) as f32);
        let h6 = [0; 6].map(|_| rng.next_u64() as i16);
        let list = |v: &[String]| v.join(", ");
        let fs = |v: &[f32]| list(&v.iter().map(|x| format!("{x:?}f")).collect::<Vec<_>>());
        let ns = |v: &[i64]| list(&v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        writeln!(
            c,
            "  {{ int4 r = bitcasts((float4){{{}}}, (int4){{{}}}, (short8){{{}}}, (uint4){{{}}}, (float3){{{}}}, (short6){{{}}}); printf(\"bc {i} %d %d %d %d\\n\", r.x, r.y, r.z, r.w); }}",
            fs(&f4),
            ns(&ints.map(i64::from)),
            ns(&shorts.map(i64::from)),
            list(&u4.map(|x| format!("{x}u"))),
            fs(&f3),
            ns(&h6.map(i64::from)),
        )
        .unwrap();
        let r = bitcasts(
            f4.into(),
            ints.into(),
            shorts.into(),
            u4.into(),
            f3.into(),
            h6.into(),
        )
        .to_array();
        ours.push(format!("bc {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        // Zeros of both signs in most lanes, so that `&&` and `||` see both.
        let z = |rng: &mut SplitMix64| *rng.pick(&[0.0f32, -0.0, 0.0, 1.5, -2.0]);
        let (la, lb) = ([0; 4].map(|_| z(rng)), [0; 4].map(|_| z(rng)));
        let li = [0; 4].map(|_| *rng.pick(&[0, 0, 1, -1, i32::MIN]));
        let ls = [0; 8].map(|_| *rng.pick(&[0i16, 0, 7, -1]));
        let ld = [0; 2].map(|_| f64::from(z(rng)));
        writeln!(
            c,
            "  {{ int4 r = logical((float4){{{}}}, (float4){{{}}}, (int4){{{}}}, (short8){{{}}}, (double2){{{}}}); printf(\"lg {i} %d %d %d %d\\n\", r.x, r.y, r.z, r.w); }}",
            fs(&la),
            fs(&lb),
            ns(&li.map(i64::from)),
            ns(&ls.map(i64::from)),
            list(&ld.map(|x| format!("{x:?}"))),
        )
        .unwrap();
        let r = logical(la.into(), lb.into(), li.into(), ls.into(), ld.into()).to_array();
        ours.push(format!("lg {i} {} {} {} {}", r[0], r[1], r[2], r[3]));

        let (d, l, k) = (
            small(rng),
            rng.next_u64() as i64,
            (rng.next_u64() % 8) as i32,
        );
        writeln!(c, "  {{ float4 r = splats({d:e}, {l}L, {k}); printf(\"sp {i} %u %u %u %u\\n\", fb(r.x), fb(r.y), fb(r.z), fb(r.w)); }}").unwrap();
        ours.push(format!("sp {i} {}", bits4(splats(d, l, k).to_array())));
    }
    c.push_str("  return 0;\n}\n");

    let stdout = harness::run_c_program(
        &clang,
        "vectors",
        &c,
        &["-O1", "-ffp-contract=off", "-Wno-excess-initializers"],
    );
    harness::assert_same_lines(&ours, &stdout, "clang-19");
}
