use matrix_core::matrix;

matrix! {
    typedef float mat44 __attribute__((matrix_type(4, 4)));
    typedef mat55 mat5;

    pub fn first(a: mat44) -> f32 {
        a[0][0]
    }
}

fn main() {}
