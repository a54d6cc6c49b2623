//! Typed IR to lowered IR: how each matrix operation runs, now that every
//! shape is known.
//!
//! * Every product runs on the runtime's product kernel
//!   (`matrix_core::private::product`), register-tiled SIMD for `f32`, `f64`
//!   and `i32`, with the kernel's contraction setting: without
//!   `#[fp_contract(fast)]` its sums are bit for bit the contract's order;
//!   with it, each multiply-add step may be one FMA.
//! * `a * b + c` and `c + a * b` fuse into one pass (`private::product` with
//!   an addend): the
//!   product's sums are completed in registers, then `c` is added before
//!   the result is stored, with no temporary matrix. The order of every
//!   rounding is the unfused expression's, so fusing needs no permission.
//! * A chain of element-wise operations (`+ - * /` on matrices and scalars,
//!   scalar broadcasts and matrix casts) becomes one [`ExprKind::Map`]: its
//!   operands are evaluated once, in source order, and each element of the
//!   result is computed in one loop, with no temporary matrix per
//!   operation. The loop has a constant trip count, which the compiler
//!   vectorises; at opt-level 0 it costs no call per element for floats.
//! * A kernel whose work is bounded and small ([`INLINE_WORK`]) is
//!   `#[inline(always)]` in optimised builds.

use crate::ir::{ArithOp, Contract, Dispatch, Expr, ExprKind, Kernel, MapBody};
use crate::types::{Scalar, Ty};

/// Lowers every kernel of the block in place.
pub(crate) fn lower(kernels: &mut [Kernel]) {
    for kernel in kernels.iter_mut().filter(|k| !k.stub) {
        let contract = kernel.contract;
        let dispatch = kernel.dispatch;
        kernel.body.for_each_expr_mut(&mut |e| {
            lower_expr(e, contract);
            calls_on_callers_backend(e, dispatch);
        });
        kernel.inline_when_optimised = work(&mut kernel.body).is_some_and(|w| w <= INLINE_WORK);
    }
}

/// In a `#[dispatch]` kernel, a call of another kernel of the block runs
/// that kernel's body on the backend already chosen, with no second check:
/// the whole call tree is compiled for the backend. A generic callee is
/// called through its function, which checks its constant subscripts when
/// it is instantiated (its body alone would not).
fn calls_on_callers_backend(e: &mut Expr, dispatch: Dispatch) {
    if let ExprKind::KernelCall {
        on_callers_backend,
        generic,
        ..
    } = &mut e.kind
    {
        *on_callers_backend = dispatch == Dispatch::PerCall && !*generic;
    }
}

/// The most element operations (see [`work`]) of a kernel that is
/// `#[inline(always)]` in optimised builds: a 16x16 by 16x16 product.
///
/// Why: a kernel takes and returns matrices by value. Called out of line,
/// its caller copies each operand to memory first (and on AVX-512 copies
/// with 32-byte stores that the kernel's 64-byte loads cannot forward
/// from), which costs more than a small kernel's work: `a * b + c` at 4x4
/// measured 19 ns called, 2.3 ns inlined. Inlined, the operands are read
/// where they are. The product inside stays a call where the runtime
/// decides so (`matrix_core::simd::kernels::INLINE_VECTOR_MACS`): the
/// kernel's own code is small.
const INLINE_WORK: u64 = 4096;

/// A kernel body's work in element operations, or `None` when a loop or a
/// generic dimension makes it unbounded: a product counts its
/// multiply-adds, any other matrix operation its elements.
fn work(body: &mut crate::ir::Block) -> Option<u64> {
    let mut total = Some(0u64);
    body.for_each_expr_mut(&mut |e| {
        let elements = |ty: &Ty| match ty {
            Ty::Matrix(m) => Some(m.rows.known()? * m.cols.known()?),
            _ => Some(0),
        };
        let w = match &e.kind {
            ExprKind::While { .. } | ExprKind::Loop { .. } | ExprKind::For { .. } => None,
            ExprKind::Product { lhs, rhs, .. } | ExprKind::ProductAdd { lhs, rhs, .. } => {
                match (&lhs.ty, &rhs.ty) {
                    (Ty::Matrix(a), Ty::Matrix(b)) => {
                        (|| Some(a.rows.known()? * a.cols.known()? * b.cols.known()?))()
                    }
                    _ => Some(0),
                }
            }
            ExprKind::Path(_) | ExprKind::Paren(_) | ExprKind::Group(_) => Some(0),
            _ => elements(&e.ty),
        };
        total = total.zip(w).map(|(t, w)| t.saturating_add(w));
    });
    total
}

