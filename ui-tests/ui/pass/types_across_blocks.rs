//! Typedefs and kernels of one block used from another block in another
//! module: a value the block cannot see is never guessed to be a scalar.
mod geometry {
    use matrix_core::matrix;

    matrix! {
        pub typedef float mat4 __attribute__((matrix_type(4, 4)));

        pub fn mat4_identity() -> mat4 {
            let mut m = (mat4) 0;
            for i in 0..4 {
                m[i][i] = 1;
            }
            m
        }
    }
}

mod scene {
    use super::geometry::{mat4, mat4_identity};
    use matrix_core::matrix;

    pub struct Camera {
        pub zoom: f64,
    }

    matrix! {
        typedef float m4 __attribute__((matrix_type(4, 4)));
        typedef float m4x2 __attribute__((matrix_type(4, 2)));

        /// Another block's kernel as an operand: a matrix, not a scalar.
        pub fn through(m: m4) -> m4 {
            let p: m4 = m * mat4_identity();
            p * 2 + mat4_identity()
        }

        /// A product whose shape rustc works out.
        pub fn narrow(m: m4x2) -> m4x2 {
            mat4_identity() * m
        }

        /// A scalar the block cannot see converts to the element type.
        pub fn zoomed(m: m4, camera: &Camera) -> m4 {
            // A product's type depends on the unseen operand: named here,
            // the rest of the expression is checked by the macro again.
            let z: m4 = m * camera.zoom;
            z - camera.zoom
        }

        /// Another block's typedef: its values use `Matrix`'s operators.
        pub fn square(m: mat4) -> mat4 {
            m * m
        }

        /// Subscripts of another block's matrix, as values and places.
        pub fn poke(mut m: mat4, i: i32) -> f32 {
            m[1][2] = 7.5;
            m[i][0] += 1.0;
            m[1][2] + m[i][0] + mat4_identity()[3][3]
        }

        /// Rust's own nested sequences still index as Rust indexes them.
        pub fn nested(rows: &Vec<Vec<f32>>) -> f32 {
            rows[1][0]
        }
    }
}

fn main() {
    use geometry::{mat4, mat4_identity};
    let m = mat4::from_fn(|r, c| (r * 4 + c) as f32);
    assert_eq!(scene::through(m), m * 2.0 + mat4_identity());
    let n = matrix_core::Matrix::<f32, 4, 2>::splat(3.0);
    assert_eq!(scene::narrow(n), n);
    let camera = scene::Camera { zoom: 0.5 };
    assert_eq!(scene::zoomed(m, &camera), m * 0.5 - 0.5);
    assert_eq!(scene::square(m), m * m);
    assert_eq!(scene::poke(m, 2), 7.5 + 9.0 + 1.0);
    assert_eq!(scene::nested(&vec![vec![1.0], vec![2.0]]), 2.0);
}
