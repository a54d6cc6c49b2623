//! The widening 8-bit multiply-accumulate on AMX tiles (`amx-tile`,
//! `amx-int8`): `tdpbssd`, `tdpbsud`, `tdpbusd` and `tdpbuud`, one per pair
//! of signs, so no operand is flipped.
//!
//! # The product as tiles
//!
//! An AMX dot product adds to a tile of 32-bit sums, `C[i][j] += Σ_k
//! A[i][k] * B'[k][j]`, where `A`'s rows hold consecutive `k` and `B'` is
//! in the [`packed_b`](crate::MemoryLayout::PackedB) order (each word four
//! consecutive `k` of one column). The matrices here are column-major, so
//! the tiles compute the transpose, `out^T = b^T * a^T`: a column-major
//! `m x n` result is the row-major `n x m` tile, `b^T`'s rows are `b`'s
//! columns, and `a^T` in `packed_b` order is `a` in `packed_a` order. Only
//! `a` is always copied (to that order); `b`, the addend and the result
//! are read and written as tiles in place when every dimension is a whole
//! number of tiles (16 rows of 64 bytes; `k` in steps of 64; the addend
//! and the result also when only `k` is not), and through padded copies
//! otherwise, so every tile is full: `a^T`'s padding is zero, so the
//! padding adds nothing to the sums read back. In place, a
//! 64x64x64 product took 0.91 µs where copying all three took 4.34 (an
//! Intel Xeon with AMX, default build). The copies go into buffers kept
//! per thread (with `std`); `a` is packed sixteen rows of four columns at
//! a time, with one AVX512-VBMI byte permute where it has sixteen rows
//! ([`packed_16_rows`]) and SSE2 byte shuffles otherwise.
//!
//! Tiles are configured once per thread: each product reads the thread's
//! configuration (`sttilecfg`, about 10 ns) and loads its own
//! (`ldtilecfg`, about 95 ns on the Xeon measured, where a 16x64x16
//! product's tile instructions take about 25; loops of each in a scratch
//! program) only when it finds another one, or none because other code of
//! the thread released the tiles (`tilerelease`). The configuration stays
//! after the product, so a thread's later products skip the load. `tmm0` accumulates, `tmm1` holds
//! `b^T`, `tmm2` `a^T`.
//!
//! # Permission
//!
//! Linux grants a process the 8 KiB of AMX state only on request
//! (`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`); [`available`]
//! checks CPUID and XCR0 and makes the request once per process.
//!
//! # Testing without AMX
//!
//! The driver is generic over [`Tiles`]: the AMX instructions, or an
//! emulation of their semantics in Rust ([`Emulated`]) that the tests run
//! on every machine, so the packing, the tiling and the choice of
//! instruction are checked everywhere; the instructions themselves only
//! where the CPU has them.

// Off x86-64 Linux with `std` there are no hardware tiles: the driver is
// then used by the tests' emulated tiles only.
#![cfg_attr(
    not(all(feature = "std", target_arch = "x86_64", target_os = "linux")),
    allow(dead_code)
)]

use super::int8::{Byte, Form, detected, pack_a_words};

/// Tile rows, and the bytes of a tile row.
const ROWS: usize = 16;
const ROW_BYTES: usize = 64;

/// Whether a product is large enough for AMX, and not mostly padding: at
/// least one whole tile of the result (16 rows, 16 columns), at most a
/// third of each of its padded dimensions unused, and a depth of at least
/// 16 (a quarter of a tile's 64 bytes). Measured on an Intel Xeon with
/// AMX (per product, fastest samples, default build): 16x64x16 in 72 ns
/// against 334 on AVX-512 VNNI, 64x64x64 in 0.39 against 2.07 µs; with
/// `k` padded from 32 to 64, 16x32x16 in 140 against 236 ns and 32x32x32
/// in 282 against 564. Padded from 16, 16x16x16 took 155 ns there, no
/// faster than the widened `i32` kernel's 150; since only `b^T` is copied
/// for a depth that is not whole (the result stays in place), it takes
/// 137 to 140 ns against the widened kernel's 165 to 168 (medians, another
/// such Xeon, 2026-12-03), so AMX takes it, before
/// [`super::int8`]'s own bound on packing.
pub(crate) fn pays(m: usize, k: usize, n: usize) -> bool {
    let mostly_used = |d: usize| d * 3 >= d.next_multiple_of(ROWS) * 2;
    m >= ROWS && n >= ROWS && k >= ROW_BYTES / 4 && mostly_used(m) && mostly_used(n)
}

