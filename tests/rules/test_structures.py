"""Structures (rules §8, N-STR-0..3): placement, the twelve effects, Radiance, destruction."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from positions import Chooser, Table, grid_map, position

from nataterra_core.games.nataterra.messages.combat import (
    AttackResolved,
    CombatEnded,
    DeployGroup,
    GroupDeployed,
    Retreat,
    StartCombat,
)
from nataterra_core.games.nataterra.messages.development import (
    Build,
    StructureBuilt,
    StructureDestroyed,
    StructureRecruited,
    StructuresProduced,
)
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.tactics import TacticCardDrawn
from nataterra_core.games.nataterra.messages.turns import EndPhase, TurnStarted
from nataterra_core.games.nataterra.rules.combat.model import Combat, Group
from nataterra_core.games.nataterra.rules.combat_phase import combat_env, contested
from nataterra_core.games.nataterra.rules.hexmap import GameMap
from nataterra_core.games.nataterra.rules.stock import Resources
from nataterra_core.games.nataterra.rules.structures import imprison
from nataterra_core.games.nataterra.state import Phase, PlacedStructure
from nataterra_core.kernel import Command

RICH = Resources(20, 20, 20)
Units = Sequence[tuple[str, str, str, int]]


def table(
    rows: list[str],
    units: Units,
    *,
    seats: tuple[str, ...] = ("humans", "beasts"),
    active: str | None = None,
    phase: Phase = "development",
    built: Sequence[tuple[str, str, str]] = (),
    unlocked: dict[str, tuple[str, ...]] | None = None,
    stock: Resources = RICH,
    strategy_zone: str | None = None,
) -> Table:
    game_map = grid_map(rows)
    if strategy_zone is not None:
        game_map = GameMap(game_map.map_id, game_map.zones.values(), strategy_zone)
    ctx, state = position(game_map, units, seats=seats, active=active or seats[0], phase=phase)
    placed = tuple(PlacedStructure(o, s, z) for o, s, z in built)
    state = msgspec.structs.replace(state, structures=placed)
    for seat in seats:
        changes: dict[str, object] = {"stock": stock}
        if unlocked and seat in unlocked:
            changes["structures_unlocked"] = unlocked[seat]
        state = state.with_player(msgspec.structs.replace(state.player(seat), **changes))
    return Table(ctx, state, seed_number=5)


def retreats(side: str) -> Chooser:
    """Has ``side`` retreat whenever it may (N-COMBAT-23)."""

    def choose(combat: Combat, seat: str, options: Sequence[Command]) -> Command | None:
        give_up = Retreat(retreat=True)
        return give_up if seat == side and give_up in options else None

    return choose


# -- placement (N-STR-1) -----------------------------------------------------------------------

BUILD_ROWS = ["H . . . . E", ". . L . . ."]  # z21 is a lake
PEASANT = ("humans", "peasant", "z20", 1)


def test_N_STR_1_build_pays_and_places_the_structure() -> None:
    t = table(BUILD_ROWS, [PEASANT])
    events = t.play(Build(structure="farm", zone="z30"))
    cost = Resources(wood=2)
    assert events == [StructureBuilt(seat="humans", structure="farm", zone="z30", cost=cost)]
    assert t.state.structures == (PlacedStructure("humans", "farm", "z30"),)
    assert t.state.player("humans").stock == RICH - cost


def test_N_STR_1_legal_list_offers_every_structure_and_zone() -> None:
    t = table(BUILD_ROWS, [PEASANT], unlocked={"humans": ("farm", "stable")})
    builds = {(c.structure, c.zone) for c in t.legal() if isinstance(c, Build)}
    # the worker's zone and its neighbours, without the lake z21
    zones = ("z10", "z11", "z20", "z30")
    assert builds == {(s, z) for s in ("farm", "stable") for z in zones}


def test_N_SETUP_6_N_STR_1_only_unlocked_structures_are_built() -> None:
    t = table(BUILD_ROWS, [PEASANT])
    assert not any(isinstance(c, Build) and c.structure == "stable" for c in t.legal())
    assert t.refused(Build(structure="stable", zone="z30")) == "N-STR-1"


def test_N_STR_1_only_on_or_next_to_a_zone_with_your_worker() -> None:
    t = table(BUILD_ROWS, [PEASANT, ("humans", "spearman", "z40", 1)])
    assert t.refused(Build(structure="farm", zone="z40")) == "N-STR-1"


def test_N_STR_1_never_on_a_lake() -> None:
    t = table(BUILD_ROWS, [PEASANT])
    assert t.refused(Build(structure="farm", zone="z21")) == "N-STR-1"


def test_N_STR_1_never_on_a_base() -> None:
    t = table(BUILD_ROWS, [("humans", "peasant", "z10", 1)])
    assert Build(structure="farm", zone="z00") not in t.legal()
    assert t.refused(Build(structure="farm", zone="z00")) == "N-STR-1"


def test_N_STR_1_never_where_enemy_units_are() -> None:
    t = table(BUILD_ROWS, [PEASANT, ("beasts", "orc", "z30", 1)])
    assert Build(structure="farm", zone="z30") not in t.legal()
    assert t.refused(Build(structure="farm", zone="z30")) == "N-STR-1"


def test_N_STR_1_never_on_a_zone_that_has_a_structure() -> None:
    t = table(BUILD_ROWS, [PEASANT], built=[("beasts", "warcry_totem", "z30")])
    assert Build(structure="farm", zone="z30") not in t.legal()
    assert t.refused(Build(structure="farm", zone="z30")) == "N-STR-1"


def test_N_STR_1_never_on_the_victory_condition_marker() -> None:
    t = table(BUILD_ROWS, [PEASANT], strategy_zone="z30")
    assert Build(structure="farm", zone="z30") not in t.legal()
    assert t.refused(Build(structure="farm", zone="z30")) == "N-STR-1"


def test_N_STR_1_the_cost_must_be_paid() -> None:
    t = table(BUILD_ROWS, [PEASANT], stock=Resources(food=5, wood=1))
    assert not any(isinstance(c, Build) for c in t.legal())
    assert t.refused(Build(structure="farm", zone="z30")) == "N-STR-1"


def test_N_STR_0_copies_limit_the_structures_on_the_map() -> None:
    farms = [("humans", "farm", z) for z in ("z10", "z11", "z30", "z40")]  # 4 copies
    t = table(BUILD_ROWS, [PEASANT, ("humans", "peasant", "z41", 1)], built=farms)
    assert not any(isinstance(c, Build) for c in t.legal())
    assert t.refused(Build(structure="farm", zone="z20")) == "N-STR-0"


def test_N_STR_1_structures_are_built_in_the_development_phase() -> None:
    t = table(BUILD_ROWS, [PEASANT], phase="movement")
    assert t.refused(Build(structure="farm", zone="z30")) == "N-TURN-1"


# -- resources: Farm, Sacred Tree, Soul Prison (N-STR-3, N-RES-3) ------------------------------

FARM_ROWS = ["H . . . . . E"]


def produced(t: Table) -> list[StructuresProduced]:
    t.play(EndPhase(phase="movement"))
    return [e for e in t.events if isinstance(e, StructuresProduced)]


def test_N_STR_3_farm_gives_one_food_and_one_more_with_nothing_adjacent() -> None:
    t = table(FARM_ROWS, [], phase="movement", built=[("humans", "farm", "z30")])
    before = t.state.player("humans").stock
    assert produced(t) == [StructuresProduced(seat="humans", zones=("z30",), gain=Resources(2))]
    assert t.state.player("humans").stock == before + Resources(2)


def test_N_STR_3_farm_next_to_a_base_or_structure_gives_one_food() -> None:
    built = [
        ("humans", "farm", "z10"),
        ("humans", "farm", "z40"),
        ("beasts", "rift_in_the_wall", "z50"),
    ]
    t = table(FARM_ROWS, [], phase="movement", built=built)
    # z10 borders the base z00, z40 borders the rift in z50
    assert produced(t)[0].gain == Resources(2)


def test_N_STR_3_N_RES_3_N_FAQ_5_farm_is_not_multiplied() -> None:
    t = table(FARM_ROWS, [("humans", "peasant", "z20", 1)], phase="movement")
    t.state = t.state.with_player(
        msgspec.structs.replace(t.state.player("humans"), multipliers=Resources(3, 1, 1))
    )
    t.state = msgspec.structs.replace(
        t.state, structures=(PlacedStructure("humans", "farm", "z40"),)
    )
    before = t.state.player("humans").stock
    assert produced(t)[0].gain == Resources(2)
    assert t.state.player("humans").stock == before + Resources(2)  # no worker on a resource


def test_N_STR_3_sacred_tree_gives_flare() -> None:
    t = table(
        ["V . . . . N"],
        [],
        seats=("naga", "velathi"),
        phase="movement",
        built=[("naga", "sacred_tree", "z20")],
    )
    flare = t.state.player("naga").flare
    assert produced(t)[0].flare == 2
    assert t.state.player("naga").flare == flare + 2


PRISON_ROWS = ["V . . . . E", "L . . . . N"]


def test_N_STR_3_soul_prison_fills_with_defeated_units_and_full_pays_3_flare() -> None:
    t = table(
        PRISON_ROWS,
        [("naga", "kambar", "z30", 3), ("velathi", "hunter", "z30", 2)],
        seats=("naga", "velathi"),
        phase="combat",
        built=[("naga", "soul_prison", "z20")],
    )
    t.play(StartCombat(zone="z30", defender="velathi"))
    t.fight_out()
    ended = [e for e in t.events if isinstance(e, CombatEnded)]
    killed = [e.target_deaths for e in t.events if isinstance(e, AttackResolved)]
    assert ended[-1].winner == "naga" and killed.count(1) == 3  # an Ambush hunter joined
    assert t.state.structures[0].cubes == 3  # one cube per Velathi unit defeated
    assert not any(isinstance(e, StructuresProduced) for e in t.events)
    full = msgspec.structs.replace(t.state.structures[0], cubes=3)
    t.state = msgspec.structs.replace(t.state, structures=(full,), phase="movement")
    flare = t.state.player("naga").flare
    assert produced(t)[0].flare == 3
    assert t.state.player("naga").flare == flare + 3
    assert t.state.structures[0].cubes == 3  # Ruling: it stays full


def test_N_STR_3_soul_prison_cubes_are_lost_with_it() -> None:
    t = table(
        PRISON_ROWS,
        [("velathi", "disciple", "z10", 1)],
        seats=("velathi", "naga"),
        phase="movement",
    )
    t.state = msgspec.structs.replace(
        t.state, structures=(PlacedStructure("naga", "soul_prison", "z20", cubes=2),)
    )
    events = t.play(MoveUnits(unit="disciple", origin="z10", count=1, path=("z20",)))
    assert events[-1] == StructureDestroyed(
        owner="naga", structure="soul_prison", zone="z20", rule="N-MOV-5", cubes=2
    )
    assert t.state.structures == ()


def test_N_COMBAT_8_soul_prison_shortens_the_redirect_distance() -> None:
    t = table(PRISON_ROWS, [], seats=("naga", "velathi"), phase="combat")
    env = combat_env(t.ctx, t.state)
    assert env.flare_cost("naga", "z10") == 4  # from the base z51: 5 zones away
    t.state = msgspec.structs.replace(
        t.state, structures=(PlacedStructure("naga", "soul_prison", "z20"),)
    )
    assert combat_env(t.ctx, t.state).flare_cost("naga", "z10") == 0


# -- movement: Stable, Underground Tunnel, destruction (N-STR-3, N-MOV-5) ----------------------

LONG_ROWS = ["H . . . . . . . E"]


def destinations(t: Table, unit: str, origin: str) -> set[str]:
    return {
        c.path[-1]
        for c in t.legal()
        if isinstance(c, MoveUnits) and c.unit == unit and c.origin == origin
    }


def test_N_STR_3_stable_adds_two_movement_with_nothing_adjacent() -> None:
    units = [("humans", "spearman", "z30", 1)]
    plain = table(LONG_ROWS, units, phase="movement")
    assert max(destinations(plain, "spearman", "z30")) == "z60"  # movement 3
    t = table(LONG_ROWS, units, phase="movement", built=[("humans", "stable", "z40")])
    assert max(destinations(t, "spearman", "z30")) == "z80"  # Radiance reaches z30: +2


def test_N_STR_3_stable_next_to_a_base_adds_one_movement() -> None:
    units = [("humans", "spearman", "z20", 1)]
    t = table(LONG_ROWS, units, phase="movement", built=[("humans", "stable", "z10")])
    assert max(destinations(t, "spearman", "z20")) == "z60"  # 3 + 1


def test_N_STR_3_underground_tunnels_link_for_one_movement() -> None:
    units = [("velathi", "disciple", "z10", 1)]
    built = [("velathi", "underground_tunnel", "z10"), ("velathi", "underground_tunnel", "z60")]
    t = table(
        ["V . . . . . . . E"], units, seats=("velathi", "beasts"), phase="movement", built=built
    )
    assert MoveUnits(unit="disciple", origin="z10", count=1, path=("z60",)) in t.legal()
    assert destinations(t, "disciple", "z10") >= {"z60", "z70", "z80"}
    t.play(MoveUnits(unit="disciple", origin="z10", count=1, path=("z60", "z70")))
    assert any(s.key == ("velathi", "disciple", "z70") for s in t.state.units)


def test_N_STR_3_underground_tunnel_on_a_mountain_is_crossed_as_if_flying() -> None:
    units = [("velathi", "disciple", "z10", 1)]
    rows = ["V . M . . E"]
    plain = table(rows, units, seats=("velathi", "beasts"), phase="movement")
    assert "z30" not in destinations(plain, "disciple", "z10")
    built = [("velathi", "underground_tunnel", "z20")]
    t = table(rows, units, seats=("velathi", "beasts"), phase="movement", built=built)
    assert {"z20", "z30", "z40"} <= destinations(t, "disciple", "z10")


def test_N_MOV_5_N_FAQ_3_passing_an_enemy_structure_is_free_stopping_destroys_it() -> None:
    units = [("velathi", "disciple", "z10", 2)]
    built = [("beasts", "warcry_totem", "z30")]
    t = table(["V . . . . E"], units, seats=("velathi", "beasts"), phase="movement", built=built)
    events = t.play(MoveUnits(unit="disciple", origin="z10", count=1, path=("z20", "z30", "z40")))
    assert len(events) == 1 and t.state.structures == t.state.structures[:1]
    events = t.play(MoveUnits(unit="disciple", origin="z10", count=1, path=("z20", "z30")))
    assert events[-1] == StructureDestroyed(
        owner="beasts", structure="warcry_totem", zone="z30", rule="N-MOV-5"
    )
    assert t.state.structures == ()


def test_N_MOV_5_a_structure_with_its_owners_units_is_not_destroyed() -> None:
    units = [("velathi", "disciple", "z10", 1), ("beasts", "woodcutter", "z30", 1)]
    built = [("beasts", "warcry_totem", "z30")]
    t = table(["V . . . . E"], units, seats=("velathi", "beasts"), phase="movement", built=built)
    events = t.play(MoveUnits(unit="disciple", origin="z10", count=1, path=("z20", "z30")))
    assert len(events) == 1 and len(t.state.structures) == 1


def test_N_MOV_5_N_STR_3_bone_tower_stops_movement_like_a_unit() -> None:
    units = [("velathi", "disciple", "z10", 1)]
    built = [("beasts", "bone_tower", "z30")]
    t = table(["V . . . . E"], units, seats=("velathi", "beasts"), phase="movement", built=built)
    assert destinations(t, "disciple", "z10") == {"z00", "z20", "z30"}
    t.play(MoveUnits(unit="disciple", origin="z10", count=1, path=("z20", "z30")))
    assert len(t.state.structures) == 1  # not destroyed: it fights


# -- the start of a turn: Rift in the Wall, War Council ----------------------------------------


def test_N_STR_3_rift_in_the_wall_recruits_a_free_goblin_at_turn_start() -> None:
    t = table(
        ["V . . . . E"],
        [],
        seats=("velathi", "beasts"),
        built=[("beasts", "rift_in_the_wall", "z30")],
    )
    pool = t.state.player("beasts").pool["goblin"]
    stock = t.state.player("beasts").stock
    events = t.play(EndPhase(phase="development"))
    assert events[-2:] == [
        TurnStarted(seat="beasts", turn=2),
        StructureRecruited(seat="beasts", structure="rift_in_the_wall", unit="goblin", zone="z30"),
    ]
    assert t.state.player("beasts").pool["goblin"] == pool - 1
    assert t.state.player("beasts").stock == stock
    assert any(s.key == ("beasts", "goblin", "z30") for s in t.state.units)


def test_N_STR_3_N_DEV_2_rift_in_the_wall_needs_a_goblin_in_the_pool() -> None:
    t = table(
        ["V . . . . E"],
        [],
        seats=("velathi", "beasts"),
        built=[("beasts", "rift_in_the_wall", "z30")],
    )
    beasts = t.state.player("beasts")
    t.state = t.state.with_player(
        msgspec.structs.replace(beasts, pool={**beasts.pool, "goblin": 0})
    )
    events = t.play(EndPhase(phase="development"))
    assert not any(isinstance(e, StructureRecruited) for e in events)


def test_N_STR_3_war_council_draws_a_tactic_card_with_three_combat_units() -> None:
    built = [("humans", "war_council", "z30")]
    rows = ["H . . . . E"]
    three = [("humans", "spearman", "z20", 2), ("humans", "marksman", "z40", 1)]
    t = table(rows, three, seats=("beasts", "humans"), built=built)
    hand = len(t.state.player("humans").tactic_hand)
    events = t.play(EndPhase(phase="development"))
    assert [e.seat for e in events if isinstance(e, TacticCardDrawn)] == ["humans"]
    assert len(t.state.player("humans").tactic_hand) == hand + 1
    workers = [("humans", "spearman", "z20", 2), ("humans", "peasant", "z40", 3)]
    t = table(rows, workers, seats=("beasts", "humans"), built=built)
    events = t.play(EndPhase(phase="development"))
    assert not any(isinstance(e, TacticCardDrawn) for e in events)


# -- combat: Outpost, Barricade, Warcry Totem, Reinforcement post, Bone Tower -----------------


def deployed(t: Table, zone: str, defender: str, unit: str, size: int) -> Group:
    """Start the combat in ``zone`` and deploy the attacker's ``size`` ``unit`` first."""
    t.play(StartCombat(zone=zone, defender=defender))
    options = [c for c in t.legal() if isinstance(c, DeployGroup) and c.unit == unit]
    t.play(next(c for c in options if c.size == size))
    return next(g for g in t.groups(t.state.combat.attacker) if g.unit == unit)  # type: ignore[union-attr]


