"""The params and results of the JSON-RPC methods (``docs/RPC.md``): msgspec Structs, so that
params are converted and checked at the door and results encode without a copy."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import msgspec

from nataterra_core.game import DEFAULT_GAME
from nataterra_core.kernel import Command, Outcome, Verdict
from nataterra_core.kernel.geometry import Geometry, Targets
from nataterra_core.kernel.panels import Panels
from nataterra_core.kernel.receipts import Receipt

__all__ = [
    "ActParams",
    "ActResult",
    "ApplyParams",
    "CreateParams",
    "CreateResult",
    "JoinParams",
    "JoinResult",
    "LegalResult",
    "LogParams",
    "LogResult",
    "NoParams",
    "ReceiptParam",
    "ReceiptResult",
    "ReplayParams",
    "ReplayResult",
    "SeatParams",
    "Stopped",
    "VerifyParams",
    "VerifyResult",
    "ViewParams",
    "ViewResult",
    "WaitParams",
    "WaitResult",
]


Seed = Annotated[int, msgspec.Meta(ge=0)]  # and below 2**64: msgspec bounds stop at int64
Version = Annotated[int, msgspec.Meta(ge=0)]
CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=128)]
"""A client's id for an act, so that a retry is answered, not acted on twice (kept in the
store with the answer: bounded)."""


class _Params(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Params of a method: named, or positional in field order."""


class CreateParams(_Params, frozen=True, kw_only=True):
    """``game.create``: the rule system, ``players`` or ``seats``, and the system's options.

    Without ``players`` and ``seats`` the system's smallest default seating is used; without
    ``options``, its ``default_options``. ``rules`` comes last so positional clients written
    before it existed keep working.
    """

    players: Annotated[int, msgspec.Meta(ge=1)] | None = None
    seats: list[str] | None = None
    seed: Seed | None = None
    game_id: str | None = None
    client_seed: str = ""
    options: dict[str, Any] | None = None
    rules: str = DEFAULT_GAME
    seat_seeds: bool | None = None
    """Every seat contributes to the dice (``game.join``) before the game starts; default:
    on, except for a public test ``seed`` (whose dice are public anyway)."""
    scenario: str | None = None
    """A scenario of the system (its ``scenarios`` hook) by id: its seats and options."""
    position: Any = None
    """A position to start from in the system's position format (its ``positions`` hook;
    Nataterra: a ``nataterra-position`` object or its JSON or TOML text)."""
    bots: dict[str, str] | None = None
    """Seats the server plays (seat -> a player name of the system, ``server.info``): each
    acts as soon as it may, on its seat's view; they get no token and send their own dice
    contribution."""


class JoinParams(_Params, frozen=True, kw_only=True):
    """``game.join``: a seat's contribution to the dice, sent after seeing the commitment."""

    game_id: str
    token: str
    client_seed: str


class SeatParams(_Params, frozen=True, kw_only=True):
    """A game and the caller's seat token."""

    game_id: str
    token: str


class ViewParams(_Params, frozen=True, kw_only=True):
    """A game and, optionally, a seat token (none: a spectator)."""

    game_id: str
    token: str | None = None


class ApplyParams(_Params, frozen=True, kw_only=True):
    """``game.apply``: the command as JSON, ``{"type": "<name>.v<n>", ...}``."""

    game_id: str
    token: str
    command: Any
    expected_version: Version | None = None
    command_id: CommandId | None = None


class ActParams(_Params, frozen=True, kw_only=True):
    """``game.undo`` and ``game.redo``."""

    game_id: str
    token: str
    expected_version: Version | None = None
    command_id: CommandId | None = None


class LogParams(_Params, frozen=True, kw_only=True):
    """``game.log``: a game, optionally a seat token, whether to word every record, and the
    first record wanted (``since``; ``head`` and ``log`` come only with the whole log)."""

    game_id: str
    token: str | None = None
    words: bool = False
    since: Annotated[int, msgspec.Meta(ge=0)] = 0


class ReplayParams(_Params, frozen=True, kw_only=True):
    """``log.replay``: a whole log as text, a record to stand at (default: the last), the seat
    whose view to show (default: a spectator's) and whether to word every record."""

    log: str
    at: Annotated[int, msgspec.Meta(ge=0)] | None = None
    seat: str | None = None
    words: bool = True


MAX_RECEIPTS = 4096
"""Most receipts one ``log.verify`` checks (a seat's browser page keeps one a call)."""
MAX_RECEIPT_SEAT = 256
"""Longest seat name a receipt given to ``log.verify`` may hold."""


