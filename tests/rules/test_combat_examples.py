"""The rulebook's worked combat examples (rules §6, §11, §12) played through the combat flow.

Each test builds a combat, plays it with ``decision``/``decide_combat``/``evolve_combat``
(or the combat phase on a small map) and checks the events and the tokens left. Die faces
are forced by choosing a counter of a fixed dice stream whose draws show them
(:func:`combat_helpers.dice_giving`). Tokens and damage that the example presupposes are
put on the groups with ``msgspec.structs.replace``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import pytest
from combat_helpers import FACES, GAME_ID, PACK, Fight, any_dice, deployed, dice_giving
from positions import grid_map, position

from nataterra_core.games.nataterra.decider import Nataterra
from nataterra_core.games.nataterra.messages.combat import (
    ActivationEnded,
    ArmorClaimed,
    Attack,
    AttackResolved,
    AttackRolled,
    Backstab,
    BackstabDeclared,
    BackstabDeclined,
    ChooseGroup,
    ClaimArmor,
    CombatDecided,
    CombatEnded,
    CombatOpened,
    DeployGroup,
    GroupActivated,
    Healed,
    HealGroup,
    InjuryResolved,
    PayInjury,
    Reroll,
    Retreat,
    RetreatChosen,
    RetreatMoveStarted,
    RetreatUnits,
    RoundClosing,
    RoundEffectsResolved,
    RoundEnded,
    RoundStarted,
    SpiritsEmbrace,
    StartCombat,
    Support,
    Supported,
    UnitsRetreated,
)
from nataterra_core.games.nataterra.messages.sandbox import StartBattle
from nataterra_core.games.nataterra.rules.combat.model import Force
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.rules.combat.sandbox import (
    Battle,
    ForceSpec,
    Sandbox,
    battle_option,
)
from nataterra_core.games.nataterra.rules.combat_phase import (
    combat_decision,
    decide_combat_phase,
    legal_combat_phase,
)
from nataterra_core.games.nataterra.rules.context import Context
from nataterra_core.games.nataterra.state import GameState, Resources
from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand, Setup

E = TypeVar("E", bound=Event)


def only(events: Sequence[Event], kind: type[E]) -> E:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"expected one {kind.__name__}, got {len(found)}"
    return found[0]


def attack_first_target(fight: Fight, dice: DiceStream | None = None) -> list[Event]:
    attacks = [c for c in fight.options if isinstance(c, Attack)]
    return fight.decide(attacks[0], dice)


# -- N-COMBAT-15: damage after armor and armor bonus --------------------------------------


def _goblin_hits_disciple(pierce: int | None) -> Fight:
    """The N-COMBAT-15 example: a reinforced Goblin (side B, attack 3) holding attack bonus
    2 attacks a Disciple holding armor bonus 2 and rolls +1. ``pierce`` overrides the
    Goblin's Pierce level (``None``: the pack's)."""
    fight = deployed(
        "beasts", "velathi", [("beasts", "goblin", 1, "b"), ("velathi", "disciple", 1, None)]
    )
    goblin, disciple = fight.group("beasts", "goblin"), fight.group("velathi", "disciple")
    assert goblin.attack == 3
    assert disciple.armor == 0
    assert fight.seat == "beasts"
    assert fight.combat.active == goblin.id
    fight.set_group(goblin.id, attack_bonus=2)
    fight.set_group(disciple.id, armor_bonus=2)
    if pierce is not None:
        fight.set_group(goblin.id, pierce=pierce)
    fight.decide(Attack(target=disciple.id), dice_giving(1))
    return fight


def _check_6_dealt_4_taken(fight: Fight) -> None:
    assert not any(isinstance(e, AttackRolled) for e in fight.events)  # no Deception
    resolved = only(fight.events, AttackResolved)  # records the roll itself
    assert (resolved.face, resolved.swords) == (1, 0)  # type: ignore[attr-defined]
    assert resolved.total == 6  # type: ignore[attr-defined]
    assert resolved.damage == 4  # type: ignore[attr-defined]
    assert resolved.bonus_spent == 2  # type: ignore[attr-defined]
    assert resolved.armor_bonus_spent  # type: ignore[attr-defined]
    assert resolved.target_deaths == 0  # type: ignore[attr-defined]
    goblin, disciple = fight.combat.groups
    assert goblin.attack_bonus == 0
    assert disciple.armor_bonus == 0
    assert (disciple.units, disciple.damage) == (1, 4)
    assert fight.seat == "velathi"  # the Disciple acts next


def test_N_COMBAT_15_goblin_vs_disciple_6_dealt_4_taken_through_the_flow() -> None:
    # The flow with the example's stat line (no Pierce on the Goblin).
    _check_6_dealt_4_taken(_goblin_hits_disciple(pierce=0))


def test_N_COMBAT_15_goblin_vs_disciple_6_dealt_4_taken() -> None:
    # Reinforced Goblin (side B, attack 3) with attack bonus 2, die +1 -> 6; the Disciple
    # (armor 0) with armor bonus 2 takes 4; both spend their bonus tokens.
    _check_6_dealt_4_taken(_goblin_hits_disciple(pierce=None))


def test_N_COMBAT_15_armor_bonus_kept_when_armor_absorbs_everything() -> None:
    # 2 Goblins (attack 2) roll -1: 3 against the Zealot's armor 2 leaves 1 -> the bonus is
    # spent; with -2 nothing gets through armor and the armor bonus stays.
    fight = deployed(
        "beasts", "velathi", [("beasts", "goblin", 1, None), ("velathi", "zealot", 1, None)]
    )
    zealot = fight.group("velathi", "zealot")
    fight.set_group(zealot.id, armor_bonus=3)
    resolved = only(fight.decide(Attack(target=zealot.id), dice_giving(-2)), AttackResolved)
    assert (resolved.total, resolved.damage, resolved.armor_bonus_spent) == (0, 0, False)
    assert fight.combat.groups[zealot.id].armor_bonus == 3


# -- N-COMBAT-16: markers accumulate, one unit per `health` markers ----------------------


def test_N_COMBAT_16_two_disciples_with_10_damage() -> None:
    # 3 reinforced Goblins: 9 + die +1 = 10 on 2 Disciples (health 8): one dies, 2 remain.
    fight = deployed(
        "beasts", "velathi", [("beasts", "goblin", 3, "b"), ("velathi", "disciple", 2, None)]
    )
    disciples = fight.group("velathi", "disciple")
    resolved = only(fight.decide(Attack(target=disciples.id), dice_giving(1)), AttackResolved)
    assert (resolved.total, resolved.damage, resolved.target_deaths) == (10, 10, 1)
    disciples = fight.combat.groups[disciples.id]
    assert (disciples.units, disciples.damage) == (1, 2)
    assert fight.combat.killed == {"velathi": 1}


# -- N-COMBAT-26: injuries ------------------------------------------------------------------


def _disciple_ends_with_5_damage(food: int) -> Fight:
    """A Goblin (attack 2) rolls +3: the Disciple takes 5; the Disciple (attack 4) rolls
    +1 and kills the Goblin (health 5). The combat is over, the Disciple has 5 damage."""
    fight = deployed(
        "beasts",
        "velathi",
        [("beasts", "goblin", 1, None), ("velathi", "disciple", 1, None)],
        stocks={"velathi": Resources(food=food)},
    )
    goblin, disciple = fight.group("beasts", "goblin"), fight.group("velathi", "disciple")
    fight.decide(Attack(target=disciple.id), dice_giving(3))
    assert fight.combat.groups[disciple.id].damage == 5
    assert fight.options == [Attack(target=goblin.id)]
    fight.decide(Attack(target=goblin.id), dice_giving(1))
    assert fight.combat.groups[goblin.id].units == 0
    assert fight.combat.winner == "velathi"
    return fight


@pytest.mark.parametrize("pay", [True, False])
def test_N_COMBAT_26_injury_fee_or_loss(pay: bool) -> None:
    fight = _disciple_ends_with_5_damage(food=2)
    disciple = fight.group("velathi", "disciple")
    assert disciple.injury == 4
    assert fight.combat.stage == "injuries"
    assert fight.seat == "velathi"
    assert fight.options == [
        PayInjury(group=disciple.id, pay=True),
        PayInjury(group=disciple.id, pay=False),
    ]
    events = fight.decide(PayInjury(group=disciple.id, pay=pay))
    injury = only(events, InjuryResolved)
    ended = only(events, CombatEnded)
    assert ended.winner == "velathi"  # fixed before injuries (N-COMBAT-25)
    if pay:
        assert injury == InjuryResolved(group=disciple.id, paid=True, fee=Resources(food=1))
        assert fight.env.stock("velathi") == Resources(food=1)
        assert fight.combat.groups[disciple.id].units == 1
        assert ended.injured == {}
    else:
        assert injury == InjuryResolved(group=disciple.id, paid=False, fee=Resources())
        assert fight.env.stock("velathi") == Resources(food=2)
        assert fight.combat.groups[disciple.id].units == 0
        assert ended.injured == {"velathi": 1}
    assert ended.killed == {"beasts": 1}


def test_N_COMBAT_26_no_food_loses_the_unit_without_asking() -> None:
    fight = _disciple_ends_with_5_damage(food=0)
    assert fight.combat.stage == "end"
    injuries = fight.of_type(InjuryResolved)
    assert injuries == [InjuryResolved(group=1, paid=False, fee=Resources())]
    assert not any(isinstance(e, PayInjury) for e in fight.events)
    ended = fight.of_type(CombatEnded)[0]
    assert ended.injured == {"velathi": 1}
    assert ended.winner == "velathi"


def test_N_COMBAT_26_damage_below_threshold_is_no_injury() -> None:
    # The same fight, but the Goblin rolls +1: 3 damage < threshold 4.
    fight = deployed(
        "beasts",
        "velathi",
        [("beasts", "goblin", 1, None), ("velathi", "disciple", 1, None)],
        stocks={"velathi": Resources(food=2)},
    )
    fight.decide(Attack(target=1), dice_giving(1))
    fight.decide(Attack(target=0), dice_giving(3))
    assert fight.combat.stage == "end"
    assert fight.of_type(InjuryResolved) == []


# -- N-COMBAT-4: group splits -----------------------------------------------------------


def _goblin_sizes(fight: Fight) -> set[int]:
    return {c.size for c in fight.options if isinstance(c, DeployGroup) and c.unit == "goblin"}


def test_N_COMBAT_4_five_goblins_split_4_1_or_3_2_only() -> None:
    forces = [("beasts", "goblin", 5, None), ("velathi", "disciple", 1, None)]
    fight = Fight("beasts", "velathi", forces)
    assert fight.seat == "beasts"
    # Minimum groups is 2 (size 4): the first group may hold 1..4 (the rest fits one group).
    assert _goblin_sizes(fight) == {1, 2, 3, 4}
    splits = set()
    for first in (1, 2, 3, 4):
        fight = Fight("beasts", "velathi", forces)
        fight.decide(DeployGroup(unit="goblin", size=first, slot="ranged"))
        assert _goblin_sizes(fight) == {5 - first}  # the remainder is exactly one group
        for size in range(1, 5):
            if size != 5 - first:
                with pytest.raises(IllegalCommand) as refused:
                    fight.decide(DeployGroup(unit="goblin", size=size, slot="ranged"))
                assert refused.value.rule_id == "N-COMBAT-4"
        second = next(c for c in fight.options if isinstance(c, DeployGroup))
        fight.decide(second)
        goblins = [g.units for g in fight.combat.groups if g.unit == "goblin"]
        assert len(goblins) == 2  # never a third group, though a third slot is free
        splits.add(tuple(sorted(goblins, reverse=True)))
        assert fight.combat.reserve_of("beasts") == []
    assert splits == {(4, 1), (3, 2)}


@pytest.mark.parametrize("count,groups", [(4, [4]), (8, [4, 4]), (3, [3])])
def test_N_COMBAT_4_full_groups_leave_no_choice(count: int, groups: list[int]) -> None:
    fight = Fight(
        "beasts", "velathi", [("beasts", "goblin", count, None), ("velathi", "hunter", 1, None)]
    )
    sizes = []
    while fight.combat.stage == "deploy" and fight.seat == "beasts":
        assert len(_goblin_sizes(fight)) == 1
        option = next(c for c in fight.options if isinstance(c, DeployGroup))
        sizes.append(option.size)
        fight.decide(option)
    assert sizes == groups


# -- N-COMBAT-14: attack total ------------------------------------------------------------


@pytest.mark.parametrize("face,total", [(0, 6), (3, 9)])
def test_N_COMBAT_14_two_orcs_attack_6_max_9(face: int, total: int) -> None:
    assert max(value for value, _ in FACES) == 3  # the best face
    fight = deployed(
        "beasts", "velathi", [("beasts", "orc", 2, None), ("velathi", "zealot", 1, None)]
    )
    orcs, zealot = fight.group("beasts", "orc"), fight.group("velathi", "zealot")
    assert orcs.attack == 3 and fight.combat.active == orcs.id
    resolved = only(fight.decide(Attack(target=zealot.id), dice_giving(face)), AttackResolved)
    assert resolved.total == total
    assert resolved.damage == total - 2  # the Zealot's armor 2


# -- N-COMBAT-19: support ------------------------------------------------------------------


@pytest.mark.parametrize(
    "side,bonus,amount",
    [(None, "attack", 2), (None, "armor", 4), ("a", "attack", 2 + 8), ("a", "armor", 4 + 8)],
)
def test_N_COMBAT_19_cave_golem_support_2_or_4_plus_8_with_protector(
    side: str | None, bonus: str, amount: int
) -> None:
    # 2 Cave Golems (attack 2, armor 4): +2 attack or +4 armor (not x units); with the tech
    # Protector (side A, Reinforce 4) 2 x 4 = 8 more.
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 1, None),
            ("velathi", "cave_golem", 2, side),
            ("beasts", "woodcutter", 3, None),
        ],
    )
    disciple, golems = fight.group("velathi", "disciple"), fight.group("velathi", "cave_golem")
    assert golems.reinforce == (4 if side else 0)
    attack_first_target(fight)  # the Disciple (initiative 7) acts first
    assert fight.combat.active == golems.id
    supports = {c for c in fight.options if isinstance(c, Support)}
    assert {c.target for c in supports} == {disciple.id}  # never itself
    assert {c.bonus for c in supports} == {"attack", "armor"}
    before = fight.combat.groups[disciple.id]
    events = fight.decide(Support(target=disciple.id, bonus=bonus))  # type: ignore[arg-type]
    supported = only(events, Supported)
    assert supported == Supported(group=golems.id, target=disciple.id, bonus=bonus, amount=amount)
    after = fight.combat.groups[disciple.id]
    if bonus == "attack":
        assert after.attack_bonus == before.attack_bonus + amount
    else:
        assert after.armor_bonus == before.armor_bonus + amount
    assert fight.combat.groups[golems.id].acted == fight.combat.round


# -- N-ABL-3: Heal --------------------------------------------------------------------------


@pytest.mark.parametrize("damage,healed", [(8, 6), (6, 6), (4, 4), (0, 0)])
def test_N_ABL_3_three_orcs_two_heal_remove_6(damage: int, healed: int) -> None:
    # Two groups of 3 Orcs with tech B (Heal 2): the active group removes 3 x 2 = 6 markers
    # from an own group of its owner's choice (an undamaged one allowed, N-FAQ-9).
    fight = deployed(
        "beasts", "velathi", [("beasts", "orc", 6, "b"), ("velathi", "zealot", 1, None)]
    )
    first, second = fight.group("beasts", "orc", 0), fight.group("beasts", "orc", 1)
    assert first.heal == 2 and first.units == 3
    assert fight.seat == "beasts"  # tied Orc groups: the owner chooses (N-COMBAT-10)
    assert set(fight.options) == {ChooseGroup(group=first.id), ChooseGroup(group=second.id)}
    fight.set_group(second.id, damage=damage)
    fight.decide(ChooseGroup(group=first.id))
    assert fight.combat.stage == "heal"
    assert set(fight.options) == {HealGroup(target=first.id), HealGroup(target=second.id)}
    events = fight.decide(HealGroup(target=second.id))
    assert only(events, Healed) == Healed(group=first.id, target=second.id, amount=healed)
    assert fight.combat.groups[second.id].damage == damage - healed
    assert fight.combat.stage == "action" and fight.combat.active == first.id


# -- N-ABL-9: Retaliation -------------------------------------------------------------------


def test_N_ABL_9_two_zealots_retaliate_2() -> None:
    # Zealots with tech A (Retaliation 1) attacked by an Orc: the Orc takes 2 x 1 smite,
    # which does not trigger the Beasts' Bloodthirst (N-COMBAT-21).
    fight = deployed(
        "beasts", "velathi", [("beasts", "orc", 1, None), ("velathi", "zealot", 2, "a")]
    )
    orc, zealots = fight.group("beasts", "orc"), fight.group("velathi", "zealot")
    assert zealots.retaliation == 1
    resolved = only(fight.decide(Attack(target=zealots.id), dice_giving(0)), AttackResolved)
    assert resolved.retaliation == 2
    assert resolved.damage == 1  # 3 - armor 2
    orc = fight.combat.groups[orc.id]
    assert orc.damage == 2
    assert orc.attack_bonus == 0  # smite: no Bloodthirst


def test_N_ABL_9_retaliation_is_simultaneous() -> None:
    # 3 Orcs roll +3: 12 - 2 = 10 kills one Zealot (health 10); both Zealots still retaliate.
    fight = deployed(
        "beasts", "velathi", [("beasts", "orc", 3, None), ("velathi", "zealot", 2, "a")]
    )
    resolved = only(fight.decide(Attack(target=1), dice_giving(3)), AttackResolved)
    assert resolved.target_deaths == 1
    assert resolved.retaliation == 2


@pytest.mark.parametrize("with_orc,retaliation", [(True, 0), (False, 2)])
def test_N_ABL_9_only_when_the_zealots_could_target_the_attacker(
    with_orc: bool, retaliation: int
) -> None:
    # A Goblin (ranged) attacks the Zealots: melee Zealots can target it only when the
    # Beasts have no melee group (N-COMBAT-13).
    forces = [("beasts", "goblin", 1, None), ("velathi", "zealot", 2, "a")]
    if with_orc:
        forces.append(("beasts", "orc", 1, None))
    fight = deployed("beasts", "velathi", forces)  # type: ignore[arg-type]
    goblin, zealots = fight.group("beasts", "goblin"), fight.group("velathi", "zealot")
    assert fight.combat.active == goblin.id
    resolved = only(fight.decide(Attack(target=zealots.id), dice_giving(0)), AttackResolved)
    assert resolved.retaliation == retaliation


# -- N-COMBAT-13: targeting -------------------------------------------------------------------


def test_N_COMBAT_13_melee_cannot_reach_ranged_while_melee_remain() -> None:
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 1, None),
            ("beasts", "orc", 1, None),
            ("beasts", "goblin", 1, None),
        ],
    )
    disciple = fight.group("velathi", "disciple")
    orc, goblin = fight.group("beasts", "orc"), fight.group("beasts", "goblin")
    assert fight.combat.active == goblin.id  # initiative 8
    assert {c.target for c in fight.options if isinstance(c, Attack)} == {disciple.id}
    fight.decide(Attack(target=disciple.id), dice_giving(0))
    assert fight.combat.active == disciple.id
    assert fight.options == [Attack(target=orc.id)]
    with pytest.raises(IllegalCommand) as refused:
        fight.decide(Attack(target=goblin.id))
    assert refused.value.rule_id.startswith("N-COMBAT-1")
    assert "N-COMBAT-13" in str(refused.value)
    # Aim ignores the restriction (N-ABL-4).
    fight.set_group(disciple.id, aim=1)
    assert {c.target for c in fight.options if isinstance(c, Attack)} == {orc.id, goblin.id}
    # A ranged group in a melee slot counts as a melee target.
    fight.set_group(disciple.id, aim=0)
    fight.set_group(goblin.id, slot="melee")
    assert {c.target for c in fight.options if isinstance(c, Attack)} == {orc.id, goblin.id}


def test_N_COMBAT_13_melee_reaches_ranged_when_no_melee_left() -> None:
    fight = deployed(
        "velathi", "beasts", [("velathi", "disciple", 1, None), ("beasts", "goblin", 1, None)]
    )
    fight.decide(Attack(target=0), dice_giving(0))  # the Goblin's attack
    assert fight.options == [Attack(target=1)]


# -- N-COMBAT-10: order of acting ---------------------------------------------------------------


def _activated(fight: Fight) -> list[int]:
    """The groups in the order they became active: every activation is logged as
    ``GroupActivated``, chosen or forced."""
    return [e.group for e in fight.events if isinstance(e, GroupActivated)]


def test_N_COMBAT_10_attacker_first_on_ties_and_owner_chooses_within() -> None:
    # Orcs (Beasts) and Spearmen (Humans) share initiative 6.
    forces = [("beasts", "orc", 6, None), ("humans", "spearman", 3, None)]
    fight = deployed("beasts", "humans", forces)
    orcs = [g.id for g in fight.combat.groups if g.unit == "orc"]
    spearmen = fight.group("humans", "spearman")
    assert fight.seat == "beasts"
    assert fight.options == [ChooseGroup(group=orcs[0]), ChooseGroup(group=orcs[1])]
    fight.decide(ChooseGroup(group=orcs[1]))  # the owner's choice, not deployment order
    attack_first_target(fight, dice_giving(0))
    attack_first_target(fight, dice_giving(0))
    assert _activated(fight) == [orcs[1], orcs[0], spearmen.id]  # forced, and logged
    assert fight.combat.active == spearmen.id

    # The Humans attacking: their tied group acts first, then the Beasts choose.
    fight = deployed("humans", "beasts", forces)
    spearmen = fight.group("humans", "spearman")
    orcs = [g.id for g in fight.combat.groups if g.unit == "orc"]
    assert fight.combat.active == spearmen.id
    attack_first_target(fight, dice_giving(-1))  # 8 damage: no kill, no For the King claim
    assert fight.seat == "beasts"
    assert fight.options == [ChooseGroup(group=orcs[0]), ChooseGroup(group=orcs[1])]


def test_N_COMBAT_10_descending_initiative() -> None:
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "zealot", 3, None),
            ("velathi", "disciple", 3, None),
            ("beasts", "goblin", 4, None),
            ("beasts", "orc", 3, None),
        ],
    )
    for _ in range(4):
        attack_first_target(fight, dice_giving(-1))
    order = [fight.combat.groups[i].unit for i in _activated(fight)]
    assert order == ["goblin", "disciple", "orc", "zealot"]  # 8, 7, 6, 5


def _sandbox_battle(biome: str, card: str | None, seed: int) -> tuple[list[Event], list[Command]]:
    """A 3-against-3-types sandbox battle played by the default policies: its events and
    the commands chosen."""
    battle = Battle(
        attacker="velathi",
        defender="beasts",
        biome=biome,
        forces=(
            ForceSpec("velathi", "disciple", 3),
            ForceSpec("velathi", "zealot", 3),
            ForceSpec("velathi", "hunter", 3),
            ForceSpec("beasts", "orc", 3, "b"),
            ForceSpec("beasts", "goblin", 4),
            ForceSpec("beasts", "woodcutter", 3),
        ),
        biome_card=card,
    )
    sandbox, policy = Sandbox(PACK), DefaultPolicy(PACK)
    setup = Setup(
        game_id=GAME_ID, seats=("velathi", "beasts"), options={"battle": battle_option(battle)}
    )
    state = sandbox.initial_state(setup)
    events = list(sandbox.decide(state, StartBattle(), any_dice(), seat=None).events)
    commands: list[Command] = []
    for event in events:
        state = sandbox.evolve(state, event)
    while sandbox.outcome(state) is None:
        seat = sandbox.acting_seats(state)[0]
        assert state.combat is not None
        command = policy.choose(state.combat, seat, sandbox.legal_commands(state, seat))
        dice = DiceStream(bytes(32), GAME_ID, "", 1000 * seed + state.counter)
        step = sandbox.decide(state, command, dice, seat=seat).events
        for event in step:
            state = sandbox.evolve(state, event)
        events.extend(step)
        commands.append(command)
    return events, commands


@pytest.mark.parametrize("seed", range(5))
def test_N_COMBAT_10_every_activation_is_logged_forced_or_chosen(seed: int) -> None:
    events, commands = _sandbox_battle("hills", None, seed)
    acting = (AttackResolved, Healed, Supported, ActivationEnded)
    # Every activation is a GroupActivated (a chosen one and a forced one alike, with
    # nobody holding a tactic card), and each group acts only once it is logged active.
    activated: list[int] = []
    for event in events:
        if isinstance(event, GroupActivated):
            activated.append(event.group)
        elif isinstance(event, acting):
            assert activated and event.group == activated[-1]
    chosen = [c for c in commands if isinstance(c, ChooseGroup)]
    assert len(activated) > len(chosen)
    rounds = [e.round for e in events if isinstance(e, RoundEnded)]
    assert rounds == list(range(1, len(rounds) + 1))
    # Every round begins with its event (the last one may be decided before it ends), after
    # the combat opened or both sides stayed (N-COMBAT-22).
    started = [e for e in events if isinstance(e, RoundStarted)]
    assert [e.round for e in started] in (rounds, [*rounds, len(rounds) + 1])
    for event in started:
        before = events[events.index(event) - 1]
        assert isinstance(before, CombatOpened) or before == RetreatChosen(
            seat="velathi", retreat=False
        )
    # No round-end effect: the retreat decisions follow the round's end at once.
    assert not [e for e in events if isinstance(e, RoundClosing | RoundEffectsResolved)]
    assert not [e for e in events if isinstance(e, RoundEnded) and e.closing]
    for event in events:
        if isinstance(event, RoundEnded) and event is not events[-1]:
            follower = events[events.index(event) + 1]
            assert isinstance(follower, RetreatChosen)


def test_N_COMBAT_8_a_round_end_effect_keeps_the_round_end_events() -> None:
    events, _ = _sandbox_battle("desert", "desert_drought", 1)
    ended = [e.round for e in events if isinstance(e, RoundEnded)]
    closing = [e.round for e in events if isinstance(e, RoundClosing)]
    assert ended and closing == ended  # Drought smites at the end of every round


# -- N-COMBAT-22/23: retreat -------------------------------------------------------------------


def _to_end_of_round(fight: Fight) -> None:
    while fight.combat.stage not in ("retreat_defender", "retreat_attacker"):
        attack_first_target(fight, dice_giving(-1))


def _zealots_vs_orcs() -> Fight:
    fight = deployed(
        "velathi", "beasts", [("velathi", "zealot", 3, None), ("beasts", "orc", 3, None)]
    )
    _to_end_of_round(fight)
    return fight


def test_N_COMBAT_22_defender_then_attacker_may_retreat() -> None:
    fight = _zealots_vs_orcs()
    assert fight.combat.stage == "retreat_defender"
    assert fight.seat == "beasts"
    assert fight.options == [Retreat(retreat=True), Retreat(retreat=False)]
    fight.decide(Retreat(retreat=False))
    assert fight.seat == "velathi"
    assert fight.options == [Retreat(retreat=True), Retreat(retreat=False)]
    fight.decide(Retreat(retreat=False))
    assert fight.combat.round == 2  # nobody retreated: the next round begins


@pytest.mark.parametrize("retreating", ["beasts", "velathi"])
def test_N_COMBAT_22_retreating_side_loses(retreating: str) -> None:
    fight = _zealots_vs_orcs()
    if retreating == "velathi":
        fight.decide(Retreat(retreat=False))
    fight.decide(Retreat(retreat=True))
    assert fight.combat.stage == "backstab"
    other = "velathi" if retreating == "beasts" else "beasts"
    assert fight.seat == other
    assert Backstab() in fight.options  # the backstab is optional
    events = fight.decide(Backstab())
    assert BackstabDeclined(seat=other) in events
    assert only(events, CombatDecided).winner == other  # type: ignore[attr-defined]
    assert only(events, CombatEnded).winner == other  # type: ignore[attr-defined]


def test_N_COMBAT_23_sandbox_retreat_leaves_as_survivors() -> None:
    fight = _zealots_vs_orcs()
    orcs_left = fight.group("beasts", "orc").units
    zealots = fight.group("velathi", "zealot")
    fight.decide(Retreat(retreat=True))
    stabs = [c for c in fight.options if c.group is not None]  # type: ignore[attr-defined]
    assert stabs == [Backstab(group=zealots.id, target=fight.group("beasts", "orc").id)]
    # The backstab is a normal attack: 3 Zealots x 3 - 5 = 4 damage, and two swords.
    events = fight.decide(stabs[0], dice_giving(-5))
    assert only(events, BackstabDeclared) == BackstabDeclared(
        seat="velathi", group=zealots.id, target=stabs[0].target
    )
    resolved = only(events, AttackResolved)
    assert (resolved.total, resolved.damage, resolved.swords) == (4, 4, 2)
    assert fight.combat.groups[zealots.id].attack_bonus == 2
    orcs_left -= resolved.target_deaths
    assert orcs_left > 0
    started = only(events, RetreatMoveStarted)
    assert started.forces == (Force("beasts", "orc", orcs_left),)
    retreated = only(events, UnitsRetreated)
    assert retreated == UnitsRetreated(seat="beasts", unit="orc", count=orcs_left)
    assert not retreated.lost and retreated.destination is None
    ended = only(events, CombatEnded)
    assert ended.winner == "velathi"
    assert fight.combat.stage == "end"
    assert fight.combat.reserve_of("beasts") == []


# -- N-COMBAT-23 on the map -------------------------------------------------------------------


class MapFight:
    """Combat in the combat phase of a hand-made position."""

    def __init__(self, ctx: Context, state: GameState) -> None:
        self.ctx, self.state = ctx, state
        self.rules = Nataterra(ctx.pack, contexts=[ctx])
        self.events: list[Event] = []

    def decide(self, seat: str, command: object, dice: DiceStream | None = None) -> list[Event]:
        events = decide_combat_phase(
            self.ctx,
            self.state,
            seat,
            command,
            dice or any_dice(),  # type: ignore[arg-type]
        )
        for event in events:
            self.state = self.rules.evolve(self.state, event)
        self.events.extend(events)
        return list(events)

    @property
    def pending(self) -> tuple[str, list[object]]:
        found = combat_decision(self.ctx, self.state)
        assert found is not None
        return found[0], list(found[1])

    def deploy_all(self) -> None:
        while self.state.combat is not None and self.state.combat.stage == "deploy":
            seat, options = self.pending
            self.decide(seat, max(options, key=lambda c: c.size))  # type: ignore[attr-defined]

    def count(self, owner: str, unit: str, zone: str) -> int:
        return sum(
            s.count for s in self.state.units if (s.owner, s.unit, s.zone) == (owner, unit, zone)
        )


# The combat zone z11 is a mountain (no biome card); its neighbours: z10 mountain, z20 lake,
# z01 (Velathi units), z21 and z02 empty, z12 the Beasts' own base.
OPEN_MAP = ["V M L", ". M .", "h E ."]
# Every neighbour of z11 is a mountain, a lake or holds Velathi units.
SHUT_MAP = ["V M L", ". M L", "M E ."]


def _beasts_retreat_from(rows: list[str]) -> MapFight:
    units = [
        ("velathi", "hunter", "z11", 1),
        ("velathi", "hunter", "z01", 1),
        ("velathi", "hunter", "z00", 1),
        ("beasts", "orc", "z11", 2),
        ("beasts", "harpy", "z11", 1),
    ]
    if rows == SHUT_MAP:
        units.append(("velathi", "hunter", "z12", 1))
    ctx, state = position(grid_map(rows), units, phase="combat")
    fight = MapFight(ctx, state)
    assert legal_combat_phase(ctx, state) == [StartCombat(zone="z11", defender="beasts")]
    fight.decide("velathi", StartCombat(zone="z11", defender="beasts"))
    fight.deploy_all()
    combat = fight.state.combat
    assert combat is not None
    harpy = next(g for g in combat.groups if g.unit == "harpy")
    orcs = next(g for g in combat.groups if g.unit == "orc")
    hunter = next(g for g in combat.groups if g.unit == "hunter")
    # Round 1: Harpy (9+1, mountain defender), Orcs (6+1) support; the Hunter rolls 0.
    assert fight.pending[0] == "beasts" and combat.active == harpy.id
    fight.decide("beasts", Support(target=orcs.id, bonus="attack"))
    fight.decide("beasts", Support(target=harpy.id, bonus="attack"))
    assert fight.pending == ("velathi", [Attack(target=orcs.id)])
    fight.decide("velathi", Attack(target=orcs.id), dice_giving(0))
    assert fight.pending == ("beasts", [Retreat(retreat=True), Retreat(retreat=False)])
    fight.decide("beasts", Retreat(retreat=True))
    seat, options = fight.pending
    assert seat == "velathi"
    assert options == [Backstab(group=hunter.id, target=orcs.id), Backstab()]
    fight.decide("velathi", Backstab())
    return fight


def test_N_COMBAT_23_backstab_optional_then_retreat_moves_on_map() -> None:
    fight = _beasts_retreat_from(OPEN_MAP)
    assert BackstabDeclined(seat="velathi") in fight.events
    assert only(fight.events, CombatDecided).winner == "velathi"  # type: ignore[attr-defined]
    seat, options = fight.pending
    assert seat == "beasts"
    destinations: dict[str, set[str]] = {}
    for option in options:
        assert isinstance(option, RetreatUnits)
        destinations.setdefault(option.unit, set()).add(option.destination)
    # No mountain or lake (unless flying), no zone with enemy units; the own base is fine.
    assert destinations["orc"] == {"z02", "z12", "z21"}
    assert destinations["harpy"] == {"z02", "z10", "z12", "z20", "z21"}
    assert RetreatUnits(unit="orc", count=2, destination="z21") in options
    fight.decide("beasts", RetreatUnits(unit="orc", count=1, destination="z21"))
    fight.decide("beasts", RetreatUnits(unit="orc", count=1, destination="z12"))
    fight.decide("beasts", RetreatUnits(unit="harpy", count=1, destination="z20"))
    ended = only(fight.events, CombatEnded)
    assert ended.winner == "velathi"  # type: ignore[attr-defined]
    assert fight.state.combat is None
    assert fight.count("beasts", "orc", "z11") == 0
    assert fight.count("beasts", "harpy", "z11") == 0
    assert fight.count("beasts", "orc", "z21") == 1
    assert fight.count("beasts", "orc", "z12") == 1
    assert fight.count("beasts", "harpy", "z20") == 1
    assert fight.count("velathi", "hunter", "z11") == 1
    assert legal_combat_phase(fight.ctx, fight.state) == []


def test_N_COMBAT_23_unit_with_no_legal_zone_is_destroyed() -> None:
    fight = _beasts_retreat_from(SHUT_MAP)
    lost = [e for e in fight.events if isinstance(e, UnitsRetreated) and e.lost]
    assert lost == [UnitsRetreated(seat="beasts", unit="orc", count=2, lost=True)]
    seat, options = fight.pending  # the flying Harpy still has mountains and lakes
    assert seat == "beasts"
    assert {o.destination for o in options} == {"z02", "z10", "z20", "z21"}  # type: ignore[attr-defined]
    fight.decide("beasts", RetreatUnits(unit="harpy", count=1, destination="z10"))
    assert fight.state.combat is None
    assert fight.count("beasts", "orc", "z11") == 0
    assert fight.count("beasts", "harpy", "z10") == 1
    orc = PACK.units["orc"]
    assert (
        fight.state.player("beasts").pool["orc"] == orc.group_size + 2
    )  # position() starts it at group_size


# -- N-COMBAT-29: the round cap ------------------------------------------------------------------


def test_N_COMBAT_29_round_cap_forces_attacker_retreat() -> None:
    # Both sides only support and never retreat: after round 30 the attacker retreats
    # at once, without a backstab.
    fight = deployed(
        "velathi",
        "beasts",
        [
            ("velathi", "disciple", 1, None),
            ("velathi", "zealot", 1, None),
            ("beasts", "orc", 1, None),
            ("beasts", "goblin", 1, None),
        ],
    )
    asked = 0
    while fight.combat.stage != "end":
        options = fight.options
        if isinstance(options[0], Retreat):
            asked += 1
            fight.decide(Retreat(retreat=False))
        else:
            fight.decide(next(c for c in options if isinstance(c, Support)))
    assert asked == 2 * 29  # no retreat choice after round 30
    rounds = [e.round for e in fight.of_type(RoundEnded)]  # type: ignore[attr-defined]
    assert rounds == list(range(1, 31))
    chosen = fight.of_type(RetreatChosen)
    assert all(not e.retreat for e in chosen[:-1])  # type: ignore[attr-defined]
    forced = chosen[-1]
    assert forced == RetreatChosen(seat="velathi", retreat=True, forced=True)
    at = fight.events.index(forced)
    assert RoundEnded(round=30, closing=True) in fight.events[:at]  # the cap's work follows
    assert RoundEnded(round=29) in fight.events[:at]
    assert fight.combat.round == 30  # no round 31 begins
    assert fight.of_type(BackstabDeclared) == [] and fight.of_type(BackstabDeclined) == []
    assert only(fight.events, CombatEnded).winner == "beasts"  # type: ignore[attr-defined]
    retreated = fight.of_type(UnitsRetreated)
    assert {(e.unit, e.count) for e in retreated} == {("disciple", 1), ("zealot", 1)}  # type: ignore[attr-defined]


# -- N-ABL-8: Deception -------------------------------------------------------------------------


@pytest.mark.parametrize("reroll", [True, False])
def test_N_ABL_8_deception_reroll_keeps_new_face(reroll: bool) -> None:
    # A Manipulator (Deception, attack 3) rolls -5 with two swords; re-rolling shows +3
    # and keeps it, and only the kept face's swords count.
    fight = deployed(
        "velathi", "beasts", [("velathi", "manipulator", 1, None), ("beasts", "orc", 1, None)]
    )
    manipulator, orc = fight.group("velathi", "manipulator"), fight.group("beasts", "orc")
    assert manipulator.deception == 1 and fight.combat.active == manipulator.id
    events = fight.decide(Attack(target=orc.id), dice_giving(-5))
    assert [type(e) for e in events] == [AttackRolled]
    assert fight.combat.stage == "deception"
    assert fight.seat == "velathi"
    assert fight.options == [Reroll(reroll=True), Reroll(reroll=False)]
    events = fight.decide(Reroll(reroll=reroll), dice_giving(3))
    resolved = only(events, AttackResolved)
    if reroll:
        rolled = only(events, AttackRolled)
        assert rolled.reroll and (rolled.face, rolled.swords) == (3, 0)  # type: ignore[attr-defined]
        assert (resolved.total, resolved.damage, resolved.swords) == (6, 6, 0)
        assert fight.combat.groups[manipulator.id].attack_bonus == 0
    else:
        assert not any(isinstance(e, AttackRolled) for e in events)
        assert (resolved.total, resolved.damage, resolved.swords) == (-2, 0, 2)
        assert fight.combat.groups[manipulator.id].attack_bonus == 2
    assert fight.combat.stage != "deception"  # one re-roll per attack


# -- §11 civilisation abilities -------------------------------------------------------------------


def test_N_CIV_4_bloodthirst() -> None:
    fight = deployed(
        "velathi", "beasts", [("velathi", "disciple", 1, None), ("beasts", "orc", 2, None)]
    )
    disciple, orcs = fight.group("velathi", "disciple"), fight.group("beasts", "orc")
    resolved = only(fight.decide(Attack(target=orcs.id), dice_giving(0)), AttackResolved)
    assert (resolved.damage, resolved.bloodthirst) == (4, 1)
    assert fight.combat.groups[orcs.id].attack_bonus == 1
    # The Orcs spend it on their attack.
    resolved = only(fight.decide(Attack(target=disciple.id), dice_giving(0)), AttackResolved)
    assert (resolved.bonus_spent, resolved.total) == (1, 7)
    assert fight.combat.groups[orcs.id].attack_bonus == 0
    # The Velathi have no Bloodthirst.
    assert fight.combat.groups[disciple.id].attack_bonus == 0


def test_N_CIV_4_no_bloodthirst_without_damage() -> None:
    fight = deployed(
        "velathi", "beasts", [("velathi", "disciple", 1, None), ("beasts", "orc", 2, None)]
    )
    resolved = only(fight.decide(Attack(target=1), dice_giving(-5)), AttackResolved)
    assert (resolved.damage, resolved.bloodthirst) == (0, 0)
    assert fight.combat.groups[1].attack_bonus == 0


@pytest.mark.parametrize(
    "side,face,deaths,claim", [("a", 0, 1, 5), ("a", 3, 2, 10), (None, 0, 1, 2)]
)
def test_N_CIV_1_for_the_king_claim(side: str | None, face: int, deaths: int, claim: int) -> None:
    # Spearmen (armor 2; tech A: Reinforce 1) kill Woodcutters: per defeated unit the armor
    # bonus of a support action on themselves: 2 + 3 x 1 = 5 (2 without the tech).
    fight = deployed(
        "humans",
        "beasts",
        [("humans", "spearman", 3, side), ("beasts", "woodcutter", 3, None)],
    )
    spearmen, cutters = fight.group("humans", "spearman"), fight.group("beasts", "woodcutter")
    resolved = only(fight.decide(Attack(target=cutters.id), dice_giving(face)), AttackResolved)
    assert resolved.target_deaths == deaths
    assert resolved.armor_claim == claim
    assert fight.combat.stage == "after_attack"
    assert fight.seat == "humans"
    assert fight.options == [ClaimArmor(accept=True), ClaimArmor(accept=False)]
    accept = face == 0
    events = fight.decide(ClaimArmor(accept=accept))
    assert only(events, ArmorClaimed) == ArmorClaimed(
        group=spearmen.id, amount=claim if accept else 0
    )
    assert fight.combat.groups[spearmen.id].armor_bonus == (claim if accept else 0)


def test_N_CIV_1_no_claim_for_other_civilisations() -> None:
    fight = deployed(
        "velathi", "beasts", [("velathi", "zealot", 3, None), ("beasts", "woodcutter", 3, None)]
    )
    resolved = only(fight.decide(Attack(target=1), dice_giving(0)), AttackResolved)
    assert resolved.target_deaths == 1 and resolved.armor_claim == 0


@pytest.mark.parametrize("face,deaths", [(-1, 1), (3, 2)])
def test_N_CIV_3_naga_flare_per_kill(face: int, deaths: int) -> None:
    # 3 Kambars (attack 3) kill Woodcutters (health 6): 1 flare per defeated unit.
    fight = deployed(
        "naga", "beasts", [("naga", "kambar", 3, None), ("beasts", "woodcutter", 3, None)]
    )
    resolved = only(fight.decide(Attack(target=1), dice_giving(face)), AttackResolved)
    assert resolved.target_deaths == deaths
    assert resolved.flare == deaths


def test_N_CIV_3_flare_reaches_the_tracker_on_the_map() -> None:
    ctx, state = position(
        grid_map(["N M E"]),
        [("naga", "kambar", "z10", 3), ("beasts", "woodcutter", "z10", 3)],
        seats=("naga", "beasts"),
        active="naga",
        phase="combat",
    )
    before = state.player("naga").flare
    fight = MapFight(ctx, state)
    fight.decide("naga", StartCombat(zone="z10", defender="beasts"))
    fight.deploy_all()
    if SpiritsEmbrace() in fight.pending[1]:
        fight.decide("naga", SpiritsEmbrace())  # N-CIV-3 Spirit's Embrace: not now
    fight.decide("naga", Attack(target=1), dice_giving(3))
    assert fight.state.player("naga").flare == before + 2
    assert fight.count("beasts", "woodcutter", "z10") == 1


# -- N-COMBAT-7: initiative markers ---------------------------------------------------------


FORCES_7 = [
    ("velathi", "disciple", 1, None),
    ("velathi", "manipulator", 1, None),
    ("beasts", "goblin", 1, None),
    ("beasts", "orc", 1, None),
]


@pytest.mark.parametrize(
    "biome,card,expected",
    [
        # No card: the printed initiative.
        ("forest", None, {"disciple": 7, "manipulator": 9, "goblin": 8, "orc": 6}),
        # stone/spirit: one Velathi essence.
        (
            "forest",
            "forest_dominance_in_the_forests",
            {"disciple": 8, "manipulator": 10, "goblin": 8, "orc": 6},
        ),
        # shadow/blood: one essence each.
        (
            "forest",
            "forest_come_well_prepared",
            {"disciple": 8, "manipulator": 10, "goblin": 9, "orc": 7},
        ),
        # Mountain: the defender (Beasts) +1.
        ("mountain", None, {"disciple": 7, "manipulator": 9, "goblin": 9, "orc": 7}),
    ],
)
def test_N_COMBAT_7_essences_and_mountain_initiative(
    biome: str, card: str | None, expected: dict[str, int]
) -> None:
    if card is not None:
        essences = set(PACK.biome_cards[card].essences)
        assert len(essences & set(PACK.civilisations["velathi"].essences)) == 1
    fight = deployed("velathi", "beasts", FORCES_7, biome=biome, card=card)
    opened = only(fight.events, CombatOpened)
    assert fight.combat.biome_card == card
    owners = {u: o for o, u, _, _ in FORCES_7}
    assert opened.initiative == {  # type: ignore[attr-defined]
        f"{owners[unit]}/{unit}": value for unit, value in expected.items()
    }
    for group in fight.combat.groups:
        assert group.initiative == expected[group.unit]


def test_N_COMBAT_6_initiative_caps_at_10() -> None:
    # The Manipulator (9) defending in a mountain (+1) with a shadow card (+1): 10, not 11.
    fight = deployed(
        "beasts",
        "velathi",
        [("velathi", "manipulator", 1, None), ("beasts", "orc", 1, None)],
        biome="mountain",
        card="forest_come_well_prepared",
    )
    assert fight.group("velathi", "manipulator").initiative == 10
    assert fight.group("beasts", "orc").initiative == 7


def test_N_COMBAT_7_sandbox_draws_no_biome_card_in_mountains() -> None:
    battle = Battle(
        attacker="velathi",
        defender="beasts",
        biome="mountain",
        forces=(ForceSpec("velathi", "disciple", 1), ForceSpec("beasts", "orc", 1)),
        biome_card="forest_come_well_prepared",
    )
    sandbox = Sandbox(PACK)
    options = {"battle": battle_option(battle)}
    try:
        sandbox.validate_options(options)
    except ValueError:
        return  # refusing such a battle would be fine too
    setup = Setup(game_id=GAME_ID, seats=("velathi", "beasts"), options=options)
    state = sandbox.initial_state(setup)
    events = list(sandbox.decide(state, StartBattle(), any_dice(), seat=None).events)
    for event in events:
        state = sandbox.evolve(state, event)
    while not any(isinstance(e, CombatOpened) for e in events):
        seat = sandbox.acting_seats(state)[0]
        step = sandbox.decide(state, sandbox.legal_commands(state, seat)[0], any_dice(), seat=seat)
        for event in step:
            state = sandbox.evolve(state, event)
        events.extend(step)
    assert state.combat is not None
    assert state.combat.biome_card is None
    opened = only(list(events), CombatOpened)
    assert opened.initiative == {"velathi/disciple": 7, "beasts/orc": 7}  # type: ignore[attr-defined]
