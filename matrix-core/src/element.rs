//! The element types a [`Matrix`](crate::Matrix) may hold.
//!
//! [`Element`] is sealed: it is implemented for exactly the element types
//! of the contract (`i8 i16 i32 i64 u8 u16 u32 u64 f32 f64`, and
//! `half::f16` behind the `f16` feature) and cannot be implemented outside
//! this crate. `bool`, `char`, `i128`, `usize` and every other type are
//! refused.

use core::fmt::{Debug, Display};

mod sealed {
    /// The private supertrait that seals [`Element`](super::Element).
    pub trait Sealed {}
}

/// A type that may be the element of a [`Matrix`](crate::Matrix).
///
/// Sealed: implemented for `i8 i16 i32 i64 u8 u16 u32 u64 f32 f64` and,
/// with the `f16` feature, `half::f16` (C's `_Float16`).
///
/// Matrix arithmetic goes through this trait's hidden methods, which
/// **wrap** for integers (`wrapping_add`, `wrapping_sub`, `wrapping_mul`,
/// `wrapping_div`; integer division by zero panics) and are plain IEEE 754
/// operations, each rounded separately, for floats.
///
/// ```
/// use matrix_core::Element;
///
/// assert_eq!(<i64 as Element>::C_NAME, "long");
/// assert_eq!(<f32 as Element>::C_NAME, "float");
/// assert!(<f64 as Element>::IS_FLOAT);
/// assert_eq!(<u8 as Element>::ONE, 1);
/// ```
pub trait Element:
    sealed::Sealed + Copy + Default + PartialEq + Debug + Display + Send + Sync + 'static
{
    /// The additive identity (`0`, or `+0.0`).
    const ZERO: Self;
    /// The multiplicative identity (`1`, or `1.0`).
    const ONE: Self;
    /// The type's name in C, as Clang spells it in diagnostics: `float`,
    /// `double`, `signed char`, `short`, `int`, `long`, `unsigned char`,
    /// `unsigned short`, `unsigned int`, `unsigned long`, `_Float16`.
    /// (`i8` is `signed char` and `i64` is `long`, on every target.)
    const C_NAME: &'static str;
    /// `true` for the floating-point element types.
    const IS_FLOAT: bool;

    /// `out = a * b`, or `a * b + addend`, for the column-major slices of an
    /// `M x K` and a `K x N` matrix: each sum starts at its first product and
    /// adds the others in `k` order, then the addend. With `CONTRACT`, a
    /// multiply-add step may fuse into one rounding. `f32`, `f64` and `i32`
    /// use the SIMD kernels of the active backend; `i8 u8 i16 u16 u32` the
    /// `i32` kernel through [`simd::widen`](crate::simd::widen) for the
    /// shapes where that measured faster, and this loop for the others;
    /// `i64` and `u64` this loop.
    ///
    /// # Panics
    /// If a dimension is zero or a slice is not its shape's length.
    #[doc(hidden)]
    #[inline]
    fn gemm<const M: usize, const K: usize, const N: usize, const CONTRACT: bool>(
        a: &[Self],
        b: &[Self],
        addend: Option<&[Self]>,
        out: &mut [Self],
    ) {
        crate::ops::gemm_in_order::<Self, M, K, N>(a, b, addend, out);
    }

    /// Matrix addition of two elements: wrapping for integers, IEEE for floats.
    #[doc(hidden)]
    fn add(self, rhs: Self) -> Self;
    /// Matrix subtraction of two elements: wrapping for integers, IEEE for floats.
    #[doc(hidden)]
    fn sub(self, rhs: Self) -> Self;
    /// Matrix multiplication of two elements: wrapping for integers, IEEE for floats.
    #[doc(hidden)]
    fn mul(self, rhs: Self) -> Self;
    /// Matrix division of two elements: `wrapping_div` for integers (panics
    /// on a zero divisor), IEEE for floats.
    #[doc(hidden)]
    fn div(self, rhs: Self) -> Self;

    /// Converts `self` to another element type with Rust's `as` semantics.
    #[doc(hidden)]
    fn cast_to<U: Element>(self) -> U;

    /// `v as Self`.
    #[doc(hidden)]
    fn from_i8(v: i8) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_i16(v: i16) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_i32(v: i32) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_i64(v: i64) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_i128(v: i128) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_u8(v: u8) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_u16(v: u16) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_u32(v: u32) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_u64(v: u64) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_u128(v: u128) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_f32(v: f32) -> Self;
    /// `v as Self`.
    #[doc(hidden)]
    fn from_f64(v: f64) -> Self;
    /// `v as Self`, `f16` going through `f32` (which holds it exactly).
    #[cfg(feature = "f16")]
    #[doc(hidden)]
    fn from_f16(v: half::f16) -> Self;
}

