"""The scenario book (``docs/SCENARIOS.md``): a test per scenario rule, named by its ID."""

from __future__ import annotations

from typing import Any

import pytest
from scenario_helpers import at, end_phase, events_named, scenario_game, scenario_position, units

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.messages.development import Build
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.scenarios import (
    MoveMarker,
    RecruitOnMarker,
    SacrificeWorker,
)
from nataterra_core.games.nataterra.rules.hexmap import build_map
from nataterra_core.games.nataterra.rules.scenarios import BOOK, SCENARIOS
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.kernel import IllegalCommand
from nataterra_core.kernel.registry import OptionsError, system


def _markers(session: Any, kind: str) -> list[Any]:
    return [m for m in session.state.markers if m.marker == kind]


def _won(session: Any) -> tuple[tuple[str, ...], str | None]:
    return session.state.winners, session.state.result_reason


def _legal(session: Any, kind: type) -> list[Any]:
    seat = session.acting_seats()[0]
    return [c for c in session.legal_commands(seat) if isinstance(c, kind)]


# -- general ------------------------------------------------------------------------------------


def test_N_SCN_GEN_1_kinds_and_the_scenario_option() -> None:
    kinds = {entry.kind for entry in SCENARIOS.values()}
    assert kinds == {"story", "mission", "skirmish"}
    assert system("nataterra").hooks.scenarios is SCENARIOS
    with pytest.raises(OptionsError, match="N-SCN-GEN-1"):
        new_game(2, seed=1, options={"scenario": "no_such_scenario"})
    with pytest.raises(OptionsError, match="drop the options"):
        new_game(
            ("velathi", "naga"), seed=1, options={"scenario": "fergus_grove", "conquest": True}
        )
    game = scenario_game("fergus_grove", max_turns=6)
    assert game.state.max_turns == 6 and game.state.scenario == "fergus_grove"


def test_N_SCN_GEN_2_base_destruction_always_wins() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("beasts.z1", "velathi", "zealot", 2))
        data["units"] = [u for u in data["units"] if u["owner"] == "velathi"]
        at(data, "velathi", "development")

    game = scenario_position("night_of_flames_and_shadows", edit)
    end_phase(game)
    assert _won(game) == (("velathi",), "base_destroyed")


def test_N_SCN_GEN_3_markers_are_not_units() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("t4.z1", "velathi", "zealot", 2))
        at(data, "velathi", "movement")

    game = scenario_position("fergus_grove", edit)  # a portal on t4.z6, next to t4.z1
    moves = [c for c in _legal(game, MoveUnits) if c.path[-1] == "t4.z6"]
    assert moves, "a marker blocks no move"
    game.apply("velathi", moves[0])
    assert "t4.z6" in {s.zone for s in game.state.units}
    view = system("nataterra").seat_view(game.state, "naga")
    assert {m.marker for m in view.markers} >= {"crown", "portal"}


def test_N_SCN_GEN_4_markers_move_once_a_turn_by_their_controller() -> None:
    game = scenario_game("peril_of_the_carriage")
    assert game.acting_seats() == ("beasts",)
    assert not _legal(game, MoveMarker)  # the Beasts do not control the carriage
    end_phase(game), end_phase(game), end_phase(game), end_phase(game)
    assert game.acting_seats() == ("humans",)
    moves = _legal(game, MoveMarker)
    assert moves and all(len(m.path) == 1 for m in moves)  # movement 1
    zones = build_map(load_pack(), BOOK["peril_of_the_carriage"].map).zones
    assert all(zones[m.path[-1]].biome != "lake" for m in moves)
    game.apply("humans", moves[0])
    assert not _legal(game, MoveMarker)  # once a turn
    with pytest.raises(IllegalCommand, match="N-SCN-CARRIAGE-4"):
        game.apply(
            "humans", MoveMarker(marker="carriage", origin=moves[0].path[-1], path=("humans.z4",))
        )


def test_N_SCN_GEN_4_a_marker_never_enters_enemy_units() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("t1.z6", "beasts", "orc", 1))
        at(data, "humans", "movement")

    game = scenario_position("peril_of_the_carriage", edit)  # from humans.z4
    assert {m.path[-1] for m in _legal(game, MoveMarker)} == {"humans.z1"}


def test_N_SCN_GEN_5_an_enemy_structure_marker_falls_to_the_player_alone_on_it() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("humans.z4", "beasts", "orc", 2), ("humans.z1", "humans", "marksman", 3))
        at(data, "beasts", "resources")

    game = scenario_position("peril_of_the_carriage", edit)
    events = end_phase(game)  # the Beasts' combat phase begins
    assert [e.marker for e in events_named(events, "MarkerDestroyed")] == ["carriage"]


