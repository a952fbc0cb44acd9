"""A tiny test-only rule system on the kernel: Pig with stakes.

Two or more seats take turns. On your turn you may ``roll`` a d6 (a 1 loses the turn's
points and ends the turn; otherwise the face is added to the turn total), ``hold`` (bank
turn total times stake and end the turn) or ``stake`` a multiplier 1..3 before your first roll
(a free, undoable choice). First to ``target`` points wins; ``max_turns`` ends it drawn.

It exercises every kernel path: set-up randomness in the start record, dice events with
counters, undoable and non-undoable commands, turn changes, rejected commands with rule ids.
Pig has no hidden information: every command and event is declared public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

import msgspec

from nataterra_core.kernel import (
    Command,
    DeciderDefaults,
    Decision,
    DiceStream,
    DrawEvent,
    Event,
    IllegalCommand,
    Outcome,
    RulesRef,
    Setup,
    secrets,
)
from nataterra_core.kernel.encoding import Block, FactoredCodec, Layout, Segment
from nataterra_core.kernel.registry import Hooks, RuleSystem
from nataterra_core.kernel.visibility import PUBLIC
from nataterra_core.kernel.wording import reason_words


class Start(Command, frozen=True, tag="start.v1"):
    visibility = PUBLIC


class Roll(Command, frozen=True, tag="roll.v1"):
    visibility = PUBLIC


class Hold(Command, frozen=True, tag="hold.v1"):
    visibility = PUBLIC


class Stake(Command, frozen=True, tag="stake.v1"):
    visibility = PUBLIC

    multiplier: int


class FirstPlayerChosen(DrawEvent, frozen=True, tag="first_player_chosen.v1"):
    visibility = PUBLIC

    m: int
    counter_before: int
    counter_after: int
    value: int
    seat: str


class DieRolled(DrawEvent, frozen=True, tag="die_rolled.v1"):
    visibility = PUBLIC

    m: int
    counter_before: int
    counter_after: int
    value: int
    face: int


class StakeSet(Event, frozen=True, tag="stake_set.v1"):
    visibility = PUBLIC

    multiplier: int


class Banked(Event, frozen=True, tag="banked.v1"):
    visibility = PUBLIC

    seat: str
    points: int


class TurnEnded(Event, frozen=True, tag="turn_ended.v1"):
    visibility = PUBLIC

    next_seat: str


class GameWon(Event, frozen=True, tag="game_won.v1"):
    visibility = PUBLIC

    seat: str


class PigState(msgspec.Struct, frozen=True, kw_only=True):
    seats: Annotated[tuple[str, ...], secrets.PUBLIC]
    target: Annotated[int, secrets.PUBLIC]
    max_turns: Annotated[int, secrets.PUBLIC]
    active: Annotated[int, secrets.PUBLIC] = -1
    turn: Annotated[int, secrets.PUBLIC] = 0
    turn_total: Annotated[int, secrets.PUBLIC] = 0
    stake: Annotated[int, secrets.PUBLIC] = 1
    rolled: Annotated[bool, secrets.PUBLIC] = False
    scores: Annotated[tuple[int, ...], secrets.PUBLIC] = ()
    counter: Annotated[int, secrets.PUBLIC] = 0
    winner: Annotated[str | None, secrets.PUBLIC] = None


COMMANDS: tuple[type[Command], ...] = (Start, Roll, Hold, Stake)
EVENTS: tuple[type[Event], ...] = (
    FirstPlayerChosen,
    DieRolled,
    StakeSet,
    Banked,
    TurnEnded,
    GameWon,
)
PigCommand = Start | Roll | Hold | Stake
PigEvent = FirstPlayerChosen | DieRolled | StakeSet | Banked | TurnEnded | GameWon


class Pig(DeciderDefaults):
    """The decider."""

    rules = RulesRef(id="pig", version=1)
    content = None
    command_types: Sequence[type[Command]] = COMMANDS
    event_types: Sequence[type[Event]] = EVENTS

    def validate_options(self, options: Mapping[str, Any]) -> None:
        unknown = set(options) - {"target", "max_turns"}
        if unknown:
            raise ValueError(f"unknown options {sorted(unknown)}")

    def initial_state(self, setup: Setup) -> PigState:
        return PigState(
            seats=setup.seats,
            target=int(setup.options.get("target", 30)),
            max_turns=int(setup.options.get("max_turns", 0)),
            scores=(0,) * len(setup.seats),
        )

    def start_command(self, setup: Setup) -> Command:
        return Start()

    def decide(
        self,
        state: PigState,
        command: Command,
        dice: DiceStream,
        *,
        seat: str | None,
        legal: bool = False,
    ) -> tuple[Event, ...]:
        if isinstance(command, Start):
            if seat is not None or state.active >= 0:
                raise IllegalCommand("PIG-1", "the game has started already")
            before = dice.counter
            value = dice.draw(len(state.seats))
            return (
                FirstPlayerChosen(
                    m=len(state.seats),
                    counter_before=before,
                    counter_after=dice.counter,
                    value=value,
                    seat=state.seats[value],
                ),
            )
        if isinstance(command, Stake):
            if state.rolled:
                raise IllegalCommand("PIG-2", "the stake is set before the first roll")
            if not 1 <= command.multiplier <= 3 or command.multiplier == state.stake:
                raise IllegalCommand(
                    "PIG-2", f"stake must be 1..3 and new, got {command.multiplier}"
                )
            return (StakeSet(multiplier=command.multiplier),)
        if isinstance(command, Roll):
            before = dice.counter
            value = dice.draw(6)
            rolled = DieRolled(
                m=6, counter_before=before, counter_after=dice.counter, value=value, face=value + 1
            )
            if value == 0:
                return (rolled, *self._end_turn(state))
            return (rolled,)
        if isinstance(command, Hold):
            if state.turn_total == 0:
                raise IllegalCommand("PIG-3", "hold needs points this turn")
            points = state.turn_total * state.stake
            me = state.seats[state.active]
            banked = Banked(seat=me, points=points)
            if state.scores[state.active] + points >= state.target:
                return (banked, GameWon(seat=me))
            return (banked, *self._end_turn(state))
        raise IllegalCommand("PIG-0", f"unknown command {command!r}")

    def _end_turn(self, state: PigState) -> tuple[Event, ...]:
        return (TurnEnded(next_seat=state.seats[(state.active + 1) % len(state.seats)]),)

    def evolve(self, state: PigState, event: Event) -> PigState:
        replace = msgspec.structs.replace
        if isinstance(event, FirstPlayerChosen):
            return replace(state, active=event.value, turn=1, counter=event.counter_after)
        if isinstance(event, DieRolled):
            total = 0 if event.face == 1 else state.turn_total + event.face
            return replace(state, turn_total=total, rolled=True, counter=event.counter_after)
        if isinstance(event, StakeSet):
            return replace(state, stake=event.multiplier)
        if isinstance(event, Banked):
            i = state.seats.index(event.seat)
            scores = (*state.scores[:i], state.scores[i] + event.points, *state.scores[i + 1 :])
            return replace(state, scores=scores)
        if isinstance(event, TurnEnded):
            return replace(
                state,
                active=state.seats.index(event.next_seat),
                turn=state.turn + 1,
                turn_total=0,
                stake=1,
                rolled=False,
            )
        if isinstance(event, GameWon):
            return replace(state, winner=event.seat)
        raise TypeError(event)

    def decision(self, state: PigState) -> Decision[Command]:
        return Decision(self.acting_seats(state), lambda seat: self.legal_commands(state, seat))

    def acting_seats(self, state: PigState) -> Sequence[str]:
        if self.outcome(state) is not None or state.active < 0:
            return ()
        return (state.seats[state.active],)

    def legal_commands(self, state: PigState, seat: str) -> Sequence[Command]:
        if seat not in self.acting_seats(state):
            return ()
        commands: list[Command] = [Roll()]
        if state.turn_total > 0:
            commands.append(Hold())
        if not state.rolled:
            commands.extend(Stake(multiplier=m) for m in (1, 2, 3) if m != state.stake)
        return commands

    def dice_counter(self, state: PigState) -> int:
        return state.counter

    def turn_number(self, state: PigState) -> int:
        return state.turn

    def outcome(self, state: PigState) -> Outcome | None:
        scores = dict(zip(state.seats, state.scores, strict=True))
        if state.winner is not None:
            return Outcome(winners=(state.winner,), scores=scores, reason="target_reached")
        if state.max_turns and state.turn > state.max_turns:
            return Outcome(draw=True, scores=scores, reason="turn_limit")
        return None


class PigOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Pig's header options."""

    target: int = 30
    max_turns: int = 0


