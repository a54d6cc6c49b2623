//! The specification's builtins and the RFC's older ones.

use super::expr::Checker;
use crate::consteval;
use crate::diag::{self, Axis, Loc};
use crate::ir::{ArithOp, Expr, ExprKind, Stride};
use crate::types::{MAX_DIMENSION, MatTy, Ty, VecTy};

impl Checker<'_> {
    /// `__builtin_matrix_column(m, c)` / `_row(m, r)`: the line as a vector;
    /// `__builtin_matrix_insert_column(m, c, v)` / `_insert_row(m, r, v)`:
    /// the matrix with the line replaced by the vector (our extension, after
    /// the first-class matrix proposal; clang-19 has none of the four).
    fn line(&mut self, name: &str, args: &[&syn::Expr], loc: Loc) -> Expr {
        let Some((m, ty)) = self.matrix_arg(args[0], "1st") else {
            return self.poisoned(loc);
        };
        let is_row = name.ends_with("row");
        let (axis, bound, len) = if is_row {
            (Axis::Row, ty.rows, ty.cols)
        } else {
            (Axis::Column, ty.cols, ty.rows)
        };
        let Some(index) = self.subscript(args[1], axis, bound) else {
            return self.poisoned(loc);
        };
        if len > 16 {
            return self.error(Loc::of(args[0]), diag::vector_too_long(i128::from(len)));
        }
        let line = VecTy {
            elem: ty.elem,
            len,
            name: None,
        };
        let value = match args.get(2) {
            None => None,
            Some(src) => {
                let value = self.expr(src);
                match &value.ty {
                    Ty::Error => return self.poisoned(loc),
                    Ty::Vector(v) if v.same_type(&line) => Some(Box::new(value)),
                    _ => {
                        let message = diag::passing(&value.ty, &Ty::Vector(line));
                        return self.error(value.loc, message);
                    }
                }
            }
        };
        let ty = match value {
            None => Ty::Vector(line),
            Some(_) => Ty::Matrix(ty),
        };
        let kind = ExprKind::Line {
            matrix: Box::new(m),
            index,
            is_row,
            bound,
            value,
        };
        Expr::new(kind, ty, loc)
    }

    pub(super) fn builtin(&mut self, name: &str, call: &syn::ExprCall, loc: Loc) -> Expr {
        let args: Vec<&syn::Expr> = call.args.iter().collect();
        let (min, max) = match name {
            "__builtin_matrix_transpose" => (1, 1),
            "__builtin_matrix_column_major_load" => (3, 4),
            "__builtin_matrix_column_major_store" => (2, 3),
            "__builtin_matrix_column_load" => (4, 4),
            "__builtin_matrix_column_store" => (3, 3),
            "__builtin_matrix_insert" => (4, 4),
            "__builtin_matrix_column" | "__builtin_matrix_row" => (2, 2),
            "__builtin_matrix_insert_column" | "__builtin_matrix_insert_row" => (3, 3),
            "__builtin_matrix_extract" => (3, 3),
            "__builtin_matrix_add"
            | "__builtin_matrix_sub"
            | "__builtin_matrix_multiply"
            | "__builtin_matrix_scalar_multiply" => (2, 2),
            _ => return self.error(Loc::of(&call.func), diag::unknown_builtin(name)),
        };
        if args.len() < min {
            let expected = if min == max {
                min.to_string()
            } else {
                format!("at least {min}")
            };
            return self.error(loc, diag::too_few_arguments(&expected, args.len()));
        }
        if args.len() > max {
            let expected = if min == max {
                max.to_string()
            } else {
                format!("at most {max}")
            };
            let extra = Loc::of(args[max]).to(Loc::of(args[args.len() - 1]));
            return self.error(extra, diag::too_many_arguments(&expected, args.len()));
        }
        match name {
            "__builtin_matrix_transpose" => {
                let Some((m, ty)) = self.matrix_arg(args[0], "1st") else {
                    return self.poisoned(loc);
                };
                let ty = Ty::Matrix(MatTy::unnamed(ty.elem, ty.cols, ty.rows));
                Expr::new(ExprKind::Transpose(Box::new(m)), ty, loc)
            }
            "__builtin_matrix_column_major_load" | "__builtin_matrix_column_load" => {
                self.load(&args, loc)
            }
            "__builtin_matrix_column_major_store" | "__builtin_matrix_column_store" => {
                self.store(&args, loc)
            }
            "__builtin_matrix_column"
            | "__builtin_matrix_row"
            | "__builtin_matrix_insert_column"
            | "__builtin_matrix_insert_row" => self.line(name, &args, loc),
            "__builtin_matrix_insert" => {
                let Some((m, ty)) = self.matrix_arg(args[0], "1st") else {
                    return self.poisoned(loc);
                };
                let row = self.subscript(args[1], Axis::Row, ty.rows);
                let col = self.subscript(args[2], Axis::Column, ty.cols);
                let value = self.expr(args[3]);
                if value.ty.is_matrix() {
                    return self.error(value.loc, diag::assigning(&Ty::Scalar(ty.elem), &value.ty));
                }
                let value = self.element_operand(value, args[3], ty.elem);
                let (Some(row), Some(col), Some(value)) = (row, col, value) else {
                    return self.poisoned(loc);
                };
                let kind = ExprKind::Insert {
                    matrix: Box::new(m),
                    row,
                    col,
                    value: Box::new(value),
                };
                Expr::new(kind, Ty::Matrix(ty), loc)
            }
            "__builtin_matrix_extract" => {
                let Some((m, ty)) = self.matrix_arg(args[0], "1st") else {
                    return self.poisoned(loc);
                };
                let row = self.subscript(args[1], Axis::Row, ty.rows);
                let col = self.subscript(args[2], Axis::Column, ty.cols);
                let (Some(row), Some(col)) = (row, col) else {
                    return self.poisoned(loc);
                };
                let elem = ty.elem;
                let kind = ExprKind::Element {
                    base: Box::new(m),
                    row,
                    col,
                    shape: ty,
                };
                Expr::new(kind, Ty::Scalar(elem), loc)
            }
            "__builtin_matrix_scalar_multiply" => {
                let Some((m, _)) = self.matrix_arg(args[0], "1st") else {
                    return self.poisoned(loc);
                };
                let s = self.expr(args[1]);
                if !s.ty.is_scalar_like() && !s.ty.is_error() {
                    return self.error(s.loc, diag::argument_must_be_scalar("2nd", &s.ty));
                }
                self.matrix_arith(ArithOp::Mul, m, s, args[1], args[0], loc)
            }
            _ => {
                // add, sub, multiply: two matrices.
                let a = self.matrix_arg(args[0], "1st");
                let b = self.matrix_arg(args[1], "2nd");
                let (Some((a, _)), Some((b, _))) = (a, b) else {
                    return self.poisoned(loc);
                };
                let op = match name {
                    "__builtin_matrix_add" => ArithOp::Add,
                    "__builtin_matrix_sub" => ArithOp::Sub,
                    _ => ArithOp::Mul,
                };
                self.matrix_arith(op, a, b, args[1], args[0], loc)
            }
        }
    }

    /// An argument that must be a matrix.
    fn matrix_arg(&mut self, arg: &syn::Expr, ordinal: &str) -> Option<(Expr, MatTy)> {
        let checked = self.expr(arg);
        match checked.ty.clone() {
            Ty::Matrix(m) => Some((checked, m)),
            Ty::Error => None,
            other => {
                self.diags
                    .error(checked.loc, diag::argument_must_be_matrix(ordinal, &other));
                None
            }
        }
    }

    /// A row or column count: a constant in [1, 1048575].
    fn dimension(&mut self, arg: &syn::Expr, axis: Axis) -> Option<u64> {
        let loc = Loc::of(arg);
        match consteval::eval(arg, &self.env.consts) {
            None => {
                self.diags.error(loc, diag::dimension_not_constant(axis));
                None
            }
            Some(v) if v < 1 || v > i128::from(MAX_DIMENSION) => {
                self.diags.error(loc, diag::dimension_out_of_range(axis));
                None
            }
            Some(v) => Some(v as u64),
        }
    }

    /// The optional stride: a constant is checked here, a variable at run time.
    fn stride(&mut self, arg: Option<&&syn::Expr>, rows: u64) -> Option<Stride> {
        let Some(arg) = arg else {
            return Some(Stride::Rows);
        };
        match consteval::eval(arg, &self.env.consts) {
            // A negative constant is a huge size_t in C: a run-time error here.
            Some(v) if v >= 0 => {
                if v < i128::from(rows) {
                    self.diags.error(Loc::of(*arg), diag::STRIDE_TOO_SMALL);
                    return None;
                }
                Some(Stride::Const(v as u64))
            }
            _ => {
                let checked = self.expr(arg);
                if checked.ty.is_error() {
                    return None;
                }
                Some(Stride::Dynamic(Box::new(checked)))
            }
        }
    }

    fn load(&mut self, args: &[&syn::Expr], loc: Loc) -> Expr {
        let src = self.expr(args[0]);
        let source = match src.ty.pointee() {
            Some((Ty::Scalar(s), _, pointer)) if s.is_element() => Some((*s, pointer)),
            _ if src.ty.is_error() => None,
            _ if matches!(src.ty, Ty::Other(None)) => {
                self.diags.error(src.loc, diag::LOAD_SOURCE_UNKNOWN);
                None
            }
            _ => {
                self.diags.error(
                    src.loc,
                    diag::argument_must_be_element_pointer("1st", &src.ty),
                );
                None
            }
        };
        let rows = self.dimension(args[1], Axis::Row);
        let cols = self.dimension(args[2], Axis::Column);
        let stride = rows.and_then(|r| self.stride(args.get(3), r));
        let (Some((elem, pointer)), Some(rows), Some(cols), Some(stride)) =
            (source, rows, cols, stride)
        else {
            return self.poisoned(loc);
        };
        let to = MatTy::unnamed(elem, rows, cols);
        let ty = Ty::Matrix(to.clone());
        Expr::new(
            ExprKind::Load {
                src: Box::new(src),
                to,
                stride,
                pointer,
            },
            ty,
            loc,
        )
    }

    fn store(&mut self, args: &[&syn::Expr], loc: Loc) -> Expr {
        let matrix = self.matrix_arg(args[0], "1st");
        let dst = self.expr(args[1]);
        let Some((matrix, ty)) = matrix else {
            return self.poisoned(loc);
        };
        let pointer = match dst.ty.pointee() {
            _ if dst.ty.is_error() => return self.poisoned(loc),
            Some((pointee, mutable, pointer)) => {
                if !mutable {
                    return self.error(dst.loc, diag::STORE_TO_READ_ONLY);
                }
                if !matches!(pointee, Ty::Scalar(s) if *s == ty.elem) {
                    let pointee = pointee.clone();
                    return self.error(
                        dst.loc,
                        diag::pointee_mismatch(&pointee, &Ty::Scalar(ty.elem)),
                    );
                }
                pointer
            }
            None if matches!(dst.ty, Ty::Other(None)) => false,
            None => {
                return self.error(
                    dst.loc,
                    diag::argument_must_be_element_pointer("2nd", &dst.ty),
                );
            }
        };
        let Some(stride) = self.stride(args.get(2), ty.rows) else {
            return self.poisoned(loc);
        };
        let kind = ExprKind::Store {
            matrix: Box::new(matrix),
            dst: Box::new(dst),
            stride,
            pointer,
        };
        Expr::new(kind, Ty::Unit, loc)
    }
}
