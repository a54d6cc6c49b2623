#!/usr/bin/env python3
"""Collects criterion's estimates into BENCHMARKS.md and an SVG bar chart.

Called by benches/run.sh. Reads <criterion dir>/**/new/benchmark.json (the
group and function ids) and estimates.json (the mean, in ns per criterion
iteration) of the default-target run and of the native run, divides by the
benchmark's BATCH (operations per iteration, see benches/src/lib.rs) and
writes one table per run plus a grouped bar chart.
"""

import argparse
import json
import math
import os
import re
import time

BATCH = 16  # matrix_benches::BATCH

COLUMNS = [
    "matrix-core",
    "matrix-core mul_to",
    "matrix-core mad_to",
    "matrix-core transpose_to",
    "dispatch(||)",
    "dsl exact",
    "dsl load/store",
    "dsl fast",
    "dsl fast load/store",
    "dsl #[dispatch]",
    "glam",
    "nalgebra",
    "clang-19 off",
    "clang-19 fast",
    "clang-19 off batch",
    "copy",
    "scalar loop",
    "simd i32",
]
COLORS = {
    "matrix-core": "#4e79a7",
    "matrix-core mul_to": "#a0cbe8",
    "matrix-core mad_to": "#a0cbe8",
    "matrix-core transpose_to": "#a0cbe8",
    "dispatch(||)": "#f28e2b",
    "dsl exact": "#ff9da7",
    "dsl load/store": "#fabfd2",
    "dsl fast": "#9c755f",
    "dsl fast load/store": "#d4a6c8",
    "dsl #[dispatch]": "#e15759",
    "glam": "#76b7b2",
    "nalgebra": "#59a14f",
    "clang-19 off": "#edc948",
    "clang-19 fast": "#b07aa1",
    "clang-19 off batch": "#d7b5a6",
    "copy": "#bab0ac",
    "scalar loop": "#86bcb6",
    "simd i32": "#79706e",
}
# The columns compared with the run before the dispatch layer (commit
# d05f89c, where the default target ran SSE2 code): those both runs have.
BEFORE_COLUMNS = ["matrix-core", "dsl exact", "dsl fast"]


def group_order(name):
    """Products by type and size, then madd, transpose, chains."""
    kind = 0 if " mul " in name else 1 if " madd " in name else 2 if "transpose" in name else 3
    m = re.search(r"(\d+)x(\d+)", name)
    n = int(m.group(1)) if m else 0
    types = ["f32", "f64", "i32", "u32", "i16", "u16", "i8", "u8", "i64", "u64"]
    last = name.split()[-1]
    ty = types.index(last) if last in types else 0
    return (kind, ty, n, name)


def load(root):
    """{group: {function: ns per operation}}"""
    out = {}
    if not os.path.isdir(root):
        return out
    for dirpath, _dirs, files in os.walk(root):
        if os.path.basename(dirpath) != "new" or "estimates.json" not in files:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            est = json.load(f)
        with open(os.path.join(dirpath, "sample.json")) as f:
            sample = json.load(f)
        best = min(t / i for t, i in zip(sample["times"], sample["iters"]))
        group, func = bench["group_id"], bench["function_id"]
        out.setdefault(group, {})[func] = (
            est["median"]["point_estimate"] / BATCH,
            best / BATCH,
        )
    return out


def fmt_time(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.2f} µs"
    if ns >= 10:
        return f"{ns:.1f} ns"
    return f"{ns:.2f} ns"


def flops(group):
    """Floating-point operations of one product, or None."""
    m = re.match(r"matrix (mul|madd) (\d+)x\d+ (f32|f64)", group)
    if not m:
        return None
    n = int(m.group(2))
    return 2 * n**3 + (n * n if m.group(1) == "madd" else 0)


