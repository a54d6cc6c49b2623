//! Methods that return a new value and leave `self` unchanged are
//! `#[must_use]`: dropping their result is a bug.
#![deny(unused_must_use)]

use matrix_core::{Matrix, MemoryLayout};

fn main() {
    let m = Matrix::<f32, 2, 3>::zero();
    m.transpose();
    Matrix::<f32, 2, 2>::load(&[1.0, 2.0, 3.0, 4.0], MemoryLayout::RowMajor);
    MemoryLayout::PackedB.offset::<u8>(1, 2, 8);
}
