//! Integer constant expressions: literals, `+ - * / %`, unary minus,
//! parentheses, `as` to an integer type, and the block's own `const` items.

use std::collections::HashMap;
use syn::{BinOp, Expr, Lit, UnOp};

/// The values of the block's integer `const` items.
pub(crate) type Consts = HashMap<String, i128>;

/// Evaluates `expr`, or returns `None` when it is not an integer constant
/// expression (a variable, a float, an overflow, a division by zero).
pub(crate) fn eval(expr: &Expr, consts: &Consts) -> Option<i128> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Int(int) => int
                .base10_parse::<u128>()
                .ok()
                .and_then(|v| i128::try_from(v).ok()),
            _ => None,
        },
        Expr::Paren(p) => eval(&p.expr, consts),
        Expr::Group(g) => eval(&g.expr, consts),
        Expr::Unary(u) => match u.op {
            UnOp::Neg(_) => eval(&u.expr, consts)?.checked_neg(),
            _ => None,
        },
        Expr::Binary(b) => {
            let l = eval(&b.left, consts)?;
            let r = eval(&b.right, consts)?;
            match b.op {
                BinOp::Add(_) => l.checked_add(r),
                BinOp::Sub(_) => l.checked_sub(r),
                BinOp::Mul(_) => l.checked_mul(r),
                BinOp::Div(_) => l.checked_div(r),
                BinOp::Rem(_) => l.checked_rem(r),
                _ => None,
            }
        }
        Expr::Cast(c) => {
            let v = eval(&c.expr, consts)?;
            match &*c.ty {
                syn::Type::Path(p) if p.qself.is_none() => {
                    let name = p.path.get_ident()?.to_string();
                    match crate::types::Scalar::from_rust_name(&name) {
                        Some(s) if s.is_integer() => Some(v),
                        _ => None,
                    }
                }
                _ => None,
            }
        }
        Expr::Path(p) if p.qself.is_none() => {
            let ident = p.path.get_ident()?;
            consts.get(&ident.to_string()).copied()
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(src: &str) -> Option<i128> {
        let mut consts = Consts::new();
        consts.insert("N".into(), 3);
        eval(&syn::parse_str(src).unwrap(), &consts)
    }

    #[test]
    fn evaluates_the_contract_forms() {
        assert_eq!(ev("4"), Some(4));
        assert_eq!(ev("(N + 1) * 2 - 8 / 4"), Some(6));
        assert_eq!(ev("-1"), Some(-1));
        assert_eq!(ev("N as usize"), Some(3));
        assert_eq!(ev("7 % 4"), Some(3));
    }

    #[test]
    fn refuses_what_is_not_constant() {
        assert_eq!(ev("x"), None);
        assert_eq!(ev("4.0"), None);
        assert_eq!(ev("1 / 0"), None);
        assert_eq!(ev("170141183460469231731687303715884105727 + 1"), None);
        assert_eq!(ev("f(1)"), None);
    }
}
