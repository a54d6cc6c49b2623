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
//! columns, and `a^T` in `packed_b` order is `a` in `packed_a` order. All
//! three are copied into zero-padded buffers of whole tiles (16 rows of 64
//! bytes; `k` in steps of 64), so every tile is full and the padding adds
//! nothing.
//!
//! Tiles are configured (`ldtilecfg`) at the start of each product and
//! released (`tilerelease`) at its end: a configuration kept per thread
//! would be lost to any other code of the thread that releases the tiles,
//! and the next tile instruction would fault. `tmm0` accumulates, `tmm1`
//! holds `b^T`, `tmm2` `a^T`.
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

use alloc::vec;
use alloc::vec::Vec;

use super::int8::Byte;

/// Tile rows, and the bytes of a tile row.
const ROWS: usize = 16;
const ROW_BYTES: usize = 64;

/// Whether a product is large enough for AMX, and not mostly padding: at
/// least one whole tile of each operand (16 rows, 16 columns, a depth of
/// 64), at most a third of each padded dimension unused. Not measured:
/// the machine this was written on has no AMX (see the closing note).
pub(crate) fn pays(m: usize, k: usize, n: usize) -> bool {
    let mostly_used = |d: usize, step: usize| d * 3 >= d.next_multiple_of(step) * 2;
    m >= ROWS
        && n >= ROWS
        && k >= ROW_BYTES
        && mostly_used(m, ROWS)
        && mostly_used(n, ROWS)
        && mostly_used(k, ROW_BYTES)
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
    /// `tmm1`, `tmm2` = 16 rows of 64 bytes, rows `stride` apart.
    fn load_operands(&mut self, first: (&[u8], usize), second: (&[u8], usize));
    /// `tmm0 += tmm1 * tmm2` with the instruction for `signs`.
    fn dot(&mut self, signs: Signs);
    /// `tmm0` to `dst`, rows `stride` apart.
    fn store_acc(&mut self, dst: &mut [i32], stride: usize);
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

/// `out = a * b + c` on tiles `t`, every matrix column-major (`a` is
/// `m x k`, `b` is `k x n`).
pub(crate) fn mad_on<T: Tiles, A: Byte, B: Byte>(
    t: &mut T,
    (a, b, c): (&[A], &[B], &[i32]),
    (m, k, n): (usize, usize, usize),
    out: &mut [i32],
) {
    let (mp, np, kp) = (
        m.next_multiple_of(ROWS),
        n.next_multiple_of(ROWS),
        k.next_multiple_of(ROW_BYTES),
    );
    // b^T: row j is column j of b, k bytes.
    let mut bt = vec![0u8; np * kp];
    for (j, column) in b.chunks_exact(k.max(1)).take(n).enumerate() {
        for (dst, &x) in bt[j * kp..].iter_mut().zip(column) {
            *dst = x.bits();
        }
    }
    // a^T in packed_b order: line q holds, for each row r of a, a(r, 4q..4q+4).
    let line = mp * 4;
    let mut at = vec![0u8; kp / 4 * line];
    for kk in 0..k {
        let (q, i) = (kk / 4, kk % 4);
        for (r, &x) in a[kk * m..][..m].iter().enumerate() {
            at[q * line + r * 4 + i] = x.bits();
        }
    }
    // out^T, row-major n x m: the column-major result with a padded stride.
    // A zero accumulator (a product, or `__builtin_matrix_fill(m, 0)`)
    // starts each tile with `tilezero` instead of loading it.
    let zero = c.iter().all(|&x| x == 0);
    let mut acc: Vec<i32> = vec![0; np * mp];
    if !zero {
        for j in 0..n {
            acc[j * mp..][..m].copy_from_slice(&c[j * m..][..m]);
        }
    }
    let signs = Signs {
        first: B::SIGNED,
        second: A::SIGNED,
    };
    for j0 in (0..np).step_by(ROWS) {
        for r0 in (0..mp).step_by(ROWS) {
            if zero {
                t.zero_acc();
            } else {
                t.load_acc(&acc[j0 * mp + r0..], mp);
            }
            for k0 in (0..kp).step_by(ROW_BYTES) {
                t.load_operands(
                    (&bt[j0 * kp + k0..], kp),
                    (&at[k0 / 4 * line + r0 * 4..], line),
                );
                t.dot(signs);
            }
            t.store_acc(&mut acc[j0 * mp + r0..], mp);
        }
    }
    for j in 0..n {
        out[j * m..][..m].copy_from_slice(&acc[j * mp..][..m]);
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
    fn load_operands(&mut self, (first, s1): (&[u8], usize), (second, s2): (&[u8], usize)) {
        check_rows(first.len(), ROW_BYTES, s1);
        check_rows(second.len(), ROW_BYTES, s2);
        for i in 0..ROWS {
            self.first[i].copy_from_slice(&first[i * s1..][..ROW_BYTES]);
            self.second[i].copy_from_slice(&second[i * s2..][..ROW_BYTES]);
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

    use super::{ROW_BYTES, ROWS, Signs, Tiles, check_rows};

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

    /// Configured tiles; released on drop. Exists only when [`available`].
    pub(super) struct Amx(());

    impl Amx {
        /// Configures `tmm0`..`tmm2` as 16 rows of 64 bytes (palette 1).
        ///
        /// # Panics
        ///
        /// If AMX is not [`available`].
        pub(super) fn configure() -> Amx {
            assert!(
                available(),
                "AMX is not available on this CPU or to this process"
            );
            #[repr(C, align(64))]
            struct Config([u8; 64]);
            let mut config = Config([0; 64]);
            config.0[0] = 1; // palette 1
            for tile in 0..3 {
                // Bytes per row (u16 per tile from byte 16), rows (u8 per
                // tile from byte 48).
                config.0[16 + 2 * tile..][..2].copy_from_slice(&(ROW_BYTES as u16).to_le_bytes());
                config.0[48 + tile] = ROWS as u8;
            }
            // SAFETY: AMX-TILE is present and permitted (asserted); the
            // 64-byte configuration is valid for palette 1 (16 rows of 64
            // bytes each, the palette's maximum) and readable.
            unsafe {
                asm!("ldtilecfg [{}]", in(reg) config.0.as_ptr(), options(nostack, readonly));
            }
            Amx(())
        }
    }

    impl Drop for Amx {
        fn drop(&mut self) {
            // SAFETY: AMX-TILE is present (an `Amx` exists); releasing
            // configured tiles touches no memory.
            unsafe { asm!("tilerelease", options(nostack)) };
        }
    }

    impl Tiles for Amx {
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
        fn load_operands(&mut self, (first, s1): (&[u8], usize), (second, s2): (&[u8], usize)) {
            check_rows(first.len(), ROW_BYTES, s1);
            check_rows(second.len(), ROW_BYTES, s2);
            // SAFETY: as in `load_acc`, both within their slices (checked).
            unsafe {
                asm!(
                    "tileloadd tmm1, [{p1} + {s1} * 1]",
                    "tileloadd tmm2, [{p2} + {s2} * 1]",
                    p1 = in(reg) first.as_ptr(),
                    s1 = in(reg) s1,
                    p2 = in(reg) second.as_ptr(),
                    s2 = in(reg) s2,
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
