#!/usr/bin/env bash
# Runs the criterion benchmarks three times: at the default target (x86_64:
# SSE2), with RUSTFLAGS='-C target-cpu=native', and at the dev profile's
# settings (opt-level 0, debug assertions, overflow checks; default target;
# the 4x4 groups and the chain only), then collects criterion's estimates
# (<target>/criterion/**/new/estimates.json) into BENCHMARKS.md,
# benches/benchmarks.svg and the tables of README.md.
#
#   benches/run.sh                 # both runs, short measurement times
#   BENCH_ARGS='--measurement-time 5' benches/run.sh
#   BENCH_FILTER='matrix mul 4x4' benches/run.sh
#   COLLECT_ONLY=1 benches/run.sh  # rewrite the report from existing results
#   SKIP_DEV=1 benches/run.sh      # without the dev-profile run
#   BENCH_FEATURES= benches/run.sh # without the dsl columns (default: with
#                                  # them when `--features dsl` builds)
#
# The default run uses $CARGO_TARGET_DIR (default <root>/target), the native
# run $CARGO_TARGET_DIR/native and the dev run $CARGO_TARGET_DIR/dev-bench,
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

run() {
    local dir=$1 flags=$2
    rm -rf "$dir/criterion"
    # shellcheck disable=SC2086
    CARGO_TARGET_DIR=$dir RUSTFLAGS=$flags \
        cargo bench -p matrix-benches --bench matrix --bench integers \
        ${BENCH_FEATURES:+--features "$BENCH_FEATURES"} \
        -- $ARGS ${FILTER:+"$FILTER"}
}

if [ -z "${COLLECT_ONLY:-}" ]; then
    LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
    run "$TARGET" ""
    run "$TARGET/native" "-C target-cpu=native"
    if [ -z "${SKIP_DEV:-}" ]; then
        # `cargo bench` with the dev profile's code generation: what a
        # `cargo build` user runs. Larger shapes take seconds per sample at
        # opt-level 0 in the other libraries, so only the 4x4 groups and the
        # element-wise chain run.
        CARGO_PROFILE_BENCH_OPT_LEVEL=0 \
        CARGO_PROFILE_BENCH_DEBUG_ASSERTIONS=true \
        CARGO_PROFILE_BENCH_OVERFLOW_CHECKS=true \
        CARGO_PROFILE_BENCH_INCREMENTAL=true \
        CARGO_PROFILE_BENCH_CODEGEN_UNITS=256 \
        FILTER=${FILTER:-'4x4|chain'} run "$TARGET/dev-bench" ""
    fi
    LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
    echo "$LOAD_BEFORE|$LOAD_AFTER" > "$TARGET/native/bench-load.txt"
fi

python3 "$ROOT/benches/collect.py" \
    --default "$TARGET/criterion" \
    --native "$TARGET/native/criterion" \
    --dev "$TARGET/dev-bench/criterion" \
    --load "$(cat "$TARGET/native/bench-load.txt" 2>/dev/null || echo '?|?')" \
    --rustc "$(rustc -V)" \
    --clang "$( (clang-19 --version 2>/dev/null || echo 'clang-19 not found') | head -1)" \
    --native-features "$(rustc --print cfg -C target-cpu=native | sed -n 's/^target_feature="\(.*\)"/\1/p' | grep -E '^(sse2|sse4.1|avx|avx2|fma|avx512f|avx512vl|avx512dq|avx512bw)$' | tr '\n' ' ')" \
    --default-features "$(rustc --print cfg | sed -n 's/^target_feature="\(.*\)"/\1/p' | tr '\n' ' ')" \
    --md "$ROOT/BENCHMARKS.md" \
    --svg "$ROOT/benches/benchmarks.svg" \
    --readme "$ROOT/README.md"
echo "wrote $ROOT/BENCHMARKS.md, $ROOT/benches/benchmarks.svg and README.md's tables"
