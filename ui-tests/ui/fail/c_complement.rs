use matrix_core::matrix;

// C's `~` takes integers (and vectors of them) only: clang-19 says
// "invalid argument type '...' to unary expression" for each line, and
// the same of `!` on a matrix in a function with a C head.
matrix! {
    typedef float m2 __attribute__((matrix_type(2, 2)));
    float on_float(float x) { return ~x; }
    m2 on_matrix(m2 m) { return ~m; }
    int not_matrix(m2 m) { return !m; }
}

fn main() {}
