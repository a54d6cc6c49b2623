//! Transposes: any element type by blocks; every type of 8, 16, 32 or 64
//! bits on the backends' shuffles, as the bits of `u8`, `u16`, `f32` or
//! `f64`.

use super::Isa;
use super::check::check_shape;
use crate::simd::Tile;

/// A transpose of the column-major `rows x cols` matrix `src` into the
/// column-major `cols x rows` matrix `dst`, the slices' lengths checked
/// against the shape where it is made ([`Transposition::new`]): what every
/// transpose below takes.
pub struct Transposition<'s, 'd, T> {
    rows: usize,
    cols: usize,
    src: &'s [T],
    dst: &'d mut [T],
}

impl<'s, 'd, T> Transposition<'s, 'd, T> {
    /// The transpose of the `rows x cols` matrix `src` into `dst`.
    ///
    /// # Panics
    /// If a slice's length is not `rows * cols`.
    #[inline(always)]
    pub(crate) fn new(rows: usize, cols: usize, src: &'s [T], dst: &'d mut [T]) -> Self {
        check_shape("source", src.len(), rows, cols);
        check_shape("destination", dst.len(), cols, rows);
        Transposition {
            rows,
            cols,
            src,
            dst,
        }
    }

    /// The source and the destination as arrays of `N` elements.
    ///
    /// # Panics
    /// If the matrices do not have `N` elements.
    #[inline(always)]
    pub(crate) fn square<const N: usize>(self) -> (&'s [T; N], &'d mut [T; N]) {
        match (self.src.try_into(), self.dst.try_into()) {
            (Ok(src), Ok(dst)) => (src, dst),
            _ => panic!("a transpose of {} elements, not {N}", self.src.len()),
        }
    }

    /// The rows and columns of the source, the source and the
    /// destination.
    #[inline(always)]
    pub(crate) fn parts(self) -> (usize, usize, &'s [T], &'d mut [T]) {
        (self.rows, self.cols, self.src, self.dst)
    }
}

