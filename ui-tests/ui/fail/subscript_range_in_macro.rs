use matrix_core::matrix;

matrix! {
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));

    pub fn show(m: m4x4_t) {
        println!("{}", m[4][0]);
    }

    pub fn diagonal(m: m4x4_t) -> Vec<f32> {
        (0..4).map(|i| m[i][5]).collect()
    }
}

fn main() {}
