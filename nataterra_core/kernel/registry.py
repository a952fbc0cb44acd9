"""Rule systems as registered plug-ins: one frozen record per system, found by id or header.

The kernel, the front ends and the tools know no game. Each rule system describes itself
once in a :class:`RuleSystem` record (OpenSpiel's ``GameType`` plus ``register_game``,
python-chess's ``VARIANTS``) and registers it; everything generic — starting a game,
verifying a log, serving it over RPC, rendering it, running bots against it — looks the
system up here::

    >>> from nataterra_core.kernel.registry import system, systems
    >>> system("nataterra").player_counts
    (2, 3, 4)
    >>> "nataterra-combat-sandbox" in [s.rules.id for s in systems()]
    True

The systems that ship with the library are named in ``nataterra_core.games`` (one
registration line per system there: its id and where its record is, :func:`register_lazily`),
which the first lookup imports. A game in a distribution of its own registers through the
``nataterra.games`` entry-point group (:data:`ENTRY_POINT_GROUP`: the entry point's name is
the rules id, its value the record, ``"package.module:NAME"``), read at the same first lookup.
A system's own modules are imported only when it is first
looked up by id (:func:`system`, :func:`system_for`) or all are listed (:func:`systems`), so
verifying a log of one game never imports another. Tests and plug-ins call
:func:`register` with their own records.

Optional hooks (board geometry, SVG, observation encoder, action codec, determiniser,
evaluation, scenarios, positions, rules coverage, CLI commands, the how-to-play page) have
typed slots in :class:`Hooks`, so generic tools find them in one place; a system that lacks
one simply leaves it ``None``.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import attrs
import msgspec

from .decider import Decider, Outcome, RulesRef, Setup, check_kernel_options, rules_options
from .determinise import Determiniser
from .encoding import CodecFactory, ObservationFactory
from .errors import UnsupportedVersion
from .geometry import BoardGeometry
from .log import Header
from .messages import Command, Event
from .panels import SeatPanels
from .players import Player, RandomPlayer
from .seen import Cut

__all__ = [
    "BUILTIN_PACKAGE",
    "ENTRY_POINT_GROUP",
    "Hooks",
    "OptionsError",
    "PlayerFactory",
    "Presenter",
    "RuleSystem",
    "ViewFunction",
    "package_text",
    "register",
    "register_lazily",
    "system",
    "system_for",
    "system_ids",
    "systems",
]

BUILTIN_PACKAGE = "nataterra_core.games"
"""Imported on the first lookup; its ``__init__`` names the systems that ship
(:func:`register_lazily`)."""

ENTRY_POINT_GROUP = "nataterra.games"
"""The entry-point group through which a game in its own distribution registers: each entry
point's name is a rules id, its value where the record is (``"package.module:NAME"``)."""


class PlayerFactory(Protocol):
    """Builds a named player (bot) from a seed, so a seeded game is the same everywhere, and
    the game's user content pack if there is one (a bot must judge by the pack in play)."""

    def __call__(self, seed: int, *, content: Path | None = None) -> Player:
        """A player seeded with ``seed``."""


class ViewFunction(Protocol):
    """A rule system's ``seat_view``: what ``seat`` (``None``: a spectator) may see of
    ``state``, each field shown by its declaration (:func:`~.secrets.sees`); with
    ``revealed`` (the log's seed is public), every secret."""

    def __call__(self, state: Any, seat: str | None, /, *, revealed: bool = False) -> Any:
        """The view."""


class OptionsError(ValueError):
    """Options or seats the rule system refuses (at creation and when a log is verified)."""


