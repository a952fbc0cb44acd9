"""Folding combat events into the combat (``evolve``): each event type has one function.

Folds never draw dice and never decide: they apply the facts an event records. The flow
(:mod:`.flow`) folds the events it produces to look ahead; :func:`evolve_combat` is what the
game and the sandbox call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import Event

from ..stock import Resources
from ..tactics import ResourcesGained, TacticCardDrawn
from . import biome
from .messages import (
    AbilityGranted,
    ActivationEnded,
    Aftermath,
    AmbushJoined,
    ArmorClaimed,
    AttackResolved,
    AttackRolled,
    BackstabDeclared,
    BackstabDeclined,
    BackstabEnded,
    BiomeCardRevealed,
    BiomeTargetFixed,
    BonusGranted,
    ChoiceResolved,
    CombatDecided,
    CombatEnded,
    CombatOpened,
    DamageRemoved,
    DeferredResolved,
    DeploymentEnded,
    EffectDamage,
    EmbraceGranted,
    ExtraAttackBegun,
    GroupActivated,
    GroupDeployed,
    Healed,
    InitiativeRaised,
    InjuryResolved,
    MoveAfterWinGranted,
    PlayerChosen,
    RetreatChosen,
    RetreatMoveStarted,
    RoundClosing,
    RoundEffectsResolved,
    RoundEnded,
    SpiritsEmbraced,
    StandingPassGiven,
    StoneskinHardened,
    StrategiseGranted,
    StrategiseJoined,
    StrategiseOffered,
    Supported,
    TacticDiscarded,
    TacticPlayed,
    UnitsMovedAfterWin,
    UnitsRetreated,
    WindowOpened,
    WithdrawalDeclared,
)
from .model import (
    INITIATIVE_CAP,
    ROUND_CAP,
    Combat,
    Force,
    Group,
    Stage,
    make_group,
    pick_candidates,
    replace_group,
)

__all__ = ["FOLDS", "evolve_combat", "fold_attack_resolved", "own_units"]


def own_units(pack: ContentPack, combat: Combat, seat: str) -> tuple[Force, ...]:
    """``seat``'s units in the combat: survivors on the boards and those that sat out.
    Ambush units are left out: they neither retreat nor move, they leave when it ends; so
    are structures fighting as groups (the Bone Tower never moves, N-FAQ-20)."""
    counts: dict[str, int] = {}
    for g in combat.groups_of(seat):
        if not g.origin:  # N-ABL-7: units joined by Strategise stay where they are
            counts[g.unit] = counts.get(g.unit, 0) + g.units
    for f in combat.reserve_of(seat):
        if not f.origin:
            counts[f.unit] = counts.get(f.unit, 0) + f.count
    for f in combat.ambush:
        if f.owner == seat:
            counts[f.unit] = max(0, counts.get(f.unit, 0) - f.count)
    return tuple(
        Force(seat, unit, n) for unit, n in sorted(counts.items()) if n and unit in pack.units
    )


_replace = msgspec.structs.replace


def _live_markers(markers: dict[str, int], groups: tuple[Group, ...]) -> dict[str, int]:
    """N-COMBAT-17: the marker of a type whose last group has left the board goes too."""
    return _markers_of(markers, {f"{g.owner}/{g.unit}" for g in groups if g.units})


def _markers_of(markers: dict[str, int], live: set[str]) -> dict[str, int]:
    """The markers of the ``live`` types (``markers`` itself when they all are)."""
    if live.issuperset(markers):
        return markers
    return {key: value for key, value in markers.items() if key in live}


def _marker_gone(markers: dict[str, int], groups: tuple[Group, ...], gone: Group) -> dict[str, int]:
    """:func:`_live_markers` when only ``gone`` has just left the board (every other marker
    is known to be live)."""
    key = f"{gone.owner}/{gone.unit}"
    if key not in markers:
        return markers
    owner, unit = gone.owner, gone.unit
    if any(g.units and g.unit == unit and g.owner == owner for g in groups):
        return markers
    return {k: v for k, v in markers.items() if k != key}


def _add(counts: dict[str, int], owner: str, n: int) -> dict[str, int]:
    return counts if not n else {**counts, owner: counts.get(owner, 0) + n}


def _take_damage(group: Group, damage: int, deaths: int) -> Group:
    units = group.units - deaths
    markers = 0 if units == 0 else group.damage + damage - deaths * group.health
    return _replace(group, units=units, damage=markers)


def _deployed(pack: ContentPack, combat: Combat, event: GroupDeployed) -> Combat:
    side = combat.sides.get(event.seat, {}).get(event.unit)
    boosts = combat.boosts  # usually none: no need to name the key
    boost = boosts.get(f"{event.seat}@{event.origin or combat.zone}") if boosts else None
    group = make_group(
        pack,
        event.group,
        event.seat,
        event.unit,
        event.units,
        event.slot,
        side,
        event.origin,
        boost,
    )
    reserve = _take_reserve(combat.reserve, event.seat, event.unit, event.units, event.origin)
    return _replace(combat, groups=(*combat.groups, group), reserve=reserve)


def _take_reserve(
    reserve: tuple[Force, ...], owner: str, unit: str, n: int, origin: str = ""
) -> tuple[Force, ...]:
    """``reserve`` less ``n`` units of its one entry for (owner, unit, origin); a negative
    ``n`` adds them, as a new entry if there is none."""
    taken = list(reserve)
    for i, f in enumerate(reserve):
        if f.unit == unit and f.owner == owner and f.origin == origin:
            taken[i] = _replace(f, count=f.count - n)
            return tuple(taken)
    return (*reserve, Force(owner, unit, -n, origin)) if n < 0 else reserve


def _strategise_offered(pack: ContentPack, combat: Combat, event: StrategiseOffered) -> Combat:
    asks = tuple((seat, "strategise") for seat in event.seats)
    return _replace(combat, strategise_offered=True, pending=(*combat.pending, *asks))


def _strategise_joined(pack: ContentPack, combat: Combat, event: StrategiseJoined) -> Combat:
    # A second join from the same zone adds to the units already waiting from there.
    reserve = _take_reserve(combat.reserve, event.seat, event.unit, -event.count, event.origin)
    force = Force(event.seat, event.unit, event.count, event.origin)
    return _replace(combat, reserve=reserve, joined=(*combat.joined, force))


def _deployment_ended(pack: ContentPack, combat: Combat, event: DeploymentEnded) -> Combat:
    if combat.revealed:  # an Ambush unit has been placed after the biome card
        return _replace(combat, stage="effects", deploying="")
    seats = combat.seats  # attacker's side, then the defender's (N-TEAM-4)
    following = seats.index(event.seat) + 1
    if following < len(seats):
        return _replace(combat, deploying=seats[following])
    return _replace(combat, stage="opening", deploying="")


def _revealed(pack: ContentPack, combat: Combat, event: BiomeCardRevealed) -> Combat:
    return _replace(combat, biome_card=event.card, revealed=True, stage="redirect")


# The biome effects that bind seats for the whole combat, and those that ask a choice
# of each holder at once (N-COMBAT-8: at combat start unless the card says otherwise).
_FLAGS = {
    "no_retreat": "no_retreat",
    "no_backstab": "no_backstab",
    "no_tactics_at_start": "no_opening_tactics",
}
_START_CHOICES = {
    "discard_tactic": "discard",
    "raise_initiative": "initiative",
    "attack_bonus": "bonus_group",
    "choose_player_discards": "choose_discarder",
    "choose_player_no_retreat": "choose_no_retreat",
}


def _target_fixed(pack: ContentPack, combat: Combat, event: BiomeTargetFixed) -> Combat:
    if combat.biome_card is None and event.redirected_by is None:  # no card: nothing to bind
        return _replace(combat, holders=event.holders, stage="effects")
    changes: dict[str, Any] = {"holders": event.holders, "stage": "effects"}
    if combat.biome_card is not None:
        kind = pack.biome_cards[combat.biome_card].effect.kind
        if kind in _FLAGS:
            field = _FLAGS[kind]
            changes[field] = (*getattr(combat, field), *event.holders)
        if kind in _START_CHOICES:
            changes["pending"] = tuple((seat, _START_CHOICES[kind]) for seat in event.holders)
    if event.redirected_by is not None:
        seat = event.redirected_by
        changes["flare"] = {**combat.flare, seat: combat.flare.get(seat, 0) - event.flare_paid}
    return _replace(combat, **changes)


def _effect_damage(pack: ContentPack, combat: Combat, event: EffectDamage) -> Combat:
    group = _take_damage(combat.groups[event.group], event.amount, event.deaths)
    if event.bloodthirst:
        group = _replace(group, attack_bonus=group.attack_bonus + event.bloodthirst)
    # Losses to effects are not kills: like injuries they never score (N-WIN-3).
    groups = replace_group(combat.groups, group)
    return _replace(
        combat,
        groups=groups,
        initiative=_live_markers(combat.initiative, groups),
        injured=_add(combat.injured, group.owner, event.deaths),
    )


def _bonus_granted(pack: ContentPack, combat: Combat, event: BonusGranted) -> Combat:
    group = combat.groups[event.group]
    group = _replace(
        group,
        attack_bonus=group.attack_bonus + event.attack,
        armor_bonus=group.armor_bonus + event.armor,
    )
    return _replace(combat, groups=replace_group(combat.groups, group))


def _initiative_raised(pack: ContentPack, combat: Combat, event: InitiativeRaised) -> Combat:
    key = f"{event.seat}/{event.unit}"
    if not combat.initiative:  # before the markers are placed: they will include it
        bonus = {**combat.initiative_bonus, key: combat.initiative_bonus.get(key, 0) + event.amount}
        return _replace(combat, initiative_bonus=bonus)
    # A tactic option during the rounds moves the placed marker (cap 10, N-COMBAT-6).
    if key not in combat.initiative:  # the type has left the board (N-COMBAT-17)
        return combat
    markers = {**combat.initiative, key: min(INITIATIVE_CAP, combat.initiative[key] + event.amount)}
    return _with_markers(combat, markers)


def _with_markers(combat: Combat, markers: dict[str, int]) -> Combat:
    """The groups take their type's marker, in initiative order (:func:`_placed`)."""
    groups, order, _ = _placed(combat, markers)
    return _replace(combat, initiative=markers, groups=groups, order=order)


