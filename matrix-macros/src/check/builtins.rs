//! The specification's builtins and the RFC's older ones.

use super::expr::Checker;
use crate::consteval;
use crate::diag::{self, Axis, Loc};
use crate::ir::{ArithOp, Contract, Expr, ExprKind, MapBody, Stride};
use crate::types::{Dim, MAX_DIMENSION, MatTy, MemoryLayout, Scalar, Ty, VecTy};

/// Declares [`Builtin`] from one table, a row per builtin: its variant,
/// its name and how many arguments it takes, at least and at most.
macro_rules! builtins {
    ($($variant:ident: $name:literal, $min:literal..=$max:literal;)*) => {
        /// A `__builtin_matrix_*` function: the specification's, the RFC's
        /// older ones and ours.
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub(super) enum Builtin {
            $($variant,)*
        }

        impl Builtin {
            /// The builtin of this name, if there is one.
            pub(super) fn from_name(name: &str) -> Option<Builtin> {
                match name {
                    $($name => Some(Builtin::$variant),)*
                    _ => None,
                }
            }

            /// Its name.
            pub(super) fn name(self) -> &'static str {
                match self {
                    $(Builtin::$variant => $name,)*
                }
            }

            /// How many arguments it takes: at least, at most.
            fn arity(self) -> (usize, usize) {
                match self {
                    $(Builtin::$variant => ($min, $max),)*
                }
            }
        }
    };
}

builtins! {
    Transpose: "__builtin_matrix_transpose", 1..=1;
    ColumnMajorLoad: "__builtin_matrix_column_major_load", 3..=4;
    RowMajorLoad: "__builtin_matrix_row_major_load", 3..=4;
    ColumnMajorStore: "__builtin_matrix_column_major_store", 2..=3;
    RowMajorStore: "__builtin_matrix_row_major_store", 2..=3;
    // The RFC's older spellings.
    ColumnLoad: "__builtin_matrix_column_load", 4..=4;
    ColumnStore: "__builtin_matrix_column_store", 3..=3;
    Insert: "__builtin_matrix_insert", 4..=4;
    Extract: "__builtin_matrix_extract", 3..=3;
    Add: "__builtin_matrix_add", 2..=2;
    Sub: "__builtin_matrix_sub", 2..=2;
    Multiply: "__builtin_matrix_multiply", 2..=2;
    ScalarMultiply: "__builtin_matrix_scalar_multiply", 2..=2;
    // Ours.
    Load: "__builtin_matrix_load", 4..=5;
    Store: "__builtin_matrix_store", 3..=4;
    Column: "__builtin_matrix_column", 2..=2;
    Row: "__builtin_matrix_row", 2..=2;
    InsertColumn: "__builtin_matrix_insert_column", 3..=3;
    InsertRow: "__builtin_matrix_insert_row", 3..=3;
    Map: "__builtin_matrix_map", 2..=2;
    Zip: "__builtin_matrix_zip", 3..=3;
    Fill: "__builtin_matrix_fill", 2..=2;
    Mad: "__builtin_matrix_mad", 3..=3;
}

