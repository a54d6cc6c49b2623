//! C's conditional operator `cond ? a : b`, which `parse` rewrites to a
//! marked `if` (`parse::cternary`), typed by Clang's rules rather than an
//! `if`'s:
//!
//! * a scalar condition of a numeric type is compared with zero, as C
//!   reads it (`n ? a : b` with an `int` `n`); a matrix is no condition
//!   (`used type 'm4x4_t' where arithmetic or pointer type is required`);
//! * the operands have one type: a literal meeting a float converts to it
//!   (`x > 0 ? x : 0`), two matrices must be of one type and a matrix
//!   meets no scalar (`incompatible operand types`), a scalar splats onto
//!   the other operand's vector type as in an operator;
//! * an integer vector condition chooses per lane, by the sign bit of
//!   each lane (what clang-19 computes in C, OpenCL's rule): the operands
//!   are vectors (or scalars splatted) of as many lanes, each lane as wide
//!   as the condition's, and both are evaluated. A float vector is no
//!   condition.
//!
//! A scalar condition evaluates only the operand it chooses, as C does.

use super::expr::{Checker, compatible};
use super::vector::{bitcast, same_bytes, splat, splats};
use crate::diag::{self, Loc};
use crate::ir::{Block, Expr, ExprKind, Stmt};
use crate::types::{Scalar, Ty, VecTy};

/// The one expression of an operand's block, which `parse::cternary`
/// makes.
fn operand(block: &syn::Block) -> Option<&syn::Expr> {
    match block.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => Some(e),
        _ => None,
    }
}

/// A block of one expression, its value.
fn block_of(e: Expr) -> Block {
    Block {
        stmts: vec![Stmt::Expr {
            expr: e,
            semi: false,
        }],
    }
}

