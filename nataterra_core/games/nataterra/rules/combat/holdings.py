"""Hands, stocks and flare during a combat: which events change them, and how a host with
no game around it (the sandbox; a test's host) keeps them.

A combat holds none of them: its host does (the game's players, the sandbox's state), and
combat asks it (:class:`~.host.Host`). Within one step the flow folds the events it makes
to find the next decision; an event of :func:`changes_holdings` moves the host on too
(``Host.folded``), so the questions after it read what it left. The game's host folds its
state with the game's own fold (:mod:`..combat_map`); the sandbox folds its stocks and flare
with :func:`fold_stocks`, in ``decide`` and ``evolve`` alike.
"""

from __future__ import annotations

from typing import Any, Final

from nataterra_core.kernel import Event

from ...messages.combat import (
    AttackResolved,
    BiomeTargetFixed,
    InjuryResolved,
    SpiritsEmbraced,
    TacticDiscarded,
    TacticPlayed,
)
from ...messages.tactics import ResourcesGained, TacticCardDrawn
from ..stock import Resources
from .model import Combat

__all__ = ["HOLDINGS", "changes_holdings", "fold_hands", "fold_stocks"]

HOLDINGS: Final[frozenset[type[Event]]] = frozenset(
    {
        TacticCardDrawn,
        TacticDiscarded,
        TacticPlayed,
        ResourcesGained,
        InjuryResolved,
        SpiritsEmbraced,
        BiomeTargetFixed,
        AttackResolved,
    }
)
"""The event types that may change a hand, a stock or flare (an attack only when its
``flare`` says the Naga gained some, N-CIV-3)."""

_ATTACK: Final = AttackResolved


def changes_holdings(event: Event) -> bool:
    """Whether ``event`` may change a hand, a stock or flare (the flow inlines this)."""
    kind = type(event)
    return kind in HOLDINGS and (kind is not _ATTACK or bool(event.flare))  # type: ignore[attr-defined]


def fold_stocks(
    stocks: dict[str, Resources], flare: dict[str, int], combat: Combat, event: Event
) -> tuple[dict[str, Resources], dict[str, int]]:
    """The stocks and flare of the combat's seats after ``event`` (``combat`` is the combat
    before it): fees and costs paid (N-COMBAT-26, N-TAC-1), gains (N-RES-3), flare gained
    and spent (N-CIV-3, N-COMBAT-8). The same dicts when nothing changes."""
    kind = type(event)
    e: Any = event
    if kind is _ATTACK:
        if e.flare:
            owner = combat.groups[e.group].owner
            flare = {**flare, owner: flare.get(owner, 0) + e.flare}
    elif kind is InjuryResolved:
        if e.paid:
            owner = combat.groups[e.group].owner
            stocks = {**stocks, owner: stocks[owner] - e.fee}
    elif kind is TacticPlayed:
        seat = e.seat
        stocks = {**stocks, seat: stocks.get(seat, Resources()) - e.cost}
        flare = {**flare, seat: flare.get(seat, 0) - e.flare}
    elif kind is ResourcesGained:
        seat = e.seat
        if seat in stocks:  # a seat of the combat
            stocks = {**stocks, seat: stocks[seat] + e.resources}
            flare = {**flare, seat: flare.get(seat, 0) + e.flare}
    elif kind is SpiritsEmbraced:
        flare = {**flare, e.seat: flare.get(e.seat, 0) - e.flare}
    elif kind is BiomeTargetFixed:
        seat = e.redirected_by
        if seat is not None:
            flare = {**flare, seat: flare.get(seat, 0) - e.flare_paid}
    return stocks, flare


def fold_hands(hands: dict[str, tuple[str, ...]], event: Event) -> dict[str, tuple[str, ...]]:
    """The tactic hands after ``event``: a card drawn joins its hand; one played or
    discarded leaves it (N-TAC-1). The same dict when nothing changes."""
    kind = type(event)
    e: Any = event
    if kind is TacticCardDrawn:
        return {**hands, e.seat: (*hands.get(e.seat, ()), e.card)}
    if kind is TacticPlayed or kind is TacticDiscarded:
        hand = list(hands.get(e.seat, ()))
        if e.card in hand:
            hand.remove(e.card)
        return {**hands, e.seat: tuple(hand)}
    return hands
