//! Benchmark support: operands at fixed page offsets, the batch loop every
//! column shares, deterministic data, and safe wrappers of the clang-19
//! kernels.
//!
//! # Placement (4K aliasing)
//!
//! On x86 a load whose address matches an earlier in-flight store in the
//! low 12 bits is held back as if it depended on that store ("4K
//! aliasing"). Where a benchmark's result happens to land 4096 bytes (or a
//! multiple) from an operand, the same code runs up to 2x slower, and which
//! case one gets depends on the allocator. So every operand lives in its
//! own page-aligned allocation ([`Placed`]) at a fixed offset within its
//! first page: `a` at [`OFFSET_A`], `b` at [`OFFSET_B`], the addend at
//! [`OFFSET_C`] and the result at [`OFFSET_OUT`], 1 KiB apart. Operands of
//! up to 1 KiB (every 4x4 and 8x8, and 16x16 `f32`) then never alias;
//! larger ones (32x32 and 64x64 `f32`) cover every page offset and alias
//! structurally, but always in the same way from run to run.
//!
//! # Batches
//!
//! Each criterion iteration runs the operation [`BATCH`] times on the same
//! operands, with `black_box` on the operand and result references at every
//! iteration, so the operands are reloaded and the result stored each time.
//! The clang-19 kernels run the same loop in C (with an `asm` memory
//! barrier), which amortises the cost of the non-inlinable FFI call the
//! same way. Reported times are per operation: criterion's estimate divided
//! by [`BATCH`].

use std::alloc::{Layout, alloc_zeroed, dealloc, handle_alloc_error};
use std::hint::black_box;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Operations per criterion iteration.
pub const BATCH: usize = 16;
/// The page size the offsets refer to.
pub const PAGE: usize = 4096;
/// Page offset of the left operand.
pub const OFFSET_A: usize = 0x040;
/// Page offset of the right operand.
pub const OFFSET_B: usize = 0x440;
/// Page offset of the addend of `a * b + c`.
pub const OFFSET_C: usize = 0x840;
/// Page offset of the result.
pub const OFFSET_OUT: usize = 0xC40;

/// A `T` stored alone in a page-aligned allocation, at a fixed offset
/// within its first page.
pub struct Placed<T: Copy> {
    base: NonNull<u8>,
    layout: Layout,
    offset: usize,
    _marker: PhantomData<T>,
}

impl<T: Copy> Placed<T> {
    /// Moves `value` to byte `offset` (< [`PAGE`], a multiple of `T`'s
    /// alignment) of a fresh page-aligned allocation.
    pub fn new(value: T, offset: usize) -> Self {
        assert!(offset < PAGE, "offset {offset} is not within a page");
        assert!(
            offset.is_multiple_of(align_of::<T>()),
            "offset {offset} misaligns the value"
        );
        let size = (offset + size_of::<T>()).next_multiple_of(PAGE);
        let layout = Layout::from_size_align(size, PAGE).expect("valid layout");
        // SAFETY: `layout` has a non-zero size (at least one page).
        let raw = unsafe { alloc_zeroed(layout) };
        let base = NonNull::new(raw).unwrap_or_else(|| handle_alloc_error(layout));
        // SAFETY: `offset + size_of::<T>() <= size`, so the write is inside
        // the allocation, and `base + offset` is aligned for `T` because the
        // base is page-aligned and `offset` a multiple of `T`'s alignment.
        unsafe { base.add(offset).cast::<T>().write(value) };
        Self {
            base,
            layout,
            offset,
            _marker: PhantomData,
        }
    }

    /// The address of the value, for checking the placement.
    pub fn addr(&self) -> usize {
        self.base.addr().get() + self.offset
    }
}

impl<T: Copy> Deref for Placed<T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: `new` wrote a valid, aligned `T` there, and the allocation
        // lives as long as `self`; `&self` excludes a `&mut` alias.
        unsafe { self.base.add(self.offset).cast::<T>().as_ref() }
    }
}

impl<T: Copy> DerefMut for Placed<T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: as in `deref`; `&mut self` makes this the only reference.
        unsafe { self.base.add(self.offset).cast::<T>().as_mut() }
    }
}

impl<T: Copy> Drop for Placed<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout; `T: Copy` needs no
        // drop.
        unsafe { dealloc(self.base.as_ptr(), self.layout) }
    }
}

