use matrix_core::matrix;

// C's aggregates are not declared in a block (a Rust `struct` is, as any
// Rust item), nor is an `enum` other than a declaration of constants: one
// error on the keyword, and no other for the rest.
matrix! {
    typedef struct { float x, y; } vec2;
    struct point { int a, b; };
    typedef union { float f; unsigned u; } bits;
    enum colour paint;
    struct Rusty {
        x: f32,
    }
    typedef float m2 __attribute__((matrix_type(2, 2)));
    float first(m2 m) { return m[0][0]; }
}

fn main() {}