def test_N_SCN_GEN_5_a_defended_marker_stands() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("humans.z2", "beasts", "orc", 2), ("humans.z4", "humans", "spearman", 3))
        at(data, "beasts", "resources")

    game = scenario_position("peril_of_the_carriage", edit)
    end_phase(game)
    assert _markers(game, "carriage")


def test_N_SCN_GEN_6_a_movement_tactic_option_moves_the_carriage_further() -> None:
    def edit(data: dict[str, Any]) -> None:
        at(data, "humans", "movement")
        data["turn_state"] = {
            "zone_grants": [{"seat": "humans", "zone": "humans.z4", "movement": 1}]
        }

    game = scenario_position("peril_of_the_carriage", edit)
    assert max(len(m.path) for m in _legal(game, MoveMarker)) == 2


def test_N_SCN_GEN_7_a_scenario_without_a_holder_is_drawn_at_the_turn_limit() -> None:
    def edit(data: dict[str, Any]) -> None:
        at(data, "humans", "development", turn=24)

    game = scenario_position("peril_of_the_carriage", edit)
    end_phase(game)
    assert _won(game) == ((), "turn_limit")


def test_N_SCN_GEN_8_set_up_takes_units_from_the_pool_then_the_locked_supply() -> None:
    game = scenario_game("night_of_flames_and_shadows")
    beasts = game.state.player("beasts")
    assert beasts.pool["goblin"] == 0 and beasts.locked["goblin"] == 6  # 4 from the pool
    assert beasts.stock == Resources(4, 3, 3)  # N-SETUP-3, no 2-player food bonus
    start = game.log_bytes().splitlines()[1]
    assert b'"start_position.v2"' in start and start.count(b"deck_shuffled.v1") >= 3
    game.close()
    assert verify_log(game.log_bytes()).valid


# -- The Battle of Fergus Grove ------------------------------------------------------------------


def test_N_SCN_FERGUS_1_set_up() -> None:
    game = scenario_game("fergus_grove")
    assert game.header.seats == ("velathi", "naga") and game.acting_seats() == ("velathi",)
    assert [m.zone for m in _markers(game, "portal")] == ["t2.z6", "t3.z6", "t4.z6"]
    assert _markers(game, "crown")[0].zone == "t4.z5"


def _fergus_crown(count: int) -> Any:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("t4.z5", "velathi", "zealot", 3), ("t4.z5", "velathi", "disciple", count - 3))
        at(data, "naga", "development")

    return scenario_position("fergus_grove", edit)


def test_N_SCN_FERGUS_2_five_combat_units_on_the_crown_win() -> None:
    game = _fergus_crown(5)
    end_phase(game)
    assert _won(game) == (("velathi",), "N-SCN-FERGUS-2")
    fewer = _fergus_crown(4)
    end_phase(fewer)
    assert fewer.state.phase == "movement"


def test_N_SCN_FERGUS_3_the_naga_have_30_flare_at_the_start_of_their_turn() -> None:
    def edit(data: dict[str, Any]) -> None:
        at(data, "velathi", "development")

    game = scenario_position("fergus_grove", edit)
    end_phase(game)
    assert game.state.player("naga").flare == 30


def test_N_SCN_FERGUS_4_only_one_sacred_tree() -> None:
    def edit(data: dict[str, Any]) -> None:
        at(data, "naga", "development")
        data["players"]["naga"]["structures_unlocked"] = ["sacred_tree"]
        data["players"]["naga"]["stock"] = {"food": 9, "wood": 9, "metal": 9}
        data["structures"] = [{"zone": "naga.z2", "owner": "naga", "structure": "sacred_tree"}]

    game = scenario_position("fergus_grove", edit)
    assert not [c for c in _legal(game, Build) if c.structure == "sacred_tree"]
    with pytest.raises(IllegalCommand, match="N-SCN-FERGUS-4"):
        game.apply("naga", Build(structure="sacred_tree", zone="naga.z3"))


def test_N_SCN_FERGUS_5_a_forest_snake_onto_a_portal_for_one_flare() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data)
        at(data, "naga", "development")
        data["players"]["naga"]["flare"] = 3

    game = scenario_position("fergus_grove", edit)
    recruits = _legal(game, RecruitOnMarker)
    assert {r.zone for r in recruits} == {"t2.z6", "t3.z6", "t4.z6"}
    game.apply("naga", recruits[0])
    naga = game.state.player("naga")
    assert naga.flare == 2 and naga.locked["forest_snake"] == 3
    assert ("naga", "forest_snake", recruits[0].zone) in {s.key for s in game.state.units}
    assert not _legal(game, RecruitOnMarker)  # once a turn


