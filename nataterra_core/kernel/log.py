"""The append-only, hash-chained JSON Lines log (docs/LOG_FORMAT.md, binding).

Every line is one record ending in ``\\n``. Each record carries ``seq`` (its line index) and
``prev``: the SHA-256 of the previous line's bytes without the newline. Record 0 is the
header, record 1 the ``start`` record; then ``command`` and ``undo`` records; a finished
game ends with ``reveal`` and ``end``.

This module reads and writes lines and checks the chain. It knows no game: the typed
decoder for commands and events is built from a decider's classes by :class:`RecordCodec`.
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Iterable, Sequence
from functools import cache
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import Annotated, Any, BinaryIO, Generic, TypeVar, Union

import msgspec

from .bounded import MAX_DEPTH, nesting_depth
from .decider import ContentRef, Outcome, RulesRef
from .dice import DICE_FORMAT, GAME_ID_PATTERN
from .errors import ChainBroken, HeadMismatch, LogError, TornRecord, UnsupportedVersion
from .messages import Command, Event, Wire

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "GENESIS",
    "RECEIPTS_FORMAT_VERSION",
    "SUPPORTED_VERSIONS",
    "CommandRecord",
    "EndRecord",
    "Header",
    "LogLines",
    "LogWriter",
    "Record",
    "RecordCodec",
    "RevealRecord",
    "StartRecord",
    "UndoRecord",
    "check_chain",
    "check_header",
    "line_hash",
    "receipt_record",
    "split_lines",
]

FORMAT_NAME = "nataterra-log"
FORMAT_VERSION = 1
"""The version of a header without ``receipt_key``: such a log keeps its bytes."""
RECEIPTS_FORMAT_VERSION = 2
"""The version of a header with ``receipt_key`` (a game served with receipts, §4a)."""
SUPPORTED_VERSIONS = (FORMAT_VERSION, RECEIPTS_FORMAT_VERSION)
GENESIS = "0" * 64
"""The header's ``prev``."""

C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)

Seq = Annotated[int, msgspec.Meta(ge=0, lt=2**53)]
_HEX64 = r"\A[0-9a-f]{64}\Z"
Hex64 = Annotated[str, msgspec.Meta(pattern=_HEX64)]
Chars64 = Annotated[str, msgspec.Meta(min_length=64, max_length=64)]
"""A record's ``prev`` as decoded: 64 characters, their being lowercase hex checked by
:class:`RecordCodec` for a whole log at once (a pattern per record cost a third of
decoding it: Python's regular expressions run per character)."""
GameId = Annotated[str, msgspec.Meta(pattern=GAME_ID_PATTERN)]
SafeInt = Annotated[int, msgspec.Meta(ge=-(2**53) + 1, le=2**53 - 1)]
OptionValue = str | bool | SafeInt | None | list[str]
"""What a header option may hold: no floats, integers exact in every JSON reader (§4)."""


class Record(Wire, tag_field="kind", frozen=True, kw_only=True):
    """Fields every record starts with."""

    seq: Seq
    prev: Chars64  # lowercase hex (Hex64): see RecordCodec


class Header(Record, tag="header", frozen=True, kw_only=True):
    """Record 0: what an auditor needs to re-run the game (and nothing secret)."""

    # No defaults here: omit_defaults would drop them, and an auditor needs every field.
    format: str
    format_version: int
    dice: str
    hash: str
    rules: RulesRef
    content: ContentRef | None
    game_id: GameId
    seats: tuple[str, ...]
    options: dict[str, OptionValue]
    seed_commitment: Hex64
    client_seed: str
    # The game's Ed25519 public key (hex) in a game served with receipts (format_version 2);
    # left out, the header is version 1's byte for byte.
    receipt_key: Hex64 | None = None


class StartRecord(Record, Generic[C, E], tag="start", frozen=True, kw_only=True):
    """Record 1: the system start command and the set-up events (all set-up randomness)."""

    command: C
    events: tuple[E, ...] = ()


class CommandRecord(Record, Generic[C, E], tag="command", frozen=True, kw_only=True):
    """An accepted command, the seat that sent it and the events it produced."""

    seat: str
    command: C
    events: tuple[E, ...] = ()


class UndoRecord(Record, tag="undo", frozen=True, kw_only=True):
    """``seat`` took back the command of record ``undoes``."""

    seat: str
    undoes: Seq


class RevealRecord(Record, tag="reveal", frozen=True, kw_only=True):
    """The server seed, hex, published when the game is over."""

    server_seed: Hex64


class EndRecord(Record, tag="end", frozen=True, kw_only=True):
    """The result of the game."""

    result: Outcome


def line_hash(line: bytes) -> str:
    """Lowercase hex SHA-256 of a line's bytes (without its newline)."""
    return hashlib.sha256(line).hexdigest()


