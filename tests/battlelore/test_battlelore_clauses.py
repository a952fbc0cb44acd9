"""The remaining clauses of ``rules/battlelore.md`` and the rulings of ``docs/battlelore.md``,
one test each, named after their ids."""

from __future__ import annotations

import pytest
from bl_helpers import act, position, pt, unit, world
from msgspec.structs import replace

from nataterra_core.game import new_game
from nataterra_core.games.battlelore import messages as m
from nataterra_core.games.battlelore.content import load_pack
from nataterra_core.games.battlelore.decider import BattleLore
from nataterra_core.kernel import Setup
from nataterra_core.kernel.registry import OptionsError


def test_B_BOARD_1_nine_rows_of_thirteen_and_twelve_hexes() -> None:
    board = world().board
    assert len(board.hexes) == 5 * 13 + 4 * 12
    assert board.toward_home(pt(6, 4), "english") == tuple(sorted((pt(5, 5), pt(6, 5))))
    assert board.toward_home(pt(6, 4), "french") == tuple(sorted((pt(5, 3), pt(6, 3))))


def test_B_BOARD_2_a_line_cuts_even_row_hexes_and_runs_along_odd_row_edges() -> None:
    board = world().board
    assert board.sections(pt(4, 0), "english") == ("left", "centre")
    assert board.sections(pt(3, 1), "english") == ("left",)
    assert board.sections(pt(4, 1), "english") == ("centre",)
    assert board.sections(pt(4, 0), "french") == ("centre", "right")  # mirrored


def test_B_UNIT_1_and_B_DIE_2_hits_of_the_banner_colour_remove_figures() -> None:
    game, state = position(
        unit("e1", "english", "foot_red", (6, 6)),
        unit("f1", "french", "foot_blue", (6, 5), figures=3),
        card="probe_centre",
    )
    state, events = act(
        game, state, "english", m.BattleUnit(unit="e1", target="f1"), "blue", "red", "green", "lore"
    )
    assert m.FiguresLost(unit="f1", count=1, cause="hits") in events  # only the blue helmet
    left = state.unit("f1")
    assert left is not None and left.figures == 2


@pytest.mark.parametrize(("kind", "dice"), [("foot_green", 2), ("foot_blue", 3), ("foot_red", 4)])
def test_B_UNIT_3_battle_dice_by_banner_however_many_figures(kind: str, dice: int) -> None:
    attacker = unit("e1", "english", kind, (6, 6), figures=1)
    target = unit("f1", "french", "foot_blue", (6, 5))
    _, state = position(attacker, target, card="probe_centre")
    assert world().dice(state, attacker, target, card_bonus=True) == dice


def test_B_DIE_1_every_die_is_a_recorded_draw_of_six_with_its_face() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (6, 6)),
        unit("f1", "french", "foot_red", (6, 5)),
        card="probe_centre",
    )
    _, events = act(
        game, state, "english", m.BattleUnit(unit="e1", target="f1"), "flag", "lore", "green"
    )
    rolled = next(e for e in events if isinstance(e, m.DiceRolled))
    assert rolled.ms == (6, 6, 6) and rolled.values == (3, 5, 0)
    assert rolled.faces == ("flag", "lore", "green")


def test_B_DIE_4_hits_before_flags_and_a_medal_for_the_destroyed_unit() -> None:
    game, state = position(
        unit("e1", "english", "foot_red", (6, 6)),
        unit("f1", "french", "foot_blue", (6, 5), figures=1),
        card="probe_centre",
    )
    state, events = act(
        game, state, "english", m.BattleUnit(unit="e1", target="f1"), "flag", "blue", "lore", "lore"
    )
    assert m.UnitDestroyed(unit="f1", medal_to="english") in events
    assert not any(isinstance(e, m.RetreatBegun) for e in events)  # nothing left to retreat
    assert state.side_of("english").medals == 1


def test_B_DIE_4_a_unit_destroyed_by_blocked_retreat_gives_a_medal() -> None:
    game, state = position(
        unit("e1", "english", "foot_red", (6, 1)),
        unit("f1", "french", "foot_blue", (6, 0), figures=2),
        card="probe_centre",
    )
    state, events = act(
        game, state, "english", m.BattleUnit(unit="e1", target="f1"), "flag", "flag", "lore", "lore"
    )
    assert [e.cause for e in events if isinstance(e, m.FiguresLost)] == ["blocked", "blocked"]
    assert m.UnitDestroyed(unit="f1", medal_to="english") in events


