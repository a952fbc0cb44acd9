"""Liar's Dice in words: every command, event and outcome as a sentence, and a seat view as
text.

A sentence never shows a face its reader may not see: a roll is worded by how many dice were
rolled ("red rolls 5 dice"), never by its faces, for every reader; the faces appear only
when a call lifts the cups (:class:`~.messages.CupsRevealed`, public) and, in the view's
text, under the reader's own cup.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Command, Event, Outcome
from nataterra_core.kernel.seen import Cut, cut_of
from nataterra_core.kernel.wording import reason_words

from . import messages as m
from .views import SeatView

__all__ = ["LiarsPresenter", "bid_words", "cup_words"]

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_PLURAL = {1: "ones", 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"}
_SINGULAR = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def bid_words(quantity: int, face: int) -> str:
    """``four fives``; ``a six`` (a bid of one die)."""
    if quantity == 1:
        return f"a {_SINGULAR.get(face, str(face))}"
    return f"{_number(quantity)} {_PLURAL.get(face, str(face))}"


def cup_words(faces: tuple[int, ...]) -> str:
    """``1 3 3 6``, or ``no dice``."""
    return " ".join(str(face) for face in faces) or "no dice"


def _dice(n: int) -> str:
    return f"{n} {'die' if n == 1 else 'dice'}"


def describe_command(command: Command, seat: str | None = None) -> str:
    """What ``seat`` does, as a sentence (``red bids four fives``); without a seat, the
    imperative a list of choices reads (``bid four fives``)."""
    if isinstance(command, m.StartGame):
        return "the game starts: the first opener is drawn and every cup is rolled"
    if isinstance(command, m.Bid):
        verb, rest = "bid", bid_words(command.quantity, command.face)
    elif isinstance(command, m.CallLiar):
        verb, rest = "call", '"liar!" on the last bid'
    elif isinstance(command, m.CallSpotOn):
        verb, rest = "call", '"spot on!": the last bid is exact'
    else:
        raise TypeError(f"not a Liar's Dice command: {type(command).__name__}")
    return f"{seat} {verb}s {rest}" if seat is not None else f"{verb} {rest}"


def describe_cut(event: Cut[Event]) -> str:
    """An event as a reader sees it without its hidden fields (another seat's roll)."""
    if cut_of(event, m.CupRolled):
        return f"{event.seat} rolls {_dice(len(event.ms))} under the cup"
    raise TypeError(f"no words for a cut {event.tag}")


def describe_event(event: Event) -> str:
    """One event as a sentence (never a hidden face)."""
    if isinstance(event, m.OpenerDrawn):
        return f"{event.seat} is drawn to open the first round"
    if isinstance(event, m.RoundStarted):
        return f"round {event.round} begins: {event.opener} opens the bidding"
    if isinstance(event, m.CupRolled):
        return f"{event.seat} rolls {_dice(len(event.ms))} under the cup"
    if isinstance(event, m.BidMade):
        return f"{event.seat} bids {bid_words(event.quantity, event.face)}"
    if isinstance(event, m.CupsRevealed):
        call = '"liar!"' if event.call == "liar" else '"spot on!"'
        cups = "; ".join(f"{seat} {cup_words(cup)}" for seat, cup in event.cups.items())
        return (
            f"{event.caller} calls {call} on {event.bidder}'s bid of "
            f"{bid_words(event.quantity, event.face)}; the cups show {cups or 'nothing'}: "
            f"{_number(event.count)} counted"
        )
    if isinstance(event, m.DieLost):
        if event.left == 0:
            return f"{event.seat} loses the last die and is out"
        return f"{event.seat} loses a die ({_dice(event.left)} left)"
    if isinstance(event, m.GameWon):
        return f"{event.seat} wins: the last player with dice"
    raise TypeError(f"not a Liar's Dice event: {type(event).__name__}")


def describe_outcome(outcome: Outcome) -> str:
    """The result in words."""
    if outcome.winners:
        return f"won by {', '.join(outcome.winners)} ({reason_words(outcome.reason)})"
    return f"no winner ({reason_words(outcome.reason)})"


def view_text(view: Any) -> str:
    """A seat view as text: the cups (faces only under the reader's own), the round's bids,
    the last call."""
    if not isinstance(view, SeatView):
        raise TypeError(f"not a Liar's Dice view: {type(view).__name__}")
    rules = "ones wild" if view.wild_ones else "ones not wild"
    if view.spot_on:
        rules += ", spot on allowed"
    lines = [f"Liar's Dice, round {view.round} ({rules}); {view.in_play()} dice in play"]
    for cup in view.cups:
        shown = cup_words(cup.faces) if cup.faces is not None else "?" * cup.count
        mark = " (you)" if cup.seat == view.seat else ""
        turn = "  <- to act" if cup.seat == view.active else ""
        lines.append(f"  {cup.seat}{mark}: {_dice(cup.count)} [{shown or '-'}]{turn}")
    if view.bids:
        said = ", ".join(f"{b.seat} {bid_words(b.quantity, b.face)}" for b in view.bids)
        lines.append(f"bids: {said}")
    else:
        lines.append("bids: none yet this round")
    last = view.last
    if last is not None:
        losers = ", ".join(last.losers) or "nobody"
        lines.append(
            f"last call: {last.caller} on {last.bid.seat}'s "
            f"{bid_words(last.bid.quantity, last.bid.face)}, {_number(last.count)} counted; "
            f"a die lost by {losers}"
        )
    if view.winner is not None:
        lines.append(f"{view.winner} has won")
    return "\n".join(lines)


class LiarsPresenter:
    """The registry's presenter for Liar's Dice."""

    def command(
        self, command: Command | Cut[Command], seat: str | None = None, view: Any = None
    ) -> str:
        """One sentence for ``command`` sent by ``seat`` (every command is public)."""
        if isinstance(command, Cut):
            raise TypeError(f"no words for a cut {command.tag}: every command is public")
        return describe_command(command, seat)

    def offer(self, command: Command, seat: str, view: Any = None) -> str:
        """``command`` in ``seat``'s menu: the imperative (``bid four fives``)."""
        return describe_command(command)

    def event(self, event: Event | Cut[Event], view: Any = None) -> str:
        """One sentence for ``event`` as its reader sees it (another seat's roll is cut)."""
        if isinstance(event, Cut):
            return describe_cut(event)
        return describe_event(event)

    def outcome(self, outcome: Outcome) -> str:
        """The result in words."""
        return describe_outcome(outcome)

    def view(self, view: Any) -> str:
        """A seat's view as text."""
        return view_text(view)
