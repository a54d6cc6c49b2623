//! A typedef of a typedef is the same type, in C's spelling and in Rust's,
//! in either order, everywhere a type goes.
use matrix_core::matrix;

matrix! {
    typedef float real;
    pub typedef real mat44 __attribute__((matrix_type(4, 4)));
    pub typedef mat44 mat4;
    pub type transform = mat4;
    // Written before its target: still the same type.
    pub type column = col4;
    pub typedef float col4 __attribute__((matrix_type(4, 1)));
    pub type scale_t = f32;
    // The user's own Rust: passes through untouched.
    pub type Points = Vec<col4>;

    pub fn compose(a: mat4, b: mat44) -> transform {
        let t: mat44 = a * b;
        t + (transform) 1.0f32
    }

    pub fn apply(m: transform, v: column) -> col4 {
        m * v
    }

    pub fn diagonal(m: mat4) -> scale_t {
        m[0][0] + m[1][1] + m[2][2] + m[3][3]
    }

    pub fn scaled(m: &mat44, k: real) -> mat4 {
        (mat4) (*m * k)
    }
}

fn main() {
    let a: mat4 = mat44::from_fn(|r, c| (r * 4 + c) as f32);
    let id: transform = mat44::identity();
    assert_eq!(compose(a, id), a + 1.0);
    let v: column = col4::from_columns([[1.0, 0.0, 0.0, 0.0]]);
    assert_eq!(apply(a, v).to_columns(), [[0.0, 4.0, 8.0, 12.0]]);
    assert_eq!(diagonal(a), 0.0 + 5.0 + 10.0 + 15.0);
    assert_eq!(scaled(&a, 2.0)[(3, 3)], 30.0);
    let points: Points = vec![v];
    assert_eq!(points.len(), 1);
}
