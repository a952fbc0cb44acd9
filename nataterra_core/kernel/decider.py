"""The Decider protocol: what a rule system implements to run on the kernel
(docs/ARCHITECTURE.md §1).

A rule system is three pure functions over immutable values::

    decision(state) -> Decision                        # who may act now, and each one's commands
    decide(state, command, dice, seat=...) -> events   # raises IllegalCommand(rule_id, ...)
    evolve(state, event) -> state                      # never random, never fails on its own events

plus what the kernel needs to start a game (``initial_state``, ``start_command``,
``validate_options``), decode its log (``rules``, ``content``, ``command_types``,
``event_types``) and read a position (``dice_counter``, ``turn_number``, ``outcome``).
``decide`` takes the acting seat as a keyword because allied seats act at the same time in
team play: the command alone does not say who sent it.

**Optional members.** :class:`Decider` declares three more, each with a default in
:class:`DeciderDefaults` (inherit it and override what you offer; the kernel never looks a
member up by name): ``turn_rule``, the rule id cited when a seat acts out of turn;
``folds``, fast paths for ``evolve`` (:func:`direct_folds`); ``redact_options``, the header's
options as a seat may see them before the reveal (a starting position's hidden hands).

**One decision per state.** Who may act and with which commands is a value derived from the
immutable state: :meth:`Decider.decision` answers it once, as a :class:`Decision`, and the
session, ``acting_seats``, ``legal_commands`` and ``decide`` share that one answer. A
command found in the list is accepted by membership (python-chess's ``move in
board.legal_moves``) and the list's own instance is what gets logged; ``decide`` is then
told ``legal=True`` and may skip its checks. Only a command outside the list is checked rule
by rule, so that the error names the rule it breaks. ``decide`` may hand back the state
after its events as a :class:`Decided`, sparing the session a second fold; a property test
checks that folding the events gives that same state. A decider whose ``decide`` runs on to
the next decision anyway (a combat's automatic steps stop at the next choice) hands that
:class:`Decision` back too, so each state's decision is computed once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

import msgspec

from .decision import Decision
from .dice import DiceStream
from .messages import Command, Event, Wire

__all__ = [
    "KERNEL_OPTIONS",
    "TOURNAMENT",
    "ContentRef",
    "Decided",
    "Decider",
    "DeciderDefaults",
    "Decision",
    "Folds",
    "Outcome",
    "RulesRef",
    "Setup",
    "check_kernel_options",
    "direct_folds",
    "events_of",
    "rules_options",
]

S = TypeVar("S")
C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)


class RulesRef(Wire, frozen=True, kw_only=True):
    """The rule system a log was written for."""

    id: str
    version: int


class ContentRef(Wire, frozen=True, kw_only=True):
    """The content pack a game uses: its id and the SHA-256 of the effective pack."""

    id: str
    sha256: str


class Setup(Wire, frozen=True, kw_only=True):
    """What ``initial_state`` is built from: the header's game id, seats and options, the
    kernel's own options (:data:`KERNEL_OPTIONS`) left out (:func:`rules_options`)."""

    game_id: str
    seats: tuple[str, ...]
    options: dict[str, Any] = msgspec.field(default_factory=dict)


TOURNAMENT = "tournament"
"""The kernel's option for tournament play: undo is refused (``true``); every system has it."""
KERNEL_OPTIONS: Mapping[str, type] = MappingProxyType({TOURNAMENT: bool})
"""Header options the kernel reads itself, with their types: every rule system accepts them,
and none declares or sees them (:func:`rules_options` takes them out of what a decider gets)."""


