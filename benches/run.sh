#!/usr/bin/env bash
# Runs the criterion benchmarks: at the default target (every backend
# compiled in, the CPU's chosen at run time), with RUSTFLAGS='-C
# target-cpu=native', and twice at the dev profile's settings (opt-level 0,
# debug assertions, overflow checks; the 4x4, 8x8 and 16x16 groups and the
# chains), once as is and once with matrix-core at opt-level 3; then
# collects criterion's estimates (<target>/criterion/**/new/estimates.json)
# into BENCHMARKS.md, benches/benchmarks.svg and the tables of README.md.
#
#   benches/run.sh                 # every run, short measurement times
#   BENCH_ARGS='--measurement-time 5' benches/run.sh
#   BENCH_FILTER='matrix mul 4x4' benches/run.sh
#   COLLECT_ONLY=1 benches/run.sh  # rewrite the report from existing results
#   SKIP_DEV=1 benches/run.sh      # without the dev-profile runs
#   BEFORE=/path/to/old/checkout benches/run.sh
#                                  # also the default and native runs of an
#                                  # older checkout, compared in BENCHMARKS.md
#   BENCH_FEATURES= benches/run.sh # without the dsl columns (default: with
#                                  # them when `--features dsl` builds)
#   BENCH_NOTE='...' COLLECT_ONLY=1 benches/run.sh
#                                  # a paragraph under the report's title,
#                                  # saying which groups a partial re-run
#                                  # replaced
#
# The default run uses $CARGO_TARGET_DIR (default <root>/target), the native
# run $CARGO_TARGET_DIR/native and the dev runs $CARGO_TARGET_DIR/dev-bench
# and $CARGO_TARGET_DIR/dev-o3-bench (an older checkout: its own target/),
# so the builds do not invalidate each other and their criterion
# directories stay apart.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
TARGET=${CARGO_TARGET_DIR:-$ROOT/target}
ARGS=${BENCH_ARGS:---warm-up-time 1 --measurement-time 2}
FILTER=${BENCH_FILTER:-}

# Column (f), the matrix! kernels, when the macro compiles them.
if [ -z "${BENCH_FEATURES+x}" ]; then
    if CARGO_TARGET_DIR=$TARGET cargo check -q -p matrix-benches --benches --features dsl 2>/dev/null; then
        BENCH_FEATURES=dsl
    else
        echo "note: the dsl columns are skipped (matrix-benches --features dsl does not build)"
        BENCH_FEATURES=
    fi
fi

# run DIR RUSTFLAGS [cargo options...]
run() {
    local dir=$1 flags=$2
    shift 2
    rm -rf "$dir/criterion"
    # shellcheck disable=SC2086
    CARGO_TARGET_DIR=$dir RUSTFLAGS=$flags \
        cargo bench "$@" -p matrix-benches --bench matrix --bench integers \
        ${BENCH_FEATURES:+--features "$BENCH_FEATURES"} \
        -- $ARGS ${FILTER:+"$FILTER"}
}

# The dev profile's code generation for `cargo bench`: what a `cargo build`
# user runs. Larger shapes take milliseconds per operation at opt-level 0 in
# the other libraries, so only the small groups and the chains run.
dev_run() {
    CARGO_PROFILE_BENCH_OPT_LEVEL=0 \
    CARGO_PROFILE_BENCH_DEBUG_ASSERTIONS=true \
    CARGO_PROFILE_BENCH_OVERFLOW_CHECKS=true \
    CARGO_PROFILE_BENCH_INCREMENTAL=true \
    CARGO_PROFILE_BENCH_CODEGEN_UNITS=256 \
    FILTER=${FILTER:-'4x4|8x8|16x16|chain'} run "$@"
}

if [ -z "${COLLECT_ONLY:-}" ]; then
    LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
    if [ -n "${BEFORE:-}" ]; then
        (cd "$BEFORE" && ROOT=$BEFORE TARGET=$BEFORE/target && run "$BEFORE/target" "" \
            && run "$BEFORE/target/native" "-C target-cpu=native")
    fi
    run "$TARGET" ""
    run "$TARGET/native" "-C target-cpu=native"
    if [ -z "${SKIP_DEV:-}" ]; then
        dev_run "$TARGET/dev-bench" ""
        dev_run "$TARGET/dev-o3-bench" "" --config 'profile.bench.package.matrix-core.opt-level=3'
    fi
    LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "$LOAD_BEFORE|$LOAD_AFTER" > "$TARGET/native/bench-load.txt"
fi

python3 "$ROOT/benches/collect.py" \
    --default "$TARGET/criterion" \
    --native "$TARGET/native/criterion" \
    --dev "$TARGET/dev-bench/criterion" \
    --dev-o3 "$TARGET/dev-o3-bench/criterion" \
    ${BEFORE:+--before-default "$BEFORE/target/criterion" --before-native "$BEFORE/target/native/criterion"} \
    --active "$(CARGO_TARGET_DIR=$TARGET cargo run -q --release -p matrix-benches --bin active-backend)" \
    --load "$(cat "$TARGET/native/bench-load.txt" 2>/dev/null || echo '?|?')" \
    --rustc "$(rustc -V)" \
    --clang "$( (clang-19 --version 2>/dev/null || echo 'clang-19 not found') | head -1)" \
    --native-features "$(rustc --print cfg -C target-cpu=native | sed -n 's/^target_feature="\(.*\)"/\1/p' | grep -E '^(sse2|sse4.1|avx|avx2|fma|avx512f|avx512vl|avx512dq|avx512bw)$' | tr '\n' ' ')" \
    --default-features "$(rustc --print cfg | sed -n 's/^target_feature="\(.*\)"/\1/p' | tr '\n' ' ')" \
    --md "$ROOT/BENCHMARKS.md" \
    --svg "$ROOT/benches/benchmarks.svg" \
    --readme "$ROOT/README.md" \
    ${BENCH_NOTE:+--note "$BENCH_NOTE"}
echo "wrote $ROOT/BENCHMARKS.md, $ROOT/benches/benchmarks.svg and README.md's tables"
