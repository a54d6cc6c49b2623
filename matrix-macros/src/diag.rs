//! Every message the macro can produce, worded as Clang words it, and the
//! collector that reports all of a block's errors together.
//!
//! Clang's `(aka '...')` parts are left out; types are spelled by
//! [`crate::types`]. Messages that Clang has no text for (the DSL's own
//! syntax) are marked as ours.

use crate::types::{Dim, MatTy, Ty};
use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use std::fmt::Display;

/// A source range: the first and last token of a construct.
///
/// Stable Rust cannot join spans, but `compile_error!` emitted with a start
/// and an end span underlines the whole range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Loc {
    pub(crate) start: Span,
    pub(crate) end: Span,
}

impl Loc {
    pub(crate) fn of(node: &impl ToTokens) -> Loc {
        let mut tokens = node.to_token_stream().into_iter();
        let Some(first) = tokens.next() else {
            return Loc::from(Span::call_site());
        };
        let start = first.span();
        let end = tokens.last().map_or(start, |t| t.span());
        Loc { start, end }
    }

    pub(crate) fn to(self, other: Loc) -> Loc {
        Loc {
            start: self.start,
            end: other.end,
        }
    }
}

impl From<Span> for Loc {
    fn from(span: Span) -> Loc {
        Loc {
            start: span,
            end: span,
        }
    }
}

/// The errors of one macro invocation.
#[derive(Default)]
pub(crate) struct Diagnostics {
    errors: Vec<syn::Error>,
}

impl Diagnostics {
    pub(crate) fn error(&mut self, loc: Loc, message: impl Display) {
        self.errors.push(error_at(loc, message));
    }

    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    pub(crate) fn len(&self) -> usize {
        self.errors.len()
    }

    /// The errors' messages, in order.
    #[cfg(test)]
    pub(crate) fn messages(&self) -> Vec<String> {
        self.errors.iter().map(ToString::to_string).collect()
    }

    pub(crate) fn to_compile_errors(&self) -> TokenStream {
        self.errors
            .iter()
            .map(syn::Error::to_compile_error)
            .collect()
    }
}

/// An error underlining `loc` from its first to its last token.
pub(crate) fn error_at(loc: Loc, message: impl Display) -> syn::Error {
    // syn spans an error built from tokens from the first token to the last.
    let mut start = proc_macro2::Punct::new('<', proc_macro2::Spacing::Alone);
    start.set_span(loc.start);
    let mut end = proc_macro2::Punct::new('>', proc_macro2::Spacing::Alone);
    end.set_span(loc.end);
    let tokens: TokenStream = [
        proc_macro2::TokenTree::Punct(start),
        proc_macro2::TokenTree::Punct(end),
    ]
    .into_iter()
    .collect();
    syn::Error::new_spanned(tokens, message)
}

// ---- Types and declarations -------------------------------------------------

/// Ours: a 16-bit float element whose `matrix-core` feature is off.
pub(crate) fn needs_feature(c_name: &str, feature: &str) -> String {
    format!("'{c_name}' matrices need the `{feature}` feature of matrix-core")
}
pub(crate) fn invalid_element_type(spelling: &str) -> String {
    format!("invalid matrix element type '{spelling}'")
}
pub(crate) const ZERO_MATRIX_SIZE: &str = "zero matrix size";
pub(crate) const ROW_SIZE_TOO_LARGE: &str = "matrix row size too large";
pub(crate) const COLUMN_SIZE_TOO_LARGE: &str = "matrix column size too large";
pub(crate) const REQUIRES_INTEGER_CONSTANT: &str =
    "matrix_type attribute requires an integer constant";
pub(crate) const REQUIRES_ONE_ARGUMENT: &str = "'ext_vector_type' attribute takes one argument";
pub(crate) const VECTOR_REQUIRES_INTEGER_CONSTANT: &str =
    "ext_vector_type attribute requires an integer constant";