impl Checker<'_> {
    /// `cond ? then : other` (see the module); `i` is the marked `if`.
    /// `None` when its operands are not one expression each (a macro
    /// statement), which is then typed as an `if`.
    pub(super) fn conditional(
        &mut self,
        i: &syn::ExprIf,
        cond_src: &syn::Expr,
        loc: Loc,
    ) -> Option<Expr> {
        let then_src = operand(&i.then_branch)?;
        let else_src = match i.else_branch.as_ref().map(|(_, e)| &**e) {
            Some(syn::Expr::Block(b)) => operand(&b.block)?,
            _ => return None,
        };
        let cond = self.expr(cond_src);
        let then = self.expr(then_src);
        let other = self.expr(else_src);
        if [&cond, &then, &other].iter().any(|e| e.ty.is_error()) {
            return Some(self.poisoned(loc));
        }
        Some(match cond.ty.clone() {
            Ty::Matrix(_) => self.error(cond.loc, diag::not_arithmetic_or_pointer(&cond.ty)),
            Ty::Vector(c) if c.elem.is_float() => {
                self.error(cond.loc, diag::float_vector_condition(&cond.ty))
            }
            Ty::Vector(c) => self.select(cond, c, (then, then_src), (other, else_src), loc),
            _ => self.choice(cond, (then, then_src), (other, else_src), loc),
        })
    }

    /// The conditional on a scalar condition: an `if` of its operands,
    /// brought to one type.
    fn choice(
        &mut self,
        cond: Expr,
        then: (Expr, &syn::Expr),
        other: (Expr, &syn::Expr),
        loc: Loc,
    ) -> Expr {
        let vectors = [&then.0.ty, &other.0.ty]
            .into_iter()
            .any(|t| matches!(t, Ty::Vector(_)));
        let (then, other, ty) = if vectors {
            match self.vector_operands(then, other, loc) {
                Some((then, other, v)) => (then, other, Ty::Vector(v)),
                None => return self.poisoned(loc),
            }
        } else {
            match self.operands_of_choice(then, other) {
                Some(operands) => operands,
                None => return self.poisoned(loc),
            }
        };
        if (then.ty.is_matrix() || other.ty.is_matrix()) && !compatible(&then.ty, &other.ty) {
            return self.error(loc, diag::incompatible_operand_types(&then.ty, &other.ty));
        }
        let other_loc = other.loc;
        let otherwise = Expr::new(
            ExprKind::Block {
                label: None,
                block: block_of(other),
                unsafety: false,
            },
            ty.clone(),
            other_loc,
        );
        let kind = ExprKind::If {
            cond: Box::new(self.truth(cond)),
            then: block_of(then),
            otherwise: Some(Box::new(otherwise)),
        };
        Expr::new(kind, ty, loc)
    }

    /// Two operands that are not vectors, brought to one type as an
    /// operator's are ([`Checker::scalar_operands`]: `x > 0 ? x : 0`, two
    /// scalars of different types), and the result's type. Two matrices
    /// are checked by the caller.
    fn operands_of_choice(
        &mut self,
        then: (Expr, &syn::Expr),
        other: (Expr, &syn::Expr),
    ) -> Option<(Expr, Expr, Ty)> {
        let plus = syn::BinOp::Add(syn::Token![+](then.0.loc.start));
        let (then, other) = self.scalar_operands(&plus, then, other)?;
        let ty = match (&then.ty, &other.ty) {
            (Ty::IntLiteral | Ty::FloatLiteral, t) => t.clone(),
            (t, _) => t.clone(),
        };
        Some((then, other, ty))
    }

    /// The conditional on an integer vector condition `c`: lane by lane.
    fn select(
        &mut self,
        cond: Expr,
        c: VecTy,
        then: (Expr, &syn::Expr),
        other: (Expr, &syn::Expr),
        loc: Loc,
    ) -> Expr {
        let scalars = !matches!(then.0.ty, Ty::Vector(_) | Ty::Matrix(_))
            && !matches!(other.0.ty, Ty::Vector(_) | Ty::Matrix(_));
        let operands = if scalars {
            self.splat_both(&c, then, other)
        } else {
            self.vector_operands(then, other, loc)
        };
        let Some((then, other, v)) = operands else {
            return self.poisoned(loc);
        };
        let (cond_ty, result) = (Ty::Vector(c.clone()), Ty::Vector(v.clone()));
        if v.len != c.len {
            return self.error(loc, diag::vector_condition_lanes(&cond_ty, &result));
        }
        if v.elem.bytes() != c.elem.bytes() {
            return self.error(loc, diag::vector_condition_widths(&cond_ty, &result));
        }
        let kind = ExprKind::VectorSelect {
            mask: Box::new(cond),
            then: Box::new(then),
            otherwise: Box::new(other),
            to: v.clone(),
        };
        Expr::new(kind, result, loc)
    }

    /// Two scalar operands of a vector condition `c`, splatted onto vectors
    /// of `c`'s lanes: of a float operand's type, else of the other
    /// operand's (a literal: `int`, or `double`).
    fn splat_both(
        &mut self,
        c: &VecTy,
        (then, then_src): (Expr, &syn::Expr),
        (other, else_src): (Expr, &syn::Expr),
    ) -> Option<(Expr, Expr, VecTy)> {
        let of = |t: &Ty| match t {
            Ty::Scalar(s) if s.is_element() => Some(*s),
            Ty::FloatLiteral => Some(Scalar::F64),
            Ty::IntLiteral => Some(Scalar::I32),
            _ => None,
        };
        let elem = match (of(&then.ty), of(&other.ty)) {
            (Some(a), Some(b)) if b.is_float() && !a.is_float() => b,
            (Some(a), _) => a,
            (None, Some(b)) => b,
            (None, None) => return None,
        };
        let v = VecTy {
            elem,
            len: c.len,
            name: None,
        };
        let (then_loc, other_loc) = (then.loc, other.loc);
        let then = self.splat_operand(then, then_src, &v)?;
        let other = self.splat_operand(other, else_src, &v)?;
        Some((splat(then, &v, then_loc), splat(other, &v, other_loc), v))
    }

    /// Two operands of which one is a vector, brought to one vector type
    /// as an operator's are: a scalar splats (a float only onto a float
    /// vector), a vector of another type of as many bytes is read as the
    /// first operand's type; anything else is Clang's error.
    fn vector_operands(
        &mut self,
        (then, then_src): (Expr, &syn::Expr),
        (other, else_src): (Expr, &syn::Expr),
        loc: Loc,
    ) -> Option<(Expr, Expr, VecTy)> {
        let differ = diag::vector_sizes_differ(&then.ty, &other.ty);
        match (then.ty.clone(), other.ty.clone()) {
            (Ty::Vector(l), Ty::Vector(r)) if l.same_type(&r) => {
                let name = (l.name == r.name).then(|| l.name.clone()).flatten();
                Some((then, other, VecTy { name, ..l }))
            }
            (Ty::Vector(l), Ty::Vector(r)) if same_bytes(&l, &r) => {
                let other = bitcast(other, &l, loc);
                Some((then, other, l))
            }
            (Ty::Vector(_), Ty::Vector(_)) => {
                self.error(loc, differ);
                None
            }
            (Ty::Vector(_), Ty::Matrix(_)) | (Ty::Matrix(_), Ty::Vector(_)) => {
                self.error(loc, diag::vector_and_non_scalar(&then.ty, &other.ty));
                None
            }
            (Ty::Vector(v), s) if splats(&s, v.elem) => {
                let at = other.loc;
                let other = self.splat_operand(other, else_src, &v)?;
                Some((then, splat(other, &v, at), v))
            }
            (s, Ty::Vector(v)) if splats(&s, v.elem) => {
                let at = then.loc;
                let then = self.splat_operand(then, then_src, &v)?;
                Some((splat(then, &v, at), other, v))
            }
            _ => {
                self.error(loc, differ);
                None
            }
        }
    }
}