fn lower_expr(e: &mut Expr, kernel_contract: Contract) {
    fuse_product_add(e, kernel_contract);
    fuse_elementwise(e);
}

/// Sets a product's contraction, and fuses `a * b + c` and `c + a * b`.
fn fuse_product_add(e: &mut Expr, kernel_contract: Contract) {
    match &mut e.kind {
        ExprKind::Product { contract, .. } => *contract = kernel_contract,
        ExprKind::Elementwise {
            op: ArithOp::Add,
            lhs,
            rhs,
        } => {
            // Children are lowered first, so a product operand is already a
            // `Product` with its contraction set. `(a * b) + c` fuses too.
            unparen_product(lhs);
            unparen_product(rhs);
            let addend_first = !is_product(lhs) && is_product(rhs);
            if !is_product(lhs) && !addend_first {
                return;
            }
            let placeholder = || Box::new(Expr::new(ExprKind::PlaceValue, e.ty.clone(), e.loc));
            let (product, addend) = if addend_first {
                (
                    std::mem::replace(rhs, placeholder()),
                    std::mem::replace(lhs, placeholder()),
                )
            } else {
                (
                    std::mem::replace(lhs, placeholder()),
                    std::mem::replace(rhs, placeholder()),
                )
            };
            let ExprKind::Product { lhs, rhs, contract } = product.kind else {
                return;
            };
            e.kind = ExprKind::ProductAdd {
                lhs,
                rhs,
                addend,
                addend_first,
                contract,
            };
        }
        _ => {}
    }
}

/// Turns an element-wise operation into an [`ExprKind::Map`], splicing in
/// operands that are maps already (children are lowered first, so a chain
/// becomes one map from the bottom up).
fn fuse_elementwise(e: &mut Expr) {
    let Some(elem) = map_elem(&e.ty) else {
        return;
    };
    if let ExprKind::Map { inputs, body } = &mut e.kind {
        // A map the checker made (`__builtin_matrix_map` and the other
        // element-wise builtins): its inputs that are maps join it.
        if inputs
            .iter()
            .any(|i| matches!(i.kind, ExprKind::Map { .. }))
        {
            let mut spliced = Vec::new();
            let mut with: Vec<Option<MapBody>> = std::mem::take(inputs)
                .into_iter()
                .map(|input| {
                    let input_elem = match &input.ty {
                        Ty::Scalar(s) => *s,
                        ty => map_elem(ty).unwrap_or(elem),
                    };
                    Some(map_operand(input, input_elem, &mut spliced))
                })
                .collect();
            let old = std::mem::replace(body, MapBody::Input(0));
            *body = old.substituted(&mut with);
            *inputs = spliced;
        }
        return;
    }
    let fusable = match &e.kind {
        ExprKind::Elementwise { lhs, rhs, .. } => {
            map_elem(&lhs.ty).is_some() && map_elem(&rhs.ty).is_some()
        }
        ExprKind::WithScalar { matrix, .. } => map_elem(&matrix.ty).is_some(),
        // A cast of the element type only: a layout conversion moves elements.
        ExprKind::MatrixCast { expr, to } => {
            map_elem(&expr.ty).is_some()
                && matches!(&expr.ty, Ty::Matrix(from) if from.layout == to.layout)
        }
        _ => false,
    };
    if !fusable {
        return;
    }
    let placeholder = Expr::new(ExprKind::PlaceValue, e.ty.clone(), e.loc);
    let kind = std::mem::replace(&mut e.kind, placeholder.kind);
    let mut inputs = Vec::new();
    let body = match kind {
        ExprKind::Elementwise { op, lhs, rhs } => {
            let lhs = map_operand(*lhs, elem, &mut inputs);
            let rhs = map_operand(*rhs, elem, &mut inputs);
            MapBody::Op {
                op,
                elem,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            }
        }
        ExprKind::WithScalar {
            op,
            matrix,
            scalar,
            scalar_first,
        } => {
            // Source order: the scalar first for `s op m`.
            let (lhs, rhs) = if scalar_first {
                let s = map_operand(*scalar, elem, &mut inputs);
                (s, map_operand(*matrix, elem, &mut inputs))
            } else {
                let m = map_operand(*matrix, elem, &mut inputs);
                (m, map_operand(*scalar, elem, &mut inputs))
            };
            MapBody::Op {
                op,
                elem,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            }
        }
        ExprKind::MatrixCast { expr, to } => MapBody::Cast {
            expr: Box::new(map_operand(*expr, elem, &mut inputs)),
            to: to.elem,
        },
        _ => unreachable!("checked as fusable above"),
    };
    e.kind = ExprKind::Map { inputs, body };
}

