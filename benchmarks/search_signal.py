"""How far apart the search player's root moves are, against the noise of the dice: the
signal a search at a given budget has to find, per game and playout depth.

    python benchmarks/search_signal.py [--game ID ...] [--iterations 200] [--decisions 8]
        [--every 9] [--playout-depth 40 ...] [--seed 1001]

For each game it plays a seeded heuristic two-player game and, at each decision whose
number is a multiple of ``--every`` and that offers more than two legal commands
(``--decisions`` of them), runs the search player
for ``--iterations`` iterations with playouts cut at each ``--playout-depth`` (default: the
game's own). The root's candidates are tried in rounds on a shared sample and dice
(:attr:`SearchPlayer.last_rounds <nataterra_core.search.ismcts.SearchPlayer.last_rounds>`),
so each alternative's score minus the policy's choice's in the same round is a paired
difference. One row per game and depth::

    game=<id> depth=<d> decisions=<n> alternatives=<a> rms_lead=<l> paired_sd=<s>
    samples_for_one_se=<k> iterations_per_cpu_s=<r>

``rms_lead``: the root mean square of the alternatives' mean lead over the policy's choice
(how much the moves differ, as the evaluation sees them); ``paired_sd``: the mean standard
deviation of one paired difference (the dice's noise); ``samples_for_one_se``: the rounds a
candidate needs for its standard error to shrink to the typical lead, ``(sd / lead)²``. A
search whose budget gives its candidates fewer rounds than that mostly reads the dice.
Nothing is asserted (a measurement; ``docs/BOTS.md`` has the table).
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Iterator
from typing import Any

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import system
from nataterra_core.search.catalogue import make_player, playout_depth_of
from nataterra_core.search.ismcts import SearchPlayer

TURNS = 100


def positions(game: str, seed: int, every: int, count: int) -> Iterator[tuple[Any, list[Any]]]:
    """(view, legal) of the decisions of a seeded heuristic game whose number is a multiple
    of ``every`` and that offer more than two legal commands, ``count`` of them at most."""
    record = system(game)
    options = dict(record.default_options)
    if "max_turns" in record.options.__struct_fields__:
        options["max_turns"] = TURNS
    session = new_game(2, game=game, seed=seed, options=options)
    bots = {s: make_player(record, "heuristic", n) for n, s in enumerate(session.header.seats)}
    seen = found = 0
    while session.outcome() is None and found < count:
        seat = session.acting_seats()[0]
        legal = list(session.legal_commands(seat))
        view = record.seat_view(session.state, seat)
        seen += 1
        if len(legal) > 2 and seen % every == 0:
            found += 1
            yield view, legal
        session.apply(seat, bots[seat].choose(view, legal))


def leads(rounds: dict[Any, dict[int, float]]) -> Iterator[tuple[float, float]]:
    """(mean, standard deviation) of each alternative's paired lead over the first candidate
    (the policy's choice), over the rounds both were tried (two at least)."""
    candidates = list(rounds)
    if not candidates:
        return
    mine = rounds[candidates[0]]
    for other in candidates[1:]:
        theirs = rounds[other]
        paired = [theirs[r] - mine[r] for r in theirs if r in mine]
        if len(paired) < 2:
            continue
        mean = sum(paired) / len(paired)
        spread = sum((d - mean) ** 2 for d in paired) / (len(paired) - 1)
        yield mean, math.sqrt(spread)


def measure(game: str, depth: int, args: argparse.Namespace) -> str:
    """The row of one game at one playout depth."""
    record = system(game)
    found: list[tuple[float, float]] = []
    iterations = decisions = 0
    cpu = 0.0
    for n, (view, legal) in enumerate(positions(game, args.seed, args.every, args.decisions)):
        search = make_player(record, f"search:{args.iterations}", 5 + n)
        assert isinstance(search, SearchPlayer)
        search.playout_depth = depth
        start = time.process_time()
        search.choose(view, legal)
        cpu += time.process_time() - start
        iterations += search.stats.iterations
        decisions += 1
        found.extend(leads(search.last_rounds))
    if not found:
        return f"game={game} depth={depth} decisions={decisions} alternatives=0"
    rms = math.sqrt(sum(lead * lead for lead, _ in found) / len(found))
    noise = sum(sd for _, sd in found) / len(found)
    needed = (noise / rms) ** 2 if rms > 0 else math.inf
    return (
        f"game={game} depth={depth} decisions={decisions} alternatives={len(found)} "
        f"rms_lead={rms:.4f} paired_sd={noise:.3f} samples_for_one_se={needed:.0f} "
        f"iterations_per_cpu_s={iterations / max(cpu, 1e-9):.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--decisions", type=int, default=8)
    parser.add_argument("--every", type=int, default=9)
    parser.add_argument("--playout-depth", type=int, action="append")
    parser.add_argument("--seed", type=int, default=1001)
    args = parser.parse_args()
    for game in args.game or ("nataterra", "kaladan", "battlelore", "liars-dice"):
        for depth in args.playout_depth or (playout_depth_of(system(game)),):
            print(measure(game, depth, args), flush=True)


if __name__ == "__main__":
    main()