def test_N_STR_3_outpost_two_disciples_get_attack_bonus_2() -> None:
    units = [("velathi", "disciple", "z20", 2), ("beasts", "orc", "z20", 1)]
    t = table(
        ["V . . . . E"],
        units,
        seats=("velathi", "beasts"),
        phase="combat",
        built=[("velathi", "outpost", "z30")],
    )
    group = deployed(t, "z20", "beasts", "disciple", 2)
    assert group.attack_bonus == 2  # 1 per unit (N-STR-3 binding)
    assert group.deception == 1  # and Deception


def test_N_STR_3_outpost_out_of_reach_gives_nothing() -> None:
    units = [("velathi", "disciple", "z20", 2), ("beasts", "orc", "z20", 1)]
    t = table(
        ["V . . . . E"],
        units,
        seats=("velathi", "beasts"),
        phase="combat",
        built=[("velathi", "outpost", "z40")],
    )
    group = deployed(t, "z20", "beasts", "disciple", 2)
    assert (group.attack_bonus, group.deception) == (0, 0)


def test_N_STR_3_barricade_gives_armor_bonus_per_group() -> None:
    units = [("humans", "spearman", "z30", 4), ("beasts", "orc", "z30", 1)]
    t = table(["H . . . . . E"], units, phase="combat", built=[("humans", "barricade", "z40")])
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.play(DeployGroup(unit="spearman", size=3, slot="melee"))
    t.play(DeployGroup(unit="spearman", size=1, slot="melee"))
    # 2, +1 with no base or structure next to z40; per group, not per unit
    assert [g.armor_bonus for g in t.groups("humans")] == [3, 3]


