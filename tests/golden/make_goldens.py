"""Regenerate the golden game logs (run from the repository root):

    python tests/golden/make_goldens.py

Complete games between seeded bots: three 2-player learning games of random legal players,
one game each of team play, conquest and advanced mode with map structuring between
heuristic players, Kaladan games of two and four heuristic players, and two Liar's Dice
games. After a rules
change, run it and review the change as a diff (``git diff tests/golden``): every changed
byte is a changed decision, event or result.
``test_golden.py`` checks the files are reproduced.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, NamedTuple

from nataterra_core.game import new_game
from nataterra_core.kernel import play
from nataterra_core.kernel.registry import system

HERE = Path(__file__).resolve().parent
MAX_TURNS = 200


class GoldenGame(NamedTuple):
    """How one golden game is played."""

    seats: int
    seed: int
    options: dict[str, Any]
    players: Literal["random", "heuristic"]
    game: str = "nataterra"


GOLDEN_GAMES: dict[str, GoldenGame] = {
    "seed-11": GoldenGame(2, 11, {"max_turns": MAX_TURNS}, "random"),
    "seed-12": GoldenGame(2, 12, {"max_turns": MAX_TURNS}, "random"),
    "seed-13": GoldenGame(2, 13, {"max_turns": MAX_TURNS}, "random"),
    # Two combats with allies on a side (N-TEAM-4), a team win.
    "teams-seed-2": GoldenGame(
        4, 2, {"teams": ["velathi+humans", "beasts+naga"], "max_turns": MAX_TURNS}, "heuristic"
    ),
    # Three bases conquered, one retaken (N-WIN-5).
    "conquest-seed-1": GoldenGame(
        4, 1, {"conquest": True, "dominance_cubes": 8, "max_turns": MAX_TURNS}, "heuristic"
    ),
    # Map structuring (N-MAP-4), advanced conditions and the opening discard (N-SETUP-8).
    "advanced-structured-seed-2": GoldenGame(
        3, 2, {"mode": "advanced", "map_structuring": True, "max_turns": MAX_TURNS}, "heuristic"
    ),
    # Kaladan (issue 15): a heuristic player against a random one, and four heuristic ones.
    "kaladan-2p-seed-3": GoldenGame(2, 3, {}, "heuristic", game="kaladan"),
    "kaladan-4p-seed-5": GoldenGame(4, 5, {}, "heuristic", game="kaladan"),
    # Liar's Dice: three heuristic bidders with "spot on"; two random ones, ones not wild.
    "liars-dice-3p-seed-4": GoldenGame(3, 4, {"spot_on": True}, "heuristic", game="liars-dice"),
    "liars-dice-2p-seed-7": GoldenGame(2, 7, {"wild_ones": False}, "random", game="liars-dice"),
}


def golden_log(name: str) -> bytes:
    """The log of golden game ``name``, played to the end."""
    game = GOLDEN_GAMES[name]
    record = system(game.game)
    session = new_game(game.seats, game=game.game, seed=game.seed, options=game.options)
    seats = session.header.seats
    factor = 10 if game.players == "random" else 4
    make = record.players[game.players]
    players = {seat: make(game.seed * factor + i) for i, seat in enumerate(seats)}
    play(session, players, record.seat_view)
    session.close()
    return session.log_bytes()


def golden_path(name: str) -> Path:
    """Where golden game ``name`` is kept."""
    return HERE / f"game-{name}.jsonl"


def main() -> None:
    for name in GOLDEN_GAMES:
        path = golden_path(name)
        path.write_bytes(golden_log(name))
        print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")


if __name__ == "__main__":
    main()
