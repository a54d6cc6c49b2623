//! Shared scalar references for the behaviour tests.
//!
//! Everything here is written from the specification's loops, independently
//! of `matrix_core`'s own arithmetic, so that tests can compare a `Matrix`
//! (or a kernel's output) with it element for element.
//!
//! Matrices are plain slices and `Vec`s in **column-major** order: element
//! `(r, c)` of an `rows`×`cols` matrix is at index `c * rows + r`, the
//! memory order of `Matrix::as_slice` and of Clang's matrix types.
//!
//! * [`Scalar`]: the element types, with the reference arithmetic (wrapping
//!   for integers, one IEEE rounding per operation for floats), a way to
//!   draw values, and a bitwise comparison.
//! * [`elementwise`], [`with_scalar`], [`scalar_with`]: element-wise
//!   operations; [`matmul`]: the product in the contract's summation order;
//!   [`transpose`]; [`load`] and [`store`]: the column-major builtins.
//! * [`Rng`]: a small deterministic generator; [`assert_same`]: slice
//!   comparison that tells `-0.0` from `+0.0`.

use matrix_core::Element;

/// An element type, with reference arithmetic written directly on the
/// primitive (not through `matrix_core`).
pub trait Scalar: Element {
    /// `a + b`: `wrapping_add` for integers, IEEE addition for floats.
    fn ref_add(self, rhs: Self) -> Self;
    /// `a - b`: `wrapping_sub` for integers, IEEE subtraction for floats.
    fn ref_sub(self, rhs: Self) -> Self;
    /// `a * b`: `wrapping_mul` for integers, IEEE multiplication for floats.
    fn ref_mul(self, rhs: Self) -> Self;
    /// `a / b`: `wrapping_div` for integers (panics on zero), IEEE division
    /// for floats.
    fn ref_div(self, rhs: Self) -> Self;
    /// A value drawn from 64 random bits: integers take the whole range (so
    /// that wrapping is exercised), floats a finite value in about
    /// `[-1000, 1000)` with a fractional part (never NaN).
    fn from_bits64(bits: u64) -> Self;
    /// Equality that tells `-0.0` from `+0.0` and holds between any two
    /// NaNs; plain `==` for integers.
    fn same(self, other: Self) -> bool;
}

macro_rules! int_scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            fn ref_add(self, rhs: Self) -> Self {
                self.wrapping_add(rhs)
            }
            fn ref_sub(self, rhs: Self) -> Self {
                self.wrapping_sub(rhs)
            }
            fn ref_mul(self, rhs: Self) -> Self {
                self.wrapping_mul(rhs)
            }
            fn ref_div(self, rhs: Self) -> Self {
                self.wrapping_div(rhs)
            }
            fn from_bits64(bits: u64) -> Self {
                bits as $t
            }
            fn same(self, other: Self) -> bool {
                self == other
            }
        }
    )*};
}

int_scalar!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float_scalar {
    ($($t:ty),*) => {$(
        impl Scalar for $t {
            fn ref_add(self, rhs: Self) -> Self {
                self + rhs
            }
            fn ref_sub(self, rhs: Self) -> Self {
                self - rhs
            }
            fn ref_mul(self, rhs: Self) -> Self {
                self * rhs
            }
            fn ref_div(self, rhs: Self) -> Self {
                self / rhs
            }
            fn from_bits64(bits: u64) -> Self {
                // 53 random bits -> [0, 1), scaled to [-1000, 1000).
                let unit = (bits >> 11) as f64 / (1u64 << 53) as f64;
                (unit * 2000.0 - 1000.0) as $t
            }
            fn same(self, other: Self) -> bool {
                (self.is_nan() && other.is_nan()) || self.to_bits() == other.to_bits()
            }
        }
    )*};
}

float_scalar!(f32, f64);

/// `f(a[i], b[i])` for every element: `a + b` is
/// `elementwise(a, b, Scalar::ref_add)`.
///
/// # Panics
///
/// If the lengths differ.
pub fn elementwise<T: Copy>(a: &[T], b: &[T], f: impl Fn(T, T) -> T) -> Vec<T> {
    assert_eq!(a.len(), b.len(), "elementwise: operands of different sizes");
    a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
}

