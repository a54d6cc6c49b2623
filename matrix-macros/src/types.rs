//! The types the checker reasons about, and how Clang spells them in messages.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote_spanned};
use std::fmt;

/// Clang's limit on each matrix dimension (2^20 - 1).
pub(crate) const MAX_DIMENSION: u64 = 1_048_575;

/// Declares [`Scalar`] from one table, a row per type: its variant, its
/// Rust name and the name Clang prints (a type with no C name is spelled as
/// Rust writes it), so that the variants, `Scalar::ALL` and both names
/// cannot disagree.
macro_rules! scalars {
    ($($variant:ident: $rust:literal, $c:literal;)*) => {
        /// A Rust primitive scalar type the checker knows by name.
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        pub(crate) enum Scalar {
            $($variant,)*
        }

        impl Scalar {
            /// Every scalar type, in the enum's order.
            const ALL: &[Scalar] = &[$(Scalar::$variant,)*];

            /// The name Clang prints.
            pub(crate) fn c_name(self) -> &'static str {
                match self {
                    $(Scalar::$variant => $c,)*
                }
            }

            /// The Rust spelling.
            pub(crate) fn rust_name(self) -> &'static str {
                match self {
                    $(Scalar::$variant => $rust,)*
                }
            }
        }
    };
}

scalars! {
    I8: "i8", "signed char";
    I16: "i16", "short";
    I32: "i32", "int";
    I64: "i64", "long";
    U8: "u8", "unsigned char";
    U16: "u16", "unsigned short";
    U32: "u32", "unsigned int";
    U64: "u64", "unsigned long";
    F16: "f16", "_Float16";
    BF16: "bf16", "__bf16";
    F32: "f32", "float";
    F64: "f64", "double";
    I128: "i128", "i128";
    U128: "u128", "u128";
    Isize: "isize", "isize";
    Usize: "usize", "usize";
    Bool: "bool", "bool";
    Char: "char", "char";
}

impl Scalar {
    /// The Rust spelling of a primitive type name, if it is one: the
    /// inverse of [`Scalar::rust_name`].
    pub(crate) fn from_rust_name(name: &str) -> Option<Scalar> {
        Self::ALL.iter().copied().find(|s| s.rust_name() == name)
    }

    /// Whether a matrix may hold this type (the contract's element types).
    pub(crate) fn is_element(self) -> bool {
        !matches!(
            self,
            Scalar::I128
                | Scalar::U128
                | Scalar::Isize
                | Scalar::Usize
                | Scalar::Bool
                | Scalar::Char
        )
    }

    /// The `matrix-core` feature a matrix of this element type needs, if
    /// it is off (`f16`, `bf16`; `matrix-core` turns on the macro's feature
    /// of the same name).
    pub(crate) fn missing_feature(self) -> Option<&'static str> {
        match self {
            Scalar::F16 if !cfg!(feature = "f16") => Some("f16"),
            Scalar::BF16 if !cfg!(feature = "bf16") => Some("bf16"),
            _ => None,
        }
    }

    pub(crate) fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::BF16 | Scalar::F32 | Scalar::F64)
    }

    pub(crate) fn is_integer(self) -> bool {
        !self.is_float() && !matches!(self, Scalar::Bool | Scalar::Char)
    }

    pub(crate) fn is_signed(self) -> bool {
        matches!(
            self,
            Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64 | Scalar::I128 | Scalar::Isize
        )
    }

    /// Width in bits (usize and isize are taken as 64-bit, the host's width).
    pub(crate) fn bits(self) -> u32 {
        match self {
            Scalar::I8 | Scalar::U8 | Scalar::Bool => 8,
            Scalar::I16 | Scalar::U16 | Scalar::F16 | Scalar::BF16 => 16,
            Scalar::I32 | Scalar::U32 | Scalar::F32 | Scalar::Char => 32,
            Scalar::I64 | Scalar::U64 | Scalar::F64 | Scalar::Isize | Scalar::Usize => 64,
            Scalar::I128 | Scalar::U128 => 128,
        }
    }

    /// The size of a value in bytes (`usize` as on 64-bit targets).
    pub(crate) fn bytes(self) -> u64 {
        u64::from(self.bits() / 8)
    }

    /// The Rust type, as tokens carrying `span`.
    pub(crate) fn to_tokens(self, span: Span) -> TokenStream {
        match self {
            Scalar::F16 => quote_spanned!(span=> ::matrix_core::private::f16),
            Scalar::BF16 => quote_spanned!(span=> ::matrix_core::private::bf16),
            _ => {
                let ident = syn::Ident::new(self.rust_name(), span);
                quote_spanned!(span=> #ident)
            }
        }
    }
}

