//! README's vector example, as written there.
use matrix_core::matrix;

matrix! {
    typedef float vec3 __attribute__((ext_vector_type(3)));
    typedef float vec4 __attribute__((ext_vector_type(4)));
    typedef vec4 quat;                            // aliases are the same type
    typedef float mat4 __attribute__((matrix_type(4, 4)));

    fn cross(a: vec3, b: vec3) -> vec3 {
        a.yzx * b.zxy - a.zxy * b.yzx             // swizzles as values
    }

    fn rotate(m: mat4, q: quat, p: vec3) -> vec3 {
        let mut v = (vec4){p.x, p.y, p.z, 1};     // compound literals
        v.xyz += 2.0 * cross(q.xyz, cross(q.xyz, p) + q.w * p);
        (m * v).xyz / sqrtf(v.w)                  // matrix * vector: our extension
    }
}

fn main() {
    let x = vec3::from_array([1.0, 0.0, 0.0]);
    let y = vec3::from_array([0.0, 1.0, 0.0]);
    assert_eq!(cross(x, y).to_array(), [0.0, 0.0, 1.0]);
    // The identity rotation leaves the point where it is.
    let id = quat::from_array([0.0, 0.0, 0.0, 1.0]);
    let p = vec3::from_array([1.0, 2.0, 3.0]);
    assert_eq!(rotate(mat4::identity(), id, p), p);
    // A half turn about z: (x, y) -> (-x, -y).
    let half = quat::from_array([0.0, 0.0, 1.0, 0.0]);
    assert_eq!(rotate(mat4::identity(), half, p).to_array(), [-1.0, -2.0, 3.0]);
}
