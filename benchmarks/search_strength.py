"""Search-player strength against the heuristic player, per game: win rate with a Wilson
interval, and what each decision cost (iterations, CPU seconds). Resumable.

    python benchmarks/search_strength.py --budget 1s [--games 40] [--game ID ...]
        [--results FILE] [--turns N] [--playout-depth N]

For each game (default Nataterra, Kaladan and BattleLore, two players) it plays ``--games``
games of the search player (``search:BUDGET``; a time is this process's CPU time, so the
budget means the same on a loaded machine) against the game's ``heuristic`` player, the
seats alternating (game ``k`` seats the search player at seat ``k % 2``; games ``2m`` and
``2m + 1`` share their dice seed: mirrored games). Every log is verified.

``--results FILE`` (JSON Lines, one finished game a line) makes the run resumable: games
already in the file are not played again, so a run stopped at any point goes on where it
was (the file is appended and flushed after every game). The last lines are one table row a
game: ``game=<id> budget=<b> games=<n> wins=<w> rate=<r> low=<l> high=<h>
iterations_per_decision=<i> cpu_s_per_decision=<s>``. Nothing is asserted here (the soak
test ``tests/search/test_search_strength.py`` asserts the 75 % bar).

``--start K --step S`` plays games ``K``, ``K + S``, ... only (two processes with
``--start 0 --step 2`` and ``--start 1 --step 2`` split a run, each into its own results
file; with ``--step 2`` one seat's games).

``--playout-depth N`` plays the search player with playouts cut at N commands instead of
the game's own depth (``Hooks.playout_depth``, else the catalogue's ``PLAYOUT_DEPTH``; a
tuning run; the results file keeps each depth apart).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec

from nataterra_core.game import new_game, verify_log
from nataterra_core.kernel.registry import system
from nataterra_core.search.catalogue import PLAYOUT_DEPTH, make_player, playout_depth_of
from nataterra_core.search.ismcts import SearchPlayer
from nataterra_core.tools.stats import wilson_interval

GAMES = ("nataterra", "kaladan", "battlelore")
TURNS = 100
"""``max_turns`` where a game has the option (as ``nataterra tournament``'s default)."""


class Played(msgspec.Struct, frozen=True, kw_only=True):
    """One finished game of a strength run."""

    game: str
    budget: str
    index: int
    search_seat: str
    won: float
    """1 for a win of the search player, ½ for a draw, 0 for a loss."""
    reason: str
    valid: bool
    decisions: int
    """The search player's decisions searched (one legal command is not searched)."""
    iterations: int
    cpu_seconds: float
    """CPU seconds the search player spent on its decisions, forced ones included."""
    playout_depth: int = PLAYOUT_DEPTH
    """Commands a playout played before the evaluation scored it."""


def play(game: str, budget: str, index: int, turns: int, depth: int | None = None) -> Played:
    """Game ``index`` of ``game``: the search player (``search:budget``, its playouts cut at
    ``depth``, by default the game's own) against the heuristic player, seats alternating, the
    log verified."""
    record = system(game)
    options = dict(record.default_options)
    if "max_turns" in record.options.__struct_fields__:
        options["max_turns"] = turns
    session = new_game(2, game=game, seed=1000 + index // 2, options=options)
    seats = session.header.seats
    mine = seats[index % 2]
    search = make_player(record, f"search:{budget}", 7 * index + 1, clock=time.process_time)
    assert isinstance(search, SearchPlayer)
    if depth is not None:
        search.playout_depth = depth
    other = make_player(record, "heuristic", 7 * index + 2)
    cpu = 0.0
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        legal = session.legal_commands(seat)
        view = record.seat_view(session.state, seat)
        if seat == mine:
            start = time.process_time()
            command = search.choose(view, legal)
            cpu += time.process_time() - start
        else:
            command = other.choose(view, legal)
        session.apply(seat, command)
    outcome = session.close()
    won = 0.5 if not outcome.winners else float(mine in outcome.winners)
    return Played(
        game=game,
        budget=budget,
        index=index,
        search_seat=mine,
        won=won,
        reason=outcome.reason,
        valid=verify_log(session.log_bytes()).valid,
        decisions=search.stats.decisions,
        iterations=search.stats.iterations,
        cpu_seconds=round(cpu, 3),
        playout_depth=search.playout_depth,
    )


def load(path: Path | None) -> list[Played]:
    """The games already in a results file (a torn last line, from a stopped run, is left
    out and played again)."""
    if path is None or not path.is_file():
        return []
    found = []
    for line in path.read_bytes().splitlines():
        try:
            found.append(msgspec.json.decode(line, type=Played))
        except msgspec.DecodeError:
            continue
    return found


def run(
    games: tuple[str, ...],
    budget: str,
    count: int,
    turns: int,
    results: Path | None,
    depth: int | None = None,
    start: int = 0,
    step: int = 1,
) -> Iterator[Played]:
    """Every game of the run not yet in ``results`` (games ``start``, ``start + step``, ...
    below ``count``), played and appended to it."""
    done = {(p.game, p.budget, p.playout_depth, p.index) for p in load(results)}
    for game in games:
        for index in range(start, count, step):
            if (game, budget, depth_of(game, depth), index) in done:
                continue
            played = play(game, budget, index, turns, depth)
            if results is not None:
                with results.open("ab") as out:
                    out.write(msgspec.json.encode(played) + b"\n")
            yield played


def depth_of(game: str, depth: int | None) -> int:
    """The playout depth a run plays ``game`` at: ``depth``, else the game's own."""
    return playout_depth_of(system(game)) if depth is None else depth


def row(game: str, budget: str, played: list[Played], depth: int | None = None) -> str:
    """The table row of one game's finished games."""
    depth = depth_of(game, depth)
    mine = [p for p in played if p.game == game and p.budget == budget and p.playout_depth == depth]
    wins = sum(p.won for p in mine)
    low, high = wilson_interval(wins, len(mine)) if mine else (0.0, 1.0)
    decisions = sum(p.decisions for p in mine) or 1
    return (
        f"game={game} budget={budget} playout_depth={depth} games={len(mine)} wins={wins:g} "
        f"rate={wins / max(1, len(mine)):.3f} low={low:.3f} high={high:.3f} "
        f"iterations_per_decision={sum(p.iterations for p in mine) / decisions:.1f} "
        f"cpu_s_per_decision={sum(p.cpu_seconds for p in mine) / decisions:.3f} "
        f"invalid={sum(not p.valid for p in mine)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", default="1s")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--game", choices=(*GAMES, "liars-dice"), action="append")
    parser.add_argument("--results", type=Path)
    parser.add_argument("--turns", type=int, default=TURNS)
    parser.add_argument("--playout-depth", type=int, default=None)
    parser.add_argument("--start", type=int, default=0, help="the first game's index")
    parser.add_argument("--step", type=int, default=1, help="play every STEP-th game only")
    args = parser.parse_args()
    if args.start < 0 or args.step < 1:
        parser.error("--start is at least 0 and --step at least 1")
    depth = args.playout_depth
    games = tuple(args.game or GAMES)
    now: list[Played] = []
    plan = run(
        games, args.budget, args.games, args.turns, args.results, depth, args.start, args.step
    )
    for played in plan:
        now.append(played)
        print(
            f"{played.game} #{played.index} search as {played.search_seat}: "
            f"{'won' if played.won == 1 else 'drew' if played.won else 'lost'} "
            f"({played.reason}; {played.decisions} decisions, {played.iterations} iterations)",
            flush=True,
        )
    everything = load(args.results) if args.results is not None else now
    for game in games:
        print(row(game, args.budget, everything, depth), flush=True)


if __name__ == "__main__":
    main()