class Presenter(Protocol):
    """A rule system's words: each command, event and outcome in a sentence, a view as text.

    A presenter is handed what its reader may see and nothing more: ``command`` and
    ``event`` receive the message as :func:`~.seen.as_seen` gives it to that reader, the
    message itself when the reader may see it whole, otherwise a :class:`~.seen.Cut` of it
    (its class, the fields it still has as attributes, the hidden ones absent). So a
    sentence cannot print a secret, and every cut form needs a sentence of its own ("french
    keeps a card"): ``tests/test_seen_words.py`` words every cut form of every registered
    system. ``view`` is a spectator's view of the position the command or event applies to
    (the state before it; ``None`` when no position is known), so a sentence can name what
    the message's ids point at (a group's owner and units, say). Front ends pass one
    whenever they have it; a sentence must read without it too. ``tests/test_words.py``
    fails for a registered system whose presenter leaves any command or event type as a raw
    struct.
    """

    def command(
        self, command: Command | Cut[Command], seat: str | None = None, view: Any = None
    ) -> str:
        """One sentence for ``command`` sent by ``seat`` (``None``: the system, and only the
        system): what a log, a replay or another seat reads (``ann bids three fives``)."""

    def offer(self, command: Command, seat: str, view: Any = None) -> str:
        """``command`` as a choice offered to ``seat``, whose own it is (so always whole):
        what a menu of that seat's legal commands reads, in the terminal, over RPC and in
        the browser alike (an imperative, ``bid three fives``, where the system has one;
        never "the system ...")."""

    def event(self, event: Event | Cut[Event], view: Any = None) -> str:
        """One sentence for ``event`` as its reader sees it (whole or a :class:`~.seen.Cut`)."""

    def outcome(self, outcome: Outcome) -> str:
        """The result in words (``won by ann (target_reached)``)."""

    def view(self, view: Any) -> str:
        """A seat's view as plain text (the board, the players, any combat)."""


@attrs.frozen(kw_only=True)
class Hooks:
    """Optional per-system capabilities that later tools look for (``None``: not offered).

    Slots whose tool has landed are typed by its protocol (``board_geometry``; the
    observation and action hooks in :mod:`.encoding`); the others are typed loosely until
    their tool defines one, and a system fills each when it can.
    """

    board_geometry: BoardGeometry | None = None
    """Seat view -> the boards a client draws, and each legal command's place on them
    (:mod:`nataterra_core.kernel.geometry`; ``docs/RPC.md`` says how a game adds its own)."""
    svg: Callable[[Any], str] | None = None
    """Seat view -> an SVG picture of the board (for a system with ``board_geometry``,
    ``nataterra_core.boards.svg.geometry_svg`` of its geometry)."""
    observation: ObservationFactory | None = None
    """(decider, setup) -> an :class:`~.encoding.ObservationEncoder`: a seat view as a
    fixed-length feature vector with a documented layout (research environments)."""
    action_codec: CodecFactory | None = None
    """(decider, setup) -> an :class:`~.encoding.ActionCodec`: a fixed, finite action space
    in which the same index means the same command in every state, with legal masks."""
    determiniser: Determiniser | None = None
    """``(view, pack, seed)`` -> a state whose seat view is ``view``, the hidden information
    (others' hands from the unseen cards, deck orders) sampled with ``seed``: what a search
    player plays ahead on (:class:`~nataterra_core.kernel.determinise.Determiniser`)."""
    evaluate: Callable[[Any, str], float] | None = None
    """``(state, seat)`` -> an estimate in [0, 1] of ``seat``'s chance of winning from
    ``state`` (a whole state: a search player's determinisation, never shown to anyone). The
    search player cuts its playouts short and scores them by it; without one it plays every
    playout to the game's end. It lives in the game's ``bots`` room."""
    playout_depth: int | None = None
    """Commands a search player's playout plays before ``evaluate`` scores it (``None``: the
    search's own default, ``nataterra_core.search.catalogue.PLAYOUT_DEPTH``): a game whose
    turn is many commands, or whose evaluation reads little until a round ends, may name
    its own (measured with ``benchmarks/search_strength.py --playout-depth``)."""
    scenarios: Mapping[str, Any] | None = None
    """Named starting set-ups by id; each has ``id``, ``title``, ``kind``, ``seats``, ``goal``
    and ``options`` (the header options that start it)."""
    positions: Any | None = None
    """A position format: ``export(state, *, seat=None, toml=False) -> str``,
    ``seats(source)`` and ``options(source)`` (the header options that start from it)."""
    coverage: Callable[[], Any] | None = None
    """The system's rules-coverage description (a ``kernel.coverage.CoverageSpec``: its rules
    text, clause prefix, content items and markers), read by ``nataterra coverage``."""
    cli_commands: Callable[[], Sequence[Any]] | None = None
    """The system's own ``nataterra`` sub-commands: typer command functions (registered
    under their names) or ``typer.Typer`` sub-apps. A function, so the CLI library is
    imported only by the command line, never by the core."""
    how_to_play: Callable[[], str] | None = None
    """The system's rules for its players as a Markdown page (what you do on a turn, how to
    win or score, a worked example turn), shipped with its package (:func:`package_text`):
    ``nataterra rules --game ID`` prints it, the docs site shows it."""
    panels: SeatPanels | None = None
    """Seat view -> each seat's panel (name, resources, score, hand size; the viewer's own
    cards) and the stage of the game in words (:mod:`nataterra_core.kernel.panels`)."""
    option_choices: Callable[[], Mapping[str, Sequence[tuple[Any, str]]]] | None = None
    """The values a lobby offers for each option that takes one of a few (``{"map":
    (("small", "the small map"), ...)}``), each with its words; a function, so packs are
    read only when asked."""
    setup_words: Callable[[Mapping[str, Any]], str] | None = None
    """Header options (as a reader may see them) -> the game's setup in words, defaults
    included: who attacks whom, where and with what; the scenario played and the turn
    limit. The replay's header line, the browser feed's first line and ``play``'s opening
    say it (:func:`~nataterra_core.kernel.wording.setup_words`); without it, the options
    by their labels (``options turn limit 100``)."""


