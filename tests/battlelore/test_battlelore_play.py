"""Many BattleLore games between bots: heuristic games end with a winner and verify
(B-TURN-2's ``max_turns`` set), and the heuristic player beats the random one.

The full counts (20 games per scenario, 40 against random) run behind ``-m soak``; the
default run plays a two-seed smoke version of each.
"""

from __future__ import annotations

import statistics
from typing import Any

import pytest

from nataterra_core.game import new_game, verify_log
from nataterra_core.kernel import play
from nataterra_core.kernel.registry import system

SCENARIOS = ("agincourt", "hired-swords", "war-council")
MAX_TURNS = 60


def play_game(scenario: str, seed: int, players: dict[str, str]) -> tuple[Any, bytes, int]:
    """One game between the named players by seat; its outcome, log and turns played."""
    record = system("battlelore")
    session = new_game(
        ("english", "french"),
        game="battlelore",
        seed=seed,
        options={"scenario": scenario, "max_turns": MAX_TURNS},
    )
    bots = {
        seat: record.players[name](seed * 16 + i) for i, (seat, name) in enumerate(players.items())
    }
    play(session, bots, record.seat_view)
    turns = session.state.turn
    outcome = session.outcome()
    session.close()
    return outcome, session.log_bytes(), turns


def heuristic_games(scenario: str, seeds: range) -> list[tuple[Any, int]]:
    """Heuristic self-play: each game ends with a winner and its log verifies."""
    results = []
    for seed in seeds:
        outcome, log, turns = play_game(
            scenario, seed, {"english": "heuristic", "french": "heuristic"}
        )
        assert outcome is not None and outcome.winners, (scenario, seed, outcome)
        verdict = verify_log(log)
        assert verdict.valid, verdict.reason
        results.append((outcome, turns))
    return results


def heuristic_wins(scenario: str, seeds: range) -> int:
    """Games the heuristic player wins against random, seats alternating."""
    wins = 0
    for seed in seeds:
        heuristic = ("english", "french")[seed % 2]
        players = {s: "heuristic" if s == heuristic else "random" for s in ("english", "french")}
        outcome, _, _ = play_game(scenario, seed, players)
        wins += outcome is not None and outcome.winners == (heuristic,)
    return wins


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_B_TURN_2_heuristic_games_end_with_a_winner_and_verify_smoke(scenario: str) -> None:
    heuristic_games(scenario, range(2))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_heuristic_beats_random_smoke(scenario: str) -> None:
    assert heuristic_wins(scenario, range(2)) == 2


@pytest.mark.soak
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_B_TURN_2_twenty_heuristic_games_end_with_a_winner_and_verify(scenario: str) -> None:
    results = heuristic_games(scenario, range(20))
    turns = [t for _, t in results]
    spread = [abs(o.scores["english"] - o.scores["french"]) for o, _ in results]
    print(
        f"{scenario}: median turns {statistics.median(turns)}, "
        f"median medal spread {statistics.median(spread)}, "
        f"wins {sum(o.winners == ('english',) for o, _ in results)} english / "
        f"{sum(o.winners == ('french',) for o, _ in results)} french"
    )


@pytest.mark.soak
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_heuristic_beats_random_in_ninety_percent_of_forty_games(scenario: str) -> None:
    wins = heuristic_wins(scenario, range(40))
    print(f"{scenario}: heuristic beat random {wins}/40")
    assert wins >= 36
