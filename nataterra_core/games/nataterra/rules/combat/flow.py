"""The combat flow (rules §6): what happens next, and who decides.

The flow is a small machine over :attr:`Combat.stage`. At every point exactly one of two
things holds: either some seat must decide (:func:`decision` gives the seat and its legal
commands), or the next step is automatic (:func:`auto_step` gives its events). ``decide``
turns a command into events and then runs automatic steps until the next decision, so a
command's record holds everything up to the next choice. Events are folded by
:func:`~.folds.evolve_combat` (re-exported here), which never draws dice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack, Side
from nataterra_core.kernel import Command, DiceStream, Event, IllegalCommand, record_draw

from ..hexmap import GameMap
from ..stock import Resources
from . import biome, tactics
from .damage import (
    attack_total,
    damage_dealt,
    heal_amount,
    resolve_damage,
    retaliation_damage,
    support_amount,
)
from .folds import FOLDS, evolve_combat, fold_attack_resolved, own_units
from .messages import (
    ActivationEnded,
    Aftermath,
    ArmorClaimed,
    Attack,
    AttackResolved,
    AttackRolled,
    Backstab,
    BackstabDeclared,
    BackstabDeclined,
    BackstabEnded,
    BiomeCardRevealed,
    ChoiceResolved,
    ChooseGroup,
    ClaimArmor,
    CombatDecided,
    CombatEnded,
    CombatOpened,
    CombatStarted,
    DeployGroup,
    DeploymentEnded,
    ExtraAttackBegun,
    GroupActivated,
    GroupDeployed,
    Healed,
    HealGroup,
    InjuryResolved,
    PayInjury,
    RedirectBiome,
    Reroll,
    Retreat,
    RetreatChosen,
    RetreatMoveStarted,
    RetreatUnits,
    RoundClosing,
    RoundEffectsResolved,
    RoundEnded,
    Strategise,
    StrategiseDone,
    StrategiseJoined,
    StrategiseOffered,
    Support,
    Supported,
    UnitsRetreated,
)
from .model import (
    INITIATIVE_CAP,
    ROUND_CAP,
    Combat,
    Force,
    Group,
    SlotKind,
    combat_unit,
    pick_candidates,
)

__all__ = [
    "ROUND_CAP",
    "CombatEnv",
    "Pending",
    "Stepped",
    "advance",
    "auto_step",
    "combat_from_start",
    "decide_combat",
    "decision",
    "evolve_combat",
    "run_on",
    "start_combat",
    "step",
]

_replace = msgspec.structs.replace


# The rule a refused command breaks, by the stage that asked for a decision.
STAGE_RULES = {
    "strategise": "N-ABL-7",
    "redirect": "N-COMBAT-8",
    "effects": "N-COMBAT-8",
    "round_effects": "N-COMBAT-8",
    "aftermath": "N-COMBAT-28",
    "deploy": "N-COMBAT-4",
    "pick": "N-COMBAT-10",
    "heal": "N-COMBAT-11a",
    "action": "N-COMBAT-12",
    "deception": "N-ABL-8",
    "after_attack": "N-CIV-1",
    "retreat_defender": "N-COMBAT-22",
    "retreat_attacker": "N-COMBAT-22",
    "backstab": "N-COMBAT-23",
    "injuries": "N-COMBAT-26",
    "retreat_move": "N-COMBAT-23",
}


BiomeDraw = Callable[[Combat, DiceStream], tuple[str | None, tuple[Event, ...]]]
"""Draws the combat's biome card: the card (or ``None``) and the events that drew it."""


def _no_strategists(seat: str, combat: Combat) -> list[tuple[str, str, int]]:
    return []