pub(crate) const ZERO_VECTOR_SIZE: &str = "zero vector size";
pub(crate) fn invalid_vector_element_type(elem: &str) -> String {
    format!("invalid vector element type '{elem}'")
}
/// Ours: `Vector<T, N>` has 1 to 16 elements (Clang's `.s0` to `.sF`).
pub(crate) fn vector_too_long(len: i128) -> String {
    format!("a vector of {len} elements is not supported: vectors have 1 to 16 elements")
}
/// `v.q`.
pub(crate) fn illegal_vector_component(name: &str) -> String {
    format!("illegal vector component name '{name}'")
}
/// `v.w` on a three-element vector.
pub(crate) fn vector_component_exceeds(ty: &Ty) -> String {
    format!("vector component access exceeds type '{ty}'")
}
/// `(float4){int2_value, 1, 2}`.
pub(crate) fn initializing_incompatible(to: &Ty, from: &Ty) -> String {
    format!("initializing '{to}' with an expression of incompatible type '{from}'")
}
pub(crate) const EXCESS_VECTOR_ELEMENTS: &str = "excess elements in vector initializer";
pub(crate) fn illegal_initializer_type(ty: &str) -> String {
    format!("illegal initializer type '{ty}'")
}
pub(crate) const CONVERTVECTOR_LENGTHS: &str =
    "first two arguments to __builtin_convertvector must have the same number of elements";
pub(crate) fn invalid_ext_vector_conversion(to: &Ty, from: &Ty) -> String {
    format!("invalid conversion between ext-vector type '{to}' and '{from}'")
}
/// Ours: a row or column of a matrix whose other dimension is generic.
pub(crate) fn generic_vector_length(param: &syn::Ident) -> String {
    format!(
        "the line's length is the generic dimension '{param}': a vector's length must be an integer constant"
    )
}
/// Ours: Clang accepts a constant index past a vector's end (undefined
/// behaviour); the kernel refuses it, as the runtime refuses a dynamic one.
pub(crate) fn vector_index_out_of_range(index: i128, len: u64) -> String {
    format!("vector index {index} is outside the allowed range [0, {len})")
}
/// A vector subscript that is not an integer (Clang's words for arrays).
pub(crate) const VECTOR_INDEX_NOT_INTEGER: &str = "array subscript is not an integer";
pub(crate) const DUPLICATE_COMPONENTS: &str =
    "vector is not assignable (contains duplicate components)";
/// Two vectors of different types, or a float scalar with an integer vector.
pub(crate) fn vector_sizes_differ(lhs: &Ty, rhs: &Ty) -> String {
    format!("cannot convert between vector values of different size ('{lhs}' and '{rhs}')")
}
/// A shift between vectors of different lengths.
pub(crate) fn vector_lengths_differ(lhs: &Ty, rhs: &Ty) -> String {
    format!("vector operands do not have the same number of elements ('{lhs}' and '{rhs}')")
}
/// A shift between vectors whose elements differ in size.
pub(crate) fn vector_element_sizes_differ(lhs: &Ty, rhs: &Ty) -> String {
    format!("vector operands do not have the same elements sizes ('{lhs}' and '{rhs}')")
}
/// A vector and a matrix in an operation other than a product.
pub(crate) fn vector_and_non_scalar(lhs: &Ty, rhs: &Ty) -> String {
    format!("cannot convert between vector and non-scalar values ('{lhs}' and '{rhs}')")
}
/// A shift of or by a vector where an operand is not an integer (Clang
/// names the first such operand).
pub(crate) fn integer_required(operand: &Ty) -> String {
    format!("used type '{operand}' where integer is required")
}
pub(crate) const REQUIRES_TWO_ARGUMENTS: &str =
    "'matrix_type' attribute requires exactly 2 arguments";
/// Ours: the layout clause of `matrix_type(R, C, LAYOUT)`.
pub(crate) const UNKNOWN_LAYOUT: &str =
    "the layout of a 'matrix_type' is 'column_major' or 'row_major'";
/// Ours: the RFC's `column_padding(P)` clause, which this crate does not
/// build (a matrix value is dense; padded memory is a load's stride).
pub(crate) const COLUMN_PADDING_UNSUPPORTED: &str = "'column_padding' in a 'matrix_type' is not supported: a matrix is stored without padding; load and store padded columns with a stride";
/// Ours: the fourth parameter of `Matrix<T, R, C, L>` in the Rust spelling.
pub(crate) const UNKNOWN_RUST_LAYOUT: &str =
    "the layout of a `Matrix` is `ColumnMajor` or `RowMajor`";
