"""BattleLore's advanced units, medals and hidden information, named after their clauses."""

from __future__ import annotations

import random

import pytest
from bl_helpers import act, position, unit
from msgspec.structs import replace

from nataterra_core.game import new_game
from nataterra_core.games.battlelore import messages as m
from nataterra_core.games.battlelore.board import distance
from nataterra_core.games.battlelore.state import BattleLoreState
from nataterra_core.games.battlelore.system import BATTLELORE
from nataterra_core.kernel.secrets import twins


def _battle(game: object, state: BattleLoreState, *faces: str) -> tuple[BattleLoreState, tuple]:
    return act(game, state, "english", m.BattleUnit(unit="e1", target="f1"), *faces)  # type: ignore[arg-type]


# --- B-ADV-2: creatures die only to critical hits ------------------------------------------


def test_B_ADV_2_a_creature_survives_a_first_hit_and_dies_to_the_rerolled_critical() -> None:
    giant = unit("f1", "french", "hill_giant", (6, 5))
    attacker = unit("e1", "english", "foot_red", (6, 6))
    game, state = position(attacker, giant, scenario="hired-swords", card="probe_centre")
    # Two red helmets hit the (red) giant: both dice are rolled again; no red, it lives.
    after, events = _battle(game, state, "red", "red", "lore", "lore", "green", "flag")
    assert after.unit("f1") is not None and after.unit("f1").figures == 1  # type: ignore[union-attr]
    critical = [e for e in events if isinstance(e, m.DiceRolled) and e.purpose == "critical"]
    assert [c.faces for c in critical] == [("green", "flag")]
    # The next time a re-rolled die shows red: a critical hit kills it, a medal to the English.
    game, state = position(attacker, giant, scenario="hired-swords", card="probe_centre")
    after, events = _battle(game, state, "red", "lore", "lore", "lore", "red")
    assert after.unit("f1") is None
    assert m.UnitDestroyed(unit="f1", medal_to="english") in events
    assert after.side_of("english").kills == 1


def test_B_ADV_2_a_creature_must_ignore_one_flag_and_retreats_two_hexes_per_flag() -> None:
    spider = unit("f1", "french", "spider", (8, 4))
    attacker = unit("e1", "english", "foot_red", (8, 5))
    game, state = position(attacker, spider, scenario="hired-swords", card="probe_centre")
    _, events = _battle(game, state, "flag", "flag", "lore", "lore")
    assert m.FlagIgnored(unit="f1", forced=True) in events
    assert m.RetreatBegun(unit="f1", hexes=2) in events


def test_B_ADV_2_a_blocked_creature_rolls_as_if_attacked() -> None:
    spider = unit("f1", "french", "spider", (6, 0))  # on its own edge: every hex blocked
    attacker = unit("e1", "english", "foot_red", (6, 1))
    game, state = position(attacker, spider, scenario="hired-swords", card="probe_centre")
    # Two flags: one ignored, the other is two blocked hexes: two rolls; blue then blue kills.
    after, events = _battle(game, state, "flag", "flag", "lore", "lore", "green", "blue", "blue")
    blocked = [e.faces for e in events if isinstance(e, m.DiceRolled) and e.purpose == "blocked"]
    assert blocked == [("green",), ("blue",)]
    assert after.unit("f1") is None


# --- B-ADV-1: mercenaries ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rolls", "lost"),
    [(("flag", "flag"), 0), (("green", "flag"), 1), (("green", "green"), 2)],
)
def test_B_ADV_1_goblins_retreat_two_hexes_per_flag_and_roll_for_each(
    rolls: tuple[str, str], lost: int
) -> None:
    goblins = unit("f1", "french", "goblins_green", (8, 4))
    attacker = unit("e1", "english", "foot_red", (8, 5))
    game, state = position(attacker, goblins, scenario="hired-swords", card="probe_centre")
    after, events = _battle(game, state, "flag", "lore", "lore", "lore")
    for roll in rolls:  # two hexes toward home, each a choice of two: one roll after each
        assert after.combat is not None and after.combat.stage == "retreat"
        retreat = game.decision(after).legal("french")[0]
        after, more = act(game, after, "french", retreat, roll)
        events += more
    retreat_rolls = [e for e in events if isinstance(e, m.DiceRolled) and e.purpose == "retreat"]
    assert len(retreat_rolls) == 2  # one per hex retreated
    survivor = after.unit("f1")
    assert survivor is not None and survivor.figures == 4 - lost


def test_B_ADV_1_dwarves_are_always_bold_and_ignore_two_flags_when_supported() -> None:
    dwarves = unit("f1", "french", "dwarves_blue", (6, 2))
    attacker = unit("e1", "english", "foot_red", (6, 3))
    game, state = position(attacker, dwarves, scenario="hired-swords", card="probe_centre")
    _, events = _battle(game, state, "flag", "flag", "lore", "lore")
    assert m.FlagsRolled(unit="f1", flags=2, ignorable=1) in events
    friends = (unit("f8", "french", "foot_blue", (5, 2)), unit("f9", "french", "foot_blue", (7, 2)))
    game, state = position(
        attacker, dwarves, *friends, scenario="hired-swords", card="probe_centre"
    )
    _, events = _battle(game, state, "flag", "flag", "lore", "lore")
    assert m.FlagsRolled(unit="f1", flags=2, ignorable=2) in events


# --- B-MOM-1 / B-MOM-2 ----------------------------------------------------------------------


