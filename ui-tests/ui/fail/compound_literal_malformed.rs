use matrix_core::matrix;

matrix! {
    typedef float float4 __attribute__((ext_vector_type(4)));

    // The elements of a compound literal are separated by commas.
    pub fn missing_comma() -> float4 {
        (float4){1.0f32 2.0f32}
    }
}

fn main() {}