/// Ours: the element-wise builtins pair elements by memory position, so
/// their matrices share a layout.
pub(crate) fn different_layouts(builtin: &str, a: &Ty, b: &Ty) -> String {
    format!("matrix arguments to '{builtin}' must have the same layout ('{a}' and '{b}')")
}
pub(crate) fn typedef_redefinition(new: &MatTy, old: &MatTy) -> String {
    format!(
        "typedef redefinition with different types ('{}' vs '{}')",
        MatTy {
            name: None,
            ..new.clone()
        },
        MatTy {
            name: None,
            ..old.clone()
        }
    )
}
/// C's preprocessor (`parse::cpreproc`): Clang's texts, and ours for what
/// the block does not carry out.
pub(crate) const UNTERMINATED_CONDITIONAL: &str = "unterminated conditional directive";
pub(crate) const MACRO_NAME_MISSING: &str = "macro name missing";
pub(crate) const MACRO_TOO_MANY_ARGUMENTS: &str =
    "too many arguments provided to function-like macro invocation";
pub(crate) const MACRO_TOO_FEW_ARGUMENTS: &str =
    "too few arguments provided to function-like macro invocation";
/// Ours.
pub(crate) const MACRO_PARAMETERS: &str =
    "expected a macro's parameters: names separated by commas, the last one possibly `...`";
/// Clang's.
pub(crate) const HASH_WITHOUT_PARAMETER: &str = "'#' is not followed by a macro parameter";
/// Clang's.
pub(crate) const PASTE_AT_END: &str = "'##' cannot appear at either end of a macro expansion";
/// Clang's, for `a ## b` that is no one token.
pub(crate) fn invalid_paste(text: &str) -> String {
    format!("pasting formed '{text}', an invalid preprocessing token")
}
/// Ours: what `#if` evaluates.
pub(crate) const IF_NOT_CONSTANT: &str = "expected an integer constant expression after `#if`: numbers, macros, `defined(NAME)`, arithmetic, comparisons, `!`, `&&` and `||`";
/// `#else` (`#elif`, `#endif`) with no `#if` open.
pub(crate) fn directive_without_if(word: &str) -> String {
    format!("#{word} without #if")
}
/// A directive C has that the block does not carry out (ours), or one C
/// does not have (Clang's text).
pub(crate) fn unsupported_directive(word: &str) -> String {
    match word {
        "line" | "warning" | "ident" | "sccs" | "embed" | "include_next" | "pragma" | "assert"
        | "unassert" | "import" => format!("`#{word}` is not supported in `matrix!`"),
        _ => "invalid preprocessing directive".to_string(),
    }
}
/// Ours: the parser's.
pub(crate) const EXPECTED_FUNCTION_BODY: &str = "expected a function body `{ ... }`";
/// A C `switch` whose body does not start with a label.
pub(crate) const SWITCH_WITHOUT_LABEL: &str =
    "expected `case` or `default` before the first statement of a `switch`";
/// A C `static` that is not `const`, local or at file scope.
pub(crate) const STATIC_STATE: &str = "a `static` that is not `const` keeps its value from call to call, which a kernel has nowhere to keep: make it `static const`, or keep the state outside the block";
/// A C `case` label with no value or no `:`.
pub(crate) const CASE_WITHOUT_COLON: &str = "expected `case VALUE:`: a value, then `:`";
pub(crate) const EXPECTED_SEMICOLON_AFTER_TYPEDEF: &str = "expected `;` after the typedef";
/// Ours: the DSL's declaration syntax.
pub(crate) const EXPECTED_MATRIX_TYPE_ATTRIBUTE: &str = "expected \
    `__attribute__((matrix_type(ROWS, COLUMNS)))` or `__attribute__((ext_vector_type(N)))` \
    after the typedef name";
/// Ours: C's `union`, which a block does not declare, a `struct` that is
/// not a declaration at file scope, and an `enum` that is not a
/// declaration of constants.
pub(crate) fn c_aggregate(keyword: &str) -> String {
    match keyword {
        "enum" => "a C `enum` in `matrix!` declares constants, `enum { A, B = 4 };` or `typedef enum { A, B } name;`, at file scope".to_string(),
        "struct" => "a C `struct` in `matrix!` is declared at file scope, `struct tag { float x, y; };` or `typedef struct { .. } name;`, with `;` after its braces".to_string(),
        _ => format!("C's `{keyword}` is not supported in `matrix!`: declare the type in Rust outside the block (`#[repr(C)] union`) and pass its fields to the kernels"),
    }
}
/// Ours: a member of a C structure that is no value of a type the block
/// knows.
pub(crate) const EXPECTED_MEMBER: &str =
    "expected a member declaration, `TYPE name;` or `TYPE name[N];`";
