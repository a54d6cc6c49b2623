//! The arithmetic of one element: what every kernel is built from.
//!
//! [`Arith`] is implemented for exactly the element types of the contract
//! (`i8 i16 i32 i64 u8 u16 u32 u64 f32 f64`, `half::f16` behind the
//! `f16` feature and `half::bf16` behind the `bf16` feature);
//! [`crate::Element`] builds on it. Integer operations wrap (`wrapping_*`;
//! integer division by zero panics), float operations are IEEE 754, each
//! rounded on its own.

mod sealed {
    /// The private supertrait that seals [`Arith`](super::Arith).
    pub trait Sealed {}
}

/// Element arithmetic, wrapping for integers and IEEE for floats, and
/// conversions with the semantics of Rust's `as`. Sealed; what the
/// expansion of `matrix!` and the kernels compute with.
#[doc(hidden)]
pub trait Arith:
    sealed::Sealed + Copy + PartialEq + core::fmt::Debug + Send + Sync + 'static
{
    /// Matrix addition of two elements: wrapping for integers, IEEE for floats.
    fn add(self, rhs: Self) -> Self;
    /// Matrix subtraction of two elements: wrapping for integers, IEEE for floats.
    fn sub(self, rhs: Self) -> Self;
    /// Matrix multiplication of two elements: wrapping for integers, IEEE for floats.
    fn mul(self, rhs: Self) -> Self;
    /// Matrix division of two elements: `wrapping_div` for integers (panics
    /// on a zero divisor), IEEE for floats.
    fn div(self, rhs: Self) -> Self;
    /// Negation: `wrapping_neg` for integers (`-MIN == MIN`, `-1u32 ==
    /// u32::MAX`), the sign bit flipped for floats (`-0.0` and NaN too).
    fn neg(self) -> Self;
    /// `self * b + c`, rounded once for floats (a fused multiply-add); for
    /// integers the same as `self.mul(b).add(c)`.
    fn mul_add(self, b: Self, c: Self) -> Self;

    /// Converts `self` to another element type with Rust's `as` semantics.
    fn cast_to<U: Arith>(self) -> U;

    /// `v as Self`.
    fn from_i8(v: i8) -> Self;
    /// `v as Self`.
    fn from_i16(v: i16) -> Self;
    /// `v as Self`.
    fn from_i32(v: i32) -> Self;
    /// `v as Self`.
    fn from_i64(v: i64) -> Self;
    /// `v as Self`.
    fn from_i128(v: i128) -> Self;
    /// `v as Self`.
    fn from_u8(v: u8) -> Self;
    /// `v as Self`.
    fn from_u16(v: u16) -> Self;
    /// `v as Self`.
    fn from_u32(v: u32) -> Self;
    /// `v as Self`.
    fn from_u64(v: u64) -> Self;
    /// `v as Self`.
    fn from_u128(v: u128) -> Self;
    /// `v as Self`.
    fn from_f32(v: f32) -> Self;
    /// `v as Self`.
    fn from_f64(v: f64) -> Self;
    /// `v as Self`, `f16` going through `f32` (which holds it exactly).
    #[cfg(feature = "f16")]
    fn from_f16(v: half::f16) -> Self;
    /// `v as Self`, `bf16` going through `f32` (which holds it exactly).
    #[cfg(feature = "bf16")]
    fn from_bf16(v: half::bf16) -> Self;
}

/// Conversion between element types with the semantics of Rust's `as`:
/// integers truncate or sign-extend, float to integer truncates toward zero
/// and saturates (NaN becomes 0), integer to float and float to float round
/// to nearest. `half::f16` converts through `f32` (exact from `f16`, and
/// exact or overflowing from every integer), except that `f64` to `f16`
/// rounds once, directly, as C's `(_Float16)` does. `half::bf16` converts
/// as Clang's `(__bf16)` does: an integer through `f32` (so a 64-bit value
/// may round twice, as it does in Clang), an `f64` once, directly.
///
/// Implemented for every pair of [`Element`](crate::Element) types; it is
/// what [`Matrix::cast`](crate::Matrix::cast) applies to each element.
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