def test_B_TER_1_a_building_stops_and_forbids_battle_and_the_hill_cap_spares_hill_to_hill() -> None:
    w = world("hired-swords")
    _, state = position(
        unit("e1", "english", "foot_green", (4, 7)),
        unit("f1", "french", "foot_blue", (5, 4)),
        scenario="hired-swords",
        phase="move",
        card="probe_left",
    )
    mover = state.unit("e1")
    assert mover is not None
    building = pt(4, 5)
    path = w.destinations(state, mover)[building]
    assert not w.may_battle_after(state, mover, path)
    on_hill = unit("e2", "english", "foot_red", (6, 4))
    below = unit("f2", "french", "foot_red", (6, 5))
    _, state = position(on_hill, below, scenario="hired-swords", card="probe_centre")
    assert w.dice(state, below, on_hill, card_bonus=False) == 2  # uphill: capped
    assert w.dice(state, on_hill, below, card_bonus=False) == 4  # downhill: no cap


def test_B_TURN_1_the_five_steps_in_order_and_B_CMD_2_a_card_drawn_at_the_end() -> None:
    session = new_game(("english", "french"), game="battlelore", seed=2)
    state = session.state
    assert state.phase == "card" and state.seat == "french"  # Agincourt: the French first
    hand = state.side_of("french").hand
    session.apply("french", m.PlayCard(card=hand[0]))
    phases = [session.state.phase]
    while session.state.seat == "french" and session.outcome() is None:
        seat = session.acting_seats()[0]
        legal = session.legal_commands(seat)
        keep = [c for c in legal if isinstance(c, m.KeepCard)]
        session.apply(seat, keep[0] if keep else legal[-1])  # the "finish" of each step
        if session.state.phase != phases[-1]:
            phases.append(session.state.phase)
    assert phases[0] == "order" and phases[-1] == "card"
    assert [p for p in phases if p in ("order", "move", "battle")] == sorted(
        {p for p in phases if p in ("order", "move", "battle")},
        key=("order", "move", "battle").index,
    )
    assert len(session.state.side_of("french").hand) == len(hand)


def test_B_SEAT_1_the_seats_are_the_scenarios_sides() -> None:
    with pytest.raises(OptionsError, match="B-SEAT-1"):
        new_game(("normans", "saxons"), game="battlelore", seed=1)
    with pytest.raises(OptionsError, match="B-SCN-1"):
        new_game(("english", "french"), game="battlelore", seed=1, options={"scenario": "nope"})


def test_B_CMD_2_a_scout_draws_two_and_keeps_one() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (6, 6)), phase="battle", card="scout_centre"
    )
    state = replace(state, deck=("rally", "probe_left", "attack_left"))
    state, events = act(game, state, "english", m.FinishBattles())
    assert (
        m.CardsDrawn(seat="english", deck="command", cards=("rally", "probe_left"), pending=True)
        in events
    )
    legal = game.decision(state).legal("english")
    assert legal == (
        m.KeepCard(seat="english", card="probe_left"),
        m.KeepCard(seat="english", card="rally"),
    )
    state, events = act(game, state, "english", m.KeepCard(seat="english", card="rally"))
    assert "rally" in state.side_of("english").hand
    assert (
        m.CardsDiscarded(seat="english", deck="command", cards=("probe_left",), source="draw")
        in events
    )


def test_B_CMD_2_an_empty_deck_is_reshuffled_from_the_discards() -> None:
    game, state = position(unit("e1", "english", "foot_blue", (6, 6)), card="probe_centre")
    state = replace(state, deck=(), discard=("rally", "probe_left"))
    _, events = act(game, state, "english", m.FinishBattles())
    shuffled = next(e for e in events if isinstance(e, m.DeckShuffled))
    assert sorted(shuffled.before) == ["probe_left", "rally"]


def test_B_CMD_3_counter_attack_acts_as_the_opponents_last_card() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (6, 6)), phase="card", card="", ordered=()
    )
    sides = (
        replace(state.sides[0], hand=("counter_attack",)),
        replace(state.sides[1], last_card="attack_centre"),
    )
    state = replace(state, sides=sides)
    state, events = act(game, state, "english", m.PlayCard(card="counter_attack"))
    assert m.CardPlayed(seat="english", card="counter_attack", acts_as="attack_centre") in events
    assert state.card == "attack_centre"