/// Runs a transpose, for any element type, in cache-friendly 8x8 blocks.
#[inline(always)]
pub(crate) fn transpose<T: Copy>(m: Transposition<'_, '_, T>) {
    let (rows, cols, src, dst) = m.parts();
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

/// A type whose transposes run on the backends' shuffles: `f32`
/// ([`transpose_f32`]), `f64` ([`transpose_f64`]), `u16`
/// ([`transpose_u16`]) and `u8` ([`transpose_u8`]).
pub(crate) trait Shuffled: Copy {
    /// Runs a transpose on backend `S`, with the tiles for a CPU whose
    /// 512-bit units are full width where `FULL_WIDTH` (see
    /// [`transpose_f32`]).
    fn transpose_shuffled<S: Isa, const FULL_WIDTH: bool>(s: S, m: Transposition<'_, '_, Self>);
}

macro_rules! shuffled {
    ($($t:ty => $f:expr;)*) => {$(
        impl Shuffled for $t {
            #[inline(always)]
            fn transpose_shuffled<S: Isa, const FULL_WIDTH: bool>(s: S, m: Transposition<'_, '_, $t>) {
                $f(s, m);
            }
        }
    )*};
}
shuffled! {
    f32 => transpose_f32::<S, FULL_WIDTH>;
    f64 => transpose_f64;
    u16 => transpose_u16;
    u8 => transpose_u8;
}

/// A type whose transposes move its elements as the bits of the
/// [`Shuffled`] type of its size ([`transpose_as_bits`]): every element
/// type (the [`Shuffled`] types as themselves).
pub(crate) trait Bits: Copy {
    /// The [`Shuffled`] type of the same size and alignment.
    type Lanes: Shuffled;
}
macro_rules! bits {
    ($($(#[$cfg:meta])* $t:ty => $lanes:ty;)*) => {$(
        $(#[$cfg])*
        impl Bits for $t {
            type Lanes = $lanes;
        }
    )*};
}
bits! {
    f32 => f32;
    f64 => f64;
    u16 => u16;
    u8 => u8;
    i32 => f32;
    u32 => f32;
    i64 => f64;
    u64 => f64;
    i16 => u16;
    i8 => u8;
    #[cfg(feature = "f16")]
    half::f16 => u16;
    #[cfg(feature = "bf16")]
    half::bf16 => u16;
}

/// [`Shuffled::transpose_shuffled`] for a type of [`Bits`], its elements
/// moved as the bits of [`Bits::Lanes`]: a transpose reads no element's
/// value, the backends' shuffles move lanes bit for bit, and a copy of a
/// float keeps its bits (a NaN's payload and signalling bit included). An
/// 8x8 `i32` `transpose_to` took 12.4 ns on [`transpose`] and takes 3.4 ns
/// this way, 16x16 85 ns and 20 ns (a scratch crate's timing loop, default
/// build, AVX-512 Xeon).
#[inline(always)]
pub(crate) fn transpose_as_bits<S: Isa, T: Bits, const FULL_WIDTH: bool>(
    s: S,
    m: Transposition<'_, '_, T>,
) {
    let (rows, cols, src, dst) = m.parts();
    const {
        assert!(
            size_of::<T>() == size_of::<T::Lanes>() && align_of::<T>() == align_of::<T::Lanes>()
        )
    };
    // SAFETY: `T` is one of the types `Bits` is implemented for, each of
    // its `Lanes`' size and alignment (checked above), and all bit patterns
    // of that size are values of both types (integers, floats, and the
    // `half` types, which wrap a `u16`). So `src` is `src.len()` valid,
    // aligned `Lanes`, and any `Lanes` the transpose writes into `dst` is a
    // valid `T`. Each view borrows its slice, `dst`'s exclusively, for this
    // call.
    let (src, dst) = unsafe {
        (
            core::slice::from_raw_parts(src.as_ptr().cast::<T::Lanes>(), src.len()),
            core::slice::from_raw_parts_mut(dst.as_mut_ptr().cast::<T::Lanes>(), dst.len()),
        )
    };
    // The lengths are those of `m`, checked where it was made.
    let m = Transposition {
        rows,
        cols,
        src,
        dst,
    };
    T::Lanes::transpose_shuffled::<S, FULL_WIDTH>(s, m);
}

/// The tiles and edges of the shuffle transpose `$m` on backend `$s`:
/// whole tiles of each
/// size (`$b: $tile`, an [`Isa`] method), largest first, each size over
/// what the larger ones left, then the edges element by element. (A macro,
/// not a function taking the tiles as closures: a closure is compiled
/// without the caller's target features, so the intrinsics of a tile
/// might not be inlined into it.)
macro_rules! by_tiles {
    ($s:ident, $m:ident; $($b:literal: $tile:ident),+) => {{
        let (rows, cols, src, dst) = $m.parts();
        // Block (r0, c0) of `src` goes to block (c0, r0) of `dst`.
        let at = |r0: usize, c0: usize| ((c0 * rows + r0, rows), (r0 * cols + c0, cols));
        // After tiles of size `b`, rows `..done.0` of columns `..done.1`
        // are done.
        let mut done = (0, 0);
        $(
            let (rb, cb) = (rows / $b * $b, cols / $b * $b);
            for c0 in (0..cb).step_by($b) {
                let first = if c0 < done.1 { done.0 } else { 0 };
                for r0 in (first..rb).step_by($b) {
                    let (from, to) = at(r0, c0);
                    $s.$tile(Tile::new(src, from, dst, to));
                }
            }
            done = (rb, cb);
        )+
        let (rt, ct) = done;
        for c in 0..cols {
            let first = if c < ct { rt } else { 0 };
            for r in first..rows {
                dst[r * cols + c] = src[c * rows + r];
            }
        }
    }};
}

/// [`transpose`] for `f32` on backend `S`: 4x4 and 8x8 with the backend's
/// dedicated transposes, other shapes by whole 16x16 tiles, then whole 8x8
/// and 4x4 ones, with the backend's shuffles, and the edges element by
/// element. `FULL_WIDTH` takes the 16x16 tiles for a CPU whose 512-bit
/// units are full width ([`Isa::transpose_16x16_f32_full_width`]); the
/// caller chooses it outside the backend's boundary, so that each tile is
/// a constant choice inside it (a branch per tile cost a 16x16 product
/// with a transposed left operand 4 ns, on an AMD EPYC Zen 5).
#[inline(always)]
pub(crate) fn transpose_f32<S: Isa, const FULL_WIDTH: bool>(s: S, m: Transposition<'_, '_, f32>) {
    let square = |n| m.rows == n && m.cols == n;
    if square(4) {
        let (a, out) = m.square::<16>();
        *out = s.transpose_4x4_f32(a);
        return;
    }
    if square(8) {
        let (a, out) = m.square::<64>();
        *out = s.transpose_8x8_f32(a);
        return;
    }
    if FULL_WIDTH {
        by_tiles!(s, m;
            16: transpose_16x16_f32_full_width,
            8: transpose_8x8_f32_strided,
            4: transpose_4x4_f32_strided);
    } else {
        by_tiles!(s, m;
            16: transpose_16x16_f32_strided,
            8: transpose_8x8_f32_strided,
            4: transpose_4x4_f32_strided);
    }
}

/// [`transpose`] for `f64` on backend `S`: whole 8x8 tiles, then whole 4x4
/// ones, with the backend's shuffles, and the edges element by element.
#[inline(always)]
pub(crate) fn transpose_f64<S: Isa>(s: S, m: Transposition<'_, '_, f64>) {
    by_tiles!(s, m;
        8: transpose_8x8_f64_strided,
        4: transpose_4x4_f64_strided);
}

/// [`transpose`] for `u16` on backend `S`: whole 8x8 tiles with the
/// backend's shuffles (SSE2's unpacks on every x86 backend), and the edges
/// element by element.
#[inline(always)]
pub(crate) fn transpose_u16<S: Isa>(s: S, m: Transposition<'_, '_, u16>) {
    by_tiles!(s, m;
        8: transpose_8x8_u16_strided);
}

/// [`transpose`] for `u8` on backend `S`: whole 16x16 tiles, then whole
/// 8x8 ones, with the backend's shuffles, and the edges element by
/// element.
#[inline(always)]
pub(crate) fn transpose_u8<S: Isa>(s: S, m: Transposition<'_, '_, u8>) {
    by_tiles!(s, m;
        16: transpose_16x16_u8_strided,
        8: transpose_8x8_u8_strided);
}
