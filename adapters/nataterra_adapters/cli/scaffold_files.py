"""The files ``nataterra new-game`` writes: a trivial game in the one shape of every game
package (``tests/test_shape.py``), as ``string.Template`` texts.

The game is a race: in turn, each player adds 1 or 2 to a shared total, or rolls a
three-sided die and adds what it shows while 3 or more are missing, and whoever brings it to
the target wins; the first player is drawn with the game's dice. It is small enough to read
at a glance and uses each part an author replaces: a system command with a recorded draw,
player commands checked with rule IDs, events folded into an immutable state, a view, words.
Each file's docstring says what to fill. The placeholders: ``$id`` (the rules id),
``$title``, ``$module`` (the package's import path), ``$Class`` (a class-name stem),
``$CONST`` (the record's name) and ``$PREFIX`` (the rule IDs' prefix).

An id may be 40 characters long, so every line that embeds a name leaves room for 40 more
characters, and a call or signature that could outgrow a line is written one item a line with
a trailing comma: ``ruff format`` keeps that layout whatever the id's length
(``tests/adapters/test_scaffold.py`` checks the longest ids).
"""

from __future__ import annotations

__all__ = ["GAME_FILES", "PYPROJECT"]

INIT = '''"""$title
(rules id ``$id``),
made by ``nataterra new-game``: a trivial race to replace with your game (docs/GAME_GUIDE.md
walks through each room).

Its rooms: ``system`` (the registry record), ``messages`` (commands and events, with who may
see each), ``state`` (the position, with who may see each field), ``decider`` (set-up, decide
and evolve), ``views`` (what a seat sees) and ``presenter`` (the words).
"""
'''

MESSAGES = '''"""The commands and events of $title,
each declaring who may see it (``kernel.visibility``).

What to fill: one ``Command`` per kind of decision a player makes and one ``Event`` per kind of
thing that happens, each with a tag of its own ending in a version (``.v1``; never reuse one
with another meaning). A random event subclasses ``DrawEvent`` or ``DrawsEvent`` and carries
its draw (``record_draw``); what only some seats may see is declared with
``hide_from_others(...)`` instead of ``PUBLIC``.
"""

from __future__ import annotations

from nataterra_core.kernel import Command, DrawEvent, Event
from nataterra_core.kernel.visibility import PUBLIC


class Start(Command, frozen=True, tag="start.v1"):
    """The system's command of record 1: the first player is drawn
    ($PREFIX-SET-2)."""

    visibility = PUBLIC


class Add(Command, frozen=True, tag="add.v1"):
    """Add ``amount`` (1 or 2) to the total
    ($PREFIX-TURN-2)."""

    visibility = PUBLIC
    amount: int


class Roll(Command, frozen=True, tag="roll.v1"):
    """Roll a three-sided die and add what it shows
    ($PREFIX-TURN-3)."""

    visibility = PUBLIC


class FirstPlayerDrawn(DrawEvent, frozen=True, tag="first_player_drawn.v1"):
    """``seat`` plays first: ``value`` is ``draw(m)`` over the ``m`` seats
    ($PREFIX-SET-2)."""

    visibility = PUBLIC
    m: int
    value: int
    counter_before: int
    counter_after: int
    seat: str


class Added(Event, frozen=True, tag="added.v1"):
    """``seat`` added ``amount``; the total is now ``total``."""

    visibility = PUBLIC
    seat: str
    amount: int
    total: int


class Rolled(DrawEvent, frozen=True, tag="rolled.v1"):
    """``seat`` rolled ``value + 1`` (``draw(3)``); the total is now ``total``."""

    visibility = PUBLIC
    m: int
    value: int
    counter_before: int
    counter_after: int
    seat: str
    total: int


class GameWon(Event, frozen=True, tag="game_won.v1"):
    """``seat`` brought the total to the target
    ($PREFIX-END-1)."""

    visibility = PUBLIC
    seat: str


COMMANDS: tuple[type[Command], ...] = (Start, Add, Roll)
EVENTS: tuple[type[Event], ...] = (FirstPlayerDrawn, Added, Rolled, GameWon)
'''

