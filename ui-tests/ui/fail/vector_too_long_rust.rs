use matrix_core::Vector;

// A vector has 1 to 16 elements, outside the macro too.
fn main() {
    let _v = Vector::<f32, 17>::splat(1.0);
}