/// The element type of a matrix type whose elements a map can compute with
/// Rust's primitive operators (`half::f16` and `half::bf16` are left to the
/// operators of `Matrix`).
fn map_elem(ty: &Ty) -> Option<Scalar> {
    match ty {
        Ty::Matrix(m) if !matches!(m.elem, Scalar::F16 | Scalar::BF16) => Some(m.elem),
        _ => None,
    }
}

/// One operand of a map: a map's inputs and body spliced in, a broadcast
/// scalar as a scalar input, anything else as an input.
fn map_operand(operand: Expr, scalar_elem: Scalar, inputs: &mut Vec<Expr>) -> MapBody {
    let mut operand = operand;
    while let ExprKind::Paren(_) | ExprKind::Group(_) = operand.kind {
        let (ExprKind::Paren(inner) | ExprKind::Group(inner)) = operand.kind else {
            unreachable!()
        };
        operand = *inner;
    }
    match operand.kind {
        ExprKind::Map {
            inputs: inner,
            body,
        } => {
            let offset = inputs.len();
            inputs.extend(inner);
            body.shifted(offset)
        }
        ExprKind::Splat { scalar, to } => {
            // Typed as the element it becomes, for the map's `let`.
            inputs.push(Expr::new(scalar.kind, Ty::Scalar(to.elem), scalar.loc));
            MapBody::Input(inputs.len() - 1)
        }
        kind => {
            let ty = match operand.ty {
                Ty::Matrix(m) => Ty::Matrix(m),
                // A scalar operand of `WithScalar`, already converted to the
                // element type of the operation.
                _ => Ty::Scalar(scalar_elem),
            };
            inputs.push(Expr::new(kind, ty, operand.loc));
            MapBody::Input(inputs.len() - 1)
        }
    }
}

/// `(a * b)` becomes `a * b`: the parentheses change nothing once the
/// product is a node.
fn unparen_product(e: &mut Box<Expr>) {
    while let ExprKind::Paren(inner) | ExprKind::Group(inner) = &mut e.kind {
        if !matches!(
            inner.kind,
            ExprKind::Product { .. } | ExprKind::Paren(_) | ExprKind::Group(_)
        ) {
            return;
        }
        let inner = std::mem::replace(
            inner,
            Box::new(Expr::new(ExprKind::PlaceValue, e.ty.clone(), e.loc)),
        );
        *e = inner;
    }
}

fn is_product(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Product { .. })
}

#[cfg(test)]
mod tests {
    use crate::diag::Diagnostics;
    use crate::ir::{ArithOp, Contract, ExprKind, Kernel, MapBody, Stmt};
    use crate::types::Scalar;

    fn lowered(src: &str) -> Vec<Kernel> {
        let mut diags = Diagnostics::default();
        let block = crate::parse::parse_block(src.parse().unwrap(), &mut diags);
        let mut program = crate::check::check(block, &mut diags);
        assert_eq!(diags.len(), 0, "{}", diags.to_compile_errors());
        super::lower(&mut program.kernels);
        program.kernels
    }

    fn tail(k: &Kernel) -> &ExprKind {
        match k.body.stmts.last() {
            Some(Stmt::Expr { expr, semi: false }) => &expr.kind,
            _ => panic!("no tail"),
        }
    }

    const TYPEDEF: &str = "typedef float m_t __attribute__((matrix_type(4, 4)));";

    /// Each load of each kernel, in source order: `b` bound by `let` as a
    /// reference to the matrix in memory, `r` read in place as a value
    /// (copied where a value is needed), `c` copied by the load.
    fn loads(kernels: &mut [Kernel]) -> Vec<String> {
        kernels
            .iter_mut()
            .map(|k| {
                let mut found = String::new();
                // Children first: a load, then the reference around it.
                k.body.for_each_expr_mut(&mut |e| match &e.kind {
                    ExprKind::Load { view, .. } => found.push(if *view { 'r' } else { 'c' }),
                    ExprKind::Reference { expr, .. }
                        if matches!(expr.kind, ExprKind::Load { .. }) =>
                    {
                        found.pop();
                        found.push('b');
                    }
                    _ => {}
                });
                found
            })
            .collect()
    }

