//! A C graphics routine ported to `matrix!` as C code is written: vectors
//! with swizzles, compound literals and `<math.h>`, a look-at view and a
//! perspective projection, a rotation from a quaternion, and a cube's
//! corners carried through the model-view-projection matrix to the screen.
//!
//! `cargo run --release --example graphics`

use matrix_core::matrix;

matrix! {
    typedef float vec2 __attribute__((ext_vector_type(2)));
    typedef float vec3 __attribute__((ext_vector_type(3)));
    typedef float vec4 __attribute__((ext_vector_type(4)));
    typedef vec4 quat;
    typedef float mat44 __attribute__((matrix_type(4, 4)));
    typedef mat44 mat4;

    fn dot3(a: vec3, b: vec3) -> f32 {
        let p = a * b;
        p.x + p.y + p.z
    }

    fn cross(a: vec3, b: vec3) -> vec3 {
        a.yzx * b.zxy - a.zxy * b.yzx
    }

    fn normalize(v: vec3) -> vec3 {
        v / sqrtf(dot3(v, v))
    }

    fn identity() -> mat4 {
        let mut m = (mat4) 0;
        for i in 0..4 {
            m[i][i] = 1;
        }
        m
    }

    /// The view matrix of a camera at `eye` looking at `center`.
    pub fn look_at(eye: vec3, center: vec3, up: vec3) -> mat4 {
        let f = normalize(center - eye);
        let s = normalize(cross(f, up));
        let u = cross(s, f);
        let mut m = identity();
        m = __builtin_matrix_insert_row(m, 0, (vec4){s.x, s.y, s.z, -dot3(s, eye)});
        m = __builtin_matrix_insert_row(m, 1, (vec4){u.x, u.y, u.z, -dot3(u, eye)});
        m = __builtin_matrix_insert_row(m, 2, (vec4){-f.x, -f.y, -f.z, dot3(f, eye)});
        m
    }

    /// OpenGL's perspective projection.
    pub fn perspective(fovy: f32, aspect: f32, near: f32, far: f32) -> mat4 {
        let f = 1.0f32 / tanf(fovy * 0.5f32);
        let mut m = (mat4) 0;
        m[0][0] = f / aspect;
        m[1][1] = f;
        m[2][2] = (far + near) / (near - far);
        m[2][3] = 2.0f32 * far * near / (near - far);
        m[3][2] = -1;
        m
    }

    /// The rotation by `angle` radians about `axis`.
    pub fn quat_axis_angle(axis: vec3, angle: f32) -> quat {
        let a = normalize(axis) * sinf(angle * 0.5f32);
        (quat){a.x, a.y, a.z, cosf(angle * 0.5f32)}
    }

    /// The rotation matrix of a unit quaternion.
    pub fn quat_to_mat(q: quat) -> mat4 {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w);
        let mut m = identity();
        m[0][0] = 1.0f32 - 2.0f32 * (y * y + z * z);
        m[0][1] = 2.0f32 * (x * y - z * w);
        m[0][2] = 2.0f32 * (x * z + y * w);
        m[1][0] = 2.0f32 * (x * y + z * w);
        m[1][1] = 1.0f32 - 2.0f32 * (x * x + z * z);
        m[1][2] = 2.0f32 * (y * z - x * w);
        m[2][0] = 2.0f32 * (x * z - y * w);
        m[2][1] = 2.0f32 * (y * z + x * w);
        m[2][2] = 1.0f32 - 2.0f32 * (x * x + y * y);
        m
    }

    /// A point through the model-view-projection matrix, then the
    /// perspective divide and the viewport: pixel coordinates and depth.
    pub fn to_screen(mvp: mat4, p: vec3, size: vec2) -> vec3 {
        let clip = mvp * (vec4){p.x, p.y, p.z, 1};
        let ndc = clip.xyz / clip.w;
        let xy = (ndc.xy * 0.5f32 + 0.5f32) * size;
        (vec3){xy.x, size.y - xy.y, ndc.z}
    }
}

fn main() {
    let view = look_at(
        vec3::from_array([3.0, 2.0, 4.0]),
        vec3::zero(),
        vec3::from_array([0.0, 1.0, 0.0]),
    );
    let projection = perspective(60f32.to_radians(), 16.0 / 9.0, 0.1, 100.0);
    let spin = quat_axis_angle(vec3::from_array([0.0, 1.0, 0.0]), 30f32.to_radians());
    let model = quat_to_mat(spin);
    let mvp = projection * view * model;
    println!("rotation quaternion: {spin}");
    println!("model-view-projection:\n{mvp}");

    let size = vec2::from_array([1920.0, 1080.0]);
    println!("the unit cube's corners on a 1920x1080 screen (x, y, depth):");
    for corner in 0..8 {
        let p = vec3::from_fn(|axis| if corner >> axis & 1 == 1 { 0.5 } else { -0.5 });
        let s = to_screen(mvp, p, size);
        println!("  {p:5.1} -> ({:7.1}, {:7.1}, {:.4})", s[0], s[1], s[2]);
    }
}
