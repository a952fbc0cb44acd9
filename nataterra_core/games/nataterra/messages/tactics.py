"""The events of tactic cards outside a combat (N-TAC-1..6): cards drawn, resources gained and
an option played with its effects (movement, replaced units, discounts, unlocked
structures). Playing a card is the :class:`~.combat.PlayTactic` command, in and out of
combat. Their rules are in ``rules/tactics.py`` and ``rules/tactic_play.py``."""

from __future__ import annotations

from nataterra_core.kernel import Event
from nataterra_core.kernel.visibility import PUBLIC, hide_from_others

from ..rules.stock import Resources


class TacticCardDrawn(Event, frozen=True, tag="tactic_card_drawn.v1"):
    """``seat`` drew the top card of its tactic deck (only ``seat`` may see which)."""

    visibility = hide_from_others("card")
    reveals_information = True

    seat: str
    card: str


class ResourcesGained(Event, frozen=True, tag="resources_gained.v1"):
    """``seat`` gained ``resources`` and ``flare`` from a tactic option (not multiplied,
    N-RES-3)."""

    visibility = PUBLIC

    seat: str
    resources: Resources = Resources()
    flare: int = 0


class TacticOptionPlayed(Event, frozen=True, tag="tactic_option_played.v1"):
    """``seat`` played option ``option`` of ``card`` in ``phase``: the card and ``discarded``
    go to the discard pile; ``cost`` and ``flare`` are paid (N-TAC-1)."""

    visibility = PUBLIC

    seat: str
    card: str
    option: int
    phase: str
    cost: Resources = Resources()
    flare: int = 0
    discarded: str | None = None


class MovementGranted(Event, frozen=True, tag="movement_granted.v1"):
    """N-MOV-6: ``seat``'s units in ``zone`` that have not moved get ``movement`` extra points
    and ``stealth`` extra Stealth this turn."""

    visibility = PUBLIC

    seat: str
    zone: str
    movement: int = 0
    stealth: int = 0


class UnitReplaced(Event, frozen=True, tag="unit_replaced.v1"):
    """One of ``seat``'s ``removed`` in ``zone`` went back to its pool; a ``recruited`` from
    the pool took its place."""

    visibility = PUBLIC

    seat: str
    zone: str
    removed: str
    recruited: str


class DiscountGranted(Event, frozen=True, tag="discount_granted.v1"):
    """``seat``'s next ``kind`` ("structure" or "tech") costs ``amount`` less."""

    visibility = PUBLIC

    seat: str
    kind: str
    amount: Resources


class StructureUnlocked(Event, frozen=True, tag="structure_unlocked.v1"):
    """``seat`` may build ``structure`` from now on (N-FAQ-16: this very phase)."""

    visibility = PUBLIC

    seat: str
    structure: str


EVENTS: tuple[type[Event], ...] = (
    TacticCardDrawn,
    ResourcesGained,
    TacticOptionPlayed,
    MovementGranted,
    UnitReplaced,
    DiscountGranted,
    StructureUnlocked,
)
