use matrix_core::matrix;

matrix! {
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef float float2 __attribute__((ext_vector_type(2)));
    typedef float float3 __attribute__((ext_vector_type(3)));
    typedef int int2 __attribute__((ext_vector_type(2)));
    typedef float m2_t __attribute__((matrix_type(2, 2)));

    pub fn other_element(v: int2) -> float4 {
        (float4){v, 1, 2}
    }

    pub fn nested(x: f32, v: float2) -> float4 {
        (float4){x, v, 1}
    }

    pub fn excess(x: f32) -> float4 {
        (float4){x, 1, 2, 3, 4}
    }

    pub fn matrix_literal(x: f32) -> m2_t {
        (m2_t){x, x, x, x}
    }

    pub fn convert_lengths(v: float4) -> int2 {
        __builtin_convertvector(v, int2)
    }

    pub fn cast_lengths(v: int2) -> float4 {
        (float4)(v)
    }

    // A bit cast needs as many bytes of elements: a three-element vector's
    // padding does not count.
    pub fn padding(v: float3) -> float4 {
        (float4) v
    }
}

fn main() {}