def _placed(
    combat: Combat, markers: dict[str, int]
) -> tuple[tuple[Group, ...], tuple[int, ...], set[str]]:
    """The groups with their type's marker, their order by marker, attacker first on ties
    (N-COMBAT-10), and the types on the board. A defeated type has no marker any more
    (N-COMBAT-17): its spent groups keep the value they had."""
    allies, attacker = combat.allies, combat.attacker
    groups: list[Group] = []
    ranks: list[tuple[int, bool, int]] = []
    live: set[str] = set()
    for g in combat.groups:  # one pass: this runs for every group when the combat opens
        key = f"{g.owner}/{g.unit}"
        value = markers.get(key, g.initiative)
        if value != g.initiative:
            g = _replace(g, initiative=value)
        if g.units:
            live.add(key)
        groups.append(g)
        side = allies.get(g.owner, g.owner) if allies else g.owner  # Combat.side, inlined
        ranks.append((-value, side != attacker, g.id))
    return tuple(groups), tuple([rank[2] for rank in sorted(ranks)]), live


_GRANTABLE = {
    "pierce": "pierce",
    "aim": "aim",
    "reinforce": "reinforce",
    "deception": "deception",
    "splash": "splash",
    "extra_attack": "extra",
}
"""The Group field of each ability a tactic option may give for a round (the pack's
:data:`~nataterra_core.games.nataterra.content.schema.GRANTABLE_ABILITIES`)."""