/// Conversion between element types with the semantics of Rust's `as`:
/// integers truncate or sign-extend, float to integer truncates toward zero
/// and saturates (NaN becomes 0), integer to float and float to float round
/// to nearest. `half::f16` converts through `f32` (exact from `f16`, and
/// exact or overflowing from every integer), except that `f64` to `f16`
/// rounds once, directly, as C's `(_Float16)` does.
///
/// Implemented for every pair of [`Element`] types; it is what
/// [`Matrix::cast`](crate::Matrix::cast) applies to each element.
///
/// ```
/// use matrix_core::CastFrom;
///
/// assert_eq!(i32::cast_from(-2.9f32), -2);
/// assert_eq!(u8::cast_from(300i32), 44);
/// assert_eq!(i32::cast_from(f64::NAN), 0);
/// assert_eq!(i8::cast_from(1e10f32), i8::MAX);
/// ```
pub trait CastFrom<S>: Sized {
    /// Converts `value` as `value as Self` would.
    fn cast_from(value: S) -> Self;
}

impl<S: Element, T: Element> CastFrom<S> for T {
    #[inline(always)]
    fn cast_from(value: S) -> T {
        value.cast_to::<T>()
    }
}

/// Implements the `from_*` conversions of a primitive target with `as`.
macro_rules! from_methods_as {
    ($($name:ident: $src:ty),* $(,)?) => {
        $(
            #[inline(always)]
            fn $name(v: $src) -> Self {
                v as Self
            }
        )*
    };
}

/// `Element` for the primitive integer types.
macro_rules! int_element {
    ($($t:ident => $cname:literal, $from:ident
        $(, simd $gemm:ident, $madd:ident)? $(, widen $wide:ident)?;)*) => {$(
        impl sealed::Sealed for $t {}

        impl Element for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const C_NAME: &'static str = $cname;
            const IS_FLOAT: bool = false;

            // `widen gemm`: the product on the `i32` kernel, the operands
            // widened and the result truncated back (exact: the contract's
            // wrapping arithmetic is `i32`'s truncated to the type's width),
            // where `simd::widen::pays` measured that it is faster.
            $(
                #[inline(always)]
                fn gemm<const M: usize, const K: usize, const N: usize, const CONTRACT: bool>(
                    a: &[Self],
                    b: &[Self],
                    addend: Option<&[Self]>,
                    out: &mut [Self],
                ) {
                    crate::simd::widen::$wide::<Self, M, K, N>(a, b, addend, out)
                }
            )?

            $(
                #[inline(always)]
                fn gemm<const M: usize, const K: usize, const N: usize, const CONTRACT: bool>(
                    a: &[Self],
                    b: &[Self],
                    addend: Option<&[Self]>,
                    out: &mut [Self],
                ) {
                    match addend {
                        None => crate::simd::kernels::$gemm::<M, K, N, CONTRACT>(a, b, out),
                        Some(c) => crate::simd::kernels::$madd::<M, K, N, CONTRACT>(a, b, c, out),
                    }
                }
            )?

            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self.wrapping_add(rhs)
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self.wrapping_sub(rhs)
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                self.wrapping_mul(rhs)
            }
            #[inline(always)]
            #[track_caller]
            fn div(self, rhs: Self) -> Self {
                self.wrapping_div(rhs)
            }
            #[inline(always)]
            fn cast_to<U: Element>(self) -> U {
                U::$from(self)
            }

            from_methods_as!(
                from_i8: i8, from_i16: i16, from_i32: i32, from_i64: i64, from_i128: i128,
                from_u8: u8, from_u16: u16, from_u32: u32, from_u64: u64, from_u128: u128,
                from_f32: f32, from_f64: f64,
            );

            #[cfg(feature = "f16")]
            #[inline(always)]
            fn from_f16(v: half::f16) -> Self {
                v.to_f32() as Self
            }
        }
    )*};
}

