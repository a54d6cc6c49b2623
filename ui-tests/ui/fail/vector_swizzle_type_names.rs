use matrix_core::matrix;

// A component access's vector is named as Clang names it: by the first
// typedef that declares its type (`Bf2` here, not its alias or the later
// `Af2`), or spelled out when there is none. The messages are clang-19's.
matrix! {
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef float Bf2 __attribute__((ext_vector_type(2)));
    typedef float Af2 __attribute__((ext_vector_type(2)));
    typedef Af2 alias2;
    typedef int int2 __attribute__((ext_vector_type(2)));
    typedef float float3 __attribute__((ext_vector_type(3)));

    pub fn assign(mut v: float4, i: int2) {
        v.xy = i;
    }

    pub fn initialize(v: float4) {
        let x: float3 = v.zw;
    }

    pub fn sizes(v: float4) -> float3 {
        v.xyz + v.xy
    }

    pub fn half(v: float4) {
        let w: float3 = v.lo;
    }

    pub fn unnamed(v: float4, i: int2) -> f32 {
        let q = v.x + i.xyy;
        0.0
    }
}

fn main() {}