/// Runs `f` [`BATCH`] times on opaque references to the operands.
#[inline(always)]
pub fn batch2<A, B, O>(a: &A, b: &B, out: &mut O, f: impl Fn(&A, &B, &mut O)) {
    for _ in 0..BATCH {
        f(black_box(a), black_box(b), black_box(&mut *out));
    }
    black_box(out);
}

/// Runs `f` [`BATCH`] times on opaque references to the operands.
#[inline(always)]
pub fn batch3<A, B, C, O>(a: &A, b: &B, c: &C, out: &mut O, f: impl Fn(&A, &B, &C, &mut O)) {
    for _ in 0..BATCH {
        f(
            black_box(a),
            black_box(b),
            black_box(c),
            black_box(&mut *out),
        );
    }
    black_box(out);
}

/// Runs `f` [`BATCH`] times on opaque references to the operands.
#[inline(always)]
pub fn batch1<A, O>(a: &A, out: &mut O, f: impl Fn(&A, &mut O)) {
    for _ in 0..BATCH {
        f(black_box(a), black_box(&mut *out));
    }
    black_box(out);
}

/// Deterministic `f32` data in `[-1, 1)` with many significant bits.
pub fn data_f32<const N: usize>(seed: u32) -> [f32; N] {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12_345);
    std::array::from_fn(|_| {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        ((x >> 8) as f32 / (1u32 << 24) as f32) * 2.0 - 1.0
    })
}

/// Deterministic `f64` data in `[-1, 1)`.
pub fn data_f64<const N: usize>(seed: u32) -> [f64; N] {
    data_f32::<N>(seed).map(|v| v as f64 * (1.0 - 1.0 / 7.0))
}

/// Deterministic small `i32` data in `-100..100`.
pub fn data_i32<const N: usize>(seed: u32) -> [i32; N] {
    data_f32::<N>(seed).map(|v| (v * 100.0) as i32)
}

/// Deterministic `u8` data, every value in `0..=255`.
pub fn data_u8<const N: usize>(seed: u32) -> [u8; N] {
    data_f32::<N>(seed).map(|v| ((v + 1.0) * 127.9) as u8)
}

/// Deterministic `u16` data, spread over `0..=65535`.
pub fn data_u16<const N: usize>(seed: u32) -> [u16; N] {
    data_f32::<N>(seed).map(|v| ((v + 1.0) * 32767.9) as u16)
}

