#!/usr/bin/env bash
# What compiling the combat hot path with mypyc would buy: an experiment, not a build.
#
#     bash benchmarks/compiled_core.sh [SECONDS]
#
# Copies the committed tree to a temporary directory, compiles the combat modules whose
# classes are plain Python (the msgspec Structs of model.py and messages.py cannot be
# native classes and stay interpreted) with mypyc from the dev dependencies, and runs
# benchmarks/combat_rounds.py twice in turn: the pure package, then the compiled copy.
# Nothing in the working tree is touched. Needs a C compiler and the Python headers.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-3}"
python="${PYTHON:-.venv/bin/python}"
mypyc="$(cd "$(dirname "$python")" && pwd)/mypyc"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git archive HEAD nataterra_core benchmarks | tar -x -C "$work"
modules=(
    nataterra_core/rules/combat/flow.py
    nataterra_core/rules/combat/folds.py
    nataterra_core/rules/combat/damage.py
    nataterra_core/rules/combat/policies.py
    nataterra_core/rules/combat/biome.py
    nataterra_core/rules/combat/tactics.py
    nataterra_core/kernel/dice.py
)
# Outside the project directory mypyc's setuptools run does not read our pyproject.toml.
(cd "$work" && "$mypyc" "${modules[@]}" > mypyc.log 2>&1) || {
    tail -20 "$work/mypyc.log"
    exit 1
}

echo "pure Python:"
"$python" benchmarks/combat_rounds.py --seconds "$seconds" | tail -1
echo "combat modules compiled with mypyc:"
PYTHONPATH="$work" "$python" "$work/benchmarks/combat_rounds.py" --seconds "$seconds" | tail -1
