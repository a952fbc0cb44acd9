"""Rules that had no test named after them (the rules-coverage report's gaps), each played
through the engine: the map and the game decider (:mod:`gap_helpers`), or one combat
through the combat flow (:mod:`combat_helpers`)."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import msgspec
import pytest
from combat_helpers import PACK, Fight, any_dice, deployed, dice_giving
from gap_helpers import TACTICS_PACK, HandFight, table
from positions import grid_map, position

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.content.schema import Ability
from nataterra_core.games.nataterra.messages import combat as m
from nataterra_core.games.nataterra.messages.combat import StartCombat
from nataterra_core.games.nataterra.messages.development import (
    Recruit,
    Recruited,
    ResourcesGathered,
    StructureRecruited,
)
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.setup import DeckShuffled
from nataterra_core.games.nataterra.messages.tactics import TacticCardDrawn
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.messages.victory import CubeScored
from nataterra_core.games.nataterra.rules.combat.model import Combat
from nataterra_core.games.nataterra.rules.combat_phase import combat_env
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.rules.movement import legal_moves
from nataterra_core.games.nataterra.rules.structures import affects, combat_boost
from nataterra_core.games.nataterra.rules.tactics import draw_tactic_events
from nataterra_core.games.nataterra.state import PlacedStructure, Resources
from nataterra_core.kernel import Command, IllegalCommand

# -- N-MAP-2: bases --------------------------------------------------------------------------


def test_N_MAP_2_each_player_tile_holds_its_base_where_recruits_appear() -> None:
    session = new_game(2, seed=3)
    ctx = session.decider.context(session.state.map_id)
    assert set(ctx.map.bases) == set(session.state.seats)
    for civ, zone_id in ctx.map.bases.items():
        zone = ctx.map.zones[zone_id]
        assert zone.base_owner == civ
        assert zone.tile is not None
        tile = ctx.pack.map_tiles[zone.tile]
        assert (tile.kind, tile.civ) == ("player", civ)
    # Exactly one base per civilisation on the whole map.
    assert sorted(z.base_owner for z in ctx.map.zones.values() if z.base_owner) == sorted(
        session.state.seats
    )
    seat = session.state.active_seat
    for phase in ("movement", "resources", "combat"):
        session.apply(seat, EndPhase(phase=phase))
    player = session.state.player(seat)
    session.state = session.state.with_player(
        msgspec.structs.replace(player, stock=Resources(20, 20, 20))
    )
    unit = "disciple" if seat == "velathi" else "orc"
    events = session.apply(seat, Recruit(unit=unit))
    (recruited,) = [e for e in events if isinstance(e, Recruited)]
    assert recruited.zone == ctx.map.bases[seat]


# -- N-COMBAT-3 / N-FAQ-11: the attacker is whoever moved in -----------------------------------

ROW = ["V . . . . E"]


def _moved_in(mover: str, other: str, unit: str) -> StartCombat:
    t = table(
        grid_map(ROW),
        [(mover, unit, "z10", 1), (other, "zealot" if other == "velathi" else "orc", "z30", 2)],
        seats=("velathi", "beasts"),
        active=mover,
    )
    t.play(MoveUnits(unit=unit, origin="z10", count=1, path=("z20", "z30")))
    t.play(EndPhase(phase="movement"))
    t.play(EndPhase(phase="resources"))
    (start,) = t.legal()
    assert isinstance(start, StartCombat)
    events = t.play(start)
    (started,) = [e for e in events if isinstance(e, m.CombatStarted)]
    assert (started.attacker, started.defender) == (mover, other)
    return start


def test_N_COMBAT_3_the_player_who_moved_in_attacks() -> None:
    assert _moved_in("velathi", "beasts", "disciple") == StartCombat(zone="z30", defender="beasts")


def test_N_FAQ_11_the_attacker_is_whoever_moved_in() -> None:
    # The same position the other way round: the Beasts move onto the Velathi.
    assert _moved_in("beasts", "velathi", "orc") == StartCombat(zone="z30", defender="velathi")


def test_N_COMBAT_3_an_after_combat_move_by_the_defender_makes_it_the_attacker() -> None:
    # z10 is a desert: the Velathi (active) attack 3 Orcs there with one Hunter and lose;
    # Quick Gains lets the winning Beasts move the Orcs onto the Velathi Zealots in z20.
    t = table(
        grid_map(["V D . . . E"]),
        [
            ("velathi", "hunter", "z10", 1),
            ("beasts", "orc", "z10", 3),
            ("velathi", "zealot", "z20", 1),
        ],
        phase="combat",
    )
    t.state = msgspec.structs.replace(
        t.state, biome_decks={**t.state.biome_decks, "desert": ("desert_quick_gains_beasts",)}
    )
    t.play(StartCombat(zone="z10", defender="beasts"))

    def move_onto_zealots(combat: Combat, seat: str, options: Sequence[Command]) -> Command | None:
        if m.Retreat(retreat=False) in options:
            return m.Retreat(retreat=False)
        move = m.MoveAfterWin(unit="orc", count=3, destination="z20")
        return move if move in options else None

    t.fight_out(move_onto_zealots)
    (ended,) = t.of(m.CombatEnded)
    assert ended.winner == "beasts"  # type: ignore[attr-defined]
    assert t.count("beasts", "orc", "z20") == 3
    # The Beasts moved into a zone holding Velathi units: they attack, whoever's turn it is.
    assert t.legal() == [StartCombat(zone="z20", defender="velathi")]


# -- N-COMBAT-3a: workers fight ------------------------------------------------------------------


def test_N_COMBAT_3a_workers_form_groups_in_melee_slots_with_their_stat_line() -> None:
    fight = Fight("beasts", "velathi", [("beasts", "orc", 1, None), ("velathi", "hunter", 4, None)])
    fight.deploy_largest()
    hunters = [g for g in fight.combat.groups if g.unit == "hunter"]
    assert sorted(g.units for g in hunters) == [1, 3]  # group_size 3: the fewest groups
    card = PACK.units["hunter"].side_a
    for group in hunters:
        assert group.cls == "melee" and group.slot in ("melee", "flex")
        assert (group.attack, group.armor, group.health) == (card.attack, card.armor, card.health)
    assert PACK.units["hunter"].role == "worker"
    # Workers killed count as kills (victory conditions count them, e.g. Subjugation).
    orc = fight.group("beasts", "orc")
    fight.set_group(orc.id, attack_bonus=20)
    big = max(hunters, key=lambda g: g.units)
    resolved = fight.decide(m.Attack(target=big.id), dice_giving(0))
    (hit,) = [e for e in resolved if isinstance(e, m.AttackResolved)]
    assert hit.target_deaths == 3
    assert fight.combat.killed == {"velathi": 3}


# -- N-COMBAT-5 / N-FAQ-12: slot overflow -----------------------------------------------------


def test_N_COMBAT_5_a_fifth_melee_group_waits_in_a_ranged_slot_and_moves_up() -> None:
    # Velathi board: 3 melee, 2 ranged, 1 flex. Five melee groups: the fifth sits in a
    # ranged slot, can only support, and takes a melee slot as soon as one frees.
    fight = Fight(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 3, None),
            ("velathi", "zealot", 3, None),
            ("velathi", "hunter", 1, None),
            ("velathi", "cave_golem", 2, None),
            ("velathi", "disciple", 3, None),
            ("beasts", "goblin", 4, "b"),
        ],
    )
    for unit, size in (("disciple", 3), ("zealot", 3), ("hunter", 1), ("disciple", 3)):
        fight.decide(next(c for c in fight.options if (c.unit, c.size) == (unit, size)))  # type: ignore[attr-defined]
    assert fight.options == [m.DeployGroup(unit="cave_golem", size=2, slot="ranged")]
    fight.decide(fight.options[0])
    fight.deploy_largest()
    golems, hunter = fight.group("velathi", "cave_golem"), fight.group("velathi", "hunter")
    assert golems.slot == "ranged" and golems.support_only
    assert hunter.slot == "melee"  # own class first; the last Disciples took the flex slot
    # The Goblins (initiative 8) act first and kill the lone Hunter.
    assert fight.combat.active == fight.group("beasts", "goblin").id
    fight.set_group(hunter.id, damage=5)
    fight.decide(m.Attack(target=hunter.id), dice_giving(0))
    assert fight.combat.groups[hunter.id].units == 0
    (attack,) = [e for e in fight.events if isinstance(e, m.AttackResolved)]
    assert attack.to_melee == (golems.id,)  # the step decides it, the event records it
    assert fight.combat.groups[golems.id].slot == "melee"
    assert not fight.combat.groups[golems.id].support_only


def test_N_COMBAT_5_a_melee_group_in_a_ranged_slot_can_only_support() -> None:
    fight = Fight(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 9, None),
            ("velathi", "zealot", 3, None),
            ("velathi", "cave_golem", 2, None),
            ("beasts", "woodcutter", 1, None),
        ],
    )
    fight.deploy_largest()
    golems = fight.group("velathi", "cave_golem")
    assert golems.slot == "ranged"
    while fight.combat.active != golems.id:
        fight.decide(fight.options[-1])  # support: nobody dies, the round goes on
    assert fight.options and all(isinstance(c, m.Support) for c in fight.options)
    with pytest.raises(IllegalCommand) as refused:
        fight.decide(m.Attack(target=fight.group("beasts", "woodcutter").id))
    assert refused.value.rule_id == "N-COMBAT-5"


def test_N_FAQ_12_a_fourth_ranged_group_overflows_into_a_melee_slot() -> None:
    # 2 ranged slots + 1 flex: the fourth ranged group takes a melee slot. It still attacks
    # as ranged (any target) but melee groups may attack it.
    fight = Fight(
        "velathi",
        "beasts",
        [
            ("velathi", "exiled", 6, None),
            ("velathi", "manipulator", 4, None),
            ("beasts", "orc", 1, None),
            ("beasts", "goblin", 1, None),
        ],
    )
    slots = []
    while fight.seat == "velathi" and fight.combat.stage == "deploy":
        option = fight.options[0]
        assert isinstance(option, m.DeployGroup)
        slots.append(option.slot)
        fight.decide(option)
    assert sorted(slots) == ["flex", "melee", "ranged", "ranged"]
    assert slots[-1] == "melee"
    fight.deploy_largest()
    in_melee = next(g for g in fight.combat.groups if g.owner == "velathi" and g.slot == "melee")
    orc, goblin = fight.group("beasts", "orc"), fight.group("beasts", "goblin")
    seen = set()
    while fight.combat.stage not in ("retreat_defender", "end"):
        options = fight.options
        if fight.combat.stage == "pick":
            fight.decide(options[0])
            continue
        active = fight.combat.active
        targets = {c.target for c in options if isinstance(c, m.Attack)}
        if active == orc.id:  # melee: only the ranged group in a melee slot is in reach
            assert targets == {in_melee.id}
        if active == in_melee.id:  # still ranged: it reaches the Goblin behind the Orc
            assert targets == {orc.id, goblin.id}
        seen.add(active)
        supports = [c for c in options if isinstance(c, m.Support)]  # the Velathi hold back
        fight.decide(supports[0] if supports else options[0], dice_giving(-5))
    assert {orc.id, in_melee.id} <= seen


# -- N-COMBAT-11a: Heal after the group's tactic window ------------------------------------------


def test_N_COMBAT_11a_heal_resolves_after_the_window_and_before_the_action() -> None:
    # 3 Orcs with Tribal Shaman (Heal 2) hold 8 damage; the Beasts first play a card that
    # removes 3, then Heal removes the 5 left (had Heal come first it would remove 6).
    fight = HandFight(
        "beasts",
        "velathi",
        [("beasts", "orc", 3), ("velathi", "zealot", 1)],
        hands={"beasts": ("fearless",)},
    )
    fight.combat = msgspec.structs.replace(fight.combat, sides={"beasts": {"orc": "b"}})
    while fight.combat.stage in ("deploy", "effects"):  # deploying, and passing (N-COMBAT-9)
        fight.decide(fight.pending[1][0])
    orcs, zealot = fight.group("beasts", "orc"), fight.group("velathi", "zealot")
    assert orcs.heal == 2
    assert fight.combat.active == orcs.id and fight.combat.stage == "heal"
    assert fight.pending[0] == "beasts"
    assert fight.combat.pending == (("beasts", "tactic_group"),)  # the window comes first
    fight.set_group(orcs.id, damage=8)
    fight.decide(m.PlayTactic(card="fearless", option=0, target=orcs.id))
    assert fight.combat.groups[orcs.id].damage == 5
    # The owner picks the target: only own groups are offered.
    seat, options = fight.pending
    assert (seat, options) == ("beasts", [m.HealGroup(target=orcs.id)])
    with pytest.raises(IllegalCommand) as refused:
        fight.decide(m.HealGroup(target=zealot.id))
    assert refused.value.rule_id == "N-COMBAT-11a"
    events = fight.decide(m.HealGroup(target=orcs.id))
    assert events[0] == m.Healed(group=orcs.id, target=orcs.id, amount=5)
    assert fight.combat.groups[orcs.id].damage == 0
    assert fight.combat.stage == "action" and fight.combat.active == orcs.id


# -- N-COMBAT-12: attack or support ----------------------------------------------------------


@pytest.mark.parametrize("support", [True, False])
def test_N_COMBAT_12_the_active_group_attacks_or_supports(support: bool) -> None:
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 2, None),
            ("velathi", "zealot", 1, None),
            ("beasts", "orc", 2, None),
        ],
    )
    disciples, zealot = fight.group("velathi", "disciple"), fight.group("velathi", "zealot")
    orcs = fight.group("beasts", "orc")
    assert fight.combat.active == disciples.id
    assert set(fight.options) == {
        m.Attack(target=orcs.id),
        m.Support(target=zealot.id, bonus="attack"),
    }  # Disciples have armor 0: no armor support
    with pytest.raises(IllegalCommand) as refused:
        fight.decide(m.HealGroup(target=zealot.id))
    assert refused.value.rule_id == "N-COMBAT-12"
    command = m.Support(target=zealot.id, bonus="attack") if support else m.Attack(target=orcs.id)
    events = fight.decide(command, dice_giving(0))
    assert any(isinstance(e, m.Supported) for e in events) is support
    assert any(isinstance(e, m.AttackResolved) for e in events) is not support
    assert fight.combat.groups[disciples.id].acted == fight.combat.round
    assert fight.combat.groups[zealot.id].attack_bonus == (4 if support else 0)
    assert fight.combat.groups[orcs.id].damage == (0 if support else 8)


# -- N-COMBAT-17: defeated groups leave the board ----------------------------------------------


def _orc_dies_before_acting() -> Fight:
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 3, None),
            ("beasts", "orc", 1, None),
            ("beasts", "goblin", 1, None),
        ],
    )
    goblin, orc = fight.group("beasts", "goblin"), fight.group("beasts", "orc")
    disciples = fight.group("velathi", "disciple")
    fight.decide(m.Attack(target=disciples.id), dice_giving(-5))  # Goblin, initiative 8
    fight.decide(m.Attack(target=orc.id), dice_giving(0))  # 12 damage: the Orc (9) dies
    assert fight.combat.groups[orc.id].units == 0
    assert fight.combat.groups[goblin.id].units == 1
    return fight


def test_N_COMBAT_17_a_defeated_group_leaves_the_board_and_never_acts() -> None:
    fight = _orc_dies_before_acting()
    orc, goblin = fight.group("beasts", "orc"), fight.group("beasts", "goblin")
    assert orc not in fight.combat.groups_of("beasts")
    # The round ends without the Orc (initiative 6) acting; it is no target any more.
    fight.run()
    acting = (m.GroupActivated, m.AttackResolved, m.Supported, m.Healed, m.ActivationEnded)
    assert orc.id not in [e.group for e in fight.events if isinstance(e, acting)]
    assert m.RoundEnded(round=1) in fight.events
    while fight.combat.stage in ("retreat_defender", "retreat_attacker"):
        fight.decide(m.Retreat(retreat=False))
    assert fight.combat.round == 2
    assert fight.combat.active == goblin.id
    disciples = fight.group("velathi", "disciple")
    fight.decide(m.Attack(target=disciples.id), dice_giving(-5))
    assert fight.options == [m.Attack(target=goblin.id)]  # the melee Disciples reach it now


def test_N_COMBAT_17_the_last_group_of_a_type_takes_its_initiative_marker_along() -> None:
    fight = _orc_dies_before_acting()
    assert "beasts/goblin" in fight.combat.initiative
    assert "beasts/orc" not in fight.combat.initiative


# -- N-COMBAT-18 / N-ABL-6: extra attack ----------------------------------------------------------


def test_N_COMBAT_18_N_ABL_6_extra_attack_spends_the_bonus_once_with_its_own_die() -> None:
    # 3 Exiled with tech B (attack 2, Extra attack) hold attack bonus 2.
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "exiled", 3, "b"),
            ("velathi", "disciple", 1, None),
            ("beasts", "orc", 3, None),
        ],
    )
    exiled, disciple = fight.group("velathi", "exiled"), fight.group("velathi", "disciple")
    orcs = fight.group("beasts", "orc")
    assert exiled.extra == 1 and fight.combat.active == exiled.id
    assert m.Support(target=disciple.id, bonus="attack") in fight.options
    fight.set_group(exiled.id, attack_bonus=2)
    first = fight.decide(m.Attack(target=orcs.id), dice_giving(1))
    (resolved,) = [e for e in first if isinstance(e, m.AttackResolved)]
    assert (resolved.total, resolved.bonus_spent) == (6 + 2 + 1, 2)
    assert m.ExtraAttackBegun(group=exiled.id) in first
    assert fight.combat.active == exiled.id
    # A group that attacked cannot support: only attacks are offered.
    assert fight.options == [m.Attack(target=orcs.id)]
    second = fight.decide(m.Attack(target=orcs.id), dice_giving(3))
    rolls = fight.of_type(m.AttackResolved)  # each attack records its own die
    assert len(rolls) == 2 and rolls[0].counter_after <= rolls[1].counter_before  # type: ignore[attr-defined]
    (again,) = [e for e in second if isinstance(e, m.AttackResolved)]
    assert (again.total, again.bonus_spent) == (6 + 3, 0)
    assert fight.combat.groups[exiled.id].acted == fight.combat.round
    assert fight.combat.active == disciple.id  # no third attack


def test_N_COMBAT_18_without_the_ability_one_attack_only() -> None:
    fight = deployed(
        "velathi", "beasts", [("velathi", "exiled", 3, None), ("beasts", "orc", 3, None)]
    )
    exiled = fight.group("velathi", "exiled")
    events = fight.decide(m.Attack(target=fight.group("beasts", "orc").id), dice_giving(0))
    assert not any(isinstance(e, m.ExtraAttackBegun) for e in events)
    assert fight.combat.groups[exiled.id].acted == fight.combat.round


# -- N-COMBAT-20: tech bonus icons --------------------------------------------------------------


@pytest.mark.parametrize("side,attack,armor", [("b", 3, 2), (None, 0, 0)])
def test_N_COMBAT_20_tech_bonus_icons_per_unit_at_the_start_of_each_combat(
    side: str | None, attack: int, armor: int
) -> None:
    # Disciple side B: 1 attack bonus icon; Zealot side B: 1 armor bonus icon; per unit.
    forces = [
        ("velathi", "disciple", 3, side),
        ("velathi", "zealot", 2, side),
        ("beasts", "orc", 3, None),
    ]
    fight = deployed("velathi", "beasts", forces)  # type: ignore[arg-type]
    disciples, zealots = fight.group("velathi", "disciple"), fight.group("velathi", "zealot")
    assert (disciples.attack_bonus, zealots.armor_bonus) == (attack, armor)
    # Bonus tokens are spent when used: the Disciples' first attack spends all of them.
    orcs = fight.group("beasts", "orc")
    events = fight.decide(m.Attack(target=orcs.id), dice_giving(0))
    (resolved,) = [e for e in events if isinstance(e, m.AttackResolved)]
    assert resolved.bonus_spent == attack
    assert fight.combat.groups[disciples.id].attack_bonus == 0
    # The next combat starts with the icons' tokens again.
    again = deployed("velathi", "beasts", forces)  # type: ignore[arg-type]
    assert again.group("velathi", "disciple").attack_bonus == attack
    assert again.group("velathi", "zealot").armor_bonus == armor


def test_N_COMBAT_20_bonus_tokens_accumulate_round_after_round() -> None:
    # A Disciple with tech B starts with 1 attack bonus; it and 3 Zealots only support each
    # other: the tokens pile up, nothing caps them.
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 1, "b"),
            ("velathi", "zealot", 3, None),
            ("beasts", "woodcutter", 1, None),
        ],
    )
    disciple, zealots = fight.group("velathi", "disciple"), fight.group("velathi", "zealot")
    cutter = fight.group("beasts", "woodcutter")
    assert disciple.attack_bonus == 1
    while fight.combat.round <= 3:
        options = fight.options
        if m.Retreat(retreat=False) in options:
            fight.decide(m.Retreat(retreat=False))
        elif fight.combat.active == disciple.id:
            fight.decide(m.Support(target=zealots.id, bonus="attack"))
        elif fight.combat.active == zealots.id:
            fight.decide(m.Support(target=disciple.id, bonus="attack"))
        else:
            assert fight.combat.active == cutter.id
            fight.decide(m.Attack(target=zealots.id), dice_giving(-5))  # 2 - 5: no damage
    assert fight.combat.groups[disciple.id].attack_bonus == 1 + 3 * 3
    assert fight.combat.groups[zealots.id].attack_bonus == 3 * 4


# -- N-ABL-5: Reinforce --------------------------------------------------------------------------


@pytest.mark.parametrize("bonus,amount", [("attack", 3 + 3), ("armor", 2 + 3)])
def test_N_ABL_5_reinforce_adds_units_times_level_to_support(bonus: str, amount: int) -> None:
    # 3 Zealots with tech B (Reinforce 1): base value + 3 x 1, for the chosen type only.
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "zealot", 3, "b"),
            ("velathi", "disciple", 1, None),
            ("beasts", "woodcutter", 3, None),
        ],
    )
    zealots, disciple = fight.group("velathi", "zealot"), fight.group("velathi", "disciple")
    assert zealots.reinforce == 1
    fight.decide(m.Attack(target=fight.group("beasts", "woodcutter").id), dice_giving(-5))
    assert fight.combat.active == zealots.id
    before = fight.combat.groups[disciple.id]
    events = fight.decide(m.Support(target=disciple.id, bonus=bonus))  # type: ignore[arg-type]
    (supported,) = [e for e in events if isinstance(e, m.Supported)]
    assert supported.amount == amount
    after = fight.combat.groups[disciple.id]
    got = (after.attack_bonus - before.attack_bonus, after.armor_bonus - before.armor_bonus)
    assert got == ((amount, 0) if bonus == "attack" else (0, amount))


# -- N-ABL-10: Radiance ----------------------------------------------------------------------------


def test_N_ABL_10_radiance_reaches_adjacent_zones_only_with_the_flag() -> None:
    ctx, state = position(grid_map(ROW), [])
    outpost = PlacedStructure("velathi", "outpost", "z30")
    tunnel = PlacedStructure("velathi", "underground_tunnel", "z30")
    assert (
        PACK.structures["outpost"].radiance and not PACK.structures["underground_tunnel"].radiance
    )
    assert [affects(ctx, outpost, z) for z in ("z20", "z30", "z40", "z10")] == [
        True,
        True,
        True,
        False,
    ]
    assert [affects(ctx, tunnel, z) for z in ("z20", "z30", "z40")] == [False, True, False]
    state = msgspec.structs.replace(state, structures=(outpost,))
    near = combat_boost(ctx, state, "velathi", "z20")
    assert near is not None and (near.attack_per_unit, near.deception) == (1, 1)
    assert combat_boost(ctx, state, "velathi", "z10") is None
    assert combat_boost(ctx, state, "beasts", "z20") is None  # only its owner's groups


# -- N-ABL-11: Flying ------------------------------------------------------------------------------


def test_N_ABL_11_flying_lands_on_lakes_crosses_mountains_and_stops_on_enemies() -> None:
    # Row 0: z10 lake, z20 mountain, Velathi units in z30. Harpies (movement 4) fly; Orcs
    # walk.
    ctx, state = position(
        grid_map(["E L M . . V"]),
        [
            ("beasts", "harpy", "z00", 1),
            ("beasts", "orc", "z00", 1),
            ("velathi", "hunter", "z30", 1),
        ],
        active="beasts",
    )
    assert PACK.units["harpy"].movement == 4
    moves = legal_moves(ctx, state, "beasts")
    harpy = {mv.path[-1]: mv.path for mv in moves if mv.unit == "harpy"}
    orc = {mv.path[-1]: mv.path for mv in moves if mv.unit == "orc"}
    assert harpy["z10"] == ("z10",)  # lands on a lake
    assert harpy["z30"] == ("z10", "z20", "z30")  # crosses the mountain without stopping
    assert "z40" not in harpy  # the Velathi in z30 stop even a flyer
    assert "z10" not in orc and not any("z10" in path for path in orc.values())
    assert not any(z in orc for z in ("z30", "z40"))  # the mountain in z20 stops the Orc


# -- N-FAQ-2: flare --------------------------------------------------------------------------------


def test_N_FAQ_2_flare_is_not_a_resource_and_has_no_cap() -> None:
    # 3 Kambars kill 3 Woodcutters: 1 flare each on top of 250, and the stock is untouched.
    t = table(
        grid_map(["N M E"]),
        [("naga", "kambar", "z10", 3), ("beasts", "woodcutter", "z10", 3)],
        seats=("naga", "beasts"),
        active="naga",
        phase="combat",
        naga={"flare": 250},
    )
    stock = t.state.player("naga").stock
    assert set(msgspec.structs.asdict(stock)) == {"food", "wood", "metal"}

    def hold_on(combat: Combat, seat: str, options: Sequence[Command]) -> Command | None:
        for keep in (m.SpiritsEmbrace(), m.Retreat(retreat=False)):
            if keep in options:
                return keep
        pay = [o for o in options if isinstance(o, m.PayInjury) and not o.pay]
        return pay[0] if pay else None

    t.play(StartCombat(zone="z10", defender="beasts"))
    t.fight_out(hold_on)
    (ended,) = t.of(m.CombatEnded)
    assert ended.winner == "naga" and ended.killed.get("beasts") == 3  # type: ignore[attr-defined]
    naga = t.state.player("naga")
    assert naga.flare == 250 + 3
    assert naga.stock == stock


# -- N-FAQ-6: workers gather beside enemies --------------------------------------------------------


def test_N_FAQ_6_workers_gather_in_zones_with_enemy_units() -> None:
    t = table(
        grid_map(ROW, resources={"z20": "food", "z30": "metal"}),
        [
            ("velathi", "hunter", "z20", 1),
            ("velathi", "hunter", "z30", 1),
            ("beasts", "orc", "z30", 3),
        ],
    )
    stock = t.state.player("velathi").stock
    events = t.play(EndPhase(phase="movement"))
    (gathered,) = [e for e in events if isinstance(e, ResourcesGathered)]
    assert gathered.zones == ("z20", "z30")
    assert t.state.player("velathi").stock == stock + Resources(food=1, metal=1)


# -- N-FAQ-7: Retaliation is simultaneous ---------------------------------------------------------


def test_N_FAQ_7_a_wiped_out_group_still_retaliates_and_the_attack_keeps_its_units() -> None:
    # 3 Orcs (one about to die: 8 damage of 9) kill both Zealots (tech A, Retaliation 1).
    # Both Zealots retaliate (2 smite), which kills an Orc; the attack still counts 3 Orcs.
    fight = deployed(
        "beasts", "velathi", [("beasts", "orc", 3, None), ("velathi", "zealot", 2, "a")]
    )
    orcs, zealots = fight.group("beasts", "orc"), fight.group("velathi", "zealot")
    fight.set_group(orcs.id, attack_bonus=12, damage=8)
    events = fight.decide(m.Attack(target=zealots.id), dice_giving(3))
    (resolved,) = [e for e in events if isinstance(e, m.AttackResolved)]
    assert resolved.total == 3 * 3 + 12 + 3
    assert resolved.target_deaths == 2
    assert (resolved.retaliation, resolved.attacker_deaths) == (2, 1)
    assert fight.combat.groups[orcs.id].units == 2
    assert fight.combat.groups[zealots.id].units == 0


# -- N-FAQ-8: all bonus tokens are spent -----------------------------------------------------------


def test_N_FAQ_8_all_attack_bonus_and_all_needed_armor_bonus_are_spent() -> None:
    # The Orc holds 5 attack bonus: all of it goes into the attack. The Zealot (armor 2)
    # holds 10 armor bonus: 1 damage gets through armor, so all 10 are spent.
    fight = deployed(
        "beasts", "velathi", [("beasts", "orc", 1, None), ("velathi", "zealot", 1, None)]
    )
    orc, zealot = fight.group("beasts", "orc"), fight.group("velathi", "zealot")
    fight.set_group(orc.id, attack_bonus=5)
    fight.set_group(zealot.id, armor_bonus=10)
    assert fight.options == [m.Attack(target=zealot.id)]  # no way to keep part of it
    events = fight.decide(m.Attack(target=zealot.id), dice_giving(-5))
    (resolved,) = [e for e in events if isinstance(e, m.AttackResolved)]
    assert (resolved.total, resolved.bonus_spent) == (3 + 5 - 5, 5)
    assert resolved.armor_bonus_spent and resolved.damage == 0
    assert fight.combat.groups[orc.id].attack_bonus == 2  # spent 5, then the two swords
    assert fight.combat.groups[zealot.id].armor_bonus == 0


# -- N-FAQ-10: no token, no recruit ----------------------------------------------------------------


def test_N_FAQ_10_no_token_in_the_pool_no_recruit_by_any_means() -> None:
    beasts = {"pool": {**position(grid_map(ROW), [])[1].player("beasts").pool, "goblin": 0}}
    t = table(
        grid_map(ROW),
        [],
        active="beasts",
        phase="development",
        beasts={**beasts, "stock": Resources(20, 20, 20)},
    )
    assert Recruit(unit="goblin") not in t.legal()
    assert Recruit(unit="orc") in t.legal()
    with pytest.raises(IllegalCommand) as refused:
        t.play(Recruit(unit="goblin"))
    assert refused.value.rule_id == "N-DEV-2"
    # Nor by a structure: Rift in the Wall recruits nothing at the start of the turn.
    t.state = msgspec.structs.replace(
        t.state,
        active=0,
        structures=(PlacedStructure("beasts", "rift_in_the_wall", "z30"),),
    )
    events = t.play(EndPhase(phase="development"), "velathi")
    assert t.state.active_seat == "beasts"
    assert not any(isinstance(e, StructureRecruited) for e in events)
    assert t.count("beasts", "goblin", "z30") == 0


# -- N-FAQ-13: initiative caps at 10 ---------------------------------------------------------------


def test_N_FAQ_13_initiative_markers_stop_at_10() -> None:
    # Manipulators (9) with techs worth +3 initiative, defending in a mountain (+1): 10.
    t = table(
        grid_map(["V M E"]),
        [("velathi", "manipulator", "z10", 1), ("beasts", "orc", "z10", 1)],
        active="beasts",
        phase="combat",
        velathi={"initiative_mods": {"manipulator": 3}},
        beasts={"initiative_mods": {"orc": 2}},
    )
    t.play(StartCombat(zone="z10", defender="velathi"))
    while t.state.combat is not None and t.state.combat.stage == "deploy":
        t.play(t.legal()[0])
    (opened,) = t.of(m.CombatOpened)
    assert opened.initiative == {"velathi/manipulator": 10, "beasts/orc": 8}  # type: ignore[attr-defined]


# -- N-FAQ-14: Stealth stacks ----------------------------------------------------------------------


def _with_stealth(levels: int) -> Context:
    """The Hunter with ``levels`` Stealth instances (no tech needed) and movement 4."""
    unit = PACK.units["hunter"]
    side = attrs.evolve(unit.side_a, abilities=(Ability(id="stealth"),) * levels)
    hunter = attrs.evolve(unit, side_a=side, movement=4)
    pack = attrs.evolve(PACK, units={**PACK.units, "hunter": hunter})
    return Context(pack, grid_map(["V . . . . E"]))


@pytest.mark.parametrize("levels,furthest", [(0, "z10"), (1, "z20"), (2, "z30")])
def test_N_FAQ_14_N_ABL_2_each_stealth_instance_passes_one_more_enemy_zone(
    levels: int, furthest: str
) -> None:
    # A Hunter walks a row of zones each holding an enemy unit.
    ctx = _with_stealth(levels)
    _, state = position(
        ctx.map,
        [("velathi", "hunter", "z00", 1)]
        + [("beasts", "orc", z, 1) for z in ("z10", "z20", "z30")],
    )
    assert ctx.ability(state.player("velathi"), "hunter", "stealth") == levels
    moves = legal_moves(ctx, state, "velathi")
    row = {mv.path[-1]: mv.path for mv in moves if mv.path[-1].endswith("0")}
    assert max(row) == furthest
    assert row[furthest] == tuple(f"z{q}0" for q in range(1, int(furthest[1]) + 1))


# -- N-FAQ-15: injury deaths never score -----------------------------------------------------------


def test_N_FAQ_15_units_lost_to_injuries_are_not_counted_as_kills() -> None:
    # A Goblin (+3) deals the Disciple 5 (threshold 4); the Disciple kills it; its owner
    # cannot pay the fee, so the Disciple is lost: an injury, not a kill.
    fight = deployed(
        "beasts",
        "velathi",
        [("beasts", "goblin", 1, None), ("velathi", "disciple", 1, None)],
        stocks={"velathi": Resources()},
    )
    goblin, disciple = fight.group("beasts", "goblin"), fight.group("velathi", "disciple")
    fight.decide(m.Attack(target=disciple.id), dice_giving(3))
    fight.decide(m.Attack(target=goblin.id), dice_giving(1))
    (ended,) = fight.of_type(m.CombatEnded)
    assert ended.winner == "velathi"  # type: ignore[attr-defined]
    assert ended.killed == {"beasts": 1}  # type: ignore[attr-defined]
    assert ended.injured == {"velathi": 1}  # type: ignore[attr-defined]
    assert fight.combat.groups[disciple.id].units == 0


def test_N_FAQ_15_on_the_map_the_winner_scores_though_its_last_unit_dies_of_injury() -> None:
    # The same fight on the map in learning mode: the Velathi win and score their cube;
    # the Disciple dies of its injury (no food for the fee), which is no kill.
    t = table(
        grid_map(ROW),
        [("velathi", "disciple", "z30", 1), ("beasts", "goblin", "z30", 1)],
        phase="combat",
        velathi={"stock": Resources()},
    )
    t.play(StartCombat(zone="z30", defender="beasts"))
    while t.state.combat is not None and t.state.combat.stage == "deploy":
        t.play(t.legal()[0])
    t.play(m.Attack(target=0), dice=dice_giving(3))  # the Goblin (group 1): 5 damage
    t.play(m.Attack(target=1), dice=dice_giving(1))  # the Disciple kills the Goblin
    (ended,) = t.of(m.CombatEnded)
    assert ended.winner == "velathi"  # type: ignore[attr-defined]
    assert (ended.killed, ended.injured) == ({"beasts": 1}, {"velathi": 1})  # type: ignore[attr-defined]
    assert t.count("velathi", "disciple", "z30") == 0
    assert [(e.seat, e.cubes) for e in t.of(CubeScored)] == [("velathi", 1)]  # type: ignore[attr-defined]


# -- N-DEV-6: hands and the tactic deck -----------------------------------------------------------


def test_N_DEV_6_hands_are_unlimited_and_an_empty_deck_is_reshuffled() -> None:
    t = table(grid_map(ROW), [])
    player = t.state.player("velathi")
    cards = player.tactic_deck
    big_hand = cards[:12] * 2  # far beyond any hand limit
    player = msgspec.structs.replace(
        player, tactic_hand=big_hand, tactic_deck=(), tactic_discard=cards[12:]
    )
    t.state = t.state.with_player(player)
    events = draw_tactic_events(t.state, "velathi", any_dice())
    shuffled, drawn = events
    assert isinstance(shuffled, DeckShuffled) and shuffled.deck == "tactic:velathi"
    assert sorted(shuffled.after) == sorted(cards[12:])
    assert isinstance(drawn, TacticCardDrawn) and drawn.card == shuffled.after[0]
    for event in events:
        t.state = t.decider.evolve(t.state, event)
    after = t.state.player("velathi")
    assert len(after.tactic_hand) == 25
    assert after.tactic_deck == shuffled.after[1:]
    assert after.tactic_discard == ()


# -- N-TAC-1 / N-TAC-1a: options in combat --------------------------------------------------------


def test_N_TAC_1_playing_an_option_discards_the_whole_card() -> None:
    t = table(
        grid_map(ROW),
        [("velathi", "disciple", "z30", 3), ("beasts", "orc", "z30", 1)],
        phase="combat",
        pack=TACTICS_PACK,
        velathi={"tactic_hand": ("deadly_cut", "fearless"), "tactic_discard": ()},
    )
    t.play(StartCombat(zone="z30", defender="beasts"))
    while t.state.combat is not None and t.state.combat.stage == "deploy":
        t.play(t.legal()[0])
    plays = [c for c in t.legal() if isinstance(c, m.PlayTactic)]
    assert plays and {p.card for p in plays} == {"deadly_cut"}  # the ↑↑↑ option, before combat
    t.play(plays[0])
    velathi = t.state.player("velathi")
    assert velathi.tactic_hand == ("fearless",)
    assert velathi.tactic_discard == ("deadly_cut",)
    assert combat_env(t.ctx, t.state).hand("velathi") == ("fearless",)  # the combat asks


def test_N_TAC_1a_up_arrows_also_before_combat_down_arrows_resolve_after_it() -> None:
    fight = HandFight(
        "velathi",
        "beasts",
        [("velathi", "disciple", 3), ("beasts", "woodcutter", 1)],
        hands={"velathi": ("deadly_cut", "fearless", "home_advantage")},
    )
    while fight.combat.stage == "deploy":
        fight.decide(fight.pending[1][0])
    # Before combat: only the ↑↑↑ option (deadly_cut), not the plain combat option.
    assert fight.combat.pending == (("velathi", "tactic_before"),)
    seat, options = fight.pending
    assert seat == "velathi"
    assert {o.card for o in options if isinstance(o, m.PlayTactic)} == {"deadly_cut"}
    fight.decide(m.PassTactics())
    # Before the active group: combat options and the ↓↓↓ option may be played.
    seat, options = fight.pending
    assert seat == "velathi" and fight.combat.pending == (("velathi", "tactic_group"),)
    cards = {o.card for o in options if isinstance(o, m.PlayTactic)}
    assert cards == {"deadly_cut", "fearless", "home_advantage"}
    events = fight.decide(m.PlayTactic(card="home_advantage", option=0))
    (played,) = [e for e in events if isinstance(e, m.TacticPlayed)]
    assert played.deferred
    assert not any(isinstance(e, TacticCardDrawn) for e in events)  # not yet
    while fight.combat.stage != "end":
        options = fight.pending[1]
        attacks = [o for o in options if isinstance(o, m.Attack)]
        fight.decide(attacks[0] if attacks else options[-1], dice_giving(3))
    decided = fight.events.index(fight.of(m.CombatDecided)[0])
    later = fight.events[decided:]
    assert m.DeferredResolved(seat="velathi", card="home_advantage", option=0) in later
    assert any(isinstance(e, TacticCardDrawn) for e in later)  # the Velathi won


def test_N_TAC_1a_a_down_arrow_option_lapses_when_its_condition_fails() -> None:
    fight = HandFight(
        "velathi",
        "beasts",
        [("velathi", "hunter", 1), ("beasts", "orc", 3)],
        hands={"velathi": ("home_advantage",)},
    )
    played = m.PlayTactic(card="home_advantage", option=0)
    while played not in fight.pending[1]:  # deploying, and passing where it does not fit
        fight.decide(fight.pending[1][0])
    fight.decide(played)
    while fight.combat.stage != "end":
        options = fight.pending[1]
        choice = m.Retreat(retreat=False) if m.Retreat(retreat=False) in options else options[0]
        fight.decide(choice, dice_giving(3))
    (ended,) = fight.of(m.CombatEnded)
    assert ended.winner == "beasts"  # type: ignore[attr-defined]
    assert fight.of(m.DeferredResolved) == [
        m.DeferredResolved(seat="velathi", card="home_advantage", option=0, lapsed=True)
    ]
    assert not fight.of(TacticCardDrawn)
