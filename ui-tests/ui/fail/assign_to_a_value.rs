use matrix_core::matrix;

// Only a place can be assigned: not an operation, a literal or a block,
// alone or in the middle of a chain (clang-19: "expression is not
// assignable" for each C line).
matrix! {
    int chained(int a, int b) { a = a + 1 = b; return a; }
    int compound(int a) { a * 2 += 1; return a; }
    int literal(int a) { 1 = a; return a; }
    float block(float x) { float y; y = { x } = 1.0f; return y; }
}

fn main() {}
