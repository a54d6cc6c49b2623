//! Element types, matrix types and index types, with their Rust and C names.

use std::fmt;

/// An element type of the contract (the half float is left out: clang's
/// `_Float16` arithmetic on x86-64 is emulated in `float`, which the oracle
/// does not try to mirror).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Elem {
    /// `i8`, C `signed char`.
    I8,
    /// `i16`, C `short`.
    I16,
    /// `i32`, C `int`.
    I32,
    /// `i64`, C `long`.
    I64,
    /// `u8`, C `unsigned char`.
    U8,
    /// `u16`, C `unsigned short`.
    U16,
    /// `u32`, C `unsigned int`.
    U32,
    /// `u64`, C `unsigned long`.
    U64,
    /// `f32`, C `float`.
    F32,
    /// `f64`, C `double`.
    F64,
}

impl Elem {
    /// Every element type.
    pub const ALL: [Elem; 10] = [
        Elem::I8,
        Elem::I16,
        Elem::I32,
        Elem::I64,
        Elem::U8,
        Elem::U16,
        Elem::U32,
        Elem::U64,
        Elem::F32,
        Elem::F64,
    ];
    /// The integer element types.
    pub const INTS: [Elem; 8] = [
        Elem::I8,
        Elem::I16,
        Elem::I32,
        Elem::I64,
        Elem::U8,
        Elem::U16,
        Elem::U32,
        Elem::U64,
    ];

    /// The Rust name (`f32`).
    pub fn rust(self) -> &'static str {
        match self {
            Elem::I8 => "i8",
            Elem::I16 => "i16",
            Elem::I32 => "i32",
            Elem::I64 => "i64",
            Elem::U8 => "u8",
            Elem::U16 => "u16",
            Elem::U32 => "u32",
            Elem::U64 => "u64",
            Elem::F32 => "f32",
            Elem::F64 => "f64",
        }
    }

    /// The C name, as clang-19 prints it in diagnostics.
    pub fn c(self) -> &'static str {
        match self {
            Elem::I8 => "signed char",
            Elem::I16 => "short",
            Elem::I32 => "int",
            Elem::I64 => "long",
            Elem::U8 => "unsigned char",
            Elem::U16 => "unsigned short",
            Elem::U32 => "unsigned int",
            Elem::U64 => "unsigned long",
            Elem::F32 => "float",
            Elem::F64 => "double",
        }
    }

    /// The spellings the contract accepts for this element in a `matrix!`
    /// typedef (the Rust name first).
    pub fn typedef_spellings(self) -> &'static [&'static str] {
        match self {
            Elem::I8 => &["i8", "signed char", "char", "int8_t"],
            Elem::I16 => &["i16", "short", "int16_t"],
            Elem::I32 => &["i32", "int", "int32_t"],
            Elem::I64 => &["i64", "long", "long long", "int64_t"],
            Elem::U8 => &["u8", "unsigned char", "uint8_t"],
            Elem::U16 => &["u16", "unsigned short", "uint16_t"],
            Elem::U32 => &["u32", "unsigned", "unsigned int", "uint32_t"],
            Elem::U64 => &["u64", "unsigned long", "unsigned long long", "uint64_t"],
            Elem::F32 => &["f32", "float"],
            Elem::F64 => &["f64", "double"],
        }
    }

    /// `true` for `f32` and `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, Elem::F32 | Elem::F64)
    }

    /// `true` for the signed integer types.
    pub fn is_signed_int(self) -> bool {
        matches!(self, Elem::I8 | Elem::I16 | Elem::I32 | Elem::I64)
    }

    /// `true` for the unsigned integer types.
    pub fn is_unsigned(self) -> bool {
        matches!(self, Elem::U8 | Elem::U16 | Elem::U32 | Elem::U64)
    }

    /// Size in bits.
    pub fn bits(self) -> u32 {
        match self {
            Elem::I8 | Elem::U8 => 8,
            Elem::I16 | Elem::U16 => 16,
            Elem::I32 | Elem::U32 | Elem::F32 => 32,
            Elem::I64 | Elem::U64 | Elem::F64 => 64,
        }
    }

    /// The smallest value (integers; `-inf` for floats).
    pub fn min_value(self) -> f64 {
        match self {
            Elem::F32 | Elem::F64 => f64::NEG_INFINITY,
            e if e.is_unsigned() => 0.0,
            e => -(2f64.powi(e.bits() as i32 - 1)),
        }
    }

    /// The largest value (integers; `+inf` for floats).
    pub fn max_value(self) -> f64 {
        match self {
            Elem::F32 | Elem::F64 => f64::INFINITY,
            e if e.is_unsigned() => 2f64.powi(e.bits() as i32) - 1.0,
            e => 2f64.powi(e.bits() as i32 - 1) - 1.0,
        }
    }

    /// Parses a Rust element name.
    pub fn from_rust(s: &str) -> Option<Elem> {
        Elem::ALL.into_iter().find(|e| e.rust() == s)
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rust())
    }
}

