"""Movement (rules §4): tests named by the rule they check."""

from __future__ import annotations

import pytest
from positions import grid_map, position

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.rules.movement import (
    decide_move,
    evolve_units_moved,
    legal_moves,
)
from nataterra_core.games.nataterra.rules.pathfinding import reachable
from nataterra_core.kernel import IllegalCommand, RandomPlayer

# Row 0 is a corridor; row 1 lies below it.
#   z00 z10 z20 z30 z40 z50
#     z01 z11 z21 z31 z41 z51      (row 1 is shifted right by half a hex)
CORRIDOR = ["V . . . . E", ". . . . . ."]


def destinations(
    moves: list[MoveUnits], unit: str, origin: str, count: int = 1
) -> dict[str, tuple[str, ...]]:
    return {
        m.path[-1]: m.path for m in moves if (m.unit, m.origin, m.count) == (unit, origin, count)
    }


def test_N_MOV_1_every_destination_once_per_count() -> None:
    ctx, state = position(grid_map(CORRIDOR), [("velathi", "hunter", "z00", 3)])
    moves = legal_moves(ctx, state, "velathi")
    by_count = {k: destinations(moves, "hunter", "z00", k) for k in (1, 2, 3)}
    assert by_count[1] == by_count[2] == by_count[3]
    assert len(moves) == 3 * len(by_count[1])
    # Hunters move 2: every zone within two steps of z00, none further.
    game_map = grid_map(CORRIDOR)
    frontier, seen = {"z00"}, {"z00"}
    for _ in range(2):
        frontier = {n for zone in frontier for n in game_map.neighbours(zone)} - seen
        seen |= frontier
    assert set(by_count[1]) == seen - {"z00"}


def test_N_MOV_1_canonical_path_is_shortest_then_smallest_ids() -> None:
    ctx, state = position(grid_map(CORRIDOR), [("velathi", "hunter", "z00", 1)])
    paths = destinations(legal_moves(ctx, state, "velathi"), "hunter", "z00")
    # z11 is two steps away through z01 or z10: "z01" < "z10".
    assert paths["z11"] == ("z01", "z11")
    assert all(len(path) <= 2 for path in paths.values())


def test_N_MOV_1_non_canonical_path_is_refused() -> None:
    ctx, state = position(grid_map(CORRIDOR), [("velathi", "hunter", "z00", 1)])
    with pytest.raises(IllegalCommand) as info:
        decide_move(
            ctx,
            state,
            "velathi",
            MoveUnits(unit="hunter", origin="z00", count=1, path=("z10", "z11")),
        )
    assert info.value.rule_id == "N-MOV-1"
    assert "canonical" in str(info.value)


def test_N_MOV_1_moving_stacks_split_and_merge() -> None:
    ctx, state = position(
        grid_map(CORRIDOR), [("velathi", "hunter", "z00", 3), ("velathi", "hunter", "z20", 1)]
    )
    (event,) = decide_move(
        ctx, state, "velathi", MoveUnits(unit="hunter", origin="z00", count=2, path=("z10", "z20"))
    )
    state = evolve_units_moved(state, event)
    stacks = {s.zone: (s.count, s.moved) for s in state.units}
    assert stacks == {"z00": (1, 0), "z20": (3, 2)}
    moves = legal_moves(ctx, state, "velathi")
    # The hunter left in z00 and the one that stayed in z20 may move; the two that moved may not.
    assert {(m.origin, m.count) for m in moves} == {("z00", 1), ("z20", 1)}
    with pytest.raises(IllegalCommand, match="N-MOV-1"):
        decide_move(
            ctx, state, "velathi", MoveUnits(unit="hunter", origin="z20", count=2, path=("z30",))
        )


def test_N_MOV_1_movement_value_limits_the_path() -> None:
    ctx, state = position(grid_map(CORRIDOR), [("velathi", "hunter", "z00", 1)])
    with pytest.raises(IllegalCommand, match="N-MOV-1"):
        decide_move(
            ctx,
            state,
            "velathi",
            MoveUnits(unit="hunter", origin="z00", count=1, path=("z10", "z20", "z30")),
        )


def test_N_MOV_2_mountain_stops_movement() -> None:
    ctx, state = position(grid_map(["V M . . . E"]), [("velathi", "disciple", "z00", 1)])
    paths = destinations(legal_moves(ctx, state, "velathi"), "disciple", "z00")
    assert paths == {"z10": ("z10",)}  # may end on the mountain, never go beyond it
    with pytest.raises(IllegalCommand) as info:
        decide_move(
            ctx,
            state,
            "velathi",
            MoveUnits(unit="disciple", origin="z00", count=1, path=("z10", "z20")),
        )
    assert info.value.rule_id == "N-MOV-2"


def test_N_MOV_2_lakes_are_forbidden() -> None:
    ctx, state = position(grid_map(["V L . . . E"]), [("velathi", "disciple", "z00", 1)])
    assert legal_moves(ctx, state, "velathi") == []
    with pytest.raises(IllegalCommand) as info:
        decide_move(
            ctx, state, "velathi", MoveUnits(unit="disciple", origin="z00", count=1, path=("z10",))
        )
    assert info.value.rule_id == "N-MOV-2"


def test_N_MOV_2_flying_ignores_mountains_and_lakes() -> None:
    ctx, state = position(
        grid_map(["E M L . . V"]), [("beasts", "harpy", "z00", 1)], active="beasts"
    )
    paths = destinations(legal_moves(ctx, state, "beasts"), "harpy", "z00")
    assert paths["z30"] == ("z10", "z20", "z30")
    assert "z40" in paths  # harpies move 4