/// The memory layout of a matrix type: the optional third argument of
/// `matrix_type(R, C, LAYOUT)`, the fourth parameter of `Matrix`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) enum Layout {
    /// Clang's layout, and the default.
    #[default]
    ColumnMajor,
    RowMajor,
}

impl Layout {
    /// Every layout, for lookups by name.
    const ALL: [Layout; 2] = [Layout::ColumnMajor, Layout::RowMajor];

    /// The spelling in a `matrix_type` attribute.
    pub(crate) fn attribute_name(self) -> &'static str {
        match self {
            Layout::ColumnMajor => "column_major",
            Layout::RowMajor => "row_major",
        }
    }

    /// The runtime's marker type (`matrix_core::RowMajor`).
    pub(crate) fn rust_name(self) -> &'static str {
        match self {
            Layout::ColumnMajor => "ColumnMajor",
            Layout::RowMajor => "RowMajor",
        }
    }

    pub(crate) fn from_attribute_name(name: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.attribute_name() == name)
    }

    pub(crate) fn from_rust_name(name: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.rust_name() == name)
    }

    /// `::matrix_core::RowMajor` (or `ColumnMajor`) as tokens.
    pub(crate) fn to_tokens(self, span: Span) -> TokenStream {
        let ident = syn::Ident::new(self.rust_name(), span);
        quote_spanned!(span=> ::matrix_core::#ident)
    }
}

/// The order of a matrix in memory, for a load or store: the runtime's
/// `matrix_core::MemoryLayout`. Not part of any type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum MemoryLayout {
    ColumnMajor,
    RowMajor,
    PackedA,
    PackedB,
}

impl MemoryLayout {
    /// Every memory layout, for lookups by name.
    pub(crate) const ALL: [MemoryLayout; 4] = [
        MemoryLayout::ColumnMajor,
        MemoryLayout::RowMajor,
        MemoryLayout::PackedA,
        MemoryLayout::PackedB,
    ];

