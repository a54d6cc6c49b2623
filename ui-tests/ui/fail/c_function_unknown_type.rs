// A C function whose type the block does not know: clang-19's words.
use matrix_core::matrix;

matrix! {
    typedef float m4 __attribute__((matrix_type(4, 4)));

    m4 scaled(m4 m, vec3 s) {
        return m;
    }
}

fn main() {}