/// The signs of the two operands of a tile dot product: which of the four
/// instructions runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Signs {
    /// The first tile operand (`b^T` here) is signed.
    pub(crate) first: bool,
    /// The second (`a^T`) is signed.
    pub(crate) second: bool,
}

/// The three tiles of the product, and what the driver does with them.
pub(crate) trait Tiles {
    /// `tmm0` = 16 rows of 16 `i32` from `src`, rows `stride` apart.
    fn load_acc(&mut self, src: &[i32], stride: usize);
    /// `tmm0` = zero (`tilezero`), with no memory read.
    fn zero_acc(&mut self);
    /// `tmm1` = 16 rows of 64 bytes of `first`, rows `s1` bytes apart;
    /// `tmm2` = 16 rows of 16 words of `second`, rows `s2` words apart.
    fn load_operands<B: Byte>(&mut self, first: (&[B], usize), second: (&[u32], usize));
    /// `tmm0 += tmm1 * tmm2` with the instruction for `signs`.
    fn dot(&mut self, signs: Signs);
    /// `tmm0` to `dst`, rows `stride` apart.
    fn store_acc(&mut self, dst: &mut [i32], stride: usize);
    /// `a` (column-major, `m x k`) as `a^T` in `packed_b` order: its
    /// unflipped `packed_a` words, rows padded to `mp`, as
    /// [`pack_a_words`] writes them.
    fn pack_a<A: Byte>(&self, a: &[A], (m, k): (usize, usize), mp: usize, at: &mut [u32]) {
        pack_a_words(Form::FlippedBytes, a, (m, k), mp, 0, at);
    }
}

/// Panics unless `len` elements hold 16 rows of `row` elements `stride`
/// apart: what keeps a tile load or store in bounds.
#[track_caller]
fn check_rows(len: usize, row: usize, stride: usize) {
    assert!(
        stride >= row && len >= (ROWS - 1) * stride + row,
        "a tile of 16 rows of {row} elements, {stride} apart, does not fit in {len}"
    );
}

/// Whether an `m x k` by `k x n` product's operand `b` and result are read
/// and written in place, as tiles: every dimension a whole number of
/// tiles. Otherwise they go through padded copies.
fn whole_tiles(m: usize, k: usize, n: usize) -> bool {
    m.is_multiple_of(ROWS) && n.is_multiple_of(ROWS) && k.is_multiple_of(ROW_BYTES)
}

/// [`pack_a_words`] (unflipped) of an `a` of sixteen rows and `k` a
/// multiple of four, rows padded to sixteen, where the CPU can: each
/// group of four columns is 64 contiguous bytes, and its sixteen words
/// are those bytes in another order, one byte permute (`vpermb`,
/// AVX512-VBMI) from one 64-byte load. [`pack_a_words`] takes eight
/// shuffles per group; this way a 16x64x16 product on AMX takes 78.0 to
/// 78.7 ns where it took 92.1 to 96.1 (an Intel Xeon with AMX, default
/// build, medians per product of three runs of each in alternation).
/// False, with `at` untouched, where the CPU lacks AVX512-VBMI.
///
/// # Panics
///
/// If `k` is not a multiple of four, `a` holds fewer than `16 * k`
/// bytes, or `at` fewer than `4 * k` words.
#[cfg(target_arch = "x86_64")]
pub(super) fn packed_16_rows<A: Byte>(a: &[A], k: usize, at: &mut [u32]) -> bool {
    if !detected::avx512vbmi() {
        return false;
    }
    // SAFETY: AVX-512F, AVX-512BW and AVX512-VBMI detected just above.
    unsafe { pack_16_rows(a, k, at) };
    true
}

