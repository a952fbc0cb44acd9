"""The game's frame: the first opener (L-SET-3), rolling the cups (L-ROUND-1), whose turn it
is (L-ROUND-2), who opens the next round (L-ROUND-3, L-ROUND-4) and the end (L-END-1..2)."""

from __future__ import annotations

from nataterra_core.kernel import DiceStream
from nataterra_core.kernel.chance import record_draw, record_draws

from ..messages import CupRolled, OpenerDrawn, RoundStarted
from ..state import LiarsState

__all__ = ["draw_opener", "next_in_game", "next_opener", "roll_cups", "round_started"]


def draw_opener(state: LiarsState, dice: DiceStream) -> OpenerDrawn:
    """L-SET-3: the first opener is drawn among the seats with the game's dice."""
    drawn = record_draw(dice, len(state.seats))
    return OpenerDrawn(seat=state.seats[drawn["value"]], **drawn)


def round_started(state: LiarsState, opener: str) -> RoundStarted:
    """The next round, opened by ``opener``."""
    return RoundStarted(round=state.round + 1, opener=opener)


def roll_cups(state: LiarsState, dice: DiceStream) -> list[CupRolled]:
    """L-ROUND-1: every player with dice rolls them all, in table order."""
    rolled = []
    for seat, cup in zip(state.seats, state.cups, strict=True):
        if cup:
            drawn = record_draws(dice, (6,) * len(cup))
            faces = tuple(value + 1 for value in drawn["values"])
            rolled.append(CupRolled(seat=seat, faces=faces, **drawn))
    return rolled


def next_in_game(state: LiarsState, index: int) -> int:
    """The table position after ``index`` (in a circle) of the next seat with dice
    (L-ROUND-2); ``index`` itself if nobody else has any."""
    n = len(state.seats)
    for step in range(1, n + 1):
        candidate = (index + step) % n
        if state.cups[candidate]:
            return candidate
    return index


def next_opener(after: LiarsState, caller: str, losers: tuple[str, ...]) -> str:
    """Who opens the next round, in the state after the dice were lost: the one loser
    (L-ROUND-3), the caller after an exact spot on made several losers (L-ROUND-3), and,
    when that player has just lost the last die, the next player after them with dice
    (L-ROUND-4)."""
    opener = losers[0] if len(losers) == 1 else caller
    at = after.index(opener)
    return opener if after.cups[at] else after.seats[next_in_game(after, at)]
