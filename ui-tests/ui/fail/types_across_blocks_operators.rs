mod geometry {
    use matrix_core::matrix;

    matrix! {
        pub typedef float mat3 __attribute__((matrix_type(3, 3)));

        pub fn mat3_identity() -> mat3 {
            let mut m = (mat3) 0;
            for i in 0..3 {
                m[i][i] = 1;
            }
            m
        }
    }
}

mod scene {
    use super::geometry::mat3_identity;
    use matrix_core::matrix;

    // Operators with a value of another block's type, decided by rustc
    // through the runtime's traits, in Clang's words.
    matrix! {
        typedef float m4 __attribute__((matrix_type(4, 4)));

        pub fn sub(m: m4) -> m4 {
            m - mat3_identity()
        }
        pub fn mul(m: m4) -> m4 {
            m * mat3_identity()
        }
        pub fn div(m: m4) -> m4 {
            m / mat3_identity()
        }
    }
}

fn main() {}
