//! Transposes: any element type by blocks, `f32` on the backends' shuffles.

use super::Isa;
use super::check::check_shape;

/// Transposes the column-major `rows x cols` matrix `src` into the
/// column-major `cols x rows` matrix `dst`, for any element type, in
/// cache-friendly 8x8 blocks.
///
/// # Panics
/// If a slice's length is not `rows * cols`.
#[inline(always)]
pub(crate) fn transpose<T: Copy>(rows: usize, cols: usize, src: &[T], dst: &mut [T]) {
    check_shape("source", src.len(), rows, cols);
    check_shape("destination", dst.len(), cols, rows);
    const B: usize = 8;
    for c0 in (0..cols).step_by(B) {
        for r0 in (0..rows).step_by(B) {
            for c in c0..(c0 + B).min(cols) {
                for r in r0..(r0 + B).min(rows) {
                    dst[r * cols + c] = src[c * rows + r];
                }
            }
        }
    }
}

/// A 32-bit integer type whose transposes move its elements as `f32` bits
/// ([`transpose_as_f32`]): `i32` and `u32`.
pub(crate) trait Bits32: Copy {}
impl Bits32 for i32 {}
impl Bits32 for u32 {}

/// [`transpose_f32`] for `i32` and `u32`, their elements moved as `f32`
/// bits: a transpose reads no element's value, the backends' shuffles move
/// lanes bit for bit, and a copy of an `f32` keeps its bits (a NaN's
/// payload and signalling bit included). An 8x8 `i32` `transpose_to` took
/// 12.4 ns on [`transpose`] and takes 3.4 ns this way, 16x16 85 ns and
/// 20 ns (a scratch crate's timing loop, default build, AVX-512 Xeon).
///
/// # Panics
/// If a slice's length is not `rows * cols`.
#[inline(always)]
pub(crate) fn transpose_as_f32<S: Isa, T: Bits32>(
    s: S,
    rows: usize,
    cols: usize,
    src: &[T],
    dst: &mut [T],
) {
    const { assert!(size_of::<T>() == 4 && align_of::<T>() == 4) };
    // SAFETY: `T` is `i32` or `u32` (`Bits32` is implemented for those
    // alone), of `f32`'s size and alignment, and every 32 bits are a value
    // of each of the three types. So `src` is `src.len()` valid, aligned
    // `f32`s, and any `f32` the transpose writes into `dst` is a valid `T`.
    // Each view borrows its slice, `dst`'s exclusively, for this call.
    let (src, dst) = unsafe {
        (
            core::slice::from_raw_parts(src.as_ptr().cast::<f32>(), src.len()),
            core::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<f32>(), dst.len()),
        )
    };
    transpose_f32(s, rows, cols, src, dst);
}

/// [`transpose`] for `f32` on backend `S`: 4x4 and 8x8 with the backend's
/// dedicated transposes, other shapes by whole 16x16 tiles, then whole 8x8
/// and 4x4 ones, with the backend's shuffles, and the edges element by
/// element.
///
/// # Panics
/// If a slice's length is not `rows * cols`.
#[inline(always)]
pub(crate) fn transpose_f32<S: Isa>(s: S, rows: usize, cols: usize, src: &[f32], dst: &mut [f32]) {
    check_shape("source", src.len(), rows, cols);
    check_shape("destination", dst.len(), cols, rows);
    if let (Ok(a), Ok(out)) = (
        <&[f32; 16]>::try_from(src),
        <&mut [f32; 16]>::try_from(&mut *dst),
    ) && rows == 4
    {
        *out = s.transpose_4x4_f32(a);
        return;
    }
    if let (Ok(a), Ok(out)) = (
        <&[f32; 64]>::try_from(src),
        <&mut [f32; 64]>::try_from(&mut *dst),
    ) && rows == 8
    {
        *out = s.transpose_8x8_f32(a);
        return;
    }
    // Block (r0, c0) of `src` goes to block (c0, r0) of `dst`.
    let at = |r0: usize, c0: usize| ((c0 * rows + r0, rows), (r0 * cols + c0, cols));
    // Whole tiles of each size, largest first, each size over what the
    // larger ones left: after tiles of size `b`, rows `..done.0` of columns
    // `..done.1` are done. (A macro, not a closure: a closure is compiled
    // without the caller's target features, so the intrinsics of a tile
    // might not be inlined into it.)
    let mut done = (0, 0);
    macro_rules! tiles {
        ($b:literal, $tile:ident) => {
            let (rb, cb) = (rows / $b * $b, cols / $b * $b);
            for c0 in (0..cb).step_by($b) {
                let first = if c0 < done.1 { done.0 } else { 0 };
                for r0 in (first..rb).step_by($b) {
                    let (from, to) = at(r0, c0);
                    s.$tile(src, from, dst, to);
                }
            }
            done = (rb, cb);
        };
    }
    tiles!(16, transpose_16x16_f32_strided);
    tiles!(8, transpose_8x8_f32_strided);
    tiles!(4, transpose_4x4_f32_strided);
    let (r4, c4) = done;
    for c in 0..cols {
        let first = if c < c4 { r4 } else { 0 };
        for r in first..rows {
            dst[r * cols + c] = src[c * rows + r];
        }
    }
}