STATE = '''"""The position of $title:
an immutable struct that ``evolve`` replaces, never mutates.

What to fill: every field your rules need, each declaring who may see it in its annotation
(``PUBLIC``, ``owned``, ``hidden`` or ``visible_if`` from ``nataterra_core.kernel.secrets``).
A field without a declaration fails the tests. Once a field is secret, remove
``perfect_information=True`` from ``system.py``.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from nataterra_core.kernel.secrets import PUBLIC


class ${Class}State(msgspec.Struct, frozen=True, kw_only=True):
    """The race: ``total`` so far, ``target`` to reach, ``active`` the index of the seat to
    act (-1 before the start and after the end), ``counter`` the dice words used."""

    seats: Annotated[tuple[str, ...], PUBLIC]
    target: Annotated[int, PUBLIC]
    total: Annotated[int, PUBLIC] = 0
    active: Annotated[int, PUBLIC] = -1
    turn: Annotated[int, PUBLIC] = 0
    counter: Annotated[int, PUBLIC] = 0
    winner: Annotated[str | None, PUBLIC] = None
'''

DECIDER = '''"""The rules of $title:
set-up, ``decide`` (a command to events, or ``IllegalCommand`` naming the rule it breaks) and
``evolve`` (an event to the next state), pure functions of immutable values whose only
randomness is the game's dice stream.

What to fill: your options, your rules, your rule IDs
($PREFIX-...)
as your rules text numbers them; move the rules into a ``rules/`` package of their own once
this file grows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from nataterra_core.kernel import (
    Command,
    DeciderDefaults,
    Decision,
    DiceStream,
    Event,
    IllegalCommand,
    MalformedCommand,
    Outcome,
    RulesRef,
    Setup,
    record_draw,
)

from . import messages as m
from .state import ${Class}State

__all__ = [
    "${Class}",
    "${Class}Options",
]

RULES = RulesRef(id="$id", version=1)
"""The rules id and version every log header names (raise the version when the rules change)."""


class ${Class}Options(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
):
    """The header's options: the ``target`` total (2 to 100;
    $PREFIX-SET-1)."""

    target: int = 10


def _options(options: Mapping[str, Any]) -> ${Class}Options:
    return msgspec.convert(dict(options), ${Class}Options)


class ${Class}(DeciderDefaults):
    """The decider of $title."""

    rules = RULES
    content = None
    turn_rule = "$PREFIX-TURN-1"
    command_types: Sequence[type[Command]] = m.COMMANDS
    event_types: Sequence[type[Event]] = m.EVENTS

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """``ValueError`` for options the game does not accept."""
        try:
            target = _options(options).target
        except msgspec.ValidationError as exc:
            raise ValueError(f"bad options: {exc}") from exc
        if not 2 <= target <= 100:
            raise ValueError(
                "$PREFIX-SET-1: the target is 2 to 100",
            )

    def initial_state(self, setup: Setup) -> ${Class}State:
        """The position before the start command (no randomness used yet)."""
        self.validate_options(setup.options)
        target = _options(setup.options).target
        return ${Class}State(seats=setup.seats, target=target)

    def start_command(self, setup: Setup) -> Command:
        """Record 1's system command."""
        return m.Start()

    def decide(
        self,
        state: ${Class}State,
        command: Command,
        dice: DiceStream,
        *,
        seat: str | None,
        legal: bool = False,
    ) -> tuple[Event, ...]:
        """The events of ``command``; ``IllegalCommand`` naming the rule it breaks otherwise."""
        if isinstance(command, m.Start):
            if seat is not None or state.turn:
                raise IllegalCommand(
                    "$PREFIX-SET-2",
                    "only the system starts the game, once",
                )
            drawn = record_draw(dice, len(state.seats))
            return (m.FirstPlayerDrawn(seat=state.seats[drawn["value"]], **drawn),)
        if seat is None:
            raise MalformedCommand(f"{type(command).__name__} needs a seat")
        if seat not in self.decision(state).acting:
            raise IllegalCommand(
                "$PREFIX-TURN-1",
                f"it is not {seat}'s turn",
            )
        if isinstance(command, m.Roll):
            return self._roll(state, seat, dice)
        if not isinstance(command, m.Add):
            raise IllegalCommand(
                "$PREFIX-TURN-2",
                f"{type(command).__name__} is no player's",
            )
        if not legal and command.amount not in (1, 2):
            raise IllegalCommand(
                "$PREFIX-TURN-2",
                f"add 1 or 2, not {command.amount}",
            )
        total = state.total + command.amount
        if total > state.target:
            raise IllegalCommand(
                "$PREFIX-TURN-2",
                f"the total may not pass {state.target}",
            )
        added = m.Added(seat=seat, amount=command.amount, total=total)
        return (added, m.GameWon(seat=seat)) if total == state.target else (added,)

    def _roll(
        self,
        state: ${Class}State,
        seat: str,
        dice: DiceStream,
    ) -> tuple[Event, ...]:
        if state.target - state.total < 3:
            raise IllegalCommand(
                "$PREFIX-TURN-3",
                "a roll needs 3 or more missing",
            )
        drawn = record_draw(dice, 3)  # the draw goes into the event: a verifier redoes it
        total = state.total + drawn["value"] + 1
        rolled = m.Rolled(seat=seat, total=total, **drawn)
        return (rolled, m.GameWon(seat=seat)) if total == state.target else (rolled,)

    def evolve(
        self,
        state: ${Class}State,
        event: Event,
    ) -> ${Class}State:
        """The state after ``event`` (never random, never failing on the game's own events)."""
        if isinstance(event, m.FirstPlayerDrawn):
            return replace(state, active=event.value, turn=1, counter=event.counter_after)
        if isinstance(event, m.Added | m.Rolled):
            after = (state.active + 1) % len(state.seats)
            counter = event.counter_after if isinstance(event, m.Rolled) else state.counter
            return replace(
                state, total=event.total, active=after, turn=state.turn + 1, counter=counter
            )
        if isinstance(event, m.GameWon):
            return replace(state, winner=event.seat, active=-1)
        raise TypeError(
            f"not a $title event: {type(event).__name__}",
        )

    def decision(self, state: ${Class}State) -> Decision[Command]:
        """Who may act now and, on demand, with which commands (every choice is a command)."""
        if state.active < 0:
            return Decision((), lambda seat: [])
        acting = state.seats[state.active]
        left = state.target - state.total
        commands: list[Command] = [m.Add(amount=n) for n in (1, 2) if n <= left]
        if left >= 3:
            commands.append(m.Roll())
        return Decision((acting,), lambda seat: commands if seat == acting else [])

    def dice_counter(self, state: ${Class}State) -> int:
        """Dice words used so far."""
        return state.counter

    def turn_number(self, state: ${Class}State) -> int:
        """The turn (undo never crosses a change of it)."""
        return state.turn

    def outcome(self, state: ${Class}State) -> Outcome | None:
        """The result once the target is reached."""
        if state.winner is None:
            return None
        return Outcome(winners=(state.winner,), reason="target_reached")
'''

