//! Products of the integer element types the vectors do not hold (`i8`,
//! `u8`, `i16`, `u16`, `u32`), computed on the `i32` kernel
//! ([`gemm_i32`]).
//!
//! # Why the result is exact
//!
//! Integer matrix arithmetic wraps in the element type (the contract), so
//! a product of `u8`s is computed in the ring of integers modulo 2^8, of
//! `i16`s modulo 2^16, and so on. The `i32` kernel computes in the ring
//! modulo 2^32. Reducing modulo 2^w (keeping the low `w` bits, which is
//! what `v as u8`, `v as i16`, ... do) is a ring homomorphism from the
//! integers modulo 2^32 onto those modulo 2^w for `w <= 32`: it maps sums to
//! sums and products to products. So widening every operand to `i32` (any
//! integer with the same low `w` bits will do; `as i32` sign- or
//! zero-extends), running the `i32` product, and truncating each result
//! back with `as` gives exactly the wrapping product in the narrow type,
//! whatever the order of the additions. `u32` and `i32` are the same ring,
//! so a `u32` product is bit for bit the `i32` product of the same bits.
//!
//! `a * b + c` runs the `i32` product and adds `c` while narrowing the
//! result, in the narrow type with `wrapping_add`: the addend comes after
//! the last step of each sum, as the contract says, and one buffer fewer is
//! needed than with the fused `i32` kernel.
//!
//! # Buffers
//!
//! The widened operands and the `i32` result live on the stack for every
//! shape up to 16x16, never on the heap:
//!
//! * up to 64 elements per buffer (8x8), fixed `[i32; 64]` arrays in an
//!   always-inlined function, so that a 4x4x4 product widens straight from
//!   memory into vector registers and never stores its operands;
//! * up to [`STACK_MAX`] (32x32), `[[i32; ROWS]; COLS]` arrays sized exactly
//!   by the const generics (a 2-D array of two const parameters is stable
//!   Rust, where `[i32; M * K]` needs `generic_const_exprs`), flattened
//!   with [`as_flattened`](slice::as_flattened), in a function that is not
//!   forced inline (an unoptimized build gives a frame room for the arrays
//!   of every branch, and a large shape's branch must not pay for them);
//! * above, `Vec`s: the allocation is negligible next to a product of that
//!   size, and the stack does not have to hold four times the operands.
//!
//! `u32` needs no conversion, and LLVM sees it: the widening copies of the
//! operands compile away and the kernel reads the `u32` slices directly, so
//! a zero-copy reinterpretation (which safe Rust has no way to spell for
//! slices) would only save the copy of the result: on AVX-512, 16x16
//! takes 227 ns widened against 211 ns for the `i32` kernel on `i32`
//! operands, and 4x4 3.2 ns against 3.4 ns.
//!
//! # When it is used
//!
//! [`pays`] decides per shape at compile time (the shape is const), from
//! `cargo bench -p matrix-benches --bench integers` on a 2-core AVX-512
//! machine shared with other builds (so noisy: a difference under about
//! 20% is not one). Nanoseconds per product, `widened` / `scalar loop`:
//!
//! | shape | backend | `i8` | `u8` | `i16` | `u16` | `u32` |
//! |---|---|---|---|---|---|---|
//! | 4x4x4 | AVX-512 | 9.1 / 20.8 | 10.3 / 19.4 | 11.7 / 14.2 | 10.6 / 11.0 | 3.2 / 13.0 |
//! | 8x8x8 | AVX-512 | 70 / 51 | 42 / 62 | 67 / 57 | 81 / 72 | 57 / 70 |
//! | 12x12x12 | AVX-512 | 209 / 259 | 184 / 253 | 175 / 133 | 159 / 136 | 113 / 191 |
//! | 16x16x16 | AVX-512 | 310 / 1082 | 290 / 1064 | 270 / 680 | 264 / 798 | 227 / 852 |
//! | 16x4x16 | AVX-512 | 96 / 291 | 97 / 292 | 116 / 134 | 97 / 115 | 73 / 176 |
//! | 16x8x16 | AVX-512 | 133 / 503 | 135 / 519 | 172 / 316 | 153 / 306 | 121 / 350 |
//! | 3x5x2 | AVX-512 | 33 / 12 | 37 / 12 | 37 / 8 | 34 / 10 | 33 / 14 |
//! | 4x4x4 | AVX2 | 15 / 20 | 19 / 18 | 17 / 16 | 16 / 18 | 5.7 / 13 |
//! | 8x8x8 | AVX2 | 81 / 89 | 77 / 60 | 69 / 56 | 76 / 50 | 36 / 56 |
//! | 16x16x16 | AVX2 | 341 / 1192 | 316 / 1208 | 373 / 1100 | 278 / 926 | 279 / 697 |
//! | 16x8x16 | AVX2 | 206 / 667 | 164 / 606 | 167 / 371 | 177 / 431 | |
//! | 4x4x4 | SSE2 | 22 / 16 | 24 / 18 | 21 / 12 | 22 / 12 | 17 / 25 |
//! | 8x8x8 | SSE2 | 160 / 91 | 147 / 87 | 159 / 51 | 139 / 46 | 152 / 232 |
//! | 16x16x16 | SSE2 | 1468 / 1153 | 1118 / 963 | 1623 / 765 | 1416 / 732 | 1027 / 2540 |
//! | 16x4x16 | SSE2 | 357 / 217 | 462 / 266 | 368 / 135 | 424 / 120 | 385 / 627 |
//!
//! So the narrow types are widened on AVX2 and AVX-512 from 16 rows and a
//! depth of 4 (and for 4x4x4 on AVX-512, where the product is one register),
//! never on SSE2, where the loop's 16-bit multiplication outruns the
//! emulated 32-bit one; `u32` on every SIMD backend for 4x4x4, whole
//! vectors of rows, or 8 rows and more. Small and ragged shapes (3x5x2)
//! keep the loop: partial vectors of the kernel go through memory.
//! [`gemm`] applies the decision (it is what
//! [`Element::gemm`](crate::Element) calls for these types);
//! [`gemm_widened`] always widens.