def _with_levels(group: Group, ability: str, levels: int) -> Group:
    field = _GRANTABLE[ability]
    return _replace(group, **{field: getattr(group, field) + levels})


def _ability_granted(pack: ContentPack, combat: Combat, event: AbilityGranted) -> Combat:
    group = _with_levels(combat.groups[event.group], event.ability, event.levels)
    granted = (*combat.granted, (event.group, event.ability, event.levels))
    return _replace(combat, groups=replace_group(combat.groups, group), granted=granted)


def _withdrawal_declared(pack: ContentPack, combat: Combat, event: WithdrawalDeclared) -> Combat:
    return _replace(combat, withdrawing=(*combat.withdrawing, event.seat))


def _embrace_granted(pack: ContentPack, combat: Combat, event: EmbraceGranted) -> Combat:
    return _replace(combat, extra_embraces=(*combat.extra_embraces, event.seat))


def _move_after_win_granted(
    pack: ContentPack, combat: Combat, event: MoveAfterWinGranted
) -> Combat:
    if combat.movable or combat.moved_after_win:
        return combat  # Ruling: grants do not stack; each unit moves at most one zone
    movable = tuple((f.unit, f.count) for f in own_units(pack, combat, event.seat))
    if not movable:
        return combat
    return _replace(
        combat, movable=movable, pending=(*combat.pending, (event.seat, "move_after_win"))
    )


