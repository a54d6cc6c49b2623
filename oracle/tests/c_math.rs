//! C's `<math.h>` functions inside kernels against clang-19 and glibc: the
//! same inputs through `sqrtf`, `atan2`, ... in a `matrix!` kernel and in C
//! compiled by clang-19, compared bit for bit (any NaN equals any NaN: the
//! payload is not part of C's contract).

use matrix_core::matrix;
use matrix_oracle::harness;
use matrix_oracle::prng::SplitMix64;
use std::fmt::Write;

matrix! {
    typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    typedef double d4x4_t __attribute__((matrix_type(4, 4)));

    // Each element through the function, the second argument taken from
    // the transpose: the functions as kernels use them, on elements.
    fn unary_f(x: m4x4_t, which: usize) -> m4x4_t {
        let mut r = x;
        for i in 0..4 {
            for j in 0..4 {
                let v = x[i][j];
                r[i][j] = match which {
                    0 => sqrtf(v), 1 => sinf(v), 2 => cosf(v), 3 => tanf(v),
                    4 => asinf(v), 5 => acosf(v), 6 => atanf(v), 7 => expf(v),
                    8 => logf(v), 9 => fabsf(v), 10 => floorf(v), 11 => ceilf(v),
                    _ => roundf(v),
                };
            }
        }
        r
    }

    fn binary_f(x: m4x4_t, which: usize) -> m4x4_t {
        let y = __builtin_matrix_transpose(x);
        let mut r = x;
        for i in 0..4 {
            for j in 0..4 {
                r[i][j] = match which {
                    0 => atan2f(x[i][j], y[i][j]), 1 => powf(x[i][j], y[i][j]),
                    2 => fminf(x[i][j], y[i][j]), _ => fmaxf(x[i][j], y[i][j]),
                };
            }
        }
        r
    }

    fn unary_d(x: d4x4_t, which: usize) -> d4x4_t {
        let mut r = x;
        for i in 0..4 {
            for j in 0..4 {
                let v = x[i][j];
                r[i][j] = match which {
                    0 => sqrt(v), 1 => sin(v), 2 => cos(v), 3 => tan(v),
                    4 => asin(v), 5 => acos(v), 6 => atan(v), 7 => exp(v),
                    8 => log(v), 9 => fabs(v), 10 => floor(v), 11 => ceil(v),
                    _ => round(v),
                };
            }
        }
        r
    }

    fn binary_d(x: d4x4_t, which: usize) -> d4x4_t {
        let y = __builtin_matrix_transpose(x);
        let mut r = x;
        for i in 0..4 {
            for j in 0..4 {
                r[i][j] = match which {
                    0 => atan2(x[i][j], y[i][j]), 1 => pow(x[i][j], y[i][j]),
                    2 => fmin(x[i][j], y[i][j]), _ => fmax(x[i][j], y[i][j]),
                };
            }
        }
        r
    }
}

const UNARY: [&str; 13] = [
    "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "exp", "log", "fabs", "floor", "ceil",
    "round",
];
const BINARY: [&str; 4] = ["atan2", "pow", "fmin", "fmax"];
/// Matrices of inputs per function and type.
const MATRICES: usize = 64;

/// An input: mostly moderate values of both signs (where every function
/// is interesting), some huge, tiny, halves (rounding ties) and specials.
fn input(rng: &mut SplitMix64) -> f64 {
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let sign = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
    match rng.next_u64() % 16 {
        0 => sign * (u * 40.0).exp(),
        1 => sign * (-u * 40.0).exp(),
        2 => sign * ((u * 10.0).floor() + 0.5),
        3 => [
            0.0,
            -0.0,
            f64::INFINITY,
            -f64::INFINITY,
            f64::NAN,
            1.0,
            -1.0,
        ][(u * 7.0) as usize],
        _ => sign * u * 4.0,
    }
}

