use matrix_core::matrix;

// A scalar where a vector is expected splats, as in Clang; a literal whose
// value changes on the way is named as converted to the vector type, and a
// vector of another type is refused with Clang's texts.
matrix! {
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef int int4 __attribute__((ext_vector_type(4)));
    typedef unsigned char uchar4 __attribute__((ext_vector_type(4)));

    fn takes_ints(x: int4) -> int4 {
        x
    }

    pub fn argument_of_another_type(v: float4) -> int4 {
        takes_ints(v)
    }

    pub fn initialiser_changes(v: float4) -> int4 {
        let w: int4 = 2.5;
        w
    }

    pub fn argument_changes() -> int4 {
        takes_ints(0.5)
    }

    pub fn returned_changes() -> uchar4 {
        300
    }

    pub fn assigned_changes(mut c: uchar4) -> uchar4 {
        c = 256;
        c
    }
}

fn main() {}
