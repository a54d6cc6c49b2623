// A pointer is a slice here, which has nothing before its first element:
// C's `p - k`, `p -= k` and `p--` on one are errors (ours), on the tokens
// that move it back; `+`, `+=` and `++` move it on.
use matrix_core::matrix;

matrix! {
    float last(const float *p, int n) {
        const float *end = p + n;
        return *(end - 1);
    }

    void back(float *q, int n) {
        q += n;
        q -= 1;
        q--;
        *q-- = 0;
    }
}

fn main() {}
