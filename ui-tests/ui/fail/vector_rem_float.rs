use matrix_core::matrix;

matrix! {
    pub typedef float float4 __attribute__((ext_vector_type(4)));

    pub fn f(a: float4, b: float4) -> float4 {
        a % b
    }
}

fn main() {}
