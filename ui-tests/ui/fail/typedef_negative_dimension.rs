use matrix_core::matrix;

matrix! {
    pub typedef float neg_t __attribute__((matrix_type(-1, 4)));
}

fn main() {}