/// Clang's, for `s.w` of a struct with no member `w`.
pub(crate) fn no_member(member: &str, ty: &Ty) -> String {
    let ty = match ty {
        Ty::Ref { inner, .. } => inner,
        other => other,
    };
    format!("no member named '{member}' in '{ty}'")
}
/// Clang's, for `{.w = 1}` of a struct with no member `w`.
pub(crate) fn no_such_field_designator(field: &str, ty: &str) -> String {
    format!("field designator '{field}' does not refer to any field in type '{ty}'")
}
/// Clang's (a warning there): more items than members.
pub(crate) const EXCESS_STRUCT_ELEMENTS: &str = "excess elements in struct initializer";
/// Ours: an array member's braces that are no array initialiser.
pub(crate) const EXPECTED_INITIALIZER: &str =
    "expected an array initializer: `{a, b}`, or `{{a, b}, {c, d}}` for each dimension";
/// Ours: a file-scope constant of a vector or structure type written
/// `pub`, which is no item outside the block.
pub(crate) const PUBLIC_COMPOSITE_CONSTANT: &str = "a constant of a vector or structure type is read by the block's functions only (each declares it where it names it), so it cannot be `pub`: make it a function's result, or a `const` outside the block";
/// Ours: a pointer member, which a struct of the block cannot hold.
pub(crate) const POINTER_MEMBER: &str = "a pointer member is not supported in a struct of `matrix!`: its members are values (matrices, vectors, scalars, arrays and structs)";
/// Ours: a bit-field member.
pub(crate) const BIT_FIELD_MEMBER: &str =
    "a bit-field is not supported in a struct of `matrix!`: declare a whole integer member";
/// Ours: what a block may hold.
pub(crate) const EXPECTED_ITEM: &str =
    "expected a typedef, a `const` item or a kernel `fn` in `matrix!`";
/// Ours: `#[dispatch]` is a bare attribute.
pub(crate) const DISPATCH_TAKES_NO_ARGUMENTS: &str =
    "`#[dispatch]` takes no arguments: write `#[dispatch]` on the kernel";
/// Ours: what `#[dispatch]` cannot compile once per backend.
pub(crate) fn dispatch_not_applicable(what: &str) -> String {
    format!(
        "`#[dispatch]` cannot apply to {what}: it compiles the kernel once per backend and \
         chooses one at each call"
    )
}
/// Ours: the contraction setting.
pub(crate) fn unknown_fp_contract(mode: &str) -> String {
    format!("unknown fp_contract mode '{mode}': expected 'fast' or 'off'")
}

// ---- Operators ---------------------------------------------------------------

pub(crate) fn invalid_operands(lhs: &Ty, rhs: &Ty) -> String {
    format!("invalid operands to binary expression ('{lhs}' and '{rhs}')")
}
pub(crate) fn invalid_unary_argument(ty: &Ty) -> String {
    format!("invalid argument type '{ty}' to unary expression")
}
pub(crate) fn indirection_requires_pointer(ty: &Ty) -> String {
    format!("indirection requires pointer operand ('{ty}' invalid)")
}
pub(crate) fn requires_scalar_condition(ty: &Ty) -> String {
    format!("statement requires expression of scalar type ('{ty}' invalid)")
}
pub(crate) fn incompatible_operand_types(lhs: &Ty, rhs: &Ty) -> String {
    format!("incompatible operand types ('{lhs}' and '{rhs}')")
}
/// A matrix as the condition of `?:`.
pub(crate) fn not_arithmetic_or_pointer(ty: &Ty) -> String {
    format!("used type '{ty}' where arithmetic or pointer type is required")
}
/// A float vector as the condition of `?:`.
pub(crate) fn float_vector_condition(ty: &Ty) -> String {
    format!("used type '{ty}' where floating point type is not allowed")
}
/// A vector condition of `?:` and operands of another number of lanes.
pub(crate) fn vector_condition_lanes(cond: &Ty, result: &Ty) -> String {
    format!(
        "vector condition type '{cond}' and result type '{result}' do not have the same number of elements"
    )
}
/// A vector condition of `?:` and operands whose lanes are of another width.
pub(crate) fn vector_condition_widths(cond: &Ty, result: &Ty) -> String {
    format!(
        "vector condition type '{cond}' and result type '{result}' do not have elements of the same size"
    )
}
pub(crate) const NOT_ASSIGNABLE: &str = "expression is not assignable";
/// Ours: `p - k` and `p -= k` on a pointer, which is a slice here.
pub(crate) fn pointer_moved_back(ty: &Ty) -> String {
    format!(
        "a pointer here is a slice ('{ty}'), which has nothing before its first element: it moves forward only ('+', '+=', '++'); index from an earlier pointer instead"
    )
}

