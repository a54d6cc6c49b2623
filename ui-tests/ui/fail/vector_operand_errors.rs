use matrix_core::matrix;

matrix! {
    typedef float float3 __attribute__((ext_vector_type(3)));
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef int int4 __attribute__((ext_vector_type(4)));
    typedef float m3x3_t __attribute__((matrix_type(3, 3)));
    typedef float m3x1_t __attribute__((matrix_type(3, 1)));
    typedef int i4x1_t __attribute__((matrix_type(4, 1)));
    typedef int int3 __attribute__((ext_vector_type(3)));

    pub fn sizes(a: float4, b: float3) -> float4 {
        a + b
    }

    pub fn float_scalar_onto_ints(a: int4, f: f32) -> int4 {
        a + f
    }

    pub fn float_literal_onto_ints(a: int4) -> int4 {
        a * 2.5
    }

    pub fn lossy_literal(a: float4) -> float4 {
        a + 16777217
    }

    pub fn matrix_vector(m: m3x3_t, v: float4) -> float3 {
        m * v
    }

    pub fn vector_plus_matrix(m: m3x1_t, v: float3) -> float3 {
        v + m
    }

    pub fn matrix_compared_with_vector(m: m3x1_t, v: float3) -> int3 {
        m < v
    }

    pub fn shift_float_vector(a: int4, b: float4) -> int4 {
        a << b
    }

    pub fn shift_by_float_scalar(a: int4) -> int4 {
        a >> 1.5
    }

    pub fn shift_by_matrix(a: int4, m: i4x1_t) -> int4 {
        a << m
    }

    pub fn assign(a: float4) -> float3 {
        let b: float3 = a;
        b
    }
}

fn main() {}
