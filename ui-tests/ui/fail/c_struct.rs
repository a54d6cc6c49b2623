use matrix_core::matrix;

// C's structures are declared at file scope, their members values; a
// union is not declared in a block, nor is an `enum` other than a
// declaration of constants: one error each, and no other for the rest.
matrix! {
    typedef float m2 __attribute__((matrix_type(2, 2)));
    typedef struct { float x, y; } vec2;
    struct node { float *next; int bits : 3; vec5 v; m2 m; };
    typedef union { float f; unsigned u; } bits;
    pub static const vec2 origin = { 0, 0 };
    enum colour paint;
    struct Rusty {
        x: f32,
    }
    float first(m2 m) { return m[0][0]; }
    float member(vec2 v) {
        return v.z;
    }
    float node_m(float k) {
        struct node n = { .m = (m2) k };
        return n.m[0][0];
    }
}

// Initialisers and a structure declared in a function, in a block with
// no other error.
matrix! {
    typedef struct { float x, y; } pt;
    float excess() {
        pt w = { 1, 2, 3 };
        return w.x;
    }
    float designator() {
        pt u = { .z = 1 };
        return u.x;
    }
    float local(float k) {
        struct q { float z; } v;
        v.z = k;
        return v.z;
    }
}

fn main() {}
