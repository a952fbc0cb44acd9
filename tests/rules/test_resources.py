"""Resources (rules §5): gathering by zone, multipliers."""

from __future__ import annotations

import msgspec
from positions import grid_map, position

from nataterra_core.games.nataterra.rules.resources import evolve_resources_gathered, gather
from nataterra_core.games.nataterra.state import Resources

RESOURCE_MAP = grid_map(
    ["V . . . . E"],
    resources={"z10": "food", "z20": "food", "z30": "wood", "z40": "metal"},
)


def test_N_RES_1_two_workers_in_one_zone_count_once() -> None:
    ctx, state = position(RESOURCE_MAP, [("velathi", "hunter", "z10", 2)])
    assert gather(ctx, state, "velathi").gain == Resources(food=1)


def test_N_RES_1_each_zone_counts_and_resources_add_to_the_stock() -> None:
    ctx, state = position(
        RESOURCE_MAP,
        [("velathi", "hunter", z, 1) for z in ("z10", "z20", "z30", "z40")],
    )
    event = gather(ctx, state, "velathi")
    assert event.gain == Resources(food=2, wood=1, metal=1)
    assert event.zones == ("z10", "z20", "z30", "z40")
    before = state.player("velathi").stock
    after = evolve_resources_gathered(state, event).player("velathi").stock
    assert after == before + Resources(2, 1, 1)


def test_N_RES_1_multipliers_multiply() -> None:
    ctx, state = position(
        RESOURCE_MAP,
        [("velathi", "hunter", z, 1) for z in ("z10", "z20", "z30", "z40")],
    )
    player = msgspec.structs.replace(state.player("velathi"), multipliers=Resources(3, 2, 4))
    state = state.with_player(player)
    assert gather(ctx, state, "velathi").gain == Resources(food=6, wood=2, metal=4)


def test_N_RES_1_combat_units_gather_nothing() -> None:
    ctx, state = position(RESOURCE_MAP, [("velathi", "disciple", "z10", 3)])
    assert gather(ctx, state, "velathi").gain == Resources()


def test_N_RES_2_workers_gather_beside_enemy_units() -> None:
    ctx, state = position(
        RESOURCE_MAP, [("velathi", "hunter", "z30", 1), ("beasts", "orc", "z30", 3)]
    )
    assert gather(ctx, state, "velathi").gain == Resources(wood=1)


def test_N_RES_1_only_the_gathering_players_workers_count() -> None:
    ctx, state = position(RESOURCE_MAP, [("beasts", "woodcutter", "z30", 1)])
    assert gather(ctx, state, "velathi").gain == Resources()
    assert gather(ctx, state, "beasts").gain == Resources(wood=1)
