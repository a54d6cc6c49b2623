//! What `Matrix`'s operators run in debug builds: element-wise passes,
//! transposes and products written for opt-level 0, and passes compiled
//! once per element type inside `matrix-core`.
//!
//! Why: the operators are generic, so their code is compiled in the user's
//! crate, at its optimisation level. At opt-level 0 every iterator step,
//! closure call, slice conversion and SIMD intrinsic of the optimised path
//! is a function call: a 4x4 `f32` sum, transpose or product cost two to
//! ten times glam's debug build (see BENCHMARKS.md, "Dev profile").
//!
//! * Where `matrix-core` is not optimised (a debug build's default): the
//!   line forms (`*_lines`), generic over the storage's arrays and
//!   `#[inline(always)]`, so that they are compiled into the caller. A
//!   line of 1 to 4, 8 or 16 elements is unrolled with constant indices
//!   ([`unrolled`]): at opt-level 0 that is a load, the operation and a
//!   store per element, with no call and no bounds check.
//! * Where it is optimised in a debug build (the `[profile.dev.package.
//!   matrix-core] opt-level = 3` override README recommends): the slice
//!   forms, reached through [`Element`](crate::Element)'s hidden methods,
//!   which are not generic and not `#[inline]`, so that they are compiled
//!   with `matrix-core`, at its optimisation level (as products are:
//!   `kernels::dynamic`).
//!
//! Optimised builds use none of this: there the operators are inlined with
//! constant shapes and run on the backends' kernels (`ops.rs`, "How the
//! operators run"). Every function here computes what they compute, bit
//! for bit: each element's operations in the same order, each rounded
//! (wrapping for integers).

use super::check::check_shape;
use crate::arith::Arith;

/// An element-wise arithmetic operation of `Matrix`'s operators, wrapping
/// for integers and IEEE for floats (as [`Arith`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arithmetic {
    /// `x + y`.
    Add,
    /// `x - y`.
    Sub,
    /// `x * y`.
    Mul,
    /// `x / y` (integer division by zero panics).
    Div,
}

impl Arithmetic {
    /// `x op y`. Inlined where `self` is a constant, the `match` folds away.
    #[inline(always)]
    pub(crate) fn apply<T: Arith>(self, x: T, y: T) -> T {
        match self {
            Arithmetic::Add => x.add(y),
            Arithmetic::Sub => x.sub(y),
            Arithmetic::Mul => x.mul(y),
            Arithmetic::Div => x.div(y),
        }
    }
}

/// `$body` once for each index `$i` of a line of `$n` elements (`$n` a
/// constant of the caller): with `$i` a constant for the lengths 1 to 4, 8
/// and 16, in a loop for the others. At opt-level 0 a constant index is
/// an address, while an index variable is a load, a bounds check and an
/// increment per element. The branches on `$n` are on a constant: rustc
/// compiles only the one taken.
macro_rules! unrolled {
    ($n:expr, |$i:ident| $body:block) => {
        match $n {
            1 => unrolled_at!(|$i| $body; 0),
            2 => unrolled_at!(|$i| $body; 0 1),
            3 => unrolled_at!(|$i| $body; 0 1 2),
            4 => unrolled_at!(|$i| $body; 0 1 2 3),
            8 => unrolled_at!(|$i| $body; 0 1 2 3 4 5 6 7),
            16 => unrolled_at!(|$i| $body; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15),
            _ => {
                #[allow(non_snake_case)]
                let mut $i = 0;
                while $i < $n {
                    $body
                    $i += 1;
                }
            }
        }
    };
}

/// Whether the line forms unroll a matrix of `lines` lines of `n`
/// elements entirely, every line and every element at a constant index
/// ([`each_line`] and [`unrolled`]): at most 4 of each.
pub(crate) const fn unrolled_whole(lines: usize, n: usize) -> bool {
    lines <= 4 && n <= 4
}

