use matrix_core::matrix;

matrix! {
    typedef float vec4 __attribute__((matrix_type(4, 1)));

    pub fn f(x: f32) -> vec4 {
        (vec5) x
    }

    pub fn g() -> vec4 {
        (vec5) 1.0
    }

    pub fn h(x: f32) -> vec4 {
        (vec5){x, x}
    }
}

fn main() {}
