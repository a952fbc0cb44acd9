"""The search's evaluation of a BattleLore position (``Hooks.evaluate``): medals and figures,
and the threats a move makes or leaves before any die is rolled (B-BAT-1, B-DIE-2)."""

from __future__ import annotations

from bl_helpers import position, unit, world

from nataterra_core.games.battlelore.bots import PLAYOUT_DEPTH, THREATS_COUNTED, evaluate, threats
from nataterra_core.kernel.registry import system
from nataterra_core.search.catalogue import PLAYOUT_DEPTH as CATALOGUE_DEPTH
from nataterra_core.search.catalogue import search_player


def test_B_BAT_1_a_unit_next_to_an_enemy_threatens_it_and_one_out_of_reach_does_not() -> None:
    _, near = position(
        unit("e1", "english", "foot_red", (6, 6)), unit("f1", "french", "foot_red", (6, 5))
    )
    _, far = position(
        unit("e1", "english", "foot_red", (6, 9)), unit("f1", "french", "foot_red", (6, 2))
    )
    place = world()
    assert threats(place, near, "english") > 0 and threats(place, near, "french") > 0
    assert threats(place, far, "english") == threats(place, far, "french") == 0


def test_B_DIE_2_a_weakened_target_is_a_likelier_kill() -> None:
    place = world()
    _, whole = position(
        unit("e1", "english", "foot_red", (6, 6)), unit("f1", "french", "foot_red", (6, 5))
    )
    _, weak = position(
        unit("e1", "english", "foot_red", (6, 6)),
        unit("f1", "french", "foot_red", (6, 5), figures=1),
    )
    assert 0 < threats(place, whole, "english") < threats(place, weak, "english") <= 1


def test_only_a_sides_strongest_threats_count() -> None:
    def pairs(count: int) -> float:
        english = [unit(f"e{n}", "english", "foot_red", (2 * n, 6)) for n in range(count)]
        french = [unit(f"f{n}", "french", "foot_red", (2 * n, 5), figures=1) for n in range(count)]
        _, state = position(*english, *french)
        return threats(world(), state, "english")

    assert THREATS_COUNTED == 3
    assert 0 < pairs(1) < pairs(2) < pairs(3) == pairs(5)


def test_the_evaluation_prefers_the_side_that_threatens_and_sums_to_one() -> None:
    # The same figures and medals: the english unit at (6, 6) reaches the weakened french one,
    # the one at (6, 9) does not; the french is out of reach of it both times.
    _, threatening = position(
        unit("e1", "english", "foot_red", (6, 6)),
        unit("f1", "french", "foot_red", (6, 5), figures=1),
    )
    _, idle = position(
        unit("e1", "english", "foot_red", (6, 9)),
        unit("f1", "french", "foot_red", (6, 5), figures=1),
    )
    assert evaluate(threatening, "english") > evaluate(idle, "english") > 0.5
    for state in (threatening, idle):
        assert (
            evaluate(state, "english") + evaluate(state, "french") == 1.0
            or abs(evaluate(state, "english") + evaluate(state, "french") - 1.0) < 1e-12
        )


def test_the_search_cuts_battlelore_playouts_at_the_games_own_depth() -> None:
    record = system("battlelore")
    assert record.hooks.playout_depth == PLAYOUT_DEPTH < CATALOGUE_DEPTH
    assert search_player(record, 1).playout_depth == PLAYOUT_DEPTH