use super::kernels::{check_product, gemm_i32, gemm_with};
use super::{I32Vec, SimdVector};
use crate::element::Element;

/// The most `i32` elements one widened buffer keeps on the stack (4 KiB,
/// a 32x32 matrix; three buffers make 12 KiB); above that the buffers are
/// `Vec`s. Every shape up to 16x16 stays on the stack.
pub const STACK_MAX: usize = 1024;

mod sealed {
    /// Keeps [`super::Widen`] implemented for exactly the types below.
    pub trait Sealed {}
}

/// An integer element type whose products run on the `i32` kernel: its
/// wrapping arithmetic is the `i32` arithmetic truncated to its width.
///
/// Sealed: implemented for `i8`, `u8`, `i16`, `u16` and `u32`.
pub trait Widen: Element + sealed::Sealed {
    /// Whether the type is narrower than 32 bits, so that widening and
    /// narrowing are real conversions (for `u32` they are moves of the same
    /// bits).
    const NARROW: bool;
    /// The value as an `i32` with the same low bits: `self as i32`.
    fn widen(self) -> i32;
    /// The low bits of `v` as `Self`: `v as Self`.
    fn narrow(v: i32) -> Self;
}

macro_rules! widen {
    ($($t:ty => $narrow:expr),* $(,)?) => {$(
        impl sealed::Sealed for $t {}

        impl Widen for $t {
            const NARROW: bool = $narrow;
            #[inline(always)]
            fn widen(self) -> i32 {
                self as i32
            }
            #[inline(always)]
            fn narrow(v: i32) -> Self {
                v as $t
            }
        }
    )*};
}

widen!(i8 => true, u8 => true, i16 => true, u16 => true, u32 => false);

/// Whether the active backend has SIMD `i32` vectors (the `scalar` backend
/// has arrays of four, where the loop over `T` does as well).
const SIMD: bool = cfg!(all(
    not(feature = "force-scalar"),
    target_arch = "x86_64",
    target_feature = "sse2"
));

