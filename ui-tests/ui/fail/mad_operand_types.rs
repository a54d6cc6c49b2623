use matrix_core::Matrix;

// Outside the macro, `Matrix::mad` takes the operand types of
// `__builtin_matrix_mad`: 8-bit operands accumulate in `i32`, not `i16`.
fn main() {
    let a = Matrix::<i8, 2, 2>::identity();
    let b = Matrix::<i8, 2, 2>::identity();
    let c = Matrix::<i16, 2, 2>::default();
    let _ = a.mad(&b, &c);
}
