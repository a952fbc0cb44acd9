#!/usr/bin/env bash
# Every benchmark on both builds: the pure package, then the compiled build (setup.py's
# NATATERRA_MYPYC=1), built by .ci/build-compiled in build/compiled. Prints each benchmark's
# figure lines (``name=value ...``: the earlier figures' names, then the medians with their
# ranges, and instructions per battle under cachegrind) per build.
#
#     bash benchmarks/both_builds.sh [BENCHMARK ...]     (default: all five below)
#
# Needs a C compiler and the Python headers; the combat benchmark's instruction counts need
# valgrind. Takes about ten minutes on a quiet 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
benchmarks=("$@")
if [ ${#benchmarks[@]} -eq 0 ]; then
    benchmarks=(playout time_split combat_rounds replay_throughput verify_workers)
fi
bash .ci/build-compiled
for name in "${benchmarks[@]}"; do
    echo "== $name, pure build"
    "$root/.venv/bin/python" "benchmarks/$name.py" | grep -E '^[a-z_0-9]+='
    echo "== $name, compiled build"
    (cd build/compiled && PYTHONPATH="$PWD:$PWD/adapters" \
        "$root/.venv/bin/python" "benchmarks/$name.py" | grep -E '^[a-z_0-9]+=')
done