/// [`packed_16_rows`] on a CPU that has its features.
///
/// # Safety
///
/// The CPU has AVX-512F, AVX-512BW and AVX512-VBMI.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
unsafe fn pack_16_rows<A: Byte>(a: &[A], k: usize, at: &mut [u32]) {
    use core::arch::x86_64::{
        __m512i, _mm512_loadu_si512, _mm512_permutexvar_epi8, _mm512_storeu_si512,
    };
    /// Byte `4r + i` of a group's words is row `r` of its column `i`,
    /// byte `16i + r` of the group.
    const INDEX: [u8; 64] = {
        let mut index = [0; 64];
        let mut j = 0;
        while j < 64 {
            index[j] = (16 * (j % 4) + j / 4) as u8;
            j += 1;
        }
        index
    };
    assert!(
        k.is_multiple_of(4) && a.len() >= ROWS * k && at.len() >= 4 * k,
        "sixteen rows of depth {k} packed from {} bytes into {} words",
        a.len(),
        at.len()
    );
    // SAFETY: `INDEX` is 64 readable bytes (any alignment for `loadu`).
    let index = unsafe { _mm512_loadu_si512(INDEX.as_ptr().cast::<__m512i>()) };
    for (group, words) in a[..ROWS * k]
        .chunks_exact(4 * ROWS)
        .zip(at.chunks_exact_mut(ROWS))
    {
        // SAFETY: `group` is 64 bytes (`A` is a byte) and `words` 16 words,
        // the bytes read and written; `loadu`/`storeu` need no alignment.
        unsafe {
            let bytes = _mm512_loadu_si512(group.as_ptr().cast::<__m512i>());
            let packed = _mm512_permutexvar_epi8(index, bytes);
            _mm512_storeu_si512(words.as_mut_ptr().cast::<__m512i>(), packed);
        }
    }
    at[4 * k..].fill(0);
}

/// `out = a * b + c` on tiles `t`, every matrix column-major (`a` is
/// `m x k`, `b` is `k x n`).
///
/// Only `a` is always copied, to the `packed_b` order (`a^T`'s); `b`, `c`
/// and `out` are tiles in place when [`whole_tiles`] says so (a column of
/// `b` is a row of `b^T`, `k` bytes apart; a column of the result is a row
/// of `out^T`, `m` words apart), and padded copies otherwise.
pub(crate) fn mad_on<T: Tiles, A: Byte, B: Byte>(
    t: &mut T,
    (a, b, c): (&[A], &[B], &[i32]),
    (m, k, n): (usize, usize, usize),
    out: &mut [i32],
) {
    if m == 0 || n == 0 {
        return; // an empty result
    }
    let padded = (
        m.next_multiple_of(ROWS),
        k.next_multiple_of(ROW_BYTES),
        n.next_multiple_of(ROWS),
    );
    // a^T in packed_b order is a's packed_a words, unflipped: word
    // `q * mp + r` holds a(r, 4q..4q+4), zeros padding to whole tiles.
    let mut buffers = scratch::take();
    let at = &mut buffers.at;
    at.resize(padded.0 * padded.1 / 4, 0);
    t.pack_a(a, (m, k), padded.0, at);
    let signs = Signs {
        first: B::SIGNED,
        second: A::SIGNED,
    };
    // A zero accumulator (a product, or `__builtin_matrix_fill(m, 0)`)
    // starts each tile with `tilezero` instead of loading it.
    let zero = c.iter().all(|&x| x == 0);
    let start = if zero { Start::Zero } else { Start::Load(c) };
    if whole_tiles(m, k, n) {
        tile_products(t, (at, (b, k)), padded, signs, start, out);
    } else if m.is_multiple_of(ROWS) && n.is_multiple_of(ROWS) {
        // Only the depth is not whole: `b^T` through its padded copy, the
        // addend and the result in place (16x32x16 took 186 ns with the
        // result's copies too, and takes 142).
        let bt = padded_bt(b, (k, n), padded, &mut buffers.bt);
        tile_products(t, (at, (bt, padded.1)), padded, signs, start, out);
    } else {
        through_padding(
            t,
            (b, c),
            (m, k, n),
            (padded, signs, zero),
            &mut buffers,
            out,
        );
    }
    scratch::give(buffers);
}