def test_B_MOM_1_foot_takes_ground_but_does_not_pursue() -> None:
    game, state = position(
        unit("e1", "english", "foot_red", (6, 6)),
        unit("f1", "french", "foot_blue", (6, 5), figures=1),
        unit("f2", "french", "foot_blue", (6, 3)),
        card="probe_centre",
    )
    state, _ = act(
        game, state, "english", m.BattleUnit(unit="e1", target="f1"), "blue", "lore", "lore", "lore"
    )
    state, events = act(game, state, "english", m.TakeGround())
    assert m.UnitMoved(unit="e1", path=(pt(6, 5),), why="take_ground") in events
    assert state.combat is None  # no pursuit: not mounted


def test_B_MOM_3_a_battle_back_is_not_battled_back() -> None:
    attacker = unit("e1", "english", "foot_blue", (6, 6))
    friends_e = (
        unit("e8", "english", "foot_blue", (5, 6)),
        unit("e9", "english", "foot_blue", (7, 6)),
    )
    defender = unit("f1", "french", "foot_red", (6, 5))
    friends_f = (
        unit("f8", "french", "foot_blue", (5, 5)),
        unit("f9", "french", "foot_blue", (7, 5)),
    )
    game, state = position(
        attacker, defender, *friends_e, *friends_f, card="probe_centre", ordered=("e1",)
    )
    state, _ = act(
        game, state, "english", m.BattleUnit(unit="e1", target="f1"), "lore", "lore", "lore"
    )
    state, _ = act(game, state, "french", m.BattleBack(), "lore", "lore", "lore", "lore")
    assert state.combat is None  # the bold English unit may not answer a battle back


def test_B_DIE_5_the_lore_face_is_a_miss_without_lore() -> None:
    game, state = position(
        unit("e1", "english", "foot_red", (6, 6)),
        unit("f1", "french", "foot_blue", (6, 5)),
        card="probe_centre",
    )
    state, events = act(
        game, state, "english", m.BattleUnit(unit="e1", target="f1"), "lore", "lore", "lore", "lore"
    )
    assert not any(isinstance(e, m.LoreTokens) for e in events)
    assert state.unit("f1").figures == 4  # type: ignore[union-attr]


def test_pack_scenarios_build_a_state_each() -> None:
    game = BattleLore(load_pack())
    for scenario in load_pack().scenarios:
        state = game.initial_state(
            Setup(game_id="t", seats=("english", "french"), options={"scenario": scenario})
        )
        assert len({u.hex for u in state.units}) == len(state.units)


def test_B_CMD_4_ordering_may_stop_early_and_a_spider_hit_costs_the_next_order() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (5, 6)),
        unit("e2", "english", "foot_blue", (6, 6)),
        phase="order",
        card="probe_centre",
        ordered=(),
        cancelled=("e2",),
    )
    legal = game.decision(state).legal("english")
    assert m.OrderUnit(unit="e2") not in legal and m.OrderUnit(unit="e1") in legal
    state, events = act(game, state, "english", m.FinishOrders())
    assert m.StepEnded(step="order", lost=2) in events


@pytest.mark.parametrize(
    ("card", "kind", "battle_reach", "most"),
    [
        ("darken_the_sky", "archers_green_bow", 0, 0),  # archers stay and shoot
        ("line_advance", "mounted_green", 1, 1),
        ("battle_march", "foot_red", 2, 2),  # one more hex
        ("probe_centre", "foot_red", 1, 1),
    ],
)
def test_B_CMD_5_tactic_cards_change_movement(
    card: str, kind: str, battle_reach: int, most: int
) -> None:
    mover = unit("e1", "english", kind, (6, 6))
    _, state = position(mover, phase="move", card=card)
    assert world().reach(state, mover) == (battle_reach, most)


def test_B_CMD_5_darken_the_sky_adds_a_ranged_die_and_rally_gives_figures_back() -> None:
    archers = unit("e1", "english", "archers_green_bow", (6, 6))
    target = unit("f1", "french", "foot_blue", (6, 3))
    _, state = position(archers, target, card="darken_the_sky")
    assert world().dice(state, archers, target, card_bonus=True) == 2  # 2 - 1 + 1
    game, state = position(
        unit("e1", "english", "foot_blue", (6, 6), figures=2),
        phase="order",
        card="rally",
        ordered=(),
    )
    state, events = act(game, state, "english", m.OrderUnit(unit="e1"))
    assert m.FiguresRegained(unit="e1", count=1) in events
