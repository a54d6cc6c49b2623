//! Typed IR to lowered IR: how each matrix operation runs, now that every
//! shape is known.
//!
//! * Every product runs on the runtime's product kernel
//!   (`matrix_core::private::product`), register-tiled SIMD for `f32`, `f64`
//!   and `i32`, with the kernel's contraction setting: without
//!   `#[fp_contract(fast)]` its sums are bit for bit the contract's order;
//!   with it, each multiply-add step may be one FMA.
//! * `a * b + c` and `c + a * b` fuse into one pass (`product_add`): the
//!   product's sums are completed in registers, then `c` is added before
//!   the result is stored, with no temporary matrix. The order of every
//!   rounding is the unfused expression's, so fusing needs no permission.

use crate::ir::{ArithOp, Contract, Expr, ExprKind, Kernel};

/// Lowers every kernel of the block in place.
pub(crate) fn lower(kernels: &mut [Kernel]) {
    for kernel in kernels.iter_mut().filter(|k| !k.stub) {
        let contract = kernel.contract;
        kernel
            .body
            .for_each_expr_mut(&mut |e| lower_expr(e, contract));
    }
}

fn lower_expr(e: &mut Expr, kernel_contract: Contract) {
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
    use crate::ir::{Contract, ExprKind, Kernel, Stmt};

    fn lowered(src: &str) -> Vec<Kernel> {
        let mut diags = Diagnostics::default();
        let block = crate::parse::parse_block(src.parse().unwrap(), &mut diags);
        let mut program = crate::check::check(block, &mut diags);
        assert_eq!(diags.len(), 0);
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

    #[test]
    fn a_product_plus_a_matrix_fuses_either_way_round() {
        let ks = lowered(&format!(
            "{TYPEDEF} fn f(a: m_t, b: m_t, c: m_t) -> m_t {{ a * b + c }} fn g(a: m_t, b: m_t, c: m_t) -> m_t {{ c + a * b }}"
        ));
        assert!(matches!(
            tail(&ks[0]),
            ExprKind::ProductAdd {
                addend_first: false,
                contract: Contract::Off,
                ..
            }
        ));
        assert!(matches!(
            tail(&ks[1]),
            ExprKind::ProductAdd {
                addend_first: true,
                ..
            }
        ));
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
        assert!(matches!(tail(&ks[0]), ExprKind::Elementwise { .. }));
    }
}
