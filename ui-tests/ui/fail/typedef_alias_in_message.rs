use matrix_core::matrix;

matrix! {
    typedef float mat44 __attribute__((matrix_type(4, 4)));
    typedef float mat33 __attribute__((matrix_type(3, 3)));
    typedef mat44 mat4;
    type mat3 = mat33;

    pub fn add(a: mat4, b: mat3) -> mat4 {
        a + b
    }
}

fn main() {}