def _strategise_granted(pack: ContentPack, combat: Combat, event: StrategiseGranted) -> Combat:
    return _replace(combat, strategise_zones=(*combat.strategise_zones, (event.seat, event.zone)))


def _damage_removed(pack: ContentPack, combat: Combat, event: DamageRemoved) -> Combat:
    group = combat.groups[event.group]
    group = _replace(group, damage=group.damage - event.amount)
    return _replace(combat, groups=replace_group(combat.groups, group))


def _ambush_joined(pack: ContentPack, combat: Combat, event: AmbushJoined) -> Combat:
    force = Force(event.seat, event.unit, 1)
    return _replace(
        combat,
        reserve=_take_reserve(combat.reserve, event.seat, event.unit, -1),
        ambush=(*combat.ambush, force),
        stage="deploy",
        deploying=event.seat,
    )


def _player_chosen(pack: ContentPack, combat: Combat, event: PlayerChosen) -> Combat:
    if event.effect == "choose_no_retreat":
        return _replace(combat, no_retreat=(*combat.no_retreat, event.chosen))
    return _replace(combat, pending=((event.chosen, "discard"), *combat.pending))


def _choice_resolved(pack: ContentPack, combat: Combat, event: ChoiceResolved) -> Combat:
    return _replace(combat, pending=combat.pending[1:])


def _window_opened(pack: ContentPack, combat: Combat, event: WindowOpened) -> Combat:
    asks = tuple((seat, f"tactic_{event.window}") for seat in event.seats)
    flags = {
        "setup": {"setup_window": True},
        "before": {"before_window": True},
        "after": {"after_window": True},
    }
    return _replace(combat, pending=(*combat.pending, *asks), **flags.get(event.window, {}))


def _standing_pass(pack: ContentPack, combat: Combat, event: StandingPassGiven) -> Combat:
    """N-COMBAT-9: no later window asks the seat (nor a window already queued)."""
    seat = event.seat
    pending = tuple(p for p in combat.pending if p[0] != seat or not p[1].startswith("tactic_"))
    return _replace(combat, standing_passes=(*combat.standing_passes, seat), pending=pending)


def _hand_without(combat: Combat, seat: str, card: str) -> dict[str, tuple[str, ...]]:
    hand = list(combat.hands.get(seat, ()))
    if card in hand:
        hand.remove(card)
    return {**combat.hands, seat: tuple(hand)}


def _discarded(pack: ContentPack, combat: Combat, event: TacticDiscarded) -> Combat:
    return _replace(combat, hands=_hand_without(combat, event.seat, event.card))


def _drawn(pack: ContentPack, combat: Combat, event: TacticCardDrawn) -> Combat:
    hands = {**combat.hands, event.seat: (*combat.hands.get(event.seat, ()), event.card)}
    return _replace(combat, hands=hands)


def _gained(pack: ContentPack, combat: Combat, event: ResourcesGained) -> Combat:
    if event.seat not in combat.stocks:
        return combat
    stock = combat.stocks[event.seat] + event.resources
    flare = {**combat.flare, event.seat: combat.flare.get(event.seat, 0) + event.flare}
    return _replace(combat, stocks={**combat.stocks, event.seat: stock}, flare=flare)


def _tactic_played(pack: ContentPack, combat: Combat, event: TacticPlayed) -> Combat:
    paid = combat.stocks.get(event.seat, Resources()) - event.cost
    flare = {**combat.flare, event.seat: combat.flare.get(event.seat, 0) - event.flare}
    deferred = combat.deferred
    if event.deferred:
        deferred = (*deferred, (event.seat, event.card, event.option, event.target))
    return _replace(
        combat,
        stocks={**combat.stocks, event.seat: paid},
        flare=flare,
        deferred=deferred,
        hands=_hand_without(combat, event.seat, event.card),
    )


def _deferred_resolved(pack: ContentPack, combat: Combat, event: DeferredResolved) -> Combat:
    return _replace(combat, deferred=combat.deferred[1:])