impl Checker<'_> {
    /// `__builtin_matrix_column(m, c)` / `_row(m, r)`: the line as a vector;
    /// `__builtin_matrix_insert_column(m, c, v)` / `_insert_row(m, r, v)`:
    /// the matrix with the line replaced by the vector (our extension, after
    /// the first-class matrix proposal; clang-19 has none of the four).
    fn line(&mut self, builtin: Builtin, args: &[&syn::Expr], loc: Loc) -> Expr {
        let Some((m, ty)) = self.matrix_arg(args[0], "1st") else {
            return self.poisoned(loc);
        };
        let is_row = matches!(builtin, Builtin::Row | Builtin::InsertRow);
        let (axis, bound, len) = if is_row {
            (Axis::Row, ty.rows.clone(), &ty.cols)
        } else {
            (Axis::Column, ty.cols.clone(), &ty.rows)
        };
        let Some(index) = self.subscript(args[1], axis, &bound) else {
            return self.poisoned(loc);
        };
        let len = match len {
            Dim::Known(len) if *len > 16 => {
                return self.error(Loc::of(args[0]), diag::vector_too_long(i128::from(*len)));
            }
            Dim::Known(len) => *len,
            Dim::Param(param) => {
                let message = diag::generic_vector_length(param);
                return self.error(Loc::of(args[0]), message);
            }
        };
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

    /// `__builtin_matrix_map(m, |x| ..)` and `__builtin_matrix_zip(a, b,
    /// |x, y| ..)` (ours, after SYCL's `joint_matrix` element-wise
    /// operations): the closure applied to each element (of both matrices,
    /// of one shape, at one position), giving a matrix of the closure's
    /// result type. Each parameter receives its matrix's element type; the
    /// result type is the closure's `-> T`, or its body's scalar type.
    fn element_fn(&mut self, builtin: Builtin, args: &[&syn::Expr], loc: Loc) -> Expr {
        let name = builtin.name();
        const ORDINALS: [&str; 3] = ["1st", "2nd", "3rd"];
        let n = args.len() - 1;
        let matrices: Vec<_> = args[..n]
            .iter()
            .zip(ORDINALS)
            .map(|(arg, ordinal)| self.matrix_arg(arg, ordinal))
            .collect();
        let Some(matrices) = matrices.into_iter().collect::<Option<Vec<_>>>() else {
            return self.poisoned(loc);
        };
        let (inputs, shapes): (Vec<Expr>, Vec<MatTy>) = matrices.into_iter().unzip();
        let shape = shapes[0].clone();
        if shapes.iter().any(|s| !s.same_shape(&shape)) {
            let (first, last) = (Ty::Matrix(shape), Ty::Matrix(shapes[n - 1].clone()));
            let at = Loc::of(args[0]).to(Loc::of(args[n - 1]));
            return self.error(at, diag::different_dimensions(name, &first, &last));
        }
        if let Some(other) = shapes.iter().find(|s| s.layout != shape.layout) {
            let (first, other) = (Ty::Matrix(shape.clone()), Ty::Matrix(other.clone()));
            let at = Loc::of(args[0]).to(Loc::of(args[n - 1]));
            return self.error(at, diag::different_layouts(name, &first, &other));
        }
        let f = super::expr::strip(args[n]).0;
        let syn::Expr::Closure(c) = f else {
            return self.error(Loc::of(f), diag::argument_must_be_closure(ORDINALS[n], n));
        };
        if c.inputs.len() != n {
            let at = Loc::of(&c.inputs_begin).to(Loc::of(&c.inputs_end));
            return self.error(at, diag::argument_must_be_closure(ORDINALS[n], n));
        }
        let declared = match &c.output {
            syn::ReturnType::Type(_, ty) => {
                Some((super::resolve_type(ty, self.env, self.diags).0, Loc::of(ty)))
            }
            syn::ReturnType::Default => None,
        };
        let ret = declared
            .as_ref()
            .map_or_else(Ty::unknown, |(t, _)| t.clone());
        let (params, body) = self.in_closure_scope(ret, |this| {
            let mut params = Vec::new();
            for (pat, shape) in c.inputs.iter().zip(&shapes) {
                if let Some(name) = this.element_param(pat, shape.elem) {
                    params.push((name, shape.elem));
                }
            }
            (params, this.expr(&c.body))
        });
        if params.len() != n {
            return self.poisoned(loc);
        }
        let tail = super::expr::closure_tail(&c.body);
        if matches!(body.ty, Ty::Matrix(_) | Ty::Vector(_)) {
            return self.error(Loc::of(tail), diag::closure_result_not_scalar(&body.ty));
        }
        let out = match (&declared, &body.ty) {
            (Some((Ty::Scalar(s), _)), _) => *s,
            (Some((Ty::Error, _)), _) | (None, Ty::Error) => return self.poisoned(loc),
            (Some((other, at)), _) => {
                return self.error(*at, diag::closure_result_not_scalar(other));
            }
            (None, Ty::Scalar(s)) => *s,
            (None, Ty::IntLiteral) => Scalar::I32,
            (None, Ty::FloatLiteral) => Scalar::F64,
            (None, Ty::Other(None)) => {
                return self.error(Loc::of(tail), diag::closure_result_unknown());
            }
            (None, other) => {
                return self.error(Loc::of(tail), diag::closure_result_not_scalar(other));
            }
        };
        if !out.is_element() {
            let at = declared.map_or(Loc::of(tail), |(_, at)| at);
            return self.error(at, diag::closure_result_not_scalar(&Ty::Scalar(out)));
        }
        let Some(body) = self.element_operand(body, &c.body, out) else {
            return self.poisoned(loc);
        };
        let body = MapBody::Closure {
            params,
            args: (0..n).map(MapBody::Input).collect(),
            body: Box::new(body),
            out,
        };
        let ty = Ty::Matrix(MatTy::unnamed(out, shape.rows, shape.cols, shape.layout));
        Expr::new(ExprKind::Map { inputs, body }, ty, loc)
    }

    /// A parameter of an element-wise closure, bound to the element type
    /// `elem`: a name, or a name and that type.
    fn element_param(&mut self, pat: &syn::Pat, elem: Scalar) -> Option<syn::Ident> {
        let name = |p: &syn::Pat| match p {
            syn::Pat::Ident(p) if p.by_ref.is_none() && p.subpat.is_none() => Some(p.ident.clone()),
            _ => None,
        };
        let (ident, annotated) = match pat {
            syn::Pat::Type(t) => (name(&t.pat), Some(&t.ty)),
            _ => (name(pat), None),
        };
        let Some(ident) = ident else {
            self.diags
                .error(Loc::of(pat), diag::closure_parameter_not_a_name());
            return None;
        };
        if let Some(ty) = annotated {
            let (written, _) = super::resolve_type(ty, self.env, self.diags);
            if !written.is_error() && !matches!(&written, Ty::Scalar(s) if *s == elem) {
                self.diags
                    .error(Loc::of(ty), diag::passing(&Ty::Scalar(elem), &written));
            }
        }
        self.bind(&ident.to_string(), Ty::Scalar(elem));
        Some(ident)
    }

    /// `__builtin_matrix_fill(m, v)` (ours, after `joint_matrix_fill`): a
    /// matrix of `m`'s type with every element `v`, converted as a scalar
    /// operand of `m + v` is. `m` is evaluated, and unchanged.
    fn fill(&mut self, args: &[&syn::Expr], loc: Loc) -> Expr {
        let matrix = self.matrix_arg(args[0], "1st");
        let value = self.expr(args[1]);
        if !value.ty.is_scalar_like() && !value.ty.is_error() {
            return self.error(value.loc, diag::argument_must_be_scalar("2nd", &value.ty));
        }
        let Some((m, ty)) = matrix else {
            return self.poisoned(loc);
        };
        let Some(value) = self.element_operand(value, args[1], ty.elem) else {
            return self.poisoned(loc);
        };
        let kind = ExprKind::Map {
            inputs: vec![m, value],
            body: MapBody::Input(1),
        };
        Expr::new(kind, Ty::Matrix(ty), loc)
    }

    /// `__builtin_matrix_mad(a, b, c)` (ours, after the layout-aware
    /// intrinsics proposal): `a * b + c`, checked and computed as written
    /// so. With `signed char`/`unsigned char` operands and an `int`
    /// accumulator it widens: each operand is converted to `int` first, so
    /// every product and sum is exact in `int` (wrapping past its range, as
    /// integer matrices do). `__bf16` operands with a `float` accumulator
    /// widen to `float` the same way.
    fn mad(&mut self, args: &[&syn::Expr], loc: Loc) -> Expr {
        let a = self.matrix_arg(args[0], "1st");
        let b = self.matrix_arg(args[1], "2nd");
        let c = self.matrix_arg(args[2], "3rd");
        let (Some((a, a_ty)), Some((b, b_ty)), Some((c, c_ty))) = (a, b, c) else {
            return self.poisoned(loc);
        };
        let (a, b) = if widens(a_ty.elem, b_ty.elem, c_ty.elem) {
            let widen = |e: Expr, t: &MatTy| {
                let to = MatTy::unnamed(c_ty.elem, t.rows.clone(), t.cols.clone(), t.layout);
                let (ty, loc) = (Ty::Matrix(to.clone()), e.loc);
                Expr::new(
                    ExprKind::MatrixCast {
                        expr: Box::new(e),
                        to,
                    },
                    ty,
                    loc,
                )
            };
            (widen(a, &a_ty), widen(b, &b_ty))
        } else {
            (a, b)
        };
        // The operands' layouts are free; the result has the accumulator's.
        let product = match (&a.ty, &b.ty) {
            (Ty::Matrix(l), Ty::Matrix(r)) if l.elem == r.elem && l.cols == r.rows => {
                // Clang's sugar, as for `a * b`: one square type keeps its name.
                let name = (l.same_type(r) && l.name == r.name && l.layout == c_ty.layout)
                    .then(|| l.name.clone())
                    .flatten();
                let ty = Ty::Matrix(MatTy {
                    name,
                    ..MatTy::unnamed(l.elem, l.rows.clone(), r.cols.clone(), c_ty.layout)
                });
                let kind = ExprKind::Product {
                    lhs: Box::new(a),
                    rhs: Box::new(b),
                    contract: Contract::Off,
                };
                Expr::new(kind, ty, loc)
            }
            _ => self.matrix_arith(ArithOp::Mul, a, b, args[1], args[0], loc),
        };
        if product.ty.is_error() {
            return product;
        }
        self.matrix_arith(ArithOp::Add, product, c, args[2], args[0], loc)
    }

    /// A call of the `__builtin_matrix_*` function `name`.
    pub(super) fn builtin(&mut self, name: &str, call: &syn::ExprCall, loc: Loc) -> Expr {
        let args: Vec<&syn::Expr> = call.args.iter().collect();
        let Some(builtin) = Builtin::from_name(name) else {
            return self.error(Loc::of(&call.func), diag::unknown_builtin(name));
        };
        let (min, max) = builtin.arity();
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
        match builtin {
            Builtin::Transpose => {
                let Some((m, ty)) = self.matrix_arg(args[0], "1st") else {
                    return self.poisoned(loc);
                };
                let ty = Ty::Matrix(MatTy::unnamed(ty.elem, ty.cols, ty.rows, ty.layout));
                Expr::new(ExprKind::Transpose(Box::new(m)), ty, loc)
            }
            Builtin::ColumnMajorLoad
            | Builtin::ColumnLoad
            | Builtin::RowMajorLoad
            | Builtin::Load
            | Builtin::ColumnMajorStore
            | Builtin::ColumnStore
            | Builtin::RowMajorStore
            | Builtin::Store => self.memory_access(builtin, &args, loc),
            Builtin::Column | Builtin::Row | Builtin::InsertColumn | Builtin::InsertRow => {
                self.line(builtin, &args, loc)
            }
            Builtin::Insert => {
                let Some((m, ty)) = self.matrix_arg(args[0], "1st") else {
                    return self.poisoned(loc);
                };
                let row = self.subscript(args[1], Axis::Row, &ty.rows);
                let col = self.subscript(args[2], Axis::Column, &ty.cols);
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
            Builtin::Extract => {
                let Some((m, ty)) = self.matrix_arg(args[0], "1st") else {
                    return self.poisoned(loc);
                };
                let row = self.subscript(args[1], Axis::Row, &ty.rows);
                let col = self.subscript(args[2], Axis::Column, &ty.cols);
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
            Builtin::Map | Builtin::Zip => self.element_fn(builtin, &args, loc),
            Builtin::Fill => self.fill(&args, loc),
            Builtin::Mad => self.mad(&args, loc),
            Builtin::ScalarMultiply => {
                let Some((m, _)) = self.matrix_arg(args[0], "1st") else {
                    return self.poisoned(loc);
                };
                let s = self.expr(args[1]);
                if !s.ty.is_scalar_like() && !s.ty.is_error() {
                    return self.error(s.loc, diag::argument_must_be_scalar("2nd", &s.ty));
                }
                self.matrix_arith(ArithOp::Mul, m, s, args[1], args[0], loc)
            }
            Builtin::Add | Builtin::Sub | Builtin::Multiply => {
                // Two matrices.
                let a = self.matrix_arg(args[0], "1st");
                let b = self.matrix_arg(args[1], "2nd");
                let (Some((a, _)), Some((b, _))) = (a, b) else {
                    return self.poisoned(loc);
                };
                let op = match builtin {
                    Builtin::Add => ArithOp::Add,
                    Builtin::Sub => ArithOp::Sub,
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

    /// A row or column count: a constant in [1, 1048575], or a const
    /// generic parameter of the kernel.
    fn dimension(&mut self, arg: &syn::Expr, axis: Axis) -> Option<Dim> {
        let loc = Loc::of(arg);
        if let Some(param) = self.env.generic_param(arg) {
            return Some(Dim::Param(param.clone()));
        }
        match consteval::eval(arg, &self.env.consts) {
            None => {
                self.diags.error(loc, diag::dimension_not_constant(axis));
                None
            }
            Some(v) if v < 1 || v > i128::from(MAX_DIMENSION) => {
                self.diags.error(loc, diag::dimension_out_of_range(axis));
                None
            }
            Some(v) => Some(Dim::Known(v as u64)),
        }
    }

    /// A load or store, in the memory layout its name fixes, or that of
    /// the layout argument of `__builtin_matrix_load` (4th) and
    /// `__builtin_matrix_store` (3rd).
    fn memory_access(&mut self, builtin: Builtin, args: &[&syn::Expr], loc: Loc) -> Expr {
        use Builtin as B;
        let load = matches!(
            builtin,
            B::ColumnMajorLoad | B::ColumnLoad | B::RowMajorLoad | B::Load
        );
        let (args, memory) = match builtin {
            B::ColumnMajorLoad | B::ColumnLoad | B::ColumnMajorStore | B::ColumnStore => {
                (args.to_vec(), Some(MemoryLayout::ColumnMajor))
            }
            B::RowMajorLoad | B::RowMajorStore => (args.to_vec(), Some(MemoryLayout::RowMajor)),
            _ => {
                let at = if load { 3 } else { 2 };
                let rest = args[..at].iter().chain(&args[at + 1..]).copied().collect();
                (rest, self.memory_layout(args[at]))
            }
        };
        if load {
            self.load(&args, loc, memory)
        } else {
            self.store(&args, loc, memory)
        }
    }

    /// A memory layout's name: `column_major`, `row_major`, `packed_a` or
    /// `packed_b`.
    fn memory_layout(&mut self, arg: &syn::Expr) -> Option<MemoryLayout> {
        let name = match super::expr::strip(arg).0 {
            syn::Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(|i| i.to_string()),
            _ => None,
        };
        let layout = name.as_deref().and_then(MemoryLayout::from_name);
        if layout.is_none() {
            self.diags.error(Loc::of(arg), diag::UNKNOWN_MEMORY_LAYOUT);
        }
        layout
    }

    /// The optional stride of a load or store of a `rows x cols` matrix of
    /// `elem` in memory order `memory`: at least the length of a line
    /// (`rows` for a column, `cols` for a row, times the packing group in
    /// a packed layout). A constant is checked here, a variable (or any
    /// stride of a line whose length is a generic dimension) at run time.
    fn stride(
        &mut self,
        arg: Option<&&syn::Expr>,
        (rows, cols, elem): (&Dim, &Dim, Scalar),
        memory: MemoryLayout,
    ) -> Option<Stride> {
        let Some(arg) = arg else {
            return Some(Stride::Dense);
        };
        let line = memory.line_len(rows, cols, elem);
        match (consteval::eval(arg, &self.env.consts), line) {
            // A negative constant is a huge size_t in C: a run-time error here.
            (Some(v), Some(line)) if v >= 0 => {
                if v < i128::from(line) {
                    let message = match memory {
                        MemoryLayout::ColumnMajor => diag::STRIDE_TOO_SMALL.to_string(),
                        MemoryLayout::RowMajor => diag::STRIDE_TOO_SMALL_ROW_MAJOR.to_string(),
                        packed => diag::packed_stride_too_small(packed.name(), line),
                    };
                    self.diags.error(Loc::of(*arg), message);
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

    /// A load from memory in order `memory` (`None`: a layout argument
    /// already refused); the result has the layout whose lines those are.
    fn load(&mut self, args: &[&syn::Expr], loc: Loc, memory: Option<MemoryLayout>) -> Expr {
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
        let stride = match (&rows, &cols, source, memory) {
            (Some(r), Some(c), Some((elem, _)), Some(memory)) => {
                self.stride(args.get(3), (r, c, elem), memory)
            }
            _ => None,
        };
        let (Some((elem, pointer)), Some(rows), Some(cols), Some(stride), Some(memory)) =
            (source, rows, cols, stride, memory)
        else {
            return self.poisoned(loc);
        };
        let to = MatTy::unnamed(elem, rows, cols, memory.lines());
        let ty = Ty::Matrix(to.clone());
        let view = !pointer && self.reads_in_place(&src, &stride, memory, &to);
        Expr::new(
            ExprKind::Load {
                src: Box::new(src),
                to,
                stride,
                pointer,
                memory,
                view,
            },
            ty,
            loc,
        )
    }

    /// A store to memory in order `memory` (`None`: a layout argument
    /// already refused), of a matrix of either layout.
    fn store(&mut self, args: &[&syn::Expr], loc: Loc, memory: Option<MemoryLayout>) -> Expr {
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
        let Some(memory) = memory else {
            return self.poisoned(loc);
        };
        let Some(stride) = self.stride(args.get(2), (&ty.rows, &ty.cols, ty.elem), memory) else {
            return self.poisoned(loc);
        };
        let kind = ExprKind::Store {
            matrix: Box::new(matrix),
            dst: Box::new(dst),
            stride,
            pointer,
            memory,
        };
        Expr::new(kind, Ty::Unit, loc)
    }
}

/// Whether `__builtin_matrix_mad` of `a` times `b` plus `c` elements widens
/// its operands to the accumulator's type: 8-bit integers into `int`,
/// `__bf16` into `float`.
fn widens(a: Scalar, b: Scalar, c: Scalar) -> bool {
    let bytes = |s: Scalar| matches!(s, Scalar::I8 | Scalar::U8);
    (bytes(a) && bytes(b) && c == Scalar::I32)
        || (a == Scalar::BF16 && b == Scalar::BF16 && c == Scalar::F32)
}
