//! C's statements in kernels against clang-19: declarations (`float s =
//! 0;`, `m4 r;`, `int i = 0, j = 1;`, `const`), `for (init; cond; step)`
//! loops (nested, braceless, with `continue` and `break`, an empty
//! condition), `do`/`while`, `++`/`--` statements, braceless
//! `if`/`else`/`while`, numbers as conditions (`if (n)`, `if (!x)`,
//! `while (m--)`, `while (1)`, `do .. while (0)`, `n && !x`), comma-separated `for`
//! initialisers, chained assignments (`a = b = k`, `f = q = x * 3.25f`),
//! compound assignments across types (`y += n`, `k -= x * 1.5f`, `k -= x - 2.5f`), `--x`
//! inside an expression,
//! `switch` (fall through, `default` in the middle or last, `break` and
//! `continue` inside, a nested `switch` that returns),
//! C's usual arithmetic conversions between scalars of different types
//! (`float * int`, `int < unsigned`, `usize > int`, an array indexed by an
//! `int`), and arrays (`float w[4] = {..}`, `int idx[] = {..}`, nested
//! and elided braces in two dimensions, the elements not named zero).
//! Each kernel's body is the same text in `matrix!` and in C (`C_BODIES`
//! is both), run on the same inputs, and the results compared bit for bit.

use matrix_core::matrix;
use matrix_oracle::harness;
use std::fmt::Write;

/// Declares the kernels in `matrix!` and keeps their text for C.
macro_rules! kernels {
    ($($(#[$doc:meta])* fn $name:ident($($p:ident: $t:ty),*) -> $r:ident $body:tt)*) => {
        matrix! {
            typedef float m4 __attribute__((matrix_type(4, 4)));
            typedef int mi3 __attribute__((matrix_type(3, 3)));
            typedef float float4 __attribute__((ext_vector_type(4)));
            $($(#[$doc])* fn $name($($p: $t),*) -> $r $body)*
        }
        /// Each kernel's name and body, as written.
        const C_BODIES: &[(&str, &str)] = &[$((stringify!($name), stringify!($body))),*];
    };
}

kernels! {
    fn lower_sum(m: m4) -> f32 {
        float sum = 0;
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; ++j) {
                if (j > i) continue;
                if (m[i][j] < -100) break;
                sum += m[i][j];
            }
        }
        return sum;
    }
    fn scaled(m: m4, s: f32) -> m4 {
        m4 r;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++)
                r[i][j] = m[i][j] * (s + (float) i);
        return r;
    }
    fn countdown(n: i32) -> i32 {
        int steps = 0, total = 1;
        const int limit = 50;
        int k = n;
        while (k > 0) k--;
        for (;;) {
            if (steps >= limit) break;
            steps++;
            total += steps;
            if (total > 300) break; else continue;
        }
        --total;
        return total + k;
    }
    fn banded(a: mi3, k: i32) -> mi3 {
        mi3 r = a;
        unsigned int zeroed = 0;
        for (int i = 0, j = 2; i < 3; i++, j--) {
            if (i == j) r[i][j] = k;
            else if (i < j) { r[i][j] = 0; zeroed++; }
            else r[i][j] *= 2;
        }
        r[0][0] += (int) zeroed;
        return r;
    }
    fn mixed(n: i32, f: f32, d: f64, u: u32, k: usize) -> f64 {
        float a = f * n;
        double b = a + d;
        if (n < u) b += 1;
        if (k > n) b *= 2;
        return b + k;
    }
    fn pick(v: &[f32], i: i32, j: u8) -> f32 {
        return v[i] - v[j] * i;
    }
    fn arrays(m: m4, k: i32) -> f32 {
        float w[4] = {0.5f, -1, 2};
        int idx[] = {3, 1, 0, 2};
        float g[2][3] = {{1, 2, 3}, {4, 5}};
        float h[2][2] = {1, 2, 3, 4};
        float acc = 0;
        for (int i = 0; i < 4; i++) acc += w[i] * m[idx[i]][i];
        acc += g[1][k % 3] + h[1][0] * g[0][2];
        return acc;
    }
    fn halvings(x: f32) -> i32 {
        int n = 0;
        float v = x;
        do {
            v *= 0.5f;
            n++;
            if (v > 100) continue;
            v -= 0.25f;
        } while (v > 1 && n < 50);
        return n;
    }
    fn packed(m: m4, n: i32) -> f32 {
        float out[16];
        int k = 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j <= i; j++)
                out[k++] = m[i][j];
        float s = 0;
        while (k-- > 0) s += out[k] * (float) k;
        int c = n;
        return s + ++c;
    }
    fn truths(n: i32, x: f32) -> i32 {
        int k = 0, m = n * n % 7, i, j, a, b, q;
        float y, z, f, w[3];
        if (n) k += 1;
        if (!n) k += 2;
        if (x) k += 4;
        if (!x) k += 8;
        if (n && !x) k += 7;
        if (!n || x > 1) k += 11;
        while (m--) k += 16;
        do k += 100; while (0);
        while (1) { if (k > 1000) break; k += 300; }
        for (i = 0, j = n; i < j; i++, j -= 2) k += i * j;
        y = z = x * 0.5f;
        a = b = k;
        w[0] = w[2] = x - 1;
        f = q = x * 3.25f;
        y += n;
        int down = 5;
        k += 3 * --down;
        k -= x * 1.5f;
        k -= x - 2.5f;
        q *= y;
        k += (int) (y + z + w[0] + w[2] + f) + a - b + q;
        return n ? (!x ? k : -k) : k * 2;
    }
    fn switched(n: i32, m: m4) -> f32 {
        float r = 0;
        for (int i = 0; i < 6; i++) {
            switch ((n + i) % 5) {
            case 0:
                r += m[0][0];
                break;
            case 1:
            case -1:
                r *= 2;
                /* falls through */
            case 2: {
                r -= m[1][2];
                if (r < -50) break;
                r += 1;
            }
            case 3:
                if (i == 4) continue;
                r += 0.5f;
                break;
            default:
                switch (i) { case 2: return r + 1000; default: r -= 3; }
            }
            r += i;
        }
        return r;
    }
    fn lanes(v: float4, lo: f32) -> float4 {
        float4 out = v;
        for (int i = 0; i < 4; i += 1) {
            float x = v[i];
            if (x < lo) x = lo;
            out[i] = x * 2.0f;
        }
        return out;
    }
}

