"""High Roll: the smallest game that exercises the kernel, for ``nataterra demo``.

Until the Nataterra rules land, the demo shows the kernel on this toy: each turn the
active seat rolls a d10 and adds the face; after ``turns`` turns the highest total wins.
It lives with the front ends, not in ``nataterra_core``, because it is only a showcase.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from nataterra_core.kernel import (
    Command,
    DiceStream,
    Event,
    IllegalCommand,
    Outcome,
    RulesRef,
    Setup,
)


class Begin(Command, frozen=True, tag="begin.v1"):
    """The system start command: choose the first seat."""


class RollDie(Command, frozen=True, tag="roll_die.v1"):
    """The active seat rolls its d10."""


class SeatDrawn(Event, frozen=True, tag="seat_drawn.v1"):
    """The first seat, drawn with ``draw(len(seats))``."""

    m: int
    counter_before: int
    counter_after: int
    value: int


class DieRolled(Event, frozen=True, tag="d10_rolled.v1"):
    """A d10 roll: ``face = value + 1``."""

    seat: str
    m: int
    counter_before: int
    counter_after: int
    value: int
    face: int


class HighRollState(msgspec.Struct, frozen=True, kw_only=True):
    """Totals per seat, whose turn it is, and the dice counter."""

    seats: tuple[str, ...]
    turns: int
    turn: int = 0
    active: int = -1
    totals: tuple[int, ...] = ()
    counter: int = 0


class HighRoll:
    """The High Roll decider."""

    rules = RulesRef(id="highroll", version=1)
    content = None
    command_types: Sequence[type[Command]] = (Begin, RollDie)
    event_types: Sequence[type[Event]] = (SeatDrawn, DieRolled)

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """Only ``turns`` (a positive int) is accepted."""
        if set(options) - {"turns"} or int(options.get("turns", 1)) < 1:
            raise ValueError(f"High Roll accepts only a positive 'turns', got {dict(options)}")

    def initial_state(self, setup: Setup) -> HighRollState:
        """Zero totals; no seat active until the start command draws one."""
        return HighRollState(
            seats=setup.seats,
            turns=int(setup.options.get("turns", 10)),
            totals=(0,) * len(setup.seats),
        )

    def start_command(self, setup: Setup) -> Command:
        """Record 1's command."""
        return Begin()

    def decide(
        self, state: HighRollState, command: Command, dice: DiceStream, *, seat: str | None
    ) -> tuple[Event, ...]:
        """Draw the first seat, or roll for the active seat."""
        before = dice.counter
        if isinstance(command, Begin) and state.active < 0:
            value = dice.draw(len(state.seats))
            return (
                SeatDrawn(
                    m=len(state.seats),
                    counter_before=before,
                    counter_after=dice.counter,
                    value=value,
                ),
            )
        if isinstance(command, RollDie) and seat is not None:
            value = dice.draw(10)
            return (
                DieRolled(
                    seat=seat,
                    m=10,
                    counter_before=before,
                    counter_after=dice.counter,
                    value=value,
                    face=value + 1,
                ),
            )
        raise IllegalCommand("HIGHROLL-1", f"{command!r} is not allowed now")

    def evolve(self, state: HighRollState, event: Event) -> HighRollState:
        """Fold one event."""
        if isinstance(event, SeatDrawn):
            return msgspec.structs.replace(
                state, active=event.value, turn=1, counter=event.counter_after
            )
        if isinstance(event, DieRolled):
            i = state.active
            totals = (*state.totals[:i], state.totals[i] + event.face, *state.totals[i + 1 :])
            return msgspec.structs.replace(
                state,
                totals=totals,
                active=(i + 1) % len(state.seats),
                turn=state.turn + 1,
                counter=event.counter_after,
            )
        raise TypeError(f"not a High Roll event: {event!r}")

    def acting_seats(self, state: HighRollState) -> Sequence[str]:
        """The active seat, while turns remain."""
        if state.active < 0 or self.outcome(state) is not None:
            return ()
        return (state.seats[state.active],)

    def legal_commands(self, state: HighRollState, seat: str) -> Sequence[Command]:
        """Rolling is the only choice."""
        return (RollDie(),) if seat in self.acting_seats(state) else ()

    def dice_counter(self, state: HighRollState) -> int:
        """Words consumed so far."""
        return state.counter

    def turn_number(self, state: HighRollState) -> int:
        """Every roll is a turn."""
        return state.turn

    def outcome(self, state: HighRollState) -> Outcome | None:
        """Highest total wins once every turn is played; equal totals draw."""
        if state.turn <= state.turns:
            return None
        scores = dict(zip(state.seats, state.totals, strict=True))
        best = max(state.totals)
        winners = tuple(s for s, t in scores.items() if t == best)
        if len(winners) > 1:
            return Outcome(draw=True, scores=scores, reason="equal_totals")
        return Outcome(winners=winners, scores=scores, reason="highest_total")
