//! C's integer arithmetic in functions with a C head, against clang-19:
//! the integer promotions (`char`, `short` and their unsigned forms
//! compute in `int`: `a + b` of two `unsigned char` is 300 for 200 and
//! 100, `-c` and `~c` are negative, `c << 4` keeps its bits), the
//! conversion back where a narrow place is assigned (`c += 200` and
//! `c++` wrap, `c <<= 8` is zero, `-128 / -1` of `signed char` is -128),
//! truth values as `int` (`n += a < b`, `return a > b;`, `!n` and `!!n`
//! anywhere, `-(x > 1)`), `~` on integers, truth values and in
//! conditions, character constants as the `int`s they code (`c - '0'`,
//! `case 'x':`), unsigned arithmetic that wraps (`i--` past zero, `-n`),
//! and elements stepped inside expressions (`if
//! (++bins[b] > top)`, `m[0][1]--`). The block's source is one text,
//! compiled as `matrix!` and (through `stringify!`) as C; every kernel
//! runs on the edges of its types, and the results are compared line for
//! line.

use matrix_oracle::{c_and_rust, harness};

c_and_rust! {
    typedef unsigned char u8m __attribute__((matrix_type(2, 2)));

    unsigned char blend(unsigned char a, unsigned char b, unsigned char alpha) {
        return (a * alpha + b * (255 - alpha) + 127) / 255;
    }

    unsigned pack(unsigned char r, unsigned char g, unsigned char b, unsigned char a) {
        return (unsigned) r << 24 | g << 16 | b << 8 | a;
    }

    short fixmul(short a, short b) { return (a * b) >> 8; }

    int sat_add(signed char a, signed char b) {
        int s = a + b;
        return s > 127 ? 127 : s < -128 ? -128 : s;
    }

    unsigned short churn(unsigned short x, int n) {
        x += 40000;
        x *= 3;
        x -= n;
        x >>= 1;
        x ^= ~n;
        x++;
        return x;
    }

    unsigned char bytes(unsigned char c, signed char d, int n) {
        for (int i = 0; i < n; i++) c += 200;
        c <<= 1;
        c++;
        d /= -1;
        c -= d;
        return c;
    }

    int unary(unsigned char a, short b) {
        return -a * 3 + ~b + !a * 7 + !b - ~a;
    }

    int truths(int a, int b) {
        int n = (a < b) + (a == b) * 2;
        n += a > b;
        n -= !a;
        int k = !!b;
        if (~a) n += 100;
        if (!~b) n += 1000;
        return n * 4 + (a && b) - (a || !b) + k * 16 + ~(a < b);
    }

    unsigned char lookup(const unsigned char *lut, unsigned char i, unsigned char j) {
        return lut[(i + j) & 15] + lut[(i ^ j) & 7] * 2;
    }

    unsigned countdown(unsigned n, unsigned long m) {
        unsigned s = 0;
        for (unsigned i = n; i-- > 0;) s += i * 2654435761u;
        unsigned k = 0;
        k--;
        k -= n;
        k *= 3u;
        m = m - 1;
        m += 2 * m;
        return s + k + (n - 7) + (unsigned) m + -n + (unsigned) (m >> 40);
    }

    float mix(unsigned char a, float x) { return a * x - ~a + -(x > 1); }

    int digit(char c) { return c >= '0' && c <= '9' ? c - '0' : -1; }

    char upper(char c) {
        if (c >= 'a' && c <= 'z') c -= 'a' - 'A';
        return c;
    }

    int classify(unsigned char c) {
        switch (c) {
        case 'x': return 1;
        case '\n': return 2;
        default: return (c == ' ') * 3;
        }
    }

    unsigned short hash(const unsigned char *s, int n) {
        unsigned short h = 5381;
        for (int i = 0; i < n; i++) h = h * 33 + s[i];
        return h;
    }

    int histogram(const unsigned char *px, int n, u8m m) {
        int bins[4] = {0};
        int top = 0;
        for (int i = 0; i < n; i++) {
            int b = px[i] >> 6;
            if (++bins[b] > top) top = bins[b];
        }
        int first = bins[0]++;
        unsigned char e = ++m[1][1] + m[0][1]--;
        return top * 1000 + first * 100 + --bins[3] * 10 + bins[0] + e * 10000 + m[0][1];
    }

    u8m bump(u8m m, unsigned char k) {
        m[0][0] += k;
        m[0][1] = m[0][1] * k / 3;
        m[1][0]++;
        m[1][1] = ~m[1][1];
        return m * k + m;
    }
}

const U8: [u8; 10] = [0, 1, 2, 7, 100, 127, 128, 200, 254, 255];
const I8: [i8; 8] = [-128, -127, -1, 0, 1, 63, 100, 127];
const U16: [u16; 6] = [0, 1, 255, 256, 40000, 65535];
const I16: [i16; 8] = [-32768, -300, -1, 0, 1, 255, 300, 32767];
const INTS: [i32; 7] = [i32::MIN, -40000, -1, 0, 1, 7, i32::MAX];

