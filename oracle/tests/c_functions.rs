//! Whole C functions in a `matrix!` block, against clang-19: the block's
//! source is one text, compiled as `matrix!` and (through `stringify!`)
//! as C, so every typedef, function head and body is the same in both.
//! The functions take matrices, vectors and scalars by value, pointers
//! (slices in Rust) to load and store through the builtins, offset
//! (`src + k * 16`), dereferenced (`*p`), declared (`float *p = ..`) and
//! moved on (`src += 16`, `*o++ = v`, `s += *p++ * *q++`), `void` results,
//! names that are Rust keywords (`in`, `type`, `ref`), array parameters
//! (`float rows[][3]`), `static const` tables, `(void) x;`, the comma
//! operator as a statement, `sizeof` of types, arrays, matrices and
//! vectors, constants and tables at file scope (`static const float
//! taps[] = {..};`), arrays where pointers are wanted (`ramp(w, ..)`,
//! `float *q = w;`, `const float *t = taps;`), `memcpy` and `memset` of
//! arrays, pointers and matrices (`memcpy(&m, src, sizeof m)`),
//! enumerations as `int` constants (`enum { AX, AY };`, `typedef enum {
//! .. } level;`, `case MID:`), and call one another.

use matrix_oracle::{c_and_rust, harness};
use std::fmt::Write;

c_and_rust! {
    typedef float m4 __attribute__((matrix_type(4, 4)));
    typedef float v4 __attribute__((ext_vector_type(4)));

    m4 model_view(m4 model, m4 view, float s) {
        m4 mv = view * model;
        for (int i = 0; i < 3; i++)
            mv[i][3] *= s;
        return mv;
    }

    float trace(m4 m) {
        float t = 0;
        for (int i = 0; i < 4; ++i) t += m[i][i];
        return t;
    }

    void scale_columns(const float *src, float *dst, unsigned long stride, float s) {
        m4 a = __builtin_matrix_column_major_load(src, 4, 4, stride);
        __builtin_matrix_column_major_store(a * s, dst, stride);
    }

    void transpose_tiles(const float *src, float *dst, int count) {
        for (int k = 0; k < count; k++) {
            const float *tile = src + k * 16;
            m4 a = __builtin_matrix_column_major_load(tile, 4, 4, 4);
            __builtin_matrix_column_major_store(__builtin_matrix_transpose(a), dst + k * 16, 4);
        }
        float *last = dst + (count * 16 - 1);
        *last = *src + 1;
    }

    void square_tiles(const float *src, float *dst, int count) {
        while (count-- > 0) {
            m4 a = __builtin_matrix_column_major_load(src, 4, 4, 4);
            __builtin_matrix_column_major_store(a * a + 0.5f, dst, 4);
            src += 16;
            dst = dst + 16;
        }
    }

    float dot_walk(const float *p, const float *q, int n) {
        float s = 0;
        while (n-- > 0) s += *p++ * *q++;
        return s;
    }

    void ramp(float *const out, const float *from, int n) {
        float *o = out;
        for (int i = 0; i < n; i++) *o++ = *from++ * 0.5f + i;
        o = out + 1;
        *o++ += 1;
        o++;
        *o *= 3;
    }

    void keyword_names(const float *in, float *out, int type) {
        float ref = type ? in[0] : in[1];
        for (size_t i = 0; i < 4; i++) out[i] = in[i] * ref + type;
    }

    float smooth(float rows[][3], int n, int type) {
        static const float w[] = {0.25f, 0.5f, 0.25f};
        float acc = 0;
        int i, j;
        (void) type;
        for (i = 0; i < n; i++)
            for (j = 0; j < 3; j++) acc += rows[i][j] * w[j];
        rows[0][0] = acc;
        i = 0, j = n;
        while (i < j) i++, j--;
        return acc + i - j;
    }

    unsigned long sizes(m4 m, v4 v) {
        float w[5] = {1};
        int idx[] = {3, 1, 2};
        unsigned long k = 0;
        for (int i = 0; i < sizeof(w) / sizeof(w[0]); i++) k += w[i] + i;
        return sizeof(m4) + sizeof m * 3 + sizeof(v4) * 100 + sizeof v + sizeof idx / sizeof idx[0] * 1000
            + k * 100000 + sizeof(size_t) * 7 + sizeof(unsigned short);
    }

    static const float taps[] = {0.25f, 0.5f, 1.0 / 3, -2};
    const int ntaps = 4;
    static const double grid[2][3] = {{1, 2.5}, {-1e-3}};

    float filtered(const float *v) {
        float acc = 0;
        for (int i = 0; i < ntaps; i++) acc += v[i] * taps[i];
        return acc + grid[0][1] * grid[1][0] + grid[1][2];
    }

    static inline float clampf(float x, float lo, float hi) {
        return x < lo ? lo : x > hi ? hi : x;
    }

    v4 saturate(v4 v, int passes) {
        v4 r = v;
        for (; passes > 0; passes--) {
            for (int i = 0; i < 4; i++) r[i] = clampf(r[i] * 1.5f, 0.0f, 1.0f);
        }
        return r;
    }

    float decayed(const float *src, int n) {
        float w[4];
        float *q = w;
        for (int i = 0; i < 4; i++) q[i] = src[i] * 2;
        ramp(w, src + 1, 3);
        const float *t = taps;
        float g[2][3] = {{1, 2, 3}, {4, 5, 6}};
        return dot_walk(w, t, 4) + smooth(g, 2, n) + g[0][0];
    }

    enum { AX, AY, AZ, AW };
    typedef enum { LOW = 1, MID = LOW << 2, HIGH } level;

    float pick(v4 v, level l) {
        switch (l) {
        case LOW: return v[AX];
        case MID: return v[AY] * MID;
        default: return v[AW] + HIGH + AZ;
        }
    }

    m4 copied(const float *src, float *dst) {
        m4 m;
        memcpy(&m, src, sizeof m);
        memcpy(dst, &m, sizeof(float) * 4);
        float w[6];
        memset(w, 0, sizeof w);
        memcpy(w + 1, src + 2, 3 * sizeof(float));
        memset(dst + 4, 0, 2 * sizeof(float));
        m[0][0] = w[1] + w[5];
        return m;
    }
}

