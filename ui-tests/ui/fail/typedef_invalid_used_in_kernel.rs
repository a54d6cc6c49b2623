use matrix_core::matrix;

matrix! {
    pub typedef float z_t __attribute__((matrix_type(0, 4)));

    pub fn twice(a: z_t) -> z_t {
        a + a
    }
}

fn main() {}
