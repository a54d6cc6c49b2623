//! An expression printed in C and in `matrix!` at once, for the generators
//! whose two languages share their spelling ([`crate::vgen`],
//! [`crate::lgen`]).

use crate::emit::Lang;

/// An expression in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ex {
    /// The C text.
    pub c: String,
    /// The Rust text.
    pub rs: String,
    /// Needs no parentheses as an operand or before `.` / `[`.
    pub atom: bool,
}

impl Ex {
    /// The same atomic text in both languages (a name, a literal).
    pub fn atom(s: String) -> Ex {
        Ex {
            c: s.clone(),
            rs: s,
            atom: true,
        }
    }

    /// An atomic expression spelled differently in the two languages.
    pub fn atom2(c: String, rs: String) -> Ex {
        Ex { c, rs, atom: true }
    }

    /// Parenthesised unless atomic.
    pub fn paren(self) -> Ex {
        if self.atom {
            return self;
        }
        Ex {
            c: format!("({})", self.c),
            rs: format!("({})", self.rs),
            atom: true,
        }
    }

    /// `self OP other`, operands parenthesised unless atomic.
    pub fn bin(self, op: &str, other: Ex) -> Ex {
        let (a, b) = (self.paren(), other.paren());
        Ex {
            c: format!("{} {op} {}", a.c, b.c),
            rs: format!("{} {op} {}", a.rs, b.rs),
            atom: false,
        }
    }

    /// `self` followed by `suffix` (a component, a subscript).
    pub fn postfix(self, suffix: &str) -> Ex {
        let a = self.paren();
        Ex::atom2(format!("{}{suffix}", a.c), format!("{}{suffix}", a.rs))
    }

    /// `NAME(args)` in both languages.
    pub fn call(name: &str, args: &[&Ex]) -> Ex {
        let c: Vec<&str> = args.iter().map(|a| a.c.as_str()).collect();
        let rs: Vec<&str> = args.iter().map(|a| a.rs.as_str()).collect();
        Ex::atom2(
            format!("{name}({})", c.join(", ")),
            format!("{name}({})", rs.join(", ")),
        )
    }

    /// The text in `lang`.
    pub fn text(&self, lang: Lang) -> &str {
        match lang {
            Lang::C => &self.c,
            Lang::Rust => &self.rs,
        }
    }
}
