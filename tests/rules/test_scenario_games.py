"""Heuristic games of every scenario (issue 18 must-show): each ends with a result and
verifies; over 10 seeds (``-m soak``) at least 3 end by a scenario condition (not by base
destruction or the turn limit) and the win rates per side are printed. The default run
plays a 2-seed smoke version."""

from __future__ import annotations

from collections import Counter

import pytest

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.bots import HeuristicPlayer
from nataterra_core.games.nataterra.rules.scenarios import SCENARIOS
from nataterra_core.kernel import Outcome, play
from nataterra_core.kernel.registry import system

NOT_BY_THE_SCENARIO = ("base_destroyed", "turn_limit")


def _game(scenario: str, seed: int) -> Outcome:
    seats = SCENARIOS[scenario].seats
    game = new_game(seats, seed=seed, options={"scenario": scenario})
    bots = {seat: HeuristicPlayer(seed * 7 + i) for i, seat in enumerate(seats)}
    play(game, bots, system("nataterra").seat_view)
    result = game.close()
    assert result.reason != "abandoned", (scenario, seed)
    verdict = verify_log(game.log_bytes())
    assert verdict.valid, verdict
    return result


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_scenario_games_end_with_a_result_and_verify(scenario: str) -> None:
    for seed in (0, 1) if scenario != "fergus_grove" else (0,):
        _game(scenario, seed)


@pytest.mark.soak
@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_ten_scenario_games_three_by_a_scenario_condition(scenario: str) -> None:
    results = [_game(scenario, seed) for seed in range(10)]
    by_condition = [r for r in results if r.reason not in NOT_BY_THE_SCENARIO]
    wins = Counter(w for r in results for w in r.winners)
    draws = sum(1 for r in results if not r.winners)
    reasons = Counter(r.reason for r in results)
    print(f"{scenario}: wins {dict(wins)}, draws {draws}, reasons {dict(reasons)}")
    assert len(by_condition) >= 3, Counter(r.reason for r in results)
