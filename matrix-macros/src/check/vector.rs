//! Typing `ext_vector_type` vectors in kernel bodies: components
//! (`v.x`, `v.zyx`, `v.s3`, `v.hi`), element-wise arithmetic with Clang's
//! scalar splat, comparisons giving Clang's mask vectors, and matrix-vector
//! products (our extension).

use super::expr::{Checker, unseen};
use super::literal::NumLit;
use crate::consteval;
use crate::diag::{self, Loc};
use crate::ir::{ArithOp, Expr, ExprKind};
use crate::types::{Dim, MatTy, Scalar, SeqKind, Ty, VecTy};

/// The lanes a component name selects from a vector of `len` elements,
/// or Clang's error for it.
fn components(name: &str, ty: &VecTy) -> Result<Vec<usize>, String> {
    let len = ty.len as usize;
    let exceeds = || diag::vector_component_exceeds(&Ty::Vector(ty.clone()));
    // Clang's halves of a vector of odd length are those of the next even
    // length: `.lo` and `.even` of a `float3` are lanes 0, 1 and 0, 2.
    let n = len.div_ceil(2);
    let half: Option<Vec<usize>> = match name {
        "lo" => Some((0..n).collect()),
        "hi" => Some((n..2 * n).collect()),
        "even" => Some((0..n).map(|i| 2 * i).collect()),
        "odd" => Some((0..n).map(|i| 2 * i + 1).collect()),
        _ => None,
    };
    if let Some(half) = half {
        // `.hi` and `.odd` of an odd length include the padding lane,
        // which a value cannot read.
        if half.iter().any(|&l| l >= len) {
            return Err(format!(
                "'{name}' of a vector of {len} elements reads its padding: `.{name}` needs an even number of elements"
            ));
        }
        return Ok(half);
    }
    let (lanes, rest, bare) = lanes_of(name);
    if let Some(c) = rest.chars().next() {
        return Err(diag::illegal_vector_component(&c.to_string()));
    }
    if bare || lanes.iter().any(|&l| l >= len) {
        return Err(exceeds());
    }
    if lanes.len() > 16 {
        return Err(diag::vector_too_long(lanes.len() as i128));
    }
    Ok(lanes)
}

/// The lanes a component name reads, as Clang's parser of them finds
/// them; the rest of the name from the first character it stops at; and
/// whether the lanes are bare hex digits. After `s` or `S` (and something
/// after it) the lanes are hex digits; from a point accessor, point
/// accessors of its set (`xyzw` or `rgba`); from anything else, bare hex
/// digits (`v.c`, `v.e1`), which Clang then finds outside every vector.
fn lanes_of(name: &str) -> (Vec<usize>, &str, bool) {
    let hex_digit = |c: char| c.to_digit(16).map(|d| d as usize);
    let (digits, lane, bare): (&str, &dyn Fn(char) -> Option<usize>, bool) =
        match name.chars().next() {
            Some('s' | 'S') if name.len() > 1 => (&name[1..], &hex_digit, false),
            Some('x' | 'y' | 'z' | 'w') => (name, &|c| "xyzw".find(c), false),
            Some('r' | 'g' | 'b' | 'a') => (name, &|c| "rgba".find(c), false),
            _ => (name, &hex_digit, true),
        };
    let mut lanes = Vec::new();
    for (at, c) in digits.char_indices() {
        match lane(c) {
            Some(l) => lanes.push(l),
            None => return (lanes, &digits[at..], bare),
        }
    }
    (lanes, "", bare)
}

/// The mask element of a comparison of `elem` vectors: the signed integer
/// of its width, as Clang gives.
fn mask_element(elem: Scalar) -> Scalar {
    match elem {
        Scalar::I8 | Scalar::U8 => Scalar::I8,
        Scalar::I16 | Scalar::U16 | Scalar::F16 | Scalar::BF16 => Scalar::I16,
        Scalar::I32 | Scalar::U32 | Scalar::F32 => Scalar::I32,
        _ => Scalar::I64,
    }
}

/// Whether a scalar of type `s` splats onto a vector of `elem`: Clang
/// converts any integer, and a float only to a float vector.
pub(super) fn splats(s: &Ty, elem: Scalar) -> bool {
    match s {
        Ty::Scalar(s) => !s.is_float() || elem.is_float(),
        Ty::FloatLiteral => elem.is_float(),
        Ty::IntLiteral | Ty::Other(None) => true,
        _ => false,
    }
}