def test_N_STR_2_N_FAQ_4_radiance_effects_of_adjacent_structures_stack() -> None:
    units = [("humans", "spearman", "z20", 1), ("beasts", "orc", "z20", 1)]
    built = [("humans", "barricade", "z10"), ("humans", "barricade", "z30")]
    t = table(["H . . . . . E"], units, phase="combat", built=built)
    group = deployed(t, "z20", "beasts", "spearman", 1)
    assert group.armor_bonus == 2 + 3  # z10 borders the base; z30 stands alone


def test_N_STR_3_warcry_totem_gives_bloodthirst() -> None:
    units = [("beasts", "orc", "z20", 3), ("velathi", "zealot", "z20", 3)]
    t = table(
        ["V . . . . E"],
        units,
        seats=("beasts", "velathi"),
        phase="combat",
        built=[("beasts", "warcry_totem", "z30")],
    )
    group = deployed(t, "z20", "velathi", "orc", 3)
    assert group.bloodthirst == 1
    t.fight_out()
    hits = [
        e
        for e in t.events
        if isinstance(e, AttackResolved) and e.target == group.id and e.damage > 0
    ]
    assert hits and {e.bloodthirst for e in hits if e.bloodthirst} == {2}  # own + the totem's


def test_N_STR_3_reinforcement_post_gives_reinforce() -> None:
    units = [("naga", "kambar", "z20", 2), ("velathi", "disciple", "z20", 1)]
    t = table(
        PRISON_ROWS,
        units,
        seats=("naga", "velathi"),
        phase="combat",
        built=[("naga", "reinforcement_post", "z20")],
    )
    assert deployed(t, "z20", "velathi", "kambar", 2).reinforce == 1


