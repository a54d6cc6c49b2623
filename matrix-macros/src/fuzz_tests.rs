//! The front end never panics: random mutations of valid blocks (dropped,
//! swapped and duplicated tokens, huge literals, nested groups) are fed to
//! the expansion, which must return tokens that parse as Rust items, with a
//! `compile_error!` among them where the input was wrong.
//!
//! `MATRIX_FUZZ_CASES` sets the number of cases (default 3000; CI runs 100000).

use crate::expand::expand;
use proc_macro2::{Delimiter, Group, Literal, Punct, Spacing, TokenStream, TokenTree};
use proptest::prelude::*;

const SEEDS: &[&str] = &[
    r#"pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
       pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t { a * b + c }"#,
    r#"typedef double d2x3_t __attribute__((matrix_type(2, 3)));
       typedef double d3x2_t __attribute__((matrix_type(3, 2)));
       const N: usize = 2;
       fn f(a: d2x3_t, s: f32, i: usize) -> d3x2_t {
           let mut t = __builtin_matrix_transpose(a * s - 1);
           t[i][1] += 2.0;
           t[N][0] = t[0][1];
           if t[0][0] > 0.5 { t } else { (d3x2_t) a.transpose() }
       }"#,
    r#"#![fp_contract(fast)]
       typedef int i4_t __attribute__((matrix_type(N, 2 * 2)));
       const N: usize = 4;
       type m_t = Matrix<u8, 3, { N - 1 }>;
       fn g(src: &[i32], dst: &mut [i32], k: i64) {
           let m = __builtin_matrix_column_major_load(src, 4, 4, 5);
           __builtin_matrix_column_major_store(m * m + k, dst, 4);
           for j in 0..4 { let x = m[j][3 - j]; }
       }"#,
    r#"typedef unsigned long long u_t __attribute__((matrix_type(1, 7)));
       fn h(x: u_t, p: *const u64) -> u64 {
           let y = unsafe { __builtin_matrix_column_major_load(p, 1, 7) };
           __builtin_matrix_extract(__builtin_matrix_insert(x + y, 0, 6, 300), 0, 6)
       }"#,
    r#"typedef quat_t q2_t;
       typedef float real;
       typedef real quat_t __attribute__((matrix_type(2, 2)));
       type q3_t = q2_t;
       type Other = Vec<q3_t>;
       #[dispatch]
       fn k(a: &q3_t, b: quat_t) -> q2_t {
           let f = |x: q2_t| -> q2_t { x * x };
           assert_eq!(f(b)[0][1], b[1][0], "{} {x}", a[1][1], x = f(*a)[0][0]);
           (q2_t) (*a * b + (real) 1)
       }"#,
    r#"typedef float float4 __attribute__((ext_vector_type(4)));
       typedef int int4 __attribute__((ext_vector_type(4)));
       type float2 = Vector<f32, 2>;
       typedef float m4_t __attribute__((matrix_type(4, 4)));
       fn v(a: float4, b: float2, m: m4_t, i: usize) -> int4 {
           let mut c = a.wzyx * 2 + a[i] - m * a;
           c.xy = b.yx;
           c.z += b.s1;
           (c + a.x) < a
       }"#,
    r#"typedef float float4 __attribute__((ext_vector_type(4)));
       typedef int int4 __attribute__((ext_vector_type(4)));
       typedef float m4_t __attribute__((matrix_type(4, 4)));
       fn w(a: float4, m: m4_t, x: f32) -> m4_t {
           let v = (float4){x, 1, a.y, sqrtf(x)} + (float4)(x);
           let i = __builtin_convertvector(v, int4);
           let r = __builtin_matrix_row(m, 1) * __builtin_matrix_column(m, 2);
           __builtin_matrix_insert_column(m, 3, r + (float4) i[2])
       }"#,
    r#"typedef signed char b8x4_t __attribute__((matrix_type(8, 4, row_major)));
       typedef int acc_t __attribute__((matrix_type(2, 4)));
       type a2x8 = Matrix<u8, 2, 8, ColumnMajor>;
       fn mlp(x: a2x8, w: &[i8], c: acc_t, out: &mut [i32], s: i64) -> acc_t {
           let b: b8x4_t = __builtin_matrix_load(w, 8, 4, packed_b, 16);
           let y = __builtin_matrix_mad(x, b, c);
           __builtin_matrix_store(y, out, row_major, s);
           __builtin_matrix_map(__builtin_matrix_fill(y, 3), |v| v * 2 + 1)
       }"#,
    r#"typedef float m3_t __attribute__((matrix_type(3, 3)));
       fn gen<const R: usize, const C: usize>(a: Matrix<f32, R, C>, src: &[f32]) -> Matrix<f32, C, C> {
           let b: Matrix<f32, R, C> = __builtin_matrix_column_major_load(src, R, C, R);
           let t = __builtin_matrix_transpose(a + b);
           let x = t[0][1] + a[R - 1][0];
           __builtin_matrix_mad(t, a, __builtin_matrix_fill(t * a, x))
       }
       fn tr<const N: usize>(m: Matrix<f32, N, N>) -> f32 { m[1][1] }
       fn caller(m: m3_t) -> float { tr(gen(m, &[0.0f32; 9])) }"#,
    r#"typedef unsigned u4 __attribute__((ext_vector_type(4)));
       typedef int i3 __attribute__((ext_vector_type(3)));
       typedef float m2x3_t __attribute__((matrix_type(2, 3)));
       typedef float r2x3_t __attribute__((matrix_type(2, 3, row_major)));
       fn s(mut u: u4, mut t: i3, a: m2x3_t, b: r2x3_t) -> r2x3_t {
           u.zy %= (u.xw & 7) | 1;
           t.xz <<= t.yy & 31;
           t.yx ^= (u.xy > u.zw) - 1;
           u = -u >> 3;
           __builtin_matrix_zip((r2x3_t) a, b, |x, y| x * y + a[1][2])
       }"#,
    r#"typedef float m2 __attribute__((matrix_type(2, 2)));
       typedef int int4 __attribute__((ext_vector_type(4)));
       typedef float float4 __attribute__((ext_vector_type(4)));
       fn c(n: i32, x: f32, a: m2, v: float4, k: int4) -> float4 {
           let y = x > 0 ? x : n ? 0.5f : 0;
           let m = n > 1 ? a * a : a + y;
           (k ? v : m[0][1]) + (v > y ? v : 1.0f)
       }"#,
    r#"typedef float m4 __attribute__((matrix_type(4, 4)));
       fn s(a: m4, n: i32) -> m4 {
           m4 r;
           float t = 0, u = 1.5f;
           const int k = 2;
           for (int i = 0; i < 4; i++) {
               if (i == k) continue;
               for (int j = 0; j < 4; ++j) r[i][j] = a[j][i] * t;
               t += u;
           }
           int c = n;
           while (c > 0) c--;
           do { c++; if (c == 1) continue; } while (c < 3);
           if (n > 1) r = r * 2; else r = r - 1;
           return r;
       }"#,
    r#"typedef double d3 __attribute__((matrix_type(3, 3)));
       static inline double sq(double x) { return x * x; }
       d3 gram(const double *src, unsigned long stride, int k) {
           const double *p = src + k;
           d3 a = __builtin_matrix_column_major_load(p, 3, 3, stride) + *src;
           return __builtin_matrix_transpose(a) * a * sq(k);
       }
       void store(d3 m, double *dst) { __builtin_matrix_column_major_store(m, dst, 3); }"#,
    r#"typedef float m2 __attribute__((matrix_type(2, 2)));
       void walk(const float *src, float *const out, float *dst, int n) {
           float s = 0;
           while (n-- > 0) { *dst++ = *src++ * 2; s += *src; }
           if (n) *dst *= s; else dst += 1;
           src += 2; dst = dst + 1; dst++;
           __builtin_matrix_column_major_store(__builtin_matrix_column_major_load(src, 2, 2, 2), out, 2);
       }"#,
    r#"typedef float m2 __attribute__((matrix_type(2, 2)));
       int truths(m2 m, int n, float x) {
           int i, j, k = 0;
           float a, b;
           for (i = 0, j = n; i < j && !x; i++, j--) k += i;
           m[0][1] = m[1][0] = a = b = x;
           if (!n || k) k = a + b; else while (1) { if (n--) break; }
           do k++; while (0);
           return k;
       }"#,
    r#"int sections(int n, float x) {
           float r = 0;
           for (int i = 0; i < n; i++) {
               switch ((n + i) % 4) {
               case 0: r += x; break;
               case 1:
               case -1: if (i == 2) continue; r *= 2;
               default: { r -= i; break; }
               case 3: switch (i) { case 1: return -1; }
               }
               r += i;
           }
           switch (n) { case 7: return r; default: return r + 1; }
       }"#,
    r#"typedef unsigned char px __attribute__((matrix_type(2, 2)));
       unsigned char shade(unsigned char a, short b, char c, px m) {
           int n = (a < b) + !c;
           a += ~b << 2;
           m[0][1]++;
           if (~n && c != 'x') a -= c - '0';
           return (a * m[0][1] + b) / 255 + -(n > 1);
       }"#,
    r#"typedef float m2 __attribute__((matrix_type(2, 2)));
       m2 copy(const float *src, float *dst, int n) {
           m2 m;
           float w[4];
           memcpy(&m, src, sizeof m);
           memset(w, -1, sizeof w);
           memcpy(dst + 1, w, n * sizeof(float));
           fill(w, 4);
           return m;
       }
       void fill(float *p, int n) { while (n--) *p++ = n; }"#,
    r#"#include <math.h>
       #define N 2
       #define SQ(x) ((x) * (x))
       #if defined(N) && N > 1
       #define K 3
       #else
       #define K 1
       #endif
       typedef float mn __attribute__((matrix_type(N, N)));
       typedef enum { LOW, HIGH = K << 1 } level;
       float e(mn m) {
       #ifdef K
           return SQ(m[0][1]) * K;
       #endif
       }"#,
    r#"typedef float m2 __attribute__((matrix_type(2, 2)));
       typedef float v2 __attribute__((ext_vector_type(2)));
       struct Cam { view: m2, eye: v2, fov: f32, inner: Inner }
       struct Inner(m2, f32);
       fn f(c: &mut Cam, o: Other, mut v: v2) -> v2 {
           c.view[1][0] += 2;
           c.eye.yx = c.eye * c.fov + c.inner.1;
           v += o.eye;
           v = c.view * v + o.view * v - o.k / v;
           c.inner.0 * v
       }"#,
    r#"typedef float m2 __attribute__((matrix_type(2, 2)));
       typedef float v3 __attribute__((ext_vector_type(3)));
       struct light { v3 dir; float power; };
       typedef struct cam { m2 view; float planes[2]; struct light sun; unsigned char r; } cam;
       typedef struct cam cam_t;
       typedef struct { float x, y; } pt;
       static const v3 axis = { 0, 1 };
       const pt unit = { .y = 1 };
       void aim(cam *c, float k) { c->view[0][1] += k; c->sun.power *= 3; c->r += 200; }
       pt mid(pt a, pt b) { pt m = { (a.x + b.x) / 2, .y = b.y }; return m; }
       float run(float a) {
           cam c = { .planes = { 1, a }, .sun = { { 1, 2, 3 }, 5 } };
           cam_t d = c;
           v3 up = { 0, a }, ups[2] = { { 1 }, up };
           struct light ls[2] = { { .power = 7 }, c.sun };
           aim(&c, a);
           return mid((pt){ a, 2 }, unit).x + d.sun.power + ls[1].dir.y + axis.y + sizeof(cam);
       }"#,
    r#"#define MAT(N) typedef float m ## N __attribute__((matrix_type(N, N)));
       #define ADD(N) m ## N add ## N(m ## N a, m ## N b) { return a + b; }
       #define NAME(f) #f
       #define CALL(f, ...) f(__VA_ARGS__)
       MAT(2)
       ADD(2)
       static float add3(float a, float b, float c) { return a + b + c; }
       fn name() -> &'static str { NAME(add2 (x)) }
       float g(m2 m) { return CALL(add3, m[0][0], 1, CALL(add3, 2, 3, 4)); }"#,
    r#"unsigned countdown(unsigned n, unsigned long m) {
           unsigned s = 0;
           for (unsigned i = n; i-- > 0;) s += i * 3u;
           unsigned k = 0;
           k--;
           k -= n;
           m += 2 * m;
           return s + k + (n - 7) + (unsigned) m + -n;
       }"#,
];

