//! Shape-generic kernels over the SIMD vocabulary, and, per backend, the
//! vector types they run on.
//!
//! * [`Isa`]: a backend token with its vector types and tuning (register
//!   count, which vector serves which row count, its transposes): every
//!   per-backend choice of the kernels is made here, in one impl per
//!   backend.
//! * [`dispatch`]: where an operation runs — on the detected backend
//!   ([`Auto`](dispatch::Auto)), or on a token's — through each backend's
//!   `#[target_feature]` boundary.
//! * [`gemm`]: the register-tiled product, the 4x4 product, the in-order
//!   reference; [`dynamic`]: the same, compiled once per backend for
//!   run-time shapes; [`widen`]: integer products on the `i32` kernel;
//!   [`int8`] and [`amx`]: the widening 8-bit multiply-accumulate on the
//!   int8 dot-product instructions; [`transpose`]; [`passes`]: the
//!   element-wise passes and transposes of debug builds, compiled once per
//!   element type.

pub(crate) mod amx;
pub(crate) mod check;
pub(crate) mod dispatch;
pub(crate) mod dynamic;
pub(crate) mod gemm;
pub(crate) mod int8;
pub(crate) mod passes;
pub(crate) mod transpose;
pub(crate) mod widen;

#[cfg(test)]
mod tests;

use crate::simd::dispatch::Scalar;
use crate::simd::{Group4, SimdFloat, SimdVector, Tile, Token, scalar};

/// A `2 * $half` square [`Tile`] as four `$half x $half` ones,
/// `$s.$method(tile)` each (a macro, not a function taking the method as a
/// closure, so that the tiles are compiled with their caller's target
/// features).
macro_rules! by_quarters {
    ($s:ident.$method:ident, $half:literal, $tile:ident) => {{
        let mut tile = $tile;
        for c in [0, $half] {
            for r in [0, $half] {
                $s.$method(tile.sub(r, c));
            }
        }
    }};
}

/// Transpose methods of [`Isa`] or of an impl of it for `$n x $n` [`Tile`]s
/// of `$t`, each forwarding to a backend's function that takes the token
/// first.
macro_rules! strided_transposes {
    ($($(#[$doc:meta])* $name:ident($t:ty, $n:literal) => $f:expr;)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        fn $name(self, tile: Tile<'_, '_, $t, $n>) {
            $f(self, tile);
        }
    )*};
}

/// A backend token with the vector types and tuning its kernels use.
///
/// Implemented by the four backend tokens (the x86 ones on `x86_64`). Every
/// associated vector type has the token itself as its
/// [`Token`](SimdVector::Token), so a kernel given `s: S` can build any of
/// them.
pub trait Isa: Token + dispatch::Dispatch + dynamic::DynKernels {
    /// Whether the backend has 32 vector registers rather than 16, for
    /// every width of its vectors: the register tiles of
    /// [`gemm::gemm_with`] grow with them. (Without AVX-512VL, 128- and
    /// 256-bit instructions reach only 16: on an AMD EPYC (Zen 5) a 16x16
    /// `i16` product on 256-bit vectors took 55 ns with tiles for 32
    /// registers that spilled, and 40 ns with VL.)
    const REGS32: bool;
    /// Whether the 4x4 products of 64-bit elements use
    /// [`gemm::mul_4x4_with`] over [`Isa::F64G4`] and [`Isa::I64`] (where
    /// one vector holds two columns: AVX-512) rather than the tiled kernel
    /// (for `f64`, only behind a boundary: see [`gemm::product_f64`]).
    const GROUP4_64: bool;

    /// `f32` vectors for columns of up to four rows.
    type F32x4: SimdFloat<Elem = f32, Token = Self> + Group4;
    /// `f32` vectors for columns of eight rows.
    type F32x8: SimdFloat<Elem = f32, Token = Self> + Group4;
    /// The widest `f32` vector: other row counts, and the 4x4 product.
    type F32: SimdFloat<Elem = f32, Token = Self> + Group4;
    /// `f64` vectors for up to four rows.
    type F64x4: SimdFloat<Elem = f64, Token = Self>;
    /// The widest `f64` vector.
    type F64: SimdFloat<Elem = f64, Token = Self>;
    /// The `f64` vector of the 4x4 product when [`Isa::GROUP4_64`].
    type F64G4: SimdFloat<Elem = f64, Token = Self> + Group4;
    /// The widest `i32` vector: every `i32` product, the 4x4 one included.
    type I32: SimdVector<Elem = i32, Token = Self> + Group4;
    /// The widest `i16` vector: `i16` and `u16` products whose rows fill
    /// whole vectors (see [`widen`]).
    type I16: SimdVector<Elem = i16, Token = Self>;
    /// `i16` vectors for columns of sixteen rows (where the widest one
    /// would be half empty): their lane count divides [`Isa::I16`]'s.
    type I16x16: SimdVector<Elem = i16, Token = Self>;
    /// `i16` vectors for columns of eight rows: their lane count divides
    /// [`Isa::I16x16`]'s.
    type I16x8: SimdVector<Elem = i16, Token = Self>;
    /// The `i64` vector of every `i64` (and `u64`) product.
    type I64: SimdVector<Elem = i64, Token = Self> + Group4;

