"""Compares criterion bench binaries of two builds, run in turn.

    python3 benches/ab.py FILTER ROUNDS NAME=BINARY NAME=BINARY ...

Runs each binary's benchmarks matching FILTER (a criterion regex), ROUNDS
times, alternating the binaries so that the machine's slow spells fall on
both, and prints, per benchmark, each binary's lowest criterion median (ns
per criterion iteration) and the last over the first. The binaries are
`target/release/deps/matrix-<hash>` of each build (`cargo bench --no-run`
prints them); MATRIX_CORE_BACKEND passes through to force a backend.
Criterion's own files go to a temporary directory.
"""
import collections
import re
import subprocess
import sys
import tempfile

UNITS = {'ps': 1e-3, 'ns': 1.0, 'µs': 1e3, 'ms': 1e6, 's': 1e9}
# A result: the benchmark's name (on the same line when it is short, on the
# line before when criterion wraps it), then `time: [low median high]`.
TIME = re.compile(r'^(\S.*?)?\s+time:\s+\[\S+ \S+ (\S+) (\S+) ')


def medians(binary, filt, workdir):
    """(benchmark, median in ns) for each benchmark of one run."""
    out = subprocess.run(
        [binary, '--bench', filt, '--warm-up-time', '0.5', '--measurement-time', '1.5', '--noplot'],
        capture_output=True, text=True, cwd=workdir, check=True).stdout
    name = None
    for line in out.splitlines():
        m = TIME.match(line)
        if m:
            yield (m.group(1) or name).strip(), float(m.group(2)) * UNITS[m.group(3)]
            name = None
        elif line and not line[0].isspace() and not line.startswith('Benchmarking'):
            name = line


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    filt, rounds = argv[1], int(argv[2])
    builds = [a.split('=', 1) for a in argv[3:]]
    best = collections.defaultdict(dict)
    with tempfile.TemporaryDirectory() as workdir:
        for _ in range(rounds):
            for build, binary in builds:
                for bench, ns in medians(binary, filt, workdir):
                    best[bench][build] = min(ns, best[bench].get(build, ns))
    names = [b for b, _ in builds]
    print(f"{'benchmark':60s} " + ' '.join(f'{n:>10s}' for n in names) + '  last/first')
    for bench, by in best.items():
        t = [by.get(n, float('nan')) for n in names]
        print(f"{bench:60s} " + ' '.join(f'{x:10.1f}' for x in t) + f"  {t[-1] / t[0]:.3f}")


if __name__ == '__main__':
    main(sys.argv)