impl Checker<'_> {
    /// `v.NAME` on a vector: one lane (a place), or a new vector of the
    /// selected lanes.
    pub(super) fn vector_component(
        &mut self,
        base: Expr,
        name: &str,
        ty: &VecTy,
        loc: Loc,
    ) -> Expr {
        let lanes = match components(name, ty) {
            Ok(lanes) => lanes,
            Err(message) => return self.error(loc, message),
        };
        if let [lane] = lanes[..] {
            let index = Expr::usize_const(lane as u64, loc);
            let kind = ExprKind::Index {
                base: Box::new(base),
                index: Box::new(index),
            };
            return Expr::new(kind, Ty::Scalar(ty.elem), loc);
        }
        // Named as Clang names it: by the first typedef of its type.
        let to = VecTy {
            elem: ty.elem,
            len: lanes.len() as u64,
            name: self.env.vector_name(ty.elem, lanes.len() as u64),
        };
        let kind = ExprKind::Swizzle {
            base: Box::new(base),
            lanes,
            to: to.clone(),
        };
        Expr::new(kind, Ty::Vector(to), loc)
    }

    /// `v[i]`: a lane, as a value and a place. A constant index is checked
    /// here (Clang accepts any), a dynamic one when it runs.
    pub(super) fn vector_index(
        &mut self,
        base: Expr,
        index: &syn::Expr,
        ty: &VecTy,
        loc: Loc,
    ) -> Expr {
        let at = Loc::of(index);
        let index = match consteval::eval(index, &self.env.consts) {
            Some(i) if (0..i128::from(ty.len)).contains(&i) => Expr::usize_const(i as u64, at),
            Some(i) => return self.error(at, diag::vector_index_out_of_range(i, ty.len)),
            None => {
                let i = self.expr(index);
                if i.ty.is_error() {
                    return self.poisoned(loc);
                }
                if !i.ty.is_integer_like() {
                    return self.error(at, diag::VECTOR_INDEX_NOT_INTEGER);
                }
                let checked =
                    quote::quote_spanned!(at.start=> ::matrix_core::private::vector_index);
                let func = Expr::new(ExprKind::Path(checked), Ty::unknown(), at);
                let len = Expr::usize_const(ty.len, at);
                let kind = ExprKind::Call {
                    func: Box::new(func),
                    args: vec![i, len],
                };
                Expr::new(kind, Ty::Scalar(Scalar::Usize), at)
            }
        };
        let kind = ExprKind::Index {
            base: Box::new(base),
            index: Box::new(index),
        };
        Expr::new(kind, Ty::Scalar(ty.elem), loc)
    }

    /// `place.NAME = value` for a swizzle of several lanes: each lane
    /// assigned, none twice.
    pub(super) fn swizzle_assign(
        &mut self,
        lhs: Expr,
        rhs: Expr,
        rsrc: &syn::Expr,
        loc: Loc,
    ) -> Expr {
        let ExprKind::Swizzle { base, lanes, to } = lhs.kind else {
            unreachable!("called on a swizzle")
        };
        let mut seen = lanes.clone();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() != lanes.len() {
            return self.error(lhs.loc, diag::DUPLICATE_COMPONENTS);
        }
        if !base.is_place() {
            return self.error(lhs.loc, diag::NOT_ASSIGNABLE);
        }
        let value = match &rhs.ty {
            Ty::Vector(v) if v.same_type(&to) => rhs,
            s if splats(s, to.elem) => {
                let Some(scalar) = self.element_operand(rhs, rsrc, to.elem) else {
                    return self.poisoned(loc);
                };
                splat(scalar, &to, loc)
            }
            _ => return self.error(loc, diag::assigning(&Ty::Vector(to), &rhs.ty)),
        };
        let kind = ExprKind::SwizzleAssign {
            place: base,
            lanes,
            value: Box::new(value),
        };
        Expr::new(kind, Ty::Unit, loc)
    }

    /// `lhs op rhs` where a side is a vector: element-wise arithmetic or a
    /// comparison (a mask vector), a scalar splat onto the vector's type, or
    /// a matrix times a vector.
    pub(super) fn vector_binary(
        &mut self,
        op: &syn::BinOp,
        lhs: Expr,
        rhs: Expr,
        lsrc: &syn::Expr,
        rsrc: &syn::Expr,
        loc: Loc,
    ) -> Expr {
        use syn::BinOp as B;
        let comparison = matches!(
            op,
            B::Lt(_) | B::Le(_) | B::Gt(_) | B::Ge(_) | B::Eq(_) | B::Ne(_)
        );
        let arithmetic = matches!(op, B::Add(_) | B::Sub(_) | B::Mul(_) | B::Div(_));
        // `&&` and `||` compare each lane with zero, and give a mask as a
        // comparison does (Clang's vector logical operators).
        let logical = matches!(op, B::And(_) | B::Or(_));
        // A value whose type the block cannot see (a field of a struct
        // declared elsewhere, a method's result) is never guessed to be a
        // scalar: rustc decides, as for a matrix (`Checker::mixed`).
        if let Some(arith) = ArithOp::of(op)
            && (unseen(&lhs, lsrc) || unseen(&rhs, rsrc))
        {
            return self.mixed(arith, lhs, rhs, loc);
        }
        if let B::Mul(_) = op
            && let Some(product) = self.matrix_vector(&lhs, &rhs, loc)
        {
            return match product {
                Ok(ty) => Expr::new(
                    ExprKind::Binary {
                        op: *op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    ty,
                    loc,
                ),
                Err(message) => self.error(loc, message),
            };
        }
        let integer = |t: &Ty| match t {
            Ty::Vector(v) => v.elem.is_integer(),
            other => other.is_integer_like(),
        };
        // A shift names its first operand that is not an integer (Clang's
        // check of vector shifts).
        if let B::Shl(_) | B::Shr(_) = op
            && let Some(t) = [&lhs.ty, &rhs.ty].into_iter().find(|t| !integer(t))
        {
            return self.error(loc, diag::integer_required(t));
        }
        // A vector meets a matrix only in a product (beyond Clang).
        if (comparison || arithmetic || logical)
            && [&lhs.ty, &rhs.ty]
                .into_iter()
                .any(|t| matches!(t, Ty::Matrix(_)))
        {
            return self.error(loc, diag::vector_and_non_scalar(&lhs.ty, &rhs.ty));
        }
        // `%`, `&`, `|`, `^`: integer vectors only, as in Clang.
        let integer_only = matches!(
            op,
            B::Rem(_) | B::BitAnd(_) | B::BitOr(_) | B::BitXor(_) | B::Shl(_) | B::Shr(_)
        );
        let integer_operands = [&lhs.ty, &rhs.ty].into_iter().all(integer);
        let allowed = comparison || arithmetic || logical || (integer_only && integer_operands);
        if !allowed {
            return self.error(loc, diag::invalid_operands(&lhs.ty, &rhs.ty));
        }
        if logical {
            for (operand, src) in [(&lhs, lsrc), (&rhs, rsrc)] {
                if let Some(message) =
                    NumLit::of(src).and_then(|lit| super::literal::logical_operand_changes(&lit))
                {
                    return self.error(operand.loc, message);
                }
            }
        }
        let (lhs, rhs, vt) = match (lhs.ty.clone(), rhs.ty.clone()) {
            (Ty::Vector(l), Ty::Vector(r)) if l.same_type(&r) => {
                // Clang's common sugar: one typedef on both sides keeps it.
                let name = (l.name == r.name).then(|| l.name.clone()).flatten();
                (lhs, rhs, VecTy { name, ..l })
            }
            (Ty::Vector(l), Ty::Vector(r)) => {
                // Two types: the right operand's bytes read as the left's
                // type, which is the result's.
                if let Err(message) = mixed_vectors(op, &l, &r) {
                    return self.error(loc, message);
                }
                (lhs, bitcast(rhs, &l, loc), l)
            }
            (Ty::Vector(v), s) => {
                if !splats(&s, v.elem) {
                    return self.error(loc, diag::vector_sizes_differ(&lhs.ty, &rhs.ty));
                }
                let Some(scalar) = self.splat_operand(rhs, rsrc, &v) else {
                    return self.poisoned(loc);
                };
                (lhs, splat(scalar, &v, loc), v)
            }
            (s, Ty::Vector(v)) => {
                if !splats(&s, v.elem) {
                    return self.error(loc, diag::vector_sizes_differ(&lhs.ty, &rhs.ty));
                }
                let Some(scalar) = self.splat_operand(lhs, lsrc, &v) else {
                    return self.poisoned(loc);
                };
                (splat(scalar, &v, loc), rhs, v)
            }
            _ => unreachable!("one side is a vector"),
        };
        if comparison || logical {
            let mask = VecTy {
                elem: mask_element(vt.elem),
                len: vt.len,
                name: None,
            };
            let kind = ExprKind::VectorCompare {
                op: *op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
                mask: mask.clone(),
            };
            return Expr::new(kind, Ty::Vector(mask), loc);
        }
        let kind = ExprKind::Binary {
            op: *op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        };
        Expr::new(kind, Ty::Vector(vt), loc)
    }

    /// The type of `m * v` (`v` a column) or `v * m` (`v` a row), Clang's
    /// operand error when the lengths do not fit, `None` when the operands
    /// are not a matrix and a vector.
    fn matrix_vector(&self, lhs: &Expr, rhs: &Expr, _loc: Loc) -> Option<Result<Ty, String>> {
        let invalid = || diag::invalid_operands(&lhs.ty, &rhs.ty);
        // The vector's length is `inner`; the result's, `outer`.
        let product = |m: &MatTy, v: &VecTy, inner: &Dim, outer: &Dim| match outer.known() {
            Some(len) if m.elem == v.elem && inner.known() == Some(v.len) && len <= 16 => {
                Ok(Ty::Vector(VecTy {
                    elem: m.elem,
                    len,
                    name: None,
                }))
            }
            _ => Err(invalid()),
        };
        match (&lhs.ty, &rhs.ty) {
            (Ty::Matrix(m), Ty::Vector(v)) => Some(product(m, v, &m.cols, &m.rows)),
            (Ty::Vector(v), Ty::Matrix(m)) => Some(product(m, v, &m.rows, &m.cols)),
            _ => None,
        }
    }
}

