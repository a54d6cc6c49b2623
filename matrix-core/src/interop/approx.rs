//! `approx`'s `AbsDiffEq`, `RelativeEq` and `UlpsEq` for [`Matrix`] and
//! [`Vector`]: element by element, and the comparison holds when it holds
//! for every element.

use approx::{AbsDiffEq, RelativeEq, UlpsEq};

use crate::element::Element;
use crate::layout::Layout;
use crate::matrix::Matrix;
use crate::vector::{Lanes, Vector};

/// The three traits for a type whose elements `$elements(&self)` returns as
/// a slice.
macro_rules! approx_elementwise {
    (impl[$($generics:tt)*] $ty:ty, $elements:ident where $($bounds:tt)*) => {
        impl<$($generics)*> AbsDiffEq for $ty
        where
            $($bounds)*
        {
            type Epsilon = T::Epsilon;

            fn default_epsilon() -> T::Epsilon {
                T::default_epsilon()
            }

            fn abs_diff_eq(&self, other: &Self, epsilon: T::Epsilon) -> bool {
                let (a, b) = (self.$elements(), other.$elements());
                a.iter().zip(b).all(|(x, y)| x.abs_diff_eq(y, epsilon))
            }
        }

        impl<$($generics)*> RelativeEq for $ty
        where
            T: RelativeEq,
            $($bounds)*
        {
            fn default_max_relative() -> T::Epsilon {
                T::default_max_relative()
            }

            fn relative_eq(&self, other: &Self, epsilon: T::Epsilon, max_relative: T::Epsilon) -> bool {
                let (a, b) = (self.$elements(), other.$elements());
                a.iter().zip(b).all(|(x, y)| x.relative_eq(y, epsilon, max_relative))
            }
        }

        impl<$($generics)*> UlpsEq for $ty
        where
            T: UlpsEq,
            $($bounds)*
        {
            fn default_max_ulps() -> u32 {
                T::default_max_ulps()
            }

            fn ulps_eq(&self, other: &Self, epsilon: T::Epsilon, max_ulps: u32) -> bool {
                let (a, b) = (self.$elements(), other.$elements());
                a.iter().zip(b).all(|(x, y)| x.ulps_eq(y, epsilon, max_ulps))
            }
        }
    };
}

approx_elementwise!(
    impl[T, const R: usize, const C: usize, L: Layout] Matrix<T, R, C, L>, as_slice
    where T: Element + AbsDiffEq, T::Epsilon: Copy
);
approx_elementwise!(
    impl[T, const N: usize] Vector<T, N>, as_slice
    where T: Lanes<N> + AbsDiffEq, T::Epsilon: Copy
);

#[cfg(test)]
mod tests {
    use super::*;
    use approx::{assert_abs_diff_eq, assert_relative_eq, assert_ulps_eq, assert_ulps_ne};

    #[test]
    fn row_major_matrices_compare_element_by_element() {
        let a =
            Matrix::<f64, 2, 3>::from_fn(|r, c| (r * 3 + c) as f64).to_layout::<crate::RowMajor>();
        let b = a + 1e-12;
        assert_abs_diff_eq!(a, b, epsilon = 1e-9);
        assert_relative_eq!(a, b, epsilon = 1e-9);
        assert_ulps_ne!(a, a + 1.0);
        assert!(!a.abs_diff_eq(&(a + 1.0), 0.5));
    }

    #[test]
    fn matrices_compare_element_wise() {
        let a = Matrix::<f32, 2, 3>::from_fn(|r, c| (r * 3 + c) as f32 / 10.0);
        // every element one ulp up
        let b = Matrix::<f32, 2, 3>::from_fn(|r, c| f32::from_bits(a[(r, c)].to_bits() + 1));
        assert_ne!(a, b);
        assert_abs_diff_eq!(a, b, epsilon = 1e-6);
        assert_relative_eq!(a, b);
        assert_ulps_eq!(a, b);
        // one element off is enough to fail
        let mut c = a;
        c[(1, 2)] += 1e-3;
        assert!(a.abs_diff_ne(&c, 1e-4));
        assert!(a.abs_diff_eq(&c, 1e-2));
        assert!(a.relative_ne(&c, f32::EPSILON, 1e-5));
        assert_ulps_ne!(a, c);
    }

    #[test]
    fn vectors_compare_element_wise() {
        let v = Vector::from_array([0.1f64, 0.2, 0.3]);
        let w = Vector::from_array([0.1f64, 0.2, 0.1 + 0.2]);
        assert_ne!(v[2], w[2]);
        assert_ulps_eq!(v, w);
        assert_relative_eq!(v, w);
        assert!(v.abs_diff_ne(&Vector::splat(0.2), 0.05));
        // integer elements: approx's exact integer comparison
        assert_abs_diff_eq!(
            Vector::from_array([1u8, 2]),
            Vector::from_array([2u8, 2]),
            epsilon = 1
        );
    }
}