def rules_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` without the kernel's own: what a decider validates and starts from."""
    return {key: value for key, value in options.items() if key not in KERNEL_OPTIONS}


def check_kernel_options(options: Mapping[str, Any]) -> None:
    """``ValueError`` for a kernel option of the wrong type (``tournament`` is a boolean)."""
    for key, kind in KERNEL_OPTIONS.items():
        if key in options and not isinstance(options[key], kind):
            raise ValueError(f"option {key!r} must be a {kind.__name__}, got {options[key]!r}")


class Outcome(Wire, frozen=True, kw_only=True):
    """The result of a game, as the ``end`` record states it.

    ``winners`` is empty for a draw or an abandoned game; ``reason`` says which
    (``"base_destroyed"``, ``"turn_limit"``, ``"abandoned"``, …).
    """

    winners: tuple[str, ...] = ()
    draw: bool = False
    scores: dict[str, int] = msgspec.field(default_factory=dict)
    reason: str


class Decided(NamedTuple, Generic[S, E]):
    """What ``decide`` may return instead of bare events: the events and the state after them,
    and, when deciding found it anyway, that state's :class:`Decision` (so the session never
    asks for it again)."""

    events: tuple[E, ...]
    state: S
    decision: Decision[Any] | None = None


def events_of(decided: tuple[E, ...] | Decided[S, E]) -> tuple[E, ...]:
    """The events of what ``decide`` returned, bare or as a :class:`Decided`."""
    return decided.events if isinstance(decided, Decided) else tuple(decided)


Folds = Mapping[type[Any], Callable[[Any, Any], Any]]
"""Event type -> the pure function of ``(state, event)`` that gives exactly what ``evolve``
gives for it (:func:`direct_folds`)."""


class Decider(Protocol[S, C, E]):
    """A rule system the kernel can run, replay and verify.

    ``command_types`` and ``event_types`` list every concrete command and event class;
    the kernel builds its decoders from them once. The last three members (``turn_rule``,
    ``folds``, ``redact_options``) are optional: :class:`DeciderDefaults` gives each a
    default, so a decider that inherits it defines only what it offers.
    """

    @property
    def rules(self) -> RulesRef:
        """Rule-system id and version, written into the header."""

    @property
    def content(self) -> ContentRef | None:
        """The effective content pack, or ``None`` for a rule system without one."""

    @property
    def command_types(self) -> Sequence[type[C]]:
        """Every concrete command class (the start command included)."""

    @property
    def event_types(self) -> Sequence[type[E]]:
        """Every concrete event class."""

    def initial_state(self, setup: Setup) -> S:
        """The state before the start command: no randomness used yet."""

    def start_command(self, setup: Setup) -> C:
        """The system command of record 1, whose events hold all set-up randomness."""

    def decide(
        self, state: S, command: C, dice: DiceStream, *, seat: str | None, legal: bool = False
    ) -> tuple[E, ...] | Decided[S, E]:
        """The events ``command`` produces, or raise ``IllegalCommand``. ``seat`` None = system.

        ``legal`` is true when the command came from this state's decision, so the rules
        checks may be skipped. The events may come with the state after them (:class:`Decided`).
        """

    def decision(self, state: S) -> Decision[C]:
        """Who may act now and with which commands (empty ``acting`` when the game is over)."""

    def evolve(self, state: S, event: E) -> S:
        """The state after ``event``."""

    def dice_counter(self, state: S) -> int:
        """Dice words consumed so far."""

    def turn_number(self, state: S) -> int:
        """The current turn; undo never crosses a change of it (docs/LOG_FORMAT.md)."""

    def outcome(self, state: S) -> Outcome | None:
        """The result once the game is over, else ``None``."""

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` for options this rule system does not accept."""

    # -- optional (defaults in DeciderDefaults) -----------------------------------------------

    @property
    def turn_rule(self) -> str | None:
        """The rule id cited when a seat acts out of turn (``None``: none cited)."""

    @property
    def folds(self) -> Folds:
        """Fast paths for ``evolve``, by event type (:func:`direct_folds`; empty: none)."""

    def redact_options(self, options: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
        """The header's options as ``seat`` (``None``: a spectator) may see them before the
        seed is revealed (a starting position's hidden hands); by default all of them."""


class DeciderDefaults:
    """The defaults of :class:`Decider`'s optional members: inherit it and override what
    your rule system offers (``turn_rule = "X-TURN-1"``, ``folds = {...}``)."""

    turn_rule: ClassVar[str | None] = None
    folds: ClassVar[Folds] = MappingProxyType({})

    def redact_options(self, options: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
        """Every option is public."""
        return dict(options)


def direct_folds(decider: Decider[S, Any, E]) -> dict[type[E], Callable[[S, Any], S]]:
    """A copy of the decider's ``folds`` (a read-only mapping): for some event types, the
    pure function of ``(state, event)`` that gives exactly what ``evolve`` gives. Replay and
    the session call it directly, one Python call per event instead of two (``evolve``, then
    the fold it dispatches to); other event types still go through ``evolve``. The copy is a
    plain dict, the fastest to look up, and the caller's own."""
    return dict(decider.folds)
