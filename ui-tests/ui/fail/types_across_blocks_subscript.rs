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
        pub fn corner(m: mat4) -> f32 {
            m[4][0]
        }
        pub fn column(m: mat4) -> f32 {
            m[0][4]
        }
    }
}

fn main() {
    let _ = scene::corner(geometry::mat4::identity());
    let _ = scene::column(geometry::mat4::identity());
}
