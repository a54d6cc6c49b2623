//! Widening 8-bit multiply-accumulate, `a * b + c` with `i8`/`u8` operands
//! and an `i32` accumulator, on the CPU's int8 dot-product instructions:
//! AMX tiles ([`super::amx`]), AVX-512 VNNI and AVX-VNNI (`vpdpbusd`), and
//! on AVX2 `vpmaddwd` on operands widened to 16 bits. Every path gives the
//! exact wrapping `i32` result of the plain loop.
//!
//! # One instruction, every sign
//!
//! `vpdpbusd` multiplies *unsigned* bytes of its first operand by *signed*
//! bytes of its second and adds each group of four products to a 32-bit
//! lane. The operands are brought to that form by flipping the top bit,
//! which is adding or subtracting 128: a signed `a` becomes `a' = a + 128`
//! (unsigned), an unsigned `b` becomes `b' = b - 128` (signed). With `sa`,
//! `ub` 1 when `a` is signed and `b` unsigned, and 0 otherwise,
//!
//! `a*b = a'*b' + 128*ub*a' - 128*sa*b' - 16384*sa*ub`,
//!
//! so each sum over `k` is the dot product of the flipped operands plus a
//! term per row (`128*ub*Σa'`), a term per column (`-128*sa*Σb'`) and a
//! constant (`-16384*K*sa*ub`), all in wrapping `i32` arithmetic, which is
//! the ring the result lives in: exact whatever the order.
//!
//! # Pairs of 16-bit values, on AVX2
//!
//! AVX2 has no `vpdpbusd`, but `vpmaddwd` multiplies 16-bit lanes and adds
//! each pair of products to a 32-bit lane. Widened to 16 bits when packed
//! (`u8` zero-extended, `i8` sign-extended), every operand is already in
//! that form, and each pair's sum (at most `2 * 255 * 128` in magnitude)
//! is exact: no flip and no correction ([`Form::Pairs`]). This replaced
//! `vpdpbusd` composed of two `vpmaddwd` on the flipped bytes, which
//! unpacked both operands in its inner loop (BENCHMARKS.md has both
//! measured); [`Int8Kernel::choose`] says when it runs.
//!
//! # Packing
//!
//! The result is column-major, so a vector holds rows: `a'` is packed in
//! the [`packed_a`](crate::MemoryLayout::PackedA) order (each 32-bit word
//! four consecutive `k` of one row, or two in the pair form, a line per
//! group of `k`), its rows padded with zeros to whole vectors and `K` to a
//! whole group; each column of `b'` is a sequence of words of the same
//! groups of `k`, broadcast to every lane. Padding is zero in both, so it
//! adds nothing.

use alloc::vec;
use alloc::vec::Vec;

use super::amx;
use crate::simd::dispatch::Backend;

mod sealed {
    /// Keeps [`super::Byte`] to `i8` and `u8`.
    pub trait Sealed {}
    impl Sealed for i8 {}
    impl Sealed for u8 {}
}

/// An 8-bit operand type, `i8` or `u8`. Sealed.
pub trait Byte: sealed::Sealed + Copy {
    /// Whether the type is signed.
    const SIGNED: bool;
    /// The value's bits.
    fn bits(self) -> u8;
    /// The value, widened to 16 bits.
    fn wide(self) -> i16;
}

impl Byte for i8 {
    const SIGNED: bool = true;
    #[inline(always)]
    fn bits(self) -> u8 {
        self as u8
    }
    #[inline(always)]
    fn wide(self) -> i16 {
        i16::from(self)
    }
}

impl Byte for u8 {
    const SIGNED: bool = false;
    #[inline(always)]
    fn bits(self) -> u8 {
        self
    }
    #[inline(always)]
    fn wide(self) -> i16 {
        i16::from(self)
    }
}

