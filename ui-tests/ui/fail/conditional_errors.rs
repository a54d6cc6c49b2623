// C's conditional operator `c ? a : b`: each mistake gets clang-19's words.
use matrix_core::matrix;

matrix! {
    typedef float m2 __attribute__((matrix_type(2, 2)));
    typedef float m3 __attribute__((matrix_type(3, 3)));
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef float float3 __attribute__((ext_vector_type(3)));
    typedef int int4 __attribute__((ext_vector_type(4)));
    typedef int int2 __attribute__((ext_vector_type(2)));
    typedef double double4 __attribute__((ext_vector_type(4)));

    fn matrix_condition(m: m2, a: m2) -> m2 {
        m ? a : a
    }
    fn matrix_and_scalar(x: f32, a: m2) -> m2 {
        x > 0 ? a : 1.0f
    }
    fn two_matrix_types(n: i32, a: m2, b: m3) -> m2 {
        n ? a : b
    }
    fn float_vector_condition(v: float4, x: f32) -> f32 {
        v ? x : x
    }
    fn vector_lengths(n: i32, a: float4, b: float3) -> float4 {
        n ? a : b
    }
    fn float_onto_int_vector(n: i32, a: int4) -> int4 {
        n ? a : 2.5f
    }
    fn condition_lanes(c: int4, a: int2) -> int2 {
        c ? a : a
    }
    fn condition_widths(c: int4, a: double4) -> double4 {
        c ? a : a
    }
    fn vector_and_matrix(n: i32, a: m2, b: float4) -> float4 {
        n ? a : b
    }
    fn literal_changes(x: f32) -> f32 {
        x > 0 ? x : 16777217
    }
}

fn main() {}
