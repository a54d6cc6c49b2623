//! Run-time support for the generated Rust runners: drawing inputs from a
//! kernel's seed and collecting outputs as bit patterns.
//!
//! `c/oracle_rt.h` is the C twin of this module; the two must draw the same
//! values in the same order. Every draw is one SplitMix64 step followed by
//! a conversion that C and Rust define alike (integer truncation, exact
//! small floats).

pub use crate::prng::SplitMix64 as Rng;

/// A generated runner: draws a kernel's inputs, calls it, returns its
/// outputs.
pub type Runner = fn() -> Vec<Output>;

/// How a value is drawn (the borrowed twin of [`crate::ast::Domain`]).
#[derive(Clone, Copy, Debug)]
pub enum Dom {
    /// An integer in `lo..=hi`.
    Int(i64, i64),
    /// 64 random bits, truncated.
    Full,
    /// `k / 2^shift` for `k` in `lo..=hi`.
    Dyadic(i64, i64, u32),
    /// One of these integers.
    IntChoice(&'static [i64]),
    /// One of these floats.
    FloatChoice(&'static [f64]),
}

/// A type the runners can draw and report.
pub trait Draw: Copy + 'static {
    /// The type's C name, for messages.
    const C_NAME: &'static str;
    /// `true` for floating-point types.
    const IS_FLOAT: bool;
    /// `v as Self`.
    fn from_i64(v: i64) -> Self;
    /// `v as Self` (truncation).
    fn from_u64(v: u64) -> Self;
    /// `v as Self`.
    fn from_f64(v: f64) -> Self;
    /// The value as 64 bits: sign-extended for signed integers,
    /// zero-extended for unsigned ones, the IEEE bits for floats.
    fn bits(self) -> u64;
}

macro_rules! draw_int {
    ($($t:ty, $c:expr, $via:ty);* $(;)?) => {$(
        impl Draw for $t {
            const C_NAME: &'static str = $c;
            const IS_FLOAT: bool = false;
            fn from_i64(v: i64) -> Self { v as $t }
            fn from_u64(v: u64) -> Self { v as $t }
            fn from_f64(v: f64) -> Self { v as $t }
            fn bits(self) -> u64 { self as $via as u64 }
        }
    )*};
}

draw_int! {
    i8, "signed char", i64;
    i16, "short", i64;
    i32, "int", i64;
    i64, "long", i64;
    u8, "unsigned char", u64;
    u16, "unsigned short", u64;
    u32, "unsigned int", u64;
    u64, "unsigned long", u64;
    usize, "unsigned long", u64;
}

impl Draw for f32 {
    const C_NAME: &'static str = "float";
    const IS_FLOAT: bool = true;
    fn from_i64(v: i64) -> Self {
        v as f32
    }
    fn from_u64(v: u64) -> Self {
        v as f32
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn bits(self) -> u64 {
        u64::from(self.to_bits())
    }
}

impl Draw for f64 {
    const C_NAME: &'static str = "double";
    const IS_FLOAT: bool = true;
    fn from_i64(v: i64) -> Self {
        v as f64
    }
    fn from_u64(v: u64) -> Self {
        v as f64
    }
    fn from_f64(v: f64) -> Self {
        v
    }
    fn bits(self) -> u64 {
        self.to_bits()
    }
}

/// Draws one value.
pub fn draw<T: Draw>(rng: &mut Rng, d: Dom) -> T {
    match d {
        Dom::Int(lo, hi) => T::from_i64(rng.range(lo, hi)),
        Dom::Full => T::from_u64(rng.next_u64()),
        Dom::Dyadic(lo, hi, shift) => {
            T::from_f64(rng.range(lo, hi) as f64 / (1u64 << shift) as f64)
        }
        Dom::IntChoice(v) => T::from_i64(v[rng.below(v.len() as u64) as usize]),
        Dom::FloatChoice(v) => T::from_f64(v[rng.below(v.len() as u64) as usize]),
    }
}

/// Draws `n` values.
pub fn vec<T: Draw>(rng: &mut Rng, n: usize, d: Dom) -> Vec<T> {
    (0..n).map(|_| draw(rng, d)).collect()
}

/// One output of a kernel run: the return value or a destination slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Output {
    /// `ret` or the name of a destination parameter.
    pub label: String,
    /// The element's C name.
    pub c_type: &'static str,
    /// Whether the elements are floats (NaNs then compare equal).
    pub is_float: bool,
    /// The values as bits (see [`Draw::bits`]), column-major for matrices.
    pub bits: Vec<u64>,
}

impl Output {
    /// An output from a slice of values.
    pub fn new<T: Draw>(label: &str, values: &[T]) -> Output {
        Output {
            label: label.to_string(),
            c_type: T::C_NAME,
            is_float: T::IS_FLOAT,
            bits: values.iter().map(|v| v.bits()).collect(),
        }
    }
}

/// Renders a value of a C type from its bits, for messages.
pub fn show(c_type: &str, bits: u64) -> String {
    match c_type {
        "float" => format!("{:?} (0x{:08x})", f32::from_bits(bits as u32), bits),
        "double" => format!("{:?} (0x{:016x})", f64::from_bits(bits), bits),
        "signed char" | "short" | "int" | "long" => format!("{}", bits as i64),
        _ => format!("{bits}"),
    }
}

/// Whether two values agree: equal bits, or both NaN (of any payload).
pub fn agree(c_type: &str, a: u64, b: u64) -> bool {
    if a == b {
        return true;
    }
    match c_type {
        "float" => f32::from_bits(a as u32).is_nan() && f32::from_bits(b as u32).is_nan(),
        "double" => f64::from_bits(a).is_nan() && f64::from_bits(b).is_nan(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_extend_by_signedness() {
        assert_eq!((-1i8).bits(), u64::MAX);
        assert_eq!(255u8.bits(), 255);
        assert_eq!(1.0f32.bits(), 0x3f80_0000);
    }

    #[test]
    fn nans_agree() {
        let a = f32::NAN.to_bits() as u64;
        let b = (f32::NAN.to_bits() | 1) as u64;
        assert!(agree("float", a, b));
        assert!(!agree("float", a, 0));
        assert!(!agree("int", 1, 2));
    }
}