/// The kernels of the widening 8-bit multiply-accumulate, from the most
/// capable: one is chosen per call (by `Int8Kernel::choose`); each can be
/// run on its own where the CPU has it ([`Int8Kernel::is_supported`]), which
/// the tests and benchmarks do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Int8Kernel {
    /// AMX tiles (`tdpbssd`, `tdpbsud`, `tdpbusd`, `tdpbuud`): `amx-tile`
    /// and `amx-int8`, and the operating system's permission.
    Amx,
    /// `vpdpbusd` on 512-bit vectors: `avx512vnni`.
    Avx512Vnni,
    /// `vpdpbusd` on 256-bit vectors (VEX): `avxvnni`.
    AvxVnni,
    /// `vpmaddwd` on operands widened to 16 bits: `avx2`.
    Avx2,
    /// The `vpdpbusd` kernel in portable Rust: every CPU (the reference
    /// of the VNNI kernels' packing and corrections, not a fast path).
    Portable,
}

impl Int8Kernel {
    /// Every kernel, the most capable first.
    pub const ALL: [Int8Kernel; 5] = [
        Int8Kernel::Amx,
        Int8Kernel::Avx512Vnni,
        Int8Kernel::AvxVnni,
        Int8Kernel::Avx2,
        Int8Kernel::Portable,
    ];

    /// The kernel's name.
    pub const fn name(self) -> &'static str {
        match self {
            Int8Kernel::Amx => "amx",
            Int8Kernel::Avx512Vnni => "avx512vnni",
            Int8Kernel::AvxVnni => "avxvnni",
            Int8Kernel::Avx2 => "avx2",
            Int8Kernel::Portable => "portable",
        }
    }

    /// What the kernel needs, for a message saying why it cannot run.
    pub const fn needs(self) -> &'static str {
        match self {
            Int8Kernel::Amx => "amx-tile + amx-int8 and the kernel's permission (Linux)",
            Int8Kernel::Avx512Vnni => "avx512f + avx512vnni",
            Int8Kernel::AvxVnni => "avx2 + avxvnni",
            Int8Kernel::Avx2 => "avx2",
            Int8Kernel::Portable => "nothing",
        }
    }

    /// Whether this program can run the kernel on this CPU (detected on
    /// each call but for AMX, whose permission request is made once).
    pub fn is_supported(self) -> bool {
        match self {
            Int8Kernel::Amx => amx::available(),
            Int8Kernel::Avx512Vnni => detected::avx512vnni(),
            Int8Kernel::AvxVnni => detected::avxvnni(),
            Int8Kernel::Avx2 => Backend::Avx2.is_supported(),
            Int8Kernel::Portable => true,
        }
    }

    /// The kernel an `m x k` by `k x n` product runs on, under the active
    /// backend ([`Backend::active`]): AMX and AVX-512 VNNI need the AVX-512
    /// backend, AVX-VNNI the AVX2 one. `None` leaves the product to the
    /// widened `i32` kernel: on SSE2 and the scalar backend, for products
    /// too small to pay for the packing, and on CPUs with AVX2 but no VNNI,
    /// where [`Int8Kernel::Avx2`] measured no faster than the widened
    /// kernel (on an AMD EPYC, fastest samples: 64x64x64 in 8.86 against
    /// 10.95 µs in a default build but 12.2 against 10.9 native, 16x64x16
    /// in 1.61 against 0.96 µs; `vpmaddwd` does twice the multiply-adds of
    /// `vpmulld` per instruction, and packing both operands costs about
    /// what that saves at these sizes).
    pub(crate) fn choose(m: usize, k: usize, n: usize) -> Option<Int8Kernel> {
        let backend = Backend::active();
        let wide = backend >= Backend::Avx512;
        // AMX first: its own bound (a whole result tile) is below the
        // packing's at 16x16x16.
        if wide && amx::pays(m, k, n) && Int8Kernel::Amx.is_supported() {
            return Some(Int8Kernel::Amx);
        }
        if backend < Backend::Avx2 || !pays(m, k, n) {
            return None;
        }
        [(Int8Kernel::Avx512Vnni, wide), (Int8Kernel::AvxVnni, true)]
            .into_iter()
            .find(|&(kernel, allowed)| allowed && kernel.is_supported())
            .map(|(kernel, _)| kernel)
    }

    /// `out = a * b + c` on this kernel, every matrix column-major: `a` is
    /// `m x k`, `b` is `k x n`, `c` and `out` are `m x n`.
    ///
    /// # Panics
    ///
    /// If the kernel is not supported, or a slice's length is not its
    /// matrix's.
    pub fn mad<A: Byte, B: Byte>(
        self,
        (a, b, c): (&[A], &[B], &[i32]),
        (m, k, n): (usize, usize, usize),
        out: &mut [i32],
    ) {
        assert!(
            self.is_supported(),
            "the {} int8 kernel needs {}, which this CPU lacks",
            self.name(),
            self.needs()
        );
        assert!(
            a.len() == m * k && b.len() == k * n && c.len() == m * n && out.len() == m * n,
            "operands of a {m}x{k} by {k}x{n} multiply-accumulate"
        );
        match self {
            Int8Kernel::Amx => amx::mad((a, b, c), (m, k, n), out),
            Int8Kernel::Portable => dot_mad(Portable, (a, b, c), (m, k, n), out),
            #[cfg(target_arch = "x86_64")]
            Int8Kernel::Avx2 => {
                // SAFETY: `is_supported` detected AVX2 above.
                unsafe { x86::mad_avx2((a, b, c), (m, k, n), out) }
            }
            #[cfg(target_arch = "x86_64")]
            Int8Kernel::AvxVnni => {
                // SAFETY: `is_supported` detected AVX2 and AVX-VNNI above.
                unsafe { x86::mad_avxvnni((a, b, c), (m, k, n), out) }
            }
            #[cfg(target_arch = "x86_64")]
            Int8Kernel::Avx512Vnni => {
                // SAFETY: `is_supported` detected AVX-512F and AVX-512 VNNI.
                unsafe { x86::mad_avx512vnni((a, b, c), (m, k, n), out) }
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => unreachable!("no x86 kernel is supported off x86-64"),
        }
    }
}

