use matrix_core::matrix;

matrix! {
    pub typedef float float4 __attribute__((ext_vector_type(4)));

    // `!` is Rust's spelling of C's `~`: integer vectors only.
    pub fn f(a: float4) -> float4 {
        !a
    }
}

fn main() {}
