use matrix_core::Matrix;

// The fourth parameter of `Matrix` is a layout.
fn main() {
    let _m: Matrix<f32, 2, 2, u8> = Default::default();
}
