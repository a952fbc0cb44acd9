"""BattleLore's rules as tables, named after the clauses of ``rules/battlelore.md``."""

from __future__ import annotations

import attrs
import pytest
from bl_helpers import act, position, pt, unit, world

from nataterra_core.games.battlelore import messages as m
from nataterra_core.games.battlelore.board import distance, to_offset
from nataterra_core.games.battlelore.content import load_pack
from nataterra_core.games.battlelore.state import BattleLoreState, Unit
from nataterra_core.kernel import IllegalCommand

# --- B-UNIT-2: movement per type and banner ------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "battle_reach", "most"),
    [
        ("foot_green", 2, 2),
        ("foot_blue", 1, 2),
        ("foot_red", 1, 1),
        ("archers_green_bow", 2, 2),
        ("mounted_green", 4, 4),
        ("mounted_blue", 3, 3),
        ("mounted_red", 2, 2),
        ("dwarves_blue", 1, 2),
        ("goblins_blue", 2, 2),  # B-ADV-1: goblin rush
    ],
)
def test_B_UNIT_2_movement_per_type_and_banner(kind: str, battle_reach: int, most: int) -> None:
    _, state = position(unit("e1", "english", kind, (6, 6)), phase="move", card="assault_centre")
    w = world()
    mover = state.unit("e1")
    assert mover is not None
    paths = w.destinations(state, mover)
    assert max(len(p) for p in paths.values()) == most
    assert all(len(p) == distance(mover.hex, h) for h, p in paths.items())  # canonical: shortest
    for path in paths.values():
        assert w.may_battle_after(state, mover, path) == (len(path) <= battle_reach)


def test_B_UNIT_2_terrain_stops_and_occupied_hexes_block() -> None:
    w = world()
    # Agincourt has forest on offset (1,4): a green foot unit at (2,6) may enter it but not pass.
    game, state = position(
        unit("e1", "english", "mounted_green", (1, 6)),
        unit("e2", "english", "foot_blue", (2, 5)),
        phase="move",
        card="assault_left",
    )
    mover = state.unit("e1")
    assert mover is not None
    paths = w.destinations(state, mover)
    forest = pt(1, 4)
    assert forest in paths
    assert all(forest not in p[:-1] for p in paths.values())  # nobody passes through the forest
    assert pt(2, 5) not in paths  # occupied
    _, events = act(game, state, "english", m.MoveUnit(unit="e1", to=forest))
    moved = next(e for e in events if isinstance(e, m.UnitMoved))
    assert moved.path == paths[forest]


# --- B-BOARD-1 / B-CMD-1: sections ---------------------------------------------------------


@pytest.mark.parametrize(
    ("at", "side", "card", "orderable"),
    [
        ((4, 6), "english", "probe_left", True),  # on the line: left and centre
        ((4, 6), "english", "probe_centre", True),
        ((4, 6), "english", "probe_right", False),
        ((3, 7), "english", "probe_centre", False),  # odd row, the line runs along its edge
        ((3, 7), "english", "probe_left", True),
        ((10, 2), "french", "probe_left", True),  # the French left is the high columns
        ((10, 2), "french", "probe_right", False),
        ((8, 2), "french", "probe_left", True),  # the other line, seen from the French side
        ((8, 2), "french", "probe_centre", True),
    ],
)
def test_B_CMD_1_a_unit_on_a_section_line_is_ordered_from_either_section(
    at: tuple[int, int], side: str, card: str, orderable: bool
) -> None:
    game, state = position(
        unit("x1", side, "foot_blue", at),
        phase="order",
        card=card,
        ordered=(),
        active=0 if side == "english" else 1,
    )
    assert (m.OrderUnit(unit="x1") in game.decision(state).legal(side)) == orderable


def test_B_CMD_1_orders_beyond_the_units_available_are_lost() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (5, 6)),
        unit("e2", "english", "foot_blue", (1, 6)),
        phase="order",
        card="probe_centre",
        ordered=(),
    )
    state, events = act(game, state, "english", m.OrderUnit(unit="e1"))
    assert state.phase == "move"  # nothing else to order: the step ends by itself
    assert m.StepEnded(step="order", lost=1) in events