const INPUTS: [i32; 5] = [0, 1, -3, 7, 40];

/// The matrices each input gives, `(model, view)`.
fn operands(x: i32) -> (m4, m4) {
    let model = m4::from_fn(|r, c| (r as i32 * 4 + c as i32 - x) as f32 * 0.375);
    let view = m4::from_fn(|r, c| {
        if r == c {
            1.0 + x as f32 * 0.5
        } else {
            0.25 * (r as f32 - c as f32)
        }
    });
    (model, view)
}

/// `m` as C source statements assigning `name`'s elements.
fn c_matrix(name: &str, m: &m4) -> String {
    let mut s = String::new();
    for r in 0..4 {
        for c in 0..4 {
            write!(s, "{name}[{r}][{c}] = {:?}f; ", m[(r, c)]).unwrap();
        }
    }
    s
}

fn c_program() -> String {
    let mut c = String::from("#include <stdio.h>\n");
    c.push_str(harness::C_BITS);
    c.push_str(C_SOURCE);
    c.push_str(
        "\nstatic void pm(m4 m) { for (int j = 0; j < 4; j++) for (int i = 0; i < 4; i++) printf(\"%u \", fb(m[i][j])); printf(\"\\n\"); }\n\
         int main(void) {\n",
    );
    for x in INPUTS {
        let (model, view) = operands(x);
        writeln!(
            c,
            "  {{ m4 model, view; {}{}\n\
             \x20   pm(model_view(model, view, {x}.0f)); printf(\"%u\\n\", fb(trace(model)));\n\
             \x20   float src[20], dst[20]; for (int k = 0; k < 20; k++) {{ src[k] = (float) (k - {x}) * 0.5f; dst[k] = -1.0f; }}\n\
             \x20   scale_columns(src, dst, 5, {x}.0f + 0.25f); for (int k = 0; k < 20; k++) printf(\"%u \", fb(dst[k])); printf(\"\\n\");\n\
             \x20   float tin[32], tout[32]; for (int k = 0; k < 32; k++) {{ tin[k] = (float) (k * {x}) - 3.5f; tout[k] = 0.0f; }}\n\
             \x20   transpose_tiles(tin, tout, 2); for (int k = 0; k < 32; k++) printf(\"%u \", fb(tout[k])); printf(\"\\n\");\n\
             \x20   float sq[48]; for (int k = 0; k < 48; k++) sq[k] = -2.0f; square_tiles(tin, sq, 2); for (int k = 0; k < 48; k++) printf(\"%u \", fb(sq[k])); printf(\"\\n\");\n\
             \x20   printf(\"%u\\n\", fb(dot_walk(tin, src, 20)));\n\
             \x20   float rp[6] = {{0}}; ramp(rp, src + 3, 5); for (int k = 0; k < 6; k++) printf(\"%u \", fb(rp[k])); printf(\"\\n\");\n\
             \x20   float kw[4]; keyword_names(src + 2, kw, {x} % 2); for (int k = 0; k < 4; k++) printf(\"%u \", fb(kw[k])); printf(\"\\n\");\n\
             \x20   printf(\"%lu\\n\", sizes(model, (v4){{1, 2, 3, 4}}));\n\
             \x20   printf(\"%u\\n\", fb(filtered(src + 1)));\n\
             \x20   float rows[4][3]; for (int k = 0; k < 12; k++) rows[k / 3][k % 3] = src[k] - 1.0f; float sm = smooth(rows, 4, {x}); printf(\"%u %u\\n\", fb(sm), fb(rows[0][0]));\n\
             \x20   v4 v = {{(float) {x} * 0.125f, -0.5f, 0.75f, 2.0f}}; v4 r = saturate(v, {passes});\n\
             \x20   printf(\"%u %u %u %u\\n\", fb(r.x), fb(r.y), fb(r.z), fb(r.w));\n\
             \x20   printf(\"%u\\n\", fb(decayed(src, {x})));\n\
             \x20   float cp[8]; for (int k = 0; k < 8; k++) cp[k] = 9.0f; pm(copied(src, cp)); for (int k = 0; k < 8; k++) printf(\"%u \", fb(cp[k])); printf(\"\\n\");\n\
             \x20   printf(\"%u %u %u %u\\n\", fb(pick(v, LOW)), fb(pick(v, MID)), fb(pick(v, HIGH)), fb(pick(v, {x}))); }}",
            c_matrix("model", &model),
            c_matrix("view", &view),
            passes = x.rem_euclid(4),
        )
        .unwrap();
    }
    c.push_str("  return 0;\n}\n");
    c
}

