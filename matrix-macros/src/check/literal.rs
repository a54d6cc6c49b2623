//! Scalar literals meeting a matrix are converted at expansion time.
//!
//! Where the value changes, clang-19 warns by default (`-Wconstant-conversion`,
//! `-Wliteral-conversion`, `-Wimplicit-const-int-float-conversion`); the DSL
//! makes those warnings errors with the same text, since a proc macro cannot
//! warn on stable Rust and a silent change is not what a Rust user expects.
//! The rules below reproduce clang-19's, case by case (see the tests).

use crate::diag;
use crate::types::Scalar;
use proc_macro2::{Literal, Span, TokenStream};
use quote::quote_spanned;

/// A numeric literal, possibly negated, as written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NumLit {
    pub(crate) value: LitValue,
    /// The Rust suffix (`2u8`, `2.5f32`), if any.
    pub(crate) suffix: Option<Scalar>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum LitValue {
    Int(i128),
    Float(f64),
    Bool(bool),
}

impl NumLit {
    /// Reads `expr` as a literal, looking through unary minus and parentheses.
    pub(crate) fn of(expr: &syn::Expr) -> Option<NumLit> {
        match expr {
            syn::Expr::Lit(lit) => match &lit.lit {
                syn::Lit::Int(int) => {
                    let value = int.base10_parse::<u128>().ok()?;
                    Some(NumLit {
                        value: LitValue::Int(i128::try_from(value).ok()?),
                        suffix: Scalar::from_rust_name(int.suffix()),
                    })
                }
                syn::Lit::Float(float) => {
                    let suffix = Scalar::from_rust_name(float.suffix());
                    // A `float` literal rounds from its decimal text once, to
                    // `f32` (rounding through `f64` first can land on a tie).
                    let value = match suffix {
                        Some(Scalar::F32) => f64::from(float.base10_parse::<f32>().ok()?),
                        _ => float.base10_parse::<f64>().ok()?,
                    };
                    Some(NumLit {
                        value: LitValue::Float(value),
                        suffix,
                    })
                }
                syn::Lit::Bool(b) => Some(NumLit {
                    value: LitValue::Bool(b.value),
                    suffix: None,
                }),
                _ => None,
            },
            syn::Expr::Paren(p) => NumLit::of(&p.expr),
            syn::Expr::Group(g) => NumLit::of(&g.expr),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => {
                let inner = NumLit::of(&u.expr)?;
                let value = match inner.value {
                    LitValue::Int(v) => LitValue::Int(v.checked_neg()?),
                    LitValue::Float(v) => LitValue::Float(-v),
                    LitValue::Bool(_) => return None,
                };
                Some(NumLit { value, ..inner })
            }
            _ => None,
        }
    }

    /// The C type Clang would give the literal.
    fn c_type(&self) -> &'static str {
        match (self.suffix, self.value) {
            (Some(s), _) => s.c_name(),
            (None, LitValue::Int(v)) if i32::try_from(v).is_ok() => "int",
            (None, LitValue::Int(v)) if i64::try_from(v).is_ok() => "long",
            (None, LitValue::Int(_)) => "unsigned long",
            (None, LitValue::Float(_)) => "double",
            (None, LitValue::Bool(_)) => "int",
        }
    }

    fn source_is_signed(&self) -> bool {
        match self.suffix {
            Some(s) => s.is_signed(),
            None => !matches!(self.value, LitValue::Int(v) if i64::try_from(v).is_err()),
        }
    }
}