    /// The `f32` product of an `a` of eight rows: on [`Isa::F32x8`], one
    /// column per vector.
    #[inline(always)]
    fn product_8_rows_f32<const FUSE: bool, D: gemm::Dims>(
        self,
        p: &gemm::Operands<'_, f32>,
        out: &mut [f32],
    ) {
        gemm::gemm_with::<Self::F32x8, FUSE, D>(self, p, out);
    }

    /// Transposes a column-major 4x4 `f32` matrix.
    fn transpose_4x4_f32(self, src: &[f32; 16]) -> [f32; 16];
    /// Transposes a column-major 8x8 `f32` matrix: one
    /// [`Isa::transpose_8x8_f32_strided`] tile, unless the backend has a
    /// dedicated transpose (AVX-512).
    #[inline(always)]
    fn transpose_8x8_f32(self, src: &[f32; 64]) -> [f32; 64] {
        let mut out = [0.0; 64];
        self.transpose_8x8_f32_strided(Tile::new(src, (0, 8), &mut out, (0, 8)));
        out
    }
    /// Transposes a 4x4 [`Tile`] of `f32`: a tile of a larger transpose.
    fn transpose_4x4_f32_strided(self, tile: Tile<'_, '_, f32, 4>);
    /// [`Isa::transpose_4x4_f32_strided`] for an 8x8 tile.
    fn transpose_8x8_f32_strided(self, tile: Tile<'_, '_, f32, 8>);
    /// [`Isa::transpose_4x4_f32_strided`] for `f64`.
    fn transpose_4x4_f64_strided(self, tile: Tile<'_, '_, f64, 4>);
    /// [`Isa::transpose_4x4_f64_strided`] for an 8x8 tile, as four 4x4
    /// tiles (each row of the block written is a whole 64-byte line, in
    /// two stores), unless the backend writes each row in one store
    /// (AVX-512).
    #[inline(always)]
    fn transpose_8x8_f64_strided(self, tile: Tile<'_, '_, f64, 8>) {
        by_quarters!(self.transpose_4x4_f64_strided, 4, tile);
    }
    strided_transposes! {
        /// [`Isa::transpose_4x4_f32_strided`] for an 8x8 tile of `u16`
        /// (the 16-bit types' transposes move their elements as `u16`
        /// bits): the element loop, unless the backend has shuffles for it
        /// (the x86 backends, all with SSE2's).
        transpose_8x8_u16_strided(u16, 8) => scalar::transpose_strided::<_, _, 8>;
        /// [`Isa::transpose_8x8_u16_strided`] for an 8x8 tile of `u8`.
        transpose_8x8_u8_strided(u8, 8) => scalar::transpose_strided::<_, _, 8>;
        /// [`Isa::transpose_8x8_u16_strided`] for a 16x16 tile of `u8`.
        transpose_16x16_u8_strided(u8, 16) => scalar::transpose_strided::<_, _, 16>;
    }
    /// [`Isa::transpose_4x4_f32_strided`] for a 16x16 tile: four
    /// [`Isa::transpose_8x8_f32_strided`] tiles, unless the backend has a
    /// dedicated one (AVX-512).
    #[inline(always)]
    fn transpose_16x16_f32_strided(self, tile: Tile<'_, '_, f32, 16>) {
        by_quarters!(self.transpose_8x8_f32_strided, 8, tile);
    }

    /// [`Isa::transpose_16x16_f32_strided`] on a CPU whose 512-bit units
    /// are full width ([`full_width_512`]): the same tile, unless the
    /// backend has one for such a CPU (AVX-512's from whole columns).
    ///
    /// [`full_width_512`]: crate::simd::dispatch::full_width_512
    #[inline(always)]
    fn transpose_16x16_f32_full_width(self, tile: Tile<'_, '_, f32, 16>) {
        self.transpose_16x16_f32_strided(tile);
    }
}

