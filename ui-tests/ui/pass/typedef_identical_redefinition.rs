use matrix_core::matrix;

matrix! {
    pub typedef float t __attribute__((matrix_type(2, 2)));
    pub typedef float t __attribute__((matrix_type(2, 2)));

    pub fn twice(m: t) -> t {
        m + m
    }
}

fn main() {
    assert_eq!(twice(t::splat(1.0)), t::splat(2.0));
}
