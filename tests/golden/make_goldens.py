"""Regenerate the golden game logs (run from the repository root):

    python tests/golden/make_goldens.py

Three complete 2-player learning games between seeded bots. After a rules change, run it
and review the change as a diff (``git diff tests/golden``): every changed byte is a
changed decision, event or result. ``test_golden.py`` checks the files are reproduced.
"""

from __future__ import annotations

from pathlib import Path

from nataterra_core.bots import RandomPlayer, play
from nataterra_core.game import new_game

HERE = Path(__file__).resolve().parent
GOLDEN_SEEDS = (11, 12, 13)
MAX_TURNS = 200


def golden_log(seed: int) -> bytes:
    """The log of golden game ``seed``: random legal players, seeded, to the end."""
    session = new_game(2, seed=seed, options={"max_turns": MAX_TURNS})
    players = {seat: RandomPlayer(seed * 10 + i) for i, seat in enumerate(session.header.seats)}
    play(session, players)
    session.close()
    return session.log_bytes()


def golden_path(seed: int) -> Path:
    """Where golden game ``seed`` is kept."""
    return HERE / f"game-seed-{seed}.jsonl"


def main() -> None:
    for seed in GOLDEN_SEEDS:
        path = golden_path(seed)
        path.write_bytes(golden_log(seed))
        print(f"wrote {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")


if __name__ == "__main__":
    main()
