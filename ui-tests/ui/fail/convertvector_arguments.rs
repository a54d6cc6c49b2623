use matrix_core::matrix;

matrix! {
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef int int4 __attribute__((ext_vector_type(4)));

    pub fn to_scalar_type(v: float4) -> int {
        __builtin_convertvector(v, int)
    }
    pub fn from_scalar(x: float) -> int4 {
        __builtin_convertvector(x, int4)
    }
}

fn main() {}