/// The tile loop of [`mad_on`] when a dimension is not a whole number of
/// tiles: `b^T` and the result (holding the addend unless `zero`) go
/// through padded copies in `buffers` (`a^T` is already packed there).
fn through_padding<T: Tiles, B: Byte>(
    t: &mut T,
    (b, c): (&[B], &[i32]),
    (m, k, n): (usize, usize, usize),
    (padded, signs, zero): ((usize, usize, usize), Signs, bool),
    buffers: &mut scratch::Buffers,
    out: &mut [i32],
) {
    let (mp, kp, np) = padded;
    // The sums past row n or word m of out^T are never read back (each
    // sum is its own tile element).
    let bt = padded_bt(b, (k, n), padded, &mut buffers.bt);
    // out^T, row-major n x m: the column-major result with a padded
    // stride, holding the addend unless it is zero.
    let acc = &mut buffers.acc;
    acc.resize(np * mp, 0);
    if !zero {
        for (dst, src) in acc.chunks_exact_mut(mp).zip(c.chunks_exact(m)) {
            dst[..m].copy_from_slice(src);
        }
    }
    let start = if zero { Start::Zero } else { Start::InPlace };
    tile_products(t, (&buffers.at, (bt, kp)), padded, signs, start, acc);
    for (dst, src) in out.chunks_exact_mut(m).zip(acc.chunks_exact(mp)) {
        dst.copy_from_slice(&src[..m]);
    }
}

/// `b^T` in `bt`, padded to whole tiles: row `j` (of `np`) is column `j`
/// of `b`, `k` bytes, rows `kp` bytes apart. The padding holds whatever
/// the thread's last product left there, or the bytes of `b` that follow
/// the column: `b^T`'s bytes past `k` meet `a^T`'s zero padding, and its
/// rows past `n` make sums that are never read back.
fn padded_bt<'a, B: Byte>(
    b: &[B],
    (k, n): (usize, usize),
    (_, kp, np): (usize, usize, usize),
    bt: &'a mut alloc::vec::Vec<u8>,
) -> &'a [u8] {
    bt.resize(np * kp, 0);
    // Each column in whole 16-byte moves, the last one's bytes past `k`
    // read from the next column; a column count known to the compiler
    // where it is small, so that a column is its moves and nothing else
    // (16x32x16 spent a fifth of its time in this loop's control).
    match k.div_ceil(16) {
        1 => bt_moves::<B, 1>(b, k, n, kp, bt),
        2 => bt_moves::<B, 2>(b, k, n, kp, bt),
        3 => bt_moves::<B, 3>(b, k, n, kp, bt),
        _ => bt_moves::<B, 0>(b, k, n, kp, bt),
    }
    bt
}

/// The columns of [`padded_bt`] as `C` 16-byte moves each (`C = 0`: as
/// many as `k` needs), those of the last columns, whose moves would read
/// past the end of `b`, byte by byte.
#[inline(always)]
fn bt_moves<B: Byte, const C: usize>(b: &[B], k: usize, n: usize, kp: usize, bt: &mut [u8]) {
    let chunks = if C == 0 { k.div_ceil(16) } else { C };
    for (j, row) in bt.chunks_exact_mut(kp.max(1)).take(n).enumerate() {
        let start = j * k;
        match b.get(start..start + 16 * chunks) {
            Some(column) => {
                let (to, _) = row[..16 * chunks].as_chunks_mut::<16>();
                for (dst, src) in to.iter_mut().zip(column.as_chunks::<16>().0) {
                    *dst = src.map(B::bits);
                }
            }
            None => {
                for (dst, &x) in row.iter_mut().zip(&b[start..start + k]) {
                    *dst = x.bits();
                }
            }
        }
    }
}

mod scratch {
    //! The buffers of a product, kept per thread between products (with
    //! `std`): allocating and freeing `a^T`'s alone took about a tenth of
    //! a 16x64x16 product on the Xeon measured.

    use alloc::vec::Vec;

    /// The largest buffer kept, in bytes (256 KiB): a larger one is freed.
    const KEEP: usize = 1 << 18;

    /// `a^T` packed, and for shapes that are not whole tiles, `b^T` and
    /// the result padded to whole tiles.
    #[derive(Default)]
    pub(super) struct Buffers {
        pub(super) at: Vec<u32>,
        pub(super) bt: Vec<u8>,
        pub(super) acc: Vec<i32>,
    }