def test_N_SCN_FERGUS_6_the_velathi_draw_a_tactic_card_at_the_end_of_their_turn() -> None:
    def edit(data: dict[str, Any]) -> None:
        at(data, "velathi", "development")

    game = scenario_position("fergus_grove", edit)
    events = end_phase(game)
    assert [e.seat for e in events_named(events, "TacticCardDrawn")] == ["velathi"]
    assert len(game.state.player("velathi").tactic_hand) == 1


def test_N_SCN_FERGUS_7_the_velathi_destroy_portals() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("t2.z6", "velathi", "zealot", 1))
        at(data, "velathi", "resources")

    game = scenario_position("fergus_grove", edit)
    events = end_phase(game)
    destroyed = events_named(events, "MarkerDestroyed")
    assert [(e.marker, e.zone, e.rule) for e in destroyed] == [
        ("portal", "t2.z6", "N-SCN-FERGUS-7")
    ]
    assert len(_markers(game, "portal")) == 2


def test_N_SCN_FERGUS_8_the_naga_hold_to_the_turn_limit() -> None:
    def edit(data: dict[str, Any]) -> None:
        at(data, "velathi", "development", turn=30)

    game = scenario_position("fergus_grove", edit)
    end_phase(game)
    assert _won(game) == (("naga",), "N-SCN-FERGUS-8")


# -- The Peril of the Carriage -------------------------------------------------------------------


def test_N_SCN_CARRIAGE_1_set_up() -> None:
    game = scenario_game("peril_of_the_carriage")
    assert game.header.seats == ("beasts", "humans") and game.acting_seats() == ("beasts",)
    carriage = _markers(game, "carriage")[0]
    assert (carriage.zone, carriage.controller) == ("humans.z4", "humans")


def test_N_SCN_CARRIAGE_2_the_beasts_win_by_destroying_the_carriage() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("humans.z4", "beasts", "orc", 2))
        at(data, "beasts", "resources")

    game = scenario_position("peril_of_the_carriage", edit)
    end_phase(game)
    assert _won(game) == (("beasts",), "N-SCN-CARRIAGE-2")


def test_N_SCN_CARRIAGE_3_the_humans_win_when_the_carriage_reaches_the_crown() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data)
        at(data, "humans", "movement")
        for marker in data["markers"]:
            if marker["marker"] == "carriage":
                marker["zone"] = "t3.z6"  # next to the crown on t3.z5

    game = scenario_position("peril_of_the_carriage", edit)
    game.apply("humans", MoveMarker(marker="carriage", origin="t3.z6", path=("t3.z5",)))
    assert _won(game) == (("humans",), "N-SCN-CARRIAGE-3")


def test_N_SCN_CARRIAGE_4_only_the_humans_move_the_carriage_one_zone() -> None:
    test_N_SCN_GEN_4_markers_move_once_a_turn_by_their_controller()


def test_N_SCN_CARRIAGE_5_the_beasts_recruit_on_the_village() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data)
        at(data, "beasts", "development")

    game = scenario_position("peril_of_the_carriage", edit)
    recruits = _legal(game, RecruitOnMarker)
    assert recruits and {r.zone for r in recruits} == {"t3.z2"}
    stock = game.state.player("beasts").stock
    game.apply("beasts", recruits[0])
    assert game.state.player("beasts").stock != stock  # at its normal cost
    assert not _legal(game, RecruitOnMarker)
    end_phase(game)
    assert not _legal(game, RecruitOnMarker)  # the Humans have no such recruit


def test_N_SCN_CARRIAGE_6_the_carriage_is_an_enemy_structure_of_the_beasts() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("humans.z4", "beasts", "orc", 2))
        at(data, "humans", "resources")

    game = scenario_position("peril_of_the_carriage", edit)
    end_phase(game)  # the Humans' combat phase: only the Beasts destroy it, in theirs
    assert _markers(game, "carriage")


# -- The Night of Flames and Shadows -------------------------------------------------------------


def test_N_SCN_NIGHT_1_set_up() -> None:
    game = scenario_game("night_of_flames_and_shadows")
    assert game.acting_seats() == ("velathi",)
    assert _markers(game, "crown")[0].zone == "beasts.z2"
    assert game.state.scenario_counts == {"rounds": 1}


