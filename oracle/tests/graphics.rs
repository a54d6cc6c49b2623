//! The graphics example (`examples/graphics.rs`), written with vectors as C
//! code is written, computes what the same C compiled by clang-19 computes,
//! bit for bit.

#[allow(dead_code)]
#[path = "../../examples/graphics.rs"]
mod graphics;

use graphics::{look_at, perspective, quat_axis_angle, quat_to_mat, to_screen};
use matrix_oracle::harness;
use std::fmt::Write;

const C_SOURCE: &str = r#"
#include <math.h>
#include <stdio.h>
#include <string.h>
typedef float vec2 __attribute__((ext_vector_type(2)));
typedef float vec3 __attribute__((ext_vector_type(3)));
typedef float vec4 __attribute__((ext_vector_type(4)));
typedef vec4 quat;
typedef float mat44 __attribute__((matrix_type(4, 4)));
typedef mat44 mat4;

static float dot3(vec3 a, vec3 b) { vec3 p = a * b; return p.x + p.y + p.z; }
static vec3 cross(vec3 a, vec3 b) { return a.yzx * b.zxy - a.zxy * b.yzx; }
static vec3 normalize(vec3 v) { return v / sqrtf(dot3(v, v)); }
/* clang-19 lacks the specification's `(mat4)0`; the example uses it. */
static mat4 zero(void) { mat4 m; for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) m[i][j] = 0; return m; }
static mat4 identity(void) { mat4 m = zero(); for (int i = 0; i < 4; i++) m[i][i] = 1; return m; }
static void set_row(mat4 *m, int r, vec4 v) { (*m)[r][0] = v.x; (*m)[r][1] = v.y; (*m)[r][2] = v.z; (*m)[r][3] = v.w; }
static mat4 look_at(vec3 eye, vec3 center, vec3 up) {
    vec3 f = normalize(center - eye);
    vec3 s = normalize(cross(f, up));
    vec3 u = cross(s, f);
    mat4 m = identity();
    set_row(&m, 0, (vec4){s.x, s.y, s.z, -dot3(s, eye)});
    set_row(&m, 1, (vec4){u.x, u.y, u.z, -dot3(u, eye)});
    set_row(&m, 2, (vec4){-f.x, -f.y, -f.z, dot3(f, eye)});
    return m;
}
static mat4 perspective(float fovy, float aspect, float near, float far) {
    float f = 1.0f / tanf(fovy * 0.5f);
    mat4 m = zero();
    m[0][0] = f / aspect; m[1][1] = f;
    m[2][2] = (far + near) / (near - far);
    m[2][3] = 2.0f * far * near / (near - far);
    m[3][2] = -1;
    return m;
}
static quat quat_axis_angle(vec3 axis, float angle) {
    vec3 a = normalize(axis) * sinf(angle * 0.5f);
    return (quat){a.x, a.y, a.z, cosf(angle * 0.5f)};
}
static mat4 quat_to_mat(quat q) {
    float x = q.x, y = q.y, z = q.z, w = q.w;
    mat4 m = identity();
    m[0][0] = 1.0f - 2.0f * (y * y + z * z); m[0][1] = 2.0f * (x * y - z * w); m[0][2] = 2.0f * (x * z + y * w);
    m[1][0] = 2.0f * (x * y + z * w); m[1][1] = 1.0f - 2.0f * (x * x + z * z); m[1][2] = 2.0f * (y * z - x * w);
    m[2][0] = 2.0f * (x * z - y * w); m[2][1] = 2.0f * (y * z + x * w); m[2][2] = 1.0f - 2.0f * (x * x + y * y);
    return m;
}
static vec3 to_screen(mat4 mvp, vec3 p, vec2 size) {
    mat4 column = zero(); /* p as the first column of a matrix: clang has no m * v */
    column[0][0] = p.x; column[1][0] = p.y; column[2][0] = p.z; column[3][0] = 1;
    mat4 c = mvp * column;
    vec4 clip = (vec4){c[0][0], c[1][0], c[2][0], c[3][0]};
    vec3 ndc = clip.xyz / clip.w;
    vec2 xy = (ndc.xy * 0.5f + 0.5f) * size;
    return (vec3){xy.x, size.y - xy.y, ndc.z};
}
static unsigned fb(float x) { unsigned b; memcpy(&b, &x, 4); return b; }
"#;