/// `$body` once for each line `$l` of `$lines` lines of `$n` elements:
/// with `$l` a constant as in [`unrolled`] where the matrix is small enough
/// to be [unrolled whole](unrolled_whole), in a loop otherwise. At
/// opt-level 0 a 4x4 `f32` transpose took about 26 ns with its lines in a
/// loop and 12 ns with constant lines (a timing loop in a scratch crate,
/// less the loop's own 13 ns, on an AVX-512 Xeon).
macro_rules! each_line {
    ($lines:expr, $n:expr, |$l:ident| $body:block) => {
        #[allow(non_snake_case)]
        if const { unrolled_whole($lines, $n) } {
            match $lines {
                1 => unrolled_at!(|$l| $body; 0),
                2 => unrolled_at!(|$l| $body; 0 1),
                3 => unrolled_at!(|$l| $body; 0 1 2),
                _ => unrolled_at!(|$l| $body; 0 1 2 3),
            }
        } else {
            let mut $l = 0;
            while $l < $lines {
                $body
                $l += 1;
            }
        }
    };
}

/// `$body` with `$i` each of the constants listed, in order.
macro_rules! unrolled_at {
    (|$i:ident| $body:block; $($k:literal)*) => {{
        $({
            const $i: usize = $k;
            $body
        })*
    }};
}

/// `a[l][i] = a[l][i] op b[l][i]` for every element, line by line (the
/// order does not matter: each element is computed alone).
#[inline(always)]
pub(crate) fn zip_lines<T: Arith, const N: usize, const LINES: usize>(
    a: &mut [[T; N]; LINES],
    b: &[[T; N]; LINES],
    op: Arithmetic,
) {
    each_line!(LINES, N, |L| {
        let (x, y) = (&mut a[L], &b[L]);
        // One loop per operation, so that the `match` is not per element.
        match op {
            Arithmetic::Add => unrolled!(N, |I| { x[I] = x[I].add(y[I]) }),
            Arithmetic::Sub => unrolled!(N, |I| { x[I] = x[I].sub(y[I]) }),
            Arithmetic::Mul => unrolled!(N, |I| { x[I] = x[I].mul(y[I]) }),
            Arithmetic::Div => unrolled!(N, |I| { x[I] = x[I].div(y[I]) }),
        }
    });
}

/// `a[l][i] = a[l][i] op s` for every element (`s op a[l][i]` when
/// `scalar_first`).
#[inline(always)]
pub(crate) fn scalar_lines<T: Arith, const N: usize, const LINES: usize>(
    a: &mut [[T; N]; LINES],
    op: Arithmetic,
    s: T,
    scalar_first: bool,
) {
    each_line!(LINES, N, |L| {
        let x = &mut a[L];
        match (op, scalar_first) {
            (Arithmetic::Add, false) => unrolled!(N, |I| { x[I] = x[I].add(s) }),
            (Arithmetic::Sub, false) => unrolled!(N, |I| { x[I] = x[I].sub(s) }),
            (Arithmetic::Mul, false) => unrolled!(N, |I| { x[I] = x[I].mul(s) }),
            (Arithmetic::Div, false) => unrolled!(N, |I| { x[I] = x[I].div(s) }),
            (Arithmetic::Add, true) => unrolled!(N, |I| { x[I] = s.add(x[I]) }),
            (Arithmetic::Sub, true) => unrolled!(N, |I| { x[I] = s.sub(x[I]) }),
            (Arithmetic::Mul, true) => unrolled!(N, |I| { x[I] = s.mul(x[I]) }),
            (Arithmetic::Div, true) => unrolled!(N, |I| { x[I] = s.div(x[I]) }),
        }
    });
}

