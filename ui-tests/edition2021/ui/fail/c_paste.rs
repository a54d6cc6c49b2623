use matrix_core::matrix;

// Clang's errors for `##`: at either end of a replacement, and a paste
// that forms no single token.
matrix! {
    #define FRONT(x) ## x
    #define BACK(x) x ##
    #define PASTE(a, b) a ## b
    float h(float x) { return PASTE(x, +); }
}

fn main() {}
