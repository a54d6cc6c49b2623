use matrix_core::matrix;

matrix! {
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));

    pub fn matrix_argument(m: m2x2_t) -> f32 {
        sqrtf(m)
    }

    pub fn too_few(x: f32) -> f32 {
        atan2f(x)
    }

    pub fn too_many(x: f32) -> f32 {
        sinf(x, x, x)
    }

    pub fn lossy_literal() -> f32 {
        sqrtf(16777217)
    }
}

fn main() {}
