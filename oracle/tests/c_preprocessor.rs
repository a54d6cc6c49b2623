//! C's preprocessing lines in a block, against clang-19: object-like and
//! function-like `#define`s (nested, with arguments that are macros
//! themselves, used in typedefs, tables and bodies, defined inside a
//! function), `#undef`, `#ifdef`/`#ifndef`/`#if`/`#elif`/`#else`/
//! `#endif` with `defined` and arithmetic, `#include` and `#pragma once`,
//! a macro stamping out functions (`VARIANT(dot2, 2, float)`) and `...`
//! with `__VA_ARGS__` (`##` is no token Rust 2024 lexes; the unit tests
//! of `parse::cpreproc` check it).
//! `stringify!` keeps no line breaks, which directives need, so the C text
//! is written twice: once in `matrix!`, once as the string clang compiles;
//! `the_two_texts_are_one` checks that they are the same tokens.

use matrix_core::matrix;
use matrix_oracle::harness;

matrix! {
    #pragma once
    #include <math.h>
    #define N 3
    #define SQ(x) ((x) * (x))
    #define MAX(a, b) ((a) > (b) ? (a) : (b))
    #define CLAMP(v, lo, hi) MAX(lo, (v) < (hi) ? (v) : (hi))
    #define LERP(a, b, t) ((a) + ((b) - (a)) * (t))
    #if defined(N) && N * 2 > 5
    #define WIDE 1
    #else
    #define WIDE 0
    #endif
    #ifndef SCALE
    #define SCALE 0.5f
    #endif
    typedef float m3 __attribute__((matrix_type(N, N)));
    static const float weights[N] = {SCALE, SQ(SCALE), 1};

    float energy(m3 m, float t) {
        float e = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) e += SQ(m[i][j] * weights[j]);
    #if WIDE
        e = LERP(e, CLAMP(e, 1.0f, 8.0f), t);
    #elif SCALE
        e = -e;
    #endif
        return e;
    }

    int steps(int n) {
    #define STEP 3
        int k = 0;
        while (n > 0) { n -= STEP; k++; }
    #undef STEP
    #ifdef STEP
        k = -1;
    #endif
        return MAX(k, SQ(n));
    }

    #define VARIANT(NAME, N, T) T NAME(const T *a, const T *b) { T s = 0; for (int i = 0; i < N; i++) s += a[i] * b[i]; return s; }
    VARIANT(dot2, 2, float)
    VARIANT(dot3, 3, double)
    #define FIRST(x, ...) (x)
    #define SUM3(...) add3(__VA_ARGS__)
    static float add3(float a, float b, float c) { return a + b * 2 + c * 4; }
    float variants(float x) {
        float a[3] = { x, 2, 3 }, b[3] = { 4, x, 6 };
        double c[3] = { x, 0.5, 1 }, d[3] = { 1, x, x };
        return dot2(a, b) + (float) dot3(c, d) + SUM3(x, FIRST(1, 2, 3), a[2]) + FIRST(x);
    }
}

const C_SOURCE: &str = r#"
    #pragma once
    #include <math.h>
    #define N 3
    #define SQ(x) ((x) * (x))
    #define MAX(a, b) ((a) > (b) ? (a) : (b))
    #define CLAMP(v, lo, hi) MAX(lo, (v) < (hi) ? (v) : (hi))
    #define LERP(a, b, t) ((a) + ((b) - (a)) * (t))
    #if defined(N) && N * 2 > 5
    #define WIDE 1
    #else
    #define WIDE 0
    #endif
    #ifndef SCALE
    #define SCALE 0.5f
    #endif
    typedef float m3 __attribute__((matrix_type(N, N)));
    static const float weights[N] = {SCALE, SQ(SCALE), 1};

    float energy(m3 m, float t) {
        float e = 0;
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) e += SQ(m[i][j] * weights[j]);
    #if WIDE
        e = LERP(e, CLAMP(e, 1.0f, 8.0f), t);
    #elif SCALE
        e = -e;
    #endif
        return e;
    }

    int steps(int n) {
    #define STEP 3
        int k = 0;
        while (n > 0) { n -= STEP; k++; }
    #undef STEP
    #ifdef STEP
        k = -1;
    #endif
        return MAX(k, SQ(n));
    }

    #define VARIANT(NAME, N, T) T NAME(const T *a, const T *b) { T s = 0; for (int i = 0; i < N; i++) s += a[i] * b[i]; return s; }
    VARIANT(dot2, 2, float)
    VARIANT(dot3, 3, double)
    #define FIRST(x, ...) (x)
    #define SUM3(...) add3(__VA_ARGS__)
    static float add3(float a, float b, float c) { return a + b * 2 + c * 4; }
    float variants(float x) {
        float a[3] = { x, 2, 3 }, b[3] = { 4, x, 6 };
        double c[3] = { x, 0.5, 1 }, d[3] = { 1, x, x };
        return dot2(a, b) + (float) dot3(c, d) + SUM3(x, FIRST(1, 2, 3), a[2]) + FIRST(x);
    }
"#;

/// This file's text between the `matrix!` block's braces.
fn block_text() -> String {
    let file = include_str!("c_preprocessor.rs");
    let start = file.find("matrix! {\n").expect("the block") + "matrix! {\n".len();
    let end = file.find("\n}\n\nconst C_SOURCE").expect("the block's end");
    file[start..end].to_string()
}

#[test]
fn the_two_texts_are_one() {
    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    assert_eq!(words(&block_text()), words(C_SOURCE));
}

const INPUTS: [(f32, f32, i32); 5] = [
    (0.0, 0.0, 0),
    (0.25, 0.5, 1),
    (-1.5, 1.0, 7),
    (3.0, 0.75, -4),
    (0.125, 0.25, 29),
];

fn operand(x: f32) -> m3 {
    m3::from_fn(|r, c| (r as f32 - c as f32 * 0.5) * x + 0.125)
}

#[test]
fn c_preprocessor_agrees_with_clang() {
    let mut c = String::from("#include <stdio.h>\n");
    c.push_str(harness::C_BITS);
    c.push_str(C_SOURCE);
    c.push_str("\nint main(void) {\n");
    let mut ours = Vec::new();
    for (x, t, n) in INPUTS {
        let m = operand(x);
        let mut set = String::new();
        for r in 0..3 {
            for col in 0..3 {
                set.push_str(&format!("m[{r}][{col}] = {:?}f; ", m[(r, col)]));
            }
        }
        c.push_str(&format!(
            "  {{ m3 m; {set}printf(\"%u %d\\n\", fb(energy(m, {t:?}f)), steps({n})); }}\n"
        ));
        ours.push(format!("{} {}", energy(m, t).to_bits(), steps(n)));
        c.push_str(&format!("  printf(\"%u\\n\", fb(variants({x:?}f)));\n"));
        ours.push(variants(x).to_bits().to_string());
    }
    c.push_str("  return 0;\n}\n");
    harness::assert_c_program_prints(
        "c_preprocessor_agrees_with_clang",
        "c-preprocessor",
        &c,
        &ours,
    );
}
