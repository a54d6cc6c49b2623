// A matrix loaded from a `&[T]` parameter is read in place when its name is
// never assigned; one that is assigned stays a copy, so rustc's message is
// about the `let` the user wrote (declare it `mut`), not about a reference.
use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn set(a: &[f32]) -> m4x4_t {
        let x: m4x4_t = __builtin_matrix_column_major_load(a, 4, 4);
        x[0][0] = 1.0f32;
        x
    }

    pub fn add(a: &[f32]) -> m4x4_t {
        let x = __builtin_matrix_column_major_load(a, 4, 4);
        x += x;
        x
    }
}

fn main() {}
