"""Every command card, lore card and unit type of the provisional pack does what its data
says, in play (B-CMD-1, B-CMD-2, B-ADV-5, B-UNIT-2, B-UNIT-3)."""

from __future__ import annotations

import pytest
from bl_helpers import act, position, unit, world
from msgspec.structs import replace

from nataterra_core.games.battlelore import messages as m
from nataterra_core.games.battlelore.content import load_pack
from nataterra_core.games.battlelore.rules.lore_windows import lore_commands
from nataterra_core.games.battlelore.state import BattleLoreState

COVERS_ALL_COMMAND_CARDS = True
COVERS_ALL_LORE_CARDS = True
COVERS_ALL_UNIT_TYPES = True

PACK = load_pack()


@pytest.mark.parametrize("card_id", sorted(PACK.cards))
def test_B_CMD_1_every_card_orders_only_what_its_primitives_allow(card_id: str) -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (1, 6)),  # left
        unit("e2", "english", "archers_green_bow", (4, 6)),  # left and centre
        unit("e3", "english", "mounted_green", (6, 6)),  # centre
        unit("e4", "english", "foot_red", (10, 6)),  # right
        unit("e5", "english", "mounted_red", (11, 7)),  # right
        unit("f1", "french", "foot_blue", (6, 2)),
        phase="card",
        card="",
        ordered=(),
    )
    sides = (
        replace(state.sides[0], hand=(card_id,)),
        replace(state.sides[1], last_card="probe_left"),
    )
    state = replace(state, sides=sides)
    state, _ = act(game, state, "english", m.PlayCard(card=card_id))
    card = PACK.cards[state.card]  # a Counter-Attack acts as the copied card
    w = world()
    while state.phase == "order":
        orderable = w.orderable(state)
        for unit_id in orderable:
            mine = state.unit(unit_id)
            assert mine is not None
            fits = [
                o
                for o in card.orders
                if (not o.kinds or w.type_of(mine).kind in o.kinds)
                and set(o.sections) & set(w.board.sections(mine.hex, "english"))
            ]
            assert fits, f"{unit_id} is orderable but fits no order of {card.id}"
        if not orderable:
            break
        state, _ = act(game, state, "english", m.OrderUnit(unit=orderable[0]))
    assert len(state.ordered) <= sum(o.count for o in card.orders)
    for unit_id in state.ordered:
        mover = state.unit(unit_id)
        assert mover is not None
        _, most = w.reach(state, mover)
        kind = w.type_of(mover)
        expected = max(kind.move, kind.move_without_battle) + card.move_bonus
        assert most == (min(expected, card.max_move) if card.max_move >= 0 else expected)


@pytest.mark.parametrize("type_id", sorted(PACK.unit_types))
def test_B_UNIT_2_B_UNIT_3_every_unit_type_moves_and_rolls_by_its_data(type_id: str) -> None:
    kind = PACK.unit_types[type_id]
    mover = unit("e1", "english", type_id, (6, 6))
    target = unit("f1", "french", "foot_blue", (6, 5))
    _, state = position(mover, target, scenario="hired-swords", phase="move", card="probe_centre")
    w = world("hired-swords")
    assert w.reach(state, mover) == (kind.move, max(kind.move, kind.move_without_battle))
    dice = kind.dice or PACK.rules.banner_dice[kind.banner]
    assert w.dice(state, mover, target, card_bonus=False) == dice
    assert mover.figures == kind.figures


def _window_position(window: str) -> tuple[object, BattleLoreState, str]:
    """A war-council position where ``window`` is open for the side that plays."""
    english = unit("e1", "english", "mounted_blue", (6, 6), figures=2)
    french = unit("f1", "french", "foot_blue", (6, 5))
    friends = (unit("f8", "french", "foot_blue", (5, 5)), unit("f9", "french", "foot_blue", (7, 5)))
    if window == "command":
        game, state = position(
            english, french, scenario="war-council", phase="card", card="", ordered=()
        )
        return (
            game,
            replace(state, sides=(state.sides[0], replace(state.sides[1], hand=("rally",)))),
            "english",
        )
    if window in ("before_roll", "end_of_turn"):
        phase = "battle" if window == "before_roll" else "draw"
        game, state = position(
            english, french, scenario="war-council", phase=phase, card="probe_centre"
        )
        return (
            game,
            replace(state, sides=(state.sides[0], replace(state.sides[1], lore_tokens=2))),
            "english",
        )
    # after_roll and on_retreat: the French defend a roll of one hit and one flag
    game, state = position(english, french, *friends, scenario="war-council", card="probe_centre")
    state = replace(
        state,
        sides=(state.sides[0], replace(state.sides[1], lore_hand=("courage",), lore_tokens=1)),
    )
    state, _ = act(
        game, state, "english", m.BattleUnit(unit="e1", target="f1"), "blue", "flag", "lore"
    )
    if window == "on_retreat":
        state, _ = act(game, state, "french", m.Decline())
    return game, state, "french"


@pytest.mark.parametrize("card_id", sorted(PACK.lore))
def test_B_ADV_5_every_lore_card_is_offered_in_its_window_and_paid_for(card_id: str) -> None:
    card = PACK.lore[card_id]
    game, state, seat = _window_position(card.window)
    i = state.seats.index(seat)
    sides = list(state.sides)
    sides[i] = replace(sides[i], lore_hand=(card_id,), lore_tokens=card.cost + 1)
    state = replace(state, sides=(sides[0], sides[1]))
    plays = lore_commands(world("war-council"), state, seat, card.window)
    assert plays, f"{card_id} is not offered in its window {card.window}"
    assert all(p in game.decision(state).legal(seat) for p in plays)  # type: ignore[attr-defined]
    faces = ["blue"] * card.dice + ([0] if card.effect == "discard_random" else [])
    after, events = act(game, state, seat, plays[0], *faces)  # type: ignore[arg-type]
    assert m.LorePlayed(seat=seat, card=card_id, unit=plays[0].unit, to=plays[0].to) in events  # type: ignore[attr-defined]
    assert after.side_of(seat).lore_tokens >= 1 or card.effect == "steal_token"
    assert card_id not in after.side_of(seat).lore_hand
