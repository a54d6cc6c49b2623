use matrix_core::matrix;

matrix! {
    #![fp_contract(fastest)]

    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t {
        a * b + c
    }
}

fn main() {}
