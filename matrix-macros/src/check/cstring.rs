//! C's `<string.h>` copies inside kernels: `memcpy(dst, src, bytes)` and
//! `memset(dst, value, bytes)`, on arrays and pointers (slices here) and
//! on matrices through their address (`memcpy(&m, src, sizeof m)`, the
//! column-major storage Clang's bytes are). They run as
//! `matrix_core::private::memcpy`/`memset`, which count elements from the
//! bytes and panic, with the numbers, where C would read or write past an
//! end. `memmove` is not among them: its overlapping source and
//! destination are one array borrowed twice, which Rust refuses.

use super::expr::{Checker, as_usize, converted, decayed, strip};
use crate::diag::{self, Loc};
use crate::ir::{Expr, ExprKind};
use crate::types::{Scalar, SeqKind, Ty};

/// The functions, and their arity.
const FUNCTIONS: &[(&str, usize)] = &[("memcpy", 3), ("memset", 3)];

/// Whether `name` is one of the functions.
pub(super) fn is_string_function(name: &str) -> bool {
    FUNCTIONS.iter().any(|(n, _)| *n == name)
}

impl Checker<'_> {
    /// `memcpy(dst, src, bytes)` or `memset(dst, value, bytes)`.
    pub(super) fn string_call(&mut self, name: &str, c: &syn::ExprCall, loc: Loc) -> Expr {
        let have = c.args.len();
        if have < 3 {
            return self.error(loc, diag::too_few_arguments("3", have));
        }
        if have > 3 {
            let extra = Loc::of(&c.args[3]).to(Loc::of(&c.args[have - 1]));
            return self.error(extra, diag::too_many_arguments("3", have));
        }
        let Some(dst) = self.memory(&c.args[0], true) else {
            return self.poisoned(loc);
        };
        let second = if name == "memcpy" {
            self.memory(&c.args[1], false)
        } else {
            self.byte_value(&c.args[1])
        };
        let Some(second) = second else {
            return self.poisoned(loc);
        };
        let bytes = self.expr(&c.args[2]);
        match bytes.ty {
            Ty::Error => return self.poisoned(loc),
            ref t if !t.is_integer_like() => {
                let message = diag::passing(t, &Ty::Scalar(Scalar::Usize));
                return self.error(bytes.loc, message);
            }
            _ => {}
        }
        let path = syn::Ident::new(name, loc.start);
        let func = Expr::new(
            ExprKind::Path(quote::quote!(::matrix_core::private::#path)),
            Ty::unknown(),
            loc,
        );
        let kind = ExprKind::Call {
            func: Box::new(func),
            // The size first: `sizeof m` is read before `m` is borrowed.
            args: vec![as_usize(bytes), dst, second],
        };
        Expr::new(kind, Ty::Unit, loc)
    }

    /// A pointer argument as the slice of the memory it points at: an
    /// array (decayed), a pointer (a slice already), a matrix's address
    /// (its storage); `writes` for the destination, which must be
    /// writable.
    fn memory(&mut self, src: &syn::Expr, writes: bool) -> Option<Expr> {
        // C's `&x`: the memory of `x` itself.
        let written = match strip(src).0 {
            syn::Expr::Reference(r) => &*r.expr,
            other => other,
        };
        let place = self.expr(written);
        let (loc, ty) = (Loc::of(src), place.ty.clone());
        match &place.ty {
            Ty::Error => None,
            Ty::Matrix(_) if writes && !place.is_place() => {
                self.error(loc, diag::NOT_ASSIGNABLE);
                None
            }
            Ty::Matrix(_) => {
                let method = if writes { "as_mut_slice" } else { "as_slice" };
                let kind = ExprKind::MethodCall {
                    receiver: Box::new(place),
                    method: syn::Ident::new(method, loc.start),
                    turbofish: None,
                    args: Vec::new(),
                };
                Some(Expr::new(kind, Ty::unknown(), loc))
            }
            Ty::Seq {
                kind: SeqKind::Array | SeqKind::Vec,
                ..
            } => Some(decayed(place, writes)),
            Ty::Seq {
                kind: SeqKind::Slice,
                mutable,
                ..
            } => {
                if writes && !mutable {
                    self.error(loc, diag::discards_qualifiers(&ty));
                    return None;
                }
                Some(place)
            }
            other => {
                let to = if writes { "void *" } else { "const void *" };
                self.error(loc, diag::passing_to_pointer(other, to));
                None
            }
        }
    }

    /// `memset`'s value, an integer C converts to `unsigned char` (as
    /// `int` here; the runtime takes its low byte).
    fn byte_value(&mut self, src: &syn::Expr) -> Option<Expr> {
        let value = self.expr(src);
        match &value.ty {
            Ty::Error => None,
            Ty::IntLiteral => self.element_operand(value, src, Scalar::I32),
            Ty::Scalar(Scalar::I32) => Some(value),
            Ty::Scalar(s) if s.is_integer() || *s == Scalar::Bool => {
                let loc = value.loc;
                Some(converted(value, Scalar::I32, loc))
            }
            other => {
                let message = diag::passing(other, &Ty::Scalar(Scalar::I32));
                self.error(value.loc, message);
                None
            }
        }
    }
}