def _no_biome_card(combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
    return None, ()


class CombatEnv:
    """What combat reads besides its own state: the pack, the map if there is one, and
    how a biome card is drawn (the game's decks; the sandbox names one or none).

    ``blocked(seat, zone)`` says whether an enemy unit, structure or base bars ``seat``
    from retreating into ``zone`` (N-COMBAT-23); without a map (the sandbox) retreating
    units simply leave the combat.
    """

    __slots__ = (
        "_picked",
        "after_win",
        "ambush",
        "blocked",
        "civ_ability",
        "draw_biome",
        "draw_tactics",
        "essences",
        "faces",
        "flare_costs",
        "map",
        "next_door",
        "pack",
        "strategists",
    )

    def __init__(
        self,
        pack: ContentPack,
        game_map: GameMap | None = None,
        blocked: Callable[[str, str], bool] | None = None,
        draw_biome: BiomeDraw | None = None,
        *,
        draw_tactics: Callable[[str, DiceStream], tuple[Event, ...]] | None = None,
        flare_costs: Callable[[str, str], int | None] | None = None,
        ambush: Callable[[str], str | None] | None = None,
        after_win: Callable[[str, str], list[str]] | None = None,
        strategists: Callable[[str, Combat], list[tuple[str, str, int]]] | None = None,
        next_door: Callable[[str, Combat], list[str]] | None = None,
    ) -> None:
        # The pick stage's candidates that :func:`decision` found (both sides standing).
        self._picked: tuple[Combat, list[Group]] | None = None
        self.pack = pack
        self.map = game_map
        self.blocked = blocked or (lambda seat, zone: False)
        self.draw_biome = draw_biome or _no_biome_card
        # Without a game (the sandbox) there are no hands, decks, pools or map to act on.
        self.draw_tactics = draw_tactics or (lambda seat, dice: ())
        self.flare_costs = flare_costs or (lambda seat, zone: None)
        self.ambush = ambush or (lambda seat: None)
        self.after_win = after_win or (lambda seat, unit: [])
        self.strategists = strategists or _no_strategists
        self.next_door = next_door or (lambda seat, combat: [])
        self.faces = pack.die.faces
        self.civ_ability = {civ.id: civ.ability for civ in pack.civilisations.values()}
        self.essences = {civ.id: frozenset(civ.essences) for civ in pack.civilisations.values()}

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """Events that draw ``seat`` one tactic card (N-DEV-6 reshuffles an empty deck)."""
        return self.draw_tactics(seat, dice)

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """N-COMBAT-8: flare ``seat`` pays to redirect a biome effect in ``zone``."""
        return self.flare_costs(seat, zone)

    def ambush_unit(self, seat: str) -> str | None:
        """Ambush: the unit type whose token joins for ``seat`` (``None``: none can)."""
        return self.ambush(seat)

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Quick Gains: where ``seat``'s ``unit`` may move from the combat zone."""
        return self.after_win(seat, unit)

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """Zones next to the combat zone holding ``seat``'s units (none without a map)."""
        return self.next_door(seat, combat)

    def fold(self, combat: Combat, event: Event) -> Combat:
        """:func:`evolve_combat` with this environment's pack."""
        fold = FOLDS.get(type(event))  # evolve_combat, inlined (hot path)
        return combat if fold is None else fold(self.pack, combat, event)


# -- starting ---------------------------------------------------------------------------


def combat_from_start(
    event: CombatStarted, hands: dict[str, tuple[str, ...]] | None = None
) -> Combat:
    """The combat a :class:`CombatStarted` event opens: the attacker deploys first.

    ``hands`` are the sides' tactic hands, taken from the game (never logged in the event).
    """
    return Combat(
        hands=dict(hands or {}),
        zone=event.zone,
        biome=event.biome,
        attacker=event.attacker,
        defender=event.defender,
        sides=event.sides,
        stocks=event.stocks,
        reserve=event.forces,
        deploying=event.attacker,
        flare=dict(event.flare),
        allies=dict(event.allies),
    )


def start_combat(
    zone: str,
    biome: str,
    attacker: str,
    defender: str,
    forces: Sequence[Force],
    sides: dict[str, dict[str, Side]],
    stocks: dict[str, Resources],
    flare: dict[str, int] | None = None,
    allies: dict[str, str] | None = None,
) -> CombatStarted:
    """The event that opens a combat (N-COMBAT-1..3); deployment follows. ``allies`` maps
    each further player of a side to its lead (team games, N-TEAM-4)."""
    return CombatStarted(
        zone=zone,
        biome=biome,
        attacker=attacker,
        defender=defender,
        forces=tuple(sorted(forces)),
        sides={owner: dict(s) for owner, s in sides.items()},
        stocks=dict(stocks),
        flare=dict(flare or {}),
        allies=dict(allies or {}),
    )


# -- decisions --------------------------------------------------------------------------


def _slot_counts(env: CombatEnv, combat: Combat, seat: str) -> tuple[int, int, int]:
    """``seat``'s free melee, ranged and flex slots."""
    board = env.pack.civilisations[seat].combat_board
    melee, ranged, flex = board.melee, board.ranged, board.flex
    for g in combat.groups:
        if g.owner == seat and g.units > 0:
            if g.slot == "melee":
                melee -= 1
            elif g.slot == "ranged":
                ranged -= 1
            else:
                flex -= 1
    return melee, ranged, flex


def _deploy_options(env: CombatEnv, combat: Combat, seat: str) -> list[Command]:
    free_slots = _slot_counts(env, combat, seat)
    sides = combat.sides.get(seat, {})
    pack = env.pack
    options: list[Command] = []
    for force in combat.reserve:
        if force.owner == seat and force.count > 0:  # Combat.reserve_of, inlined
            unit = force.unit
            options += _force_deploys(
                pack, unit, force.count, force.origin, sides.get(unit), free_slots
            )
    return options


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
    if group.support_only:
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


def _support_amounts(group: Group) -> list[tuple[Literal["attack", "armor"], int]]:
    amounts: list[tuple[Literal["attack", "armor"], int]] = [
        ("attack", support_amount(group.attack, group.units, group.reinforce)),
        ("armor", support_amount(group.armor, group.units, group.reinforce)),
    ]
    return [(kind, amount) for kind, amount in amounts if amount > 0]


# Action options by (attack targets, allies to support, the group's attack, armor, units
# and Reinforce): a few hundred distinct lists over a whole battle calculator run, so one
# dict lookup instead of building commands.
_ACTION_OPTIONS: dict[
    tuple[tuple[int, ...], tuple[int, ...], int, int, int, int], tuple[Command, ...]
] = {}
_ACTION_OPTIONS_MAX = 4096


def _action_options(combat: Combat, group: Group) -> list[Command]:
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
        if not group.support_only:
            attacks = tuple([t.id for t in _team_targets(combat, group)])
    else:
        enemies: list[int] = []
        melee: list[int] = []  # the enemies that are melee targets (Group.melee_target)
        for g in combat.groups:
            if g.units:
                if g.owner != owner:
                    enemies.append(g.id)
                    if g.cls == "melee" or g.slot == "melee":
                        melee.append(g.id)
                elif g.id != me:
                    allies.append(g.id)
        if group.support_only:
            pass
        elif group.cls == "ranged" or group.aim:  # as targets() says
            attacks = tuple(enemies)
        else:
            attacks = tuple(melee or enemies)
    # N-COMBAT-18: a group that attacked cannot support; what a support gives depends on
    # the group's attack, armor, units and Reinforce (N-COMBAT-19).
    supported = tuple(allies) if combat.attacks_made == 0 else ()
    key = (attacks, supported, group.attack, group.armor, group.units, group.reinforce)
    options = _ACTION_OPTIONS.get(key)
    if options is None:
        kinds = [kind for kind, _ in _support_amounts(group)] if supported else []
        options = (
            *(Attack(target=t) for t in attacks),
            *(Support(target=ally, bonus=kind) for ally in supported for kind in kinds),
        )
        if len(_ACTION_OPTIONS) >= _ACTION_OPTIONS_MAX:
            _ACTION_OPTIONS.clear()
        _ACTION_OPTIONS[key] = options
    return list(options)


@lru_cache(maxsize=4096)
def _heal_options(healable: tuple[int, ...]) -> tuple[Command, ...]:
    """A Heal of each group of ``healable``: commands are immutable values, so each list
    is built once rather than at every heal (as :data:`_ACTION_OPTIONS`)."""
    return tuple([HealGroup(target=group) for group in healable])


def _stabber(combat: Combat) -> str:
    """Who may backstab now: the next player of the side that stays (N-COMBAT-24)."""
    assert combat.retreating is not None
    return combat.stabbers[0] if combat.stabbers else combat.opponent(combat.retreating)


def _backstab_options(combat: Combat) -> list[Command]:
    retreating = combat.retreating
    assert retreating is not None
    leaving = set(combat.seats_of(retreating))
    options: list[Command] = []
    for group in combat.groups_of(_stabber(combat)):
        options.extend(
            Backstab(group=group.id, target=t.id)
            for t in targets(combat, group)
            if t.owner in leaving
        )
    return options


def _retreat_destinations(env: CombatEnv, combat: Combat, seat: str, unit: str) -> list[str]:
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


Pending = tuple[str, list[Command]] | None
"""A combat's pending decision: the seat that decides and its legal commands, or ``None``."""


def decision(env: CombatEnv, combat: Combat) -> Pending:
    """The seat that must decide now and its legal commands, or ``None`` if the next step
    is automatic."""
    return _decision(env, combat)


# msgspec matches many keyword arguments slowly (≈ 0.5 µs per event of this size), so the
# hottest events are built positionally, in their declaration order, checked here.
_RESOLVED_FIELDS = (
    "group",
    "target",
    "total",
    "damage",
    "target_deaths",
    "bonus_spent",
    "armor_bonus_spent",
    "swords",
    "retaliation",
    "attacker_deaths",
    "bloodthirst",
    "armor_claim",
    "flare",
    "ends_activation",
    "m",
    "counter_before",
    "counter_after",
    "value",
    "face",
)
_DEPLOYED_FIELDS = ("seat", "group", "unit", "units", "slot", "origin")
for _event, _fields in ((AttackResolved, _RESOLVED_FIELDS), (GroupDeployed, _DEPLOYED_FIELDS)):
    if tuple(f.name for f in msgspec.structs.fields(_event)) != _fields:  # pragma: no cover
        raise ImportError(f"{_event.__name__}'s fields changed: update the positional calls")

# Stages that never ask anything once no choice is pending (automatic steps follow).
_AUTOMATIC = frozenset({"opening", "effects", "round_end", "round_effects"})

_RETREAT_OPTIONS: tuple[Command, ...] = (Retreat(retreat=True), Retreat(retreat=False))


def _decision(env: CombatEnv, combat: Combat) -> tuple[str, list[Command]] | None:
    stage = combat.stage
    if not combat.pending:  # the hot stages of a round first
        if stage == "action":
            group = combat.groups[combat.active] if combat.active >= 0 else None
            if group is None:
                return None
            options = _action_options(combat, group)
            return (group.owner, options) if options else None
        if stage == "pick":
            if not combat.both_standing():
                return None
            candidates = pick_candidates(combat)
            env._picked = (combat, candidates)
            if len(candidates) > 1:  # N-TEAM-4: allies' ties are their side's choice
                chooser = combat.side(candidates[0].owner)
                return chooser, [ChooseGroup(group=g.id) for g in candidates]
            return None
        if stage in ("retreat_defender", "retreat_attacker"):
            seat = combat.defender if stage == "retreat_defender" else combat.attacker
            if _side_in(combat, seat, combat.no_retreat + combat.withdrawing):
                return None  # barred (Fight to the Bitter End, a card) or retreating (a card)
            return seat, list(_RETREAT_OPTIONS)
        if stage in _AUTOMATIC:
            return None
    if combat.pending:
        seat, choice = combat.pending[0]
        if choice.startswith("tactic_"):  # N-COMBAT-9: asked while holding a card at all
            if not combat.hands.get(seat):  # its hand emptied since the window opened
                return None
            return seat, tactics.window_options(env, combat, seat, choice.removeprefix("tactic_"))
        if choice == "strategise":
            joins = [
                Strategise(unit=unit, origin=origin, count=k)
                for unit, origin, available in env.strategists(seat, combat)
                for k in range(1, available + 1)
            ]
            return (seat, [*joins, StrategiseDone()]) if joins else None
        return biome.pending_options(env, combat)
    if stage == "redirect":
        if biome.redirect_cost(env, combat) is None:
            return None
        return "naga", [RedirectBiome(redirect=True), RedirectBiome(redirect=False)]
    if stage == "deploy":
        if not combat.setup_window and _setup_window(env, combat):
            return None  # options played "at the start of the combat" come first
        if not combat.strategise_offered and _strategists(env, combat):
            return None  # N-ABL-7: joining by Strategise comes first, during set-up
        options = _deploy_options(env, combat, combat.deploying)
        return (combat.deploying, options) if options else None
    group = combat.groups[combat.active] if combat.active >= 0 else None
    if stage == "heal" and group is not None:
        mates = combat.seats_of(combat.side(group.owner))  # N-TEAM-5: Heal an ally too
        healable = tuple([g.id for seat in mates for g in combat.groups_of(seat)])
        return group.owner, list(_heal_options(healable))
    if stage == "deception" and group is not None:
        return group.owner, [Reroll(reroll=True), Reroll(reroll=False)]
    if stage == "after_attack" and group is not None and combat.pending_gain > 0:
        return group.owner, [ClaimArmor(accept=True), ClaimArmor(accept=False)]
    if stage == "backstab":
        if combat.retreating in combat.no_backstab:  # Higher Ground
            return None
        options = _backstab_options(combat)
        assert combat.retreating is not None
        return (_stabber(combat), [*options, Backstab()]) if options else None
    if stage == "injuries" and combat.injuries:
        injured = combat.groups[combat.injuries[0]]
        if not combat.stocks.get(injured.owner, Resources()).covers(injured.fee):
            return None
        return injured.owner, [
            PayInjury(group=injured.id, pay=True),
            PayInjury(group=injured.id, pay=False),
        ]
    if stage == "retreat_move" and env.map is not None and combat.retreating is not None:
        seat = _retreat_mover(combat)
        moves: list[Command] = []
        for force in combat.reserve_of(seat):
            for zone in _retreat_destinations(env, combat, seat, force.unit):
                moves.extend(
                    RetreatUnits(unit=force.unit, count=k, destination=zone)
                    for k in range(1, force.count + 1)
                )
        # A type with nowhere to go is destroyed automatically, before anything is asked.
        if moves and all(
            _retreat_destinations(env, combat, seat, f.unit) for f in combat.reserve_of(seat)
        ):
            return seat, moves
    return None


# -- automatic steps --------------------------------------------------------------------


def _side_in(combat: Combat, lead: str, seats: tuple[str, ...]) -> bool:
    """Whether a player of ``lead``'s side is among ``seats`` (a side retreats as one:
    a card that bars or forces one player's retreat does so for its side)."""
    if not seats:
        return False
    return lead in seats or any(s in seats for s in combat.seats_of(lead))


def _retreat_mover(combat: Combat) -> str:
    """The player of the retreating side whose units move next (the lead first)."""
    assert combat.retreating is not None
    side = combat.seats_of(combat.retreating)
    return next((seat for seat in side if combat.reserve_of(seat)), side[0])


def _winner(combat: Combat) -> str | None:
    if combat.retreating is not None:
        return combat.opponent(combat.retreating)
    attacker = combat.side_has_groups(combat.attacker)
    defender = combat.side_has_groups(combat.defender)
    if attacker and not defender:
        return combat.attacker
    if defender and not attacker:
        return combat.defender
    return None


def _initiative(env: CombatEnv, combat: Combat, card: str | None) -> dict[str, int]:
    """N-COMBAT-6/7: each type's marker, +1 per matching essence, +1 for mountain defenders."""
    essences = env.pack.biome_cards[card].essences if card else ()
    mountain = combat.biome == "mountain"
    bonuses: dict[str, int] = {}  # by owner: the same for all of an owner's types
    values: dict[str, int] = {}
    for group in combat.groups:
        key = f"{group.owner}/{group.unit}"
        if key in values:  # one marker per type and owner
            continue
        owner = group.owner
        bonus = bonuses.get(owner)
        if bonus is None:
            owned = env.essences[owner]
            bonus = len([e for e in essences if e in owned])
            if mountain and combat.side(owner) == combat.defender:
                bonus += 1
            bonuses[owner] = bonus
        base = combat_unit(env.pack, group.unit).initiative + combat.initiative_bonus.get(key, 0)
        values[key] = min(INITIATIVE_CAP, base + bonus)
    return values


def _roll(
    env: CombatEnv, dice: DiceStream, group: Group, target: int, reroll: bool
) -> AttackRolled:
    drawn = record_draw(dice, len(env.faces))
    face = env.faces[drawn["value"]]
    return AttackRolled(
        group=group.id,
        target=target,
        **drawn,
        face=face.value,
        swords=face.swords,
        reroll=reroll,
    )


def _resolve(env: CombatEnv, combat: Combat, face_index: int) -> AttackResolved:
    """N-COMBAT-14..17 with the abilities that act on an attack, for the kept die face."""
    groups = combat.groups
    return _resolve_attack(env, combat, groups[combat.active], groups[combat.target], face_index)


def _resolve_attack(
    env: CombatEnv,
    combat: Combat,
    group: Group,
    target: Group,
    face_index: int,
    roll: tuple[int, int] | None = None,
) -> AttackResolved:
    """:func:`_resolve` for ``group`` attacking ``target``; ``roll`` (the dice counter before
    and after the draw) when the event records the roll too."""
    face = env.faces[face_index]
    # N-COMBAT-18: the attack bonus is spent on the first attack of an activation only.
    bonus = group.attack_bonus if combat.attacks_made == 0 or combat.backstab else 0
    total = attack_total(group.attack, group.units, bonus, face.value)
    hit = damage_dealt(
        total,
        attacking_units=group.units,
        pierce=group.pierce,
        armor=target.armor,
        armor_bonus=target.armor_bonus,
        splash=group.splash,
        target_units=target.units,
    )
    deaths, _ = resolve_damage(target.damage + hit.damage, target.units, target.health)
    # N-ABL-9: Retaliation is simultaneous: the target's units before this attack count.
    retaliation = 0
    if target.retaliation and any(t.id == group.id for t in targets(combat, target)):
        retaliation = retaliation_damage(target.units, target.retaliation)
    attacker_deaths, _ = resolve_damage(group.damage + retaliation, group.units, group.health)
    civ_ability = env.civ_ability
    owner_ability = civ_ability[group.owner]
    # N-CIV-4 Bloodthirst, or a Warcry Totem's (N-STR-3)
    thirst = target.bloodthirst + (civ_ability[target.owner] == "bloodthirst")
    bloodthirst = thirst if hit.damage > 0 else 0
    claim = 0
    survivors = group.units - attacker_deaths
    if owner_ability == "for_the_king" and deaths and survivors:
        claim = deaths * support_amount(group.armor, survivors, group.reinforce)
    # The roll's fields (m, counter_before, counter_after, value, face), if recorded here.
    m = before = after = value = None
    if roll is not None:
        m, before, after, value = len(env.faces), roll[0], roll[1], face.value
    over = _activation_over(combat, group, target, attacker_deaths, deaths, claim)
    resolved = AttackResolved(  # positionally: see _RESOLVED_FIELDS
        group.id,
        target.id,
        total,
        hit.damage,
        deaths,
        bonus,
        hit.armor_bonus_spent,
        face.swords,
        retaliation,
        attacker_deaths,
        bloodthirst if deaths < target.units else 0,
        claim,
        deaths if owner_ability == "flare" else 0,
        bool(over),
        m,
        before,
        after,
        face_index if roll is not None else None,
        value,
    )
    if over is None and not _extra_attack_left(env, combat, resolved):
        return _replace(resolved, ends_activation=True)
    return resolved


def auto_step(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """The events of the next automatic step (call only when :func:`decision` is ``None``)."""
    stage = combat.stage
    if combat.pending:  # a pending choice with nothing to choose from
        seat, choice = combat.pending[0]
        return (ChoiceResolved(seat=seat, choice=choice, declined=True),)
    if stage == "pick":
        picked = env._picked
        if picked is not None and picked[0] is combat:  # what decision() just found
            candidates = picked[1]
        elif not combat.both_standing():
            return (CombatDecided(winner=_winner(combat)),)
        else:
            candidates = pick_candidates(combat)
        if not candidates:
            return (RoundEnded(round=combat.round),)
        return _activate(env, combat, candidates[0])
    if stage == "deploy":
        if not combat.setup_window:
            opened = _setup_window(env, combat)
            if opened:
                return opened
        if not combat.strategise_offered:
            seats = _strategists(env, combat)
            if seats:
                return (StrategiseOffered(seats=seats),)
        return (DeploymentEnded(seat=combat.deploying),)
    if stage == "opening":
        # N-COMBAT-7: no biome card in mountains or lakes (the drawing function knows).
        card, drawn = env.draw_biome(combat, dice)
        return (*drawn, BiomeCardRevealed(card=card))
    if stage == "redirect":
        return biome.fix_target(env, combat, dice, redirected=False)
    if stage == "effects":
        if not combat.before_window:  # N-COMBAT-9: attackers first, then defenders
            opened = tactics.open_window(env, combat, "before", combat.seats)
            if opened:
                return opened
        return (CombatOpened(initiative=_initiative(env, combat, combat.biome_card)),)
    if stage == "round_end":
        return (*biome.round_end_damage(env, combat), RoundClosing(round=combat.round))
    if stage == "round_effects":
        if not combat.both_standing():
            return (CombatDecided(winner=_winner(combat)),)
        if combat.round >= ROUND_CAP:  # N-COMBAT-29: the attacker retreats, no backstab
            return (RetreatChosen(seat=combat.attacker, retreat=True, forced=True),)
        return (RoundEffectsResolved(round=combat.round),)
    if stage in ("retreat_defender", "retreat_attacker"):  # barred, or withdrawing by a card
        seat = combat.defender if stage == "retreat_defender" else combat.attacker
        if _side_in(combat, seat, combat.withdrawing) and not _side_in(
            combat, seat, combat.no_retreat
        ):
            return (RetreatChosen(seat=seat, retreat=True, forced=True),)  # no backstab
        return (RetreatChosen(seat=seat, retreat=False),)
    if stage == "action":  # nothing to attack and nobody to support: the group passes
        return (ActivationEnded(group=combat.active),)
    if stage == "after_attack":
        group = combat.groups[combat.active]
        if combat.backstab and combat.stabbers[1:] and combat.both_standing():
            return (BackstabEnded(seat=combat.stabbers[0]),)  # N-COMBAT-24: the next one
        if combat.backstab or not combat.both_standing():
            return (CombatDecided(winner=_winner(combat)),)
        if group.units > 0 and combat.attacks_made <= group.extra and targets(combat, group):
            return (ExtraAttackBegun(group=group.id),)
        return (ActivationEnded(group=group.id),)
    if stage == "backstab":
        return (BackstabDeclined(seat=_stabber(combat)),)
    if stage == "decided":
        return (CombatDecided(winner=_winner(combat)),)
    if stage == "injuries":
        if combat.injuries:  # cannot pay: the unit is lost
            injured = combat.groups[combat.injuries[0]]
            return (InjuryResolved(group=injured.id, paid=False, fee=Resources()),)
        if combat.retreating is not None:  # the whole side leaves (N-TEAM-4)
            return tuple(
                RetreatMoveStarted(seat=seat, forces=own_units(env.pack, combat, seat))
                for seat in combat.seats_of(combat.retreating)
            )
        return (Aftermath(),)
    if stage == "aftermath":
        if combat.deferred:  # N-COMBAT-27: options played earlier resolve now
            return tactics.resolve_deferred(env, combat, dice)
        if not combat.after_window:  # defenders first
            defenders_first = (*combat.seats_of(combat.defender), *combat.seats_of(combat.attacker))
            opened = tactics.open_window(env, combat, "after", defenders_first)
            if opened:
                return opened
        return (*_spoils(env, combat, dice), _ended(combat))
    if stage == "retreat_move":
        seat = _retreat_mover(combat)
        waiting = combat.reserve_of(seat)
        if not waiting:
            return (Aftermath(),)
        force = waiting[0]
        if env.map is None:  # the sandbox: retreating units leave the combat as survivors
            return (UnitsRetreated(seat=seat, unit=force.unit, count=force.count),)
        for f in waiting:
            if not _retreat_destinations(env, combat, seat, f.unit):
                return (UnitsRetreated(seat=seat, unit=f.unit, count=f.count, lost=True),)
    raise AssertionError(f"no automatic step in stage {stage}")  # pragma: no cover


def _setup_window(env: CombatEnv, combat: Combat) -> tuple[Event, ...]:
    """The set-up tactic window (attackers first), if anyone may play in it."""
    return tactics.open_window(env, combat, "setup", combat.seats)


def _strategists(env: CombatEnv, combat: Combat) -> tuple[str, ...]:
    """The sides (attacker first) with units next door that may join by Strategise."""
    if combat.revealed or env.strategists is _no_strategists:
        return ()
    return tuple(s for s in combat.seats if env.strategists(s, combat))


def _activate(env: CombatEnv, combat: Combat, group: Group) -> tuple[Event, ...]:
    """N-COMBAT-10/11: ``group`` becomes active; the per-group tactic window opens for the
    players holding a tactic card (N-COMBAT-9's ruling), the group's owner first."""
    activated = GroupActivated(group=group.id)
    if not combat.hands or not combat.asks_windows():  # nobody to ask: no window (hot path)
        return (activated,)
    order = (group.owner, *(s for s in combat.seats if s != group.owner))
    active = env.fold(combat, activated)  # active-group options need the group active
    return (activated, *tactics.open_window(env, active, "group", order))


def _spoils(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[Event, ...]:
    """Spoils of War: a holder who won draws tactic cards."""
    card = env.pack.biome_cards[combat.biome_card] if combat.biome_card else None
    if card is None or card.effect.kind != "draw_tactic_if_win":
        return ()
    if combat.winner is None or combat.winner not in combat.holders:
        return ()
    events: list[Event] = []
    for _ in range(card.effect.amount):
        events.extend(env.draw_tactic(combat.winner, dice))
    return tuple(events)


def _ended(combat: Combat) -> CombatEnded:
    return CombatEnded(
        zone=combat.zone,
        winner=combat.winner,
        killed=dict(combat.killed),
        injured=dict(combat.injured),
    )


# -- deciding ---------------------------------------------------------------------------


Stepped = tuple[tuple[Event, ...], Combat, Pending]
"""What a command or the combat's opening led to: its events, the combat after them (folded
once, here), and that combat's pending decision (found once, here). A plain tuple: one is
made per decision."""


def advance(env: CombatEnv, combat: Combat, dice: DiceStream) -> tuple[list[Event], Combat]:
    """Run automatic steps until a decision is needed or the combat has ended: the events
    and the combat after them (:func:`run_on` also gives the decision reached)."""
    events, after, _ = run_on(env, combat, dice)
    return list(events), after


def decide_combat(
    env: CombatEnv, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...]:
    """Check ``command`` against the pending decision, produce its events and run on to the
    next decision (:func:`step` also gives the combat after them and that decision)."""
    return step(env, combat, seat, command, dice)[0]


def run_on(env: CombatEnv, combat: Combat, dice: DiceStream) -> Stepped:
    """Run automatic steps until a decision is needed or the combat has ended."""
    events: list[Event] = []
    pending = None if combat.stage == "end" else decision(env, combat)
    while combat.stage != "end" and pending is None:
        for event in auto_step(env, combat, dice):
            events.append(event)
            combat = env.fold(combat, event)
        pending = None if combat.stage == "end" else decision(env, combat)
    return tuple(events), combat, pending


def step(
    env: CombatEnv,
    combat: Combat,
    seat: str,
    command: Command,
    dice: DiceStream,
    *,
    listed: bool = False,
) -> Stepped:
    """Check ``command`` against the pending decision (unless ``listed``: it came from that
    decision's list), produce its events and run on to the next decision."""
    if not listed:
        pending = decision(env, combat)
        if pending is None:
            raise IllegalCommand("N-COMBAT-10", "no decision is pending in this combat")
        who, options = pending
        if seat != who or command not in options:
            raise _refusal(combat, seat, who, command)
    events = _command_events(env, combat, seat, command, dice)
    for event in events:
        combat = env.fold(combat, event)
    more, after, pending = run_on(env, combat, dice)
    return (*events, *more) if more else events, after, pending


def _refusal(combat: Combat, seat: str, who: str, command: Command) -> IllegalCommand:
    """The error for ``seat``'s refused ``command`` when ``who`` decides now."""
    rule = STAGE_RULES.get(combat.stage, "N-COMBAT-10")
    if combat.pending:
        rule = "N-CIV-3" if combat.pending[0][1].startswith("embrace") else "N-COMBAT-8"
    if seat != who:
        return IllegalCommand(rule, f"{who} decides now in this combat, not {seat}")
    return IllegalCommand(*_why_not(combat, command, rule))


def _why_not(combat: Combat, command: Command, rule: str) -> tuple[str, str]:
    """The rule a refused command breaks, and why (more precise than the stage's rule)."""
    active = combat.groups[combat.active] if combat.active >= 0 else None
    if isinstance(command, Support) and active is not None and command.target == active.id:
        return "N-COMBAT-19", "a group supports another allied group, never itself"
    if isinstance(command, Attack) and combat.active >= 0 and combat.stage == "action":
        group = combat.groups[combat.active]
        if group.support_only:
            return "N-COMBAT-5", "a melee group in a ranged slot can only support"
        return "N-COMBAT-13", (
            f"group {group.id} cannot attack group {command.target} "
            "(melee groups reach ranged groups only when their owner has no melee group)"
        )
    return rule, f"{command!r} is not a legal choice in the {combat.stage} stage"


def _command_events(
    env: CombatEnv, combat: Combat, seat: str, command: Command, dice: DiceStream
) -> tuple[Event, ...]:
    if combat.pending or type(command) is RedirectBiome:
        chosen = tactics.play_events(env, combat, seat, command, dice)
        if chosen is None:
            chosen = biome.choice_events(env, combat, seat, command, dice)
        if chosen is not None:
            return chosen
    handler = _COMMAND_EVENTS.get(type(command))
    if handler is None:
        raise IllegalCommand("N-COMBAT-10", f"{type(command).__name__} is not a combat command")
    return handler(env, combat, seat, command, dice)


def _attacked(
    env: CombatEnv, combat: Combat, seat: str, command: Attack, dice: DiceStream
) -> tuple[Event, ...]:
    return _attack(env, combat, combat.groups[combat.active], command.target, dice)


def _retreat(
    env: CombatEnv, combat: Combat, seat: str, command: Retreat, dice: DiceStream
) -> tuple[Event, ...]:
    return (RetreatChosen(seat=seat, retreat=command.retreat),)


def _heal(
    env: CombatEnv, combat: Combat, seat: str, command: HealGroup, dice: DiceStream
) -> tuple[Event, ...]:
    group = combat.groups[combat.active]
    target = combat.groups[command.target]
    amount = min(target.damage, heal_amount(group.units, group.heal))
    return (Healed(group=group.id, target=target.id, amount=amount),)


def _deploy(
    env: CombatEnv, combat: Combat, seat: str, command: DeployGroup, dice: DiceStream
) -> tuple[Event, ...]:
    return (
        GroupDeployed(  # positionally: seat, group, unit, units, slot, origin
            seat, len(combat.groups), command.unit, command.size, command.slot, command.origin
        ),
    )


def _strategise(
    env: CombatEnv, combat: Combat, seat: str, command: Strategise, dice: DiceStream
) -> tuple[Event, ...]:
    return (
        StrategiseJoined(seat=seat, unit=command.unit, origin=command.origin, count=command.count),
    )


def _strategise_done(
    env: CombatEnv, combat: Combat, seat: str, command: StrategiseDone, dice: DiceStream
) -> tuple[Event, ...]:
    return (ChoiceResolved(seat=seat, choice="strategise", declined=True),)


def _chosen_group(
    env: CombatEnv, combat: Combat, seat: str, command: ChooseGroup, dice: DiceStream
) -> tuple[Event, ...]:
    return _activate(env, combat, combat.groups[command.group])


def _support(
    env: CombatEnv, combat: Combat, seat: str, command: Support, dice: DiceStream
) -> tuple[Event, ...]:
    group = combat.groups[combat.active]
    amount = dict(_support_amounts(group))[command.bonus]
    return (Supported(group=group.id, target=command.target, bonus=command.bonus, amount=amount),)


def _reroll(
    env: CombatEnv, combat: Combat, seat: str, command: Reroll, dice: DiceStream
) -> tuple[Event, ...]:
    group = combat.groups[combat.active]
    if command.reroll:  # only the kept face's swords count (N-COMBAT-15)
        roll = _roll(env, dice, group, combat.target, reroll=True)
        return (roll, _resolve(env, combat, roll.value))
    return (_resolve(env, combat, combat.roll_face),)


def _claim_armor(
    env: CombatEnv, combat: Combat, seat: str, command: ClaimArmor, dice: DiceStream
) -> tuple[Event, ...]:
    amount = combat.pending_gain if command.accept else 0
    return (ArmorClaimed(group=combat.active, amount=amount),)


def _backstab(
    env: CombatEnv, combat: Combat, seat: str, command: Backstab, dice: DiceStream
) -> tuple[Event, ...]:
    if command.group is None or command.target is None:
        return (BackstabDeclined(seat=seat),)
    declared = BackstabDeclared(seat=seat, group=command.group, target=command.target)
    stabbing = evolve_combat(env.pack, combat, declared)
    group = stabbing.groups[command.group]
    return (declared, *_attack(env, stabbing, group, command.target, dice))


def _pay_injury(
    env: CombatEnv, combat: Combat, seat: str, command: PayInjury, dice: DiceStream
) -> tuple[Event, ...]:
    group = combat.groups[command.group]
    fee = group.fee if command.pay else Resources()
    return (InjuryResolved(group=group.id, paid=command.pay, fee=fee),)


def _retreat_units(
    env: CombatEnv, combat: Combat, seat: str, command: RetreatUnits, dice: DiceStream
) -> tuple[Event, ...]:
    return (
        UnitsRetreated(
            seat=seat, unit=command.unit, count=command.count, destination=command.destination
        ),
    )


# The events of each command type once no choice is pending (one lookup, where a chain of
# isinstance tests cost the later types up to half a microsecond).
_COMMAND_EVENTS: dict[
    type[Command], Callable[[CombatEnv, Combat, str, Any, DiceStream], tuple[Event, ...]]
] = {
    Attack: _attacked,
    Retreat: _retreat,
    HealGroup: _heal,
    DeployGroup: _deploy,
    Strategise: _strategise,
    StrategiseDone: _strategise_done,
    ChooseGroup: _chosen_group,
    Support: _support,
    Reroll: _reroll,
    ClaimArmor: _claim_armor,
    Backstab: _backstab,
    PayInjury: _pay_injury,
    RetreatUnits: _retreat_units,
}


def _attack(
    env: CombatEnv, combat: Combat, group: Group, target: int, dice: DiceStream
) -> tuple[Event, ...]:
    if group.deception:  # N-ABL-8: the owner sees the die, then keeps or re-rolls it
        return (_roll(env, dice, group, target, reroll=False),)
    # Otherwise the roll and its result are one event (AttackResolved records the die).
    drawn = record_draw(dice, len(env.faces))
    roll = (drawn["counter_before"], drawn["counter_after"])
    return (_resolve_attack(env, combat, group, combat.groups[target], drawn["value"], roll),)


def _activation_over(
    combat: Combat, group: Group, target: Group, attacker_deaths: int, deaths: int, claim: int
) -> bool | None:
    """Whether, after ``group``'s attack on ``target``, the group has nothing left to do
    while the combat goes on: no armor to claim, no backstab, both sides standing, no extra
    attack. ``None``: only :func:`_extra_attack_left` can tell."""
    if claim or combat.backstab:
        return False
    groups = combat.groups
    # Both sides still standing (the attacker and the target are on opposite sides).
    if group.units == attacker_deaths and not _others_standing(groups, group):
        return False
    if target.units == deaths and not _others_standing(groups, target):
        return False
    if not group.extra or group.units == attacker_deaths:
        return True
    return None


def _extra_attack_left(env: CombatEnv, combat: Combat, attack: AttackResolved) -> bool:
    """Whether the attacking group may attack again after ``attack`` (N-COMBAT-18)."""
    after = fold_attack_resolved(env.pack, combat, attack)  # rare: only groups with extra attacks
    group = after.groups[attack.group]
    return after.attacks_made <= group.extra and bool(targets(after, group))


def _others_standing(groups: tuple[Group, ...], group: Group) -> bool:
    """Whether ``group``'s owner has another group on the board."""
    owner, gid = group.owner, group.id
    return any(g.units and g.owner == owner and g.id != gid for g in groups)