/// Whether packing can pay for itself: from 8 rows, 4 columns, a depth
/// of 16 and 16x32x16's 8192 multiply-adds. Below that the widened `i32`
/// kernel was the faster on the one CPU with VNNI measured (an Intel Xeon
/// with AVX-512 VNNI, AVX-VNNI and AMX; per product, fastest samples, in a
/// default build): 8x16x4 in 59 ns against 139 (AVX-512 VNNI) and 126
/// (AVX-VNNI), 16x16x16 in 166 against 196 and 235; at 16x32x16 VNNI
/// is the faster (216 and 275 against 365 ns), at 16x64x16 twice (331
/// against 678) and at 64x64x64 4.5 times (BENCHMARKS.md has every
/// column).
fn pays(m: usize, k: usize, n: usize) -> bool {
    m >= 8 && n >= 4 && k >= 16 && m * k * n >= 16 * 32 * 16
}

/// CPU features outside the backend table, detected where `std` can.
pub(super) mod detected {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    pub(super) fn avx512vnni() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vnni")
    }
    /// AVX512-VBMI's byte permute, with the AVX-512 it extends (the AMX
    /// driver's packing of `a`).
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    pub(in crate::kernels) fn avx512vbmi() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
    }
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    pub(super) fn avxvnni() -> bool {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("avxvnni")
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    pub(super) fn avx512vnni() -> bool {
        false
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    pub(in crate::kernels) fn avx512vbmi() -> bool {
        false
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    pub(super) fn avxvnni() -> bool {
        false
    }
}

/// How a kernel multiplies the words of its packed operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// Four bytes per word, `a'` unsigned and `b'` signed: the top bit of
    /// each flipped where the type differs, and the flip corrected after
    /// (`vpdpbusd`).
    FlippedBytes,
    /// Two 16-bit values per word, each operand widened as its type says
    /// (`vpmaddwd`): nothing to correct.
    Pairs,
}

impl Form {
    /// Elements of `k` per 32-bit word.
    const fn per_word(self) -> usize {
        match self {
            Form::FlippedBytes => 4,
            Form::Pairs => 2,
        }
    }

    /// Element `i` of a word's group, in its place in the word: in the
    /// byte form with `flip` (`0x80` or 0) applied to its top bit.
    #[inline(always)]
    fn place<T: Byte>(self, x: T, flip: u8, i: usize) -> u32 {
        match self {
            Form::FlippedBytes => u32::from(x.bits() ^ flip) << (8 * i),
            Form::Pairs => u32::from(x.wide() as u16) << (16 * i),
        }
    }

    /// The word of a group of `k` in order: `per_word` elements, or fewer
    /// for the last group, zeros padding it.
    #[inline(always)]
    fn word<T: Byte>(self, group: &[T], flip: u8) -> u32 {
        let mut w = 0;
        for (i, &x) in group.iter().enumerate() {
            w |= self.place(x, flip, i);
        }
        w
    }
}

/// The operands of a dot-product kernel, packed in its [`Form`], with the
/// terms that correct a flip (see the module documentation; zero in the
/// pair form).
struct Packed {
    /// Rows rounded up to whole vectors.
    mp: usize,
    /// Groups of `k`, one per word: `K / 4` or `K / 2`, rounded up.
    kq: usize,
    /// `a'` in `packed_a` order: word `q * mp + r` holds row `r`'s group
    /// `q` (`a'(r, 4q..4q+4)` in the byte form).
    a: Vec<u32>,
    /// `b'`: word `j * kq + q` holds column `j`'s group `q`.
    b: Vec<u32>,
    /// `128 * ub * Σ_k a'(r, k)` per row.
    row: Vec<i32>,
    /// `-128 * sa * Σ_k b'(k, j) - 16384 * K * sa * ub` per column.
    col: Vec<i32>,
}

impl Packed {
    /// Packs `a` and `b` for the kernel `D`. Inlined into the kernel's
    /// `#[target_feature]` boundary, where its form and width are constants
    /// and its loops use the kernel's vectors.
    #[inline(always)]
    fn new<D: Dot, A: Byte, B: Byte>(a: &[A], b: &[B], (m, k, n): (usize, usize, usize)) -> Packed {
        let (form, lanes) = (D::FORM, D::LANES);
        let bytes = form == Form::FlippedBytes;
        let (sa, ub) = (bytes && A::SIGNED, bytes && !B::SIGNED);
        let per = form.per_word();
        let (mp, kq) = (m.next_multiple_of(lanes), k.div_ceil(per));
        let (fa, fb) = (if sa { 0x80 } else { 0 }, if ub { 0x80 } else { 0 });
        let mut pa = vec![0; kq * mp];
        pack_a_words(form, a, (m, k), mp, fa, &mut pa);
        let mut row = vec![0i32; m];
        if ub {
            for words in pa.chunks_exact(mp) {
                for (sum, &w) in row.iter_mut().zip(words) {
                    let bytes = w.to_le_bytes().map(i32::from);
                    *sum = sum.wrapping_add(bytes[0] + bytes[1] + bytes[2] + bytes[3]);
                }
            }
        }
        // A column of `b` is contiguous in `k`: its words are its elements
        // in order, `per` to a word.
        let mut pb = vec![0u32; n * kq];
        let mut col = vec![0i32; n];
        for (j, sum) in col.iter_mut().enumerate() {
            let column = &b[j * k..][..k];
            let words = &mut pb[j * kq..][..kq];
            let groups = column.chunks_exact(per);
            let last = groups.remainder();
            for (w, g) in words.iter_mut().zip(groups) {
                *w = form.word(g, fb);
            }
            if !last.is_empty() {
                // The last group, partial.
                words[kq - 1] = form.word(last, fb);
            }
            if sa {
                for &x in column {
                    *sum = sum.wrapping_add(i32::from((x.bits() ^ fb) as i8));
                }
            }
        }
        for sum in &mut row {
            *sum = sum.wrapping_mul(128);
        }
        let constant = if sa && ub {
            (k as i32).wrapping_mul(-16384)
        } else {
            0
        };
        for sum in &mut col {
            *sum = if sa { sum.wrapping_mul(-128) } else { 0 }.wrapping_add(constant);
        }
        Packed {
            mp,
            kq,
            a: pa,
            b: pb,
            row,
            col,
        }
    }
}

/// `a` (column-major, `m x k`) in the `packed_a` words of `form`: word
/// `q * mp + r` of `pa` holds row `r`'s group `q` of `k`, each byte with
/// `flip` on its top bit in the byte form; zeros pad the rows to `mp` and
/// the groups to `pa`'s length (whole groups of `mp` words). The
/// dot-product kernels and the AMX driver (whose `a^T` in `packed_b` order
/// is these words) pack `a` here. Every word of `pa` is written once,
/// whatever it held before: the AMX driver reuses a buffer per thread, and
/// zeroing it first took a twentieth of a 16x64x16 product.
#[inline(always)]
pub(super) fn pack_a_words<A: Byte>(
    form: Form,
    a: &[A],
    (m, k): (usize, usize),
    mp: usize,
    flip: u8,
    pa: &mut [u32],
) {
    let per = form.per_word();
    let bytes = form == Form::FlippedBytes;
    let kq = k.div_ceil(per);
    assert!(
        m <= mp && kq * mp <= pa.len(),
        "{} words cannot hold {kq} groups of {m} rows padded to {mp}",
        pa.len()
    );
    // Whole groups of bytes sixteen rows at a time, with byte shuffles
    // where every x86-64 has them; the other words one at a time.
    #[cfg(target_arch = "x86_64")]
    let done = if bytes {
        sse2::interleave(a, (m, k / per), flip, (pa, mp))
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    // The groups the interleave wrote whole are skipped (it wrote every
    // row of every whole group, or none of them).
    let first = if done == m { k / per } else { 0 };
    for q in first..kq {
        let k0 = per * q;
        let whole = k0 + per <= k;
        let words = &mut pa[q * mp..][..m];
        let column = |i: usize| &a[(k0 + i) * m..][..m];
        if !whole {
            // The last group, partial: zeros pad it.
            words.fill(0);
            for i in 0..k - k0 {
                for (w, &x) in words.iter_mut().zip(column(i)) {
                    *w |= form.place(x, flip, i);
                }
            }
        } else if bytes {
            let (c0, c1, c2, c3) = (column(0), column(1), column(2), column(3));
            for (r, w) in words.iter_mut().enumerate().skip(done) {
                *w = form.word(&[c0[r], c1[r], c2[r], c3[r]], flip);
            }
        } else {
            for ((w, &x0), &x1) in words.iter_mut().zip(column(0)).zip(column(1)) {
                *w = form.word(&[x0, x1], flip);
            }
        }
    }
    // The padding: rows `m..mp` of each group, and the groups past `kq`.
    if m < mp {
        for group in pa.chunks_exact_mut(mp).take(kq) {
            group[m..].fill(0);
        }
    }
    pa[kq * mp..].fill(0);
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    //! The byte interleave of [`super::pack_a_words`] in SSE2, which every
    //! x86-64 CPU has; inlined into the AVX2 and AVX-512 kernels, the same
    //! instructions come VEX-encoded. Written out because the compiler's
    //! own vectorisation of the word loop shifted and masked each byte
    //! into place, four rows at a time.

    use core::arch::x86_64::*;

    use super::Byte;

    /// The words of `groups` whole groups of four columns of `a` (`m`
    /// rows, column-major) into `pa` (group `q` from word `q * mp`),
    /// sixteen rows at a time: word `r` of a group = its columns' bytes of
    /// row `r`, `flip` on each. Returns how many rows of each group it
    /// wrote (`m` rounded down to 16).
    #[inline(always)]
    pub(super) fn interleave<A: Byte>(
        a: &[A],
        (m, groups): (usize, usize),
        flip: u8,
        (pa, mp): (&mut [u32], usize),
    ) -> usize {
        let blocks = m / 16;
        if blocks == 0 {
            return 0;
        }
        for (src, dst) in a
            .chunks_exact(4 * m)
            .zip(pa.chunks_exact_mut(mp))
            .take(groups)
        {
            let (src, dst) = (src.as_ptr(), dst[..m].as_mut_ptr());
            for r in (0..blocks).map(|b| 16 * b) {
                // SAFETY: SSE2 is part of every x86-64 CPU (the target's
                // baseline). `src` is a group of `4 * m` bytes (`A` is `i8`
                // or `u8`, sealed) and `dst` `m` words, borrowed mutably;
                // with `r + 16 <= m`, each load reads 16 bytes of column
                // `i` (`i * m + r` onwards, `i < 4`) and the four stores
                // write words `r..r + 16`, all in bounds; `loadu` and
                // `storeu` need no alignment.
                unsafe {
                    let f = _mm_set1_epi8(flip as i8);
                    let load =
                        |i: usize| _mm_xor_si128(_mm_loadu_si128(src.add(i * m + r).cast()), f);
                    let (c0, c1, c2, c3) = (load(0), load(1), load(2), load(3));
                    // Rows 0..8 and 8..16 as byte pairs (c0, c1) and (c2,
                    // c3), then the pairs joined into words, four rows a
                    // vector.
                    let (p01, q01) = (_mm_unpacklo_epi8(c0, c1), _mm_unpackhi_epi8(c0, c1));
                    let (p23, q23) = (_mm_unpacklo_epi8(c2, c3), _mm_unpackhi_epi8(c2, c3));
                    let out = dst.add(r).cast::<__m128i>();
                    _mm_storeu_si128(out, _mm_unpacklo_epi16(p01, p23));
                    _mm_storeu_si128(out.add(1), _mm_unpackhi_epi16(p01, p23));
                    _mm_storeu_si128(out.add(2), _mm_unpacklo_epi16(q01, q23));
                    _mm_storeu_si128(out.add(3), _mm_unpackhi_epi16(q01, q23));
                }
            }
        }
        16 * blocks
    }
}

/// The vector vocabulary of a dot-product kernel: `LANES` 32-bit lanes,
/// each word a group of `k` in the kernel's [`Form`].
trait Dot: Copy {
    const LANES: usize;
    /// How the words are packed.
    const FORM: Form;
    /// `LANES` lanes of one `i32`: the sums, and `LANES` words of `a'`.
    type V: Copy;
    fn zero(self) -> Self::V;
    /// `LANES` words from `src`.
    fn load(self, src: &[u32]) -> Self::V;
    /// A word of `b'` broadcast to every lane.
    fn splat(self, word: u32) -> Self::V;
    /// Per lane: `acc` plus the dot product of the group in `a`'s word
    /// and the one in `b`'s (`Σ_{i<4} a.u8[i] * b.i8[i]` in the byte
    /// form, `Σ_{i<2} a.i16[i] * b.i16[i]` in the pair form), wrapping.
    fn dot(self, acc: Self::V, a: Self::V, b: Self::V) -> Self::V;
    /// The lanes, as `i32`.
    fn store(self, v: Self::V, dst: &mut [i32]);
}

/// `out = a * b + c` on a `vpdpbusd` kernel, in register tiles of two
/// vectors of rows by four columns (then the edges, one vector or one
/// column at a time).
#[inline(always)]
fn dot_mad<D: Dot, A: Byte, B: Byte>(
    d: D,
    (a, b, c): (&[A], &[B], &[i32]),
    (m, k, n): (usize, usize, usize),
    out: &mut [i32],
) {
    if m == 0 || n == 0 {
        return;
    }
    let p = Packed::new::<D, A, B>(a, b, (m, k, n));
    let edge = |j: usize, out: &mut [i32]| {
        let mut r0 = 0;
        while r0 + 2 * D::LANES <= p.mp {
            tile::<D, 2, 1>(d, &p, (r0, j), (c, m), out);
            r0 += 2 * D::LANES;
        }
        if r0 < p.mp {
            tile::<D, 1, 1>(d, &p, (r0, j), (c, m), out);
        }
    };
    let mut j = 0;
    while j + 4 <= n {
        let mut r0 = 0;
        while r0 + 2 * D::LANES <= p.mp {
            tile::<D, 2, 4>(d, &p, (r0, j), (c, m), out);
            r0 += 2 * D::LANES;
        }
        if r0 < p.mp {
            tile::<D, 1, 4>(d, &p, (r0, j), (c, m), out);
        }
        j += 4;
    }
    while j < n {
        edge(j, out);
        j += 1;
    }
}

/// One register tile: `MB` vectors of rows from `r0`, `NB` columns from
/// `j`, summed over every `k`, then corrected, added to `c` and stored.
#[inline(always)]
fn tile<D: Dot, const MB: usize, const NB: usize>(
    d: D,
    p: &Packed,
    (r0, j): (usize, usize),
    (c, m): (&[i32], usize),
    out: &mut [i32],
) {
    let mut acc = [[d.zero(); NB]; MB];
    let columns: [&[u32]; NB] = core::array::from_fn(|t| &p.b[(j + t) * p.kq..][..p.kq]);
    for q in 0..p.kq {
        let rows = &p.a[q * p.mp + r0..][..MB * D::LANES];
        // A loop, not `array::from_fn`: a closure called from `from_fn`'s
        // body is compiled outside the `#[target_feature]` boundary, and
        // the intrinsics in it would not be inlined.
        let mut x = [d.load(rows); MB];
        for (i, x) in x.iter_mut().enumerate().skip(1) {
            *x = d.load(&rows[i * D::LANES..]);
        }
        for (t, column) in columns.iter().enumerate() {
            let w = d.splat(column[q]);
            for i in 0..MB {
                acc[i][t] = d.dot(acc[i][t], x[i], w);
            }
        }
    }
    let mut lanes = [0i32; 16];
    let lanes = &mut lanes[..D::LANES];
    for (i, acc) in acc.iter().enumerate() {
        let first = r0 + i * D::LANES;
        let rows = m.saturating_sub(first).min(D::LANES);
        for (t, &v) in acc.iter().enumerate() {
            d.store(v, lanes);
            let col = j + t;
            let (c, out) = (
                &c[col * m + first..][..rows],
                &mut out[col * m + first..][..rows],
            );
            for (((o, &c), &sum), &row) in out.iter_mut().zip(c).zip(&*lanes).zip(&p.row[first..]) {
                *o = c
                    .wrapping_add(sum)
                    .wrapping_add(row)
                    .wrapping_add(p.col[col]);
            }
        }
    }
}

/// The `vpdpbusd` kernel in portable Rust, eight lanes.
#[derive(Clone, Copy)]
struct Portable;

impl Dot for Portable {
    const LANES: usize = 8;
    const FORM: Form = Form::FlippedBytes;
    type V = [u32; 8];
    #[inline(always)]
    fn zero(self) -> [u32; 8] {
        [0; 8]
    }
    #[inline(always)]
    fn load(self, src: &[u32]) -> [u32; 8] {
        let mut v = [0; 8];
        v.copy_from_slice(&src[..8]);
        v
    }
    #[inline(always)]
    fn splat(self, word: u32) -> [u32; 8] {
        [word; 8]
    }
    #[inline(always)]
    fn dot(self, acc: [u32; 8], a: [u32; 8], b: [u32; 8]) -> [u32; 8] {
        let w = b[0].to_le_bytes();
        core::array::from_fn(|l| {
            let x = a[l].to_le_bytes();
            (0..4).fold(acc[l], |s, i| {
                s.wrapping_add((i32::from(x[i]) * i32::from(w[i] as i8)) as u32)
            })
        })
    }
    #[inline(always)]
    fn store(self, v: [u32; 8], dst: &mut [i32]) {
        for (d, s) in dst.iter_mut().zip(v) {
            *d = s as i32;
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The x86 `vpdpbusd` kernels, each behind its `#[target_feature]`
    //! boundary. Their `Dot` tokens are built only in these functions,
    //! which the caller enters after detecting the features, so every
    //! intrinsic call inside runs on a CPU that has it.

    use core::arch::x86_64::*;

    use super::{Byte, Dot, Form, dot_mad};

    /// AVX2: `vpmaddwd` on words of two 16-bit values ([`Form::Pairs`]).
    #[derive(Clone, Copy)]
    struct Avx2(());

    impl Dot for Avx2 {
        const LANES: usize = 8;
        const FORM: Form = Form::Pairs;
        type V = __m256i;
        #[inline(always)]
        fn zero(self) -> __m256i {
            // SAFETY: an `Avx2` exists only inside `mad_avx2` and
            // `mad_avxvnni` (wrapped in an `AvxVnni`), each entered after
            // AVX2 was detected.
            unsafe { _mm256_setzero_si256() }
        }
        #[inline(always)]
        fn load(self, src: &[u32]) -> __m256i {
            assert!(src.len() >= 8);
            // SAFETY: AVX2 as above; eight words are in bounds (asserted),
            // and `loadu` needs no alignment.
            unsafe { _mm256_loadu_si256(src.as_ptr().cast()) }
        }
        #[inline(always)]
        fn splat(self, word: u32) -> __m256i {
            // SAFETY: AVX2 as above.
            unsafe { _mm256_set1_epi32(word as i32) }
        }
        #[inline(always)]
        fn dot(self, acc: __m256i, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: AVX2 as above.
            unsafe { _mm256_add_epi32(acc, _mm256_madd_epi16(a, b)) }
        }
        #[inline(always)]
        fn store(self, v: __m256i, dst: &mut [i32]) {
            assert!(dst.len() >= 8);
            // SAFETY: AVX2 as above; eight lanes fit (asserted).
            unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), v) }
        }
    }

    /// AVX-VNNI: `vpdpbusd` on 256-bit vectors.
    #[derive(Clone, Copy)]
    struct AvxVnni(Avx2);

    impl Dot for AvxVnni {
        const LANES: usize = 8;
        const FORM: Form = Form::FlippedBytes;
        type V = __m256i;
        #[inline(always)]
        fn zero(self) -> __m256i {
            self.0.zero()
        }
        #[inline(always)]
        fn load(self, src: &[u32]) -> __m256i {
            self.0.load(src)
        }
        #[inline(always)]
        fn splat(self, word: u32) -> __m256i {
            self.0.splat(word)
        }
        #[inline(always)]
        fn dot(self, acc: __m256i, a: __m256i, b: __m256i) -> __m256i {
            // SAFETY: an `AvxVnni` exists only inside `mad_avxvnni`,
            // entered after AVX2 and AVX-VNNI were detected.
            unsafe { _mm256_dpbusd_avx_epi32(acc, a, b) }
        }
        #[inline(always)]
        fn store(self, v: __m256i, dst: &mut [i32]) {
            self.0.store(v, dst)
        }
    }

    /// AVX-512 VNNI: `vpdpbusd` on 512-bit vectors.
    #[derive(Clone, Copy)]
    struct Avx512Vnni(());

    impl Dot for Avx512Vnni {
        const LANES: usize = 16;
        const FORM: Form = Form::FlippedBytes;
        type V = __m512i;
        #[inline(always)]
        fn zero(self) -> __m512i {
            // SAFETY: an `Avx512Vnni` exists only inside `mad_avx512vnni`,
            // entered after AVX-512F and AVX-512 VNNI were detected.
            unsafe { _mm512_setzero_si512() }
        }
        #[inline(always)]
        fn load(self, src: &[u32]) -> __m512i {
            assert!(src.len() >= 16);
            // SAFETY: as above; sixteen words are in bounds (asserted).
            unsafe { _mm512_loadu_si512(src.as_ptr().cast()) }
        }
        #[inline(always)]
        fn splat(self, word: u32) -> __m512i {
            // SAFETY: as above.
            unsafe { _mm512_set1_epi32(word as i32) }
        }
        #[inline(always)]
        fn dot(self, acc: __m512i, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: as above.
            unsafe { _mm512_dpbusd_epi32(acc, a, b) }
        }
        #[inline(always)]
        fn store(self, v: __m512i, dst: &mut [i32]) {
            assert!(dst.len() >= 16);
            // SAFETY: as above; sixteen lanes fit (asserted).
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), v) }
        }
    }

    type Operands<'a, A, B> = (&'a [A], &'a [B], &'a [i32]);

    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn mad_avx2<A: Byte, B: Byte>(
        ops: Operands<'_, A, B>,
        shape: (usize, usize, usize),
        out: &mut [i32],
    ) {
        dot_mad(Avx2(()), ops, shape, out);
    }

    /// # Safety
    ///
    /// The CPU must have AVX2 and AVX-VNNI.
    #[target_feature(enable = "avx2,avxvnni")]
    pub(super) unsafe fn mad_avxvnni<A: Byte, B: Byte>(
        ops: Operands<'_, A, B>,
        shape: (usize, usize, usize),
        out: &mut [i32],
    ) {
        dot_mad(AvxVnni(Avx2(())), ops, shape, out);
    }

    /// # Safety
    ///
    /// The CPU must have AVX-512F and AVX-512 VNNI.
    #[target_feature(enable = "avx512f,avx512vnni")]
    pub(super) unsafe fn mad_avx512vnni<A: Byte, B: Byte>(
        ops: Operands<'_, A, B>,
        shape: (usize, usize, usize),
        out: &mut [i32],
    ) {
        dot_mad(Avx512Vnni(()), ops, shape, out);
    }
}