def test_N_COMBAT_2_N_STR_3_a_bone_tower_alone_is_contested_and_fights_as_a_group() -> None:
    units = [("velathi", "zealot", "z30", 3), ("velathi", "disciple", "z30", 3)]
    t = table(
        ["V . . . . E"],
        units,
        seats=("velathi", "beasts"),
        phase="combat",
        built=[("beasts", "bone_tower", "z30")],
    )
    assert contested(t.state, t.ctx) == [("z30", "beasts")]
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.fight_out()
    tower = [e for e in t.events if isinstance(e, GroupDeployed) and e.seat == "beasts"]
    assert [(e.unit, e.units) for e in tower] == [("bone_tower", 1)]
    ended = [e for e in t.events if isinstance(e, CombatEnded)]
    assert ended[-1].winner == "velathi" and t.state.structures == ()


def test_N_FAQ_20_bone_tower_is_destroyed_when_its_side_retreats() -> None:
    units = [("velathi", "zealot", "z30", 3), ("beasts", "orc", "z30", 1)]
    t = table(
        ["V . . . . E"],
        units,
        seats=("velathi", "beasts"),
        phase="combat",
        built=[("beasts", "bone_tower", "z30")],
    )
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.fight_out(retreats("beasts"))
    assert [e for e in t.events if isinstance(e, StructureDestroyed)] == [
        StructureDestroyed(owner="beasts", structure="bone_tower", zone="z30", rule="N-COMBAT-28")
    ]
    assert not any(s.zone == "z30" and s.owner == "beasts" for s in t.state.units)