/// Converts a literal to the element type `to`: the element's literal tokens,
/// or the message Clang warns with when the value changes, naming `shown`
/// as the conversion's target: the element type's C name, or the vector
/// type a literal splats onto (Clang's `'int' to 'uchar4'`, where for a
/// matrix it names the element type).
pub(crate) fn convert(
    lit: NumLit,
    to: Scalar,
    shown: &str,
    span: Span,
) -> Result<TokenStream, String> {
    match lit.value {
        LitValue::Bool(b) => Ok(int_literal(i128::from(b), to, span)),
        LitValue::Int(v) if to.is_integer() => {
            if !int_fits(v, lit.source_is_signed(), to) {
                let new = wrap(v, to);
                return Err(diag::literal_changes_value(
                    lit.c_type(),
                    shown,
                    &v.to_string(),
                    &new.to_string(),
                ));
            }
            Ok(int_literal(wrap(v, to), to, span))
        }
        LitValue::Int(v) => {
            let rounded = round_to_float(v, to);
            if !rounded.is_finite() || rounded as i128 != v {
                return Err(diag::literal_changes_value(
                    lit.c_type(),
                    shown,
                    &v.to_string(),
                    &format!("{rounded:.0}"),
                ));
            }
            Ok(float_literal(rounded, to, span))
        }
        LitValue::Float(f) if to.is_integer() => {
            let truncated = f.trunc() + 0.0; // -0.0 prints as 0, as in clang
            if !in_range_exact(truncated, to) {
                return Err(diag::literal_out_of_range(lit.c_type(), shown));
            }
            if truncated != f {
                let digits = if lit.suffix == Some(Scalar::F32) {
                    8
                } else {
                    16
                };
                return Err(diag::literal_changes_value(
                    lit.c_type(),
                    shown,
                    &clang_float(f, digits),
                    &format!("{truncated:.0}"),
                ));
            }
            Ok(int_literal(truncated as i128, to, span))
        }
        LitValue::Float(f) => Ok(float_literal(f, to, span)),
    }
}

/// clang's `-Wconstant-conversion` test: the value's significant bits against
/// the target's width (a negative value may meet an unsigned type of its
/// width, `u + -1`, as clang-19 accepts).
fn int_fits(v: i128, source_signed: bool, to: Scalar) -> bool {
    let width = to.bits();
    if v >= 0 {
        let active = 128 - v.leading_zeros();
        active + u32::from(source_signed && to.is_signed()) <= width
    } else {
        let min_signed_bits = 128 - (!v).leading_zeros() + 1;
        min_signed_bits <= width
    }
}

fn wrap(v: i128, to: Scalar) -> i128 {
    let bits = to.bits();
    let mask: u128 = if bits == 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    };
    let low = (v as u128) & mask;
    if to.is_signed() && bits < 128 && low >> (bits - 1) == 1 {
        (low | !mask) as i128
    } else {
        low as i128
    }
}

fn int_range(to: Scalar) -> (i128, i128) {
    let bits = to.bits();
    if to.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, ((1u128 << bits) - 1) as i128)
    }
}

/// Checks the bounds exactly (`2^63` is a double but not an `i64`).
fn in_range_exact(truncated: f64, to: Scalar) -> bool {
    let (min, max) = int_range(to);
    let as_int = truncated as i128;
    as_int >= min && as_int <= max && as_int as f64 == truncated
}

fn round_to_float(v: i128, to: Scalar) -> f64 {
    match to {
        Scalar::F32 => f64::from(v as f32),
        Scalar::F16 => {
            // Round to 11 significant bits, ties to even, as _Float16 does.
            let f = v as f64;
            if f.abs() >= 65520.0 {
                return f64::INFINITY.copysign(f);
            }
            let exp = f.abs().log2().floor().max(-14.0);
            let ulp = 2f64.powf(exp - 10.0);
            let q = f / ulp;
            let r = q.round();
            let r = if (q - q.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
                r - q.signum()
            } else {
                r
            };
            r * ulp
        }
        Scalar::BF16 => {
            // Through float, as Clang converts an integer to __bf16, then
            // to 8 significant bits, ties to even (a carry out of the
            // significand reaches the exponent, and past the largest
            // finite value, infinity).
            let bits = (v as f32).to_bits();
            let rounded = bits.wrapping_add(0x7fff + ((bits >> 16) & 1)) & 0xffff_0000;
            f64::from(f32::from_bits(rounded))
        }
        _ => v as f64,
    }
}