/// Whether the backend multiplies `i32` lanes in one instruction
/// (`vpmulld`: the AVX2 and AVX-512 backends). On SSE2 that multiplication
/// is emulated (`pmuludq` and shuffles, four lanes) while the loop over the
/// narrow types multiplies eight 16-bit lanes at once (`pmullw`), and the
/// loop beat the widened product of `i8 u8 i16 u16` at every measured shape.
const FAST_I32_MUL: bool = cfg!(all(
    not(feature = "force-scalar"),
    target_arch = "x86_64",
    target_feature = "avx2",
    target_feature = "fma"
));

/// Whether the backend is AVX-512, where a 4x4 `i32` product is one
/// register and the widened 4x4x4 product of a narrow type stays in
/// registers too.
const AVX512: bool = cfg!(all(
    not(feature = "force-scalar"),
    target_arch = "x86_64",
    target_feature = "avx512f",
    target_feature = "avx2",
    target_feature = "fma"
));

/// The row count a narrow type's product must be a multiple of to be
/// widened: one AVX-512 vector of `i32`, two AVX2 vectors. With fewer or
/// ragged rows the kernel runs partial vectors through memory, and the
/// loop, which vectorizes over 16-bit lanes, was as fast or faster (8x8).
pub const NARROW_ROWS: usize = 16;

/// The least depth `K` at which a narrow type's product is widened: the
/// conversions cost about what a few steps of the product do. At depth 4
/// (16x4x16) the bytes gained 3x and the 16-bit types were even (one run
/// 15% faster, one 12% slower); at depth 1 (16x1x16) `i16` was 6x slower.
pub const MIN_DEPTH: usize = 4;

/// Whether [`gemm_widened`] beats the in-order loop for an `m x k` by
/// `k x n` product of `T` on the active backend, as measured (see the
/// module documentation):
///
/// * `u32`, on every SIMD backend (it pays no conversion, only a copy of
///   the result): the 4x4x4 product, products whose `m` rows fill whole
///   `i32` vectors, and every product of 8 rows or more;
/// * `i8 u8 i16 u16` on AVX2 and AVX-512: products of a multiple of
///   [`NARROW_ROWS`] rows and a depth of at least [`MIN_DEPTH`]; on AVX-512
///   also the 4x4x4 product;
/// * nothing on SSE2 for the narrow types, nothing on the `scalar` backend.
pub const fn pays<T: Widen>(m: usize, k: usize, n: usize) -> bool {
    let four = m == 4 && k == 4 && n == 4;
    if !SIMD {
        false
    } else if T::NARROW {
        (AVX512 && four) || (FAST_I32_MUL && m.is_multiple_of(NARROW_ROWS) && k >= MIN_DEPTH)
    } else {
        four || m.is_multiple_of(<I32Vec as SimdVector>::LANES) || m >= 8
    }
}

/// `out = a * b`, or `a * b + addend`, for column-major `T` matrices `a`
/// (`M x K`), `b` (`K x N`), `addend` and `out` (`M x N`), wrapping: on the
/// `i32` kernel where [`pays`] says so, otherwise with the in-order loop.
/// The two give the same result.
///
/// # Panics
/// If a dimension is zero or a slice is not its shape's length.
#[inline(always)]
pub fn gemm<T: Widen, const M: usize, const K: usize, const N: usize>(
    a: &[T],
    b: &[T],
    addend: Option<&[T]>,
    out: &mut [T],
) {
    if pays::<T>(M, K, N) {
        gemm_widened::<T, M, K, N>(a, b, addend, out);
    } else {
        crate::ops::gemm_in_order::<T, M, K, N>(a, b, addend, out);
    }
}

