use matrix_core::matrix;

// `##` stamps out a typedef and a function per size, as C headers do
// (Rust 2021 lexes `##` with a space before it: `m ##N`, `m ## N`), and
// `#x` is the argument as a string.
matrix! {
    #define MAT(N) typedef float m ## N __attribute__((matrix_type(N, N)));
    #define ADD(N) m ## N add ## N(m ## N a, m ## N b) { return a + b; }
    #define NAME(f) #f
    MAT(2)
    MAT(3)
    ADD(2)
    ADD(3)
    #define AB a ## b ## 1
    int pasted(void) { int ab1 = 7; return AB; }
    fn name() -> &'static str { NAME(add2  (x)) }
}

fn main() {
    let a = m2::from_rows([[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(add2(a, a)[(1, 0)], 6.0);
    assert_eq!(add3(m3::identity(), m3::identity())[(2, 2)], 2.0);
    assert_eq!(pasted(), 7);
    assert_eq!(name(), "add2 (x)");
}
