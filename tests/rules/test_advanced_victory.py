"""Advanced mode (rules §10, N-SETUP-8, N-WIN-3, N-WIN-4): set-up, and the nine advanced
victory conditions played through the engine on hand-made positions."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest
from combat_helpers import deployed, dice_giving
from positions import Table, grid_map, position

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.messages.combat import (
    Attack,
    CombatEnded,
    EffectDamage,
    InjuryResolved,
    PayInjury,
    StartCombat,
)
from nataterra_core.games.nataterra.messages.setup import DiscardOpeningTactic
from nataterra_core.games.nataterra.messages.turns import EndPhase, GameEnded, TurnStarted
from nataterra_core.games.nataterra.messages.victory import CubeScored, OathSworn, SwearOath
from nataterra_core.games.nataterra.rules.combat.board import replace_group
from nataterra_core.games.nataterra.rules.combat.folds import evolve_combat
from nataterra_core.games.nataterra.rules.combat.model import Combat
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.rules.hexmap import GameMap
from nataterra_core.games.nataterra.rules.victory import SIMULTANEOUS
from nataterra_core.games.nataterra.state import Phase, PlacedStructure, Resources
from nataterra_core.kernel import Command, IllegalCommand, NotYourTurn

PACK = load_pack()

# z20 is the strategy zone (the centre of shared tile 0 on a real map); M are mountains.
ROWS = ["V . . . . E", ". . . . . .", "M M M M M ."]
STRATEGY = "z20"
RICH = Resources(food=20, wood=20, metal=20)
VELATHI_COMBAT_TECHS = (
    "velathi_05",
    "velathi_06",
    "velathi_10",
    "velathi_11",
    "velathi_15",
    "velathi_16",
)


def table(
    units: Sequence[tuple[str, str, str, int]],
    conditions: tuple[str, ...],
    *,
    phase: Phase = "combat",
    active: str = "velathi",
    cubes: dict[str, dict[str, int]] | None = None,
    turn_cubes: dict[str, dict[str, int]] | None = None,
    structures: Sequence[tuple[str, str, str]] = (),
    techs: tuple[str, ...] = (),
    seed_number: int = 5,
) -> Table:
    """An advanced-mode position on :data:`ROWS` with ``conditions`` in play."""
    plain = grid_map(ROWS)
    game_map = GameMap(plain.map_id, plain.zones.values(), strategy_zone=STRATEGY)
    ctx, state = position(game_map, units, active=active, phase=phase)
    cubes = cubes or {}
    state = msgspec.structs.replace(
        state,
        mode="advanced",
        conditions=conditions,
        condition_cubes=cubes,
        cubes={seat: sum(by.values()) for seat, by in cubes.items()},
        turn_cubes=turn_cubes or {},
        structures=tuple(PlacedStructure(o, s, z) for o, s, z in structures),
    )
    for seat in state.seats:
        player = msgspec.structs.replace(state.player(seat), stock=RICH)
        if seat == "velathi" and techs:
            player = msgspec.structs.replace(player, techs=techs)
        state = state.with_player(player)
    return Table(ctx, state, seed_number=seed_number)


def scored(t: Table) -> list[tuple[str, str, int]]:
    return [(e.seat, e.condition, e.cubes) for e in t.of(CubeScored)]  # type: ignore[attr-defined]


def ended(t: Table) -> GameEnded | None:
    found = t.of(GameEnded)
    return found[-1] if found else None  # type: ignore[return-value]


def end_turn(t: Table) -> None:
    """Play EndPhase until the next seat's turn has begun (or the game is over)."""
    start = t.state.turn
    while t.state.phase != "over" and t.state.turn == start:
        t.play(EndPhase(phase=t.state.phase))


STRONG = [("velathi", "zealot", "z30", 3), ("velathi", "disciple", "z30", 3)]


# -- N-SETUP-8: advanced set-up ---------------------------------------------------------------