impl Checker<'_> {
    /// `(NAME){a, b, ...}` (rewritten to `__matrix_literal!(NAME; a, b, ...)`
    /// before parsing): each scalar fills one lane, the lanes after them
    /// are zero. As in clang-19's C, a vector element is refused unless it
    /// is the literal's only element and of the literal's own type (C has
    /// no nesting of smaller vectors; OpenCL has).
    pub(super) fn compound_literal(&mut self, mac: &syn::Macro, loc: Loc) -> Expr {
        use syn::parse::Parser;
        let parsed = (|input: syn::parse::ParseStream| {
            let name: syn::Ident = input.parse()?;
            input.parse::<syn::Token![;]>()?;
            let elements =
                syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated(input)?;
            Ok((name, elements))
        })
        .parse2(mac.tokens.clone());
        let Ok((name, elements)) = parsed else {
            return self.error(
                loc,
                "expected the elements of a compound literal: `(NAME){a, b}`",
            );
        };
        let to = match self.env.typedefs.get(&name.to_string()) {
            Some(Some(super::Resolved::Vector(v))) => v.clone(),
            Some(Some(other)) => {
                return self.error(
                    Loc::of(&name),
                    diag::illegal_initializer_type(&other.ty().to_string()),
                );
            }
            Some(None) => return self.poisoned(loc),
            None => {
                return self.error(Loc::of(&name), diag::unknown_type_name(&name.to_string()));
            }
        };
        let whole = Ty::Vector(to.clone());
        let mut parts = Vec::new();
        for (i, src) in elements.iter().enumerate() {
            let part = self.expr(src);
            if part.ty.is_error() {
                return self.poisoned(loc);
            }
            let part = match &part.ty {
                Ty::Vector(v) if i == 0 && v.same_type(&to) => part,
                Ty::Vector(_) | Ty::Matrix(_) if i == 0 => {
                    return self.error(part.loc, diag::initializing_incompatible(&whole, &part.ty));
                }
                Ty::Vector(_) | Ty::Matrix(_) => {
                    let lane = Ty::Scalar(to.elem);
                    return self.error(part.loc, diag::initializing_incompatible(&lane, &part.ty));
                }
                _ => {
                    let full = matches!(
                        parts.first(),
                        Some(Expr {
                            ty: Ty::Vector(_),
                            ..
                        })
                    );
                    if full || i as u64 >= to.len {
                        return self.error(part.loc, diag::EXCESS_VECTOR_ELEMENTS);
                    }
                    let Some(scalar) = self.element_operand(part, src, to.elem) else {
                        return self.poisoned(loc);
                    };
                    scalar
                }
            };
            parts.push(part);
        }
        let kind = ExprKind::VectorLiteral {
            parts,
            to: to.clone(),
        };
        Expr::new(kind, whole, loc)
    }

    /// `value` where a value of type `to` is expected (an initialiser, an
    /// assigned value, an argument, a returned value): onto a vector type, a scalar converts
    /// to the element type and splats, as Clang converts it there (`float4
    /// v = 1;`, `int4 w = d;` with a `double` `d`); onto a scalar type, a
    /// literal converts as C converts it (`float x = 0;`, `return 1;` from a
    /// `double` kernel), a value it changes being Clang's warning (our
    /// error); any other value is returned as it is, for the caller's check
    /// of its type.
    pub(super) fn for_place(&mut self, value: Expr, src: &syn::Expr, to: &Ty) -> Expr {
        if let Ty::Scalar(s) = to
            && s.is_element()
            && matches!(value.ty, Ty::IntLiteral | Ty::FloatLiteral)
        {
            let loc = value.loc;
            return match self.element_operand(value, src, *s) {
                Some(converted) => converted,
                None => self.poisoned(loc),
            };
        }
        // C's array where a pointer is wanted (`fill(w, 4)`, `const float
        // *p = table;`): the slice of all its elements, shared or not as
        // the pointer is.
        if let (
            Ty::Seq {
                kind: SeqKind::Slice,
                mutable,
                ..
            },
            Ty::Seq {
                kind: SeqKind::Array,
                ..
            },
        ) = (to, &value.ty)
        {
            return super::expr::decayed(value, *mutable);
        }
        // C's `&x` where a pointer is wanted (`aim(&camera, k)`, `int
        // *p = &n;`): the slice of that one value.
        if let (
            Ty::Seq {
                kind: SeqKind::Slice,
                mutable,
                ..
            },
            Ty::Ref { .. },
        ) = (to, &value.ty)
        {
            return one_element_slice(value, *mutable);
        }
        // In a function with a C head a truth value is C's `int`, 0 or 1
        // (`return a < b;`, `int z = !n;`), and converts from there.
        if let (Ty::Scalar(s), Ty::Scalar(Scalar::Bool)) = (to, &value.ty)
            && self.c_arithmetic
            && s.is_element()
        {
            let (loc, int) = (value.loc, self.promoted(value));
            return match s {
                Scalar::I32 => int,
                _ => super::expr::converted(int, *s, loc),
            };
        }
        // A number of another element type converts, as C's assignment,
        // initialisation, `return` and argument passing convert it
        // (`int q = x * 3.25f;` truncates, `return k;` of an `int` from a
        // `float` kernel rounds).
        if let (Ty::Scalar(s), Ty::Scalar(from)) = (to, &value.ty)
            && s.is_element()
            && from.is_element()
            && s != from
        {
            let loc = value.loc;
            return super::expr::converted(value, *s, loc);
        }
        let Ty::Vector(v) = to else {
            return value;
        };
        // Any scalar: Clang converts every arithmetic type there. A value
        // of a type the checker does not know is left to rustc.
        if !value.ty.is_scalar_like() || matches!(value.ty, Ty::Other(None)) {
            return value;
        }
        let loc = value.loc;
        match self.splat_operand(value, src, v) {
            Some(scalar) => splat(scalar, v, loc),
            None => self.poisoned(loc),
        }
    }

    /// `(NAME) x` with `NAME` a vector type: a scalar splats (converted as
    /// by a cast); a vector whose elements fill as many bytes is bit cast,
    /// as in Clang (`(int4) v` of a `float4`, `(short8) v` of an `int4`);
    /// any other vector is Clang's error.
    pub(super) fn vector_cast(&mut self, inner: Expr, to: &VecTy, loc: Loc) -> Expr {
        let target = Ty::Vector(to.clone());
        match &inner.ty {
            Ty::Vector(v) if v.same_type(to) => inner,
            Ty::Vector(v) if same_bytes(v, to) => bitcast(inner, to, loc),
            Ty::Vector(_) | Ty::Matrix(_) => {
                self.error(loc, diag::invalid_ext_vector_conversion(&target, &inner.ty))
            }
            s if s.is_scalar_like() => splat(super::expr::converted(inner, to.elem, loc), to, loc),
            _ => self.error(loc, diag::invalid_ext_vector_conversion(&target, &inner.ty)),
        }
    }

    /// `__builtin_convertvector(v, NAME)`: each element converted to the
    /// element type of the vector type `NAME`, of the same length.
    pub(super) fn convertvector(&mut self, c: &syn::ExprCall, loc: Loc) -> Expr {
        if c.args.len() != 2 {
            let have = c.args.len();
            return self.error(
                loc,
                if have < 2 {
                    diag::too_few_arguments("2", have)
                } else {
                    diag::too_many_arguments("2", have)
                },
            );
        }
        let value = self.expr(&c.args[0]);
        let target = match &c.args[1] {
            syn::Expr::Path(p) => {
                p.path
                    .get_ident()
                    .and_then(|id| match self.env.typedefs.get(&id.to_string()) {
                        Some(Some(super::Resolved::Vector(v))) => Some(v.clone()),
                        _ => None,
                    })
            }
            _ => None,
        };
        let Some(to) = target else {
            return self.error(
                Loc::of(&c.args[1]),
                "second argument to __builtin_convertvector must be a vector type",
            );
        };
        let from = match &value.ty {
            Ty::Vector(v) => v.clone(),
            Ty::Error => return self.poisoned(loc),
            _ => {
                return self.error(
                    value.loc,
                    "first argument to __builtin_convertvector must be a vector",
                );
            }
        };
        if from.len != to.len {
            return self.error(loc, diag::CONVERTVECTOR_LENGTHS);
        }
        let elem = to.elem.to_tokens(loc.start);
        let kind = ExprKind::MethodCall {
            receiver: Box::new(value),
            method: syn::Ident::new("cast", loc.start),
            turbofish: Some(quote::quote!(::<#elem>)),
            args: Vec::new(),
        };
        Expr::new(kind, Ty::Vector(to), loc)
    }
}

/// `&x` as the slice of that one value: `core::slice::from_ref(&x)`, or
/// `from_mut(&mut x)` where the slice is mutable. Anything else as it is.
fn one_element_slice(value: Expr, mutable: bool) -> Expr {
    let Expr {
        kind: ExprKind::Reference { expr: inner, .. },
        ty: Ty::Ref { inner: elem, .. },
        loc,
    } = value
    else {
        return value;
    };
    let span = loc.start;
    let func = if mutable {
        quote::quote_spanned!(span=> ::core::slice::from_mut)
    } else {
        quote::quote_spanned!(span=> ::core::slice::from_ref)
    };
    let reference = Expr::new(
        ExprKind::Reference {
            mutable,
            expr: inner,
        },
        Ty::Ref {
            inner: elem.clone(),
            mutable,
        },
        loc,
    );
    let kind = ExprKind::Call {
        func: Box::new(Expr::new(ExprKind::Path(func), Ty::unknown(), loc)),
        args: vec![reference],
    };
    let ty = Ty::Seq {
        elem,
        kind: SeqKind::Slice,
        mutable,
    };
    Expr::new(kind, ty, loc)
}

/// Whether the elements of `a` fill as many bytes as those of `b` (a
/// three-element vector's padding not counted): Clang's condition for a
/// bit cast between them, explicit or in an operator.
pub(super) fn same_bytes(a: &VecTy, b: &VecTy) -> bool {
    a.len * a.elem.bytes() == b.len * b.elem.bytes()
}

/// Clang's check of `l op r` on vectors of two different types, after
/// which the right operand is bit cast to the left's type: a shift needs
/// integer vectors of one length and element size; `% & | ^` integer
/// vectors; every operator elements that fill as many bytes.
pub(super) fn mixed_vectors(op: &syn::BinOp, l: &VecTy, r: &VecTy) -> Result<(), String> {
    use syn::BinOp as B;
    let (lt, rt) = (Ty::Vector(l.clone()), Ty::Vector(r.clone()));
    if let B::Shl(_) | B::Shr(_) = op {
        if let Some((_, t)) = [(l, &lt), (r, &rt)]
            .into_iter()
            .find(|(v, _)| !v.elem.is_integer())
        {
            return Err(diag::integer_required(t));
        }
        if l.len != r.len {
            return Err(diag::vector_lengths_differ(&lt, &rt));
        }
        if l.elem.bytes() != r.elem.bytes() {
            return Err(diag::vector_element_sizes_differ(&lt, &rt));
        }
        return Ok(());
    }
    let integer_only = matches!(op, B::Rem(_) | B::BitAnd(_) | B::BitOr(_) | B::BitXor(_));
    if integer_only && (l.elem.is_float() || r.elem.is_float()) {
        return Err(diag::invalid_operands(&lt, &rt));
    }
    if !same_bytes(l, r) {
        return Err(diag::vector_sizes_differ(&lt, &rt));
    }
    Ok(())
}

/// `value`, a vector, bit cast to the vector type `to` ([`same_bytes`]).
pub(super) fn bitcast(value: Expr, to: &VecTy, loc: Loc) -> Expr {
    let (elem, len) = (
        to.elem.to_tokens(loc.start),
        crate::types::usize_lit(to.len, loc.start),
    );
    let kind = ExprKind::MethodCall {
        receiver: Box::new(value),
        method: syn::Ident::new("bitcast", loc.start),
        turbofish: Some(quote::quote!(::<#elem, #len>)),
        args: Vec::new(),
    };
    Expr::new(kind, Ty::Vector(to.clone()), loc)
}

/// A scalar (already converted to the element type) as a vector of `to`.
pub(super) fn splat(scalar: Expr, to: &VecTy, loc: Loc) -> Expr {
    let kind = ExprKind::VectorSplat {
        scalar: Box::new(scalar),
        to: to.clone(),
    };
    Expr::new(kind, Ty::Vector(to.clone()), loc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each name against what clang-19 says of it on an `int4` and an
    /// `int16` (`-fsyntax-only`): the lanes, or the message.
    #[test]
    fn component_names_read_as_clang_reads_them() {
        let int = |len| VecTy {
            elem: Scalar::I32,
            len,
            name: Some(format!("int{len}")),
        };
        let (int4, int16) = (int(4), int(16));
        let illegal = |c: &str| Err(format!("illegal vector component name '{c}'"));
        let exceeds = Err("vector component access exceeds type 'int4'".to_string());
        type Lanes = Result<Vec<usize>, String>;
        let cases: [(&str, &VecTy, Lanes); 26] = [
            ("wzyx", &int4, Ok(vec![3, 2, 1, 0])),
            ("ab", &int4, Ok(vec![3, 2])),
            ("s3", &int4, Ok(vec![3])),
            ("S01", &int4, Ok(vec![0, 1])),
            ("sF0", &int16, Ok(vec![15, 0])),
            ("xq", &int4, illegal("q")),
            ("qx", &int4, illegal("q")),
            ("xr", &int4, illegal("r")),
            ("gx", &int4, illegal("x")),
            ("s0x", &int4, illegal("x")),
            ("xy0", &int4, illegal("0")),
            ("s", &int4, illegal("s")),
            ("S", &int4, illegal("S")),
            ("sq", &int4, illegal("q")),
            ("hiq", &int4, illegal("h")),
            ("_x", &int4, illegal("_")),
            ("c", &int4, exceeds.clone()),
            ("d1", &int4, exceeds.clone()),
            ("sa", &int4, exceeds.clone()),
            ("s09", &int4, exceeds.clone()),
            ("xyzwx", &int4, Ok(vec![0, 1, 2, 3, 0])),
            ("odd", &int4, Ok(vec![1, 3])),
            ("lo", &int(3), Ok(vec![0, 1])),
            ("even", &int(3), Ok(vec![0, 2])),
            ("lo", &int(1), Ok(vec![0])),
            ("xxxxxxxxxxxxxxxxx", &int4, Err(diag::vector_too_long(17))),
        ];
        for (name, ty, want) in cases {
            assert_eq!(components(name, ty), want, "v.{name} on {}", ty.len);
        }
    }

    /// Clang's bit cast condition: the elements' bytes, without padding.
    #[test]
    fn bit_casts_need_as_many_bytes_of_elements() {
        let v = |elem, len| VecTy {
            elem,
            len,
            name: None,
        };
        assert!(same_bytes(&v(Scalar::I16, 6), &v(Scalar::F32, 3)));
        assert!(same_bytes(&v(Scalar::I16, 8), &v(Scalar::U64, 2)));
        assert!(!same_bytes(&v(Scalar::F32, 3), &v(Scalar::F32, 4)));
    }
}
