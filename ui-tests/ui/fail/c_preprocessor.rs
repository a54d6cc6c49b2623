use matrix_core::matrix;

// What the block's preprocessor refuses: Clang's texts where Clang has
// one (a macro without a name, a call with the wrong number of
// arguments, `#endif` or `#else` with no `#if`, an unknown directive, an
// `#if` left open, `#error`, a `#` before no parameter; `##`'s are in
// `ui-tests/edition2021`, whose edition lexes it), ours for what C has
// and the block does not
// carry out (`...` before the last parameter, `#line`, an `#if` that is
// not an integer expression).
matrix! {
    #define
    #define STR(x) #y
    #define LOG(..., fmt) 0
    #define PAIR(a, b) ((a) + (b))
    int f(int x) { return PAIR(x) + PAIR(x, x, x); }
    #endif
    #else
    #frobnicate
    #line 40
    #if 2.5
    #endif
    #error "stop here"
    #if 1
    int g(void) { return 0; }
}

fn main() {}