def test_N_COMBAT_28_the_losers_structures_in_the_zone_are_removed() -> None:
    units = [("velathi", "zealot", "z30", 3), ("velathi", "disciple", "z30", 3)]
    t = table(
        ["V . . . . E"],
        [*units, ("beasts", "woodcutter", "z30", 1)],
        seats=("velathi", "beasts"),
        phase="combat",
        built=[("beasts", "warcry_totem", "z30")],
    )
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.fight_out()
    assert [e for e in t.events if isinstance(e, StructureDestroyed)] == [
        StructureDestroyed(owner="beasts", structure="warcry_totem", zone="z30", rule="N-COMBAT-28")
    ]
    assert t.state.structures == ()


def test_N_COMBAT_2_a_structure_without_units_is_destroyed_without_combat() -> None:
    units = [("velathi", "disciple", "z30", 1)]
    t = table(
        ["V . . . . E"],
        units,
        seats=("velathi", "beasts"),
        phase="resources",
        built=[("beasts", "warcry_totem", "z30")],
    )
    events = t.play(EndPhase(phase="resources"))
    assert events[-1] == StructureDestroyed(
        owner="beasts", structure="warcry_totem", zone="z30", rule="N-COMBAT-2"
    )
    assert not any(isinstance(c, StartCombat) for c in t.legal())
    assert not any(isinstance(e, CombatEnded) for e in t.events)


def test_N_COMBAT_23_enemy_structures_bar_a_retreat() -> None:
    t = table(
        ["V . . . . E"],
        [],
        seats=("velathi", "beasts"),
        phase="combat",
        built=[("beasts", "warcry_totem", "z20"), ("velathi", "outpost", "z40")],
    )
    env = combat_env(t.ctx, t.state)
    assert env.blocked("velathi", "z20") and not env.blocked("velathi", "z40")


def test_N_STR_3_soul_prisons_fill_in_building_order_up_to_their_capacity() -> None:
    built = [("naga", "soul_prison", "z20"), ("naga", "soul_prison", "z40")]
    t = table(PRISON_ROWS, [], seats=("naga", "velathi"), built=built)
    state = imprison(t.ctx, t.state, "naga", 5)
    assert [p.cubes for p in state.structures] == [3, 2]
    assert [p.cubes for p in imprison(t.ctx, state, "naga", 4).structures] == [3, 3]