def _stoneskin(pack: ContentPack, combat: Combat, event: StoneskinHardened) -> Combat:
    groups = tuple(
        _replace(g, armor_bonus=g.armor_bonus + event.amount)
        if g.owner == event.seat and g.units
        else g
        for g in combat.groups
    )
    return _replace(combat, groups=groups)


def _embraced(pack: ContentPack, combat: Combat, event: SpiritsEmbraced) -> Combat:
    group = combat.groups[event.group]
    if event.bonus == "attack":
        group = _replace(group, attack_bonus=group.attack_bonus + event.amount)
    else:
        group = _replace(group, armor_bonus=group.armor_bonus + event.amount)
    flare = {**combat.flare, event.seat: combat.flare.get(event.seat, 0) - event.flare}
    return _replace(combat, groups=replace_group(combat.groups, group), flare=flare)


def _moved_after_win(pack: ContentPack, combat: Combat, event: UnitsMovedAfterWin) -> Combat:
    movable = tuple(
        (unit, count - event.count if unit == event.unit else count)
        for unit, count in combat.movable
    )
    movable = tuple(m for m in movable if m[1] > 0)
    pending = combat.pending if movable else combat.pending[1:]  # this move is done
    return _replace(combat, movable=movable, pending=pending, moved_after_win=True)


def _round_closing(pack: ContentPack, combat: Combat, event: RoundClosing) -> Combat:
    pending: tuple[tuple[str, str], ...] = ()
    card = pack.biome_cards[combat.biome_card] if combat.biome_card else None
    if card is not None and card.effect.kind == "heal_each_round":
        pending = tuple((s, "heal_round") for s in combat.holders if combat.has_groups(s))
    return _replace(combat, stage="round_effects", pending=pending)


def _round_effects_resolved(
    pack: ContentPack, combat: Combat, event: RoundEffectsResolved
) -> Combat:
    return _replace(combat, stage="retreat_defender")


def _aftermath(pack: ContentPack, combat: Combat, event: Aftermath) -> Combat:
    winner = combat.winner
    pending: tuple[tuple[str, str], ...] = ()
    movable: tuple[tuple[str, int], ...] = ()
    card = pack.biome_cards[combat.biome_card] if combat.biome_card else None
    quick_gains = card is not None and card.effect.kind == "move_after_win"
    if winner is not None and winner in combat.holders and quick_gains:
        movable = tuple((f.unit, f.count) for f in own_units(pack, combat, winner))
        pending = ((winner, "move_after_win"),) if movable else ()
    return _replace(combat, stage="aftermath", pending=pending, movable=movable)


def _opened(pack: ContentPack, combat: Combat, event: CombatOpened) -> Combat:
    groups, order, live = _placed(combat, event.initiative)
    combat = _replace(
        combat,
        groups=groups,
        order=order,
        # Markers only of types still on the board (N-COMBAT-17), so that later folds need
        # to look again only when a group leaves the board.
        initiative=_markers_of(event.initiative, live),
        melee_waiting=any(g.support_only for g in groups),
    )
    return _start_round(pack, combat, 1)


def _start_round(pack: ContentPack, combat: Combat, number: int) -> Combat:
    """Round ``number`` begins (N-COMBAT-10): when the combat opens, and after each round
    that nobody retreated from (N-COMBAT-22); it is no event of its own."""
    # N-CIV-3 (provisional): Spirit's Embrace is offered at the start of each round.
    embrace = tuple(
        (seat, "embrace")
        for seat in combat.seats
        if pack.civilisations[seat].ability == "flare"
        and combat.flare.get(seat, 0) >= biome.EMBRACE_COST
    )
    # A card's extra Spirit's Embrace, already paid for, comes at this round's start.
    free = tuple((seat, "embrace_free") for seat in combat.extra_embraces)
    return _next_group(
        _replace(
            combat,
            round=number,
            stage="pick",
            pending=(*embrace, *free),
            extra_embraces=(),
        )
    )


def _activated(pack: ContentPack, combat: Combat, event: GroupActivated) -> Combat:
    return _activate(combat, combat.groups[event.group])


def _activate(combat: Combat, group: Group) -> Combat:
    """``group`` becomes the active group (N-COMBAT-10)."""
    return _replace(combat, active=group.id, attacks_made=0, stage=_first_stage(group))


def _first_stage(group: Group) -> Stage:
    """The stage an activation of ``group`` opens with: a healer heals first (N-COMBAT-11a)."""
    return "heal" if group.heal else "action"