// ---- Conversions ---------------------------------------------------------------

pub(crate) fn assigning(to: &Ty, from: &Ty) -> String {
    format!("assigning to '{to}' from incompatible type '{from}'")
}
pub(crate) fn initializing(to: &Ty, from: &Ty) -> String {
    format!("initializing '{to}' with an expression of incompatible type '{from}'")
}
pub(crate) fn returning(from: &Ty, to: &Ty) -> String {
    format!("returning '{from}' from a function with incompatible result type '{to}'")
}
pub(crate) fn passing(from: &Ty, to: &Ty) -> String {
    format!("passing '{from}' to parameter of incompatible type '{to}'")
}
/// Clang's, for a value that is no pointer where `memcpy` or `memset`
/// wants one (`to` is `void *` or `const void *`).
pub(crate) fn passing_to_pointer(from: &Ty, to: &str) -> String {
    format!("passing '{from}' to parameter of incompatible type '{to}'")
}
/// Clang's, for a `const` pointer as `memcpy`'s or `memset`'s destination.
pub(crate) fn discards_qualifiers(from: &Ty) -> String {
    format!("passing '{from}' to parameter of type 'void *' discards qualifiers")
}
pub(crate) fn cast_between_sizes(to: &Ty, from: &Ty) -> String {
    format!("conversion between matrix types '{to}' and '{from}' of different size is not allowed")
}
pub(crate) fn cast_incompatible(matrix: &Ty, other: &Ty) -> String {
    format!(
        "conversion between matrix type '{matrix}' and incompatible type '{other}' is not allowed"
    )
}
pub(crate) fn literal_changes_value(from: &str, to: &str, old: &str, new: &str) -> String {
    format!("implicit conversion from '{from}' to '{to}' changes value from {old} to {new}")
}
pub(crate) fn literal_out_of_range(from: &str, to: &str) -> String {
    format!("implicit conversion of out of range value from '{from}' to '{to}' is undefined")
}

// ---- Subscripts ----------------------------------------------------------------

pub(crate) fn index_out_of_range(axis: Axis, bound: &Dim) -> String {
    format!("matrix {axis} index is outside the allowed range [0, {bound})")
}
pub(crate) fn index_not_integer(axis: Axis) -> String {
    format!("matrix {axis} index is not an integer")
}
pub(crate) const SINGLE_SUBSCRIPT: &str =
    "single subscript expressions are not allowed for matrix values";
pub(crate) const SEPARATED_SUBSCRIPTS: &str =
    "matrix row and column subscripts cannot be separated by any expression";
pub(crate) const ADDRESS_OF_ELEMENT: &str = "address of matrix element requested";

/// Which subscript of `m[r][c]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Axis {
    Row,
    Column,
}

impl Display for Axis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Axis::Row => "row",
            Axis::Column => "column",
        })
    }
}

// ---- Builtins ------------------------------------------------------------------