def package_text(package: str, name: str) -> Callable[[], str]:
    """A reader of the UTF-8 text file ``name`` shipped in ``package`` (package data, so an
    installed wheel has it): a system's ``Hooks.how_to_play``, read only when asked for.

    >>> package_text("nataterra_core.games.nataterra", "how_to_play.md")().startswith("# ")
    True
    """

    def read() -> str:
        return resources.files(package).joinpath(name).read_text(encoding="utf-8")

    return read


def _random_player(seed: int, *, content: Path | None = None) -> Player:
    """The kernel's random legal player (it reads no pack)."""
    return RandomPlayer(seed)


def _with_random(named: Mapping[str, PlayerFactory]) -> dict[str, PlayerFactory]:
    """Every system offers the kernel's random legal player under the name ``random``."""
    return {"random": _random_player, **named}


@attrs.frozen(kw_only=True)
class RuleSystem:
    """Everything generic code needs to know about one rule system."""

    rules: RulesRef
    """Id and version, as written into every log header."""
    title: str
    """A human name (``"Nataterra"``)."""
    decider: Callable[[Path | None], Decider[Any, Any, Any]]
    """The decider for an optional user content pack overlaid on the system's own."""
    player_counts: tuple[int, ...]
    """How many seats a game may have."""
    default_seats: Mapping[int, tuple[str, ...]]
    """The seats for a player count when the caller names none."""
    options: type[msgspec.Struct]
    """The typed options schema: unknown options and wrong types are refused. The kernel's
    own options (``tournament``, :data:`~.decider.KERNEL_OPTIONS`) are every system's and
    belong in no system's schema."""
    seat_view: ViewFunction
    """``(state, seat, revealed=False)`` -> what ``seat`` may see (``None``: a spectator);
    :meth:`view_of` calls it."""
    presenter: Presenter
    """Commands, events, outcomes and views in words."""
    default_options: Mapping[str, Any] = attrs.field(factory=dict)
    """The options of a game whose creator gives none (a sandbox's standard battle, say)."""
    players: Mapping[str, PlayerFactory] = attrs.field(factory=dict, converter=_with_random)
    """The system's own players (bots) by name; ``"random"`` (the kernel's) is always there.
    The search player (``"search"``, for a system with a determiniser) is not built here but
    by :func:`nataterra_core.search.catalogue.players_of`, so the kernel never imports it."""
    load_pack: Callable[[Path | None], Any] | None = None
    """The content-pack loader (``None`` for a system without a pack)."""
    hooks: Hooks = Hooks()
    """Optional capabilities."""
    perfect_information: bool = False
    """The state declares no secret (``kernel.secrets``): every seat sees all of it. A system
    whose state declares none must say so here, or the hidden-information tests fail for it."""

    @property
    def id(self) -> str:
        """The rules id (``nataterra``)."""
        return self.rules.id

    def view_of(self, state: Any, seat: str | None, *, revealed: bool = False) -> Any:
        """What ``seat`` may see of ``state``; once the log's seed is ``revealed`` (a replay
        of a finished game, a game over) every secret too (docs/LOG_FORMAT.md §7), the
        secrets shown as the system's view shows its seat's own. A system of perfect
        information has nothing more to show (its ``seat_view`` need not take ``revealed``)."""
        if revealed and not self.perfect_information:
            return self.seat_view(state, seat, revealed=True)
        return self.seat_view(state, seat)

    def seats(self, seats: Sequence[str] | int) -> tuple[str, ...]:
        """Seats given by name, or the default seats of a player count."""
        if isinstance(seats, int):
            if seats not in self.default_seats:
                raise OptionsError(
                    f"{self.id} is for {_counts(self.player_counts)} players, not {seats}"
                )
            return self.default_seats[seats]
        return tuple(seats)

    def check(
        self, decider: Decider[Any, Any, Any], seats: Sequence[str], options: Mapping[str, Any]
    ) -> None:
        """Raise :class:`OptionsError` for seats or options the system refuses.

        The same check runs when a game is created and when a log is verified, so a log
        whose header the rules refuse is a failure of its own, never a traceback.
        """
        if len(seats) not in self.player_counts:
            raise OptionsError(
                f"{self.id} is for {_counts(self.player_counts)} players, got {len(seats)}"
            )
        if len(set(seats)) != len(seats):
            raise OptionsError(f"seats must be distinct, got {list(seats)}")
        try:
            check_kernel_options(options)
        except ValueError as exc:
            raise OptionsError(f"bad options for {self.id}: {exc}") from exc
        own = rules_options(options)  # the kernel's options (tournament) are no system's
        try:
            msgspec.convert(own, self.options, strict=True)
        except msgspec.ValidationError as exc:
            raise OptionsError(f"bad options for {self.id}: {exc}") from exc
        unknown = set(own) - set(self.options.__struct_fields__)
        if unknown:
            raise OptionsError(f"unknown options for {self.id}: {sorted(unknown)}")
        try:
            decider.validate_options(own)
            # The seats against the options (a learning game's civilisations, say).
            decider.initial_state(Setup(game_id="check", seats=tuple(seats), options=own))
        except ValueError as exc:
            raise OptionsError(str(exc)) from exc