/// A matrix type: element and shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MatTy {
    /// The element type.
    pub elem: Elem,
    /// Rows, 1..=16 in the corpus.
    pub rows: u32,
    /// Columns, 1..=16 in the corpus.
    pub cols: u32,
}

impl MatTy {
    /// A matrix type.
    pub fn new(elem: Elem, rows: u32, cols: u32) -> Self {
        MatTy { elem, rows, cols }
    }

    /// The typedef name used for this type in both languages (`f32m4x3`).
    pub fn name(&self) -> String {
        format!("{}m{}x{}", self.elem.rust(), self.rows, self.cols)
    }

    /// FINDINGS.md C1: whether clang-19 at `-O1` and above crashes (a
    /// segfault in LLVM's LowerMatrixIntrinsics) on a product of this
    /// result type whose right operand is, in C, a transpose: an integer
    /// product with a 1x1 result. The C side could not be compiled, so the
    /// generators never write one.
    pub fn clang_crashes_with_a_transposed_rhs(&self) -> bool {
        !self.elem.is_float() && self.rows == 1 && self.cols == 1
    }

    /// The name of the alias typedef of this type (`f32m4x3_b`).
    pub fn alias(&self) -> String {
        format!("{}_b", self.name())
    }

    /// How clang prints the type when it has no typedef name:
    /// `float __attribute__((matrix_type(4, 3)))`.
    pub fn unnamed(&self) -> String {
        format!(
            "{} __attribute__((matrix_type({}, {})))",
            self.elem.c(),
            self.rows,
            self.cols
        )
    }

    /// The transposed type.
    pub fn transposed(&self) -> MatTy {
        MatTy::new(self.elem, self.cols, self.rows)
    }

    /// The same shape with another element type.
    pub fn with_elem(&self, elem: Elem) -> MatTy {
        MatTy::new(elem, self.rows, self.cols)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        (self.rows * self.cols) as usize
    }

    /// `true` if the type has no elements (never, for valid types).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The type of a dynamic index parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IdxTy {
    /// `u8` / `unsigned char`.
    U8,
    /// `u16` / `unsigned short`.
    U16,
    /// `u32` / `unsigned int`.
    U32,
    /// `i32` / `int`.
    I32,
    /// `i64` / `long`.
    I64,
    /// `usize` / `unsigned long`.
    Usize,
}

impl IdxTy {
    /// Every index type.
    pub const ALL: [IdxTy; 6] = [
        IdxTy::U8,
        IdxTy::U16,
        IdxTy::U32,
        IdxTy::I32,
        IdxTy::I64,
        IdxTy::Usize,
    ];

    /// Rust name.
    pub fn rust(self) -> &'static str {
        match self {
            IdxTy::U8 => "u8",
            IdxTy::U16 => "u16",
            IdxTy::U32 => "u32",
            IdxTy::I32 => "i32",
            IdxTy::I64 => "i64",
            IdxTy::Usize => "usize",
        }
    }

    /// C name.
    pub fn c(self) -> &'static str {
        match self {
            IdxTy::U8 => "unsigned char",
            IdxTy::U16 => "unsigned short",
            IdxTy::U32 => "unsigned int",
            IdxTy::I32 => "int",
            IdxTy::I64 => "long",
            IdxTy::Usize => "unsigned long",
        }
    }
}

/// The layout of every matrix type of a kernel's chunk: C has one per
/// translation unit (column-major, or row-major with clang 22's
/// `-fmatrix-memory-layout=row-major`), so a chunk is all one or the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// Clang's default, and `matrix_type(R, C)` in `matrix!`.
    #[default]
    ColumnMajor,
    /// `matrix_type(R, C, row_major)` in `matrix!`; the whole C file
    /// compiled with `-fmatrix-memory-layout=row-major`.
    RowMajor,
}

impl Layout {
    /// What follows the dimensions in a `matrix!` typedef's attribute.
    pub fn attribute_suffix(self) -> &'static str {
        match self {
            Layout::ColumnMajor => "",
            Layout::RowMajor => ", row_major",
        }
    }

    /// What follows the dimensions of `Matrix<T, R, C>` in Rust.
    pub fn generic_suffix(self) -> &'static str {
        match self {
            Layout::ColumnMajor => "",
            Layout::RowMajor => ", RowMajor",
        }
    }
}