    /// The spelling as an argument of `__builtin_matrix_load`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            MemoryLayout::ColumnMajor => "column_major",
            MemoryLayout::RowMajor => "row_major",
            MemoryLayout::PackedA => "packed_a",
            MemoryLayout::PackedB => "packed_b",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<MemoryLayout> {
        MemoryLayout::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The type layout whose lines these are: a load gives a matrix of it,
    /// and a store of a matrix in it copies whole lines. `packed_a` packs
    /// groups of columns, `packed_b` groups of rows.
    pub(crate) fn lines(self) -> Layout {
        match self {
            MemoryLayout::ColumnMajor | MemoryLayout::PackedA => Layout::ColumnMajor,
            MemoryLayout::RowMajor | MemoryLayout::PackedB => Layout::RowMajor,
        }
    }

    /// Whether this is one of the two packed (VNNI) layouts.
    pub(crate) fn is_packed(self) -> bool {
        matches!(self, MemoryLayout::PackedA | MemoryLayout::PackedB)
    }

    /// How many elements of `elem` share a 32-bit word in this layout (1
    /// unless packed).
    pub(crate) fn group(self, elem: Scalar) -> u64 {
        if self.is_packed() && elem.bytes() < 4 {
            4 / elem.bytes()
        } else {
            1
        }
    }

    /// The dimension that counts the elements of a line (before grouping):
    /// `rows` for column lines, `cols` for row lines.
    pub(crate) fn line_dim<'a>(self, rows: &'a Dim, cols: &'a Dim) -> &'a Dim {
        match self.lines() {
            Layout::ColumnMajor => rows,
            Layout::RowMajor => cols,
        }
    }

    /// The length of a line of a `rows x cols` matrix of `elem`, when its
    /// dimensions are constants: the smallest stride (the runtime's
    /// `MemoryLayout::line_len`).
    pub(crate) fn line_len(self, rows: &Dim, cols: &Dim, elem: Scalar) -> Option<u64> {
        Some(self.line_dim(rows, cols).known()? * self.group(elem))
    }

    /// `::matrix_core::MemoryLayout::PackedB` (and so on) as tokens.
    pub(crate) fn to_tokens(self, span: Span) -> TokenStream {
        let variant = match self {
            MemoryLayout::ColumnMajor => "ColumnMajor",
            MemoryLayout::RowMajor => "RowMajor",
            MemoryLayout::PackedA => "PackedA",
            MemoryLayout::PackedB => "PackedB",
        };
        let ident = syn::Ident::new(variant, span);
        quote_spanned!(span=> ::matrix_core::MemoryLayout::#ident)
    }
}

impl From<Layout> for MemoryLayout {
    fn from(layout: Layout) -> MemoryLayout {
        match layout {
            Layout::ColumnMajor => MemoryLayout::ColumnMajor,
            Layout::RowMajor => MemoryLayout::RowMajor,
        }
    }
}

/// A matrix dimension: a constant, or a const generic parameter of the
/// kernel being checked (`N` in `fn trace<const N: usize>(m: Matrix<f32,
/// N, N>)`).
///
/// Two dimensions are equal when both are the same constant or both the
/// same parameter: inside a generic kernel rustc never unifies `N` with `3`
/// or with another parameter `M`, so neither does the checker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dim {
    Known(u64),
    Param(syn::Ident),
}

impl Dim {
    /// The value, when it is a constant.
    pub(crate) fn known(&self) -> Option<u64> {
        match self {
            Dim::Known(v) => Some(*v),
            Dim::Param(_) => None,
        }
    }

    /// A `usize` literal, or the parameter's name, as tokens.
    pub(crate) fn to_tokens(&self, span: Span) -> TokenStream {
        match self {
            Dim::Known(v) => usize_lit(*v, span).into_token_stream(),
            Dim::Param(name) => name.to_token_stream(),
        }
    }
}

impl From<u64> for Dim {
    fn from(value: u64) -> Dim {
        Dim::Known(value)
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dim::Known(v) => v.fmt(f),
            Dim::Param(name) => name.fmt(f),
        }
    }
}

/// A matrix type: element, shape, layout, and the typedef name it was
/// reached through.
///
/// Two matrix types are the same type when element, shape and layout agree;
/// the name only decides how a message spells it.
#[derive(Clone, Debug)]
pub(crate) struct MatTy {
    pub(crate) elem: Scalar,
    pub(crate) rows: Dim,
    pub(crate) cols: Dim,
    pub(crate) layout: Layout,
    pub(crate) name: Option<String>,
}

impl MatTy {
    pub(crate) fn unnamed(elem: Scalar, rows: Dim, cols: Dim, layout: Layout) -> MatTy {
        MatTy {
            elem,
            rows,
            cols,
            layout,
            name: None,
        }
    }

    pub(crate) fn same_type(&self, other: &MatTy) -> bool {
        self.elem == other.elem
            && self.rows == other.rows
            && self.cols == other.cols
            && self.layout == other.layout
    }

    /// Whether a dimension is a const generic parameter.
    pub(crate) fn is_generic(&self) -> bool {
        self.rows.known().is_none() || self.cols.known().is_none()
    }

    pub(crate) fn same_shape(&self, other: &MatTy) -> bool {
        self.rows == other.rows && self.cols == other.cols
    }