/// The C program: the same inputs (as bits) through glibc's functions,
/// one line per function and type of the result bits in column-major order.
fn c_program(inputs_f: &[[f32; 16]], inputs_d: &[[f64; 16]]) -> String {
    let mut c = String::from("#include <math.h>\n#include <stdio.h>\n#include <string.h>\n");
    let list = |bits: Vec<String>| bits.join(",");
    let f: Vec<String> = inputs_f
        .iter()
        .flatten()
        .map(|x| format!("{}u", x.to_bits()))
        .collect();
    let d: Vec<String> = inputs_d
        .iter()
        .flatten()
        .map(|x| format!("{}ull", x.to_bits()))
        .collect();
    let n = inputs_f.len() * 16;
    writeln!(c, "static const unsigned XF[{n}] = {{{}}};", list(f)).unwrap();
    writeln!(
        c,
        "static const unsigned long long XD[{n}] = {{{}}};",
        list(d)
    )
    .unwrap();
    c.push_str(
        "static float ff(unsigned b) { float x; memcpy(&x, &b, 4); return x; }\n\
         static double dd(unsigned long long b) { double x; memcpy(&x, &b, 8); return x; }\n\
         static unsigned fb(float x) { unsigned b; memcpy(&b, &x, 4); return b; }\n\
         static unsigned long long db(double x) { unsigned long long b; memcpy(&b, &x, 8); return b; }\n\
         /* The transpose's element at column-major index i of a 4x4 block. */\n\
         static int tr(int i) { int m = i / 16 * 16, k = i % 16; return m + k % 4 * 4 + k / 4; }\n\
         int main(void) {\n",
    );
    for name in UNARY {
        writeln!(c, "  printf(\"{name}f\"); for (int i = 0; i < {n}; i++) printf(\" %u\", fb({name}f(ff(XF[i])))); printf(\"\\n\");").unwrap();
        writeln!(c, "  printf(\"{name}\"); for (int i = 0; i < {n}; i++) printf(\" %llu\", db({name}(dd(XD[i])))); printf(\"\\n\");").unwrap();
    }
    for name in BINARY {
        writeln!(c, "  printf(\"{name}f\"); for (int i = 0; i < {n}; i++) printf(\" %u\", fb({name}f(ff(XF[i]), ff(XF[tr(i)])))); printf(\"\\n\");").unwrap();
        writeln!(c, "  printf(\"{name}\"); for (int i = 0; i < {n}; i++) printf(\" %llu\", db({name}(dd(XD[i]), dd(XD[tr(i)])))); printf(\"\\n\");").unwrap();
    }
    c.push_str("  return 0;\n}\n");
    c
}

fn same_f32(a: u64, b: u64) -> bool {
    a == b || (f32::from_bits(a as u32).is_nan() && f32::from_bits(b as u32).is_nan())
}

fn same_f64(a: u64, b: u64) -> bool {
    a == b || (f64::from_bits(a).is_nan() && f64::from_bits(b).is_nan())
}

#[test]
fn math_functions_agree_with_clang() {
    let Some(clang) = harness::require_clang("math_functions_agree_with_clang") else {
        return;
    };
    let mut rng = SplitMix64::new(0x6d61_7468);
    let inputs_d: Vec<[f64; 16]> = (0..MATRICES)
        .map(|_| std::array::from_fn(|_| input(&mut rng)))
        .collect();
    let inputs_f: Vec<[f32; 16]> = inputs_d.iter().map(|m| m.map(|x| x as f32)).collect();

    let stdout =
        harness::run_c_program(&clang, "c-math", &c_program(&inputs_f, &inputs_d), &["-O2"]);

    let mut ours: Vec<(String, Vec<u64>)> = Vec::new();
    let flat_f = |f: &dyn Fn(m4x4_t) -> m4x4_t| -> Vec<u64> {
        inputs_f
            .iter()
            .flat_map(|m| f(m4x4_t::from_column_major(m)).as_slice().to_vec())
            .map(|x| u64::from(x.to_bits()))
            .collect()
    };
    let flat_d = |f: &dyn Fn(d4x4_t) -> d4x4_t| -> Vec<u64> {
        inputs_d
            .iter()
            .flat_map(|m| f(d4x4_t::from_column_major(m)).as_slice().to_vec())
            .map(f64::to_bits)
            .collect()
    };
    for (which, name) in UNARY.iter().enumerate() {
        ours.push((format!("{name}f"), flat_f(&|m| unary_f(m, which))));
        ours.push((name.to_string(), flat_d(&|m| unary_d(m, which))));
    }
    for (which, name) in BINARY.iter().enumerate() {
        ours.push((format!("{name}f"), flat_f(&|m| binary_f(m, which))));
        ours.push((name.to_string(), flat_d(&|m| binary_d(m, which))));
    }

    let theirs: std::collections::BTreeMap<&str, Vec<u64>> = stdout
        .lines()
        .map(|l| {
            let mut words = l.split(' ');
            let name = words.next().unwrap();
            (name, words.map(|w| w.parse().unwrap()).collect())
        })
        .collect();
    let mut mismatches = Vec::new();
    for (name, values) in &ours {
        let c = &theirs[name.as_str()];
        assert_eq!(
            c.len(),
            values.len(),
            "{name}: C printed {} values",
            c.len()
        );
        // Every float form ends in `f`, no double form does.
        let same = if name.ends_with('f') {
            same_f32
        } else {
            same_f64
        };
        for (i, (a, b)) in values.iter().zip(c).enumerate() {
            if !same(*a, *b) {
                mismatches.push(format!("{name} input #{i}: ours {a:#x}, clang-19 {b:#x}"));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{} results differ from clang-19's:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(20)].join("\n")
    );
}