impl<S: Arith, T: Arith> CastFrom<S> for T {
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

/// `Arith` for the primitive integer types.
macro_rules! int_arith {
    ($($t:ident => $from:ident;)*) => {$(
        impl sealed::Sealed for $t {}

        impl Arith for $t {
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
            fn neg(self) -> Self {
                self.wrapping_neg()
            }
            #[inline(always)]
            fn mul_add(self, b: Self, c: Self) -> Self {
                self.wrapping_mul(b).wrapping_add(c)
            }
            #[inline(always)]
            fn cast_to<U: Arith>(self) -> U {
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
            #[cfg(feature = "bf16")]
            #[inline(always)]
            fn from_bf16(v: half::bf16) -> Self {
                v.to_f32() as Self
            }
        }
    )*};
}

/// The four operations of a float type and its negation: its own
/// operators, each rounded once as IEEE 754 specifies.
macro_rules! ieee_ops {
    () => {
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
        fn neg(self) -> Self {
            -self
        }
    };
}

/// `Arith` for `f32` and `f64`.
macro_rules! float_arith {
    ($($t:ident => $from:ident, $to:ident, $fma:path;)*) => {$(
        impl sealed::Sealed for $t {}

        impl Arith for $t {
            ieee_ops!();
            #[inline(always)]
            fn mul_add(self, b: Self, c: Self) -> Self {
                // `f32::mul_add` is `std`'s (core's is unstable); without
                // `std`, libm's correctly rounded software fma. It runs only
                // where a backend fuses (`#[fp_contract(fast)]` on AVX2 or
                // AVX-512), so `std` builds keep the FMA instruction.
                #[cfg(feature = "std")]
                let fused = <$t>::mul_add(self, b, c);
                #[cfg(not(feature = "std"))]
                let fused = $fma(self, b, c);
                fused
            }
            #[inline(always)]
            fn cast_to<U: Arith>(self) -> U {
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
            #[cfg(feature = "bf16")]
            #[inline(always)]
            fn from_bf16(v: half::bf16) -> Self {
                v.$to()
            }
        }
    )*};
}

int_arith! {
    i8 => from_i8;
    i16 => from_i16;
    i32 => from_i32;
    i64 => from_i64;
    u8 => from_u8;
    u16 => from_u16;
    u32 => from_u32;
    u64 => from_u64;
}

float_arith! {
    f32 => from_f32, to_f32, libm::fmaf;
    f64 => from_f64, to_f64, libm::fma;
}

/// `f64` to `f32` rounded *to odd*: truncated toward zero, with the last
/// bit set when inexact. `f32` keeps more than two extra bits over `f16`
/// and `bf16` everywhere they are finite, so rounding the result to
/// nearest-even once more gives the correctly rounded 16-bit value: one
/// rounding, as C's `(_Float16)` and `(__bf16)` of a `double` round.
/// (`half`'s `from_f64` rounds twice.)
#[cfg(any(feature = "f16", feature = "bf16"))]
#[inline]
fn f64_to_f32_odd(v: f64) -> f32 {
    let nearest = v as f32;
    if !nearest.is_finite() || f64::from(nearest) == v {
        // NaN, exact, or beyond f32 and so far beyond a 16-bit float's range.
        return nearest;
    }
    let mut bits = nearest.to_bits();
    if f64::from(nearest).abs() > v.abs() {
        // One step toward zero (sign-magnitude: the magnitude is > 0).
        bits -= 1;
    }
    f32::from_bits(bits | 1)
}

/// The `Arith` of a 16-bit float: each operation computed in `f32` and
/// rounded once to the 16-bit type, which is correctly rounded for `+ - *
/// /` (`f32` has more than twice the precision of either, plus two bits);
/// conversions from integers through `f32`, from `f64` once (through
/// [`f64_to_f32_odd`]).
#[cfg(any(feature = "f16", feature = "bf16"))]
macro_rules! half_arith {
    ($t:ty, $from:ident, { $($other:tt)* }, $mul_add:item) => {
        impl sealed::Sealed for $t {}

        impl Arith for $t {
            ieee_ops!();
            #[inline(always)]
            $mul_add
            #[inline(always)]
            fn cast_to<U: Arith>(self) -> U {
                U::$from(self)
            }

            via_f32!(
                from_i8: i8, from_i16: i16, from_i32: i32, from_i64: i64, from_i128: i128,
                from_u8: u8, from_u16: u16, from_u32: u32, from_u64: u64, from_u128: u128,
                from_f32: f32,
            );

            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                Self::from_f32(f64_to_f32_odd(v))
            }
            $($other)*
        }
    };
}

/// Every integer converts to a 16-bit float through `f32`.
#[cfg(any(feature = "f16", feature = "bf16"))]
macro_rules! via_f32 {
    ($($name:ident: $src:ty),* $(,)?) => {
        $(
            #[inline(always)]
            fn $name(v: $src) -> Self {
                Self::from_f32(v as f32)
            }
        )*
    };
}

// For `f16` the conversion through `f32` is exact below 2^24, and at or
// above it both roundings overflow `f16` to infinity, so the result is the
// correctly rounded `as` conversion.
#[cfg(feature = "f16")]
half_arith!(
    half::f16,
    from_f16,
    {
        #[inline(always)]
        fn from_f16(v: half::f16) -> Self {
            v
        }
        #[cfg(feature = "bf16")]
        #[inline(always)]
        fn from_bf16(v: half::bf16) -> Self {
            half::f16::from_f32(v.to_f32())
        }
    },
    /// Rounded once: the product of two `f16` is exact in `f64` (22
    /// significant bits), and so is its sum with a third (the exponents
    /// of `f16` span 40 bits), so only the final rounding remains.
    fn mul_add(self, b: Self, c: Self) -> Self {
        Self::from_f64(self.to_f64() * b.to_f64() + c.to_f64())
    }
);

// For `bf16` (the exponent range of `f32`) an integer of more than 24
// significant bits rounds twice, first to `f32`: Clang converts
// `(__bf16)` of an integer the same way (`cvtsi2ss`, then to `bf16`).
#[cfg(feature = "bf16")]
half_arith!(
    half::bf16,
    from_bf16,
    {
        #[inline(always)]
        fn from_bf16(v: half::bf16) -> Self {
            v
        }
        #[cfg(feature = "f16")]
        #[inline(always)]
        fn from_f16(v: half::f16) -> Self {
            half::bf16::from_f32(v.to_f32())
        }
    },
    /// Fused in `f32` (the product of two `bf16` is exact there, so only
    /// the sum rounds), then rounded to `bf16`.
    fn mul_add(self, b: Self, c: Self) -> Self {
        Self::from_f32(Arith::mul_add(self.to_f32(), b.to_f32(), c.to_f32()))
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_arithmetic() {
        assert_eq!(Arith::add(200u8, 100), 44);
        assert_eq!(Arith::add(i32::MAX, 1), i32::MIN);
        assert_eq!(Arith::sub(0u32, 1), u32::MAX);
        assert_eq!(Arith::mul(i8::MIN, -1), i8::MIN);
        assert_eq!(Arith::div(i16::MIN, -1), i16::MIN);
        assert_eq!(Arith::div(-7i32, 2), -3);
        assert_eq!(Arith::mul_add(100u8, 3, 7), 51);
    }

    #[test]
    fn float_mul_add_rounds_once() {
        let x = 1.0f32 + f32::EPSILON;
        // x*x = 1 + 2e + e^2: the e^2 survives only a fused operation.
        assert_eq!(
            Arith::mul_add(x, x, -(1.0 + 2.0 * f32::EPSILON)),
            f32::EPSILON * f32::EPSILON
        );
        assert_eq!(Arith::mul(x, x) - (1.0 + 2.0 * f32::EPSILON), 0.0);
    }

    #[test]
    #[should_panic(expected = "divide by zero")]
    fn integer_division_by_zero_panics() {
        let _ = Arith::div(1u64, 0);
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
    fn half_arith() {
        use half::f16;
        assert_eq!(f16::cast_from(65519i32), f16::MAX);
        assert!(f16::cast_from(65520i32).is_infinite());
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
        assert_eq!(Arith::add(f16::ONE, f16::ONE), f16::from_f32(2.0));
        // fused: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20, below f16's half ulp
        // at 1 but exact as the result of one rounding.
        let x = f16::from_f32(1.0 + 2f32.powi(-10));
        let c = f16::from_f32(-(1.0 + 2f32.powi(-9)));
        assert_eq!(Arith::mul_add(x, x, c), f16::from_f32(2f32.powi(-20)));
    }
}
