"""Replay throughput: events folded per second, and decoded from JSON and folded per second.

    python benchmarks/replay_throughput.py [--games N] [--turns T]

Seeded games between random legal players are played once; their logs are then replayed
repeatedly for at least a second per variant. Figures are printed, never asserted (these
machines are noisy); the last line compares the two variants measured in the same run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from nataterra_core.game import decider_for, new_game
from nataterra_core.games.nataterra.bots import RandomPlayer, play
from nataterra_core.kernel import ReadLog, read_log, replay


def rate(label: str, events: int, run: Callable[[], object], min_seconds: float = 1.0) -> float:
    """Repeat ``run`` for at least ``min_seconds``; print and return events per second."""
    rounds = 0
    start = time.perf_counter()
    while True:
        run()
        rounds += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            break
    per_second = events * rounds / elapsed
    print(f"{label:<24} {per_second:>12,.0f} events/s  ({rounds} rounds, {elapsed:.2f} s)")
    return per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--turns", type=int, default=200)
    args = parser.parse_args()

    logs: list[bytes] = []
    for seed in range(args.games):
        session = new_game(seed=seed, options={"max_turns": args.turns})
        play(session, {seat: RandomPlayer(seed) for seat in session.header.seats})
        session.close()
        logs.append(session.log_bytes())
    parsed: list[ReadLog] = [read_log(data, decider_for) for data in logs]
    events = sum(len(getattr(r, "events", ())) for log in parsed for r in log.records)
    size = sum(len(data) for data in logs)
    records = sum(len(log.records) for log in parsed)
    print(f"{args.games} games: {records} records, {events} events, {size:,} bytes of JSON")

    def fold() -> None:
        for log in parsed:
            replay(log.decider, log.header, log.records)

    def decode_and_fold() -> None:
        for data in logs:
            log = read_log(data, decider_for)
            replay(log.decider, log.header, log.records)

    folded = rate("fold (evolve only)", events, fold)
    decoded = rate("decode JSON + fold", events, decode_and_fold)
    print(
        f"fold_events_per_s={folded:.0f} decode_fold_events_per_s={decoded:.0f} "
        f"ratio={folded / decoded:.2f}"
    )


if __name__ == "__main__":
    main()
