"""Regenerate BattleLore's golden logs (run from the repository root):

    python tests/battlelore/make_battlelore_goldens.py

One complete game per scenario between seeded heuristic players, through the registry
exactly as ``nataterra demo --game battlelore --scenario NAME`` plays it. After a rules change
run it and review ``git diff tests/battlelore/golden``; ``test_battlelore_golden.py`` checks the
files are reproduced and pins perft counts at fixed records.
"""

from __future__ import annotations

from pathlib import Path

from nataterra_core.game import new_game
from nataterra_core.kernel import play
from nataterra_core.kernel.registry import system

HERE = Path(__file__).resolve().parent / "golden"
SCENARIOS = ("agincourt", "hired-swords", "war-council")
SEED = 5
MAX_TURNS = 60


def golden_path(scenario: str) -> Path:
    """Where the golden game of ``scenario`` is kept."""
    return HERE / f"battlelore-{scenario}-seed-{SEED}.jsonl"


def golden_log(scenario: str) -> bytes:
    """The golden game of ``scenario``, played to its end."""
    record = system("battlelore")
    session = new_game(
        record.default_seats[2],
        game="battlelore",
        seed=SEED,
        options={"scenario": scenario, "max_turns": MAX_TURNS},
    )
    bots = {
        seat: record.players["heuristic"](SEED * 16 + i)
        for i, seat in enumerate(session.header.seats)
    }
    play(session, bots, record.seat_view)
    session.close()
    return session.log_bytes()


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    for name in SCENARIOS:
        golden_path(name).write_bytes(golden_log(name))
        print("wrote", golden_path(name))
