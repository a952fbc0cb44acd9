"""Kaladan's players on seat views: the heuristic player beats the random one, and heuristic
four-player games end with a real result and verify. The many-game runs are soak tests; the
default run plays a few seeds of each."""

from __future__ import annotations

import pytest

from nataterra_core.game import new_game, verify_log
from nataterra_core.kernel import play
from nataterra_core.kernel.registry import system

SMOKE = (1, 2)


def _heuristic_against_random(seed: int) -> bool:
    record = system("kaladan")
    session = new_game(2, game="kaladan", seed=seed)
    seats = session.header.seats
    heuristic = seats[seed % 2]  # the heuristic player plays either seat
    players = {
        seat: record.players["heuristic" if seat == heuristic else "random"](seed * 7 + i)
        for i, seat in enumerate(seats)
    }
    play(session, players, record.seat_view)
    outcome = session.outcome()
    assert outcome is not None
    return heuristic in outcome.winners


def _four_heuristics(seed: int) -> None:
    record = system("kaladan")
    session = new_game(4, game="kaladan", seed=seed)
    players = {
        s: record.players["heuristic"](seed * 4 + i) for i, s in enumerate(session.header.seats)
    }
    play(session, players, record.seat_view)
    session.close()
    outcome = session.outcome()
    assert outcome is not None and len(outcome.winners) == 1 and not outcome.draw
    assert outcome.reason in ("deck_used_up", "last_crown")
    assert set(outcome.scores) == set(session.header.seats)  # K-END-4
    assert verify_log(session.log_bytes()).valid


@pytest.mark.parametrize("seed", SMOKE)
def test_heuristic_beats_random_smoke(seed: int) -> None:
    assert _heuristic_against_random(seed)


@pytest.mark.parametrize("seed", SMOKE)
def test_four_heuristic_players_end_with_a_result_that_verifies_smoke(seed: int) -> None:
    _four_heuristics(seed)


@pytest.mark.soak
def test_heuristic_beats_random_in_at_least_90_percent_of_40_games() -> None:
    wins = sum(_heuristic_against_random(seed) for seed in range(100, 140))
    assert wins >= 36, f"the heuristic player won {wins} of 40"


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(200, 220))
def test_twenty_heuristic_four_player_games_end_and_verify(seed: int) -> None:
    _four_heuristics(seed)
