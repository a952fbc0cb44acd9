"""Replay throughput: events folded per CPU second, and decoded from JSON and folded.

    python benchmarks/replay_throughput.py [--games N] [--turns T] [--seconds S] [--pairs N]

Seeded games between random legal players are played once; their logs are then replayed
in turns, the two variants interleaved (``--pairs``, at least 6, each turn at least
``--seconds`` of CPU time, see ``pairs.py``). The last line gives both rates as medians
over the pairs with their ranges (``replay_fold_events_per_s``,
``replay_decode_fold_events_per_s``); the line before keeps the earlier figures' names.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from pairs import MIN_PAIRS, build_name, interleaved, load_note, summary

from nataterra_core.game import decider_for, new_game
from nataterra_core.games.nataterra.bots import RandomPlayer, play
from nataterra_core.kernel import ReadLog, read_log, replay


def repeated(events: int, run: Callable[[], object], seconds: float) -> Callable[[], float]:
    """A turn that repeats ``run`` for at least ``seconds`` of CPU time; its events folded."""

    def turn() -> float:
        done = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            run()
            done += events
        return done

    return turn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per turn")
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS)
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

    rates = interleaved(
        repeated(events, fold, args.seconds),
        repeated(events, decode_and_fold, args.seconds),
        args.pairs,
    )
    for index, (folded_rate, decoded_rate) in enumerate(rates):
        print(
            f"pair {index}: fold {folded_rate:>10,.0f} events/s, "
            f"decode JSON + fold {decoded_rate:>10,.0f} events/s (CPU time)"
        )
    folded = statistics.median(rate for rate, _ in rates)
    decoded = statistics.median(rate for _, rate in rates)
    print(f"build {build_name()}, {load_note()}")
    print(
        f"fold_events_per_s={folded:.0f} decode_fold_events_per_s={decoded:.0f} "
        f"ratio={folded / decoded:.2f}"
    )
    print(
        summary("replay_fold_events_per_s", [rate for rate, _ in rates], 0)
        + " "
        + summary("replay_decode_fold_events_per_s", [rate for _, rate in rates], 0)
    )


if __name__ == "__main__":
    main()
