"""The stage table's questions (:mod:`.stages`): in each stage, whether a seat must decide
and with which legal commands, or whether the next step is automatic (``None``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final, Literal

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack, Side
from nataterra_core.kernel import Command, Event

from ...messages.combat import (
    Attack,
    Backstab,
    ChooseGroup,
    ClaimArmor,
    DeployGroup,
    HealGroup,
    PayInjury,
    RedirectBiome,
    Reroll,
    Retreat,
    RetreatUnits,
    Strategise,
    StrategiseDone,
    Support,
)
from . import biome, tactics
from .board import pick_candidates, support_only
from .damage import (
    support_amount,
)
from .env import CombatEnv
from .model import (
    Combat,
    Force,
    Group,
    SlotKind,
    combat_unit,
)

__all__ = [
    "Ask",
    "Pending",
    "ask_action",
    "ask_after_attack",
    "ask_backstab",
    "ask_deception",
    "ask_deploy",
    "ask_heal",
    "ask_injury",
    "ask_nothing",
    "ask_pending",
    "ask_pick",
    "ask_redirect",
    "ask_retreat",
    "ask_retreat_move",
    "retreat_destinations",
    "retreat_mover",
    "setup_window",
    "side_in",
    "stabber",
    "strategists_waiting",
    "support_amounts",
    "targets",
]

_replace: Final = msgspec.structs.replace


def _slot_counts(env: CombatEnv, combat: Combat, seat: str) -> tuple[int, int, int]:
    """``seat``'s free melee, ranged and flex slots."""
    melee, ranged, flex = env.boards[seat]
    for g in combat.groups:
        if g.owner == seat and g.units > 0:
            if g.slot == "melee":
                melee -= 1
            elif g.slot == "ranged":
                ranged -= 1
            else:
                flex -= 1
    return melee, ranged, flex


def _deploy_options(env: CombatEnv, combat: Combat, seat: str) -> tuple[DeployGroup, ...]:
    sides = combat.sides.get(seat)
    chosen = tuple(sides.items()) if sides else ()
    return _seat_deploys(env.pack, seat, combat.reserve, chosen, _slot_counts(env, combat, seat))


@lru_cache(maxsize=4096)
def _seat_deploys(
    pack: ContentPack,
    seat: str,
    reserve: tuple[Force, ...],
    sides: tuple[tuple[str, Side], ...],
    free_slots: tuple[int, int, int],
) -> tuple[DeployGroup, ...]:
    """Every way ``seat`` may deploy its next group (N-COMBAT-4/5), given the reserve, the
    card sides its techs chose and its free slots: a function of values, kept for the
    many battles of one description (one lookup, where reading each waiting force's fields
    cost more)."""
    chosen = dict(sides)
    options: list[DeployGroup] = []
    for force in reserve:
        if force.owner == seat and force.count > 0:  # Combat.reserve_of, inlined
            unit = force.unit
            options += _force_deploys(
                pack, unit, force.count, force.origin, chosen.get(unit), free_slots
            )
    return tuple(options)