def _next_group(combat: Combat, *, standing: bool = False) -> Combat:
    """``combat``, in the pick stage, with :func:`_lone_candidate` active if there is one."""
    group = _lone_candidate(combat, standing=standing)
    return combat if group is None else _activate(combat, group)


def _lone_candidate(
    combat: Combat, groups: tuple[Group, ...] | None = None, *, standing: bool = False
) -> Group | None:
    """The group to make active next when the rules leave nothing to choose (N-COMBAT-10):
    one group may act, both sides stand, no choice is pending, and nobody who holds a
    tactic card is still asked (so no per-group window can open, N-COMBAT-9). The log then
    records no ``GroupActivated``: it records choices and chance, and what follows from
    them alone is folded. ``groups``: the
    groups a fold is about to give the combat; ``standing``: both sides are known to stand."""
    if combat.pending or not (standing or combat.both_standing()):
        return None
    if combat.hands and combat.asks_windows():
        return None
    candidates = pick_candidates(combat, groups)
    return candidates[0] if len(candidates) == 1 else None


def _healed(pack: ContentPack, combat: Combat, event: Healed) -> Combat:
    target = combat.groups[event.target]
    healed = _replace(target, damage=target.damage - event.amount)
    return _replace(combat, groups=replace_group(combat.groups, healed), stage="action")


def _rolled(pack: ContentPack, combat: Combat, event: AttackRolled) -> Combat:
    waiting = combat.groups[event.group].deception > 0 and not event.reroll
    return _replace(
        combat,
        target=event.target,
        roll_face=event.value,
        stage="deception" if waiting else combat.stage,
    )


def _armor_claimed(pack: ContentPack, combat: Combat, event: ArmorClaimed) -> Combat:
    group = combat.groups[event.group]
    claimed = _replace(group, armor_bonus=group.armor_bonus + event.amount)
    return _replace(combat, groups=replace_group(combat.groups, claimed), pending_gain=0)


def _extra_attack(pack: ContentPack, combat: Combat, event: ExtraAttackBegun) -> Combat:
    return _replace(combat, stage="action")


def _supported(pack: ContentPack, combat: Combat, event: Supported) -> Combat:
    target = combat.groups[event.target]
    if event.bonus == "attack":
        target = _replace(target, attack_bonus=target.attack_bonus + event.amount)
    else:
        target = _replace(target, armor_bonus=target.armor_bonus + event.amount)
    groups = replace_group(combat.groups, target)
    groups = replace_group(groups, _replace(groups[event.group], acted=combat.round))
    return _next_group(_replace(combat, groups=groups, stage="pick", active=-1), standing=True)


def _activation_ended(pack: ContentPack, combat: Combat, event: ActivationEnded) -> Combat:
    groups = replace_group(combat.groups, _replace(combat.groups[event.group], acted=combat.round))
    return _next_group(_replace(combat, groups=groups, stage="pick", active=-1))


# Biome effects that act at the end of each round (Drought's smite, a healing card).
_ROUND_END_EFFECTS = frozenset({"smite_each_round", "heal_each_round"})


def _round_ended(pack: ContentPack, combat: Combat, event: RoundEnded) -> Combat:
    # Without a round-end effect and below the round cap (N-COMBAT-29) nothing happens
    # between the round's end and the retreat decisions (N-COMBAT-22): straight to them.
    card = pack.biome_cards[combat.biome_card] if combat.biome_card else None
    busy = card is not None and card.effect.kind in _ROUND_END_EFFECTS
    stage = "round_end" if busy or combat.round >= ROUND_CAP else "retreat_defender"
    if not combat.granted:
        return _replace(combat, stage=stage)
    groups = combat.groups  # abilities a card gave for the round expire
    for group_id, ability, levels in combat.granted:
        groups = replace_group(groups, _with_levels(groups[group_id], ability, -levels))
    return _replace(combat, stage=stage, groups=groups, granted=())


def _retreat_chosen(pack: ContentPack, combat: Combat, event: RetreatChosen) -> Combat:
    if event.retreat:
        if event.forced:
            return _replace(combat, retreating=event.seat, stage="decided")
        stabbers = combat.seats_of(combat.opponent(event.seat))  # each may backstab once
        return _replace(combat, retreating=event.seat, stage="backstab", stabbers=stabbers)
    if event.seat == combat.defender:
        return _replace(combat, stage="retreat_attacker")
    return _start_round(pack, combat, combat.round + 1)