    #[cfg(feature = "std")]
    std::thread_local! {
        static BUFFERS: core::cell::Cell<Buffers> = const {
            core::cell::Cell::new(Buffers { at: Vec::new(), bt: Vec::new(), acc: Vec::new() })
        };
    }

    /// The thread's buffers (empty the first time), holding whatever its
    /// last product left.
    pub(super) fn take() -> Buffers {
        #[cfg(feature = "std")]
        {
            BUFFERS.with(|b| b.take())
        }
        #[cfg(not(feature = "std"))]
        {
            Buffers::default()
        }
    }

    /// Keeps `buffers` for the thread's next product, but not a large one.
    pub(super) fn give(mut buffers: Buffers) {
        fn small<T>(v: &mut Vec<T>) {
            if v.capacity() * size_of::<T>() > KEEP {
                *v = Vec::new();
            }
        }
        small(&mut buffers.at);
        small(&mut buffers.bt);
        small(&mut buffers.acc);
        #[cfg(feature = "std")]
        BUFFERS.with(|b| b.set(buffers));
    }
}

/// How each accumulator tile starts.
enum Start<'a> {
    /// At zero (`tilezero`).
    Zero,
    /// Loaded from the addend, laid out as the result.
    Load(&'a [i32]),
    /// Loaded from the result buffer, which holds the addend.
    InPlace,
}

/// The tile loop: for each 16x16 tile of `out^T` (rows `mp` words apart),
/// start it, add the dot products of its row of `b^T` tiles (`bt`, rows
/// `bs` bytes apart) and its column of `a^T` tiles (`at`), and store it.
fn tile_products<T: Tiles, B: Byte>(
    t: &mut T,
    (at, (bt, bs)): (&[u32], (&[B], usize)),
    (mp, kp, np): (usize, usize, usize),
    signs: Signs,
    start: Start<'_>,
    out: &mut [i32],
) {
    for j0 in (0..np).step_by(ROWS) {
        for r0 in (0..mp).step_by(ROWS) {
            let tile = j0 * mp + r0;
            match start {
                Start::Zero => t.zero_acc(),
                Start::Load(c) => t.load_acc(&c[tile..], mp),
                Start::InPlace => t.load_acc(&out[tile..], mp),
            }
            for k0 in (0..kp).step_by(ROW_BYTES) {
                t.load_operands((&bt[j0 * bs + k0..], bs), (&at[k0 / 4 * mp + r0..], mp));
                t.dot(signs);
            }
            t.store_acc(&mut out[tile..], mp);
        }
    }
}

/// The tile instructions' semantics in Rust: three 1 KiB tiles.
#[cfg(test)]
pub(crate) struct Emulated {
    acc: [[i32; ROWS]; ROWS],
    first: [[u8; ROW_BYTES]; ROWS],
    second: [[u8; ROW_BYTES]; ROWS],
}

#[cfg(test)]
impl Emulated {
    pub(crate) fn new() -> Emulated {
        Emulated {
            acc: [[0; ROWS]; ROWS],
            first: [[0; ROW_BYTES]; ROWS],
            second: [[0; ROW_BYTES]; ROWS],
        }
    }
}

