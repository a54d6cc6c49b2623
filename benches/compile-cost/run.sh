#!/usr/bin/env bash
# Compile cost of matrix! kernels: builds a generated crate of 50 kernels
# (shapes up to 16x16, every operation kind) and one 64x64 f32 product
# kernel in release mode, and reports the crate's own build time (the
# dependencies are built first and not counted) and the machine code size
# of the 64x64 kernel. Usage: bash benches/compile-cost/run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$root/target/compile-cost"
mkdir -p "$work/src/bin"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "compile-cost"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
matrix-core = { path = "$root/matrix-core" }
[workspace]
TOML

# 50 kernels, each with one caller: products, fused multiply-adds, element-wise chains, scalar
# operations, transposes, loads and stores, over f32/f64/i32 and shapes
# from 2x2 to 16x16.
python3 - "$work/src/lib.rs" <<'PY'
import sys
shapes = [2, 3, 4, 5, 6, 7, 8, 9, 12, 16]
types = ["f32", "f64", "i32"]
out = ["//! Generated: 50 kernels for the compile-cost measurement.", "#![allow(missing_docs)]", "use matrix_core::matrix;", "matrix! {"]
for t in types:
    for n in shapes:
        out.append(f"    pub typedef {t} {t}_{n} __attribute__((matrix_type({n}, {n})));")
k = 0
calls = []
while k < 50:
    t = types[k % 3]
    n = shapes[k % len(shapes)]
    m = f"{t}_{n}"
    body = [
        f"a * b",
        f"a * b + c",
        f"(a + b - c) * 2",
        f"__builtin_matrix_transpose(a) * b - c",
        f"{{ let mut r = a; r *= b; r += c; r[0][{n - 1}] = r[{n - 1}][0]; r }}",
    ][k % 5]
    c = "c" if "c" in body.replace("__builtin", "") else "_c"
    out.append(f"    pub fn k{k}(a: {m}, b: {m}, {c}: {m}) -> {m} {{ {body} }}")
    calls.append(f"#[inline(never)]\npub fn call_k{k}(a: &{m}, b: &{m}, c: &{m}) -> {m} {{\n    k{k}(*a, *b, *c)\n}}")
    k += 1
out.append("    pub fn io(src: &[f32], dst: &mut [f32]) { let m = __builtin_matrix_column_major_load(src, 16, 16, 20); __builtin_matrix_column_major_store(m * m, dst, 16); }")
out.append("}")
# Kernels are `#[inline]` (small ones `#[inline(always)]`), so a crate that
# only defines them compiles none of their code: one caller each makes the
# crate compile every kernel once, where it is used, as a program would.
out += calls
open(sys.argv[1], "w").write("\n".join(out) + "\n")
PY

cat > "$work/src/bin/mul64.rs" <<'RS'
//! One 64x64 f32 product kernel, kept out of line to measure its size.
use matrix_core::matrix;
matrix! {
    typedef float m64 __attribute__((matrix_type(64, 64)));
    #[inline(never)]
    #[unsafe(no_mangle)]
    pub fn mul64_kernel(a: &m64, b: &m64) -> m64 { (*a) * (*b) }
}
fn main() {
    let a = Box::new(m64::splat(1.0));
    let c = mul64_kernel(&a, &a);
    println!("{}", c[(63, 63)]);
}
RS

cd "$work"
cargo build --release -q
time_build() { # what to touch, then cargo's target selection
    local file=$1
    shift
    touch "$file"
    local start end
    start=$(date +%s.%N)
    cargo build --release -q "$@"
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
printf '50 kernels up to 16x16 (release build of the crate): %.2f s\n' "$(time_build src/lib.rs --lib)"
printf 'one 64x64 f32 product kernel (release build of the binary): %.2f s\n' "$(time_build src/bin/mul64.rs --bin mul64)"
# The kernel and every function it calls that is not shared with the rest
# of the program: the product's monomorphised code.
bin="$work/target/release/mul64"
nm -S --size-sort -C "$bin" | python3 -c '
import re, sys
rows = []
for line in sys.stdin:
    parts = line.split(None, 3)
    if len(parts) == 4 and re.search(r"mul64_kernel|gemm|col_tiles|tile", parts[3]):
        rows.append((int(parts[1], 16), parts[3].strip()))
print(f"64x64 f32 product kernel code: {sum(r[0] for r in rows)} bytes (mul64_kernel and the gemm code it instantiates)")
for size, name in rows[-12:]:
    print(f"  {size:6d}  {name[:110]}")
' 
