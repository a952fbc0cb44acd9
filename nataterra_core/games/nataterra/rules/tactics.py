"""Tactic cards in hand and deck (N-DEV-6): drawing, with the reshuffle of an empty deck,
and the resources and flare card options give (N-RES-3: never multiplied).

Playing options is :mod:`.tactic_play` (movement, resource and development phases) and
:mod:`.combat.tactics` (the combat windows); both draw and gain through this module.
"""

from __future__ import annotations

import msgspec

from nataterra_core.kernel import DiceStream, Event

from ..messages.tactics import (
    ResourcesGained,
    TacticCardDrawn,
)
from ..state import GameState
from .setup import shuffle_deck

__all__ = ["draw_tactic_events", "evolve_resources_gained", "evolve_tactic_drawn"]


def draw_tactic_events(
    state: GameState, seat: str, dice: DiceStream, already: int = 0
) -> tuple[Event, ...]:
    """Draw one card for ``seat``; ``already`` cards were drawn earlier in the same command.

    N-DEV-6: an empty deck is reshuffled from its discard pile first (recorded); with
    neither deck nor discard, nothing is drawn.
    """
    player = state.player(seat)
    deck = player.tactic_deck[already:]
    events: list[Event] = []
    if not deck:
        if already or not player.tactic_discard:
            return ()
        shuffled = shuffle_deck(f"tactic:{seat}", player.tactic_discard, dice)
        deck = shuffled.after
        events.append(shuffled)
    events.append(TacticCardDrawn(seat=seat, card=deck[0]))
    return tuple(events)


def evolve_tactic_drawn(state: GameState, event: TacticCardDrawn) -> GameState:
    """The top card goes from the deck to the hand."""
    player = state.player(event.seat)
    return state.with_player(
        msgspec.structs.replace(
            player,
            tactic_deck=player.tactic_deck[1:],
            tactic_hand=(*player.tactic_hand, event.card),
        )
    )


def evolve_resources_gained(state: GameState, event: ResourcesGained) -> GameState:
    """Add the gain to the stock and the flare tracker."""
    player = state.player(event.seat)
    return state.with_player(
        msgspec.structs.replace(
            player, stock=player.stock + event.resources, flare=player.flare + event.flare
        )
    )