/// One mutation of a flattened token list.
#[derive(Clone, Debug)]
enum Mutation {
    Drop(usize),
    Swap(usize),
    Duplicate(usize),
    HugeLiteral(usize),
    Nest(usize, u8),
    Insert(usize, char),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(Mutation::Drop),
        any::<usize>().prop_map(Mutation::Swap),
        any::<usize>().prop_map(Mutation::Duplicate),
        any::<usize>().prop_map(Mutation::HugeLiteral),
        (any::<usize>(), 0u8..3).prop_map(|(i, d)| Mutation::Nest(i, d)),
        (
            any::<usize>(),
            prop::sample::select(vec![
                '-', '+', '*', '/', '[', ';', ',', '#', '&', '!', '<', '>', '=', '?', ':'
            ])
        )
            .prop_map(|(i, c)| Mutation::Insert(i, c)),
    ]
}

/// Applies a mutation at a position of the token tree, recursing into the
/// group that holds it, so mutations reach kernel bodies and attributes.
fn apply(trees: &mut Vec<TokenTree>, m: &Mutation) {
    if trees.is_empty() {
        return;
    }
    let at = match m {
        Mutation::Drop(i)
        | Mutation::Swap(i)
        | Mutation::Duplicate(i)
        | Mutation::HugeLiteral(i)
        | Mutation::Nest(i, _)
        | Mutation::Insert(i, _) => *i,
    };
    let i = at % trees.len();
    // Half the time, go inside a group instead of mutating at this level.
    if let TokenTree::Group(g) = &trees[i]
        && (at / trees.len()).is_multiple_of(2)
    {
        let mut inner: Vec<TokenTree> = g.stream().into_iter().collect();
        let shifted = shift(m, at / trees.len() / 2);
        apply(&mut inner, &shifted);
        let mut new = Group::new(g.delimiter(), inner.into_iter().collect());
        new.set_span(g.span());
        trees[i] = TokenTree::Group(new);
        return;
    }
    match m {
        Mutation::Drop(_) => {
            trees.remove(i);
        }
        Mutation::Swap(_) => {
            let j = (i + 1) % trees.len();
            trees.swap(i, j);
        }
        Mutation::Duplicate(_) => {
            let t = trees[i].clone();
            trees.insert(i, t);
        }
        Mutation::HugeLiteral(_) => {
            let lit = match at % 8 {
                0 => Literal::u128_unsuffixed(u128::MAX),
                1 => Literal::f64_unsuffixed(1.0e308),
                2 => Literal::i64_suffixed(i64::MIN),
                3 => Literal::u64_unsuffixed(1 << 40),
                // C's suffixes, at the edges of the types they give.
                4 => "340282366920938463463374607431768211455ull"
                    .parse()
                    .unwrap(),
                5 => "1e39f".parse().unwrap(),
                6 => "0xFFFFFFFFFFFFFFFFFL".parse().unwrap(),
                _ => "4294967296u".parse().unwrap(),
            };
            trees[i] = TokenTree::Literal(lit);
        }
        Mutation::Nest(_, depth) => {
            let mut t = trees[i].clone();
            for level in 0..=*depth {
                let delim = [
                    Delimiter::Parenthesis,
                    Delimiter::Bracket,
                    Delimiter::Brace,
                    Delimiter::None,
                ][usize::from(level) % 4];
                t = TokenTree::Group(Group::new(delim, TokenStream::from(t)));
            }
            trees[i] = t;
        }
        Mutation::Insert(_, c) => {
            let tree = match c {
                '[' => TokenTree::Group(Group::new(Delimiter::Bracket, TokenStream::new())),
                c => TokenTree::Punct(Punct::new(*c, Spacing::Alone)),
            };
            trees.insert(i, tree);
        }
    }
}