/// `out = a * b`, or `a * b + addend`, for column-major `T` matrices `a`
/// (`M x K`), `b` (`K x N`), `addend` and `out` (`M x N`), wrapping, always
/// on the `i32` kernel: the operands widened, the product in `i32`, each
/// result truncated back (plus the addend, in `T`).
///
/// # Panics
/// If a dimension is zero or a slice is not its shape's length.
#[inline(always)]
pub fn gemm_widened<T: Widen, const M: usize, const K: usize, const N: usize>(
    a: &[T],
    b: &[T],
    addend: Option<&[T]>,
    out: &mut [T],
) {
    check_product((M, K, N), a, b, addend, out);
    let most = max(M * K, max(K * N, M * N));
    if most <= SMALL {
        small::<T, M, K, N>(a, b, addend, out);
    } else if most <= STACK_MAX {
        on_stack::<T, M, K, N>(a, b, addend, out);
    } else {
        on_heap::<T>((M, K, N), a, b, addend, out);
    }
}

/// The larger of two sizes (`Ord::max` is not `const`).
const fn max(x: usize, y: usize) -> usize {
    if x > y { x } else { y }
}

/// The most elements per buffer of [`small`]: 8x8.
const SMALL: usize = 64;

/// [`gemm_widened`] for shapes whose buffers hold at most [`SMALL`]
/// elements, in fixed `[i32; SMALL]` arrays, always inlined: a 4x4 product
/// then stays in registers (the operands widen straight from memory into
/// vectors), which an out-of-line call with its buffers in memory does not
/// allow. The arrays do not depend on the shape, so the frame of a caller
/// whose (larger) shape takes another branch grows by 768 bytes at most in
/// an unoptimized build.
#[inline(always)]
fn small<T: Widen, const M: usize, const K: usize, const N: usize>(
    a: &[T],
    b: &[T],
    addend: Option<&[T]>,
    out: &mut [T],
) {
    let mut a32 = [0i32; SMALL];
    let mut b32 = [0i32; SMALL];
    let mut o32 = [0i32; SMALL];
    let (a32, b32, o32) = (&mut a32[..M * K], &mut b32[..K * N], &mut o32[..M * N]);
    widen_into(a, a32);
    widen_into(b, b32);
    gemm_i32::<M, K, N, false>(a32, b32, o32);
    narrow_into(o32, addend, out);
}

/// [`gemm_widened`] with the buffers on the stack, sized exactly. Not
/// `inline(always)`: in an unoptimized build the frame of a function holds
/// the arrays of all its branches, so the large arrays of a shape that
/// takes [`on_heap`] must not land in the caller's frame.
#[inline]
fn on_stack<T: Widen, const M: usize, const K: usize, const N: usize>(
    a: &[T],
    b: &[T],
    addend: Option<&[T]>,
    out: &mut [T],
) {
    let mut a32 = [[0i32; M]; K];
    let mut b32 = [[0i32; K]; N];
    let mut o32 = [[0i32; M]; N];
    widen_into(a, a32.as_flattened_mut());
    widen_into(b, b32.as_flattened_mut());
    gemm_i32::<M, K, N, false>(
        a32.as_flattened(),
        b32.as_flattened(),
        o32.as_flattened_mut(),
    );
    narrow_into(o32.as_flattened(), addend, out);
}

/// [`gemm_widened`] with the buffers on the heap, for shapes above
/// [`STACK_MAX`]. The shape is a run-time value (the kernel is
/// [`gemm_with`] over [`I32Vec`], which is what [`gemm_i32`] runs for
/// every shape but 4x4x4), so there is one copy of this per element type
/// rather than one per shape.
#[inline(never)]
fn on_heap<T: Widen>(
    (m, k, n): (usize, usize, usize),
    a: &[T],
    b: &[T],
    addend: Option<&[T]>,
    out: &mut [T],
) {
    let a32: Vec<i32> = a.iter().map(|&x| x.widen()).collect();
    let b32: Vec<i32> = b.iter().map(|&x| x.widen()).collect();
    let mut o32 = vec![0i32; m * n];
    gemm_with::<I32Vec, false>(m, k, n, &a32, &b32, None, &mut o32);
    narrow_into(&o32, addend, out);
}

/// `dst[i] = widen(src[i])`.
#[inline(always)]
fn widen_into<T: Widen>(src: &[T], dst: &mut [i32]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = s.widen();
    }
}

