"""Liar's Dice's players on seat views: the heuristic (probabilistic) bidder beats the random
player, and the search player plays whole games that verify. The 40-game run is a soak test;
the default run plays a few seeds."""

from __future__ import annotations

import pytest

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.liars_dice.bots import HeuristicPlayer, chance_at_least, chance_exactly
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


@pytest.mark.soak
@pytest.mark.parametrize("players", (2, 3, 4, 5, 6))
@pytest.mark.parametrize(
    "options", ({}, {"wild_ones": False}, {"spot_on": True}, {"dice": 1, "spot_on": True})
)
def test_every_player_count_and_option_plays_to_a_verified_end(
    players: int, options: dict[str, object]
) -> None:
    """The full sweep: heuristic and random players mixed, every count and option."""
    for seed in (1, 2):
        session = new_game(players, game="liars-dice", seed=seed, options=options)
        bots = {
            seat: RECORD.players["heuristic" if i % 2 else "random"](seed + i)
            for i, seat in enumerate(session.header.seats)
        }
        play(session, bots, RECORD.seat_view)
        outcome = session.outcome()
        assert outcome is not None and len(outcome.winners) == 1
        assert sum(outcome.scores.values()) >= 1
        session.close()
        assert verify_log(session.log_bytes()).valid


def _reader_against_non_reader(seed: int) -> bool:
    session = new_game(2, game="liars-dice", seed=seed)
    seats = session.header.seats
    reader = seats[seed % 2]
    players = {seat: HeuristicPlayer(seed, read_bids=seat == reader) for seat in seats}
    play(session, players, RECORD.seat_view)
    outcome = session.outcome()
    assert outcome is not None
    return reader in outcome.winners


@pytest.mark.soak
def test_reading_the_bids_beats_not_reading_them() -> None:
    """The heuristic player's bid reading is worth it: in 100 heads-up games against the same
    player without it, the 95 % interval of its win rate lies above one half."""
    wins = sum(_reader_against_non_reader(seed) for seed in range(100))
    low, high = wilson_interval(wins, 100)
    assert low > 0.5, f"{wins} of 100 ({low:.2f}..{high:.2f})"