    #[test]
    fn dense_loads_bound_from_shared_slice_parameters_are_read_in_place() {
        let mut kernels = lowered(&format!(
            "{TYPEDEF} typedef float n_t __attribute__((matrix_type(4, 2)));
             fn views(a: &[f32], b: &[f32]) -> m_t {{
                 let x: m_t = __builtin_matrix_column_major_load(a, 4, 4, 4);
                 let y = __builtin_matrix_row_major_load(b, 4, 4);
                 x * (m_t) y
             }}
             fn copies(a: &[f32], b: &mut [f32], s: usize, p: *const f32) -> n_t {{
                 let mut x: n_t = __builtin_matrix_column_major_load(a, 4, 2);
                 let y: n_t = __builtin_matrix_column_major_load(b, 4, 2);
                 let z: n_t = __builtin_matrix_column_major_load(a, 4, 2, 5);
                 let w: n_t = __builtin_matrix_column_major_load(a, 4, 2, s);
                 let v: n_t = unsafe {{ __builtin_matrix_column_major_load(p, 4, 2) }};
                 let u: n_t = __builtin_matrix_column_major_load(a, 4, 2);
                 println!(\"{{:?}}\", u);
                 x[0][0] = 1.0f32;
                 x + y + z + w + v + u + __builtin_matrix_column_major_load(a, 4, 2)
             }}
             fn used(a: &[f32]) -> n_t {{
                 let t: n_t = __builtin_matrix_column_major_load(a, 4, 2);
                 let _ = t.as_slice();
                 let r: n_t = __builtin_matrix_column_major_load(a, 4, 2);
                 r[1][0] += 2.0f32;
                 let q: n_t = __builtin_matrix_column_major_load(a, 4, 2);
                 let _ = &mut q;
                 r + t + q
             }}
             fn moved(a: &[f32]) -> m_t {{
                 let x: m_t = __builtin_matrix_column_major_load(a, 4, 4);
                 let f = move || x * 2.0f32;
                 f()
             }}
             fn local(a: &[f32]) -> m_t {{
                 let c = a;
                 let x: m_t = __builtin_matrix_column_major_load(c, 4, 4);
                 let a = c;
                 let y: m_t = __builtin_matrix_column_major_load(a, 4, 4);
                 x + y
             }}"
        ));
        assert_eq!(
            loads(&mut kernels),
            [
                // Bound to references: used by a product, one converted.
                "bb",
                // `mut` (read in place, then copied into `x`), `&mut`
                // memory, a gap between columns, a dynamic stride, a
                // pointer, a name a macro sees, a load with no binding
                // (read in place by the sum).
                "rccccrr",
                // A method's receiver, a name assigned through a subscript,
                // one borrowed mutably: rustc's messages stay about `mut`.
                "rrr",
                // A body with a `move` closure: a copy may go where a
                // reference may not.
                "r",
                // A local slice (it may borrow memory the kernel changes),
                // and a local shadowing the parameter.
                "cc",
            ]
        );
    }

    #[test]
    fn small_loop_free_kernels_are_inlined_and_others_are_not() {
        let kernels = lowered(
            "typedef float m_t __attribute__((matrix_type(16, 16)));
             typedef float l_t __attribute__((matrix_type(17, 16)));
             fn product(a: m_t, b: m_t) -> m_t { a * b }
             fn product_add(a: m_t, b: m_t, c: m_t) -> m_t { a * b + c }
             fn larger(a: l_t, b: m_t) -> l_t { a * b }
             fn looped(a: m_t) -> m_t { let mut r = a; for _ in 0..2 { r = r + a; } r }",
        );
        let inlined: Vec<bool> = kernels.iter().map(|k| k.inline_when_optimised).collect();
        // 16x16x16 = 4096 multiply-adds is the limit (a fused addend adds
        // no work of its own); a 17th row takes a product past it; a loop
        // makes the work unbounded.
        assert_eq!(inlined, [true, true, false, false]);
    }

    #[test]
    fn a_product_plus_a_matrix_fuses_either_way_round() {
        let ks = lowered(&format!(
            "{TYPEDEF} fn f(a: m_t, b: m_t, c: m_t) -> m_t {{ a * b + c }} fn g(a: m_t, b: m_t, c: m_t) -> m_t {{ c + a * b }}"
        ));
        // `f`'s addend comes last, `g`'s first; neither contracts.
        for (k, first) in ks.iter().zip([false, true]) {
            let ExprKind::ProductAdd {
                addend_first,
                contract,
                ..
            } = tail(k)
            else {
                panic!("a kernel whose tail is not a fused product");
            };
            assert_eq!((*addend_first, *contract), (first, Contract::Off));
        }
    }

    #[test]
    fn fp_contract_fast_reaches_the_product() {
        let ks = lowered(&format!(
            "{TYPEDEF} #[fp_contract(fast)] fn f(a: m_t, b: m_t) -> m_t {{ a * b }}"
        ));
        assert!(matches!(
            tail(&ks[0]),
            ExprKind::Product {
                contract: Contract::Fast,
                ..
            }
        ));
    }

    #[test]
    fn a_difference_does_not_fuse() {
        let ks = lowered(&format!(
            "{TYPEDEF} fn f(a: m_t, b: m_t, c: m_t) -> m_t {{ a * b - c }}"
        ));
        let ExprKind::Map { inputs, body } = tail(&ks[0]) else {
            panic!("not a map");
        };
        assert!(matches!(inputs[0].kind, ExprKind::Product { .. }));
        assert!(matches!(
            body,
            MapBody::Op {
                op: ArithOp::Sub,
                ..
            }
        ));
    }

    /// The inputs of a map in order, as the kinds of their expressions.
    fn map_inputs(e: &ExprKind) -> Vec<String> {
        let ExprKind::Map { inputs, .. } = e else {
            panic!("not a map");
        };
        inputs
            .iter()
            .map(|i| match &i.kind {
                ExprKind::Path(t) => t.to_string(),
                ExprKind::ConstScalar(t) => format!("const {t}"),
                ExprKind::ConvertScalar { .. } => "convert".to_string(),
                ExprKind::Product { .. } => "product".to_string(),
                ExprKind::Transpose(_) => "transpose".to_string(),
                _ => "other".to_string(),
            })
            .collect()
    }

    #[test]
    fn an_elementwise_chain_is_one_map_with_its_operands_in_source_order() {
        let ks = lowered(&format!(
            "{TYPEDEF} fn f(a: m_t, b: m_t, c: m_t, s: f32) -> m_t {{ (a + b * 2.0f32) - s * c / 4.0f32 + (m_t)s }}"
        ));
        assert_eq!(
            map_inputs(tail(&ks[0])),
            ["a", "b", "const 2f32", "s", "c", "const 4f32", "convert"]
        );
    }

    #[test]
    fn an_element_wise_builtin_joins_the_chain_around_it() {
        let ks = lowered(&format!(
            "{TYPEDEF} fn f(a: m_t, b: m_t, s: f32) -> m_t {{ \
             __builtin_matrix_map(a + b * s, |x| x * 2.0f32) - __builtin_matrix_zip(a, b, |x, y| x / y) }}"
        ));
        // One pass: the map's and the zip's inputs are the chain's.
        assert_eq!(map_inputs(tail(&ks[0])), ["a", "b", "s", "a", "b"]);
        let ExprKind::Map { body, .. } = tail(&ks[0]) else {
            panic!("not a map");
        };
        let MapBody::Op { lhs, rhs, .. } = body else {
            panic!("not an operation");
        };
        let MapBody::Closure { args, .. } = &**lhs else {
            panic!("not the map's closure");
        };
        assert!(matches!(
            args[0],
            MapBody::Op {
                op: ArithOp::Add,
                ..
            }
        ));
        assert!(matches!(&**rhs, MapBody::Closure { args, .. } if args.len() == 2));
    }

    #[test]
    fn a_matrix_cast_joins_the_map_and_a_transpose_stays_an_input() {
        let ks = lowered(&format!(
            "{TYPEDEF} typedef double d_t __attribute__((matrix_type(4, 4))); \
             fn f(a: m_t, b: m_t, d: d_t) -> d_t {{ (d_t)(a + __builtin_matrix_transpose(b)) + d }}"
        ));
        let ExprKind::Map { body, .. } = tail(&ks[0]) else {
            panic!("not a map");
        };
        assert_eq!(map_inputs(tail(&ks[0])), ["a", "transpose", "d"]);
        let MapBody::Op { lhs, .. } = body else {
            panic!("not an operation");
        };
        assert!(matches!(
            **lhs,
            MapBody::Cast {
                to: Scalar::F64,
                ..
            }
        ));
    }

    #[test]
    fn a_product_stays_out_of_a_map_and_fuses_with_its_addend() {
        let ks = lowered(&format!(
            "{TYPEDEF} fn f(a: m_t, b: m_t, c: m_t) -> m_t {{ a * b + c * 2.0f32 }}"
        ));
        let ExprKind::ProductAdd { addend, .. } = tail(&ks[0]) else {
            panic!("not fused");
        };
        assert_eq!(map_inputs(&addend.kind), ["c", "const 2f32"]);
    }
}
