"""Combat events before and around the rounds (rules §6): the combat set-up and deployment,
biome cards, tactic windows and the effects options and cards have. Re-exported by
:mod:`.combat`, where the event list is."""

from __future__ import annotations

from typing import Literal

import msgspec

from nataterra_core.kernel import Event
from nataterra_core.kernel.visibility import PUBLIC

from ..rules.combat.model import Force, SlotKind
from ..rules.stock import Resources

__all__ = [
    "AbilityGranted",
    "AmbushJoined",
    "BiomeCardRevealed",
    "BiomeFlag",
    "BiomeTargetFixed",
    "BonusGranted",
    "ChoiceResolved",
    "CombatStarted",
    "DamageRemoved",
    "DeferredResolved",
    "DeploymentEnded",
    "EffectDamage",
    "EmbraceGranted",
    "GroupDeployed",
    "InitiativeRaised",
    "MoveAfterWinGranted",
    "PlayerChosen",
    "SpiritsEmbraced",
    "StandingPassGiven",
    "StoneskinHardened",
    "StrategiseGranted",
    "StrategiseJoined",
    "StrategiseOffered",
    "TacticDiscarded",
    "TacticPlayed",
    "UnitsMovedAfterWin",
    "WindowOpened",
    "WithdrawalDeclared",
]


class CombatStarted(Event, frozen=True, tag="combat_started.v1"):
    """A combat begins in ``zone``: the forces of both sides and what they bring;
    ``allies`` maps each further player of a side to its lead (team games, N-TEAM-4)."""

    visibility = PUBLIC

    zone: str
    biome: str
    attacker: str
    defender: str
    forces: tuple[Force, ...]
    sides: dict[str, dict[str, Literal["a", "b"]]]
    stocks: dict[str, Resources]
    flare: dict[str, int] = msgspec.field(default_factory=dict)
    allies: dict[str, str] = msgspec.field(default_factory=dict)


class GroupDeployed(Event, frozen=True, tag="group_deployed.v1"):
    """A group of ``units`` ``unit`` tokens took a ``slot`` of that kind; its id is ``group``."""

    visibility = PUBLIC

    seat: str
    group: int
    unit: str
    units: int
    slot: SlotKind
    origin: str = ""


class StrategiseOffered(Event, frozen=True, tag="strategise_offered.v1"):
    """N-ABL-7: ``seats`` have units next door that may join by Strategise, in this order."""

    visibility = PUBLIC

    seats: tuple[str, ...]


class StrategiseJoined(Event, frozen=True, tag="strategise_joined.v1"):
    """N-ABL-7: ``count`` of ``seat``'s ``unit`` in ``origin`` joined the combat."""

    visibility = PUBLIC

    seat: str
    unit: str
    origin: str
    count: int


class DeploymentEnded(Event, frozen=True, tag="deployment_ended.v2"):
    """``seat`` has placed every group it can; ``following`` deploys next (N-COMBAT-4, the
    attacker's side first, N-TEAM-4), or, when it is ``""``, deployment is over and the
    combat moves to ``then``: ``opening`` (the biome card turns up) or ``effects`` (an
    Ambush unit was deployed after the card, N-COMBAT-8). v2: v1 left both to the fold."""

    visibility = PUBLIC

    seat: str
    following: str = ""
    then: Literal["opening", "effects"] = "opening"


class BiomeCardRevealed(Event, frozen=True, tag="biome_card_revealed.v1"):
    """N-COMBAT-7: the combat's biome card (``None``: mountain, lake or an empty deck)."""

    visibility = PUBLIC

    card: str | None


BiomeFlag = Literal["", "no_retreat", "no_backstab", "no_opening_tactics"]
"""A biome card's flag that binds its holders for the whole combat (the :class:`~.model.Combat`
field listing the seats it binds), or ``""`` for none."""


class BiomeTargetFixed(Event, frozen=True, tag="biome_target_fixed.v2"):
    """N-COMBAT-8: who holds the card's main effect; ``redirected_by`` the Naga paying flare.
    ``binds``: the flag that binds the holders for the whole combat (no retreat, no
    backstab against them, no before-combat tactics); ``asks``: the choice each holder is
    asked at once, in this order (``discard``, ``initiative``, ``bonus_group``,
    ``choose_discarder``, ``choose_no_retreat``; N-COMBAT-8: at combat start unless the card
    says otherwise). v2: v1 left the card's effect to be looked up by the fold."""

    visibility = PUBLIC

    holders: tuple[str, ...]
    redirected_by: str | None = None
    flare_paid: int = 0
    binds: BiomeFlag = ""
    asks: str = ""


class EffectDamage(Event, frozen=True, tag="effect_damage.v1"):
    """Damage from an effect, not an attack (``smite`` ignores armor, N-COMBAT-21)."""

    visibility = PUBLIC

    group: int
    amount: int
    smite: bool
    deaths: int
    bloodthirst: int = 0


class BonusGranted(Event, frozen=True, tag="bonus_granted.v1"):
    """An effect gave ``group`` attack and/or armor bonus tokens."""

    visibility = PUBLIC

    group: int
    attack: int = 0
    armor: int = 0


class InitiativeRaised(Event, frozen=True, tag="initiative_raised.v2"):
    """``seat``'s ``unit`` initiative marker goes up by ``amount``, the effective amount:
    once the markers are placed, the step has applied N-COMBAT-6's cap of 10 (0 when the
    marker is there already); before, the raise is whole and the cap applies with the
    other bonuses when the markers are placed (``CombatOpened``). v2: v1's ``amount`` was
    the card's, capped by the fold."""

    visibility = PUBLIC

    seat: str
    unit: str
    amount: int