VIEWS = '''"""What one seat of $title may see:
built from ``redact(state, seat)``, so it cannot show what the state's declarations hide.
What to fill: the fields a player (a person, a bot, a
client) needs; they are the wire format of the RPC server and the browser too.
"""

from __future__ import annotations

import msgspec

from nataterra_core.kernel.secrets import redact

from .state import ${Class}State

__all__ = ["${Class}View", "seat_view"]


class ${Class}View(msgspec.Struct, frozen=True, kw_only=True):
    """The position as ``seat`` sees it (``None``: a spectator)."""

    seat: str | None
    seats: tuple[str, ...]
    target: int
    total: int
    active: str | None
    winner: str | None


def seat_view(
    state: ${Class}State,
    seat: str | None,
    *,
    revealed: bool = False,
) -> ${Class}View:
    """What ``seat`` may know of ``state`` (all of it once the log's seed is ``revealed``)."""
    known = state if revealed else redact(state, seat)
    return ${Class}View(
        seat=seat,
        seats=known.seats,
        target=known.target,
        total=known.total,
        active=known.seats[known.active] if known.active >= 0 else None,
        winner=known.winner,
    )
'''

PRESENTER = '''"""$title in words:
each command, event and outcome as a sentence, a view as text. What to fill: a sentence for
every command and event type (the words test fails for one left as a raw struct), never
showing what its reader may not see.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Command, Event, Outcome
from nataterra_core.kernel.seen import Cut
from nataterra_core.kernel.wording import reason_words

from . import messages as m
from .views import ${Class}View

__all__ = ["${Class}Presenter"]


class ${Class}Presenter:
    """The registry's presenter (the ``Presenter`` protocol of ``kernel.registry``)."""

    def command(
        self, command: Command | Cut[Command], seat: str | None = None, view: Any = None
    ) -> str:
        """One sentence for ``command`` sent by ``seat`` (``None``: the system). A message
        some reader may not see whole comes as its ``Cut`` (``kernel.seen``; every message of
        this game is public, so none does)."""
        if isinstance(command, m.Add):
            return f"{seat} adds {command.amount}"
        if isinstance(command, m.Roll):
            return f"{seat} rolls the die"
        return "the game starts: the first player is drawn"

    def offer(self, command: Command, seat: str, view: Any = None) -> str:
        """``command`` in its own seat's menu."""
        if isinstance(command, m.Add):
            return f"add {command.amount}"
        if isinstance(command, m.Roll):
            return "roll the die"
        return "start the game"

    def event(self, event: Event | Cut[Event], view: Any = None) -> str:
        """One sentence for ``event`` as its reader sees it (whole, or its ``Cut``)."""
        if isinstance(event, m.FirstPlayerDrawn):
            return f"{event.seat} is drawn to play first"
        if isinstance(event, m.Added):
            return f"{event.seat} adds {event.amount}: the total is {event.total}"
        if isinstance(event, m.Rolled):
            return f"{event.seat} rolls {event.value + 1}: the total is {event.total}"
        if isinstance(event, m.GameWon):
            return f"{event.seat} reaches the target and wins"
        raise TypeError(
            f"not a $title event: {type(event).__name__}",
        )

    def outcome(self, outcome: Outcome) -> str:
        """The result in words."""
        return f"won by {', '.join(outcome.winners)} ({reason_words(outcome.reason)})"

    def view(self, view: Any) -> str:
        """A seat's view as text."""
        if not isinstance(view, ${Class}View):
            raise TypeError(
                f"not a $title view: {type(view).__name__}",
            )
        lines = [f"total {view.total} of {view.target}"]
        if view.active is not None:
            lines.append(f"{view.active} to play")
        if view.winner is not None:
            lines.append(f"{view.winner} has won")
        return "\\n".join(lines)
'''