fn int_literal(v: i128, to: Scalar, span: Span) -> TokenStream {
    let lit = match to {
        Scalar::I8 => Literal::i8_suffixed(v as i8),
        Scalar::I16 => Literal::i16_suffixed(v as i16),
        Scalar::I32 => Literal::i32_suffixed(v as i32),
        Scalar::I64 => Literal::i64_suffixed(v as i64),
        Scalar::U8 => Literal::u8_suffixed(v as u8),
        Scalar::U16 => Literal::u16_suffixed(v as u16),
        Scalar::U32 => Literal::u32_suffixed(v as u32),
        Scalar::U64 => Literal::u64_suffixed(v as u64),
        _ => return float_literal(v as f64, to, span),
    };
    quote_spanned!(span=> #lit)
}

/// `f` as a `f64` literal, or `f64`'s infinity where a value overflowed
/// (a literal has no infinite spelling).
fn double_literal(f: f64, span: Span) -> TokenStream {
    if f.is_finite() {
        let lit = Literal::f64_suffixed(f);
        quote_spanned!(span=> #lit)
    } else if f.is_nan() {
        quote_spanned!(span=> ::core::primitive::f64::NAN)
    } else if f > 0.0 {
        quote_spanned!(span=> ::core::primitive::f64::INFINITY)
    } else {
        quote_spanned!(span=> ::core::primitive::f64::NEG_INFINITY)
    }
}

fn float_literal(f: f64, to: Scalar, span: Span) -> TokenStream {
    match to {
        Scalar::F32 => {
            let v = f as f32;
            if v.is_finite() {
                let lit = Literal::f32_suffixed(v);
                quote_spanned!(span=> #lit)
            } else if v > 0.0 {
                quote_spanned!(span=> ::core::primitive::f32::INFINITY)
            } else {
                quote_spanned!(span=> ::core::primitive::f32::NEG_INFINITY)
            }
        }
        Scalar::F64 => double_literal(f, span),
        _ => {
            let lit = double_literal(f, span);
            let ty = to.to_tokens(span);
            quote_spanned!(span=> ::matrix_core::private::convert::<#ty, _>(#lit))
        }
    }
}

/// Clang's warning for a floating literal operand of `&&` or `||`, which
/// it checks as converted to `_Bool` (although the operand splats as
/// usual): every value but `1.0` and `+0.0` changes (`0.5` to `true`,
/// `-0.0` to `false`); integer literals do not warn.
pub(crate) fn logical_operand_changes(lit: &NumLit) -> Option<String> {
    let LitValue::Float(f) = lit.value else {
        return None;
    };
    if f == 1.0 || (f == 0.0 && f.is_sign_positive()) {
        return None;
    }
    let shown = if f == 0.0 {
        "-0".to_string()
    } else {
        clang_float(
            f,
            if lit.suffix == Some(Scalar::F32) {
                8
            } else {
                16
            },
        )
    };
    let to = if f == 0.0 { "false" } else { "true" };
    Some(diag::literal_changes_value(
        lit.c_type(),
        "_Bool",
        &shown,
        to,
    ))
}

/// A floating value as clang prints it in these warnings (LLVM's
/// `APFloat::toString` with `digits` significant digits and at most three
/// padding zeros): `2.5`, `0.001`, `1.0E-5`, `1.25E-4`.
pub(crate) fn clang_float(value: f64, digits: usize) -> String {
    if value == 0.0 {
        return "0.0E+0".into();
    }
    let sci = format!("{:.*e}", digits - 1, value.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let msd: i32 = exponent.parse().unwrap_or(0);
    let mut digits_str: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    while digits_str.len() > 1 && digits_str.ends_with('0') {
        digits_str.pop();
    }
    let n = digits_str.len() as i32;
    let exp = msd - (n - 1);
    let scientific = if exp >= 0 {
        exp > 3 || n + exp > digits as i32
    } else {
        msd < 0 && -msd > 3
    };
    let mut out = String::new();
    if value < 0.0 {
        out.push('-');
    }
    if scientific {
        out.push_str(&digits_str[..1]);
        out.push('.');
        out.push_str(if n == 1 { "0" } else { &digits_str[1..] });
        out.push('E');
        out.push(if msd >= 0 { '+' } else { '-' });
        out.push_str(&msd.abs().to_string());
    } else if exp >= 0 {
        out.push_str(&digits_str);
        out.extend(std::iter::repeat_n('0', exp as usize));
    } else if msd >= 0 {
        let whole = (msd + 1) as usize;
        out.push_str(&digits_str[..whole]);
        out.push('.');
        out.push_str(&digits_str[whole..]);
    } else {
        out.push_str("0.");
        out.extend(std::iter::repeat_n('0', (-msd - 1) as usize));
        out.push_str(&digits_str);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(src: &str, to: Scalar) -> Result<String, String> {
        let expr: syn::Expr = syn::parse_str(src).unwrap();
        convert(
            NumLit::of(&expr).unwrap(),
            to,
            to.c_name(),
            Span::call_site(),
        )
        .map(|t| t.to_string().replace(' ', ""))
    }

    /// Literals whose conversion changes their value, each `(literal,
    /// target, the literal's C type, the literal as Clang prints it, its
    /// converted value)`: clang-19 warns, with these texts.
    #[rustfmt::skip]
    const CHANGES: &[(&str, Scalar, &str, &str, &str)] = &[
        ("256", Scalar::U8, "int", "256", "0"),
        ("-129", Scalar::U8, "int", "-129", "127"),
        ("128", Scalar::I8, "int", "128", "-128"),
        ("200", Scalar::I8, "int", "200", "-56"),
        ("70000", Scalar::I16, "int", "70000", "4464"),
        ("3000000000", Scalar::I32, "long", "3000000000", "-1294967296"),
        ("5000000000", Scalar::U32, "long", "5000000000", "705032704"),
        ("-2147483649", Scalar::U32, "long", "-2147483649", "2147483647"),
        ("257", Scalar::BF16, "int", "257", "256"),
        // Through float first, as clang converts: 2^24 + 1 becomes 2^24.
        ("16777217", Scalar::BF16, "int", "16777217", "16777216"),
        ("2049", Scalar::F16, "int", "2049", "2048"),
        ("2.5", Scalar::I32, "double", "2.5", "2"),
        ("2.5f32", Scalar::I32, "float", "2.5", "2"),
        ("0.1", Scalar::I32, "double", "0.1", "0"),
        ("1e-5", Scalar::I32, "double", "1.0E-5", "0"),
        ("0.0001", Scalar::I32, "double", "1.0E-4", "0"),
        ("0.001", Scalar::I32, "double", "0.001", "0"),
        ("0.000125", Scalar::I32, "double", "1.25E-4", "0"),
        ("123456.75", Scalar::I32, "double", "123456.75", "123456"),
        ("12345678.5", Scalar::I32, "double", "12345678.5", "12345678"),
        ("2147483647.5", Scalar::I32, "double", "2147483647.5", "2147483647"),
        ("0.3333333333", Scalar::I32, "double", "0.3333333333", "0"),
        ("-0.5", Scalar::U32, "double", "-0.5", "0"),
        ("1.5", Scalar::I64, "double", "1.5", "1"),
        ("16777217", Scalar::F32, "int", "16777217", "16777216"),
        ("123456789123", Scalar::F32, "long", "123456789123", "123456790528"),
        ("9007199254740993", Scalar::F64, "long", "9007199254740993", "9007199254740992"),
    ];

    #[test]
    fn a_literal_that_changes_value_is_diagnosed_as_clang_does() {
        for &(src, to, from, shown, value) in CHANGES {
            let warning = diag::literal_changes_value(from, to.c_name(), shown, value);
            assert_eq!(conv(src, to), Err(warning), "{src} as {to:?}");
        }
    }

    // Every expected text below is clang-19's output for the same C literal.
    #[test]
    fn integer_targets_match_clang() {
        assert_eq!(conv("-1", Scalar::U8), Ok("255u8".into()));
        assert_eq!(conv("-128", Scalar::U8), Ok("128u8".into()));
        assert_eq!(conv("255", Scalar::U8), Ok("255u8".into()));
        assert_eq!(conv("-2147483648", Scalar::U32), Ok("2147483648u32".into()));
        assert_eq!(conv("4294967295u32", Scalar::I32), Ok("-1i32".into()));
        assert_eq!(conv("200u32", Scalar::I8), Ok("-56i8".into()));
    }

    /// clang-19's warnings for `v || X` (`-fsyntax-only`).
    #[test]
    fn logical_operands_match_clang() {
        let warn = |src: &str| {
            let expr: syn::Expr = syn::parse_str(src).unwrap();
            logical_operand_changes(&NumLit::of(&expr).unwrap())
        };
        let e = |f: &str, a: &str, b: &str| Some(diag::literal_changes_value(f, "_Bool", a, b));
        assert_eq!(warn("0.5"), e("double", "0.5", "true"));
        assert_eq!(warn("-1.0"), e("double", "-1", "true"));
        assert_eq!(warn("2.0"), e("double", "2", "true"));
        assert_eq!(warn("-0.0"), e("double", "-0", "false"));
        assert_eq!(warn("1e10"), e("double", "1.0E+10", "true"));
        assert_eq!(warn("1.0"), None);
        assert_eq!(warn("0.0"), None);
        assert_eq!(warn("1.0f32"), None);
        assert_eq!(warn("3"), None);
    }

    #[test]
    fn integers_to_bf16_match_clang() {
        assert!(conv("256", Scalar::BF16).is_ok());
        assert!(conv("-384", Scalar::BF16).is_ok());
    }

    #[test]
    fn float_literals_to_integers_match_clang() {
        let range = |f: &str, t: &str| Err(diag::literal_out_of_range(f, t));
        assert_eq!(conv("1e10", Scalar::I32), range("double", "int"));
        assert_eq!(conv("-1.0", Scalar::U32), range("double", "unsigned int"));
        assert_eq!(conv("255.0", Scalar::I8), range("double", "signed char"));
        assert_eq!(conv("1e19", Scalar::I64), range("double", "long"));
        assert_eq!(conv("2e9", Scalar::I32), Ok("2000000000i32".into()));
        assert_eq!(conv("2.0", Scalar::I32), Ok("2i32".into()));
    }

    #[test]
    fn a_float_literal_keeps_its_float_value() {
        // clang-19: (double)2.7f == 2.700000047683716 (oracle finding F6).
        assert_eq!(
            conv("2.7f32", Scalar::F64),
            Ok(format!("{}f64", f64::from(2.7f32)))
        );
        assert_eq!(
            conv("0.1f32", Scalar::F64),
            Ok(format!("{}f64", f64::from(0.1f32)))
        );
        assert_eq!(conv("2.7", Scalar::F64), Ok("2.7f64".into()));
        // Just above the tie between 1 and 1 + 2^-23: rounds up, as clang's
        // 1.0000000596046448f does; through f64 it would land on the tie.
        assert_eq!(
            conv("1.0000000596046448f32", Scalar::F64),
            Ok(format!("{}f64", 1.0f64 + 2f64.powi(-23)))
        );
    }

    #[test]
    fn integers_to_floats_match_clang() {
        assert_eq!(conv("16777216", Scalar::F32), Ok("16777216f32".into()));
        // Float rounding is not diagnosed: 1e40 becomes +inf, 0.1 rounds.
        assert!(conv("1e40", Scalar::F32).is_ok());
        assert!(conv("0.1", Scalar::F32).is_ok());
    }
}