#[cfg(test)]
impl Tiles for Emulated {
    fn load_acc(&mut self, src: &[i32], stride: usize) {
        check_rows(src.len(), ROWS, stride);
        for (i, row) in self.acc.iter_mut().enumerate() {
            row.copy_from_slice(&src[i * stride..][..ROWS]);
        }
    }
    fn zero_acc(&mut self) {
        self.acc = [[0; ROWS]; ROWS];
    }
    fn load_operands<B: Byte>(
        &mut self,
        (first, s1): (&[B], usize),
        (second, s2): (&[u32], usize),
    ) {
        check_rows(first.len(), ROW_BYTES, s1);
        check_rows(second.len(), ROW_BYTES / 4, s2);
        for i in 0..ROWS {
            for (dst, &x) in self.first[i].iter_mut().zip(&first[i * s1..][..ROW_BYTES]) {
                *dst = x.bits();
            }
            for (dst, &w) in self.second[i]
                .chunks_exact_mut(4)
                .zip(&second[i * s2..][..ROWS])
            {
                dst.copy_from_slice(&w.to_le_bytes());
            }
        }
    }
    /// `C[i][j] += Σ_q Σ_{e<4} A[i][4q+e] * B[q][4j+e]`, each byte signed or
    /// unsigned as `signs` says, wrapping (the SDM's `TDPBSSD` and kin).
    fn dot(&mut self, signs: Signs) {
        let value = |x: u8, signed: bool| {
            if signed {
                i32::from(x as i8)
            } else {
                i32::from(x)
            }
        };
        for i in 0..ROWS {
            for j in 0..ROWS {
                let mut sum = self.acc[i][j];
                for q in 0..ROWS {
                    for e in 0..4 {
                        let x = value(self.first[i][4 * q + e], signs.first);
                        let y = value(self.second[q][4 * j + e], signs.second);
                        sum = sum.wrapping_add(x * y);
                    }
                }
                self.acc[i][j] = sum;
            }
        }
    }
    fn store_acc(&mut self, dst: &mut [i32], stride: usize) {
        check_rows(dst.len(), ROWS, stride);
        for (i, row) in self.acc.iter().enumerate() {
            dst[i * stride..][..ROWS].copy_from_slice(row);
        }
    }
}