# Advanced mode on the fixed 2-player advanced map (without it the players build the map).
FIXED_MAP = {"mode": "advanced", "map": "advanced"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_N_SETUP_8_advanced_set_up_builds_the_map_by_default(players: int) -> None:
    session = new_game(players, seed=3, options={"mode": "advanced"})
    assert session.state.structuring is not None  # N-MAP-4 comes first
    assert "map_structuring" not in session.header.options  # the mode's default
    fixed = new_game(2, seed=3, options=FIXED_MAP)
    assert fixed.state.structuring is None and fixed.state.map_id == "advanced"


def test_N_SETUP_8_one_condition_per_category_drawn_into_the_start_record() -> None:
    session = new_game(2, seed=4, options=FIXED_MAP)
    assert session.header.options["mode"] == "advanced"
    start = msgspec.json.decode(session.log_bytes().splitlines()[1])
    drawn = [e for e in start["events"] if e["type"] == "victory_conditions_drawn.v2"]
    assert len(drawn) == 1
    conditions = session.state.conditions
    assert tuple(drawn[0]["conditions"]) == conditions
    categories = [PACK.victory_conditions[c].category for c in conditions]
    assert categories == ["strategy", "war", "glory"]
    # Drawn before the first player (N-MAP-4: "after victory conditions and first player").
    types = [e["type"] for e in start["events"]]
    assert types.index("victory_conditions_drawn.v2") < types.index("first_player_drawn.v1")
    # The map has shared tile 0; the strategy marker stands on its centre zone.
    assert session.state.map_id == "advanced"
    decider = session.decider
    assert decider.context("advanced").map.strategy_zone == "t0a.z1"  # type: ignore[attr-defined]


def test_N_SETUP_8_the_draw_follows_the_seed() -> None:
    seen = set()
    for seed in range(12):
        seen.add(new_game(2, seed=seed, options={"mode": "advanced"}).state.conditions)
    assert len(seen) > 3  # the seed decides, not a fixed choice
    again = new_game(2, seed=7, options={"mode": "advanced"}).state.conditions
    assert again == new_game(2, seed=7, options={"mode": "advanced"}).state.conditions


def test_N_SETUP_8_three_tactic_cards_each_and_one_discarded_in_turn_order() -> None:
    session = new_game(2, seed=4, options=FIXED_MAP)
    state = session.state
    first = state.seats[state.first]
    second = next(s for s in state.seats if s != first)
    for player in state.players:
        assert len(player.tactic_hand) == 3
    assert state.phase == "setup" and state.turn == 0
    assert session.acting_seats() == (first,)
    hand = state.player(first).tactic_hand
    assert list(session.legal_commands(first)) == [DiscardOpeningTactic(card=c) for c in hand]
    assert not session.legal_commands(second)
    # Out of turn (the kernel refuses it), a card not held, or any other command: refused.
    other = state.player(second).tactic_hand[0]
    with pytest.raises(NotYourTurn):
        session.apply(second, DiscardOpeningTactic(card=other))
    for command in (DiscardOpeningTactic(card=other), EndPhase(phase="movement")):
        with pytest.raises(IllegalCommand) as info:
            session.apply(first, command)
        assert info.value.rule_id == "N-SETUP-8"
    session.apply(first, DiscardOpeningTactic(card=hand[1]))
    assert session.acting_seats() == (second,)
    kept = session.state.player(second).tactic_hand[0]
    session.apply(second, DiscardOpeningTactic(card=kept))
    state = session.state
    assert state.phase == "movement" and state.turn == 1 and state.active_seat == first
    assert state.player(first).tactic_hand == (hand[0], hand[2])
    assert state.player(first).tactic_discard == (hand[1],)
    assert state.player(second).tactic_discard == (kept,)
    assert all(len(p.tactic_hand) == 2 for p in state.players)
    assert all(len(p.tactic_deck) == 12 for p in state.players)
    session.close()
    verdict = verify_log(session.log_bytes())
    assert verdict.valid, verdict


def test_N_SETUP_8_the_start_record_deals_and_awaits_the_discards() -> None:
    session = new_game(2, seed=9, options=FIXED_MAP)
    start = msgspec.json.decode(session.log_bytes().splitlines()[1])
    types = [e["type"] for e in start["events"]]
    assert types.count("tactic_card_drawn.v1") == 6
    assert types[-1] == "opening_discards_awaited.v1"
    assert "turn_started.v1" not in types
    first = session.state.seats[session.state.first]
    assert start["events"][-1]["seats"][0] == first


def test_N_SETUP_8_options_and_maps() -> None:
    with pytest.raises(ValueError, match="mode"):
        new_game(2, seed=1, options={"mode": "expert"})
    with pytest.raises(ValueError, match="N-SETUP-8"):
        new_game(2, seed=1, options={"mode": "advanced", "map": "learning"})
    with pytest.raises(ValueError, match="N-MAP-5"):  # no fixed advanced 3-player map
        new_game(3, seed=1, options={"mode": "advanced", "map_structuring": False})
    with pytest.raises(ValueError, match="N-MAP-4"):  # a built map takes no scenario map
        new_game(
            2, seed=1, options={"mode": "advanced", "map_structuring": True, "map": "advanced"}
        )
    # Learning games are unchanged: no conditions, no opening hand, turn 1 at once.
    learning = new_game(2, seed=1)
    assert learning.state.conditions == () and learning.state.turn == 1
    assert all(p.tactic_hand == () for p in learning.state.players)


# -- N-WIN-3: Oath of Asha (strategy) -----------------------------------------------------------


def test_N_WIN_3_oath_of_asha_pays_wood_and_metal_for_a_cube_with_a_worker_there() -> None:
    t = table([("velathi", "hunter", STRATEGY, 1)], ("oath_of_asha",), phase="development")
    oaths = [c for c in t.legal() if isinstance(c, SwearOath)]
    assert oaths == [SwearOath(wood=w, metal=3 - w) for w in (3, 2, 1, 0)]
    t.play(SwearOath(wood=2, metal=1))
    assert t.state.player("velathi").stock == RICH - Resources(wood=2, metal=1)
    assert t.of(OathSworn) == [OathSworn(seat="velathi", paid=Resources(wood=2, metal=1))]
    assert scored(t) == [("velathi", "oath_of_asha", 1)]


def test_N_WIN_3_oath_of_asha_at_most_two_cubes_per_turn() -> None:
    t = table([("velathi", "hunter", STRATEGY, 1)], ("oath_of_asha",), phase="development")
    t.play(SwearOath(wood=3, metal=0))
    t.play(SwearOath(wood=0, metal=3))
    assert not any(isinstance(c, SwearOath) for c in t.legal())
    assert t.refused(SwearOath(wood=3, metal=0)) == "N-WIN-3"
    assert t.state.condition_cubes == {"velathi": {"oath_of_asha": 2}}
    end_turn(t)  # the cap counts afresh each turn
    assert t.state.turn_cubes == {}


def test_N_WIN_3_oath_of_asha_needs_a_worker_the_phase_and_the_price() -> None:
    soldier = table([("velathi", "zealot", STRATEGY, 1)], ("oath_of_asha",), phase="development")
    assert soldier.refused(SwearOath(wood=3, metal=0)) == "N-WIN-3"  # a combat unit will not do
    t = table([("velathi", "hunter", STRATEGY, 1)], ("oath_of_asha",), phase="development")
    assert t.refused(SwearOath(wood=2, metal=2)) == "N-WIN-3"  # 3 in all
    poor = msgspec.structs.replace(t.state.player("velathi"), stock=Resources(wood=1, metal=1))
    t.state = t.state.with_player(poor)
    assert not any(isinstance(c, SwearOath) for c in t.legal())
    assert t.refused(SwearOath(wood=1, metal=2)) == "N-WIN-3"
    early = table([("velathi", "hunter", STRATEGY, 1)], ("oath_of_asha",), phase="movement")
    assert early.refused(SwearOath(wood=3, metal=0)) == "N-WIN-3"
    other = table([("velathi", "hunter", STRATEGY, 1)], ("strategic_point",), phase="development")
    assert other.refused(SwearOath(wood=3, metal=0)) == "N-WIN-3"  # not in play


def test_N_WIN_3_N_WIN_4_oath_of_asha_third_cube_wins_at_once() -> None:
    t = table(
        [("velathi", "hunter", STRATEGY, 1)],
        ("oath_of_asha",),
        phase="development",
        cubes={"velathi": {"oath_of_asha": 2}},
    )
    t.play(SwearOath(wood=3, metal=0))
    game_over = ended(t)
    assert game_over == GameEnded(reason="oath_of_asha", winners=("velathi",))
    assert t.state.phase == "over"


# -- N-WIN-3: Colonisation and Strategic Point (strategy, start of turn) -------------------------


def test_N_WIN_3_colonisation_eleven_combat_units_on_the_zone_at_the_start_of_the_turn() -> None:
    units = [
        ("beasts", "orc", STRATEGY, 3),
        ("beasts", "goblin", STRATEGY, 4),
        ("beasts", "ogre", STRATEGY, 4),
        ("beasts", "woodcutter", STRATEGY, 3),
    ]
    t = table(units, ("colonisation",), phase="development")
    end_turn(t)  # the Beasts' turn starts with 11 combat units there
    assert scored(t) == [("beasts", "colonisation", 1)]
    started = t.events.index(TurnStarted(seat="beasts", turn=2))
    assert t.events.index(t.of(CubeScored)[0]) == started + 1


def test_N_WIN_3_colonisation_ten_combat_units_and_workers_do_not_score() -> None:
    units = [
        ("beasts", "orc", STRATEGY, 3),
        ("beasts", "goblin", STRATEGY, 4),
        ("beasts", "ogre", STRATEGY, 3),
        ("beasts", "woodcutter", STRATEGY, 3),
    ]
    t = table(units, ("colonisation",), phase="development")
    end_turn(t)
    assert scored(t) == []


def test_N_WIN_3_strategic_point_one_combat_unit_scores_at_the_start_of_the_turn() -> None:
    t = table([("beasts", "goblin", STRATEGY, 1)], ("strategic_point",), phase="development")
    end_turn(t)
    assert scored(t) == [("beasts", "strategic_point", 1)]
    end_turn(t)  # the Velathi have nothing there; only the active player scores
    assert scored(t) == [("beasts", "strategic_point", 1)]


def test_N_WIN_3_strategic_point_a_worker_does_not_count() -> None:
    t = table([("beasts", "woodcutter", STRATEGY, 3)], ("strategic_point",), phase="development")
    end_turn(t)
    assert scored(t) == []


def test_N_WIN_3_N_WIN_4_strategic_point_third_cube_ends_the_game_at_the_start_of_the_turn() -> (
    None
):
    t = table(
        [("beasts", "goblin", STRATEGY, 1)],
        ("strategic_point",),
        phase="development",
        cubes={"beasts": {"strategic_point": 2}},
    )
    end_turn(t)
    assert ended(t) == GameEnded(reason="strategic_point", winners=("beasts",))
    assert t.state.phase == "over"
    assert t.decider.outcome(t.state).scores == {"velathi": 0, "beasts": 3}  # type: ignore[union-attr]


# -- N-WIN-3: Glory of the King (glory, start of turn) ------------------------------------------


def mountain_structures(n: int, owner: str = "beasts") -> list[tuple[str, str, str]]:
    return [(owner, "warcry_totem", f"z{q}2") for q in range(n)]


@pytest.mark.parametrize(("built", "cubes"), [(2, 0), (3, 1), (4, 2), (5, 2)])
def test_N_WIN_3_glory_of_the_king_structures_on_mountains(built: int, cubes: int) -> None:
    t = table(
        [("beasts", "orc", "z50", 1)],
        ("glory_of_the_king",),
        phase="development",
        structures=mountain_structures(built),
    )
    end_turn(t)
    assert [c for _, _, c in scored(t)] == list(range(1, cubes + 1))
    assert t.state.condition_cubes.get("beasts", {}).get("glory_of_the_king", 0) == cubes


def test_N_WIN_3_glory_of_the_king_structures_elsewhere_do_not_count() -> None:
    elsewhere = [("beasts", "warcry_totem", z) for z in ("z10", "z11", "z21", "z31")]
    t = table(
        [("beasts", "orc", "z50", 1)],
        ("glory_of_the_king",),
        phase="development",
        structures=[*elsewhere, *mountain_structures(2)],
    )
    end_turn(t)
    assert scored(t) == []


# -- N-WIN-3: the war conditions and the glory conditions won in combat ------------------------


def fight(
    units: Sequence[tuple[str, str, str, int]],
    conditions: tuple[str, ...],
    *,
    cubes: dict[str, dict[str, int]] | None = None,
    turn_cubes: dict[str, dict[str, int]] | None = None,
    techs: tuple[str, ...] = (),
) -> Table:
    """The Velathi attack the Beasts in z30 and the combat is fought out."""
    t = table(units, conditions, cubes=cubes, turn_cubes=turn_cubes, techs=techs)
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.fight_out()
    return t


def winner(t: Table) -> str | None:
    last = t.of(CombatEnded)[-1]
    assert isinstance(last, CombatEnded)
    return last.winner


def test_N_WIN_3_total_dominance_winning_against_combat_units_scores() -> None:
    t = fight([*STRONG, ("beasts", "goblin", "z30", 1)], ("total_dominance",))
    assert winner(t) == "velathi"
    assert scored(t) == [("velathi", "total_dominance", 1)]


def test_N_WIN_3_total_dominance_beating_workers_only_does_not_score() -> None:
    t = fight([*STRONG, ("beasts", "woodcutter", "z30", 2)], ("total_dominance",))
    assert winner(t) == "velathi"
    assert scored(t) == []


def test_N_WIN_3_total_dominance_at_most_two_cubes_per_turn() -> None:
    t = fight(
        [*STRONG, ("beasts", "goblin", "z30", 1)],
        ("total_dominance",),
        cubes={"velathi": {"total_dominance": 2}},
        turn_cubes={"velathi": {"total_dominance": 2}},
    )
    assert winner(t) == "velathi" and scored(t) == []
    assert t.state.phase != "over"


def test_N_WIN_3_war_of_attrition_one_cube_per_enemy_combat_group_destroyed() -> None:
    units = [*STRONG, ("beasts", "goblin", "z30", 1), ("beasts", "orc", "z30", 1)]
    t = fight(units, ("war_of_attrition",))
    assert winner(t) == "velathi"
    assert scored(t) == [("velathi", "war_of_attrition", 1), ("velathi", "war_of_attrition", 2)]


def test_N_WIN_3_war_of_attrition_worker_groups_do_not_count() -> None:
    t = fight([*STRONG, ("beasts", "woodcutter", "z30", 2)], ("war_of_attrition",))
    assert scored(t) == []


def test_N_WIN_3_war_of_attrition_at_most_two_cubes_per_turn() -> None:
    units = [
        *STRONG,
        ("beasts", "goblin", "z30", 1),
        ("beasts", "orc", "z30", 1),
        ("beasts", "ogre", "z30", 1),
    ]
    t = fight(units, ("war_of_attrition",))
    assert winner(t) == "velathi"
    assert [c for _, _, c in scored(t)] == [1, 2]


def test_N_WIN_3_subjugation_one_cube_per_enemy_worker_group_destroyed() -> None:
    units = [*STRONG, ("beasts", "woodcutter", "z30", 5)]  # group size 3: two groups
    t = fight(units, ("subjugation",))
    assert winner(t) == "velathi"
    assert scored(t) == [("velathi", "subjugation", 1), ("velathi", "subjugation", 2)]


def test_N_WIN_3_subjugation_combat_groups_do_not_count() -> None:
    t = fight([*STRONG, ("beasts", "goblin", "z30", 1)], ("subjugation",))
    assert scored(t) == []


def test_N_WIN_3_subjugation_at_most_three_cubes_per_turn() -> None:
    t = fight(
        [*STRONG, ("beasts", "woodcutter", "z30", 2)],
        ("subjugation",),
        cubes={"velathi": {"subjugation": 1}},
        turn_cubes={"velathi": {"subjugation": 3}},
    )
    assert scored(t) == []
    assert t.state.condition_cubes["velathi"]["subjugation"] == 1


def test_N_WIN_3_rise_of_the_mighty_a_win_with_a_hero_group_scores() -> None:
    units = [*STRONG, ("velathi", "dragon", "z30", 1), ("beasts", "goblin", "z30", 1)]
    t = fight(units, ("rise_of_the_mighty",))
    assert winner(t) == "velathi"
    assert scored(t) == [("velathi", "rise_of_the_mighty", 1)]


def test_N_WIN_3_rise_of_the_mighty_a_win_without_heroes_does_not_score() -> None:
    t = fight([*STRONG, ("beasts", "goblin", "z30", 1)], ("rise_of_the_mighty",))
    assert winner(t) == "velathi" and scored(t) == []


def test_N_WIN_3_military_supremacy_scores_once_every_combat_unit_tech_is_in_play() -> None:
    units = [*STRONG, ("beasts", "goblin", "z30", 1)]
    t = fight(units, ("military_supremacy",), techs=VELATHI_COMBAT_TECHS)
    assert winner(t) == "velathi"
    assert scored(t) == [("velathi", "military_supremacy", 1)]


def test_N_WIN_3_military_supremacy_one_combat_unit_tech_missing_does_not_score() -> None:
    units = [*STRONG, ("beasts", "goblin", "z30", 1)]
    # the worker's tech (velathi_04) does not make up for a combat unit's
    techs = ("velathi_04", *VELATHI_COMBAT_TECHS[:-1])
    t = fight(units, ("military_supremacy",), techs=techs)
    assert winner(t) == "velathi" and scored(t) == []


# -- N-FAQ-15: only groups destroyed directly count ----------------------------------------------


def injured_last_unit(combat: Combat, seat: str, commands: Sequence[Command]) -> Command | None:
    """Never pay an injury fee: the unit dies of its injury instead."""
    if isinstance(commands[0], PayInjury):
        return next(c for c in commands if isinstance(c, PayInjury) and not c.pay)
    return None


def test_N_WIN_3_N_FAQ_15_a_group_killed_by_its_injury_does_not_count() -> None:
    # The Velathi win; their lone Disciple group is wounded past its injury threshold and
    # dies of the injury. The Beasts destroyed it only by injury, so they score nothing.
    t = table(
        [*STRONG, ("velathi", "exiled", "z30", 1), ("beasts", "woodcutter", "z30", 1)],
        ("war_of_attrition",),
    )
    t.play(StartCombat(zone="z30", defender="beasts"))
    combat = t.state.combat
    assert combat is not None
    policy = DefaultPolicy(PACK)
    while combat.stage == "deploy":  # deploy as usual, then wound the Exiled
        t.play(policy.choose(combat, t.seat, t.legal(), hand=t.hand()))
        combat = t.state.combat
        assert combat is not None
    exiled = next(g for g in combat.groups if g.unit == "exiled")
    wounded = msgspec.structs.replace(exiled, damage=exiled.injury)
    t.state = msgspec.structs.replace(
        t.state,
        combat=msgspec.structs.replace(combat, groups=replace_group(combat.groups, wounded)),
    )
    t.fight_out(injured_last_unit)
    died = [e for e in t.of(InjuryResolved) if e.group == exiled.id]  # type: ignore[attr-defined]
    assert died and not died[0].paid  # type: ignore[attr-defined]
    assert t.count("velathi", "exiled", "z30") == 0
    assert scored(t) == []


def test_N_WIN_3_N_FAQ_15_an_attack_destroys_directly_an_effect_does_not() -> None:
    fight = deployed(
        "beasts", "velathi", [("beasts", "orc", 1, None), ("velathi", "hunter", 2, None)]
    )
    orc, hunters = fight.group("beasts", "orc"), fight.group("velathi", "hunter")
    fight.set_group(orc.id, attack_bonus=20)
    fight.decide(Attack(target=hunters.id), dice_giving(0))
    assert fight.combat.destroyed == (hunters.id,)  # wiped out by an attack
    # The same wipe-out by an effect (Poison Cloud, a tactic card) is not a direct kill.
    fight = deployed(
        "beasts", "velathi", [("beasts", "orc", 1, None), ("velathi", "hunter", 2, None)]
    )
    hunters = fight.group("velathi", "hunter")
    wiped = EffectDamage(group=hunters.id, amount=99, smite=True, deaths=2)
    combat = evolve_combat(PACK, fight.combat, wiped)
    assert combat.groups[hunters.id].units == 0 and combat.destroyed == ()


# -- N-WIN-4: one check, two winners ---------------------------------------------------------


def test_N_WIN_4_two_players_meeting_conditions_in_one_check_draw() -> None:
    # Both sides stand one cube from War of Attrition; the combat destroys a group of each.
    units = [
        ("velathi", "disciple", "z30", 1),
        ("velathi", "zealot", "z30", 3),
        ("beasts", "orc", "z30", 3),
        ("beasts", "goblin", "z30", 1),
    ]
    t = table(
        units,
        ("war_of_attrition",),
        cubes={"velathi": {"war_of_attrition": 2}, "beasts": {"war_of_attrition": 2}},
        seed_number=1,  # dice under which each side destroys a group of the other
    )
    t.play(StartCombat(zone="z30", defender="beasts"))
    t.fight_out()
    assert sorted(scored(t)) == [
        ("beasts", "war_of_attrition", 3),
        ("velathi", "war_of_attrition", 3),
    ]
    assert ended(t) == GameEnded(reason=SIMULTANEOUS, winners=())
    outcome = t.decider.outcome(t.state)
    assert outcome is not None and outcome.draw
