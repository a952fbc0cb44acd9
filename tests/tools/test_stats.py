"""The statistics of reports over many games (``tools.stats``): Wilson intervals and
Bradley-Terry ratings with their intervals."""

from __future__ import annotations

import pytest

from nataterra_core.tools.stats import bradley_terry, wilson_interval


def test_wilson_interval_holds_the_estimate_and_takes_half_points() -> None:
    low, high = wilson_interval(24.5, 40)
    assert low < 24.5 / 40 < high
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


def test_even_results_rate_everyone_alike() -> None:
    scores = {("a", "b"): (5.0, 10), ("a", "c"): (5.0, 10), ("b", "c"): (5.0, 10)}
    ratings = bradley_terry(["a", "b", "c"], scores)
    for rating in ratings.values():
        assert abs(rating.elo) < 1e-6
        assert rating.low < 0 < rating.high


def test_the_stronger_player_rates_higher_and_a_sweep_stays_finite() -> None:
    scores = {("a", "b"): (20.0, 20), ("a", "c"): (15.0, 20), ("b", "c"): (8.0, 20)}
    ratings = bradley_terry(["a", "b", "c"], scores)
    assert ratings["a"].elo > ratings["c"].elo > ratings["b"].elo
    assert abs(sum(r.elo for r in ratings.values())) < 1e-6  # mean zero
    assert ratings["a"].elo < 2000  # the virtual draw keeps a clean sweep finite
    for rating in ratings.values():
        assert rating.low < rating.elo < rating.high
    more = {pair: (points * 5, games * 5) for pair, (points, games) in scores.items()}
    wider = ratings["a"].high - ratings["a"].low
    assert (
        bradley_terry(["a", "b", "c"], more)["a"].high
        - bradley_terry(["a", "b", "c"], more)["a"].low
        < wider
    ), "more games, narrower intervals"


def test_players_who_never_meet_cannot_be_rated_together() -> None:
    with pytest.raises(ValueError, match="connected"):
        bradley_terry(["a", "b", "c", "d"], {("a", "b"): (1.0, 2), ("c", "d"): (1.0, 2)})
