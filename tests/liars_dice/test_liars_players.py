"""Liar's Dice's players on seat views: the heuristic (probabilistic) bidder beats the random
player, and the search player plays whole games that verify. The 40-game run is a soak test;
the default run plays a few seeds."""

from __future__ import annotations

import pytest

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.liars_dice.bots import chance_at_least, chance_exactly
from nataterra_core.kernel import play
from nataterra_core.kernel.registry import system
from nataterra_core.search.catalogue import make_player
from nataterra_core.tools.stats import wilson_interval

RECORD = system("liars-dice")
SMOKE = (1, 2, 3)


def _heuristic_against_random(seed: int) -> bool:
    """A two-player game, the heuristic player in either seat by the seed's parity."""
    session = new_game(2, game="liars-dice", seed=seed)
    seats = session.header.seats
    heuristic = seats[seed % 2]
    players = {
        seat: RECORD.players["heuristic" if seat == heuristic else "random"](seed * 7 + i)
        for i, seat in enumerate(seats)
    }
    play(session, players, RECORD.seat_view)
    outcome = session.outcome()
    assert outcome is not None
    return heuristic in outcome.winners


def test_binomial_chances() -> None:
    assert chance_at_least(0, 3, 0.5) == 1.0
    assert chance_at_least(3, 3, 0.5) == pytest.approx(0.125)
    assert chance_at_least(4, 3, 0.5) == 0.0
    assert chance_exactly(1, 2, 0.5) == pytest.approx(0.5)
    assert chance_exactly(-1, 2, 0.5) == 0.0


@pytest.mark.parametrize("seed", SMOKE)
def test_heuristic_beats_random_smoke(seed: int) -> None:
    assert _heuristic_against_random(seed)


@pytest.mark.soak
def test_heuristic_beats_random_in_at_least_90_percent_of_40_games() -> None:
    wins = sum(_heuristic_against_random(seed) for seed in range(100, 140))
    low, high = wilson_interval(wins, 40)
    assert wins >= 36, f"the heuristic player won {wins} of 40 (95% {low:.2f}..{high:.2f})"


def test_the_search_player_plays_a_game_that_verifies() -> None:
    session = new_game(3, game="liars-dice", seed=8, options={"dice": 2, "spot_on": True})
    players = {
        seat: make_player(RECORD, "search:4" if i == 0 else "heuristic", i)
        for i, seat in enumerate(session.header.seats)
    }
    play(session, players, RECORD.seat_view)
    assert session.outcome() is not None
    session.close()
    assert verify_log(session.log_bytes()).valid
