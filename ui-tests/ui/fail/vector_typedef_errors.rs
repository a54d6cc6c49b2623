use matrix_core::matrix;

matrix! {
    const N: usize = 3;
    typedef float v0 __attribute__((ext_vector_type(0)));
    typedef float v12 __attribute__((ext_vector_type(1, 2)));
    typedef float vn __attribute__((ext_vector_type(n)));
    typedef float m2_t __attribute__((matrix_type(2, 2)));
    typedef m2_t vm __attribute__((ext_vector_type(2)));
    typedef float v17 __attribute__((ext_vector_type(17)));
    typedef float ok __attribute__((ext_vector_type(N + 1)));
}

fn main() {}