/// `f(a[i], s)` for every element: a matrix op a broadcast scalar.
pub fn with_scalar<T: Copy>(a: &[T], s: T, f: impl Fn(T, T) -> T) -> Vec<T> {
    a.iter().map(|&x| f(x, s)).collect()
}

/// `f(s, a[i])` for every element: a broadcast scalar op a matrix.
pub fn scalar_with<T: Copy>(s: T, a: &[T], f: impl Fn(T, T) -> T) -> Vec<T> {
    a.iter().map(|&x| f(s, x)).collect()
}

/// The product of the `rows`×`inner` matrix `a` and the `inner`×`cols`
/// matrix `b`, column-major, in the contract's order: for each `(r, c)`,
/// `sum = a[r][0]*b[0][c]`, then `sum = sum + a[r][k]*b[k][c]` for
/// `k = 1..inner`, each operation rounded (or wrapped) on its own. With
/// `inner == 0` every element is zero.
///
/// # Panics
///
/// If a length does not match its shape.
pub fn matmul<T: Scalar>(a: &[T], b: &[T], rows: usize, inner: usize, cols: usize) -> Vec<T> {
    assert_eq!(a.len(), rows * inner, "matmul: lhs length");
    assert_eq!(b.len(), inner * cols, "matmul: rhs length");
    let at = |r: usize, c: usize| a[c * rows + r];
    let bt = |r: usize, c: usize| b[c * inner + r];
    let mut out = vec![T::ZERO; rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            if inner == 0 {
                continue;
            }
            let mut sum = at(r, 0).ref_mul(bt(0, c));
            for k in 1..inner {
                sum = sum.ref_add(at(r, k).ref_mul(bt(k, c)));
            }
            out[c * rows + r] = sum;
        }
    }
    out
}

/// The transpose of the `rows`×`cols` matrix `a`: a `cols`×`rows` matrix.
pub fn transpose<T: Copy>(a: &[T], rows: usize, cols: usize) -> Vec<T> {
    assert_eq!(a.len(), rows * cols, "transpose: length");
    let mut out = Vec::with_capacity(a.len());
    // Column c of the result is row c of `a`.
    for c in 0..rows {
        for r in 0..cols {
            out.push(a[r * rows + c]);
        }
    }
    out
}

/// `__builtin_matrix_column_major_load(src, rows, cols, stride)`: column `c`
/// of the result is `src[c*stride .. c*stride + rows]`.
///
/// # Panics
///
/// If `stride < rows` or `src` is too short (the spec leaves both
/// undefined; the reference just refuses them).
pub fn load<T: Copy>(src: &[T], rows: usize, cols: usize, stride: usize) -> Vec<T> {
    assert!(stride >= rows, "load: stride below rows");
    let mut out = Vec::with_capacity(rows * cols);
    for c in 0..cols {
        for r in 0..rows {
            out.push(src[c * stride + r]);
        }
    }
    out
}

/// `__builtin_matrix_column_major_store(m, dst, stride)` for the
/// `rows`×`cols` matrix `m`: element `(r, c)` goes to `dst[c*stride + r]`;
/// every other element of `dst` is left as it was.
///
/// # Panics
///
/// If `stride < rows`, `m` has the wrong length or `dst` is too short.
pub fn store<T: Copy>(m: &[T], rows: usize, cols: usize, dst: &mut [T], stride: usize) {
    assert!(stride >= rows, "store: stride below rows");
    assert_eq!(m.len(), rows * cols, "store: length");
    for c in 0..cols {
        for r in 0..rows {
            dst[c * stride + r] = m[c * rows + r];
        }
    }
}

/// Panics unless `actual` and `expected` have the same length and every
/// element is [`Scalar::same`], naming `what` and the first difference.
#[track_caller]
pub fn assert_same<T: Scalar>(actual: &[T], expected: &[T], what: &str) {
    assert_eq!(
        actual.len(),
        expected.len(),
        "{what}: lengths differ ({} vs {})",
        actual.len(),
        expected.len()
    );
    if let Some(i) = (0..actual.len()).find(|&i| !actual[i].same(expected[i])) {
        panic!(
            "{what}: element {i} differs: got {:?}, expected {:?}\n  actual:   {actual:?}\n  expected: {expected:?}",
            actual[i], expected[i]
        );
    }
}