def test_N_MOV_2_naga_base_is_a_lake_every_unit_may_enter() -> None:
    ctx, state = position(
        grid_map(["V N L . H E"]),
        [("velathi", "disciple", "z00", 1)],
        seats=("velathi", "beasts", "humans", "naga"),
    )
    paths = destinations(legal_moves(ctx, state, "velathi"), "disciple", "z00")
    assert paths == {"z10": ("z10",)}  # the Naga base yes, the plain lake beyond it no


def test_N_MOV_3_friendly_units_never_block() -> None:
    ctx, state = position(
        grid_map(["V . . . . E"]),
        [("velathi", "disciple", "z00", 1), ("velathi", "zealot", "z10", 3)],
    )
    paths = destinations(legal_moves(ctx, state, "velathi"), "disciple", "z00")
    assert paths["z30"] == ("z10", "z20", "z30")


def test_N_MOV_4_entering_an_enemy_zone_ends_the_move() -> None:
    ctx, state = position(
        grid_map(["V . . . . E"]),
        [("velathi", "disciple", "z00", 1), ("beasts", "orc", "z10", 1)],
    )
    paths = destinations(legal_moves(ctx, state, "velathi"), "disciple", "z00")
    assert paths == {"z10": ("z10",)}
    with pytest.raises(IllegalCommand) as info:
        decide_move(
            ctx,
            state,
            "velathi",
            MoveUnits(unit="disciple", origin="z00", count=1, path=("z10", "z20")),
        )
    assert info.value.rule_id == "N-MOV-4"


def test_N_MOV_4_flying_units_stop_on_enemies_too() -> None:
    ctx, state = position(
        grid_map(["E . . . . V"]),
        [("beasts", "harpy", "z00", 1), ("velathi", "disciple", "z10", 1)],
        active="beasts",
    )
    assert destinations(legal_moves(ctx, state, "beasts"), "harpy", "z00") == {"z10": ("z10",)}


def test_N_MOV_4_stealth_passes_through_one_enemy_zone() -> None:
    game_map = grid_map(["V . . . . E"])
    units = [
        ("velathi", "disciple", "z00", 1),
        ("beasts", "orc", "z10", 1),
        ("beasts", "orc", "z20", 1),
    ]
    ctx, state = position(game_map, units, sides={"velathi": {"disciple": "a"}})
    paths = destinations(legal_moves(ctx, state, "velathi"), "disciple", "z00")
    assert paths == {"z10": ("z10",), "z20": ("z10", "z20")}  # the second enemy zone stops it
    ctx, state = position(game_map, units)  # no tech: side A without its tech Stealth
    assert destinations(legal_moves(ctx, state, "velathi"), "disciple", "z00") == {"z10": ("z10",)}


def test_N_MOV_4_stealth_twice_passes_two_enemy_zones() -> None:
    # The Naga Forest Snake with tech B has Stealth twice (one printed, one from the tech).
    game_map = grid_map(["N . . . . . V", "E . . . . . H"])
    units = [
        ("naga", "forest_snake", "z00", 1),
        ("velathi", "hunter", "z10", 1),
        ("velathi", "hunter", "z20", 1),
        ("velathi", "hunter", "z30", 1),
    ]
    ctx, state = position(
        game_map,
        units,
        seats=("velathi", "beasts", "humans", "naga"),
        active="naga",
        sides={"naga": {"forest_snake": "b"}},
    )
    assert ctx.ability(state.player("naga"), "forest_snake", "stealth") == 2
    row0 = {
        zone: path
        for zone, path in destinations(
            legal_moves(ctx, state, "naga"), "forest_snake", "z00"
        ).items()
        if zone.endswith("0")
    }
    assert row0["z30"] == ("z10", "z20", "z30")
    assert "z40" not in row0  # the third enemy zone ends the move


def test_N_MOV_4_pathfinding_counts_stealth_per_instance() -> None:
    line = {f"z{q}": [f"z{q - 1}", f"z{q + 1}"] for q in range(1, 9)}
    line["z0"] = ["z1"]
    enemies = {"z1", "z2", "z3"}
    for stealth, farthest in ((0, "z1"), (1, "z2"), (2, "z3"), (3, "z6")):
        found = reachable(
            "z0",
            6,
            lambda z: line.get(z, []),
            can_enter=lambda z: True,
            ends_move=lambda z: False,
            enemy_occupied=enemies.__contains__,
            stealth=stealth,
        )
        assert max(found, key=lambda z: int(z[1:])) == farthest


@pytest.mark.parametrize("seed", [3, 4])
def test_N_MOV_1_remembered_moves_are_those_of_a_fresh_search(seed: int) -> None:
    """The reach memo (issue 20: kept from turn to turn, keyed by the enemies within reach)
    gives exactly the moves a search on an empty memo gives, in every movement phase."""
    session = new_game(seed=seed, options={"max_turns": 24})
    player = RandomPlayer(seed)
    compared = 0
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        state = session.state
        if state.phase == "movement" and state.combat is None:
            ctx = session.decider.context(state.map_id)
            remembered = legal_moves(ctx, state, seat)
            assert remembered == legal_moves(Context(ctx.pack, ctx.map), state, seat)
            compared += 1
        session.apply(seat, player.choose(None, session.legal_commands(seat)))
    assert compared > 20
