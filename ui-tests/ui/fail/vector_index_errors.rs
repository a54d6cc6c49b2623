use matrix_core::matrix;

matrix! {
    typedef float float4 __attribute__((ext_vector_type(4)));

    pub fn past_the_end(v: float4) -> f32 {
        v[4]
    }

    pub fn negative(v: float4) -> f32 {
        v[-1]
    }

    pub fn float_index(v: float4, x: f32) -> f32 {
        v[x]
    }
}

fn main() {}