def table(results):
    # Groups with none of the shared columns have their own tables
    # (own_columns); a row of dashes here would say nothing.
    groups = sorted((g for g in results if set(results[g]) & set(COLUMNS)), key=group_order)
    cols = [c for c in COLUMNS if any(c in results[g] for g in groups)]
    lines = ["| benchmark | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for g in groups:
        row = results[g]
        best = min(v[1] for v in row.values())
        cells = []
        for c in cols:
            if c not in row:
                cells.append("–")
                continue
            med, low = row[c]
            cell = f"{fmt_time(low)}"
            if low == best:
                cell = f"**{cell}**"
            cell += f" · {fmt_time(med)}"
            fl = flops(g)
            if fl and low > 0:
                cell += f" · {fl / low:.0f} GF/s"
            cells.append(cell)
        lines.append(f"| {g} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# The column each group of own columns is measured against, by the start
# of the group's name: the issues' targets are ratios to it (a product with
# a row-major operand within 10% of the all-column-major one; an int8
# kernel against the loop a user would write).
BASELINES = {"matrix layouts": "cm = cm * cm", "matrix mad": "plain loop"}


def own_columns(default, native):
    """The groups measuring columns of their own besides COLUMNS (the
    multiply-accumulate groups: each int8 kernel the CPU has, the widened
    `i32` product, a plain loop; the layout groups: each pair of operand
    layouts): one table per group, every column in both runs, so that no
    measured column is left out of the report, with each fastest sample
    divided by the group's baseline column (BASELINES) in the same run."""
    out = []
    for g in sorted(set(default) | set(native), key=group_order):
        ids = set(default.get(g, {})) | set(native.get(g, {}))
        if ids <= set(COLUMNS):
            continue
        base = next((c for prefix, c in BASELINES.items() if g.startswith(prefix)), None)
        best = min(r[g][c][1] for r in (default, native) for c in r.get(g, {}))
        head = "| column | default target | native |"
        if base in ids:
            head += f" ÷ {base}, default | ÷ {base}, native |"
        lines = [f"### {g}", "", head, "|---" * (head.count("|") - 1) + "|"]
        order = sorted(ids, key=lambda c: (COLUMNS.index(c) if c in COLUMNS else len(COLUMNS), c))
        for c in order:
            cells, ratios = [], []
            for r in (default, native):
                row = r.get(g, {})
                if c not in row:
                    cells.append("–")
                    ratios.append("–")
                    continue
                med, low = row[c]
                cell = fmt_time(low)
                cells.append((f"**{cell}**" if low == best else cell) + f" · {fmt_time(med)}")
                ratios.append(f"{low / row[base][1]:.2f}" if base in row else "–")
            if base in ids:
                cells += ratios
            lines.append(f"| {c} | " + " | ".join(cells) + " |")
        out.append("\n".join(lines))
    return "\n\n".join(out)


def dev_ratio(dev):
    """The dev-profile target: the DSL's 4x4 f32 product against glam's."""
    row = dev.get("matrix mul 4x4 f32", {})
    if "dsl exact" not in row or "glam" not in row:
        return ""
    ratio = row["dsl exact"][1] / row["glam"][1]
    return (
        f"In this run the `matrix!` 4x4 `f32` product takes "
        f"{fmt_time(row['dsl exact'][1])}, {ratio:.2f}x glam's "
        f"{fmt_time(row['glam'][1])}."
    )


def ratio_table(num, den, columns, num_name, den_name):
    """For each group and column both runs have: den's time, num's time and
    num / den (fastest samples)."""
    groups = sorted(set(num) & set(den), key=group_order)
    lines = [
        f"| benchmark | column | {den_name} | {num_name} | ratio |",
        "|---|---|---|---|---|",
    ]
    worst = []
    for g in groups:
        for c in columns:
            if c in num[g] and c in den[g]:
                a, b = num[g][c][1], den[g][c][1]
                r = a / b
                worst.append((r, g, c))
                lines.append(f"| {g} | {c} | {fmt_time(b)} | {fmt_time(a)} | {r:.2f} |")
    return "\n".join(lines), sorted(worst, reverse=True)


def summary(worst, what):
    """The rows where the ratio is largest."""
    if not worst:
        return "(no rows in common)"
    top = ", ".join(f"{g} ({c}) {r:.2f}" for r, g, c in worst[:5])
    return f"Largest {what}: {top}."


# README's columns: those of the float groups, in BENCHMARKS.md's order.
README_COLUMNS = [c for c in COLUMNS if c not in ("scalar loop", "simd i32", "copy")]
README_NATIVE = [
    "matrix mul 4x4 f32",
    "matrix mul 8x8 f32",
    "matrix mul 16x16 f32",
    "matrix mul 32x32 f32",
    "matrix mul 64x64 f32",
    "matrix mul 4x4 f64",
    "matrix mul 8x8 f64",
    "matrix mul 4x4 i32",
    "matrix madd 4x4 f32",
    "matrix madd 8x8 f32",
    "matrix mul a*bT 16x16 f32",
    "matrix chain 16x16 f32",
    "matrix transpose 4x4",
    "matrix transpose 8x8",
]
README_DEFAULT = [
    "matrix mul 4x4 f32",
    "matrix mul 8x8 f32",
    "matrix mul 16x16 f32",
    "matrix mul 64x64 f32",
    "matrix mul 8x8 f64",
    "matrix mul 4x4 i32",
    "matrix madd 4x4 f32",
    "matrix transpose 8x8",
]
README_DEV = [
    "matrix mul 4x4 f32",
    "matrix mul 8x8 f32",
    "matrix mul 16x16 f32",
    "matrix mul 4x4 f64",
    "matrix mul 4x4 i32",
    "matrix madd 4x4 f32",
    "matrix chain 4x4 f32",
    "matrix chain 16x16 f32",
    "matrix transpose 4x4",
]
README_START = "<!-- benchmarks: written by benches/collect.py -->"
README_END = "<!-- end of benchmarks -->"


def short_ns(ns):
    """ns with three significant digits, thousands separated."""
    if ns >= 100:
        return f"{ns:,.0f}"
    if ns >= 10:
        return f"{ns:.1f}"
    return f"{ns:.2f}"


def short_table(results, groups, columns=README_COLUMNS):
    """Fastest sample per operation in ns, for README.md."""
    groups = [g for g in groups if g in results]
    cols = [c for c in columns if any(c in results[g] for g in groups)]
    lines = ["| operation | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for g in groups:
        row = results[g]
        best = min(row[c][1] for c in cols if c in row)
        cells = []
        for c in cols:
            if c not in row:
                cells.append("–")
            elif row[c][1] == best:
                cells.append(f"**{short_ns(row[c][1])}**")
            else:
                cells.append(short_ns(row[c][1]))
        lines.append(f"| {g.removeprefix('matrix ')} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_readme(path, default, native, dev, dev_o3, active):
    """Replaces the text between README_START and README_END in README.md."""
    with open(path) as f:
        text = f.read()
    start, end = text.find(README_START), text.find(README_END)
    if start < 0 or end < start:
        raise SystemExit(f"{path}: no benchmark markers")
    body = f"""{README_START}
Default target: every backend compiled in, the CPU's best chosen at run
time ({active} on the machine of this run):

{short_table(default, README_DEFAULT)}

`-C target-cpu=native` (the backend chosen at compile time):

{short_table(native, README_NATIVE)}

Dev profile (`cargo build` settings, default target), and the same with
`[profile.dev.package.matrix-core] opt-level = 3`:

{short_table(dev, README_DEV, ["matrix-core", "dsl exact", "glam", "nalgebra"])}

{short_table(dev_o3, README_DEV, ["matrix-core", "dsl exact", "glam", "nalgebra"]) if dev_o3 else ""}
"""
    with open(path, "w") as f:
        f.write(text[:start] + body + text[end:])


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return "unknown", "?", "?"
    model = re.search(r"model name\s*:\s*(.*)", text)
    mhz = re.search(r"cpu MHz\s*:\s*(.*)", text)
    cores = len(re.findall(r"^processor\s*:", text, re.M))
    return (model.group(1) if model else "unknown", mhz.group(1) if mhz else "?", cores)


def svg(default, native, path):
    """Small multiples: one panel per benchmark, one bar pair per column
    (default target light, native dark), bar length relative to the slowest
    in the panel, labelled with the native (or default) time."""
    groups = sorted(set(default) | set(native), key=group_order)
    panel_w, bar_h, gap, label_w = 600, 9, 4, 150
    y = 50
    parts = []
    for g in groups:
        cols = [c for c in COLUMNS if c in default.get(g, {}) or c in native.get(g, {})]
        values = [v[1] for r in (default.get(g, {}), native.get(g, {})) for v in r.values()]
        vmax = max(values) if values else 1.0
        parts.append(
            f'<text x="10" y="{y + 12}" font-weight="bold" font-size="13">{g}</text>'
        )
        y += 20
        for c in cols:
            parts.append(
                f'<text x="{label_w - 6}" y="{y + bar_h + 3}" font-size="11" '
                f'text-anchor="end">{c}</text>'
            )
            for i, (run, opacity) in enumerate(((default, 0.45), (native, 1.0))):
                v = run.get(g, {}).get(c)
                if v is None:
                    continue
                v = v[1]
                w = max(1.0, (panel_w - 90) * v / vmax)
                yy = y + i * bar_h
                parts.append(
                    f'<rect x="{label_w}" y="{yy}" width="{w:.1f}" height="{bar_h - 1}" '
                    f'fill="{COLORS[c]}" fill-opacity="{opacity}"/>'
                )
                parts.append(
                    f'<text x="{label_w + w + 4:.1f}" y="{yy + bar_h - 1}" font-size="9">'
                    f'{fmt_time(v)}</text>'
                )
            y += 2 * bar_h + gap
        y += 12
    write_svg(path, label_w + panel_w + 20, y + 10, [
        '<text x="10" y="20" font-size="15" font-weight="bold">Time per operation, '
        "fastest sample (shorter is better; bars relative to the slowest in each panel)</text>",
        '<text x="10" y="38" font-size="11">light: default target (backend chosen '
        "at run time) · dark: -C target-cpu=native</text>",
    ] + parts)


def write_svg(path, width, height, elements):
    """An SVG document of `elements` on a white background."""
    with open(path, "w") as f:
        f.write(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif">\n<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(elements) + "\n</svg>\n"
        )

SPEEDUP_RIVALS = ["glam", "nalgebra", "clang-19 off"]
SPEEDUP_OURS = ["matrix-core", "dsl exact", "dsl fast", "dsl #[dispatch]"]


def speedup_svg(results, path, caption):
    """The README's compact chart: for each product of README_NATIVE, how
    many times faster the fastest of our columns is than each rival (log
    scale, 1x marked), from the fastest samples of one run."""
    rows = []
    for g in README_NATIVE:
        r = results.get(g, {})
        ours = [r[c][1] for c in SPEEDUP_OURS if c in r]
        if not ours:
            continue
        rows.append((g.replace("matrix ", ""),
                     [(c, r[c][1] / min(ours)) for c in SPEEDUP_RIVALS if c in r]))
    bar_h, label_w, plot_w = 7, 120, 420
    lo, hi = math.log10(0.5), math.log10(max([x for _, rs in rows for _, x in rs] + [2]))
    def x_of(v):
        return label_w + plot_w * (math.log10(v) - lo) / (hi - lo)
    y = 56
    parts = []
    for name, rivals in rows:
        parts.append(f'<text x="{label_w - 6}" y="{y + 3 * bar_h / 2 + 3}" font-size="10" '
                     f'text-anchor="end">{name}</text>')
        for i, (c, v) in enumerate(rivals):
            x0, x1 = x_of(1.0), x_of(v)
            parts.append(f'<rect x="{min(x0, x1):.1f}" y="{y + i * bar_h}" '
                         f'width="{max(abs(x1 - x0), 1):.1f}" height="{bar_h - 1}" '
                         f'fill="{COLORS[c]}"/>')
            parts.append(f'<text x="{max(x0, x1) + 3:.1f}" y="{y + i * bar_h + bar_h - 1}" '
                         f'font-size="7">{v:.1f}x</text>')
        y += len(rivals) * bar_h + 5
    legend = " ".join(
        f'<rect x="{label_w + 140 * i}" y="36" width="9" height="9" fill="{COLORS[c]}"/>'
        f'<text x="{label_w + 140 * i + 13}" y="44" font-size="10">vs {c}</text>'
        for i, c in enumerate(SPEEDUP_RIVALS))
    one = x_of(1.0)
    write_svg(path, label_w + plot_w + 40, y + 8, [
        '<text x="10" y="16" font-size="12" font-weight="bold">matrix-core speed-up '
        "(rival time / our fastest column; right of the line: we are faster)</text>",
        f'<text x="10" y="30" font-size="9">{caption}</text>',
        legend,
        f'<line x1="{one:.1f}" y1="50" x2="{one:.1f}" y2="{y}" stroke="black" stroke-width="0.7"/>',
    ] + parts)

# The hand-kept end of BENCHMARKS.md: groups measured on their own (each
# table names its command and CPU), carried over by every run.
RECORDED = "<!-- recorded separately: kept by collect.py -->"

def recorded_section(path):
    try:
        old = open(path).read()
    except OSError:
        return ""
    at = old.find(RECORDED)
    return "\n" + old[at:] if at >= 0 else ""

def main():
    ap = argparse.ArgumentParser()
    for a in ("default", "native", "load", "rustc", "clang", "native-features",
              "default-features", "active", "md", "svg"):
        ap.add_argument("--" + a, required=True)
    ap.add_argument("--dev", default="")
    ap.add_argument("--dev-o3", default="")
    ap.add_argument("--before-default", default="")
    ap.add_argument("--before-native", default="")
    ap.add_argument("--readme", default="")
    # A paragraph under the title: which groups a partial re-run replaced.
    ap.add_argument("--note", default="")
    args = ap.parse_args()
    default, native = load(args.default), load(args.native)
    dev = load(args.dev) if args.dev else {}
    dev_o3 = load(args.dev_o3) if args.dev_o3 else {}
    before_default = load(args.before_default) if args.before_default else {}
    before_native = load(args.before_native) if args.before_native else {}
    model, mhz, cores = cpu_model()
    load_before, _, load_after = args.load.partition("|")
    svg(default, native, args.svg)
    speedup_svg(native, os.path.join(os.path.dirname(args.svg), "speedups.svg"),
                f"-C target-cpu=native, {model}, {cores} cores, fastest of 100 samples")
    ours = ["matrix-core", "matrix-core mul_to", "matrix-core mad_to",
            "matrix-core transpose_to", "dsl exact", "dsl fast", "dsl #[dispatch]", "dispatch(||)"]
    vs_native, vs_native_worst = ratio_table(default, native, ours, "default", "native")
    sections = []
    if before_default or before_native:
        bd, bd_worst = ratio_table(default, before_default, BEFORE_COLUMNS, "now", "before")
        bn, bn_worst = ratio_table(native, before_native, BEFORE_COLUMNS, "now", "before")
        sections.append(f"""## Before and after the dispatch layer

The same benchmarks built from commit d05f89c (before every backend was
compiled into every build), run on this machine just before this run; a
ratio below 1 is a speed-up. {summary(bd_worst, "default-target ratios")}
{summary(bn_worst, "native ratios")}

### Default target

{bd}

### `-C target-cpu=native`

{bn}
""")
    md = f"""# Benchmarks

Generated by `benches/run.sh` on {time.strftime('%Y-%m-%d %H:%M %Z')}; do not
edit by hand. Chart: [benches/benchmarks.svg](benches/benchmarks.svg).
{chr(10) + args.note + chr(10) if args.note else ""}
Each cell is **time per operation of the fastest criterion sample** ·
criterion's median estimate (`estimates.json`) · for products, GFLOP/s of
the fastest sample (`2 N³` flops, `+ N²` for `a * b + c`). Both are divided
by the batch of {BATCH} operations per criterion iteration. The fastest
sample leads because the machine is shared: other jobs inflate the median
by tens of percent at random, while the fastest of 100 samples is the code's
own speed. **Bold** is the fastest column of a row.

## Machine

- CPU: {model}, {cores} logical cores, {mhz} MHz reported by /proc/cpuinfo
- backend chosen at run time on this CPU: `{args.active}`
- `{args.rustc}`; `{args.clang}`
- default target features: `{args.default_features.strip()}`
- native target features (vector subset): `{args.native_features.strip()}`
- load average (1, 5, 15 min) before the runs: {load_before}; after: {load_after}.
  The machine is shared with other builds, so absolute numbers carry noise
  of tens of percent; compare columns within one row.

## Columns

- **matrix-core**: `Matrix` operators outside the macro (`&a * &b`,
  `a * b + c`, `transpose()`), each operation checking the detected backend.
- **matrix-core mul_to / mad_to / transpose_to**: `a.mul_to(&b, &mut
  out)`, `a.mad_to(&b, &c, &mut out)` and `a.transpose_to(&mut out)`,
  whose kernel writes the caller's matrix (the operators and `transpose()`
  return the result, which the caller then copies).
- **dispatch(||)**: the same batch loop inside
  `matrix_core::dispatch(#[inline(always)] || ...)`, compiled for the
  detected backend, each operation still checking it (one predictable
  branch).
- **dsl exact / fast**: the `matrix!` kernels (`benches/benches/matrix.rs`,
  module `dsl`, feature `dsl`; run.sh enables it when it compiles), without
  and with `#[fp_contract(fast)]`; one backend check per operation.
- **dsl load/store**: a `matrix!` kernel in the C kernels' own form, its
  operands loaded from `&[T]` slices and its result stored into a slice
  (dense loads are read in place; the product's kernel writes the slice).
- **dsl fast load/store**: the same kernel under `#[fp_contract(fast)]`:
  the form, and the contraction, that **clang-19 fast** measures.
- **dsl #[dispatch]**: a `#[dispatch]` kernel taking the whole batch, compiled
  once per backend, one check per call.
- **glam**: `Mat4` / `DMat4` (4x4 only). **nalgebra**: `SMatrix` (`mul_to`,
  `transpose_to`).
- **clang-19 off / fast**: Clang's matrix types in `benches/c/matrix.c`,
  `-O3 -fenable-matrix -march=native` with `-ffp-contract=off`, resp.
  `-ffp-contract=fast -mprefer-vector-width=512`; always built for the
  native CPU, in both tables. Each call runs the batch loop in C.
- **clang-19 off batch** (4x4): the `-ffp-contract=off` kernels in the
  form of **dsl #[dispatch]**, one C loop over the batch's distinct
  operands (`out[i] = a[i] * b[i]`), where **clang-19 off** runs one
  product on the same operands each time; the rival of the batch columns.
- **scalar loop / simd i32** (integer groups, `benches/benches/integers.rs`):
  the contract-order loop and the `i32` kernel on `i32` data (the floor);
  `matrix-core` picks per shape (narrow types widened onto the `i32` kernel
  where that pays). In the chain and map groups, **scalar loop** is one
  loop over plain arrays, with no matrix values: the floor of an
  element-wise pass.
- **copy** (transposes only): `*out = *a`, the same bytes moved without
  permuting them: the floor the batch loop itself sets.

Operands sit at fixed offsets within page-aligned allocations (`a` at 0x040,
`b` at 0x440, `c` at 0x840, the result at 0xC40), so 4K aliasing between
the result's stores and the operands' loads is the same in every run; see
`benches/src/lib.rs`.

## Default target (every backend compiled in, `{args.active}` chosen at run time)

{table(default) if default else "(no results)"}

## `RUSTFLAGS='-C target-cpu=native'` (the backend chosen at compile time)

{table(native) if native else "(no results)"}

## Default target against native

The price of choosing the backend at run time: each of our columns in the
default build divided by the same column in the native build (fastest
samples; below 1 the default build was faster in this run). {summary(vs_native_worst, "ratios")}

{vs_native}

## Every column of the multiply-accumulate and layout groups

The tables above show the columns every group shares; these groups have
columns of their own. The int8 multiply-accumulate groups time each int8
kernel on its own (`kernel <name>`, only those this CPU has; the others
are reported as SKIPPED while the benchmark runs), the product of both
operands widened to `i32` (**widened i32**) and the plain loop a user
would write (**plain loop**). The layout groups time one product per
pair of operand layouts (`cm` column-major, `rm` row-major; `mad` is
`Matrix::mad` with a zero addend, the `dsl` columns the `matrix!` kernels
`(m_t) a * b` and `a * b` on row-major types) against the all-column-major
product `cm = cm * cm`. Fastest sample · median, per operation; **bold**
is the fastest of the group; the last two columns divide each fastest
sample by the baseline's in the same run.

{own_columns(default, native) or "(no such groups in this run)"}

{"".join(sections)}
## Dev profile (opt-level 0, debug assertions, default target)

What `cargo build` users run: `cargo bench` with the bench profile set to
the dev profile's code generation (see run.sh), for the 4x4, 8x8 and 16x16
groups and the element-wise chains. With matrix-core unoptimised (this
table), `Matrix`'s operators run on loops written for opt-level 0, inlined
into the caller; `mul_to`, `mad_to` and the `matrix!` kernels' larger
products run on the kernels compiled inside matrix-core, whose speed is
matrix-core's own optimisation level (the next table). {dev_ratio(dev)}

{table(dev) if dev else "(no results: run benches/run.sh without SKIP_DEV)"}

### The same with `[profile.dev.package.matrix-core] opt-level = 3`

The override README recommends: matrix-core optimised, the user's crate
still at opt-level 0.

{table(dev_o3) if dev_o3 else "(no results: run benches/run.sh without SKIP_DEV)"}
"""
    # Read before the file is opened for writing, which empties it.
    recorded = recorded_section(args.md)
    with open(args.md, "w") as f:
        f.write(md + recorded)
    if args.readme:
        write_readme(args.readme, default, native, dev, dev_o3, args.active)


if __name__ == "__main__":
    main()
