//! Property tests on `Matrix` (modest case counts, so the suite stays fast).

use matrix_core::ColumnMajor;
use matrix_core::Matrix;
use matrix_core::private::{load, store};
use matrix_tests::{assert_same, elementwise, matmul, with_scalar};
use proptest::prelude::*;

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    }
}

/// Finite floats of moderate range, including zeros of both signs.
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(0.0),
        Just(-0.0),
        -1e6f64..1e6,
        (-1000i32..1000).prop_map(f64::from),
    ]
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn transpose_is_an_involution(v in prop::collection::vec(any::<i32>(), 15)) {
        let m = Matrix::<i32, 3, 5>::from_column_major(&v);
        prop_assert_eq!(m.transpose().transpose(), m);
        prop_assert_eq!(m.transpose().to_rows(), m.to_columns());
    }

    #[test]
    fn float_transpose_is_an_involution(v in prop::collection::vec(float(), 28)) {
        let m = Matrix::<f64, 4, 7>::from_column_major(&v);
        let back = m.transpose().transpose();
        assert_same(back.as_slice(), m.as_slice(), "transpose twice");
    }

    #[test]
    fn load_after_store_is_identity(
        v in prop::collection::vec(any::<u16>(), 12),
        extra in 0usize..6,
        fill in any::<u16>(),
    ) {
        let stride = 4 + extra;
        let m = Matrix::<u16, 4, 3>::from_column_major(&v);
        let len = 2 * stride + 4;
        let mut buffer = vec![fill; len];
        store(m, &mut buffer, stride);
        prop_assert_eq!(load::<u16, 4, 3, ColumnMajor>(&buffer, stride), m);
        // Only the matrix's own elements were written.
        for (i, &x) in buffer.iter().enumerate() {
            if i % stride >= 4 {
                prop_assert_eq!(x, fill);
            }
        }
    }

    #[test]
    fn int_ops_equal_reference(
        a in prop::collection::vec(any::<i16>(), 12),
        b in prop::collection::vec(any::<i16>(), 12),
        c in prop::collection::vec(any::<i16>(), 8),
        s in any::<i16>(),
    ) {
        let ma = Matrix::<i16, 3, 4>::from_column_major(&a);
        let mb = Matrix::<i16, 3, 4>::from_column_major(&b);
        let mc = Matrix::<i16, 4, 2>::from_column_major(&c);
        assert_same((ma + mb).as_slice(), &elementwise(&a, &b, i16::wrapping_add), "a + b");
        assert_same((ma - mb).as_slice(), &elementwise(&a, &b, i16::wrapping_sub), "a - b");
        assert_same((ma * s).as_slice(), &with_scalar(&a, s, i16::wrapping_mul), "a * s");
        assert_same((ma * mc).as_slice(), &matmul(&a, &c, 3, 4, 2), "a * c");
    }

    #[test]
    fn float_ops_equal_reference(
        a in prop::collection::vec(float(), 12),
        b in prop::collection::vec(float(), 12),
        c in prop::collection::vec(float(), 20),
        s in float(),
    ) {
        let af: Vec<f32> = a.iter().map(|&x| x as f32).collect();
        let cf: Vec<f32> = c.iter().map(|&x| x as f32).collect();
        let ma = Matrix::<f64, 2, 6>::from_column_major(&a);
        let mb = Matrix::<f64, 2, 6>::from_column_major(&b);
        let mc = Matrix::<f64, 6, 2>::from_column_major(&c[..12]);
        assert_same((ma + mb).as_slice(), &elementwise(&a, &b, |x, y| x + y), "a + b");
        assert_same((ma - s).as_slice(), &with_scalar(&a, s, |x, y| x - y), "a - s");
        assert_same((ma * mc).as_slice(), &matmul(&a, &c[..12], 2, 6, 2), "a * c");
        let fa = Matrix::<f32, 3, 4>::from_column_major(&af);
        let fc = Matrix::<f32, 4, 5>::from_column_major(&cf);
        assert_same((fa * fc).as_slice(), &matmul(&af, &cf, 3, 4, 5), "f32 a * c");
    }

    #[test]
    fn product_distributes_over_wrapping_addition(
        a in prop::collection::vec(any::<u32>(), 6),
        b in prop::collection::vec(any::<u32>(), 6),
        c in prop::collection::vec(any::<u32>(), 6),
    ) {
        // Wrapping arithmetic is a ring, so this holds exactly.
        let ma = Matrix::<u32, 2, 3>::from_column_major(&a);
        let mb = Matrix::<u32, 3, 2>::from_column_major(&b);
        let mc = Matrix::<u32, 3, 2>::from_column_major(&c);
        prop_assert_eq!(ma * (mb + mc), ma * mb + ma * mc);
        prop_assert_eq!((ma * mb).transpose(), mb.transpose() * ma.transpose());
    }
}
