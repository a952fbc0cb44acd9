"""The Liar's Dice decider: set-up (L-SET-1..3), the dispatch of every command into
:mod:`.rules` and the protocol's questions (who acts, the dice counter, the result).

Every command ends a turn (a bid passes the turn, a call ends the round), so nothing is
undone at the table: a bid once said is heard by everyone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import msgspec

from nataterra_core.kernel import (
    Command,
    Decided,
    DeciderDefaults,
    Decision,
    DiceStream,
    Event,
    IllegalCommand,
    MalformedCommand,
    Outcome,
    RulesRef,
    Setup,
)

from . import messages as m
from .rules import bidding, calls, rounds
from .rules.fold import FOLDS, fold
from .state import LiarsState

__all__ = ["MAX_DICE", "RULES", "LiarsDice", "LiarsOptions"]

RULES = RulesRef(id="liars-dice", version=1)

MAX_DICE = 5
"""L-SET-2: the most dice a player starts with (and the default)."""


class LiarsOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Liar's Dice's header options: ``dice`` each player starts with (1 to 5, L-SET-2),
    ``wild_ones`` (L-BID-3), ``spot_on`` (L-SPOT-1). The kernel's ``tournament`` is every
    system's (nothing is undone in this game anyway)."""

    dice: Annotated[int, msgspec.Meta(examples=[1])] = MAX_DICE
    wild_ones: bool = True
    spot_on: bool = False


class LiarsDice(DeciderDefaults):
    """Liar's Dice on the kernel: ``new_game(seats, game="liars-dice", ...)``."""

    rules = RULES
    content = None
    turn_rule = "L-TURN-1"
    command_types: Sequence[type[Command]] = m.COMMANDS
    event_types: Sequence[type[Event]] = m.EVENTS
    folds = FOLDS

    # -- set-up ---------------------------------------------------------------------------

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """``ValueError`` for options Liar's Dice does not accept."""
        try:
            parsed = msgspec.convert(dict(options), LiarsOptions)
        except msgspec.ValidationError as exc:
            raise ValueError(f"bad Liar's Dice options: {exc}") from exc
        if not 1 <= parsed.dice <= MAX_DICE:
            raise ValueError(f"L-SET-2: each player starts with 1 to {MAX_DICE} dice")

    def initial_state(self, setup: Setup) -> LiarsState:
        """L-SET-1, L-SET-2: the seats in table order, each with a cup of dice not rolled
        yet (faces 0 until the start command rolls them)."""
        seats = tuple(setup.seats)
        if not 2 <= len(seats) <= 6:
            raise ValueError(f"L-SET-1: 2 to 6 players, not {len(seats)}")
        self.validate_options(setup.options)
        options = msgspec.convert(dict(setup.options), LiarsOptions)
        return LiarsState(
            seats=seats,
            dice=options.dice,
            wild_ones=options.wild_ones,
            spot_on=options.spot_on,
            cups=tuple((0,) * options.dice for _ in seats),
        )

    def start_command(self, setup: Setup) -> Command:
        """Record 1's system command."""
        return m.StartGame()

    # -- the reducer ----------------------------------------------------------------------

    def decide(
        self,
        state: LiarsState,
        command: Command,
        dice: DiceStream,
        *,
        seat: str | None,
        legal: bool = False,
    ) -> Decided[LiarsState, Event]:
        """The events of ``command`` and the state after them; ``IllegalCommand`` naming the
        rule it breaks otherwise."""
        events: list[Event] = []

        def emit(*new: Event) -> LiarsState:
            nonlocal state
            for event in new:
                events.append(event)
                state = fold(state, event)
            return state

        if isinstance(command, m.StartGame):
            if seat is not None or state.round != 0:
                raise IllegalCommand("L-SET-3", "only the system starts the game, once")
            drawn = rounds.draw_opener(state, dice)
            emit(drawn)
            emit(rounds.round_started(state, drawn.seat))
            emit(*rounds.roll_cups(state, dice))
            return Decided(tuple(events), state)
        if seat is None:
            raise MalformedCommand(f"{type(command).__name__} needs a seat")
        self._check(state, seat, command, legal)
        if isinstance(command, m.Bid):
            emit(bidding.make_bid(state, seat, command))
            return Decided(tuple(events), state)
        call: m.Call = "liar" if isinstance(command, m.CallLiar) else "spot_on"
        revealed, lost = calls.resolve(state, seat, call)
        emit(revealed, *lost)
        left = state.in_game()
        if len(left) == 1:
            emit(m.GameWon(seat=left[0]))
        else:
            opener = rounds.next_opener(state, seat, tuple(e.seat for e in lost))
            emit(rounds.round_started(state, opener))
            emit(*rounds.roll_cups(state, dice))
        return Decided(tuple(events), state)

    def _check(self, state: LiarsState, seat: str, command: Command, legal: bool) -> None:
        if state.winner is not None:
            raise IllegalCommand("L-END-2", f"the game is over: {state.winner} won")
        acting = self._acting(state)
        if seat not in acting:
            raise IllegalCommand(
                "L-TURN-1", f"{seat} may not act now ({', '.join(acting) or 'nobody'} may)"
            )
        if legal:
            return
        if isinstance(command, m.Bid):
            bidding.check_bid(state, command)
        elif isinstance(command, m.CallLiar):
            calls.check_call(state, "liar")
        elif isinstance(command, m.CallSpotOn):
            calls.check_call(state, "spot_on")
        else:
            raise IllegalCommand("L-TURN-1", f"{type(command).__name__} is not a player's move")

    def evolve(self, state: LiarsState, event: Event) -> LiarsState:
        """Fold one event."""
        return fold(state, event)

    # -- who acts, with what -----------------------------------------------------------------

    def _acting(self, state: LiarsState) -> tuple[str, ...]:
        if state.winner is not None or state.active < 0:
            return ()
        return (state.seats[state.active],)

    def _legal(self, state: LiarsState, seat: str) -> list[Command]:
        if seat not in state.seats:
            raise KeyError(f"no seat {seat!r} in this game")
        if seat not in self._acting(state):
            return []
        found: list[Command] = list(bidding.legal_bids(state))
        if state.bids:
            found.append(m.CallLiar())
            if state.spot_on:
                found.append(m.CallSpotOn())
        return found

    def decision(self, state: LiarsState) -> Decision[Command]:
        """Who may act in ``state`` and, on demand, with which commands."""
        return Decision(self._acting(state), lambda seat: self._legal(state, seat))

    def dice_counter(self, state: LiarsState) -> int:
        """Dice words consumed so far."""
        return state.counter

    def turn_number(self, state: LiarsState) -> int:
        """Bids and rounds since the start (every command ends a turn)."""
        return state.turn

    def outcome(self, state: LiarsState) -> Outcome | None:
        """The result once one player has dice left (L-END-2); scores are dice left."""
        if state.winner is None:
            return None
        scores = {seat: len(cup) for seat, cup in zip(state.seats, state.cups, strict=True)}
        return Outcome(winners=(state.winner,), scores=scores, reason="last_with_dice")