def _counts(counts: tuple[int, ...]) -> str:
    if len(counts) > 1 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return " or ".join(str(n) for n in counts)


_SYSTEMS: dict[str, RuleSystem] = {}
_LAZY: dict[str, str] = {}
"""Rules id -> ``"module:ATTRIBUTE"`` of a record registered but not imported yet."""
_IMPORTING = threading.RLock()
"""Held while a lazily registered record moves from ``_LAZY`` to ``_SYSTEMS``: a server looks
systems up from several threads at once (its event loop, store and bot threads), and a lookup
between the two steps would find the id in neither. Re-entrant: importing a game's module may
register records itself."""
_loaded = False
_loading = False


def register(record: RuleSystem, *, replace: bool = False) -> RuleSystem:
    """Add a rule system; ``ValueError`` if its id is taken (unless ``replace``)."""
    taken = None if replace else _import(record.id)
    if taken is not None and taken is not record:
        raise ValueError(f"a rule system {record.id!r} is already registered")
    _SYSTEMS[record.id] = record
    _LAZY.pop(record.id, None)
    return record


def register_lazily(rules_id: str, where: str) -> None:
    """Register the system ``rules_id`` by where its record is, ``"package.module:NAME"``
    (as an entry point names an object): the module is imported on the first lookup of
    ``rules_id``, or when every system is listed. ``ValueError`` if the id is taken."""
    if rules_id in _SYSTEMS or rules_id in _LAZY:
        raise ValueError(f"a rule system {rules_id!r} is already registered")
    module, _, name = where.partition(":")
    if not module or not name:
        raise ValueError(f"{where!r}: name the record as 'package.module:NAME'")
    _LAZY[rules_id] = where