def test_B_MOM_1_take_ground_pursuit_and_one_bonus_battle() -> None:
    knights = unit("e1", "english", "mounted_red", (6, 6))
    target = unit("f1", "french", "foot_blue", (6, 5), figures=1)
    behind = unit("f2", "french", "foot_blue", (6, 3))
    game, state = position(knights, target, behind, card="probe_centre")
    state, events = _battle(game, state, "blue", "lore", "lore", "lore")
    assert state.unit("f1") is None
    assert state.combat is not None and state.combat.stage == "take_ground"
    state, _ = act(game, state, "english", m.TakeGround())
    assert state.combat is not None and state.combat.stage == "pursuit"
    pursue = next(
        c
        for c in game.decision(state).legal("english")
        if isinstance(c, m.Pursue) and distance(c.to, behind.hex) == 1
    )
    state, _ = act(game, state, "english", pursue)
    assert state.combat is not None and state.combat.stage == "bonus"
    bonus = m.BonusBattle(target="f2")
    state, events = act(game, state, "english", bonus, "lore", "lore", "lore", "lore")
    assert m.BattleDeclared(unit="e1", target="f2", dice=4, melee=True, kind="bonus") in events
    assert m.StepEnded(step="battle") in events  # one bonus battle only: nothing is left


def test_B_MOM_2_a_bold_defender_that_holds_battles_back() -> None:
    attacker = unit("e1", "english", "foot_blue", (6, 6))
    defender = unit("f1", "french", "foot_red", (6, 5))
    friends = (unit("f8", "french", "foot_blue", (5, 5)), unit("f9", "french", "foot_blue", (7, 5)))
    game, state = position(attacker, defender, *friends, card="probe_centre")
    state, _ = _battle(game, state, "green", "lore", "lore")
    assert state.combat is not None and state.combat.stage == "battle_back"
    assert game.decision(state).acting == ("french",)
    state, events = act(game, state, "french", m.BattleBack(), "blue", "lore", "lore", "lore")
    assert (
        m.BattleDeclared(unit="f1", target="e1", dice=4, melee=True, kind="battle_back") in events
    )
    assert state.unit("e1").figures == 3  # type: ignore[union-attr]


# --- B-WIN-1 --------------------------------------------------------------------------------


def test_B_WIN_1_a_win_in_the_middle_of_a_turn() -> None:
    units = (
        unit("e1", "english", "foot_red", (6, 6)),
        unit("e2", "english", "foot_red", (3, 6)),
        unit("f1", "french", "foot_blue", (6, 5), figures=1),
        unit("f2", "french", "foot_blue", (3, 5)),
    )
    game, state = position(*units, card="assault_centre")
    state = replace(state, sides=(replace(state.sides[0], kills=3), state.sides[1]))
    assert len(game.decision(state).legal("english")) > 2  # e2 could still battle
    state, events = _battle(game, state, "blue", "lore", "lore", "lore")
    assert events[-1] == m.GameEnded(winner="english", reason="medals")
    assert game.decision(state).acting == ()
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winners == ("english",)


def test_B_WIN_1_an_objective_medal_counts_the_moment_its_hex_is_entered() -> None:
    objective = (6, 4)  # hired-swords: the hill is an objective for both sides
    mover = unit("e1", "english", "foot_green", (6, 6))
    enemy = unit("f1", "french", "foot_blue", (1, 1))
    game, state = position(mover, enemy, scenario="hired-swords", phase="move", card="probe_centre")
    state = replace(state, sides=(replace(state.sides[0], kills=4), state.sides[1]))
    from bl_helpers import pt

    state, events = act(game, state, "english", m.MoveUnit(unit="e1", to=pt(*objective)))
    assert m.MedalsChanged(side="english", objectives=1, reason="objective taken") in events
    assert events[-1] == m.GameEnded(winner="english", reason="medals")


# --- B-TURN-2 -------------------------------------------------------------------------------


def test_B_TURN_2_the_turn_limit_gives_the_win_to_more_medals() -> None:
    session = new_game(("english", "french"), game="battlelore", seed=4, options={"max_turns": 2})
    rng = random.Random(4)
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        legal = session.legal_commands(seat)
        ends = [c for c in legal if type(c).__name__.startswith("Finish")]
        session.apply(seat, ends[0] if ends else rng.choice(legal))
    outcome = session.outcome()
    assert outcome is not None and outcome.reason in ("turn_limit", "medals")
    assert session.state.turn == 2


# --- B-CMD-2: hidden hands and deck ---------------------------------------------------------


@pytest.mark.parametrize("scenario", ["agincourt", "hired-swords", "war-council"])
def test_B_CMD_2_views_and_legal_lists_ignore_the_other_hand_and_the_deck(scenario: str) -> None:
    session = new_game(
        ("english", "french"),
        game="battlelore",
        seed=7,
        options={"scenario": scenario, "max_turns": 12},
    )
    rng = random.Random(7)
    decider = session.decider
    checked = 0
    while session.outcome() is None:
        state = session.state
        for seat in state.seats:
            twin = twins(state, seat, rng)
            assert BATTLELORE.seat_view(twin, seat) == BATTLELORE.seat_view(state, seat)
            ours, theirs = decider.decision(state), decider.decision(twin)
            assert ours.acting == theirs.acting
            assert list(ours.legal(seat)) == list(theirs.legal(seat))
            checked += 1
        seat = session.acting_seats()[0]
        session.apply(seat, rng.choice(session.legal_commands(seat)))
    assert checked > 50
    view = BATTLELORE.seat_view(session.state, "english")
    assert view.sides[1].hand is None and view.sides[0].hand is not None