fn shift(m: &Mutation, at: usize) -> Mutation {
    match m {
        Mutation::Drop(_) => Mutation::Drop(at),
        Mutation::Swap(_) => Mutation::Swap(at),
        Mutation::Duplicate(_) => Mutation::Duplicate(at),
        Mutation::HugeLiteral(_) => Mutation::HugeLiteral(at),
        Mutation::Nest(_, d) => Mutation::Nest(at, *d),
        Mutation::Insert(_, c) => Mutation::Insert(at, *c),
    }
}

fn cases() -> u32 {
    std::env::var("MATRIX_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000)
}

#[test]
fn seeds_expand_without_errors() {
    for seed in SEEDS {
        let out = expand(seed.parse().unwrap()).to_string();
        assert!(
            !out.contains("compile_error"),
            "seed reported an error: {out}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_blocks_never_panic(seed in 0..SEEDS.len(), mutations in prop::collection::vec(mutation(), 1..6)) {
        let mut trees: Vec<TokenTree> = SEEDS[seed].parse::<TokenStream>().unwrap().into_iter().collect();
        for m in &mutations {
            apply(&mut trees, m);
        }
        let out = expand(trees.into_iter().collect());
        // Whatever came in, what goes out is a list of items (with
        // `compile_error!` invocations among them where the input was wrong).
        prop_assert!(syn::parse2::<syn::File>(out.clone()).is_ok(), "output does not parse: {}", out);
    }
}

/// Minimal failing inputs the fuzzer found in CI runs, replayed on every run
/// so a fixed panic stays fixed.
#[test]
fn recorded_failures_never_panic() {
    let recorded: &[(usize, &[Mutation])] = &[(
        14,
        &[
            Mutation::Duplicate(3475414130399505643),
            Mutation::Nest(8382146711537870369, 2),
            Mutation::Nest(14530255549953134650, 2),
        ],
    )];
    for (seed, mutations) in recorded {
        let mut trees: Vec<TokenTree> = SEEDS[*seed]
            .parse::<TokenStream>()
            .unwrap()
            .into_iter()
            .collect();
        for m in *mutations {
            apply(&mut trees, m);
        }
        let input: TokenStream = trees.into_iter().collect();
        let out = expand(input.clone());
        assert!(
            syn::parse2::<syn::File>(out.clone()).is_ok(),
            "output does not parse for {input}: {out}"
        );
    }
}
