"""Replay throughput of the kernel: events folded per second, and decoded from JSON and folded.

    python benchmarks/replay_throughput.py [--turns N]

A long seeded game is played once; then its log is replayed repeatedly for at least a
second per variant. Figures are printed, never asserted (these machines are noisy); the
last line compares the two variants in the same run.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from nataterra_adapters.highroll import HighRoll

from nataterra_core.kernel import Session, read_log, replay, seed_from_number


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
    print(f"{label:<32} {per_second:>12,.0f} events/s  ({rounds} replays, {elapsed:.2f} s)")
    return per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=50_000)
    args = parser.parse_args()

    decider = HighRoll()
    server_seed, game_id = seed_from_number(1)
    session = Session.new(
        decider,
        seats=("north", "south"),
        server_seed=server_seed,
        game_id=game_id,
        options={"turns": args.turns},
    )
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        session.apply(seat, session.legal_commands(seat)[0])
    session.close()
    data = session.log_bytes()
    log = read_log(data, lambda header: decider)
    events = [event for record in log.records for event in getattr(record, "events", ())]
    print(f"game: {len(log.records)} records, {len(events)} events, {len(data):,} bytes")

    def fold() -> object:
        return replay(decider, log.header, log.records)

    def decode_and_fold() -> object:
        parsed = read_log(data, lambda header: decider)
        return replay(decider, parsed.header, parsed.records)

    folded = rate("fold (evolve only)", len(events), fold)
    decoded = rate("decode JSON + fold", len(events), decode_and_fold)
    print(
        f"fold_events_per_s={folded:.0f} decode_fold_events_per_s={decoded:.0f} "
        f"ratio={folded / decoded:.2f}"
    )


if __name__ == "__main__":
    main()