def _backstab_declared(pack: ContentPack, combat: Combat, event: BackstabDeclared) -> Combat:
    return _replace(combat, backstab=True, active=event.group, attacks_made=0, stage="action")


def _backstab_declined(pack: ContentPack, combat: Combat, event: BackstabDeclined) -> Combat:
    rest = combat.stabbers[1:]
    return _replace(combat, stabbers=rest, stage="backstab" if rest else "decided")


def _backstab_ended(pack: ContentPack, combat: Combat, event: BackstabEnded) -> Combat:
    rest = combat.stabbers[1:]
    return _replace(
        combat,
        stabbers=rest,
        backstab=False,
        active=-1,
        stage="backstab" if rest else "decided",
    )


def _decided(pack: ContentPack, combat: Combat, event: CombatDecided) -> Combat:
    injuries = tuple(
        [g.id for g in combat.groups if g.units > 0 and g.injury and g.damage >= g.injury]
    )
    return _replace(combat, winner=event.winner, decided=True, stage="injuries", injuries=injuries)


def _injury(pack: ContentPack, combat: Combat, event: InjuryResolved) -> Combat:
    group = combat.groups[event.group]
    rest = combat.injuries[1:]
    if event.paid:
        paid = combat.stocks[group.owner] - event.fee
        return _replace(combat, injuries=rest, stocks={**combat.stocks, group.owner: paid})
    hurt = _replace(group, units=group.units - 1, damage=0 if group.units == 1 else group.damage)
    return _replace(
        combat,
        groups=replace_group(combat.groups, hurt),
        injuries=rest,
        injured=_add(combat.injured, group.owner, 1),
    )


def _retreat_move(pack: ContentPack, combat: Combat, event: RetreatMoveStarted) -> Combat:
    groups = tuple(_replace(g, units=0) if g.owner == event.seat else g for g in combat.groups)
    others = tuple(f for f in combat.reserve if f.owner != event.seat)
    return _replace(combat, groups=groups, reserve=(*others, *event.forces), stage="retreat_move")


def _retreated(pack: ContentPack, combat: Combat, event: UnitsRetreated) -> Combat:
    return _replace(
        combat, reserve=_take_reserve(combat.reserve, event.seat, event.unit, event.count)
    )


def _ended_event(pack: ContentPack, combat: Combat, event: CombatEnded) -> Combat:
    return _replace(combat, stage="end")


def fold_attack_resolved(pack: ContentPack, combat: Combat, event: AttackResolved) -> Combat:
    groups = list(combat.groups)
    target = groups[event.target]
    # The target takes its damage (N-COMBAT-16), spends its armor bonus, gains Bloodthirst.
    t_units = target.units - event.target_deaths
    t_damage = target.damage + event.damage - event.target_deaths * target.health
    groups[event.target] = _replace(
        target,
        units=t_units,
        damage=t_damage if t_units else 0,
        armor_bonus=0 if event.armor_bonus_spent else target.armor_bonus,
        attack_bonus=target.attack_bonus + event.bloodthirst,
    )
    group = groups[event.group]
    g_units = group.units - event.attacker_deaths
    g_damage = group.damage + event.retaliation - event.attacker_deaths * group.health
    groups[event.group] = _replace(
        group,
        units=g_units,
        damage=g_damage if g_units else 0,
        # N-COMBAT-14: swords give new tokens once the attack is resolved
        attack_bonus=group.attack_bonus - event.bonus_spent + event.swords
        if g_units
        else group.attack_bonus,
        acted=combat.round if event.ends_activation else group.acted,
    )
    killed = combat.killed
    if event.target_deaths:
        killed = _add(killed, target.owner, event.target_deaths)
    if event.attacker_deaths:
        killed = _add(killed, group.owner, event.attacker_deaths)
    destroyed = combat.destroyed
    if event.target_deaths and not t_units:  # N-WIN-3: wiped out directly
        destroyed = (*destroyed, target.id)
    if event.attacker_deaths and not g_units:
        destroyed = (*destroyed, group.id)
    flare = combat.flare
    if event.flare:  # N-CIV-3: the Naga gain flare per unit they defeat
        flare = {**flare, group.owner: flare.get(group.owner, 0) + event.flare}
    new_groups = tuple(groups)
    markers = combat.initiative
    if not t_units:  # the target left the board: perhaps its type's marker too
        markers = _marker_gone(markers, new_groups, target)
    if not g_units:
        markers = _marker_gone(markers, new_groups, group)
    if combat.melee_waiting:
        new_groups = _fill_melee_slots(pack, new_groups)
    stage: Stage = "after_attack"
    active, attacks_made = combat.active, combat.attacks_made + 1
    if event.ends_activation:
        # An attack ends its group's activation only while both sides stand (flow.py). The
        # next group, if it is known, becomes active in this same replace (a hot path).
        stage, active = "pick", -1
        lone = _lone_candidate(combat, new_groups, standing=True)
        if lone is not None:
            stage, active, attacks_made = _first_stage(lone), lone.id, 0
    return _replace(
        combat,
        initiative=markers,
        groups=new_groups,
        killed=killed,
        destroyed=destroyed,
        flare=flare,
        attacks_made=attacks_made,
        pending_gain=event.armor_claim,
        roll_face=-1,
        stage=stage,
        active=active,
    )


