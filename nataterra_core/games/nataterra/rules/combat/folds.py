"""Folding combat events into the combat (``evolve``): each event type has one function.

Folds never draw dice and never decide: they apply the facts an event records. The flow
(:mod:`.flow`) folds the events it produces to look ahead; :func:`evolve_combat` is what the
game and the sandbox call. The folds live next to their events: :mod:`.opening_folds` and
:mod:`.round_folds`, sharing :mod:`.fold_tools`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.kernel import Event

from .fold_tools import own_units
from .model import Combat
from .opening_folds import OPENING_FOLDS
from .round_folds import ROUND_FOLDS, fold_attack_resolved

__all__ = ["FOLDS", "evolve_combat", "fold_attack_resolved", "own_units"]


FOLDS: Final[dict[type[Event], Callable[[ContentPack, Combat, Any], Combat]]] = {
    **OPENING_FOLDS,
    **ROUND_FOLDS,
}
"""Every combat event's fold, by event type (events without one change nothing)."""


def evolve_combat(pack: ContentPack, combat: Combat, event: Event) -> Combat:
    """Fold one combat event (no dice, no decisions); other events leave the combat as is."""
    fold = FOLDS.get(type(event))
    return combat if fold is None else fold(pack, combat, event)
