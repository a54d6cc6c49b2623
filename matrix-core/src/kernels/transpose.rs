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

/// [`transpose`] for `f32` on backend `S`: 4x4 and 8x8 with the backend's
/// dedicated transposes, other shapes by whole 8x8 tiles, then whole 4x4
/// tiles, with the backend's shuffles, and the edges element by element.
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
    let (r8, c8) = (rows / 8 * 8, cols / 8 * 8);
    for c0 in (0..c8).step_by(8) {
        for r0 in (0..r8).step_by(8) {
            let (from, to) = at(r0, c0);
            s.transpose_8x8_f32_strided(src, from, dst, to);
        }
    }
    // The 4x4 tiles that no 8x8 one covered.
    let (r4, c4) = (rows / 4 * 4, cols / 4 * 4);
    for c0 in (0..c4).step_by(4) {
        let first = if c0 < c8 { r8 } else { 0 };
        for r0 in (first..r4).step_by(4) {
            let (from, to) = at(r0, c0);
            s.transpose_4x4_f32_strided(src, from, dst, to);
        }
    }
    for c in 0..cols {
        let first = if c < c4 { r4 } else { 0 };
        for r in first..rows {
            dst[r * cols + c] = src[c * rows + r];
        }
    }
}