class LogLines:
    """A log split into complete lines (newline stripped) and an optional torn tail."""

    __slots__ = ("lines", "torn")

    def __init__(self, lines: Iterable[bytes], torn: bytes | None) -> None:
        self.lines = tuple(lines)
        self.torn = torn

    @property
    def head(self) -> str | None:
        """SHA-256 of the last complete line, or ``None`` for an empty log."""
        return line_hash(self.lines[-1]) if self.lines else None

    def raise_if_torn(self) -> None:
        """Raise :class:`TornRecord` if bytes follow the last newline."""
        if self.torn is not None:
            raise TornRecord(
                f"torn record: {len(self.torn)} bytes after the last newline "
                f"(records 0..{len(self.lines) - 1} are intact)",
                len(self.lines),
            )


def split_lines(data: bytes) -> LogLines:
    """Split raw log bytes; bytes after the last ``\\n`` become the torn tail.

    ``readlines`` finds each newline with ``memchr``; ``bytes.split`` tests every byte in a
    loop of its own, which cost about twice the instructions for a whole log (cachegrind).
    """
    lines = io.BytesIO(data).readlines()
    torn = lines.pop() if lines and not lines[-1].endswith(b"\n") else None
    return LogLines(map(_without_newline, lines), torn)


_without_newline = itemgetter(slice(0, -1))


_HEADER_DECODER = msgspec.json.Decoder(Header)


class _Format(msgspec.Struct):
    """The two fields a reader checks before the strict schema (any other field ignored)."""

    format: Any = None
    format_version: Any = None


_FORMAT_DECODER = msgspec.json.Decoder(_Format)


def check_header(line: bytes) -> Header:
    """Decode record 0 with the kernel's own schema (no game needed) and check its format.

    ``format`` and ``format_version`` are read first, so a log of an unknown format or
    version is refused as unsupported (:class:`UnsupportedVersion`), never as unreadable; a
    header without them (or with values of other types) is unreadable.
    """
    try:
        found = _FORMAT_DECODER.decode(line)
    except msgspec.DecodeError as exc:
        raise LogError(f"unreadable header: {exc}", 0) from exc
    named = isinstance(found.format, str) and type(found.format_version) is int
    if named and (found.format != FORMAT_NAME or found.format_version not in SUPPORTED_VERSIONS):
        raise UnsupportedVersion(
            f"log format {found.format!r} v{found.format_version} is not supported "
            f"(this library reads {FORMAT_NAME!r} v{FORMAT_VERSION} and "
            f"v{RECEIPTS_FORMAT_VERSION})",
            0,
        )
    try:
        header = _HEADER_DECODER.decode(line)
    except msgspec.DecodeError as exc:
        raise LogError(f"unreadable header: {exc}", 0) from exc
    if header.seq != 0 or header.prev != GENESIS:
        raise LogError("the header must have seq 0 and prev of 64 zeros", 0)
    expected = FORMAT_VERSION if header.receipt_key is None else RECEIPTS_FORMAT_VERSION
    if header.format_version != expected:
        has = "no receipt_key" if header.receipt_key is None else "a receipt_key"
        raise LogError(f"a header with {has} has format_version {expected}", 0)
    if header.dice != DICE_FORMAT or header.hash != "sha256":
        raise UnsupportedVersion(
            f"dice {header.dice!r} / hash {header.hash!r} not supported "
            f"(this library uses {DICE_FORMAT!r} / 'sha256')",
            0,
        )
    return header


class RecordCodec(Generic[C, E]):
    """Typed decoding of every record kind for one rule system's commands and events.

    A record's ``prev`` must be 64 lowercase hex digits (``Hex64``); the schema checks the
    length and the codec the digits, with the same message a pattern in the schema gave.
    """

    def __init__(self, command_types: Sequence[type[C]], event_types: Sequence[type[E]]) -> None:
        self._decoder = _record_decoder(tuple(command_types), tuple(event_types))

    def decode(self, line: bytes, seq: int) -> Record:
        """Decode the line at index ``seq``; raise :class:`LogError` naming it if it is bad.

        A line nested deeper than :data:`~.bounded.MAX_DEPTH` is refused for that, before
        the decoder sees it: skipping an unknown key's value recurses once per level, so
        the decoder's own refusal would depend on how deep the caller's stack already was.
        """
        if nesting_depth(line) > MAX_DEPTH:
            raise LogError(f"unreadable record: nested deeper than {MAX_DEPTH} levels", seq)
        try:
            record: Record = self._decoder.decode(line)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise LogError(f"unreadable record: {exc}", seq) from exc
        _check_record(record, seq)
        return record

    def decode_lines(self, lines: Sequence[bytes]) -> list[Record]:
        """Decode every line (line ``i`` has seq ``i``), naming the first bad one as
        :meth:`decode` does; one tight loop for a whole log, one digit check for every
        ``prev``. A line of a log that decodes has the records' schema, which nests far
        less than the cap (unknown keys are refused), so depth is measured only when a line
        fails, on the way to naming it."""
        decode = self._decoder.decode
        try:
            records: list[Record] = [decode(line) for line in lines]
        except (msgspec.DecodeError, RecursionError):
            return [self.decode(line, seq) for seq, line in enumerate(lines)]
        # Both checks in C, not a Python step per record.
        in_order = list(map(_SEQ, records)) == list(range(len(records)))
        if not in_order or not _lower_hex("".join(map(_PREV, records))):
            for seq, record in enumerate(records):
                _check_record(record, seq)
        return records


