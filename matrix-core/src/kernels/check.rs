//! Shape checks that cost nothing when the shapes are constants.
//!
//! Why not `assert_eq!`: its message takes the addresses of the dimensions,
//! and an address that escapes, even into a panic that never runs, keeps
//! LLVM from treating the dimensions as the constants they are once a
//! kernel is inlined for one shape. An 8x8 product was compiled into
//! run-time loops that way, at a quarter of its speed, in some callers and
//! not others. The messages are built out of line, from values.

use super::gemm::Operands;

/// Panics unless the operands of a product and `out` have their shapes'
/// lengths (`out` and the addend `n` columns `ldo` apart, `ldo >= m`) and
/// no dimension is zero.
#[inline(always)]
#[track_caller]
pub(crate) fn check_product<E>(p: &Operands<'_, E>, out: &[E]) {
    let (m, k, n, ldo) = (p.m, p.k, p.n, p.ldo);
    if m == 0 || k == 0 || n == 0 {
        zero_size()
    }
    check_shape("left operand", p.a.len(), m, k);
    check_shape("right operand", p.b.len(), k, n);
    check_columns("result", out.len(), m, n, ldo);
    if let Some(c) = p.addend {
        check_columns("addend", c.len(), m, n, ldo);
    }
}

/// Panics unless the operands of a product and `out` are as
/// [`check_product`] says, and the result is whole (`ldo` is `m`): for
/// the kernels that write only whole results.
#[inline(always)]
#[track_caller]
pub(crate) fn check_whole_product<E>(p: &Operands<'_, E>, out: &[E]) {
    check_product(p, out);
    if p.ldo != p.m {
        not_whole(p.m, p.ldo)
    }
}

/// Panics unless a slice of `len` elements holds a `rows x cols` matrix
/// whose columns start `ldo` elements apart (the last one ends the slice).
#[inline(always)]
#[track_caller]
fn check_columns(what: &'static str, len: usize, rows: usize, cols: usize, ldo: usize) {
    if ldo == rows {
        check_shape(what, len, rows, cols);
    } else if ldo < rows || len != (cols - 1) * ldo + rows {
        wrong_columns(what, len, rows, cols, ldo)
    }
}

/// Panics unless a slice of `len` elements holds a `rows x cols` matrix.
#[inline(always)]
#[track_caller]
pub(crate) fn check_shape(what: &'static str, len: usize, rows: usize, cols: usize) {
    if len != rows * cols {
        wrong_shape(what, len, rows, cols)
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn wrong_shape(what: &'static str, len: usize, rows: usize, cols: usize) -> ! {
    panic!("{what} is not {rows}x{cols} (holds {len} elements)")
}

#[cold]
#[inline(never)]
#[track_caller]
fn wrong_columns(what: &'static str, len: usize, rows: usize, cols: usize, ldo: usize) -> ! {
    panic!("{what} is not {rows}x{cols} with columns {ldo} apart (holds {len} elements)")
}

#[cold]
#[inline(never)]
#[track_caller]
fn not_whole(rows: usize, ldo: usize) -> ! {
    panic!(
        "a block of {rows} rows of a result with columns {ldo} apart, for a kernel of whole results"
    )
}

#[cold]
#[inline(never)]
#[track_caller]
fn zero_size() -> ! {
    panic!("zero matrix size")
}