/// `out[i] = narrow(src[i])`, plus `addend[i]` in `T` (wrapping).
#[inline(always)]
fn narrow_into<T: Widen>(src: &[i32], addend: Option<&[T]>, out: &mut [T]) {
    match addend {
        None => {
            for (o, &s) in out.iter_mut().zip(src) {
                *o = T::narrow(s);
            }
        }
        Some(c) => {
            for ((o, &s), &c) in out.iter_mut().zip(src).zip(c) {
                *o = T::narrow(s.wrapping_add(c.widen()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic bits over the whole range of every type.
    fn bits(n: usize, seed: u64) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .collect()
    }

    /// The contract's product with `T`'s own wrapping operations.
    fn reference<T: Widen>(
        m: usize,
        k: usize,
        n: usize,
        a: &[T],
        b: &[T],
        c: Option<&[T]>,
    ) -> Vec<T> {
        let mut out = vec![T::ZERO; m * n];
        for j in 0..n {
            for i in 0..m {
                let mut acc = a[i].mul(b[j * k]);
                for kk in 1..k {
                    acc = acc.add(a[kk * m + i].mul(b[j * k + kk]));
                }
                if let Some(c) = c {
                    acc = acc.add(c[j * m + i]);
                }
                out[j * m + i] = acc;
            }
        }
        out
    }

    fn check<T: Widen, const M: usize, const K: usize, const N: usize>(from: fn(u64) -> T) {
        for seed in 1..4 {
            let a: Vec<T> = bits(M * K, seed).into_iter().map(from).collect();
            let b: Vec<T> = bits(K * N, seed + 10).into_iter().map(from).collect();
            let c: Vec<T> = bits(M * N, seed + 20).into_iter().map(from).collect();
            let mut out = vec![T::ZERO; M * N];
            gemm_widened::<T, M, K, N>(&a, &b, None, &mut out);
            assert_eq!(
                out,
                reference(M, K, N, &a, &b, None),
                "{M}x{K}x{N} {}",
                T::C_NAME
            );
            gemm_widened::<T, M, K, N>(&a, &b, Some(&c), &mut out);
            assert_eq!(
                out,
                reference(M, K, N, &a, &b, Some(&c)),
                "{M}x{K}x{N} + c {}",
                T::C_NAME
            );
            let mut dispatched = vec![T::ZERO; M * N];
            gemm::<T, M, K, N>(&a, &b, Some(&c), &mut dispatched);
            assert_eq!(dispatched, out, "{M}x{K}x{N} dispatched {}", T::C_NAME);
        }
    }

    fn all_shapes<T: Widen>(from: fn(u64) -> T) {
        check::<T, 1, 1, 1>(from);
        check::<T, 4, 4, 4>(from);
        check::<T, 3, 5, 2>(from);
        check::<T, 17, 3, 17>(from);
        check::<T, 16, 16, 16>(from);
        // Above STACK_MAX: the heap buffers.
        check::<T, 33, 40, 2>(from);
        check::<T, 2, 300, 5>(from);
    }

    #[test]
    fn widened_products_equal_the_wrapping_reference() {
        all_shapes::<i8>(|x| x as i8);
        all_shapes::<u8>(|x| x as u8);
        all_shapes::<i16>(|x| x as i16);
        all_shapes::<u16>(|x| x as u16);
        all_shapes::<u32>(|x| x as u32);
    }

    #[test]
    fn narrowing_is_as() {
        for v in [
            0,
            1,
            -1,
            i32::MIN,
            i32::MAX,
            0x1234_5678,
            -0x80,
            0x80,
            0xFFFF,
            0x1_0000,
        ] {
            assert_eq!(i8::narrow(v), v as i8);
            assert_eq!(u8::narrow(v), v as u8);
            assert_eq!(i16::narrow(v), v as i16);
            assert_eq!(u16::narrow(v), v as u16);
            assert_eq!(u32::narrow(v), v as u32);
            assert_eq!(u32::narrow(v).widen(), v);
        }
    }

    #[test]
    #[should_panic(expected = "left operand is not 2x3")]
    fn wrong_length_panics() {
        let mut out = [0u8; 4];
        gemm_widened::<u8, 2, 3, 2>(&[0; 5], &[0; 6], None, &mut out);
    }
}