#[test]
fn graphics_example_agrees_with_clang() {
    let Some(clang) = harness::require_clang("graphics_example_agrees_with_clang") else {
        return;
    };
    type V3 = matrix_core::Vector<f32, 3>;
    let cameras = [
        ([3.0f32, 2.0, 4.0], [0.0f32, 0.0, 0.0]),
        ([-1.5, 0.5, 2.0], [0.25, 0.0, -0.5]),
    ];
    let angles = [30f32.to_radians(), 1.0, -2.5];
    let mut c = String::from(C_SOURCE);
    c.push_str("int main(void) {\n");
    let mut ours = Vec::new();
    for (eye, center) in cameras {
        for angle in angles {
            // `black_box`: an optimised build would fold `tanf` of a constant
            // in double precision, as clang would without `volatile`.
            let (fovy, aspect) = (std::hint::black_box(60f32.to_radians()), 16.0f32 / 9.0);
            let angle = std::hint::black_box(angle);
            let view = look_at(
                V3::from_array(eye),
                V3::from_array(center),
                V3::from_array([0.0, 1.0, 0.0]),
            );
            let mvp = perspective(fovy, aspect, 0.1, 100.0)
                * view
                * quat_to_mat(quat_axis_angle(V3::from_array([0.0, 1.0, 0.0]), angle));
            writeln!(
                c,
                // `volatile`: clang would fold `tanf` of a constant at compile
                // time, in double precision, which may differ from glibc's.
                "  {{ volatile float fovy = {fovy:?}f, angle = {angle:?}f; \
                 mat4 mvp = perspective(fovy, {aspect:?}f, 0.1f, 100.0f) * \
                 look_at((vec3){{{:?}f, {:?}f, {:?}f}}, (vec3){{{:?}f, {:?}f, {:?}f}}, (vec3){{0, 1, 0}}) * \
                 quat_to_mat(quat_axis_angle((vec3){{0, 1, 0}}, angle));",
                eye[0], eye[1], eye[2], center[0], center[1], center[2]
            )
            .unwrap();
            c.push_str("    for (int j = 0; j < 4; j++) for (int i = 0; i < 4; i++) printf(\"%u\\n\", fb(mvp[i][j]));\n");
            ours.extend(mvp.as_slice().iter().map(|x| x.to_bits()));
            for corner in 0..8 {
                let p = [0, 1, 2].map(|axis| {
                    if corner >> axis & 1 == 1 {
                        0.5f32
                    } else {
                        -0.5
                    }
                });
                writeln!(
                    c,
                    "    {{ vec3 s = to_screen(mvp, (vec3){{{:?}f, {:?}f, {:?}f}}, (vec2){{1920, 1080}}); \
                     printf(\"%u\\n%u\\n%u\\n\", fb(s.x), fb(s.y), fb(s.z)); }}",
                    p[0], p[1], p[2]
                )
                .unwrap();
                let s = to_screen(
                    mvp,
                    V3::from_array(p),
                    matrix_core::Vector::from_array([1920.0, 1080.0]),
                );
                ours.extend(s.to_array().map(f32::to_bits));
            }
            c.push_str("  }\n");
        }
    }
    c.push_str("  return 0;\n}\n");
    let stdout = harness::run_c_program(
        &clang,
        "graphics",
        &c,
        &["-O1", "-fenable-matrix", "-ffp-contract=off"],
    );
    let theirs: Vec<u32> = stdout.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(theirs.len(), ours.len());
    let differ: Vec<String> = ours
        .iter()
        .zip(&theirs)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| {
            format!(
                "value {i}: ours {}, clang-19 {}",
                f32::from_bits(*a),
                f32::from_bits(*b)
            )
        })
        .collect();
    assert!(
        differ.is_empty(),
        "{} of {} values differ from clang-19's:\n{}",
        differ.len(),
        ours.len(),
        differ[..differ.len().min(12)].join("\n")
    );
}