def test_N_SCN_NIGHT_2_the_round_die_moves_at_the_end_of_the_beasts_turn() -> None:
    def edit(data: dict[str, Any]) -> None:
        at(data, "velathi", "development")

    game = scenario_position("night_of_flames_and_shadows", edit)
    end_phase(game)
    assert game.state.scenario_counts["rounds"] == 1
    for _ in range(4):
        end_phase(game)
    assert game.state.scenario_counts["rounds"] == 2


def test_N_SCN_NIGHT_3_the_crown_is_an_enemy_structure_of_the_velathi() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("beasts.z2", "velathi", "zealot", 1))
        at(data, "velathi", "resources")

    game = scenario_position("night_of_flames_and_shadows", edit)
    events = end_phase(game)
    assert [e.rule for e in events_named(events, "MarkerDestroyed")] == ["N-SCN-NIGHT-3"]


def test_N_SCN_NIGHT_4_ten_rounds_protected_win() -> None:
    def edit(data: dict[str, Any]) -> None:
        at(data, "beasts", "development")
        data["scenario_counts"] = {"rounds": 10}

    game = scenario_position("night_of_flames_and_shadows", edit)
    end_phase(game)
    assert _won(game) == (("beasts",), "N-SCN-NIGHT-4")


def test_N_SCN_NIGHT_5_the_velathi_win_by_destroying_the_crown() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("beasts.z2", "velathi", "zealot", 1))
        at(data, "velathi", "resources")

    game = scenario_position("night_of_flames_and_shadows", edit)
    end_phase(game)
    assert _won(game) == (("velathi",), "N-SCN-NIGHT-5")


# -- What We Do Best -----------------------------------------------------------------------------


def test_N_SCN_BEST_1_set_up() -> None:
    game = scenario_game("what_we_do_best")
    zones = build_map(load_pack(), game.state.map_id).zones
    crown = _markers(game, "crown")[0]
    assert zones[crown.zone].biome == "lake"
    assert _markers(game, "ship")[0].zone == "humans.z1"
    assert _markers(game, "cyclops")[0].zone == "t2.z1"


def _best(edit_more: Any, active: str, phase: str) -> Any:
    def edit(data: dict[str, Any]) -> None:
        at(data, active, phase)
        edit_more(data)

    return scenario_position("what_we_do_best", edit)


def _place(data: dict[str, Any], kind: str, zone: str, **fields: Any) -> None:
    for marker in data["markers"]:
        if marker["marker"] == kind:
            marker.update(zone=zone, **fields)


def test_N_SCN_BEST_2_whoever_holds_the_cyclops_moves_it() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("t2.z1", "velathi", "zealot", 2))

    game = _best(edit, "humans", "development")
    end_phase(game)  # the Velathi's turn begins with their units on the cyclops
    cyclops = _markers(game, "cyclops")[0]
    assert cyclops.controller == "velathi"
    moves = [m for m in _legal(game, MoveMarker) if m.marker == "cyclops"]
    assert max(len(m.path) for m in moves) == 2  # 2 for the Velathi (1 for the Humans)
    assert "cyclops" not in {s.unit for s in game.state.units if s.owner == "velathi"}


def test_N_SCN_BEST_3_the_ship_sails_only_lakes_and_the_humans_base() -> None:
    game = _best(lambda data: None, "humans", "movement")
    ships = [m for m in _legal(game, MoveMarker) if m.marker == "ship"]
    zones = build_map(load_pack(), game.state.map_id).zones
    assert ships and all(zones[m.path[-1]].biome == "lake" for m in ships)


def test_N_SCN_BEST_4_the_ship_loads_at_the_crown_and_unloads_wood_at_home() -> None:
    game = _best(lambda data: _place(data, "ship", "t1.z6"), "humans", "movement")
    end_phase(game)
    assert _markers(game, "ship")[0].cubes == 1
    home = _best(lambda data: _place(data, "ship", "humans.z1", cubes=1), "humans", "movement")
    wood = home.state.player("humans").stock.wood
    end_phase(home)
    assert _markers(home, "ship")[0].cubes == 0
    multiplier = home.state.player("humans").multipliers.wood
    assert home.state.player("humans").stock.wood >= wood + 3 * multiplier


def test_N_SCN_BEST_5_the_velathi_destroy_the_ship() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("humans.z1", "velathi", "zealot", 2))
        data["units"] = [u for u in data["units"] if u["owner"] == "velathi"]

    game = _best(edit, "velathi", "resources")
    events = end_phase(game)
    assert [e.marker for e in events_named(events, "MarkerDestroyed")] == ["ship"]


def test_N_SCN_BEST_6_the_cyclops_in_your_base_wins() -> None:
    game = _best(lambda data: _place(data, "cyclops", "velathi.z1"), "humans", "development")
    end_phase(game)
    assert _won(game) == (("velathi",), "N-SCN-BEST-6")