def test_B_CMD_1_an_illegal_order_names_the_rule_and_changes_nothing() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (1, 6)), phase="order", card="probe_centre", ordered=()
    )
    with pytest.raises(IllegalCommand) as raised:
        game.decide(state, m.OrderUnit(unit="e1"), None, seat="english")  # type: ignore[arg-type]
    assert raised.value.rule_id == "B-CMD-1"


# --- B-BAT-1 / B-BAT-2: range and line of sight --------------------------------------------


def _axial(uid: str, side: str, kind: str, q: int, r: int) -> Unit:
    figures = load_pack().unit_types[kind].figures
    return Unit(id=uid, side=side, type=kind, hex=(q, r), figures=figures, start=figures)


@pytest.mark.parametrize(
    ("blockers", "visible"),
    [
        ((), True),
        (((1, -1),), True),  # one side of the edge the line runs along
        (((1, 0),), True),  # the other side
        (((1, -1), (1, 0)), False),  # both sides block
    ],
)
def test_B_BAT_2_a_line_along_a_hex_edge_is_blocked_only_by_both_sides(
    blockers: tuple[tuple[int, int], ...], visible: bool
) -> None:
    base = pt(6, 6)
    archers = _axial("e1", "english", "archers_green_bow", *base)
    target = _axial("f1", "french", "foot_blue", base[0] + 2, base[1] - 1)
    others = [
        _axial(f"e{n + 2}", "english", "foot_blue", base[0] + dq, base[1] + dr)
        for n, (dq, dr) in enumerate(blockers)
    ]
    _, state = position(archers, target, *others)
    assert ("f1" in world().targets(state, archers)) == visible


@pytest.mark.parametrize(
    ("kind", "distance_", "in_range"),
    [
        ("archers_green_bow", 4, True),
        ("archers_green_bow", 5, False),
        ("archers_green_crossbow", 3, True),
        ("archers_green_crossbow", 4, False),
        ("foot_red", 1, True),
        ("foot_red", 2, False),
        ("mounted_green", 2, False),
    ],
)
def test_B_BAT_1_range_per_weapon(kind: str, distance_: int, in_range: bool) -> None:
    attacker = unit("e1", "english", kind, (6, 7))
    target = unit("f1", "french", "foot_blue", (6, 7 - distance_))
    _, state = position(attacker, target)
    assert ("f1" in world().targets(state, attacker)) == in_range


def test_B_BAT_2_units_and_blocking_terrain_block_sight() -> None:
    archers = unit("e1", "english", "archers_green_bow", (1, 6))
    target = unit("f1", "french", "foot_blue", (1, 2))  # the forest (1,4) and (1,3) between
    _, state = position(archers, target)
    assert world().targets(state, archers) == ()
    clear_archers = unit("e1", "english", "archers_green_bow", (6, 6))
    target2 = unit("f1", "french", "foot_blue", (6, 3))
    _, state = position(clear_archers, target2)
    assert world().targets(state, clear_archers) == ("f1",)
    _, state = position(clear_archers, target2, unit("e2", "english", "foot_red", (6, 4)))
    assert world().targets(state, clear_archers) == ()


def test_B_BAT_1_ranged_penalty_and_B_TER_1_caps() -> None:
    w = world()
    archers = unit("e1", "english", "archers_green_bow", (6, 6))
    target = unit("f1", "french", "foot_blue", (6, 3))
    _, state = position(archers, target, card="probe_centre")
    assert w.dice(state, archers, target, card_bonus=True) == 1  # 2 dice - 1 at range
    red = unit("e1", "english", "foot_red", (1, 5))
    in_forest = unit("f1", "french", "foot_blue", (1, 4))
    _, state = position(red, in_forest, card="probe_left")
    assert w.dice(state, red, in_forest, card_bonus=True) == 2  # forest caps 4 to 2
    _, state = position(red, in_forest, card="foot_onslaught")
    assert w.dice(state, red, in_forest, card_bonus=True) == 3  # a card's die adds on top


# --- B-DIE-3: the bonus strike in both modes -----------------------------------------------


