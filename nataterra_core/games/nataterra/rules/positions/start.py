"""Record 1 of a game started from a position: the start command and what it does.

The header's ``position`` option holds the position (canonical JSON); the start command
carries the SHA-256 of its public part (what a spectator sees of it), so the start record
names the position the game began from without a hash over its hidden hands and deck
orders, which a seat could test guesses against. Verification re-executes from the
header's whole position and re-encodes every record, so a changed hidden card still fails.
"""

from __future__ import annotations

from nataterra_core.kernel import DiceStream, Event

from ...messages.setup import (
    StartFromPosition,
)
from ...messages.turns import TurnStarted
from ...state import GameState
from ..context import Context
from ..setup import decide_start, shuffle_deck

__all__ = ["decide_start_position"]


def decide_start_position(
    ctx: Context, state: GameState, command: StartFromPosition, dice: DiceStream
) -> tuple[Event, ...]:
    """A set-up position whose first player is left open starts like a standard game
    (N-SETUP-2/3/8: first player drawn, every deck shuffled, the second player's food, in
    advanced mode the conditions and opening tactic cards). Otherwise: shuffle the decks the
    position names (docs/DICE.md) and begin turn 1 of a position at set-up (unless opening
    discards are awaited, N-SETUP-8); a position in the middle of a turn goes on as it is."""
    if state.phase == "setup" and state.first < 0:
        return decide_start(ctx, state, dice)
    events: list[Event] = []
    first = state.first
    for deck in command.shuffle:
        kind, _, name = deck.partition(":")
        cards = (
            state.biome_decks.get(name, ()) if kind == "biome" else state.player(name).tactic_deck
        )
        events.append(shuffle_deck(deck, cards, dice))
    if state.phase == "setup" and not state.discarding:
        events.append(TurnStarted(seat=state.seats[first], turn=1))
    return tuple(events)
