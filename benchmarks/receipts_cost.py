"""What receipts add to serving a game: records applied per CPU second, with and without
every seat's (and the spectator's) view chain and a signed receipt per record.

    python benchmarks/receipts_cost.py [--games N] [--turns T] [--pairs N]

Seeded Nataterra games between random legal players are played once; then, in interleaved
turns (``pairs.py``), their commands are applied again to a fresh session (what a server
does per call), alone or followed by what ``game.apply`` adds (docs/RECEIPTS.md): each new
record's view line for every viewer, the chains, and one Ed25519 receipt. The last line
gives both rates as medians with their ranges and their ratio. Figures are printed, never
asserted.
"""

from __future__ import annotations

import argparse
from typing import Any

from pairs import MIN_PAIRS, build_name, interleaved, load_note, summary

from nataterra_core.game import GameSession, decider_for, new_game
from nataterra_core.kernel import CommandRecord, RandomPlayer, play, read_log
from nataterra_core.kernel.receipts import KeyPair, ViewChains
from nataterra_core.kernel.registry import system

KEY = KeyPair(bytes(range(32)))


def recorded(games: int, turns: int) -> list[tuple[int, list[tuple[str, Any]]]]:
    """Each game's seed and its logged (seat, command) pairs."""
    record = system("nataterra")
    found = []
    for seed in range(1, games + 1):
        session = new_game(2, seed=seed, options={"max_turns": turns})
        players = {seat: RandomPlayer(seed * 10 + i) for i, seat in enumerate(session.header.seats)}
        play(session, players, record.seat_view)
        log = read_log(session.log_bytes(), decider_for)
        commands = [(r.seat, r.command) for r in log.records if isinstance(r, CommandRecord)]
        found.append((seed, commands))
    return found


def replayed(games: list[tuple[int, list[tuple[str, Any]]]], receipts: bool) -> float:
    """Apply every game's commands again; the records appended."""
    records = 0
    for seed, commands in games:
        session: GameSession = new_game(2, seed=seed, options={"max_turns": 1000})
        chains = ViewChains(session.header.game_id, session.header.seats, session.decider)
        for seat, command in commands:
            session.apply(seat, command)
            if receipts:
                chains.extend(session.lines[len(chains) :])
                chains.receipt(KEY, seat, len(session.lines) - 1)
        records += len(session.lines)
    return float(records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS)
    args = parser.parse_args()
    games = recorded(args.games, args.turns)
    rates = interleaved(
        lambda: replayed(games, receipts=False), lambda: replayed(games, receipts=True), args.pairs
    )
    plain = [a for a, _ in rates]
    signed = [b for _, b in rates]
    ratio = [a / b for a, b in rates]
    print(f"build={build_name()} {load_note()}")
    print(
        f"{summary('apply_records_per_s', plain, 0)} "
        f"{summary('apply_with_receipts_records_per_s', signed, 0)} "
        f"{summary('receipts_cost_ratio', ratio)}"
    )


if __name__ == "__main__":
    main()
