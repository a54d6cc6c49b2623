// A C `static` that is not `const` keeps state between calls, which a
// kernel cannot: the error on the `static`, inside a function and at file
// scope. (`static const` tables work.)
use matrix_core::matrix;

matrix! {
    int counter(int step) {
        static const int start[] = {10};
        static int calls = 0;
        calls += step;
        return start[0] + calls;
    }
}

matrix! {
    static float total = 0;
}

fn main() {}