/// `out[x][y] = a[y][x]`: the storage of a matrix transposed, in either
/// layout (a column-major `R x C` matrix's storage is `[[T; R]; C]`, its
/// transpose's `[[T; C]; R]`).
#[inline(always)]
pub(crate) fn transpose_lines<T: Copy, const X: usize, const Y: usize>(
    a: &[[T; X]; Y],
    out: &mut [[T; Y]; X],
) {
    each_line!(Y, X, |J| {
        let line = &a[J];
        unrolled!(X, |I| { out[I][J] = line[I] });
    });
}

/// `out[l][i] = coef[l][0] * lines[0][i] + coef[l][1] * lines[1][i] + ...`
/// summed in that order, each operation rounded (wrapping for integers):
/// the product of a column-major `a` (`lines`, its columns) by `b`
/// (`coef`, its columns) into `out`'s columns, and of a row-major `a`
/// (`coef`, its rows) by `b` (`lines`, its rows) into `out`'s rows. Each
/// element is the contract's sum `a[r][0] * b[0][c] + ...` in `k` order
/// (a product of two elements is the same in either order); with `K = 0`,
/// zero.
#[inline(always)]
pub(crate) fn product_lines<T: Arith, const N: usize, const K: usize, const LINES: usize>(
    coef: &[[T; K]; LINES],
    lines: &[[T; N]; K],
    out: &mut [[T; N]; LINES],
) {
    if K == 0 {
        // The empty sum.
        let zero = T::from_u8(0);
        each_line!(LINES, N, |L| {
            let o = &mut out[L];
            unrolled!(N, |I| { o[I] = zero });
        });
        return;
    }
    each_line!(LINES, N, |L| {
        let (o, c) = (&mut out[L], &coef[L]);
        let (first, c0) = (&lines[0], c[0]);
        unrolled!(N, |I| { o[I] = first[I].mul(c0) });
        if const { unrolled_whole(K, N) } {
            // Constant `k` too (`KK != 0` is a constant).
            each_line!(K, N, |KK| {
                if KK != 0 {
                    let (line, ck) = (&lines[KK], c[KK]);
                    unrolled!(N, |I| { o[I] = o[I].add(line[I].mul(ck)) });
                }
            });
        } else {
            let mut k = 1;
            while k < K {
                let (line, ck) = (&lines[k], c[k]);
                unrolled!(N, |I| { o[I] = o[I].add(line[I].mul(ck)) });
                k += 1;
            }
        }
    });
}

/// The product `a * b` of column-major storages (`a`'s columns are the
/// lines [`product_lines`] scales by `b`'s elements) into `out`.
#[inline(always)]
pub(crate) fn product_columns<T: Arith, const M: usize, const K: usize, const N: usize>(
    a: &[[T; M]; K],
    b: &[[T; K]; N],
    out: &mut [[T; M]; N],
) {
    product_lines(b, a, out);
}

/// The product `a * b` of row-major storages (`b`'s rows are the lines
/// [`product_lines`] scales by `a`'s elements) into `out`.
#[inline(always)]
pub(crate) fn product_rows<T: Arith, const M: usize, const K: usize, const N: usize>(
    a: &[[T; K]; M],
    b: &[[T; N]; K],
    out: &mut [[T; N]; M],
) {
    product_lines(a, b, out);
}

/// `a[i] = a[i] op b[i]` for every `i`.
///
/// # Panics
/// If the slices' lengths differ.
pub(crate) fn zip<T: Arith>(op: Arithmetic, a: &mut [T], b: &[T]) {
    check_shape("right operand", b.len(), a.len(), 1);
    let mut i = 0;
    while i < a.len() {
        a[i] = op.apply(a[i], b[i]);
        i += 1;
    }
}

/// `a[i] = a[i] op s` for every `i`, or `a[i] = s op a[i]` when
/// `scalar_first`.
pub(crate) fn with_scalar<T: Arith>(op: Arithmetic, a: &mut [T], s: T, scalar_first: bool) {
    let mut i = 0;
    while i < a.len() {
        a[i] = if scalar_first {
            op.apply(s, a[i])
        } else {
            op.apply(a[i], s)
        };
        i += 1;
    }
}