/// A small deterministic pseudo-random generator (xorshift64*), so that
/// test inputs are reproducible without a dependency.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value, zero included).
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x9E37_79B9_7F4A_7C15 | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// One value of `T` (see [`Scalar::from_bits64`]).
    pub fn scalar<T: Scalar>(&mut self) -> T {
        T::from_bits64(self.next_u64())
    }

    /// One non-zero value of `T`, e.g. for a divisor.
    pub fn nonzero<T: Scalar>(&mut self) -> T {
        loop {
            let v = self.scalar::<T>();
            if v != T::ZERO {
                return v;
            }
        }
    }

    /// `len` values of `T`.
    pub fn vec<T: Scalar>(&mut self, len: usize) -> Vec<T> {
        (0..len).map(|_| self.scalar()).collect()
    }

    /// A value in `0..bound` (`bound > 0`).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}

/// Runs the other tests of the calling test binary once more on every
/// backend this CPU supports besides the active one, each in a child
/// process with `MATRIX_CORE_BACKEND` set to it, and panics if any of them
/// fails, with its output. A backend the CPU cannot run is reported as
/// skipped, by name, on standard error (outside the harness's capture).
///
/// Call it from one `#[test]` of each test binary that should cover every
/// backend, passing that test's name (it is skipped in the children). In
/// a child, or when the user pinned a backend with `MATRIX_CORE_BACKEND`,
/// it does nothing. The parent's own arguments are passed on, so
/// `cargo test NAME` re-runs `NAME` alone, except a filter that selected
/// this test itself (`cargo test on_every_backend` re-runs every test).
///
/// # Panics
///
/// If a child fails or cannot be started.
pub fn rerun_on_every_backend(this_test: &str) {
    use matrix_core::Backend;
    use std::io::Write;
    use std::process::Command;

    if std::env::var_os(Backend::OVERRIDE_VARIABLE).is_some() {
        return;
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let binary = exe
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // A filter naming this test would select nothing once it is skipped.
    let args: Vec<std::ffi::OsString> = std::env::args_os()
        .skip(1)
        .filter(|a| {
            let a = a.to_string_lossy();
            a.starts_with('-') || !this_test.contains(&*a)
        })
        .collect();
    let active = Backend::active();
    let mut report = std::io::stderr();
    let mut failures = Vec::new();
    for &backend in Backend::ALL {
        if backend == active {
            continue;
        }
        if !backend.is_supported() {
            let _ = writeln!(
                report,
                "{binary}: backend {backend} SKIPPED (it needs {}, which this CPU lacks)",
                backend.features().join(" + ")
            );
            continue;
        }
        let output = Command::new(&exe)
            .args(&args)
            .args(["--skip", this_test])
            .env(Backend::OVERRIDE_VARIABLE, backend.name())
            .output()
            .expect("the test binary runs again");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let summary = stdout
            .lines()
            .rfind(|l| l.starts_with("test result"))
            .unwrap_or("no summary")
            .to_owned();
        let _ = writeln!(report, "{binary}: backend {backend}: {summary}");
        if !output.status.success() {
            failures.push(format!(
                "--- backend {backend} ({} {}={}) failed:\n{stdout}\n{}",
                exe.display(),
                Backend::OVERRIDE_VARIABLE,
                backend.name(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_product_and_transpose() {
        // H2: f2x3(10r+c) * f3x2(r+2c+1) == [[8, 14], [68, 134]]
        let a: Vec<f32> = (0..6).map(|i| (10 * (i % 2) + i / 2) as f32).collect();
        let b: Vec<f32> = (0..6).map(|i| ((i % 3) + 2 * (i / 3) + 1) as f32).collect();
        assert_eq!(matmul(&a, &b, 2, 3, 2), vec![8.0, 68.0, 14.0, 134.0]);
        // H3: transpose(m)[2][1] == m[1][2] == 12
        assert_eq!(transpose(&a, 2, 3)[3 + 2], 12.0);
    }

    #[test]
    fn reference_load_store() {
        // H4 and H5
        let src: Vec<i32> = (0..20).collect();
        let m = load(&src, 2, 3, 5);
        assert_eq!(m, vec![0, 1, 5, 6, 10, 11]);
        let mut dst = vec![-1; 12];
        store(&m, 2, 3, &mut dst, 4);
        assert_eq!(dst, vec![0, 1, -1, -1, 5, 6, -1, -1, 10, 11, -1, -1]);
    }
}
