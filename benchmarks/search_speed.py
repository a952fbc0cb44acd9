"""Search-player iterations per CPU second, before and after a change, per game.

    python benchmarks/search_speed.py [--iterations N] [--positions P] [--rounds R] [--game ID]
    python benchmarks/search_speed.py --against REF [...]

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

``--against REF`` compares code instead: the search as it plays (cut playouts) in the
repository's tree at the git revision ``REF`` (*before*, extracted with ``git archive`` into a
temporary folder) and in this tree (*after*), each round one child process per tree,
alternately. Both search the same decisions with the same seeds, so a change meant only to
make iterations cheaper must give the same choices: the line ends ``same_choices=yes``
(``no`` says the change altered what the player does, and the rates compare two players).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
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
) -> tuple[int, float, str]:
    """Iterations run, CPU seconds spent searching every position once, and a digest of
    the commands chosen."""
    player = searcher(record, iterations, cut)
    decider = record.decider(None)
    chosen = hashlib.sha256()
    start = time.process_time()
    for state, seat in found:
        command = player.choose(record.seat_view(state, seat), decider.decision(state).legal(seat))
        chosen.update(repr(command).encode())
    return player.stats.iterations, time.process_time() - start, chosen.hexdigest()


def measure(game: str, iterations: int, count: int) -> None:
    """One child's measurement (``--measure``): the cut search of this process's tree on
    ``game``, printed as a JSON line."""
    record = system(game)
    done, cpu, chosen = run(record, positions(record, count), iterations, True)
    print(json.dumps({"iterations": done, "cpu": cpu, "chosen": chosen}), flush=True)


def tree_at(ref: str, into: Path) -> Path:
    """The repository's files at ``ref`` (``git archive``), under ``into``."""
    root = Path(__file__).resolve().parent.parent
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", ref],
        check=True,
        capture_output=True,
    ).stdout
    tree = into / "tree"
    tree.mkdir()
    tar = into / "tree.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as opened:
        opened.extractall(tree, filter="data")
    return tree


def child(tree: Path, game: str, args: argparse.Namespace) -> dict[str, Any]:
    """Run ``--measure`` in a child process importing ``tree``'s ``nataterra_core``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(tree), str(tree / "adapters")))}
    command = [sys.executable, __file__, "--measure", "--game", game]
    command += ["--iterations", str(args.iterations), "--positions", str(args.positions)]
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    found: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return found


def against(ref: str, args: argparse.Namespace) -> None:
    """Before (``ref``'s tree) and after (this tree), alternately, one line per game."""
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="search-speed-") as folder:
        before_tree = tree_at(ref, Path(folder))
        for game in args.game or GAMES:
            totals = {"before": [0, 0.0], "after": [0, 0.0]}
            chosen: dict[str, set[str]] = {"before": set(), "after": set()}
            for _ in range(args.rounds):
                for name, tree in (("before", before_tree), ("after", here)):
                    found = child(tree, game, args)
                    totals[name][0] += found["iterations"]
                    totals[name][1] += found["cpu"]
                    chosen[name].add(found["chosen"])
            before = totals["before"][0] / totals["before"][1]
            after = totals["after"][0] / totals["after"][1]
            same = "yes" if chosen["before"] == chosen["after"] else "no"
            print(
                f"game={game} against={ref} before={before:.1f} after={after:.1f} "
                f"ratio={after / before:.2f} same_choices={same}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=16)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--against", metavar="REF", help="compare with the tree at git REF")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        measure(args.game[0], args.iterations, args.positions)
        return
    if args.against:
        against(args.against, args)
        return
    for game in args.game or GAMES:
        record = system(game)
        found = positions(record, args.positions)
        totals = {False: [0, 0.0], True: [0, 0.0]}
        for _ in range(args.rounds):
            for cut in (False, True):
                done, cpu, _ = run(record, found, args.iterations, cut)
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