/// `Element` for `f32` and `f64`.
macro_rules! float_element {
    ($($t:ident => $cname:literal, $from:ident, $to:ident $(, simd $gemm:ident, $madd:ident)?;)*) => {$(
        impl sealed::Sealed for $t {}

        impl Element for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const C_NAME: &'static str = $cname;
            const IS_FLOAT: bool = true;

            $(
                #[inline(always)]
                fn gemm<const M: usize, const K: usize, const N: usize, const CONTRACT: bool>(
                    a: &[Self],
                    b: &[Self],
                    addend: Option<&[Self]>,
                    out: &mut [Self],
                ) {
                    match addend {
                        None => crate::simd::kernels::$gemm::<M, K, N, CONTRACT>(a, b, out),
                        Some(c) => crate::simd::kernels::$madd::<M, K, N, CONTRACT>(a, b, c, out),
                    }
                }
            )?

            #[inline(always)]
            fn add(self, rhs: Self) -> Self {
                self + rhs
            }
            #[inline(always)]
            fn sub(self, rhs: Self) -> Self {
                self - rhs
            }
            #[inline(always)]
            fn mul(self, rhs: Self) -> Self {
                self * rhs
            }
            #[inline(always)]
            fn div(self, rhs: Self) -> Self {
                self / rhs
            }
            #[inline(always)]
            fn cast_to<U: Element>(self) -> U {
                U::$from(self)
            }

            from_methods_as!(
                from_i8: i8, from_i16: i16, from_i32: i32, from_i64: i64, from_i128: i128,
                from_u8: u8, from_u16: u16, from_u32: u32, from_u64: u64, from_u128: u128,
                from_f32: f32, from_f64: f64,
            );

            #[cfg(feature = "f16")]
            #[inline(always)]
            fn from_f16(v: half::f16) -> Self {
                v.$to()
            }
        }
    )*};
}

int_element! {
    i8 => "signed char", from_i8, widen gemm;
    i16 => "short", from_i16, widen gemm;
    i32 => "int", from_i32, simd gemm_i32, gemm_madd_i32;
    i64 => "long", from_i64;
    u8 => "unsigned char", from_u8, widen gemm;
    u16 => "unsigned short", from_u16, widen gemm;
    u32 => "unsigned int", from_u32, widen gemm;
    u64 => "unsigned long", from_u64;
}

float_element! {
    f32 => "float", from_f32, to_f32, simd gemm_f32, gemm_madd_f32;
    f64 => "double", from_f64, to_f64, simd gemm_f64, gemm_madd_f64;
}

#[cfg(feature = "f16")]
mod half_element {
    use super::{Element, sealed};
    use half::f16;

    impl sealed::Sealed for f16 {}

    /// Every integer converts through `f32`: below 2^24 that is exact, and
    /// at or above it both roundings overflow `f16` to infinity, so the
    /// result is the correctly rounded `as` conversion.
    macro_rules! via_f32 {
        ($($name:ident: $src:ty),* $(,)?) => {
            $(
                #[inline(always)]
                fn $name(v: $src) -> Self {
                    f16::from_f32(v as f32)
                }
            )*
        };
    }

    /// `f64` to `f16`, rounded once to nearest-even, as `as` and C's
    /// `(_Float16)` round. (`half::f16::from_f64` rounds twice.) The value is
    /// first rounded to `f32` *to odd*: truncated toward zero, with the last
    /// bit set when inexact. `f32` keeps more than two extra bits over `f16`
    /// everywhere `f16` is finite, so rounding that to `f16` gives the
    /// correctly rounded result.
    #[inline]
    fn f64_to_f16(v: f64) -> f16 {
        let nearest = v as f32;
        if !nearest.is_finite() || f64::from(nearest) == v {
            // NaN, exact, or beyond f32 and so far beyond f16's range.
            return f16::from_f32(nearest);
        }
        let mut bits = nearest.to_bits();
        if f64::from(nearest).abs() > v.abs() {
            // One step toward zero (sign-magnitude: the magnitude is > 0).
            bits -= 1;
        }
        f16::from_f32(f32::from_bits(bits | 1))
    }

    impl Element for f16 {
        const ZERO: Self = f16::ZERO;
        const ONE: Self = f16::ONE;
        const C_NAME: &'static str = "_Float16";
        const IS_FLOAT: bool = true;

        // `half` computes each operation in `f32` and rounds once to `f16`,
        // which is correctly rounded for + - * / (f32 has more than twice
        // the precision of f16, plus two bits).
        #[inline(always)]
        fn add(self, rhs: Self) -> Self {
            self + rhs
        }
        #[inline(always)]
        fn sub(self, rhs: Self) -> Self {
            self - rhs
        }
        #[inline(always)]
        fn mul(self, rhs: Self) -> Self {
            self * rhs
        }
        #[inline(always)]
        fn div(self, rhs: Self) -> Self {
            self / rhs
        }
        #[inline(always)]
        fn cast_to<U: Element>(self) -> U {
            U::from_f16(self)
        }

