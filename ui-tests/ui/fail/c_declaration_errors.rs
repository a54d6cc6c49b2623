// C's declarations in a kernel body: an initialiser gets clang-19's words.
use matrix_core::matrix;

matrix! {
    typedef float m4 __attribute__((matrix_type(4, 4)));

    fn declarations(a: m4) -> i32 {
        int n = 2.5;
        m4 r = 1.0f;
        unsigned char c = 300, d = 4;
        n
    }
}

fn main() {}