/// Each case as a C statement that prints one line, and the line here.
fn cases() -> Vec<harness::Case> {
    let mut out = Vec::new();
    let mut push = |call: String, format: &str, ours: String| {
        out.push(harness::case(&call, format, ours));
    };
    // C's unsigned arithmetic wraps: `i--` past zero, `k--` of zero, `-n`.
    for n in [0u32, 1, 5, 40000] {
        for m in [0u64, 1, 1 << 41, u64::MAX] {
            push(
                format!("countdown({n}u, {m}ul)"),
                "%u",
                countdown(n, m).to_string(),
            );
        }
    }
    for a in U8 {
        for b in U8 {
            push(
                format!("blend({a}, {b}, {})", a ^ b),
                "%d",
                blend(a, b, a ^ b).to_string(),
            );
            push(
                format!("pack({a}, {b}, {a}, {b})"),
                "%u",
                pack(a, b, a, b).to_string(),
            );
        }
        for d in I8 {
            for n in [0, 1, 3] {
                push(
                    format!("bytes({a}, {d}, {n})"),
                    "%d",
                    bytes(a, d, n).to_string(),
                );
            }
        }
        for b in I16 {
            push(format!("unary({a}, {b})"), "%d", unary(a, b).to_string());
        }
        for x in [-2.5f32, 0.0, 0.75, 3.0] {
            push(
                format!("fb(mix({a}, {x:?}f))"),
                "%u",
                mix(a, x).to_bits().to_string(),
            );
        }
    }
    for a in I16 {
        for b in I16 {
            push(format!("fixmul({a}, {b})"), "%d", fixmul(a, b).to_string());
        }
    }
    for a in I8 {
        for b in I8 {
            push(
                format!("sat_add({a}, {b})"),
                "%d",
                sat_add(a, b).to_string(),
            );
        }
    }
    for x in U16 {
        for n in INTS {
            // A quarter of `int`'s edges: `x - n` stays in `int`'s range,
            // as C's must.
            let n = n / 4;
            push(format!("churn({x}, {n})"), "%d", churn(x, n).to_string());
        }
    }
    for a in INTS {
        for b in INTS {
            // `INT_MIN` as C writes it: `2147483648` alone is a `long`.
            let c = |v: i32| {
                if v == i32::MIN {
                    "(-2147483647 - 1)".to_string()
                } else {
                    v.to_string()
                }
            };
            push(
                format!("truths({}, {})", c(a), c(b)),
                "%d",
                truths(a, b).to_string(),
            );
        }
    }
    let lut: Vec<u8> = (0..16u8)
        .map(|k| k.wrapping_mul(37).wrapping_add(11))
        .collect();
    for i in [0u8, 3, 9, 200, 255] {
        for j in [0u8, 5, 15, 128] {
            push(
                format!("lookup(lut, {i}, {j})"),
                "%d",
                lookup(&lut, i, j).to_string(),
            );
        }
    }
    for c in i8::MIN..=i8::MAX {
        push(format!("digit({c})"), "%d", digit(c).to_string());
        push(format!("upper({c})"), "%d", upper(c).to_string());
    }
    for c in u8::MIN..=u8::MAX {
        push(format!("classify({c})"), "%d", classify(c).to_string());
    }
    for n in [0, 1, 5, 16] {
        push(format!("hash(lut, {n})"), "%d", hash(&lut, n).to_string());
    }
    for n in [0, 1, 5, 16] {
        let m = u8m::from_rows([[1, 0], [7, 255]]);
        let c = format!(
            "{{ u8m m; m[0][0] = 1; m[0][1] = 0; m[1][0] = 7; m[1][1] = 255; printf(\"%d\\n\", histogram(lut, {n}, m)); }}"
        );
        out.push((c, histogram(&lut, n, m).to_string()));
    }
    for (m, k) in [
        ([250u8, 200, 255, 3], 10u8),
        ([0, 1, 2, 128], 255),
        ([7, 9, 11, 13], 3),
    ] {
        let r = bump(u8m::from_rows([[m[0], m[1]], [m[2], m[3]]]), k);
        let c = format!(
            "{{ u8m m; m[0][0] = {}; m[0][1] = {}; m[1][0] = {}; m[1][1] = {}; u8m r = bump(m, {k}); \
             printf(\"%d %d %d %d\\n\", r[0][0], r[0][1], r[1][0], r[1][1]); }}",
            m[0], m[1], m[2], m[3]
        );
        let ours = [(0, 0), (0, 1), (1, 0), (1, 1)].map(|(i, j)| r[(i, j)].to_string());
        out.push((c, ours.join(" ")));
    }
    out
}

#[test]
fn c_integer_arithmetic_agrees_with_clang() {
    harness::assert_c_cases_print(
        "c_integer_arithmetic_agrees_with_clang",
        "c-integers",
        C_SOURCE,
        "  unsigned char lut[16];\n  for (int k = 0; k < 16; k++) lut[k] = (unsigned char) (k * 37 + 11);\n",
        &cases(),
    );
}