# -- The Found Fragment --------------------------------------------------------------------------


def test_N_SCN_FRAGMENT_1_set_up_draws_the_first_player() -> None:
    game = scenario_game("the_found_fragment")
    assert game.header.seats == ("velathi", "beasts", "humans")
    assert b"first_player_drawn.v1" in game.log_bytes().splitlines()[1]


def test_N_SCN_FRAGMENT_2_the_holder_moves_the_fragment_two() -> None:
    def edit(data: dict[str, Any]) -> None:
        units(data, ("t2.z1", "humans", "spearman", 1))
        at(data, "beasts", "development")
        data["turn_state"] = {"zone_grants": [{"seat": "humans", "zone": "t2.z1", "movement": 2}]}

    game = scenario_position("the_found_fragment", edit)
    end_phase(game)  # the Humans' turn
    assert _markers(game, "fragment")[0].controller == "humans"
    moves = _legal(game, MoveMarker)
    assert moves and max(len(m.path) for m in moves) == 2  # no tactic card acts on it


def test_N_SCN_FRAGMENT_3_the_fragment_in_your_base_wins() -> None:
    def edit(data: dict[str, Any]) -> None:
        _place(data, "fragment", "humans.z1")
        at(data, "beasts", "development")

    game = scenario_position("the_found_fragment", edit)
    end_phase(game)
    assert _won(game) == (("humans",), "N-SCN-FRAGMENT-3")


# -- A New Home ----------------------------------------------------------------------------------


def _home(points: dict[str, int] | None = None, workers: int = 3) -> Any:
    def edit(data: dict[str, Any]) -> None:
        units(data)
        data["units"] = [u for u in data["units"] if u["owner"] != "beasts"]
        data["units"].append(
            {"zone": "t2.z6", "owner": "beasts", "unit": "woodcutter", "count": workers}
        )
        at(data, "beasts", "development")
        data["scenario_counts"] = {f"points:{s}": n for s, n in (points or {}).items()}

    return scenario_position("a_new_home", edit)


def test_N_SCN_HOME_1_set_up() -> None:
    game = scenario_game("a_new_home")
    assert game.header.seats == ("beasts", "velathi", "naga")
    assert _markers(game, "village")[0].zone == "t2.z6"


def test_N_SCN_HOME_2_a_worker_sacrificed_for_two_resources() -> None:
    game = _home()
    gains = [c.gain for c in _legal(game, SacrificeWorker) if not c.for_points]
    assert len(gains) == 6 and all(g.food + g.wood + g.metal == 2 for g in gains)
    before = game.state.player("beasts")
    game.apply("beasts", SacrificeWorker(zone="t2.z6", gain=Resources(metal=2)))
    after = game.state.player("beasts")
    assert after.stock == before.stock + Resources(metal=2)
    assert after.worker_supply == before.worker_supply + 1


def test_N_SCN_HOME_3_up_to_two_workers_a_turn_for_points() -> None:
    game = _home()
    for _ in range(2):
        game.apply("beasts", SacrificeWorker(zone="t2.z6", for_points=True))
    assert game.state.scenario_counts["points:beasts"] == 2
    assert not [c for c in _legal(game, SacrificeWorker) if c.for_points]


def test_N_SCN_HOME_4_three_points_ahead_wins() -> None:
    game = _home({"beasts": 1, "naga": 0, "velathi": 0})
    game.apply("beasts", SacrificeWorker(zone="t2.z6", for_points=True))
    game.apply("beasts", SacrificeWorker(zone="t2.z6", for_points=True))
    end_phase(game)
    assert _won(game) == (("beasts",), "N-SCN-HOME-4")
    close = _home({"beasts": 1, "naga": 1})
    close.apply("beasts", SacrificeWorker(zone="t2.z6", for_points=True))
    end_phase(close)
    assert close.state.phase == "movement"


# -- skirmish ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scenario", "rule"), [("the_cursed_hollow", "N-SCN-HOLLOW-1"), ("golden_sand", "N-SCN-SAND-1")]
)
def test_N_SCN_HOLLOW_1_and_N_SCN_SAND_1_skirmish_maps(scenario: str, rule: str) -> None:
    game = scenario_game(scenario)
    assert game.state.mode == "advanced" and game.state.structuring is None
    assert len(game.state.conditions) == 3  # N-SETUP-8: drawn at the start
    assert game.state.discarding  # three opening tactic cards, one to discard
    assert game.state.map_id.startswith("structured:")
    assert rule.startswith("N-SCN-")