/// Safe wrappers of the clang-19 matrix-type kernels of `c/matrix.c`,
/// present when build.rs found clang-19 (cfg `has_clang19`).
#[cfg(has_clang19)]
pub mod clang {
    macro_rules! mul {
        ($(#[$doc:meta])* $name:ident, $t:ty, $n:literal, $sym:ident) => {
            $(#[$doc])*
            pub fn $name(a: &[$t; $n * $n], b: &[$t; $n * $n], out: &mut [$t; $n * $n], iters: usize) {
                unsafe extern "C" {
                    fn $sym(a: *const $t, b: *const $t, out: *mut $t, n: usize);
                }
                // SAFETY: the C kernel reads N*N elements from `a` and `b`
                // and writes N*N elements to `out`, which the array types
                // provide; `out` is exclusive; it keeps no pointer.
                unsafe { $sym(a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), iters) }
            }
        };
    }
    macro_rules! madd {
        ($(#[$doc:meta])* $name:ident, $t:ty, $n:literal, $sym:ident) => {
            $(#[$doc])*
            pub fn $name(
                a: &[$t; $n * $n],
                b: &[$t; $n * $n],
                c: &[$t; $n * $n],
                out: &mut [$t; $n * $n],
                iters: usize,
            ) {
                unsafe extern "C" {
                    fn $sym(a: *const $t, b: *const $t, c: *const $t, out: *mut $t, n: usize);
                }
                // SAFETY: the C kernel reads N*N elements from `a`, `b` and
                // `c` and writes N*N elements to `out`, which the array types
                // provide; `out` is exclusive; it keeps no pointer.
                unsafe { $sym(a.as_ptr(), b.as_ptr(), c.as_ptr(), out.as_mut_ptr(), iters) }
            }
        };
    }
    macro_rules! transpose {
        ($(#[$doc:meta])* $name:ident, $t:ty, $n:literal, $sym:ident) => {
            $(#[$doc])*
            pub fn $name(a: &[$t; $n * $n], out: &mut [$t; $n * $n], iters: usize) {
                unsafe extern "C" {
                    fn $sym(a: *const $t, out: *mut $t, n: usize);
                }
                // SAFETY: the C kernel reads N*N elements from `a` and
                // writes N*N elements to `out`, which the array types
                // provide; `out` is exclusive; it keeps no pointer.
                unsafe { $sym(a.as_ptr(), out.as_mut_ptr(), iters) }
            }
        };
    }

    /// `$name(operands.., out)`: one C call of `$sym` over the batch, each
    /// operand [`BATCH`](crate::BATCH) consecutive N*N blocks.
    macro_rules! batch {
        ($(#[$doc:meta])* $name:ident($($x:ident),+), $t:ty, $n:literal, $sym:ident) => {
            $(#[$doc])*
            pub fn $name(
                $($x: &[[$t; $n * $n]; crate::BATCH],)+
                out: &mut [[$t; $n * $n]; crate::BATCH],
            ) {
                unsafe extern "C" {
                    fn $sym($($x: *const $t,)+ out: *mut $t, n: usize);
                }
                // SAFETY: the C kernel reads BATCH consecutive N*N blocks
                // from each operand and writes BATCH to `out`, which the
                // array types provide; `out` is exclusive; it keeps no
                // pointer.
                unsafe { $sym($($x.as_ptr().cast(),)+ out.as_mut_ptr().cast(), crate::BATCH) }
            }
        };
    }

    /// Kernels built with `-ffp-contract=off` over [`BATCH`](super::BATCH)
    /// distinct operands each: the form of the `dsl #[dispatch]` columns,
    /// where the other kernels run one operation [`BATCH`](super::BATCH)
    /// times on the same operands.
    pub mod batch {
        batch!(/// `out[i] = a[i] * b[i]` for each of the batch, 4x4 `float`.
            mul_f32_4(a, b), f32, 4, clang_mul_batch_f32x_4_off);
        batch!(/// `out[i] = a[i] * b[i]` for each of the batch, 4x4 `double`.
            mul_f64_4(a, b), f64, 4, clang_mul_batch_f64x_4_off);
        batch!(/// `out[i] = a[i] * b[i]` for each of the batch, 4x4 `int`.
            mul_i32_4(a, b), i32, 4, clang_mul_batch_i32x_4_off);
        batch!(/// `out[i] = a[i] * b[i] + c[i]` for each of the batch, 4x4 `float`.
            madd_f32_4(a, b, c), f32, 4, clang_madd_batch_f32x_4_off);
    }

    /// Kernels built with `-ffp-contract=off`.
    pub mod off {
        mul!(/// `iters` times `out = a * b`, 3x3 `float`.
            mul_f32_3, f32, 3, clang_mul_f32x_3_off);
        mul!(/// `iters` times `out = a * b`, 4x4 `float`.
            mul_f32_4, f32, 4, clang_mul_f32x_4_off);
        mul!(/// `iters` times `out = a * b`, 7x7 `float`.
            mul_f32_7, f32, 7, clang_mul_f32x_7_off);
        mul!(/// `iters` times `out = a * b`, 8x8 `float`.
            mul_f32_8, f32, 8, clang_mul_f32x_8_off);
        mul!(/// `iters` times `out = a * b`, 16x16 `float`.
            mul_f32_16, f32, 16, clang_mul_f32x_16_off);
        mul!(/// `iters` times `out = a * b`, 32x32 `float`.
            mul_f32_32, f32, 32, clang_mul_f32x_32_off);
        mul!(/// `iters` times `out = a * b`, 64x64 `float`.
            mul_f32_64, f32, 64, clang_mul_f32x_64_off);
        mul!(/// `iters` times `out = a * b`, 4x4 `double`.
            mul_f64_4, f64, 4, clang_mul_f64x_4_off);
        mul!(/// `iters` times `out = a * b`, 6x6 `double`.
            mul_f64_6, f64, 6, clang_mul_f64x_6_off);
        mul!(/// `iters` times `out = a * b`, 8x8 `double`.
            mul_f64_8, f64, 8, clang_mul_f64x_8_off);
        mul!(/// `iters` times `out = a * b`, 4x4 `int`.
            mul_i32_4, i32, 4, clang_mul_i32x_4_off);
        mul!(/// `iters` times `out = a * b`, 4x4 `long`.
            mul_i64_4, i64, 4, clang_mul_i64x_4_off);
        mul!(/// `iters` times `out = a * b`, 8x8 `long`.
            mul_i64_8, i64, 8, clang_mul_i64x_8_off);
        mul!(/// `iters` times `out = a * b`, 16x16 `long`.
            mul_i64_16, i64, 16, clang_mul_i64x_16_off);
        madd!(/// `iters` times `out = a * b + c`, 4x4 `float`.
            madd_f32_4, f32, 4, clang_madd_f32x_4_off);
        madd!(/// `iters` times `out = a * b + c`, 8x8 `float`.
            madd_f32_8, f32, 8, clang_madd_f32x_8_off);
        transpose!(/// `iters` times `out = transpose(a)`, 4x4 `float`.
            transpose_f32_4, f32, 4, clang_transpose_f32x_4_off);
        transpose!(/// `iters` times `out = transpose(a)`, 8x8 `float`.
            transpose_f32_8, f32, 8, clang_transpose_f32x_8_off);
        transpose!(/// `iters` times `out = transpose(a)`, 16x16 `float`.
            transpose_f32_16, f32, 16, clang_transpose_f32x_16_off);
        transpose!(/// `iters` times `out = transpose(a)`, 8x8 `double`.
            transpose_f64_8, f64, 8, clang_transpose_f64x_8_off);
        transpose!(/// `iters` times `out = transpose(a)`, 16x16 `double`.
            transpose_f64_16, f64, 16, clang_transpose_f64x_16_off);
        transpose!(/// `iters` times `out = transpose(a)`, 16x16 `unsigned char`.
            transpose_u8_16, u8, 16, clang_transpose_u8x_16_off);
        transpose!(/// `iters` times `out = transpose(a)`, 8x8 `unsigned short`.
            transpose_u16_8, u16, 8, clang_transpose_u16x_8_off);
        transpose!(/// `iters` times `out = transpose(a)`, 16x16 `unsigned short`.
            transpose_u16_16, u16, 16, clang_transpose_u16x_16_off);
    }

    /// Kernels built with `-ffp-contract=fast -mprefer-vector-width=512`.
    pub mod fast {
        mul!(/// `iters` times `out = a * b`, 3x3 `float`.
            mul_f32_3, f32, 3, clang_mul_f32x_3_fast);
        mul!(/// `iters` times `out = a * b`, 4x4 `float`.
            mul_f32_4, f32, 4, clang_mul_f32x_4_fast);
        mul!(/// `iters` times `out = a * b`, 7x7 `float`.
            mul_f32_7, f32, 7, clang_mul_f32x_7_fast);
        mul!(/// `iters` times `out = a * b`, 8x8 `float`.
            mul_f32_8, f32, 8, clang_mul_f32x_8_fast);
        mul!(/// `iters` times `out = a * b`, 16x16 `float`.
            mul_f32_16, f32, 16, clang_mul_f32x_16_fast);
        mul!(/// `iters` times `out = a * b`, 32x32 `float`.
            mul_f32_32, f32, 32, clang_mul_f32x_32_fast);
        mul!(/// `iters` times `out = a * b`, 64x64 `float`.
            mul_f32_64, f32, 64, clang_mul_f32x_64_fast);
        mul!(/// `iters` times `out = a * b`, 4x4 `double`.
            mul_f64_4, f64, 4, clang_mul_f64x_4_fast);
        mul!(/// `iters` times `out = a * b`, 6x6 `double`.
            mul_f64_6, f64, 6, clang_mul_f64x_6_fast);
        mul!(/// `iters` times `out = a * b`, 8x8 `double`.
            mul_f64_8, f64, 8, clang_mul_f64x_8_fast);
        mul!(/// `iters` times `out = a * b`, 4x4 `int`.
            mul_i32_4, i32, 4, clang_mul_i32x_4_fast);
        madd!(/// `iters` times `out = a * b + c`, 4x4 `float`.
            madd_f32_4, f32, 4, clang_madd_f32x_4_fast);
        madd!(/// `iters` times `out = a * b + c`, 8x8 `float`.
            madd_f32_8, f32, 8, clang_madd_f32x_8_fast);
        transpose!(/// `iters` times `out = transpose(a)`, 4x4 `float`.
            transpose_f32_4, f32, 4, clang_transpose_f32x_4_fast);
        transpose!(/// `iters` times `out = transpose(a)`, 8x8 `float`.
            transpose_f32_8, f32, 8, clang_transpose_f32x_8_fast);
        transpose!(/// `iters` times `out = transpose(a)`, 16x16 `float`.
            transpose_f32_16, f32, 16, clang_transpose_f32x_16_fast);
        transpose!(/// `iters` times `out = transpose(a)`, 8x8 `double`.
            transpose_f64_8, f64, 8, clang_transpose_f64x_8_fast);
        transpose!(/// `iters` times `out = transpose(a)`, 16x16 `double`.
            transpose_f64_16, f64, 16, clang_transpose_f64x_16_fast);
        transpose!(/// `iters` times `out = transpose(a)`, 16x16 `unsigned char`.
            transpose_u8_16, u8, 16, clang_transpose_u8x_16_fast);
        transpose!(/// `iters` times `out = transpose(a)`, 8x8 `unsigned short`.
            transpose_u16_8, u16, 8, clang_transpose_u16x_8_fast);
        transpose!(/// `iters` times `out = transpose(a)`, 16x16 `unsigned short`.
            transpose_u16_16, u16, 16, clang_transpose_u16x_16_fast);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placed_values_sit_at_their_page_offsets() {
        for off in [OFFSET_A, OFFSET_B, OFFSET_C, OFFSET_OUT] {
            let mut p = Placed::new(data_f32::<4096>(7), off);
            assert_eq!(p.addr() % PAGE, off);
            assert_eq!(p[4095], data_f32::<4096>(7)[4095]);
            p[0] = 1.5;
            assert_eq!(p[0], 1.5);
        }
    }

    /// clang-19's `-ffp-contract=off` output is the contract's result, bit
    /// for bit, and so is `Matrix`'s product (exact, on whichever backend
    /// runs).
    #[cfg(has_clang19)]
    #[test]
    fn clang_off_equals_exact_products() {
        use matrix_core::Matrix;

        macro_rules! same {
            ($t:ty, $n:literal, $data:ident, $clang:ident) => {{
                const NN: usize = $n * $n;
                let (a, b) = ($data::<NN>(1), $data::<NN>(2));
                type M = Matrix<$t, $n, $n>;
                let want = M::from_column_major(&a) * M::from_column_major(&b);
                let mut got = [<$t>::default(); NN];
                clang::off::$clang(&a, &b, &mut got, 1);
                assert!(
                    want.as_slice()
                        .iter()
                        .zip(&got)
                        .all(|(x, y)| x.to_ne_bytes() == y.to_ne_bytes()),
                    concat!(stringify!($clang), " differs")
                );
            }};
        }
        same!(f32, 3, data_f32, mul_f32_3);
        same!(f32, 4, data_f32, mul_f32_4);
        same!(f32, 7, data_f32, mul_f32_7);
        same!(f32, 8, data_f32, mul_f32_8);
        same!(f32, 16, data_f32, mul_f32_16);
        same!(f32, 32, data_f32, mul_f32_32);
        same!(f32, 64, data_f32, mul_f32_64);
        same!(f64, 4, data_f64, mul_f64_4);
        same!(f64, 6, data_f64, mul_f64_6);
        same!(f64, 8, data_f64, mul_f64_8);
        same!(i32, 4, data_i32, mul_i32_4);

        type M8 = Matrix<f32, 8, 8>;
        let d = [data_f32::<64>(1), data_f32::<64>(2), data_f32::<64>(3)];
        let m = d.map(|x| M8::from_column_major(&x));
        let want = m[0] * m[1] + m[2];
        let mut got = [0.0; 64];
        clang::off::madd_f32_8(&d[0], &d[1], &d[2], &mut got, 1);
        assert_eq!(
            want.as_slice()
                .iter()
                .map(|x| x.to_bits())
                .collect::<Vec<_>>(),
            got.map(f32::to_bits)
        );

        let mut got = [0.0; 64];
        clang::off::transpose_f32_8(&d[0], &mut got, 1);
        assert_eq!(m[0].transpose().as_slice(), &got[..]);
    }
}