class PigView(msgspec.Struct, frozen=True, kw_only=True):
    """Pig has no hidden information: every seat sees the whole state."""

    seat: str | None
    state: PigState


class PigPresenter:
    """Pig's words."""

    def command(self, command: Command, seat: str | None = None, view: Any = None) -> str:
        who = seat or "the system"
        if isinstance(command, Start):
            return "the game starts"
        if isinstance(command, Roll):
            return f"{who} rolls the die"
        if isinstance(command, Hold):
            return f"{who} holds and banks the turn's points"
        if isinstance(command, Stake):
            return f"{who} stakes {command.multiplier} times the points"
        raise TypeError(f"not a Pig command: {type(command).__name__}")

    def offer(self, command: Command, seat: str, view: Any = None) -> str:
        """``command`` in ``seat``'s menu, as that seat's own (the sentence names the seat
        until an imperative is written for each command)."""
        return self.command(command, seat, view)

    def event(self, event: Event, view: Any = None) -> str:
        if isinstance(event, FirstPlayerChosen):
            return f"{event.seat} is drawn to start (draw({event.m}) = {event.value})"
        if isinstance(event, DieRolled):
            return f"the die shows {event.face}"
        if isinstance(event, StakeSet):
            return f"the stake is now {event.multiplier}"
        if isinstance(event, Banked):
            return f"{event.seat} banks {event.points} points"
        if isinstance(event, TurnEnded):
            return f"the turn passes to {event.next_seat}"
        if isinstance(event, GameWon):
            return f"{event.seat} wins"
        raise TypeError(f"not a Pig event: {type(event).__name__}")

    def outcome(self, outcome: Outcome) -> str:
        return f"{', '.join(outcome.winners) or 'nobody'} won ({reason_words(outcome.reason)})"

    def view(self, view: Any) -> str:
        state = view.state
        return ", ".join(f"{s} {n}" for s, n in zip(state.seats, state.scores, strict=True))


