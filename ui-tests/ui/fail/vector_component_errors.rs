use matrix_core::matrix;

matrix! {
    typedef float float3 __attribute__((ext_vector_type(3)));
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef float float2 __attribute__((ext_vector_type(2)));

    pub fn illegal(v: float4) -> f32 {
        v.q
    }

    pub fn mixed_sets(v: float4) -> f32 {
        v.xr.x
    }

    pub fn exceeds(v: float3) -> f32 {
        v.w
    }

    // Clang names the first character it cannot read as a component.
    pub fn illegal_after_legal(v: float4) -> float2 {
        v.xq
    }

    pub fn s_alone(v: float4) -> f32 {
        v.s
    }

    // Hex digits without `s` are lanes 10 and up, past every vector.
    pub fn hex_without_s(v: float4) -> f32 {
        v.c
    }

    pub fn seventeen_components(v: float4) -> f32 {
        v.xxxxxxxxxxxxxxxxx.x
    }

    pub fn duplicate(mut v: float4, w: float4) -> float4 {
        v.xx = w.yz;
        v
    }

    pub fn component_of_a_value(v: float4, w: float4) {
        (v + w).x = 1.0;
    }

    pub fn subscript_of_a_value(v: float4, w: float4) {
        (v + w)[1] += 1.0;
    }

    pub fn odd_half(v: float3) -> f32 {
        v.hi.x
    }
}

fn main() {}
