"""A refused BattleLore command names the clause its own check breaks (rules/battlelore.md §8),
not the clause of its command type: a unit that may not battle because of how far it moved
is refused under B-UNIT-2, because of the terrain it entered under B-TER-1."""

from __future__ import annotations

import pytest
from bl_helpers import Scripted, act, position, pt, unit
from hypothesis import given, settings
from hypothesis import strategies as st
from refusal_play import refusals_name_clauses

from nataterra_core.game import new_game
from nataterra_core.games.battlelore import messages as m
from nataterra_core.games.battlelore.decider import BattleLore
from nataterra_core.games.battlelore.state import BattleLoreState
from nataterra_core.kernel import Command, IllegalCommand


def refusal(game: BattleLore, state: BattleLoreState, seat: str, command: Command) -> str:
    """The rule id ``decide`` refuses ``command`` with."""
    with pytest.raises(IllegalCommand) as raised:
        game.decide(state, command, Scripted(), seat=seat)  # type: ignore[arg-type]
    return str(raised.value.rule_id)


def test_B_UNIT_2_blue_foot_that_moved_two_hexes_is_refused_a_battle_under_B_UNIT_2() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (5, 6)),
        unit("e2", "english", "foot_blue", (6, 4)),
        unit("f1", "french", "foot_blue", (5, 3)),
        phase="move",
    )
    state, _ = act(game, state, "english", m.MoveUnit(unit="e1", to=pt(5, 4)))  # two hexes
    state, _ = act(game, state, "english", m.FinishMoves())
    assert state.phase == "battle" and "e1" in state.no_battle
    assert refusal(game, state, "english", m.BattleUnit(unit="e1", target="f1")) == "B-UNIT-2"
    # The unit that stood still battles the same target.
    assert m.BattleUnit(unit="e2", target="f1") in game.decision(state).legal("english")


def test_B_TER_1_a_unit_that_entered_a_building_is_refused_a_battle_under_B_TER_1() -> None:
    game, state = position(
        unit("e1", "english", "foot_green", (4, 5)),  # the building of hired-swords
        unit("e2", "english", "foot_green", (5, 5)),
        unit("f1", "french", "foot_blue", (4, 4)),
        scenario="hired-swords",
        no_battle=("e1",),
    )
    assert refusal(game, state, "english", m.BattleUnit(unit="e1", target="f1")) == "B-TER-1"


@pytest.mark.parametrize(
    ("target_at", "blocker_at", "rule"),
    [
        ((5, 1), None, "B-BAT-1"),  # five hexes: beyond the bow's range of 4
        ((6, 3), (6, 5), "B-BAT-2"),  # three hexes, a unit in between
    ],
)
def test_B_BAT_1_range_and_B_BAT_2_sight_each_name_their_clause(
    target_at: tuple[int, int], blocker_at: tuple[int, int] | None, rule: str
) -> None:
    units = [
        unit("e1", "english", "archers_green_bow", (6, 6)),
        unit("f1", "french", "foot_blue", target_at),
    ]
    if blocker_at is not None:
        units.append(unit("f2", "french", "foot_blue", blocker_at))
    game, state = position(*units, ordered=("e1",))
    assert refusal(game, state, "english", m.BattleUnit(unit="e1", target="f1")) == rule


def test_B_UNIT_2_and_B_TER_1_moves_name_the_clause_of_their_check() -> None:
    game, state = position(
        unit("e1", "english", "foot_red", (5, 6)),
        unit("e2", "english", "foot_blue", (6, 6)),
        phase="move",
    )
    assert refusal(game, state, "english", m.MoveUnit(unit="e1", to=pt(5, 4))) == "B-UNIT-2"
    assert refusal(game, state, "english", m.MoveUnit(unit="e1", to=pt(6, 6))) == "B-UNIT-2"
    state, _ = act(game, state, "english", m.MoveUnit(unit="e1", to=pt(5, 5)))
    assert refusal(game, state, "english", m.MoveUnit(unit="e1", to=pt(5, 4))) == "B-UNIT-2"
    # Agincourt's forests at offsets (0, 3), (1, 3) and (1, 4) stop a unit entering them: no
    # way to (0, 2) within four hexes avoids one.
    game, state = position(unit("e1", "english", "mounted_green", (1, 5)), phase="move")
    assert refusal(game, state, "english", m.MoveUnit(unit="e1", to=pt(0, 2))) == "B-TER-1"
    # Both ways to a hex two away pass a friendly unit.
    game, state = position(
        unit("e1", "english", "foot_green", (5, 6)),
        unit("e2", "english", "foot_green", (4, 5)),
        unit("e3", "english", "foot_green", (5, 5)),
        phase="move",
    )
    assert refusal(game, state, "english", m.MoveUnit(unit="e1", to=pt(5, 4))) == "B-UNIT-2"


def test_B_TURN_1_a_command_of_another_step_and_B_CMD_2_a_card_not_held() -> None:
    game, state = position(unit("e1", "english", "foot_blue", (5, 6)), phase="move")
    assert refusal(game, state, "english", m.FinishBattles()) == "B-TURN-1"
    assert refusal(game, state, "english", m.Retreat(to=pt(5, 7))) == "B-TURN-1"
    game, state = position(unit("e1", "english", "foot_blue", (5, 6)), phase="card")
    held = state.side_of("english").hand
    missing = next(c for c in game.pack.cards if c not in held)
    assert refusal(game, state, "english", m.PlayCard(card=missing)) == "B-CMD-2"


def test_B_CMD_4_a_unit_that_lost_its_order_and_B_CMD_1_one_outside_the_section() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (5, 6)),
        unit("e2", "english", "foot_blue", (6, 6)),
        unit("e3", "english", "foot_blue", (1, 6)),
        phase="order",
        card="probe_centre",
        ordered=(),
        cancelled=("e2",),
    )
    assert refusal(game, state, "english", m.OrderUnit(unit="e2")) == "B-CMD-4"
    assert refusal(game, state, "english", m.OrderUnit(unit="e3")) == "B-CMD-1"
    assert refusal(game, state, "english", m.OrderUnit(unit="nobody")) == "B-CMD-1"


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    scenario=st.sampled_from(("agincourt", "hired-swords", "war-council")),
)
def test_every_refusal_names_a_B_clause_and_changes_nothing(seed: int, scenario: str) -> None:
    """In random play, any command once legal but not now is refused with a ``B-`` clause
    (never another error), and the game goes on unchanged."""
    session = new_game(
        ("english", "french"),
        game="battlelore",
        seed=seed,
        options={"scenario": scenario, "max_turns": 8},
    )
    assert refusals_name_clauses(session, "B", seed, 80) > 0