def _import(rules_id: str) -> RuleSystem | None:
    """The record of ``rules_id``, imported now if it was registered lazily."""
    # _LAZY before _SYSTEMS: a record enters _SYSTEMS before it leaves _LAZY, so an id
    # found in neither order is truly unknown, without taking the lock.
    lazy = rules_id in _LAZY
    found = _SYSTEMS.get(rules_id)
    if found is not None or not lazy:
        return found
    with _IMPORTING:
        found = _SYSTEMS.get(rules_id)  # another thread may have imported it meanwhile
        where = _LAZY.get(rules_id)
        if found is not None or where is None:
            return found
        module, _, name = where.partition(":")
        record = getattr(importlib.import_module(module), name)
        if not isinstance(record, RuleSystem) or record.id != rules_id:
            raise TypeError(f"{where} is not the rule system {rules_id!r}")
        _SYSTEMS[rules_id] = record  # listed before it leaves _LAZY: never in neither
        _LAZY.pop(rules_id, None)
        return record


def _load_builtins() -> None:
    global _loaded, _loading
    if _loaded:
        return
    with _IMPORTING:
        if _loaded or _loading:  # loaded meanwhile, or this thread's own import asking
            return
        _loading = True
        try:
            importlib.import_module(BUILTIN_PACKAGE)
            _load_entry_points()
            _loaded = True  # only now may other threads skip the lock
        finally:
            _loading = False


def _load_entry_points() -> None:
    """Register every game of the ``nataterra.games`` entry-point group lazily. One that names
    a taken id or no record is skipped with a warning: an installed plug-in never stops the
    library's own games from loading, nor shadows one of them."""
    for point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            register_lazily(point.name, point.value)
        except ValueError as exc:
            warnings.warn(f"entry point {point.name} = {point.value!r}: {exc}", stacklevel=3)


def system_ids() -> tuple[str, ...]:
    """The id of every registered rule system, sorted, without importing any system."""
    _load_builtins()
    return tuple(sorted({*_SYSTEMS, *_LAZY}))


def _known() -> str:
    return ", ".join(system_ids()) or "none"


def systems() -> tuple[RuleSystem, ...]:
    """Every registered rule system, sorted by id (each imported, if it was not yet)."""
    _load_builtins()
    for rules_id in list(_LAZY):
        _import(rules_id)
    return tuple(_SYSTEMS[key] for key in sorted(_SYSTEMS))


def system(rules_id: str) -> RuleSystem:
    """The rule system with this id; ``KeyError`` naming the known ones otherwise."""
    _load_builtins()
    found = _import(rules_id)
    if found is None:
        raise KeyError(f"no rule system {rules_id!r} (known: {_known()})")
    return found


def system_for(header: Header) -> RuleSystem:
    """The rule system a log's header names, at that version.

    Raises :class:`UnsupportedVersion` (record 0) for an unknown system or another version.
    """
    _load_builtins()
    found = _import(header.rules.id)
    if found is None:
        raise UnsupportedVersion(
            f"rules {header.rules.id!r}: this library has no such rule system (known: {_known()})",
            0,
        )
    if found.rules.version != header.rules.version:
        raise UnsupportedVersion(
            f"rules {header.rules.id} v{header.rules.version}: this library runs "
            f"{found.rules.id} v{found.rules.version}",
            0,
        )
    return found


_MOVED = {
    "SEARCH": "nataterra_core.search.catalogue",
    "SEARCH_ITERATIONS": "nataterra_core.search.catalogue",
    "make_player": "nataterra_core.search.catalogue",
    "parse_player": "nataterra_core.search.catalogue",
    "search_player": "nataterra_core.search.catalogue",
}
"""Names that moved out of the registry (session 10, issue 28), kept for one release."""


def __getattr__(name: str) -> Any:
    """The deprecated aliases of :data:`_MOVED`: the moved name, with a ``DeprecationWarning``
    (imported here, on use, so the kernel never loads the search player by itself)."""
    where = _MOVED.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"nataterra_core.kernel.registry.{name} is deprecated: import it from {where}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(where), name)