class ReceiptParam(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's receipt for ``log.verify``, as ``game.receipt`` answers it and a receipts
    file of the browser page holds it (docs/RECEIPTS.md; other fields are ignored, as
    ``nataterra verify --receipts`` ignores them). Each field is bounded here; that the head
    and signature are lowercase hex is checked as ``--receipt``'s text is."""

    seat: Annotated[str, msgspec.Meta(max_length=MAX_RECEIPT_SEAT)]
    seq: Annotated[int, msgspec.Meta(ge=0, lt=2**53)]
    head: Annotated[str, msgspec.Meta(max_length=64)]
    signature: Annotated[str, msgspec.Meta(max_length=128)]

    def text(self) -> str:
        """``SEAT:SEQ:HEAD:SIGNATURE``, the form ``nataterra verify --receipt`` reads."""
        return f"{self.seat}:{self.seq}:{self.head}:{self.signature}"


class VerifyParams(_Params, frozen=True, kw_only=True):
    """``log.verify``: a whole log as text, the head it must end at (optional) and seats'
    receipts that must belong to it (at most :data:`MAX_RECEIPTS`; docs/LOG_FORMAT.md
    §7.5)."""

    log: str
    expect_head: str | None = None
    receipts: Annotated[list[ReceiptParam], msgspec.Meta(max_length=MAX_RECEIPTS)] = []


MAX_WAIT_SECONDS = 300.0
"""The longest ``game.wait`` a client may ask for."""


class WaitParams(_Params, frozen=True, kw_only=True):
    """``game.wait``: answer once the game is past ``version`` (a later record is stored),
    or after ``timeout`` seconds, or at once when it is over (nothing more will come). The
    token is checked when given; without it the caller waits as a spectator."""

    game_id: str
    version: Version
    token: str | None = None
    timeout: Annotated[float, msgspec.Meta(ge=0, le=MAX_WAIT_SECONDS)] = 30.0
    thinking: bool = False
    """Also answer when a bot seat starts or stops thinking (``thinking`` changes)."""


class NoParams(_Params, frozen=True, kw_only=True):
    """A method without params."""


class CreateResult(msgspec.Struct, frozen=True, kw_only=True):
    """A new game: hand each seat its token, and only its own (the server's bot seats have
    none)."""

    game_id: str
    seats: tuple[str, ...]
    tokens: dict[str, str]
    version: int
    seed_commitment: str
    acting: tuple[str, ...]
    bots: dict[str, str] = {}
    receipt_key: str | None = None
    """The game's Ed25519 public key (hex): every receipt of the game is signed by it, and
    it is in the log's header (docs/RECEIPTS.md)."""
    receipt_key_signature: str | None = None
    """The server's identity key's signature of ``receipt_key`` (``server.info`` gives
    ``server_key``): this server issued the game's key."""


class ViewResult(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's view of the position: ``view`` is the system's seat view as plain JSON
    (``None``, with ``waiting_for``, while seats have still to send their contributions);
    ``board`` the boards to draw, from the same view (the system's ``board_geometry`` hook;
    ``None`` for a system without one); ``text`` the view in the system's words."""

    version: int
    view: Any
    acting: tuple[str, ...]
    can_undo: bool
    can_redo: bool
    result: Outcome | None
    waiting_for: tuple[str, ...] = ()
    board: Geometry | None = None
    text: str | None = None
    seat: str | None = None
    """The token's seat (``None``: a spectator)."""
    bots: dict[str, str] = {}
    """The seats the server plays, with their player names."""
    thinking: tuple[str, ...] = ()
    """The bot seats whose decision the server is working on now (a client shows it)."""
    receipt_key: str | None = None
    """As ``game.create``'s (``None``: a game served before receipts)."""
    receipt_key_signature: str | None = None
    """As ``game.create``'s."""
    svg: tuple[str, ...] | None = None
    """Each board of ``board`` drawn as an SVG document by the project's renderer (the
    elements carry the ids of cells and pieces: ``data-cell``, ``data-piece``)."""
    panels: Panels | None = None
    """Each seat's panel and the stage of the game in words (the system's panels hook)."""
    recent: tuple[str, ...] = ()
    """The ids of the cells and pieces the other seats' commands since this seat's last one
    acted on (a page highlights them)."""
    rules: str = ""
    """The rule system's id (``server.info`` describes it)."""
    title: str = ""
    """The rule system's title, as ``server.info`` lists it."""


class JoinResult(msgspec.Struct, frozen=True, kw_only=True):
    """After a contribution: who has still to send one, and whether the game has started
    (then its header holds every contribution and ``version`` is the start record's)."""

    waiting_for: tuple[str, ...]
    started: bool
    version: int
    acting: tuple[str, ...]


class LegalResult(msgspec.Struct, frozen=True, kw_only=True):
    """The commands the seat may send now (empty when it may not act, or while the game
    waits for contributions: ``waiting_for``). ``words`` says each in a sentence and
    ``targets`` gives each one's place on the boards of ``game.view`` (empty targets: none;
    absent for a system without a board-geometry hook), both in the order of ``commands``."""

    version: int
    commands: Sequence[Command]
    waiting_for: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    targets: tuple[Targets, ...] | None = None


class ActResult(msgspec.Struct, frozen=True, kw_only=True):
    """What an apply, undo or redo appended, as the seat may see it."""

    version: int
    records: list[dict[str, Any]]
    acting: tuple[str, ...]
    result: Outcome | None
    undone: int | None = None
    words: list[list[str]] = msgspec.field(default_factory=list)
    """Each appended record in words, ``[summary, event sentence, ...]``, cut as ``game.log``'s
    words are (a command or event the seat may not see whole is named by its type)."""
    receipt: Receipt | None = None
    """The seat's signed view head at the record this call appended (the first, not a later
    bot's): ``{seat, seq, head, signature}`` (docs/RECEIPTS.md)."""
    lines: list[str] = msgspec.field(default_factory=list)
    """The seat's exact view lines of every record the call appended (strings to hash as
    they are): with the lines it holds, a client checks ``receipt`` with no other call."""


class WaitResult(msgspec.Struct, frozen=True, kw_only=True):
    """Where the game stands when ``game.wait`` answers: ``passed`` is whether it went past
    the version waited for (``False``: the time ran out, or the game is over there)."""

    version: int
    passed: bool
    acting: tuple[str, ...]
    result: Outcome | None
    waiting_for: tuple[str, ...] = ()
    thinking: tuple[str, ...] = ()
    """The bot seats whose decision the server is working on now."""


class LogResult(msgspec.Struct, frozen=True, kw_only=True):
    """The log as the seat may see it (see :class:`~nataterra_core.kernel.visibility.LogView`)."""

    version: int
    revealed: bool
    records: list[dict[str, Any]]
    head: str | None
    log: str | None
    words: list[list[str]] | None = None
    """Once revealed, or when asked (``words``): each record from ``since`` on in words,
    ``[summary, event sentence, ...]``, cut for the seat before the reveal."""
    lines: list[str] = msgspec.field(default_factory=list)
    """Each record from ``since`` on as the seat (or a spectator) was shown it, its exact
    canonical view line (docs/RECEIPTS.md): before the reveal and after it (then ``log`` is
    the whole log), so a seat's chain only grows."""


class ReceiptResult(msgspec.Struct, frozen=True, kw_only=True):
    """``game.receipt``: the caller's signed view head at the last record (``None``: a game
    served before receipts)."""

    version: int
    receipt: Receipt | None


class Stopped(msgspec.Struct, frozen=True, kw_only=True):
    """Where and why replaying a log stopped, as ``log.verify`` names a failure: its class
    (``replay``: the logged events do not fold; ``read``: the record cannot be read), the
    record, the auditor's reason, and ``said``: why in words, that reason after them in a
    parenthesis, as ``nataterra replay`` says it
    (:func:`~nataterra_core.kernel.failure_words.stopped_words`)."""

    failure: str
    seq: int
    reason: str
    said: str


class VerifyResult(Verdict, frozen=True, kw_only=True):
    """``log.verify``: the verdict (docs/LOG_FORMAT.md §5; ``reason`` is the auditor's) and
    ``said``: the verdict in words, that reason after them in a parenthesis, as ``nataterra
    replay`` says it (:func:`~nataterra_core.kernel.failure_words.verdict_words`)."""

    said: str


class ReplayResult(msgspec.Struct, frozen=True, kw_only=True):
    """A log replayed to record ``at``: the view there (with its ``board`` and ``text``, as
    ``game.view``'s), the record count, the seats and rules, the final result, and optionally
    every record in words.

    A log whose events do not all fold (a forged one) is replayed up to the record that
    breaks, named in ``stopped``: ``records`` counts the records before it, and ``result``
    is the outcome of the state after the last of them."""

    rules: str
    seats: tuple[str, ...]
    records: int
    at: int
    seat: str | None
    view: Any
    board: Geometry | None
    text: str
    result: Outcome | None
    words: list[list[str]] | None = None
    stopped: Stopped | None = None
    svg: tuple[str, ...] | None = None
    """As ``game.view``'s."""
    panels: Panels | None = None
    """As ``game.view``'s."""