        via_f32!(
            from_i8: i8, from_i16: i16, from_i32: i32, from_i64: i64, from_i128: i128,
            from_u8: u8, from_u16: u16, from_u32: u32, from_u64: u64, from_u128: u128,
            from_f32: f32,
        );

        #[inline(always)]
        fn from_f64(v: f64) -> Self {
            f64_to_f16(v)
        }
        #[inline(always)]
        fn from_f16(v: f16) -> Self {
            v
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_names() {
        assert_eq!(i8::C_NAME, "signed char");
        assert_eq!(i16::C_NAME, "short");
        assert_eq!(i32::C_NAME, "int");
        assert_eq!(i64::C_NAME, "long");
        assert_eq!(u8::C_NAME, "unsigned char");
        assert_eq!(u16::C_NAME, "unsigned short");
        assert_eq!(u32::C_NAME, "unsigned int");
        assert_eq!(u64::C_NAME, "unsigned long");
        assert_eq!(f32::C_NAME, "float");
        assert_eq!(f64::C_NAME, "double");
    }

    #[test]
    fn wrapping_arithmetic() {
        assert_eq!(Element::add(200u8, 100), 44);
        assert_eq!(Element::add(i32::MAX, 1), i32::MIN);
        assert_eq!(Element::sub(0u32, 1), u32::MAX);
        assert_eq!(Element::mul(i8::MIN, -1), i8::MIN);
        assert_eq!(Element::div(i16::MIN, -1), i16::MIN);
        assert_eq!(Element::div(-7i32, 2), -3);
    }

    #[test]
    #[should_panic(expected = "divide by zero")]
    fn integer_division_by_zero_panics() {
        let _ = Element::div(1u64, 0);
    }

    #[test]
    fn casts_follow_as() {
        assert_eq!(i32::cast_from(f32::NAN), 0);
        assert_eq!(i32::cast_from(f32::INFINITY), i32::MAX);
        assert_eq!(u8::cast_from(-1.5f64), 0);
        assert_eq!(u8::cast_from(-1i8), 255);
        assert_eq!(i64::cast_from(u64::MAX), -1);
        assert_eq!(f32::cast_from(16_777_217i32), 16_777_216.0);
        assert_eq!(f32::cast_from(0.1f64), 0.1f32);
    }

    #[cfg(feature = "f16")]
    #[test]
    fn half_element() {
        use half::f16;
        assert_eq!(f16::C_NAME, "_Float16");
        assert_eq!(f16::cast_from(65519i32), f16::MAX);
        assert!(f16::cast_from(65520i32).is_infinite());
        assert!(crate::private::convert::<f16, _>(u128::MAX).is_infinite());
        assert_eq!(i32::cast_from(f16::from_f32(-2.75)), -2);
        assert_eq!(
            f64::cast_from(f16::from_f32(0.1)),
            f16::from_f32(0.1).to_f64()
        );
        // f64 -> f16 rounds once: 1 + 2^-11 + 2^-40 is just above the tie.
        let v = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
        assert_eq!(f16::cast_from(v), f16::from_f32(1.0 + 2f32.powi(-10)));
        assert_eq!(f16::cast_from(-v), f16::from_f32(-1.0 - 2f32.powi(-10)));
        // ... and an exact tie rounds to even.
        assert_eq!(f16::cast_from(1.0 + 2f64.powi(-11)), f16::ONE);
        // just below a tie (the f32 rounding would reach the tie)
        let below = 1.0 + 3.0 * 2f64.powi(-11) - 2f64.powi(-40);
        assert_eq!(f16::cast_from(below), f16::from_f32(1.0 + 2f32.powi(-10)));
        // subnormals, overflow, NaN, signed zero
        assert_eq!(f16::cast_from(2f64.powi(-24) * 0.75), f16::from_bits(1));
        assert_eq!(f16::cast_from(2f64.powi(-26)), f16::ZERO);
        assert_eq!(f16::cast_from(-2f64.powi(-200)).to_bits(), 0x8000);
        assert_eq!(f16::cast_from(65519.99f64), f16::MAX);
        assert!(f16::cast_from(1e300f64).is_infinite());
        assert!(f16::cast_from(f64::NAN).is_nan());
        // every f16 survives f16 -> f64 -> f16
        for bits in 0..=u16::MAX {
            let h = f16::from_bits(bits);
            if !h.is_nan() {
                assert_eq!(f16::cast_from(f64::cast_from(h)).to_bits(), bits);
            }
        }
        assert_eq!(Element::add(f16::ONE, f16::ONE), f16::from_f32(2.0),);
    }
}