    /// `::matrix_core::Matrix<T, R, C>` (with `, RowMajor` for that
    /// layout) as tokens.
    pub(crate) fn to_tokens(&self, span: Span) -> TokenStream {
        let args = self.generic_args(span);
        quote_spanned!(span=> ::matrix_core::Matrix #args)
    }

    /// `<T, R, C>`, or `<T, R, C, ::matrix_core::RowMajor>`: the arguments
    /// of `Matrix` for this type.
    pub(crate) fn generic_args(&self, span: Span) -> TokenStream {
        let elem = self.elem.to_tokens(span);
        let rows = self.rows.to_tokens(span);
        let cols = self.cols.to_tokens(span);
        match self.layout {
            Layout::ColumnMajor => quote_spanned!(span=> <#elem, #rows, #cols>),
            Layout::RowMajor => {
                let layout = self.layout.to_tokens(span);
                quote_spanned!(span=> <#elem, #rows, #cols, #layout>)
            }
        }
    }
}

/// A `usize` literal the expansion writes. It keeps the call-site span:
/// lints read the source text under a literal's span, and this literal has
/// none of its own.
pub(crate) fn usize_lit(value: u64, _span: Span) -> proc_macro2::Literal {
    proc_macro2::Literal::usize_unsuffixed(value as usize)
}

impl fmt::Display for MatTy {
    /// Clang's spelling: the typedef name, or the bare attribute form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => f.write_str(name),
            None => {
                write!(
                    f,
                    "{} __attribute__((matrix_type({}, {}",
                    self.elem.c_name(),
                    self.rows,
                    self.cols
                )?;
                if self.layout != Layout::ColumnMajor {
                    write!(f, ", {}", self.layout.attribute_name())?;
                }
                f.write_str(")))")
            }
        }
    }
}

/// An `ext_vector_type(N)` vector type.
#[derive(Clone, Debug)]
pub(crate) struct VecTy {
    pub(crate) elem: Scalar,
    pub(crate) len: u64,
    pub(crate) name: Option<String>,
}

impl VecTy {
    pub(crate) fn same_type(&self, other: &VecTy) -> bool {
        self.elem == other.elem && self.len == other.len
    }

    /// `::matrix_core::Vector<T, N>` as tokens.
    pub(crate) fn to_tokens(&self, span: Span) -> TokenStream {
        let elem = self.elem.to_tokens(span);
        let len = usize_lit(self.len, span);
        quote_spanned!(span=> ::matrix_core::Vector<#elem, #len>)
    }
}

impl fmt::Display for VecTy {
    /// Clang's spelling: the typedef name, or the bare attribute form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => f.write_str(name),
            None => write!(
                f,
                "{} __attribute__((ext_vector_type({})))",
                self.elem.c_name(),
                self.len
            ),
        }
    }
}

/// What a sequence of elements is, for loads and stores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SeqKind {
    /// `[T]` behind a reference, or `Vec<T>` / `[T; N]` reached through one.
    Slice,
    /// `[T; N]` held by value.
    Array,
    /// `Vec<T>` held by value.
    Vec,
}

/// The type of an expression, as far as the checker can tell.
#[derive(Clone, Debug)]
pub(crate) enum Ty {
    Matrix(MatTy),
    Vector(VecTy),
    Scalar(Scalar),
    /// An unsuffixed integer literal (C's `int`, or `long` when it does not fit).
    IntLiteral,
    /// An unsuffixed float literal (C's `double`).
    FloatLiteral,
    /// A sequence of elements: `&[T]`, `&mut [T]`, `[T; N]`, `Vec<T>`.
    Seq {
        elem: Box<Ty>,
        kind: SeqKind,
        mutable: bool,
    },
    /// A raw pointer `*const T` / `*mut T`.
    Ptr {
        elem: Box<Ty>,
        mutable: bool,
    },
    /// A reference to a non-sequence `&T` / `&mut T`.
    Ref {
        inner: Box<Ty>,
        mutable: bool,
    },
    Unit,
    /// A type the checker does not model, with its Rust spelling when known.
    Other(Option<String>),
    /// The type of an expression that already has an error: never reported again.
    Error,
}