def _battle(state: BattleLoreState, game: object, *faces: str) -> tuple[BattleLoreState, tuple]:
    return act(game, state, "english", m.BattleUnit(unit="e1", target="f1"), *faces)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("mode", "kind", "faces", "lost"),
    [
        ("reroll", "foot_blue", ("bonus_strike", "lore", "lore", "red"), 1),  # re-rolled: a hit
        ("reroll", "foot_blue", ("bonus_strike", "lore", "lore", "bonus_strike"), 0),  # then a miss
        ("hit", "foot_blue", ("bonus_strike", "lore", "lore"), 1),  # the rulebook: a hit
        ("reroll", "archers_green_bow", ("bonus_strike", "lore"), 0),  # a bow allows none
        ("hit", "archers_green_bow", ("bonus_strike", "lore"), 0),
    ],
)
def test_B_DIE_3_bonus_strike_in_both_modes(
    mode: str, kind: str, faces: tuple[str, ...], lost: int
) -> None:
    pack = load_pack()
    pack = attrs.evolve(pack, rules=attrs.evolve(pack.rules, bonus_strike=mode))
    game, state = position(
        unit("e1", "english", kind, (6, 6)),
        unit("f1", "french", "foot_red", (6, 5)),
        pack=pack,
        card="probe_centre",
    )
    after, events = _battle(state, game, *faces)
    target = after.unit("f1")
    assert target is not None and target.figures == 4 - lost
    rolls = [e for e in events if isinstance(e, m.DiceRolled)]
    assert [f for e in rolls for f in e.faces] == list(faces)  # every die recorded


# --- B-RET-1 / B-RET-2: retreat ------------------------------------------------------------


def _resolve(game: object, state: BattleLoreState, ignore: bool) -> BattleLoreState:
    """Answer the defender's choices: ignore flags or not, retreat to the first hex, decline
    the rest (take ground, battle back)."""
    while state.combat is not None and state.phase != "over":
        seat = game.decision(state).acting[0]  # type: ignore[attr-defined]
        legal = game.decision(state).legal(seat)  # type: ignore[attr-defined]
        if m.IgnoreFlag() in legal:
            choice = m.IgnoreFlag() if ignore else m.AcceptFlags()
        elif m.Decline() in legal:
            choice = m.Decline()
        else:
            choice = legal[0]
        state, _ = act(game, state, seat, choice)  # type: ignore[arg-type]
    return state


@pytest.mark.parametrize(
    ("flags", "row", "blocked", "bold", "moved", "lost"),
    [
        (1, 2, 0, False, 1, 0),
        (2, 2, 0, False, 2, 0),
        (3, 2, 0, False, 2, 1),  # off the board after two hexes
        (1, 0, 0, False, 0, 1),  # on its own edge: the hex is blocked
        (1, 3, 1, False, 0, 1),  # both hexes toward home taken: a figure per blocked hex
        (2, 3, 1, False, 0, 2),
        (1, 2, 0, True, 0, 0),  # bold: ignores the one flag
        (2, 2, 0, True, 1, 0),  # bold: ignores one of two
        (3, 2, 0, True, 2, 0),
    ],
)
def test_B_RET_1_and_B_RET_2_retreat_table(
    flags: int, row: int, blocked: int, bold: bool, moved: int, lost: int
) -> None:
    column = 6
    defender = unit("f1", "french", "foot_blue", (column, row))
    attacker = unit("e1", "english", "foot_red", (column, row + 1))
    extra: list[Unit] = []
    if bold:  # two friends beside it on its row: bold, and not in its way
        extra += [
            unit("f8", "french", "foot_blue", (column - 1, row)),
            unit("f9", "french", "foot_blue", (column + 1, row)),
        ]
    if blocked:  # both hexes one row up taken by the English: the first retreat hex is blocked
        for n, h in enumerate(world().board.toward_home(defender.hex, "french")):
            extra.append(unit(f"e{n + 5}", "english", "foot_blue", to_offset(h)))
    game, state = position(attacker, defender, *extra, card="assault_centre", ordered=("e1",))
    assert "f1" in world().targets(state, attacker)
    start = defender.hex
    after, _ = _battle(state, game, *(["flag"] * flags + ["lore"] * (4 - flags)))
    after = _resolve(game, after, ignore=bold)
    survivor = after.unit("f1")
    assert survivor is not None
    assert distance(start, survivor.hex) == moved
    assert survivor.figures == 4 - lost