/// The typedefs, then each kernel in C.
fn c_kernels() -> String {
    let mut c = String::from(
        "typedef float m4 __attribute__((matrix_type(4, 4)));\n\
         typedef int mi3 __attribute__((matrix_type(3, 3)));\n\
         typedef float float4 __attribute__((ext_vector_type(4)));\n",
    );
    let signatures = [
        "float lower_sum(m4 m)",
        "m4 scaled(m4 m, float s)",
        "int countdown(int n)",
        "mi3 banded(mi3 a, int k)",
        "double mixed(int n, float f, double d, unsigned u, unsigned long k)",
        "float pick(const float *v, int i, unsigned char j)",
        "float arrays(m4 m, int k)",
        "int halvings(float x)",
        "float packed(m4 m, int n)",
        "int truths(int n, float x)",
        "float switched(int n, m4 m)",
        "float4 lanes(float4 v, float lo)",
    ];
    for ((name, body), signature) in C_BODIES.iter().zip(signatures) {
        assert!(signature.contains(name), "{signature} is not {name}");
        writeln!(c, "{signature} {body}").unwrap();
    }
    c
}

const INPUTS: [i32; 5] = [0, 1, -3, 7, 40];

fn c_program() -> String {
    let mut c = String::from("#include <stdio.h>\n");
    c.push_str(harness::C_BITS);
    c.push_str(&c_kernels());
    c.push_str(
        "static void pm(m4 m) { for (int j = 0; j < 4; j++) for (int i = 0; i < 4; i++) printf(\"%u \", fb(m[i][j])); printf(\"\\n\"); }\n\
         int main(void) {\n",
    );
    for x in INPUTS {
        let pi = pick_index(x);
        writeln!(
            c,
            "  {{ m4 m; for (int j = 0; j < 4; j++) for (int i = 0; i < 4; i++) m[i][j] = (float) (i * 4 + j - {x}) * 0.75f;\n\
             \x20   printf(\"%u\\n\", fb(lower_sum(m))); pm(scaled(m, {x}.0f + 0.5f)); printf(\"%d\\n\", countdown({x}));\n\
             \x20   mi3 a; for (int j = 0; j < 3; j++) for (int i = 0; i < 3; i++) a[i][j] = i * 3 + j + {x};\n\
             \x20   mi3 r = banded(a, {x}); for (int j = 0; j < 3; j++) for (int i = 0; i < 3; i++) printf(\"%d \", r[i][j]); printf(\"\\n\");\n\
             \x20   printf(\"%llu\\n\", db(mixed({x}, {x}.0f * 0.25f, 1.5, 5u, 3ul)));\n\
             \x20   {{ static const float t[6] = {{0.5f, -1.25f, 2.0f, 3.5f, -4.0f, 8.0f}}; printf(\"%u\\n\", fb(pick(t, {pi}, 2))); }}\n\
             \x20   printf(\"%u %d\\n\", fb(arrays(m, {x})), halvings({x}.0f * 37.0f));\n\
             \x20   printf(\"%u\\n\", fb(packed(m, {x})));\n\
             \x20   printf(\"%d %d\\n\", truths({x}, {x}.0f * 0.5f), truths({x}, 0.0f));\n\
             \x20   printf(\"%u\\n\", fb(switched({x}, m)));\n\
             \x20   float4 v = {{{x}.0f, -1.5f, 2.25f, -({x}.0f)}}; float4 o = lanes(v, -1.0f);\n\
             \x20   printf(\"%u %u %u %u\\n\", fb(o.x), fb(o.y), fb(o.z), fb(o.w)); }}"
        )
        .unwrap();
    }
    c.push_str("  return 0;\n}\n");
    c
}