def _fill_melee_slots(pack: ContentPack, groups: tuple[Group, ...]) -> tuple[Group, ...]:
    """N-COMBAT-5: a melee group waiting in a ranged slot moves to a melee slot that freed
    (in deployment order, **Ruling**). Slots are counted per owner from the live groups."""
    for group in [g for g in groups if g.units > 0 and g.support_only]:
        melee_slots = pack.civilisations[group.owner].combat_board.melee
        used = sum(
            1 for g in groups if g.owner == group.owner and g.units > 0 and g.slot == "melee"
        )
        if used < melee_slots:
            groups = replace_group(groups, _replace(group, slot="melee"))
    return groups


# The fold of each combat event type (events of other types leave the combat as it is).
FOLDS: dict[type[Event], Callable[[ContentPack, Combat, Any], Combat]] = {
    GroupDeployed: _deployed,
    StrategiseOffered: _strategise_offered,
    StrategiseJoined: _strategise_joined,
    DeploymentEnded: _deployment_ended,
    BiomeCardRevealed: _revealed,
    BiomeTargetFixed: _target_fixed,
    EffectDamage: _effect_damage,
    BonusGranted: _bonus_granted,
    InitiativeRaised: _initiative_raised,
    AbilityGranted: _ability_granted,
    WithdrawalDeclared: _withdrawal_declared,
    EmbraceGranted: _embrace_granted,
    MoveAfterWinGranted: _move_after_win_granted,
    StrategiseGranted: _strategise_granted,
    DamageRemoved: _damage_removed,
    AmbushJoined: _ambush_joined,
    PlayerChosen: _player_chosen,
    ChoiceResolved: _choice_resolved,
    TacticDiscarded: _discarded,
    TacticCardDrawn: _drawn,
    ResourcesGained: _gained,
    WindowOpened: _window_opened,
    StandingPassGiven: _standing_pass,
    TacticPlayed: _tactic_played,
    DeferredResolved: _deferred_resolved,
    StoneskinHardened: _stoneskin,
    SpiritsEmbraced: _embraced,
    UnitsMovedAfterWin: _moved_after_win,
    RoundClosing: _round_closing,
    RoundEffectsResolved: _round_effects_resolved,
    Aftermath: _aftermath,
    CombatOpened: _opened,
    GroupActivated: _activated,
    Healed: _healed,
    AttackRolled: _rolled,
    AttackResolved: fold_attack_resolved,
    ArmorClaimed: _armor_claimed,
    ExtraAttackBegun: _extra_attack,
    Supported: _supported,
    ActivationEnded: _activation_ended,
    RoundEnded: _round_ended,
    RetreatChosen: _retreat_chosen,
    BackstabDeclared: _backstab_declared,
    BackstabDeclined: _backstab_declined,
    BackstabEnded: _backstab_ended,
    CombatDecided: _decided,
    InjuryResolved: _injury,
    RetreatMoveStarted: _retreat_move,
    UnitsRetreated: _retreated,
    CombatEnded: _ended_event,
}


def evolve_combat(pack: ContentPack, combat: Combat, event: Event) -> Combat:
    """Fold one combat event (no dice, no decisions); other events leave the combat as is."""
    fold = FOLDS.get(type(event))
    return combat if fold is None else fold(pack, combat, event)