/// Clang's text, where the argument's type is one the block models. A
/// value of a type the block does not declare (another block's typedef,
/// or an operation on such values, whose type the block cannot name)
/// gets the same start and says that, naming the type where the user
/// wrote it.
pub(crate) fn argument_must_be_matrix(ordinal: &str, was: &Ty) -> String {
    match was {
        Ty::Other(None) => {
            format!("{ordinal} argument must be a matrix of a type this block declares")
        }
        Ty::Other(Some(spelled)) => format!(
            "{ordinal} argument must be a matrix of a type this block declares (was '{spelled}')"
        ),
        _ => format!("{ordinal} argument must be a matrix (was '{was}')"),
    }
}
/// Ours: `__builtin_matrix_zip(a, b, f)` pairs elements of one position.
pub(crate) fn different_dimensions(builtin: &str, a: &Ty, b: &Ty) -> String {
    format!("matrix arguments to '{builtin}' must have the same dimensions ('{a}' and '{b}')")
}
/// Ours: the element-wise builtins take a closure, one parameter per matrix.
pub(crate) fn argument_must_be_closure(ordinal: &str, params: usize) -> String {
    let params = match params {
        1 => "one parameter",
        _ => "two parameters",
    };
    format!("{ordinal} argument must be a closure with {params}, one element each")
}
/// Ours: an element-wise closure's parameter binds one element.
pub(crate) fn closure_parameter_not_a_name() -> String {
    "a parameter of an element-wise closure must be a name, or a name and its element type"
        .to_string()
}
/// Ours: an element-wise closure gives one element of the result.
pub(crate) fn closure_result_not_scalar(was: &Ty) -> String {
    format!("an element-wise closure must return a valid matrix element type (was '{was}')")
}
/// Ours: the result's element type must be known to the macro.
pub(crate) fn closure_result_unknown() -> String {
    "cannot infer the element type of this closure's result; declare it, as in `|x| -> float { .. }`"
        .to_string()
}
/// Ours: the RFC's `__builtin_matrix_scalar_multiply(m, s)` takes a scalar.
pub(crate) fn argument_must_be_scalar(ordinal: &str, was: &Ty) -> String {
    format!("{ordinal} argument must be a scalar (was '{was}')")
}
pub(crate) fn argument_must_be_element_pointer(ordinal: &str, was: &Ty) -> String {
    format!("{ordinal} argument must be a pointer to a valid matrix element type (was '{was}')")
}
pub(crate) fn dimension_not_constant(axis: Axis) -> String {
    format!("{axis} argument must be a constant unsigned integer expression")
}
pub(crate) fn dimension_out_of_range(axis: Axis) -> String {
    format!("{axis} dimension is outside the allowed range [1, 1048575]")
}
pub(crate) const STRIDE_TOO_SMALL: &str = "stride must be greater or equal to the number of rows";
/// Ours: the row-major form of Clang's text.
pub(crate) const STRIDE_TOO_SMALL_ROW_MAJOR: &str =
    "stride must be greater or equal to the number of columns";
/// Ours: a packed layout's line is a group of rows or columns, interleaved.
pub(crate) fn packed_stride_too_small(layout: &str, line: u64) -> String {
    format!("stride must be greater or equal to the length of a {layout} line ({line})")
}
/// Ours: the layout argument of `__builtin_matrix_load` and `_store`.
pub(crate) const UNKNOWN_MEMORY_LAYOUT: &str = "the memory layout of a matrix load or store is 'column_major', 'row_major', 'packed_a' or 'packed_b'";
pub(crate) const STORE_TO_READ_ONLY: &str = "cannot store matrix to read-only pointer";
pub(crate) fn pointee_mismatch(pointee: &Ty, elem: &Ty) -> String {
    format!(
        "the pointee of the 2nd argument must match the element type of the 1st argument ('{pointee}' != '{elem}')"
    )
}
pub(crate) fn too_few_arguments(expected: &str, have: usize) -> String {
    format!("too few arguments to function call, expected {expected}, have {have}")
}
pub(crate) fn too_many_arguments(expected: &str, have: usize) -> String {
    format!("too many arguments to function call, expected {expected}, have {have}")
}
/// A type name the block does not know (clang-19's words).
pub(crate) fn unknown_type_name(name: &str) -> String {
    format!("unknown type name '{name}'")
}
pub(crate) fn unknown_builtin(name: &str) -> String {
    format!("use of unknown builtin '{name}'")
}
/// Ours: a load needs to know its element type.
pub(crate) const LOAD_SOURCE_UNKNOWN: &str = "1st argument must be a pointer to a valid matrix element type (was an expression of unknown type: pass a `&[T]`, `&mut [T]`, `[T; N]`, `Vec<T>` or `*const T` the kernel declares)";
