use matrix_core::matrix;

// `memcpy` and `memset` take memory: Clang's texts for a `const`
// destination (clang-19 warns that it "discards qualifiers"), a value that
// is no pointer, and a call with the wrong number of arguments; a size
// that is no integer is refused too.
matrix! {
    typedef float m2 __attribute__((matrix_type(2, 2)));
    void into_const(const float *src, const float *dst) { memcpy(dst, src, 8); }
    void from_value(float x, float *dst) { memcpy(dst, x, 4); }
    void too_few(float *dst) { memset(dst, 0); }
    void too_many(float *dst) { memset(dst, 0, 4, 4); }
    void float_size(float *dst, float n) { memset(dst, 0, n); }
    void set_value(m2 m, float *dst) { memset(dst, m, 4); }
}

fn main() {}