/// An index of `pick`'s six-element table for input `x`.
fn pick_index(x: i32) -> i32 {
    x.rem_euclid(6)
}

/// Bits of `xs`, each followed by a space (as the C program prints them).
fn spaced(xs: impl IntoIterator<Item = String>) -> String {
    xs.into_iter().map(|x| x + " ").collect()
}

fn ours() -> Vec<String> {
    let mut lines = Vec::new();
    for x in INPUTS {
        let m = m4::from_fn(|i, j| (i as i32 * 4 + j as i32 - x) as f32 * 0.75);
        lines.push(lower_sum(m).to_bits().to_string());
        let s = scaled(m, x as f32 + 0.5);
        lines.push(spaced(s.as_slice().iter().map(|v| v.to_bits().to_string())));
        lines.push(countdown(x).to_string());
        let a = mi3::from_fn(|i, j| i as i32 * 3 + j as i32 + x);
        let r = banded(a, x);
        lines.push(spaced(r.as_slice().iter().map(i32::to_string)));
        lines.push(mixed(x, x as f32 * 0.25, 1.5, 5, 3).to_bits().to_string());
        let t = [0.5f32, -1.25, 2.0, 3.5, -4.0, 8.0];
        lines.push(pick(&t, pick_index(x), 2).to_bits().to_string());
        lines.push(format!(
            "{} {}",
            arrays(m, x).to_bits(),
            halvings(x as f32 * 37.0)
        ));
        lines.push(packed(m, x).to_bits().to_string());
        lines.push(format!("{} {}", truths(x, x as f32 * 0.5), truths(x, 0.0)));
        lines.push(switched(x, m).to_bits().to_string());
        let v = float4::from_array([x as f32, -1.5, 2.25, -(x as f32)]);
        let o = lanes(v, -1.0).to_array().map(|f| f.to_bits().to_string());
        lines.push(o.join(" "));
    }
    lines
}

#[test]
fn c_statements_agree_with_clang() {
    harness::assert_c_program_prints(
        "c_statements_agree_with_clang",
        "c-statements",
        &c_program(),
        &ours(),
    );
}