impl Ty {
    pub(crate) fn unknown() -> Ty {
        Ty::Other(None)
    }

    pub(crate) fn is_matrix(&self) -> bool {
        matches!(self, Ty::Matrix(_))
    }

    pub(crate) fn is_error(&self) -> bool {
        matches!(self, Ty::Error)
    }

    /// A value that can meet a matrix as its scalar operand: a known scalar,
    /// a literal, or a value of a type the checker does not model (converted
    /// with `as` semantics; rustc rejects it if it is not a number).
    pub(crate) fn is_scalar_like(&self) -> bool {
        match self {
            Ty::Scalar(s) => *s != Scalar::Char,
            Ty::IntLiteral | Ty::FloatLiteral | Ty::Other(None) => true,
            _ => false,
        }
    }

    /// A value known to be an integer (for indices).
    pub(crate) fn is_integer_like(&self) -> bool {
        match self {
            Ty::Scalar(s) => s.is_integer(),
            Ty::IntLiteral | Ty::Other(None) | Ty::Error => true,
            _ => false,
        }
    }

    /// The element of a sequence, pointer, or reference to a sequence.
    pub(crate) fn pointee(&self) -> Option<(&Ty, bool, bool)> {
        match self {
            Ty::Seq { elem, mutable, .. } => Some((elem, *mutable, false)),
            Ty::Ptr { elem, mutable } => Some((elem, *mutable, true)),
            _ => None,
        }
    }
}

impl fmt::Display for Ty {
    /// The spelling used inside `'...'` in messages.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Matrix(m) => m.fmt(f),
            Ty::Vector(v) => v.fmt(f),
            Ty::Scalar(s) => f.write_str(s.c_name()),
            Ty::IntLiteral => f.write_str("int"),
            Ty::FloatLiteral => f.write_str("double"),
            Ty::Seq {
                elem,
                kind,
                mutable,
            } => match kind {
                SeqKind::Slice if *mutable => write!(f, "&mut [{}]", RustSpelling(elem)),
                SeqKind::Slice => write!(f, "&[{}]", RustSpelling(elem)),
                SeqKind::Array => write!(f, "[{}; _]", RustSpelling(elem)),
                SeqKind::Vec => write!(f, "Vec<{}>", RustSpelling(elem)),
            },
            Ty::Ptr { elem, mutable } => {
                write!(
                    f,
                    "*{} {}",
                    if *mutable { "mut" } else { "const" },
                    RustSpelling(elem)
                )
            }
            Ty::Ref { inner, mutable } => {
                write!(
                    f,
                    "&{}{}",
                    if *mutable { "mut " } else { "" },
                    RustSpelling(inner)
                )
            }
            Ty::Unit => f.write_str("()"),
            Ty::Other(Some(s)) => f.write_str(s),
            Ty::Other(None) | Ty::Error => f.write_str("_"),
        }
    }
}

/// A type inside a Rust type constructor: scalars by their Rust names.
struct RustSpelling<'a>(&'a Ty);

impl fmt::Display for RustSpelling<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Ty::Scalar(s) => f.write_str(s.rust_name()),
            other => other.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Scalar;

    /// `Scalar::ALL` holds each variant once, in the enum's order (each
    /// discriminant is its index, the last is `Char`'s), and
    /// `from_rust_name` inverts `rust_name` on all of them.
    #[test]
    fn every_scalar_is_listed_and_its_rust_name_parses_back() {
        for (i, &s) in Scalar::ALL.iter().enumerate() {
            assert_eq!(s as usize, i, "{s:?} out of order");
            assert_eq!(Scalar::from_rust_name(s.rust_name()), Some(s));
        }
        assert_eq!(Scalar::ALL.len(), Scalar::Char as usize + 1);
        assert_eq!(Scalar::from_rust_name("int"), None);
        assert_eq!(Scalar::from_rust_name("f128"), None);
    }
}
