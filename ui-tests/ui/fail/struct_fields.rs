use matrix_core::matrix;

/// A struct the block cannot see.
#[derive(Clone, Copy)]
pub struct Outside {
    pub eye: matrix_core::Vector<f32, 4>,
    pub name: &'static str,
}

// A field of a struct declared in the block has its type: shapes and
// constant subscripts are checked as for any operand. A field of another
// struct is decided by rustc, in Clang's words.
matrix! {
    typedef float m4 __attribute__((matrix_type(4, 4)));
    typedef float vec3 __attribute__((ext_vector_type(3)));

    #[derive(Clone, Copy)]
    pub struct Camera {
        pub view: m4,
        pub pos: vec3,
    }

    pub fn shape(c: Camera) -> vec3 {
        c.view * c.pos
    }
    pub fn subscript(c: Camera) -> f32 {
        c.view[4][0]
    }
    pub fn component(c: Camera) -> f32 {
        c.pos.w
    }
    pub fn outside(o: Outside, v: vec3) -> vec3 {
        v + o.eye
    }
    pub fn not_a_number(o: Outside, m: m4) -> m4 {
        m * o.name
    }
}

fn main() {}
