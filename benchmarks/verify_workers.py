"""Batch verification: how much a second worker process speeds up verifying many logs.

    python benchmarks/verify_workers.py [--logs N] [--turns T] [--workers W] [--pairs N]

Writes ``--logs`` logs of seeded games between random players (at most ``--turns`` turns)
to a temporary folder, then verifies the whole folder in turns, in this process
(``verify_many(..., workers=1)``) and with ``--workers`` worker processes, as
``nataterra verify`` does. The work is spread over processes, so each turn is timed by the
wall clock, in interleaved pairs (``pairs.py``); a turn includes starting the workers. The
last line is ``verify_speedup_<W>_workers=<median>`` with its range (time with one process ÷
time with W). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from nataterra_adapters.cli.verify_many import verify_many
from pairs import MIN_PAIRS, build_name, interleaved, load_note, summary

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

    with tempfile.TemporaryDirectory() as directory:
        paths = write_logs(Path(directory), args.logs, args.turns)

        def run(workers: int) -> float:
            verdicts = list(verify_many(paths, workers=workers))
            if not all(verdict.valid for verdict in verdicts):
                raise AssertionError("a benchmark log did not verify")
            return len(verdicts)

        rates = interleaved(
            lambda: run(1), lambda: run(args.workers), args.pairs, clock=time.perf_counter
        )
    for index, (one, many) in enumerate(rates):
        print(
            f"pair {index}: 1 process {one:>6,.1f} logs/s, "
            f"{args.workers} workers {many:>6,.1f} logs/s (wall clock)"
        )
    print(
        f"{args.logs} logs; build {build_name()}, {load_note()}; "
        f"median 1 process {statistics.median(r for r, _ in rates):,.1f} logs/s"
    )
    print(summary(f"verify_speedup_{args.workers}_workers", [many / one for one, many in rates]))


if __name__ == "__main__":
    main()
