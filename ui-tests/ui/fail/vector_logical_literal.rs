use matrix_core::matrix;

// A floating literal beside `&&` or `||`: clang-19 warns as if converting
// it to `_Bool` (every value but 1.0 and +0.0 "changes"), so the DSL
// refuses it with the warning's words. Integer literals, 1.0 and 0.0 pass.
matrix! {
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef int int4 __attribute__((ext_vector_type(4)));

    pub fn half(v: float4) -> int4 {
        v || 0.5
    }

    pub fn negative_zero(v: float4) -> int4 {
        -0.0 && v
    }

    pub fn allowed(v: float4, i: int4) -> int4 {
        (v || 1.0) & (v && 0.0) & (i && 3)
    }
}

fn main() {}
