mod geometry {
    use matrix_core::matrix;

    matrix! {
        pub typedef float mat4 __attribute__((matrix_type(4, 4)));
    }
}

mod scene {
    use super::geometry::mat4;
    use matrix_core::matrix;

    matrix! {
        // `m`'s type is another block's: a negative constant index is
        // refused here, whatever the shape.
        pub fn corner(m: mat4) -> f32 {
            m[-1][0]
        }
    }
}

fn main() {}
