"""Batch verification: how much a second worker process speeds up verifying many logs.

    python benchmarks/verify_workers.py [--logs N] [--turns T] [--workers W] [--pairs N]

Writes ``--logs`` logs of seeded games between random players (at most ``--turns`` turns)
to a temporary folder, then verifies the whole folder in turns with one process and with
``--workers W``, two ways, each in interleaved pairs timed by the wall clock (the work is
spread over processes; see ``pairs.py``):

- *in process*: :func:`~nataterra_adapters.batch_verify.verify_many` called here, workers
  forked from this process: how the verification itself scales
  (``verify_speedup_<W>_workers_in_process``);
- *command*: the command a tournament runs, ``nataterra verify --workers 1`` and
  ``--workers W``, each a fresh process, so a turn includes starting Python and importing the
  engine (about 0.9 s on a quiet machine, paid once by both sides) as it does for a user. The
  last line is ``verify_speedup_<W>_workers=<median>`` with its range (time with one process
  divided by time with W). The engine's modules are compiled to bytecode first, as ``pip
  install`` does: a checkout run with ``PYTHONDONTWRITEBYTECODE`` set (as on these machines)
  would otherwise compile some 130 modules from source at every start, about 0.5 s that no
  installed copy pays.

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import compileall
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nataterra_adapters
from nataterra_adapters.batch_verify import verify_many
from pairs import MIN_PAIRS, build_name, interleaved, load_note, summary

import nataterra_core
from nataterra_core.game import new_game
from nataterra_core.games.nataterra.bots import RandomPlayer, play


def write_logs(folder: Path, count: int, turns: int) -> list[Path]:
    """``count`` finished logs of random games, one file each."""
    paths = []
    for seed in range(count):
        session = new_game(seed=seed, options={"max_turns": turns})
        play(session, {seat: RandomPlayer(seed) for seat in session.header.seats})
        session.close()
        path = folder / f"game-{seed:04}.jsonl"
        path.write_bytes(session.log_bytes())
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--logs", type=int, default=200)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS)
    args = parser.parse_args()

    for package in (nataterra_core, nataterra_adapters):
        compileall.compile_dir(Path(package.__path__[0]), quiet=1)
    with tempfile.TemporaryDirectory() as directory:
        paths = write_logs(Path(directory), args.logs, args.turns)

        command = [str(Path(sys.executable).with_name("nataterra")), "verify"]

        def run(workers: int) -> float:
            done = subprocess.run(
                [*command, "--workers", str(workers), *map(str, paths)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                check=False,
            )
            if done.returncode != 0:
                raise AssertionError(f"a benchmark log did not verify: {done.stderr[-500:]!r}")
            return len(paths)

        def in_process(workers: int) -> float:
            verdicts = list(verify_many(paths, workers=workers))
            if not all(verdicts):
                raise AssertionError("a benchmark log did not verify")
            return len(paths)

        inner = interleaved(
            lambda: in_process(1),
            lambda: in_process(args.workers),
            args.pairs,
            clock=time.perf_counter,
        )
        rates = interleaved(
            lambda: run(1), lambda: run(args.workers), args.pairs, clock=time.perf_counter
        )
    for index, (one, many) in enumerate(inner):
        print(
            f"pair {index} in process: 1 process {one:>6,.1f} logs/s, "
            f"{args.workers} workers {many:>6,.1f} logs/s (wall clock)"
        )
    in_process_name = f"verify_speedup_{args.workers}_workers_in_process"
    print(summary(in_process_name, [many / one for one, many in inner]))
    for index, (one, many) in enumerate(rates):
        print(
            f"pair {index} command: 1 process {one:>6,.1f} logs/s, "
            f"{args.workers} workers {many:>6,.1f} logs/s (wall clock)"
        )
    print(
        f"{args.logs} logs; build {build_name()}, {load_note()}; "
        f"median 1 process {statistics.median(r for r, _ in rates):,.1f} logs/s"
    )
    print(summary(f"verify_speedup_{args.workers}_workers", [many / one for one, many in rates]))


if __name__ == "__main__":
    main()