SYSTEM = '''"""$title as a registered rule system:
the one record every generic tool reads. What to fill: the title, the player counts and
seats, your bots (``players``) and the optional ``hooks`` (docs/GAME_GUIDE.md: what each one
lights up).
"""

from __future__ import annotations

from pathlib import Path

from nataterra_core.kernel.registry import RuleSystem

from . import decider
from .presenter import ${Class}Presenter
from .views import seat_view

__all__ = ["$CONST"]

SEATS = ("north", "east", "south", "west")


def _decider(content: Path | None) -> decider.${Class}:
    return decider.${Class}()


$CONST = RuleSystem(
    rules=decider.RULES,
    title="$title",
    decider=_decider,
    player_counts=(2, 3, 4),
    default_seats={n: SEATS[:n] for n in (2, 3, 4)},
    options=decider.${Class}Options,
    seat_view=seat_view,
    presenter=${Class}Presenter(),
    perfect_information=True,  # remove once the state declares a secret
)
'''

GAME_FILES: dict[str, str] = {
    "__init__.py": INIT,
    "messages.py": MESSAGES,
    "state.py": STATE,
    "decider.py": DECIDER,
    "views.py": VIEWS,
    "presenter.py": PRESENTER,
    "system.py": SYSTEM,
}
"""Each file of the package, by name."""

PYPROJECT = """# $title as a distribution of its own, made by `nataterra new-game`: installed
# next to nataterra_core (pip install -e .), the registry finds it through the entry point below.
[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "$package"
version = "0.1.0"
description = "$title, a game for the nataterra_core rules engine"
requires-python = ">=3.11"
dependencies = ["nataterra_core"]

[project.entry-points."nataterra.games"]
$id = "$module.system:$CONST"

[tool.setuptools]
packages = ["$package"]
"""
"""The ``pyproject.toml`` of a game written outside the library."""
