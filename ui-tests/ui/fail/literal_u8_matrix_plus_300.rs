use matrix_core::matrix;

matrix! {
    pub typedef u8 u8x4_t __attribute__((matrix_type(4, 4)));

    pub fn add(m: u8x4_t) -> u8x4_t {
        m + 300
    }
}

fn main() {}