_SEQ = attrgetter("seq")
_PREV = attrgetter("prev")
_HEX_DIGITS = b"0123456789abcdef"
_NOT_HEX64 = f"unreadable record: Expected `str` matching regex {_HEX64!r} - at `$.prev`"
"""The message msgspec gave when ``prev`` was a pattern of the schema (kept word for word)."""


def _lower_hex(text: str) -> bool:
    """Whether ``text`` is lowercase hex digits only (one pass in C over a whole log's)."""
    return not text.encode().translate(None, _HEX_DIGITS)


def _check_record(record: Record, seq: int) -> None:
    if not _lower_hex(record.prev):
        raise LogError(_NOT_HEX64, seq)
    if record.seq != seq:
        raise LogError(f"seq is {record.seq}, expected {seq} (its line index)", seq)


@cache
def _record_decoder(
    command_types: tuple[type[Command], ...], event_types: tuple[type[Event], ...]
) -> msgspec.json.Decoder[Any]:
    # Built once per rule system: a per-call typed decode costs ~30x more (docs/ARCHITECTURE.md §2).
    commands: Any = Union[command_types]  # noqa: UP007 - a runtime union of classes
    events: Any = Union[event_types]  # noqa: UP007
    record_union: Any = Union[  # noqa: UP007
        Header,
        StartRecord[commands, events],
        CommandRecord[commands, events],
        UndoRecord,
        RevealRecord,
        EndRecord,
    ]
    return msgspec.json.Decoder(record_union)


def check_chain(lines: Sequence[bytes], expect_head: str | None = None) -> None:
    """Check every ``prev`` link; raise :class:`ChainBroken` naming the altered record.

    A mismatch between line ``s + 1``'s ``prev`` and the hash of line ``s`` means line ``s``
    was altered (``s + 1`` is the witness), unless line ``s + 1``'s own hash also fails to
    match line ``s + 2``'s ``prev``: then the single alteration that explains both is in
    line ``s + 1`` (its ``prev`` field). A published head acts as the witness of the last
    line. Lines must already have been read (step 1).
    """
    prevs = [_prev_of(line) for line in lines[1:]]
    if expect_head is not None:
        prevs.append(expect_head.lower())
    hashes = [line_hash(line) for line in lines]
    broken = [s for s, prev in enumerate(prevs) if prev != hashes[s]]
    if not broken:
        return
    s = broken[0]
    altered = s + 1 if s + 1 in broken else s
    witness = altered + 1
    error = HeadMismatch if witness == len(lines) else ChainBroken
    against = "the expected head" if error is HeadMismatch else f"record {witness}'s prev"
    if altered == s:
        raise error(f"its hash does not match {against}", altered)
    raise error(
        f"its prev does not match record {s} and its hash does not match {against}", altered
    )


class _PrevOnly(msgspec.Struct):
    prev: str


_PREV_DECODER = msgspec.json.Decoder(_PrevOnly)


def _prev_of(line: bytes) -> str:
    return _PREV_DECODER.decode(line).prev


class LogWriter:
    """Appends encoded lines to a file, flushing each so a crash tears at most one record."""

    def __init__(self, path: str | os.PathLike[str], *, fsync: bool = False) -> None:
        self.path = Path(path)
        self._file: BinaryIO = self.path.open("ab")
        self._fsync = fsync

    def write(self, line: bytes) -> None:
        """Append one line (without its newline)."""
        self._file.write(line + b"\n")
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())

    def write_all(self, lines: Iterable[bytes]) -> None:
        """Append several lines."""
        for line in lines:
            self.write(line)

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def receipt_record(data: bytes, receipt: str) -> int | None:
    """The seq of the line whose SHA-256 is ``receipt`` (a head a player was given after a
    command), or ``None`` when no line of ``data`` has it.

    With a valid chain, a receipt found at seq ``s`` proves records ``0..s`` are the ones the
    player saw acknowledged (``docs/TOURNAMENTS.md`` §2).
    """
    wanted = receipt.lower()
    for seq, line in enumerate(split_lines(data).lines):
        if line_hash(line) == wanted:
            return seq
    return None
