//! C's `<math.h>` functions inside kernels: `sqrtf(x)`, `atan2(y, x)`, ...
//!
//! Each is Rust's method of the same operation on `f32` or `f64` (Rust's
//! `sqrt`, `floor`, `ceil`, `round`, `abs`, `min`, `max` are exact, as C's
//! are; the others call the platform's libm, glibc's on Linux, as C does).
//! Arguments convert to the parameter type as C converts them.

use crate::types::Scalar;

/// One `<math.h>` function.
pub(super) struct CMath {
    /// Rust's inherent method of `f32` / `f64` that computes it.
    pub(super) method: &'static str,
    /// The type of every parameter and of the result.
    pub(super) ty: Scalar,
    pub(super) arity: usize,
}

/// `(C name of the float form, method, arity)`; the double form is the
/// name without its `f`.
const FUNCTIONS: &[(&str, &str, usize)] = &[
    ("sqrtf", "sqrt", 1),
    ("sinf", "sin", 1),
    ("cosf", "cos", 1),
    ("tanf", "tan", 1),
    ("asinf", "asin", 1),
    ("acosf", "acos", 1),
    ("atanf", "atan", 1),
    ("atan2f", "atan2", 2),
    ("expf", "exp", 1),
    ("logf", "ln", 1),
    ("powf", "powf", 2),
    ("fabsf", "abs", 1),
    ("fminf", "min", 2),
    ("fmaxf", "max", 2),
    ("floorf", "floor", 1),
    ("ceilf", "ceil", 1),
    ("roundf", "round", 1),
];

/// The `<math.h>` function called `name`, if there is one.
pub(super) fn lookup(name: &str) -> Option<CMath> {
    FUNCTIONS.iter().find_map(|&(float_name, method, arity)| {
        let ty = if name == float_name {
            Scalar::F32
        } else if Some(name) == float_name.strip_suffix('f') {
            Scalar::F64
        } else {
            return None;
        };
        Some(CMath { method, ty, arity })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_of_each_function() {
        let sqrtf = lookup("sqrtf").unwrap();
        assert_eq!(
            (sqrtf.method, sqrtf.ty, sqrtf.arity),
            ("sqrt", Scalar::F32, 1)
        );
        let atan2 = lookup("atan2").unwrap();
        assert_eq!(
            (atan2.method, atan2.ty, atan2.arity),
            ("atan2", Scalar::F64, 2)
        );
        assert_eq!(lookup("pow").unwrap().method, "powf");
        assert!(lookup("sqrtff").is_none());
        assert!(lookup("printf").is_none());
    }
}
