"""The search player's strength against the heuristic player (issue 34 item 2).

The soak (``pytest -m soak``): 40 games per game (Nataterra, Kaladan, BattleLore) at 1 s of
CPU time per decision, seats alternating, every log verified, won at least 75 % of the time
(30 of 40), played by ``benchmarks/search_strength.py`` into a results file that makes it
resumable (``NATATERRA_SOAK_RESULTS``: a folder kept between runs; the games already there
are not played again). ``docs/BOTS.md`` has the table and the rates with their Wilson
intervals. The smoke version in the normal run plays two short games per game.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nataterra_core.game import new_game, verify_log
from nataterra_core.kernel import play
from nataterra_core.kernel.registry import system
from nataterra_core.search.catalogue import make_player
from nataterra_core.search.ismcts import SearchPlayer

ROOT = Path(__file__).resolve().parents[2]
SHORT = {
    "nataterra": {"max_turns": 4},
    "kaladan": {},
    "battlelore": {"max_turns": 4},
    "liars-dice": {"dice": 2},
}
"""Options of the smoke's short games (Kaladan has no turn limit: its deck ends it)."""


@pytest.mark.parametrize("game", sorted(SHORT))
def test_smoke_two_short_games_of_search_against_heuristic_per_game(game: str) -> None:
    """Seats alternating, an iteration budget (reproducible): the games end, the logs
    verify, and the search player searched decisions with more than one legal command."""
    record = system(game)
    searched = 0
    for n in range(2):
        session = new_game(2, game=game, seed=n, options={**record.default_options, **SHORT[game]})
        seats = session.header.seats
        search = make_player(record, "search:4", 10 + n)
        assert isinstance(search, SearchPlayer)
        bots = {
            s: search if s == seats[n % 2] else make_player(record, "heuristic", n) for s in seats
        }
        play(session, bots, record.seat_view)
        session.close()
        assert verify_log(session.log_bytes()).valid
        searched += search.stats.decisions
    assert searched > 0


@pytest.mark.soak
@pytest.mark.parametrize("game", ["nataterra", "kaladan", "battlelore"])
def test_search_at_1s_beats_heuristic_in_75_percent_of_40_games(game: str) -> None:
    folder = Path(os.environ.get("NATATERRA_SOAK_RESULTS", ROOT / ".soak"))
    folder.mkdir(parents=True, exist_ok=True)
    results = folder / f"{game}-1s.jsonl"
    script = ROOT / "benchmarks" / "search_strength.py"
    args = ["--budget", "1s", "--games", "40", "--game", game, "--results", str(results)]
    subprocess.run([sys.executable, str(script), *args], check=True, cwd=ROOT)
    played = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    mine = {p["index"]: p for p in played if p["game"] == game and p["budget"] == "1s"}
    assert sorted(mine) == list(range(40))
    assert all(p["valid"] for p in mine.values())
    wins = sum(p["won"] for p in mine.values())
    assert wins >= 30, f"{game}: {wins} of 40"