impl Isa for Scalar {
    const REGS32: bool = false;
    const GROUP4_64: bool = false;
    type F32x4 = scalar::F32x4<Self>;
    type F32x8 = scalar::F32x4<Self>;
    type F32 = scalar::F32x4<Self>;
    type F64x4 = scalar::F64x4<Self>;
    type F64 = scalar::F64x4<Self>;
    type F64G4 = scalar::F64x4<Self>;
    type I32 = scalar::I32x4<Self>;
    type I16 = scalar::I16x4<Self>;
    type I16x16 = scalar::I16x4<Self>;
    type I16x8 = scalar::I16x4<Self>;
    type I64 = scalar::I64x4<Self>;

    #[inline(always)]
    fn transpose_4x4_f32(self, src: &[f32; 16]) -> [f32; 16] {
        core::array::from_fn(|i| src[(i % 4) * 4 + i / 4])
    }
    strided_transposes! {
        transpose_4x4_f32_strided(f32, 4) => scalar::transpose_strided::<_, _, 4>;
        transpose_8x8_f32_strided(f32, 8) => scalar::transpose_strided::<_, _, 8>;
        transpose_4x4_f64_strided(f64, 4) => scalar::transpose_strided::<_, _, 4>;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{Isa, gemm};
    use crate::simd::Tile;
    use crate::simd::dispatch::{Avx2, Avx512, Backend, Sse2, full_width_512, is_static};
    use crate::simd::{avx2, avx512, scalar, sse2};

    /// The transposes of an `Isa` impl: the 4x4 one of backend module `$m`,
    /// the strided 4x4 one and the 8- and 16-bit ones of SSE2 (which every
    /// x86-64 backend has), the strided 8x8 one of `$strided8` and the
    /// strided 4x4 `f64` one of `$f64`.
    macro_rules! transposes {
        ($m:ident, strided8: $strided8:ident, f64: $f64:ident) => {
            #[inline(always)]
            fn transpose_4x4_f32(self, src: &[f32; 16]) -> [f32; 16] {
                $m::transpose_4x4_f32(self, src)
            }
            strided_transposes! {
                transpose_4x4_f32_strided(f32, 4) => sse2::transpose_4x4_f32_strided;
                transpose_8x8_f32_strided(f32, 8) => $strided8::transpose_8x8_f32_strided;
                transpose_4x4_f64_strided(f64, 4) => $f64::transpose_4x4_f64_strided;
                transpose_8x8_u16_strided(u16, 8) => sse2::transpose_narrow_strided::<_, _, 8>;
                transpose_8x8_u8_strided(u8, 8) => sse2::transpose_8x8_u8_strided;
                transpose_16x16_u8_strided(u8, 16) => sse2::transpose_narrow_strided::<_, _, 16>;
            }
        };
    }

    impl Isa for Sse2 {
        const REGS32: bool = false;
        const GROUP4_64: bool = false;
        type F32x4 = sse2::F32x4<Self>;
        type F32x8 = sse2::F32x4<Self>;
        type F32 = sse2::F32x4<Self>;
        type F64x4 = sse2::F64x2<Self>;
        type F64 = sse2::F64x2<Self>;
        // Not used (`GROUP4_64` is false): SSE2 has no group of four f64.
        type F64G4 = scalar::F64x4<Self>;
        type I32 = sse2::I32x4<Self>;
        type I16 = sse2::I16x8<Self>;
        type I16x16 = sse2::I16x8<Self>;
        type I16x8 = sse2::I16x8<Self>;
        type I64 = scalar::I64x4<Self>;

        transposes!(sse2, strided8: sse2, f64: sse2);
    }

    /// AVX2: 256-bit vectors, but 128-bit ones (with FMA) for four rows,
    /// where a 256-bit vector would be half empty. The 4x4 `f64` product
    /// uses the tiled kernel: one column per vector and broadcasts from
    /// memory beat in-lane shuffles, which all go through one port.
    impl Isa for Avx2 {
        const REGS32: bool = false;
        const GROUP4_64: bool = false;
        type F32x4 = avx2::F32x4<Self>;
        type F32x8 = avx2::F32x8<Self>;
        type F32 = avx2::F32x8<Self>;
        type F64x4 = avx2::F64x4<Self>;
        type F64 = avx2::F64x4<Self>;
        type F64G4 = scalar::F64x4<Self>;
        type I32 = avx2::I32x8<Self>;
        type I16 = avx2::I16x16<Self>;
        type I16x16 = avx2::I16x16<Self>;
        type I16x8 = avx2::I16x8<Self>;
        type I64 = avx2::I64x4<Self>;

        transposes!(avx2, strided8: avx2, f64: avx2);
    }

    /// AVX-512: 512-bit vectors and 32 registers, which AVX-512VL opens to
    /// the 128- and 256-bit AVX2 vectors too: those serve four and eight
    /// rows of `f32`, up to four of `f64`, and eight or sixteen of `i16`.
    /// A 4x4 product is one register of `f32` (or two of `f64` or `i64`).
    impl Isa for Avx512 {
        const REGS32: bool = true;
        const GROUP4_64: bool = true;
        type F32x4 = avx2::F32x4<Self>;
        type F32x8 = avx2::F32x8<Self>;
        type F32 = avx512::F32x16<Self>;
        type F64x4 = avx2::F64x4<Self>;
        type F64 = avx512::F64x8<Self>;
        type F64G4 = avx512::F64x8<Self>;
        type I32 = avx512::I32x16<Self>;
        type I16 = avx512::I16x32<Self>;
        type I16x16 = avx2::I16x16<Self>;
        type I16x8 = avx2::I16x8<Self>;
        type I64 = avx512::I64x8<Self>;

        /// Two columns per 512-bit vector ([`gemm::gemm_pairs`]) where the
        /// CPU's 512-bit units are full width, `b` is stored as it is and
        /// has two columns or more; otherwise one per 256-bit vector.
        ///
        /// Both kernels are compiled into the caller, the choice made at
        /// run time, except in a build whose target rules out the CPUs
        /// that take the pairs (Intel's with AVX512-FP16, see
        /// `full_width_512`), which compiles the 256-bit kernel alone. A
        /// result returned by value in a build for an AVX-512
        /// target ([`Dims::RETURNED`](gemm::Dims::RETURNED), `is_static`)
        /// is not stored by the boundary's code but moved on by the
        /// caller's, where the two kernels' results meet: stored as one
        /// 512-bit vector per pair of columns, they made LLVM widen the
        /// 256-bit kernel's columns to pairs as well (an insert and a
        /// 512-bit store each), which cost Intel's cores a quarter of the
        /// product (likely their port 1, whose vector units stop taking
        /// 256-bit operations while 512-bit ones run; no PMU to count it).
        /// Stored as 256-bit halves there, on an Intel Xeon (family 6,
        /// model 167 as its hypervisor reports it, AVX-512 and AMX), per
        /// batch of 16, native build: an 8x8 `f32` `*o = &a * &b` took
        /// 180.7 ns where it had taken 243.5 (`mul_to` 180.6), `a * b + c`
        /// 194.7 where it had taken 272.2 (BENCHMARKS.md, "8-row products
        /// returned by value on an Intel Xeon"), before such builds left
        /// the pairs out.
        #[inline(always)]
        fn product_8_rows_f32<const FUSE: bool, D: gemm::Dims>(
            self,
            p: &gemm::Operands<'_, f32>,
            out: &mut [f32],
        ) {
            if const { gemm::may::<D>(!D::BT && D::N >= 2) }
                && !p.bt
                && p.n >= 2
                && full_width_512()
            {
                let halves = D::RETURNED && is_static(Backend::Avx512);
                gemm::gemm_pairs::<avx512::F32x16<Self>, FUSE>(self, p, halves, out);
            } else {
                gemm::gemm_with::<avx2::F32x8<Self>, FUSE, D>(self, p, out);
            }
        }

        transposes!(avx512, strided8: avx2, f64: avx2);
        #[inline(always)]
        fn transpose_8x8_f32(self, src: &[f32; 64]) -> [f32; 64] {
            avx512::transpose_8x8_f32(self, src)
        }
        strided_transposes! {
            transpose_16x16_f32_strided(f32, 16) => avx512::transpose_16x16_f32_strided;
            transpose_8x8_f64_strided(f64, 8) => avx512::transpose_8x8_f64_strided;
            /// From whole columns (sixteen loads, 64 shuffles), which the
            /// full-width units of AMD's Zen 5 run two per cycle: on an AMD
            /// EPYC (Zen 5), default build, a 16x16 `f32` `transpose_to` took
            /// 9.5 ns from quarter columns and takes 5.3 ns this way. (Intel's
            /// cores run 512-bit shuffles on one port, hence quarters there.)
            transpose_16x16_f32_full_width(f32, 16) => avx512::transpose_16x16_f32_from_columns;
        }
    }
}
