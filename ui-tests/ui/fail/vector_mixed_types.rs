use matrix_core::matrix;

// Vectors of two types meet in an operator as in Clang: the right
// operand's bytes are read as the left's type where their elements fill as
// many bytes (a shift: one length and one element size), and these are
// the errors where they do not.
matrix! {
    typedef float float3 __attribute__((ext_vector_type(3)));
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef int int4 __attribute__((ext_vector_type(4)));
    typedef long long4 __attribute__((ext_vector_type(4)));
    typedef short short8 __attribute__((ext_vector_type(8)));

    pub fn different_bytes(f: float3, i: int4) -> float3 {
        f + i
    }

    pub fn remainder_of_floats(i: int4, f: float4) -> int4 {
        i % f
    }

    pub fn and_with_floats(f: float4, i: int4) -> float4 {
        f & i
    }

    pub fn shift_lengths(i: int4, s: short8) -> int4 {
        i << s
    }

    pub fn shift_element_sizes(i: int4, l: long4) -> int4 {
        i >> l
    }

    pub fn compound_remainder(mut f: float4, i: int4) -> float4 {
        f %= i;
        f
    }

    pub fn compound_shift(mut s: short8, i: int4) -> short8 {
        s <<= i;
        s
    }
}

fn main() {}