class AbilityGranted(Event, frozen=True, tag="ability_granted.v1"):
    """A tactic option gave ``group`` ``levels`` of ``ability`` until the end of the round."""

    visibility = PUBLIC

    group: int
    ability: str
    levels: int = 1


class WithdrawalDeclared(Event, frozen=True, tag="withdrawal_declared.v1"):
    """A tactic option: ``seat`` retreats at the end of this round, unasked and without
    backstab."""

    visibility = PUBLIC

    seat: str


class EmbraceGranted(Event, frozen=True, tag="embrace_granted.v1"):
    """A tactic option: ``seat`` may use Spirit's Embrace once more, free, at the start of
    the next round (N-CIV-3)."""

    visibility = PUBLIC

    seat: str


class MoveAfterWinGranted(Event, frozen=True, tag="move_after_win_granted.v2"):
    """An after-combat option: the winner ``seat`` may move each of its units in the zone
    up to one zone: ``movable``, (unit, count) pairs, is what it may move (never Ambush
    units, units joined by Strategise nor structures). Only a grant that gives something
    is an event: grants do not stack (Ruling), so none follows another grant or a move
    after the win. v2: v1 left the units and the ruling to the fold."""

    visibility = PUBLIC

    seat: str
    movable: tuple[tuple[str, int], ...]


class StrategiseGranted(Event, frozen=True, tag="strategise_granted.v1"):
    """A set-up option: ``seat``'s units in ``zone`` (next to the combat) gain Strategise
    this turn and may join the combat (N-ABL-7)."""

    visibility = PUBLIC

    seat: str
    zone: str


class DamageRemoved(Event, frozen=True, tag="damage_removed.v1"):
    """An effect removed ``amount`` damage markers from ``group``."""

    visibility = PUBLIC

    group: int
    amount: int


class AmbushJoined(Event, frozen=True, tag="ambush_joined.v1"):
    """Ambush: one ``unit`` token of ``seat`` joins this combat until it ends."""

    visibility = PUBLIC

    seat: str
    unit: str


class PlayerChosen(Event, frozen=True, tag="player_chosen.v2"):
    """``seat`` chose ``chosen`` for the effect ``effect``: what it means for ``chosen``
    is ``binds``, the flag that binds it for the rest of the combat (``no_retreat``), or
    ``asks``, the choice it is asked at once, before anything else (``discard``). v2: v1
    left the effect's meaning to the fold."""

    visibility = PUBLIC

    seat: str
    chosen: str
    effect: str
    binds: BiomeFlag = ""
    asks: str = ""


class ChoiceResolved(Event, frozen=True, tag="choice_resolved.v1"):
    """The first pending ``choice`` (``seat``'s) is answered; ``declined`` when the seat
    passed or had nothing to choose. Its effects follow as events of their own."""

    visibility = PUBLIC

    seat: str
    choice: str
    declined: bool = False


class WindowOpened(Event, frozen=True, tag="window_opened.v1"):
    """A tactic window (``setup``, ``before``, ``group`` or ``after``) asks ``seats`` in this
    order, each once (N-COMBAT-9/11/27): every seat holding a tactic card that has not given
    a standing pass, whether or not a card fits (hand sizes are public, contents are not)."""

    visibility = PUBLIC

    window: str
    seats: tuple[str, ...]


class StandingPassGiven(Event, frozen=True, tag="standing_pass_given.v1"):
    """``seat`` passes in every later tactic window of this combat (N-COMBAT-9): no window
    asks it again until the combat ends (windows never overlap: none is queued then)."""

    visibility = PUBLIC

    seat: str


class TacticPlayed(Event, frozen=True, tag="tactic_played.v1"):
    """``seat`` played option ``option`` of ``card`` (discarded, cost paid) at ``target``;
    ``deferred`` after-combat options resolve when the combat ends (N-TAC-1a)."""

    visibility = PUBLIC

    seat: str
    card: str
    option: int
    target: int | None = None
    cost: Resources = Resources()
    flare: int = 0
    deferred: bool = False


class DeferredResolved(Event, frozen=True, tag="deferred_resolved.v1"):
    """An after-combat option played during the combat resolves now (or lapses)."""

    visibility = PUBLIC

    seat: str
    card: str
    option: int
    lapsed: bool = False


class StoneskinHardened(Event, frozen=True, tag="stoneskin_hardened.v1"):
    """N-CIV-2: ``seat`` played a tactic option; each of its groups gains ``amount`` armor."""

    visibility = PUBLIC

    seat: str
    amount: int


class TacticDiscarded(Event, frozen=True, tag="tactic_discarded.v1"):
    """``seat`` discarded the tactic card ``card`` (face up)."""

    visibility = PUBLIC

    seat: str
    card: str


class SpiritsEmbraced(Event, frozen=True, tag="spirits_embraced.v1"):
    """N-CIV-3: ``seat`` paid ``flare`` for ``amount`` ``bonus`` on ``group``."""

    visibility = PUBLIC

    seat: str
    group: int
    bonus: Literal["attack", "armor"]
    amount: int
    flare: int


class UnitsMovedAfterWin(Event, frozen=True, tag="units_moved_after_win.v1"):
    """Quick Gains moved ``count`` ``unit`` to ``destination`` (a ``ChoiceResolved``
    follows the move of the last unit that may move)."""

    visibility = PUBLIC

    seat: str
    unit: str
    count: int
    destination: str
