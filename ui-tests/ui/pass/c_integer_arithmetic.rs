#![deny(warnings)]
use matrix_core::matrix;

// A function with a C head computes as C does: the integer promotions
// (`a + b` of two `unsigned char` is an `int`), narrow places converted
// back (`c += 200`, `c++` wrap), truth values as `int` (`n += a < b`,
// `return !n;`) and `~`, with no warning in the expansion.
matrix! {
    typedef unsigned char u8m __attribute__((matrix_type(2, 2)));
    int sum(unsigned char a, unsigned char b) { return a + b; }
    unsigned char wrap(unsigned char c) { c += 200; c++; c <<= 8; return c; }
    int count(int a, int b) { int n = 0; n += a < b; return n + !a + !!b; }
    unsigned mask(unsigned x, short s) { return x & ~(unsigned) s << 4; }
    int negated(unsigned char a, int k) { if (~k) return -a; return ~a; }
    u8m bump(u8m m, unsigned char k) { m[0][0] += k; m[1][1] = ~m[1][1]; return m; }
}

fn main() {
    assert_eq!(sum(200, 100), 300);
    assert_eq!(wrap(100), 0);
    assert_eq!(count(1, 2), 2);
    assert_eq!(mask(0xffff, 1), 0xffe0);
    assert_eq!(negated(5, 0), -5);
    assert_eq!(negated(5, -1), -6);
    let m = bump(u8m::from_rows([[250, 0], [0, 3]]), 10);
    assert_eq!((m[(0, 0)], m[(1, 1)]), (4, 252));
}