@lru_cache(maxsize=4096)
def _force_deploys(
    pack: ContentPack,
    unit_id: str,
    count: int,
    origin: str,
    side: Side | None,
    free_slots: tuple[int, int, int],
) -> tuple[DeployGroup, ...]:
    """The ways to deploy one group of ``count`` waiting units (N-COMBAT-4/5), given the
    free melee, ranged and flex slots (the pack is immutable and hashed by identity)."""
    free = dict(zip(("melee", "ranged", "flex"), free_slots, strict=True))
    unit = combat_unit(pack, unit_id)
    flexible = unit.side(side or "a").flexible_slot
    own: tuple[SlotKind, ...] = ("melee", "ranged") if flexible else (unit.class_,)
    slots: list[SlotKind] = [s for s in (*own, "flex") if free[s] > 0]
    if not slots:  # N-COMBAT-5: the other class's slots only once these are full
        other: SlotKind = "ranged" if unit.class_ == "melee" else "melee"
        slots = [other] if free[other] > 0 else []
    size = unit.group_size
    groups = -(-count // size)
    # N-COMBAT-4: only splits that use the minimum number of groups.
    sizes = [k for k in range(1, size + 1) if k <= count and count - k <= (groups - 1) * size]
    return tuple(
        DeployGroup(unit=unit_id, size=k, slot=s, origin=origin)
        for k in sizes
        for s in dict.fromkeys(slots)
    )


def targets(combat: Combat, group: Group) -> list[Group]:
    """Enemy groups ``group`` may attack (N-COMBAT-13, N-ABL-4 Aim)."""
    if support_only(group):
        return []
    if combat.allies:
        return _team_targets(combat, group)
    owner = group.owner
    enemies = [g for g in combat.groups if g.units and g.owner != owner]
    if group.cls == "ranged" or group.aim:
        return enemies
    # Group.melee_target, inlined (hot path)
    melee = [g for g in enemies if g.cls == "melee" or g.slot == "melee"]
    return melee or enemies


def _team_targets(combat: Combat, group: Group) -> list[Group]:
    """N-TEAM-5/6: never an ally's group; a melee group may attack a player's ranged
    groups when that player has no melee group, whatever its allies have."""
    side = combat.side(group.owner)
    enemies = [g for g in combat.groups if g.units and combat.side(g.owner) != side]
    if group.cls == "ranged" or group.aim:
        return enemies
    with_melee = {g.owner for g in enemies if g.melee_target}
    return [g for g in enemies if g.melee_target or g.owner not in with_melee]


def support_amounts(group: Group) -> list[tuple[Literal["attack", "armor"], int]]:
    amounts: list[tuple[Literal["attack", "armor"], int]] = [
        ("attack", support_amount(group.attack, group.units, group.reinforce)),
        ("armor", support_amount(group.armor, group.units, group.reinforce)),
    ]
    return [(kind, amount) for kind, amount in amounts if amount > 0]


# Action options by (attack targets, allies to support, the group's attack, armor, units
# and Reinforce): a few hundred distinct lists over a whole battle calculator run, so one
# dict lookup instead of building commands.
_ACTION_OPTIONS: Final[
    dict[tuple[tuple[int, ...], tuple[int, ...], int, int, int, int], tuple[Command, ...]]
] = {}


_ACTION_OPTIONS_MAX = 4096


def _action_options(combat: Combat, group: Group) -> tuple[Command, ...]:
    """Attacks on every target (:func:`targets`), then supports of every ally with each
    bonus kind the group can give. One pass over the groups (hot path); commands are
    immutable values, so the same lists are reused rather than rebuilt."""
    owner, me = group.owner, group.id
    allies: list[int] = []
    attacks: tuple[int, ...] = ()
    if combat.allies:  # N-TEAM-5: allies' groups are supported, never attacked
        side = combat.side(owner)
        allies = [
            g.id for g in combat.groups if g.units and g.id != me and combat.side(g.owner) == side
        ]
        if not support_only(group):
            attacks = tuple([t.id for t in _team_targets(combat, group)])
    else:
        # One pass reading only the fields the answer needs (hot path: compiled, each read
        # of a group's field is a generic attribute lookup); a group's id is its index.
        supports_only = support_only(group)  # N-COMBAT-5
        # As targets() says: a melee group without Aim attacks melee targets first (N-COMBAT-13)
        picky = not supports_only and group.cls != "ranged" and not group.aim
        enemies: list[int] = []
        melee: list[int] = []  # the enemies that are melee targets (Group.melee_target)
        for g in combat.groups:
            if g.units:
                gid = g.id
                if g.owner != owner:
                    enemies.append(gid)
                    if picky and (g.cls == "melee" or g.slot == "melee"):
                        melee.append(gid)
                elif gid != me:
                    allies.append(gid)
        if not supports_only:
            attacks = tuple(melee or enemies) if picky else tuple(enemies)
    # N-COMBAT-18: a group that attacked cannot support; what a support gives depends on
    # the group's attack, armor, units and Reinforce (N-COMBAT-19).
    supported = tuple(allies) if combat.attacks_made == 0 else ()
    key = (attacks, supported, group.attack, group.armor, group.units, group.reinforce)
    options = _ACTION_OPTIONS.get(key)
    if options is None:
        kinds = [kind for kind, _ in support_amounts(group)] if supported else []
        options = (
            *(Attack(target=t) for t in attacks),
            *(Support(target=ally, bonus=kind) for ally in supported for kind in kinds),
        )
        if len(_ACTION_OPTIONS) >= _ACTION_OPTIONS_MAX:
            _ACTION_OPTIONS.clear()
        _ACTION_OPTIONS[key] = options
    return options


@lru_cache(maxsize=4096)
def _heal_options(healable: tuple[int, ...]) -> tuple[Command, ...]:
    """A Heal of each group of ``healable``: commands are immutable values, so each list
    is built once rather than at every heal (as :data:`_ACTION_OPTIONS`)."""
    return tuple([HealGroup(target=group) for group in healable])


def stabber(combat: Combat) -> str:
    """Who may backstab now: the next player of the side that stays (N-COMBAT-24)."""
    assert combat.retreating is not None
    return combat.stabbers[0] if combat.stabbers else combat.opponent(combat.retreating)


def _backstab_options(combat: Combat) -> list[Command]:
    retreating = combat.retreating
    assert retreating is not None
    leaving = set(combat.seats_of(retreating))
    options: list[Command] = []
    for group in combat.groups_of(stabber(combat)):
        options.extend(
            Backstab(group=group.id, target=t.id)
            for t in targets(combat, group)
            if t.owner in leaving
        )
    return options


def retreat_destinations(env: CombatEnv, combat: Combat, seat: str, unit: str) -> list[str]:
    game_map = env.map
    assert game_map is not None
    side = combat.sides.get(seat, {}).get(unit)
    card = env.pack.units[unit].side(side or "a")
    flying = card.ability_level("flying", with_tech=side is not None) > 0
    naga_base = game_map.bases.get("naga")
    found = []
    for zone in game_map.neighbours(combat.zone):
        biome = game_map.zones[zone].biome
        if biome in ("mountain", "lake") and not flying and zone != naga_base:
            continue
        if env.blocked(seat, zone):
            continue
        found.append(zone)
    return found


Pending = tuple[str, Sequence[Command]] | None
"""A combat's pending decision: the seat that decides and its legal commands, or ``None``."""

Ask = Callable[[CombatEnv, Combat], Pending]
"""A stage's question: the seat that decides now and its options, or ``None`` when the
stage's automatic step comes next (the stage table, :mod:`.stages`)."""


def ask_pending(env: CombatEnv, combat: Combat) -> Pending:
    """The first pending choice (asked before the stage's own question): a tactic window
    (N-COMBAT-9: asked while holding a card at all), joining by Strategise (N-ABL-7), or a
    biome card's or the Naga's choice (N-COMBAT-8, N-CIV-3)."""
    seat, choice = combat.pending[0]
    if choice.startswith("tactic_"):
        if not env.hand(seat):  # its hand emptied since the window opened
            return None
        return seat, tactics.window_options(env, combat, seat, choice.removeprefix("tactic_"))
    if choice == "strategise":
        joins: list[Command] = [
            Strategise(unit=unit, origin=origin, count=k)
            for unit, origin, available in env.strategists(seat, combat)
            for k in range(1, available + 1)
        ]
        return (seat, [*joins, StrategiseDone()]) if joins else None
    return biome.pending_options(env, combat)


def ask_nothing(env: CombatEnv, combat: Combat) -> Pending:
    """Stages that never ask (an automatic step follows)."""
    return None


def ask_deploy(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-4/5: the deploying side places a group (after the set-up window and the
    offer to join by Strategise, which come first)."""
    if not combat.setup_window and setup_window(env, combat):
        return None  # options played "at the start of the combat" come first
    if not combat.strategise_offered and strategists_waiting(env, combat):
        return None  # N-ABL-7: joining by Strategise comes first, during set-up
    options = _deploy_options(env, combat, combat.deploying)
    return (combat.deploying, options) if options else None


def ask_redirect(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-8: the Naga may take a civilisation's biome effect by paying flare."""
    if biome.redirect_cost(env, combat) is None:
        return None
    return "naga", [RedirectBiome(redirect=True), RedirectBiome(redirect=False)]


def ask_pick(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-10: the owner chooses among its groups tied for the next activation
    (N-TEAM-4: allies' ties are their side's choice)."""
    if not combat.tied:  # no two groups of a side share a marker: nothing to choose
        return None
    candidates = pick_candidates(combat)  # none at a round's end: nothing more to ask
    if candidates is not None and len(candidates) > 1:
        chooser = combat.side(candidates[0].owner)
        return chooser, [ChooseGroup(group=g.id) for g in candidates]
    return None


def ask_heal(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-11a: a healer heals one of its side's groups first (N-TEAM-5: an ally's too)."""
    active = combat.active
    if active < 0:
        return None
    group = combat.groups[active]
    owner = group.owner
    if combat.allies:
        mates = combat.seats_of(combat.side(owner))
        healable = tuple([g.id for seat in mates for g in combat.groups_of(seat)])
    else:  # the same list, in one pass
        healable = tuple([g.id for g in combat.groups if g.units > 0 and g.owner == owner])
    return owner, _heal_options(healable)


def ask_action(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-12: the active group attacks or supports (nothing to do: it passes)."""
    active = combat.active
    if active < 0:
        return None
    group = combat.groups[active]
    options = _action_options(combat, group)
    return (group.owner, options) if options else None


def ask_deception(env: CombatEnv, combat: Combat) -> Pending:
    """N-ABL-8: the owner keeps the die or re-rolls it."""
    if combat.active < 0:
        return None
    return combat.groups[combat.active].owner, [Reroll(reroll=True), Reroll(reroll=False)]


def ask_after_attack(env: CombatEnv, combat: Combat) -> Pending:
    """N-CIV-1 For the King: the owner may claim the armor its attack earned."""
    if combat.pending_gain <= 0 or combat.active < 0:
        return None
    owner = combat.groups[combat.active].owner
    return owner, [ClaimArmor(accept=True), ClaimArmor(accept=False)]


_RETREAT_OPTIONS: tuple[Command, ...] = (Retreat(retreat=True), Retreat(retreat=False))


def ask_retreat(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-22: the defender, then the attacker, may retreat at a round's end (not
    when barred by Fight to the Bitter End or a card, nor when a card withdraws them)."""
    seat = combat.defender if combat.stage == "retreat_defender" else combat.attacker
    barred, withdrawing = combat.no_retreat, combat.withdrawing
    if (barred or withdrawing) and side_in(combat, seat, barred + withdrawing):
        return None
    return seat, _RETREAT_OPTIONS


def ask_backstab(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-24: each player of the side that stays may backstab once (not against
    Higher Ground)."""
    if combat.retreating in combat.no_backstab:
        return None
    options = _backstab_options(combat)
    return (stabber(combat), [*options, Backstab()]) if options else None


def ask_injury(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-26: the owner of an injured group pays the fee or loses a unit."""
    if not combat.injuries:
        return None
    injured = combat.groups[combat.injuries[0]]
    if not env.stock(injured.owner).covers(injured.fee):
        return None
    return injured.owner, [
        PayInjury(group=injured.id, pay=True),
        PayInjury(group=injured.id, pay=False),
    ]


def ask_retreat_move(env: CombatEnv, combat: Combat) -> Pending:
    """N-COMBAT-23: the retreating side moves its units to adjacent zones; a type with
    nowhere to go is destroyed automatically, before anything is asked."""
    if env.map is None or combat.retreating is None:
        return None
    seat = retreat_mover(combat)
    moves: list[Command] = []
    for force in combat.reserve_of(seat):
        for zone in retreat_destinations(env, combat, seat, force.unit):
            moves.extend(
                RetreatUnits(unit=force.unit, count=k, destination=zone)
                for k in range(1, force.count + 1)
            )
    if moves and all(
        retreat_destinations(env, combat, seat, f.unit) for f in combat.reserve_of(seat)
    ):
        return seat, moves
    return None


def side_in(combat: Combat, lead: str, seats: tuple[str, ...]) -> bool:
    """Whether a player of ``lead``'s side is among ``seats`` (a side retreats as one:
    a card that bars or forces one player's retreat does so for its side)."""
    if not seats:
        return False
    return lead in seats or any(s in seats for s in combat.seats_of(lead))


def retreat_mover(combat: Combat) -> str:
    """The player of the retreating side whose units move next (the lead first)."""
    assert combat.retreating is not None
    side = combat.seats_of(combat.retreating)
    return next((seat for seat in side if combat.reserve_of(seat)), side[0])


def setup_window(env: CombatEnv, combat: Combat) -> tuple[Event, ...]:
    """The set-up tactic window (attackers first), if anyone may play in it."""
    if not env.deals_tactics:  # no cards at all (a battle): the common case, kept cheap
        return ()
    return tactics.open_window(env, combat, "setup", combat.seats)


def strategists_waiting(env: CombatEnv, combat: Combat) -> tuple[str, ...]:
    """The sides (attacker first) with units next door that may join by Strategise."""
    if combat.revealed or not env.has_strategists():
        return ()
    return tuple(s for s in combat.seats if env.strategists(s, combat))