def pig_view(state: PigState, seat: str | None) -> PigView:
    return PigView(seat=seat, state=state)


def pig_codec(decider: Any, setup: Setup) -> FactoredCodec:
    """Roll, hold, and a stake of 1, 2 or 3: five actions."""
    return FactoredCodec(
        (
            Block(Roll, (), ()),
            Block(Hold, (), ()),
            Block(Stake, (), (("multiplier", (1, 2, 3)),)),
        )
    )


class PigEncoder:
    """Pig's view as features: the observer, whose turn, the scores, the turn so far."""

    def __init__(self, seats: tuple[str, ...]) -> None:
        self.seats = seats
        n = len(seats)
        self.layout = Layout(
            (
                Segment("me", n, "one-hot: the observing seat"),
                Segment("active", n, "one-hot: whose turn"),
                Segment("scores", n, "per seat: banked points"),
                Segment("turn", 4, "turn number, turn total, stake, rolled this turn"),
            )
        )

    def encode(self, view: Any) -> list[float]:
        f = self.layout.features()
        state = view.state
        if view.seat in self.seats:
            f.set("me", self.seats.index(view.seat), 1)
        if state.active >= 0:
            f.set("active", state.active, 1)
        f.put("scores", state.scores)
        f.put("turn", (state.turn, state.turn_total, state.stake, state.rolled))
        return f.values


PIG_SYSTEM = RuleSystem(
    rules=Pig.rules,
    title="Pig (a test dice game)",
    decider=lambda content: Pig(),
    player_counts=(2, 3, 4),
    default_seats={2: ("ann", "bob"), 3: ("ann", "bob", "cy"), 4: ("ann", "bob", "cy", "di")},
    options=PigOptions,
    seat_view=pig_view,
    perfect_information=True,
    presenter=PigPresenter(),
    hooks=Hooks(
        observation=lambda decider, setup: PigEncoder(tuple(setup.seats)),
        action_codec=pig_codec,
    ),
)
"""Pig as a registered rule system; the tests register it (``tests/conftest.py``)."""


class BarePig(Pig):
    """Pig under its own rules id, for a record with only the required parts."""

    rules = RulesRef(id="pig-bare", version=1)


BARE_PIG_SYSTEM = RuleSystem(
    rules=BarePig.rules,
    title="Pig with only the required parts (a test dice game)",
    decider=lambda content: BarePig(),
    player_counts=(2, 3),
    default_seats={2: ("ann", "bob"), 3: ("ann", "bob", "cy")},
    options=PigOptions,
    seat_view=pig_view,
    perfect_information=True,
    presenter=PigPresenter(),
)
"""A rule system with no optional part: no hooks (no encoder, codec, determiniser, geometry,
scenarios, positions, coverage), no players of its own, no pack, no decider extras. The tests
register it, so every test over every registered system proves the hooks optional."""
