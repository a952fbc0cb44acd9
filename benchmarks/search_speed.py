"""Search-player iterations per CPU second, before and after cutting playouts, per game.

    python benchmarks/search_speed.py [--iterations N] [--positions P] [--rounds R] [--game ID]

For each game with an evaluation (``Hooks.evaluate``: Nataterra, Kaladan, BattleLore, Liar's
Dice) it takes ``--positions`` decisions (two or more legal commands) spread over a seeded
game between heuristic players, then searches each of them with ``--iterations`` iterations
two ways, in the same run and alternately (``--rounds`` times, so the machine's load falls on
both alike):

* *before*: every playout played to the game's end by the heuristic policy (the search
  player until session 11, and still every system without an evaluation);
* *after*: playouts cut at ``PLAYOUT_DEPTH`` commands and scored by the game's evaluation.

Both search the same decisions with the same seeds (the root's candidates, the tree and the
policy are the same code). Rates are iterations per second of this process's CPU time; the
ratio is after / before. One line per game, ``game=<id> before=<it/cpu s> after=<it/cpu s>
ratio=<after/before>``. Figures are printed, never asserted (these machines are noisy).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import RuleSystem, system
from nataterra_core.search.catalogue import PLAYOUT_DEPTH
from nataterra_core.search.ismcts import SearchPlayer

GAMES = ("nataterra", "kaladan", "battlelore", "liars-dice")
TURNS = 30
"""``max_turns`` of the games the positions come from (where the game has the option)."""


def positions(record: RuleSystem, count: int) -> list[tuple[Any, str]]:
    """``count`` decisions (state, seat) with two or more legal commands, spread over a
    seeded heuristic game."""
    options = dict(record.default_options)
    if "max_turns" in record.options.__struct_fields__:
        options["max_turns"] = TURNS
    session = new_game(2, game=record.id, seed=3, options=options)
    bots = {s: record.players["heuristic"](i) for i, s in enumerate(session.header.seats)}
    found: list[tuple[Any, str]] = []
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        legal = session.legal_commands(seat)
        if len(legal) > 1:
            found.append((session.state, seat))
        session.apply(seat, bots[seat].choose(record.seat_view(session.state, seat), legal))
    step = max(1, len(found) // count)
    return found[::step][:count]


def searcher(record: RuleSystem, iterations: int, cut: bool) -> SearchPlayer:
    factory = record.players["heuristic"]
    assert record.hooks.determiniser is not None
    return SearchPlayer(
        1,
        decider=record.decider(None),
        seat_view=record.seat_view,
        determiniser=record.hooks.determiniser,
        pack=record.load_pack(None) if record.load_pack is not None else None,
        rollout=lambda s: factory(s),
        iterations=iterations,
        evaluate=record.hooks.evaluate if cut else None,
        playout_depth=PLAYOUT_DEPTH,
    )


def run(
    record: RuleSystem, found: list[tuple[Any, str]], iterations: int, cut: bool
) -> tuple[int, float]:
    """Iterations run and CPU seconds spent searching every position once."""
    player = searcher(record, iterations, cut)
    decider = record.decider(None)
    start = time.process_time()
    for state, seat in found:
        player.choose(record.seat_view(state, seat), decider.decision(state).legal(seat))
    return player.stats.iterations, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=16)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--game", choices=GAMES, action="append")
    args = parser.parse_args()
    for game in args.game or GAMES:
        record = system(game)
        found = positions(record, args.positions)
        totals = {False: [0, 0.0], True: [0, 0.0]}
        for _ in range(args.rounds):
            for cut in (False, True):
                done, cpu = run(record, found, args.iterations, cut)
                totals[cut][0] += done
                totals[cut][1] += cpu
        before = totals[False][0] / totals[False][1]
        after = totals[True][0] / totals[True][1]
        print(
            f"game={game} positions={len(found)} before={before:.1f} after={after:.1f} "
            f"ratio={after / before:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