fn bits(xs: &[f32]) -> String {
    xs.iter().map(|x| format!("{} ", x.to_bits())).collect()
}

fn ours() -> Vec<String> {
    let mut lines = Vec::new();
    for x in INPUTS {
        let (model, view) = operands(x);
        lines.push(bits(model_view(model, view, x as f32).as_slice()));
        lines.push(trace(model).to_bits().to_string());
        let src: Vec<f32> = (0..20).map(|k| (k - x) as f32 * 0.5).collect();
        let mut dst = vec![-1.0f32; 20];
        scale_columns(&src, &mut dst, 5, x as f32 + 0.25);
        lines.push(bits(&dst));
        let tin: Vec<f32> = (0..32).map(|k| (k * x) as f32 - 3.5).collect();
        let mut tout = vec![0.0f32; 32];
        transpose_tiles(&tin, &mut tout, 2);
        lines.push(bits(&tout));
        let mut sq = vec![-2.0f32; 48];
        square_tiles(&tin, &mut sq, 2);
        lines.push(bits(&sq));
        lines.push(dot_walk(&tin, &src, 20).to_bits().to_string());
        let mut rp = [0.0f32; 6];
        ramp(&mut rp, &src[3..], 5);
        lines.push(bits(&rp));
        let mut kw = [0.0f32; 4];
        keyword_names(&src[2..], &mut kw, x % 2);
        lines.push(bits(&kw));
        lines.push(sizes(model, v4::from_array([1.0, 2.0, 3.0, 4.0])).to_string());
        lines.push(filtered(&src[1..]).to_bits().to_string());
        let mut rows = [[0.0f32; 3]; 4];
        for k in 0..12 {
            rows[k / 3][k % 3] = src[k] - 1.0;
        }
        let sm = smooth(&mut rows, 4, x);
        lines.push(format!("{} {}", sm.to_bits(), rows[0][0].to_bits()));
        let v = v4::from_array([x as f32 * 0.125, -0.5, 0.75, 2.0]);
        let r = saturate(v, x.rem_euclid(4))
            .to_array()
            .map(|f| f.to_bits().to_string());
        lines.push(r.join(" "));
        lines.push(decayed(&src, x).to_bits().to_string());
        let mut cp = [9.0f32; 8];
        lines.push(bits(copied(&src, &mut cp).as_slice()));
        lines.push(bits(&cp));
        let picked = [LOW, MID, HIGH, x].map(|l| pick(v, l).to_bits().to_string());
        lines.push(picked.join(" "));
    }
    lines
}

#[test]
fn c_functions_agree_with_clang() {
    harness::assert_c_program_prints(
        "c_functions_agree_with_clang",
        "c-functions",
        &c_program(),
        &ours(),
    );
}