/// `out = a * b + c` on AMX.
///
/// # Panics
///
/// If AMX is not [`available`].
pub(crate) fn mad<A: Byte, B: Byte>(
    ops: (&[A], &[B], &[i32]),
    shape: (usize, usize, usize),
    out: &mut [i32],
) {
    #[cfg(all(feature = "std", target_arch = "x86_64", target_os = "linux"))]
    {
        let mut tiles = hardware::Amx::configure();
        mad_on(&mut tiles, ops, shape, out);
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64", target_os = "linux")))]
    {
        let _ = (ops, shape, out);
        unreachable!("AMX is never available off x86-64 Linux with std");
    }
}

/// Whether the thread's tiles hold the driver's configuration: the one
/// left by its last product, unless other code released or replaced it.
/// False without AMX.
#[cfg(test)]
pub(crate) fn configured() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64", target_os = "linux"))]
    {
        available() && hardware::configured()
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64", target_os = "linux")))]
    {
        false
    }
}

/// Releases the thread's tiles, as other code may between two products.
///
/// # Panics
///
/// If AMX is not [`available`].
#[cfg(test)]
pub(crate) fn release() {
    #[cfg(all(feature = "std", target_arch = "x86_64", target_os = "linux"))]
    hardware::release();
    #[cfg(not(all(feature = "std", target_arch = "x86_64", target_os = "linux")))]
    panic!("AMX is not available");
}

/// Whether the CPU has AMX-TILE and AMX-INT8, the operating system saves
/// the tile state, and the process may use it (asked once).
pub(crate) fn available() -> bool {
    #[cfg(all(feature = "std", target_arch = "x86_64", target_os = "linux"))]
    {
        hardware::available()
    }
    #[cfg(not(all(feature = "std", target_arch = "x86_64", target_os = "linux")))]
    {
        false
    }
}

#[cfg(all(feature = "std", target_arch = "x86_64", target_os = "linux"))]
mod hardware {
    //! The AMX instructions, in inline assembly (their intrinsics and
    //! target features are unstable; the assembler knows them without).

    use core::arch::asm;
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    use std::sync::OnceLock;

    use super::{Byte, ROW_BYTES, ROWS, Signs, Tiles, check_rows};

    /// `arch_prctl`'s system call number, and its request for permission
    /// to use an extended state component.
    const SYS_ARCH_PRCTL: usize = 158;
    const ARCH_REQ_XCOMP_PERM: usize = 0x1023;
    /// The XSAVE component of the tile data.
    const XFEATURE_XTILEDATA: usize = 18;

    /// CPUID, XCR0 and the permission, once per process.
    pub(super) fn available() -> bool {
        static AVAILABLE: OnceLock<bool> = OnceLock::new();
        *AVAILABLE.get_or_init(|| cpu_has_amx() && request_permission())
    }

    /// CPUID.(7,0):EDX bits 24 (AMX-TILE) and 25 (AMX-INT8), with XCR0's
    /// bits 17 and 18 (the OS saves the tile configuration and data).
    fn cpu_has_amx() -> bool {
        if __cpuid(0).eax < 7 {
            return false;
        }
        let edx = __cpuid_count(7, 0).edx;
        let osxsave = __cpuid(1).ecx & (1 << 27) != 0;
        if edx & (1 << 24) == 0 || edx & (1 << 25) == 0 || !osxsave {
            return false;
        }
        let (lo, _hi): (u32, u32);
        // SAFETY: OSXSAVE (checked) says the OS enabled XGETBV; register 0
        // (XCR0) always exists then. It reads two registers and nothing
        // else.
        unsafe {
            asm!("xgetbv", in("ecx") 0u32, out("eax") lo, out("edx") _hi, options(nomem, nostack));
        }
        lo & (0b11 << 17) == 0b11 << 17
    }

    /// `arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`: zero on
    /// success.
    fn request_permission() -> bool {
        let ret: isize;
        // SAFETY: a Linux system call with two integer arguments; it
        // writes no memory of ours, and `syscall` clobbers only rcx and r11
        // (declared) besides its result in rax.
        unsafe {
            asm!(
                "syscall",
                inlateout("rax") SYS_ARCH_PRCTL as isize => ret,
                in("rdi") ARCH_REQ_XCOMP_PERM,
                in("rsi") XFEATURE_XTILEDATA,
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack),
            );
        }
        ret == 0
    }

    /// The configuration the driver uses, in `ldtilecfg`'s 64 bytes:
    /// palette 1, `tmm0`..`tmm2` 16 rows of 64 bytes (bytes per row a
    /// `u16` per tile from byte 16, rows a byte per tile from byte 48),
    /// every other tile and byte zero.
    #[repr(C, align(64))]
    struct Config([u8; 64]);

    impl PartialEq for Config {
        /// Four 16-byte compares, inline: the derived compare called
        /// `bcmp`, about 9 ns of each product.
        fn eq(&self, other: &Config) -> bool {
            let lane = |c: &Config, i: usize| u128::from_ne_bytes(c.0.as_chunks::<16>().0[i]);
            (0..4).all(|i| lane(self, i) == lane(other, i))
        }
    }

    const CONFIG: Config = {
        let mut bytes = [0u8; 64];
        bytes[0] = 1;
        let mut tile = 0;
        while tile < 3 {
            let row = (ROW_BYTES as u16).to_le_bytes();
            bytes[16 + 2 * tile] = row[0];
            bytes[16 + 2 * tile + 1] = row[1];
            bytes[48 + tile] = ROWS as u8;
            tile += 1;
        }
        Config(bytes)
    };

    /// The thread's tile configuration (`sttilecfg`): zeros when the
    /// tiles are not configured.
    ///
    /// # Panics
    ///
    /// If AMX is not [`available`].
    fn current() -> Config {
        assert!(
            available(),
            "AMX is not available on this CPU or to this process"
        );
        let mut current = Config([0; 64]);
        // SAFETY: AMX-TILE is present and permitted (asserted);
        // `sttilecfg` writes the 64 bytes of `current` and nothing else.
        unsafe {
            asm!("sttilecfg [{}]", in(reg) current.0.as_mut_ptr(), options(nostack));
        }
        current
    }

    /// Whether the thread's tiles are in the driver's configuration.
    #[cfg(test)]
    pub(super) fn configured() -> bool {
        current() == CONFIG
    }

    /// Releases the thread's tiles (`tilerelease`), as other code of the
    /// thread may.
    ///
    /// # Panics
    ///
    /// If AMX is not [`available`].
    #[cfg(test)]
    pub(super) fn release() {
        assert!(available(), "AMX is not available");
        // SAFETY: AMX-TILE is present and permitted (asserted); releasing
        // the tiles touches no memory.
        unsafe { asm!("tilerelease", options(nostack)) };
    }

    /// Configured tiles. Exists only when [`available`], for one product
    /// ([`super::mad`]), during which no other code of the thread runs: the
    /// configuration it found or loaded stays.
    pub(super) struct Amx(());

    impl Amx {
        /// The tiles in [`CONFIG`]: loaded (`ldtilecfg`, about 95 ns on
        /// the Xeon measured) only when the thread's configuration, read
        /// with `sttilecfg` (about 10 ns), is another one or none. The
        /// configuration stays after the product, for the thread's next.
        ///
        /// # Panics
        ///
        /// If AMX is not [`available`].
        pub(super) fn configure() -> Amx {
            if current() != CONFIG {
                // SAFETY: AMX-TILE is present and permitted (`current`
                // asserts it); the configuration is valid for palette 1
                // (16 rows of 64 bytes, the palette's maximum) and
                // readable.
                unsafe {
                    asm!("ldtilecfg [{}]", in(reg) CONFIG.0.as_ptr(), options(nostack, readonly));
                }
            }
            Amx(())
        }
    }

    impl Tiles for Amx {
        /// [`packed_16_rows`](super::packed_16_rows) for sixteen rows of
        /// whole groups where the CPU has AVX512-VBMI (every CPU with AMX
        /// so far does), [`pack_a_words`](super::pack_a_words) otherwise.
        fn pack_a<A: Byte>(&self, a: &[A], (m, k): (usize, usize), mp: usize, at: &mut [u32]) {
            let sixteen = m == ROWS && mp == ROWS && k.is_multiple_of(4);
            if !(sixteen && super::packed_16_rows(a, k, at)) {
                super::pack_a_words(super::Form::FlippedBytes, a, (m, k), mp, 0, at);
            }
        }
        fn load_acc(&mut self, src: &[i32], stride: usize) {
            check_rows(src.len(), ROWS, stride);
            // SAFETY: tiles are configured (an `Amx` exists); the 16 rows
            // of 64 bytes, `4 * stride` bytes apart, are within `src`
            // (checked).
            unsafe {
                asm!(
                    "tileloadd tmm0, [{p} + {s} * 1]",
                    p = in(reg) src.as_ptr(),
                    s = in(reg) stride * 4,
                    options(nostack, readonly),
                );
            }
        }
        fn zero_acc(&mut self) {
            // SAFETY: tiles are configured (an `Amx` exists); `tilezero`
            // writes only a tile register (no `nomem`, as in `dot`, so
            // that it stays ordered with the tile loads and stores).
            unsafe { asm!("tilezero tmm0", options(nostack)) };
        }
        fn load_operands<B: Byte>(
            &mut self,
            (first, s1): (&[B], usize),
            (second, s2): (&[u32], usize),
        ) {
            check_rows(first.len(), ROW_BYTES, s1);
            check_rows(second.len(), ROW_BYTES / 4, s2);
            // SAFETY: as in `load_acc`, both within their slices (checked:
            // `first`'s bytes, `second`'s words, `4 * s2` bytes apart).
            unsafe {
                asm!(
                    "tileloadd tmm1, [{p1} + {s1} * 1]",
                    "tileloadd tmm2, [{p2} + {s2} * 1]",
                    p1 = in(reg) first.as_ptr(),
                    s1 = in(reg) s1,
                    p2 = in(reg) second.as_ptr(),
                    s2 = in(reg) s2 * 4,
                    options(nostack, readonly),
                );
            }
        }
        fn dot(&mut self, signs: Signs) {
            // SAFETY: AMX-INT8 is present and the tiles configured (an
            // `Amx` exists); the instructions touch only tile registers
            // (no `nomem`, so that they stay ordered with the loads and
            // stores around them).
            unsafe {
                match (signs.first, signs.second) {
                    (true, true) => asm!("tdpbssd tmm0, tmm1, tmm2", options(nostack)),
                    (true, false) => asm!("tdpbsud tmm0, tmm1, tmm2", options(nostack)),
                    (false, true) => asm!("tdpbusd tmm0, tmm1, tmm2", options(nostack)),
                    (false, false) => asm!("tdpbuud tmm0, tmm1, tmm2", options(nostack)),
                }
            }
        }
        fn store_acc(&mut self, dst: &mut [i32], stride: usize) {
            check_rows(dst.len(), ROWS, stride);
            // SAFETY: as in `load_acc`, within `dst` (checked), which is
            // borrowed mutably.
            unsafe {
                asm!(
                    "tilestored [{p} + {s} * 1], tmm0",
                    p = in(reg) dst.as_mut_ptr(),
                    s = in(reg) stride * 4,
                    options(nostack),
                );
            }
        }
    }
}
