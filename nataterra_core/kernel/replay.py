"""Replay (fold logged events, no dice) and verification (docs/LOG_FORMAT.md).

:func:`replay` rebuilds a game's state from its events alone: no seed, no rules checks.
:func:`verify` is the auditor's check, four steps in order, stopping at the first failure:

1. *read* — every line is UTF-8 JSON of the record schema with ``seq`` equal to its index;
   bytes after the last newline are a torn record;
2. *chain* — every ``prev`` is the hash of the line before;
3. *seed* — a ``reveal`` exists and hashes to the header's commitment (else: incomplete);
4. *re-execution* — the logged commands re-run under the rules and every record
   re-encodes to exactly the logged bytes (a log that stops after its ``reveal``, without
   the ``end`` written with it, is incomplete: cut at a record boundary, as one cut before
   its reveal).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

import msgspec

from .bounded import SAFE_INTEGER, integers_outside
from .decider import Decider, Outcome, RulesRef, Setup, direct_folds, rules_options
from .errors import (
    ChainBroken,
    HeaderRefused,
    HeadMismatch,
    LogEndsEarly,
    LogError,
    ReplayDiverged,
    ReplayFailed,
    SeedMismatch,
    TornRecord,
    UnknownContent,
    UnsupportedVersion,
)
from .log import (
    CommandRecord,
    EndRecord,
    Header,
    Record,
    RecordCodec,
    RevealRecord,
    StartRecord,
    UndoRecord,
    check_chain,
    check_header,
    split_lines,
)
from .messages import Command, Event, encode
from .session import Session

if TYPE_CHECKING:
    from .receipts import Receipt

__all__ = [
    "NO_END",
    "NO_REVEAL",
    "DeciderFactory",
    "FailureClass",
    "ReadLog",
    "Verdict",
    "read_log",
    "read_log_prefix",
    "replay",
    "replay_prefix",
    "replay_states",
    "verify",
]

S = TypeVar("S")
C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)

DeciderFactory = Callable[[Header], Decider[Any, Any, Any]]
"""Given a log's header, the decider to re-run it with. Raises :class:`UnsupportedVersion`
for a rule-system version it does not have, :class:`UnknownContent` for an unknown pack."""

FailureClass = Literal[
    "torn", "read", "version", "content", "header", "chain", "seed", "replay", "head", "receipt"
]


NO_REVEAL = "no reveal record: the seed is not published yet"
"""An incomplete verdict's reason: the log stops before its ``reveal`` (a game in
progress, or a log cut at a record boundary before it): its dice cannot be checked."""

NO_END = "no end record after the reveal"
"""An incomplete verdict's reason: the log stops after its ``reveal``, without the ``end``
written with it (a log cut between the two): every record there re-executes, dice included."""


class ReadLog:
    """A log read and decoded (step 1 of verification): its lines and typed records."""

    __slots__ = ("decider", "header", "lines", "records")

    def __init__(
        self,
        header: Header,
        decider: Decider[Any, Any, Any],
        lines: Sequence[bytes],
        records: Sequence[Record],
    ) -> None:
        self.header = header
        self.decider = decider
        self.lines = tuple(lines)
        self.records = tuple(records)


def read_log(data: bytes, deciders: DeciderFactory) -> ReadLog:
    """Split, decode and type-check every record; raise :class:`LogError` naming the first bad one.

    A torn tail raises :class:`TornRecord`; call :func:`~nataterra_core.kernel.log.split_lines`
    directly to salvage the intact records before it.
    """
    split = split_lines(data)
    split.raise_if_torn()
    if not split.lines:
        raise LogError("the log is empty", 0)
    if b"\r" in data:  # JSON escapes control characters: a raw CR is only a line ending
        _check_line_endings(split.lines)
    header = check_header(split.lines[0])
    try:
        decider = deciders(header)
    except LogError:
        raise
    except Exception as exc:  # a factory that fails is still a verdict, never a traceback
        raise HeaderRefused(f"no decider for this header: {type(exc).__name__}: {exc}", 0) from exc
    if header.rules != decider.rules:
        raise UnsupportedVersion(
            f"the log is for rules {header.rules.id} v{header.rules.version}; this decider "
            f"runs {decider.rules.id} v{decider.rules.version}",
            0,
        )
    if header.content != decider.content:
        raise UnknownContent(
            f"the log names content pack {_pack_name(header)}; the decider has "
            f"{decider.content.id + ' ' + decider.content.sha256 if decider.content else 'none'}",
            0,
        )
    codec = RecordCodec(decider.command_types, decider.event_types)
    records = codec.decode_lines(split.lines)
    if not isinstance(records[0], Header):
        raise LogError("record 0 must be the header", 0)
    return ReadLog(header, decider, split.lines, records)


def read_log_prefix(data: bytes, deciders: DeciderFactory) -> tuple[ReadLog, LogError | None]:
    """As :func:`read_log`, but a record after the start record that cannot be read (a
    forged or damaged log) ends the log there instead: the records before it, and its
    :class:`LogError` (``None`` when every record reads). What a viewer can still show;
    anything :func:`read_log` raises for the header, the start record or a torn tail it
    raises too."""
    try:
        return read_log(data, deciders), None
    except TornRecord:
        raise
    except LogError as exc:
        if type(exc) is not LogError or exc.seq is None or exc.seq < 2:
            raise
        lines = split_lines(data).lines[: exc.seq]
        return read_log(b"".join(line + b"\n" for line in lines), deciders), exc


def _check_line_endings(lines: Sequence[bytes]) -> None:
    """Records end in ``\n`` alone (§4); a file converted to CRLF is named as such."""
    crlf = [seq for seq, line in enumerate(lines) if line.endswith(b"\r")]
    if not crlf:
        return
    if len(crlf) == len(lines):
        raise LogError(
            "every line ends in CRLF: the file was converted to Windows line endings (by an "
            "editor or git's autocrlf); convert it back to LF to verify it",
            0,
        )
    raise LogError("the line ends in CRLF; records end in LF alone", crlf[0])


def _first_uncanonical(log: ReadLog) -> int | None:
    """The first record whose bytes are not its canonical encoding (step 4 would catch it;
    a log in progress does not reach step 4, so its bytes are checked here)."""
    for seq, (line, record) in enumerate(zip(log.lines, log.records, strict=True)):
        if encode(record) != line:
            return seq
    return None


def _pack_name(header: Header) -> str:
    content = header.content
    return "none" if content is None else f"{content.id} {content.sha256}"


def replay_states(
    decider: Decider[S, C, E], header: Header, records: Sequence[Record]
) -> Iterator[tuple[int, S]]:
    """Yield ``(seq, state after that record)`` by folding events; honours ``undo``.

    Uses no dice and checks no rules: it is what the log says happened. A record whose
    events cannot be folded (a forged log: an event naming a unit that is not there), or an
    ``undo`` that does not fit, raises :class:`ReplayFailed` naming it, after the states
    before it were yielded.
    """
    state = _initial(decider, header)
    yield 0, state
    fold = _Fold(decider, state, records)
    for record in records[1:]:
        yield record.seq, fold.record(record)


def replay_prefix(
    decider: Decider[S, C, E], header: Header, records: Sequence[Record]
) -> tuple[list[S], ReplayFailed | None]:
    """The state after each record, up to the first that cannot be folded, and that
    record's :class:`ReplayFailed` (``None`` when every record folds): what a viewer of a
    forged log can still be shown. State ``i`` of the list is the state after record ``i``.
    """
    states: list[S] = []
    try:
        for _, state in replay_states(decider, header, records):
            states.append(state)
    except ReplayFailed as failure:
        return states, failure
    return states, None


def replay(decider: Decider[S, C, E], header: Header, records: Sequence[Record]) -> S:
    """The state after the last record, by folding events (no dice, no rules checks).

    A log without ``undo`` records (most logs) is one loop over its events, with no call
    per record; one with them goes through :class:`_Fold`, which keeps the states to go
    back to. An event with a direct fold (:func:`~.decider.direct_folds`) is folded by it.
    """
    fold = _Fold(decider, _initial(decider, header), records)
    state = fold.state
    if fold.undone:
        for record in records[1:]:
            state = fold.record(record)
        return state
    evolve, folds = fold.evolve, fold.folds
    try:
        for record in records:
            if isinstance(record, _WITH_EVENTS):
                for event in record.events:
                    state = folds.get(type(event), evolve)(state, event)
    except Exception:  # a forged log: fold again record by record to name where and why
        for _ in replay_states(decider, header, records):
            pass
        raise
    return state


_WITH_EVENTS = (CommandRecord, StartRecord)
"""The records that carry events (a tuple: isinstance matches an exact type first, with no
call through a union's or a metaclass's check)."""


def _initial(decider: Decider[S, C, E], header: Header) -> S:
    return decider.initial_state(
        Setup(game_id=header.game_id, seats=header.seats, options=rules_options(header.options))
    )


class _Fold(Generic[S]):
    """Folds records one after another: the state, and the states an ``undo`` may go back to.

    A command record costs a type check and its folds; the decider's ``evolve`` is looked
    up once per log, not once per event, and no generator runs between records. The state
    before a command is kept only when a later record undoes it (the log is read whole
    first): keeping every state alive until the end made the garbage collector walk them.
    """

    __slots__ = ("done", "evolve", "folds", "kept", "state", "undone")

    def __init__(self, decider: Decider[S, Any, Any], state: S, records: Sequence[Record]):
        self.evolve = decider.evolve
        self.folds = direct_folds(decider)
        self.state = state
        self.undone = {r.undoes for r in records if isinstance(r, UndoRecord)}
        self.done: list[int] = []  # the command records not undone, oldest first
        self.kept: dict[int, S] = {}  # the state before each of those that is undone later

    def record(self, record: Record) -> S:
        """The state after ``record``; :class:`ReplayFailed` naming it if it does not fold."""
        try:
            if isinstance(record, CommandRecord):  # an exact type: no metaclass call
                if self.undone:
                    self.done.append(record.seq)
                    if record.seq in self.undone:
                        self.kept[record.seq] = self.state
                self.state = self.events(record.events)
            elif isinstance(record, StartRecord):  # the start record is never undone
                self.state = self.events(record.events)
            elif isinstance(record, UndoRecord):
                if not self.done or self.done[-1] != record.undoes:
                    raise ReplayFailed(
                        f"undo names record {record.undoes}, which cannot be undone", record.seq
                    )
                self.done.pop()
                self.state = self.kept.pop(record.undoes)
        except ReplayFailed:
            raise
        except Exception as exc:  # the folds trust their events; a forged one breaks them
            raise self.failed(record, exc) from exc
        return self.state

    def failed(self, record: Record, exc: Exception) -> ReplayFailed:
        """Why ``record`` does not fold from :attr:`state` (the state before it), naming
        the first of its events that fails."""
        state = self.state
        events = record.events if isinstance(record, _WITH_EVENTS) else ()
        for index, event in enumerate(events):
            try:
                state = self.folds.get(type(event), self.evolve)(state, event)
            except Exception as error:  # the same failure, now with its event in hand
                where = f"event {index} ({event.__struct_config__.tag})"
                return ReplayFailed(
                    f"{where} cannot be folded: {_named(error)}", record.seq, event=index
                )
        return ReplayFailed(f"the record cannot be folded: {_named(exc)}", record.seq)

    def events(self, events: Sequence[Any]) -> S:
        """The state after folding ``events``."""
        state, evolve, folds = self.state, self.evolve, self.folds
        for event in events:
            state = folds.get(type(event), evolve)(state, event)
        return state


_LONG_NUMBER = re.compile(rb"[:,\[]-?[0-9]{16}")
"""A number of 16 digits or more: the only ones that can be ``|n| >= 2**53`` (16 digits).
Searched over a whole log at once, in C; a string holding such digits after one of these
characters is told apart by decoding its line."""


def _unsafe_integer(data: bytes) -> LogError | None:
    """The first record holding an integer with ``|n| >= 2**53`` (LOG_FORMAT §1: integers
    are exact in every JSON reader), as a read error naming it and the value's path."""
    for match in _LONG_NUMBER.finditer(data):
        seq = data.count(b"\n", 0, match.start())
        line = data[data.rfind(b"\n", 0, match.start()) + 1 : data.find(b"\n", match.start())]
        for path, value in integers_outside(msgspec.json.decode(line), SAFE_INTEGER):
            reason = f"{path} is {value}, outside the integers a log may hold (|n| < 2**53)"
            return LogError(reason, seq)
    return None


def _named(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}"


class Verdict(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of :func:`verify`: one line of a tournament's report.

    ``status`` is ``valid``, ``incomplete`` (nothing is wrong in the records there, but the
    log stops before its end: before the reveal, so the dice cannot be checked yet,
    :data:`NO_REVEAL`; or between the reveal and the end record, :data:`NO_END`) or
    ``invalid``; for the last two, ``seq`` and ``reason`` say where and why (``seq``: the
    first record missing, for an incomplete log) and ``failure`` names an invalid log's
    class. ``rules`` names the rule system and version the header gives (``None``
    when no header could be read), ``result`` is the logged result of a valid log.
    """

    status: Literal["valid", "incomplete", "invalid"]
    failure: FailureClass | None = None
    seq: int | None = None
    reason: str = ""
    records: int = 0
    head: str | None = None
    game_id: str | None = None
    seats: tuple[str, ...] = ()
    rules: RulesRef | None = None
    result: Outcome | None = None
    checked: int = 0
    """How many of the receipts given were checked and belong to the log (on a valid log
    all; on an incomplete one those whose record is there)."""
    unchecked: tuple[str, ...] = ()
    """The receipts given whose record an incomplete log does not hold yet, each named
    (``seat 'red''s receipt at record 57``): signed by the game's key for one of its seats,
    but their head cannot be checked against records that are not there."""

    @property
    def valid(self) -> bool:
        """True when every check passed."""
        return self.status == "valid"

    def __bool__(self) -> bool:
        """A verdict is truthy exactly when the log is valid."""
        return self.status == "valid"


def verify(
    data: bytes,
    deciders: DeciderFactory,
    *,
    expect_head: str | None = None,
    receipts: Sequence[Receipt] = (),
) -> Verdict:
    """Verify a whole log; never raises for a bad log, returns a :class:`Verdict` instead.

    ``receipts`` (docs/RECEIPTS.md) are checked once the log itself is valid or incomplete
    (nothing wrong in the records there): each must be signed by the header's
    ``receipt_key`` and carry its seat's view head of this log at its record
    (:func:`~.receipts.check_receipt`). The first that does not is the verdict's failure
    (``receipt``), with the receipt's record and the reason. On an incomplete log a receipt
    whose record is not there yet is checked for its seat and signature only and named in
    :attr:`Verdict.unchecked`; :attr:`Verdict.checked` counts the others.
    """
    split = split_lines(data)
    base: dict[str, Any] = {"records": len(split.lines), "head": split.head}
    try:
        log = read_log(data, deciders)
    except TornRecord as exc:
        return Verdict(status="invalid", failure="torn", seq=exc.seq, reason=exc.reason, **base)
    except UnsupportedVersion as exc:
        return Verdict(status="invalid", failure="version", seq=exc.seq, reason=exc.reason, **base)
    except UnknownContent as exc:
        return Verdict(status="invalid", failure="content", seq=exc.seq, reason=exc.reason, **base)
    except HeaderRefused as exc:
        return Verdict(status="invalid", failure="header", seq=exc.seq, reason=exc.reason, **base)
    except LogError as exc:
        return Verdict(status="invalid", failure="read", seq=exc.seq, reason=exc.reason, **base)
    base.update(game_id=log.header.game_id, seats=log.header.seats, rules=log.header.rules)
    unsafe = _unsafe_integer(data)
    if unsafe is not None:
        return Verdict(
            status="invalid", failure="read", seq=unsafe.seq, reason=unsafe.reason, **base
        )

    try:
        check_chain(log.lines, expect_head)
    except ChainBroken as exc:
        failure: FailureClass = "head" if isinstance(exc, HeadMismatch) else "chain"
        return Verdict(status="invalid", failure=failure, seq=exc.seq, reason=exc.reason, **base)

    reveal = next((r for r in log.records if isinstance(r, RevealRecord)), None)
    end = next((r for r in log.records if isinstance(r, EndRecord)), None)
    if reveal is None and end is not None:
        reason = "an end record with no reveal before it (the seed must be revealed first)"
        return Verdict(status="invalid", failure="replay", seq=end.seq, reason=reason, **base)
    if reveal is None:
        edited = _first_uncanonical(log)
        if edited is not None:
            reason = "the record is not in the log's canonical encoding (it was edited)"
            return Verdict(status="invalid", failure="read", seq=edited, reason=reason, **base)
        return _incomplete(log, receipts, len(log.lines), NO_REVEAL, base)
    seed = bytes.fromhex(reveal.server_seed)
    if hashlib.sha256(seed).hexdigest() != log.header.seed_commitment:
        error = SeedMismatch("the revealed seed does not match seed_commitment", reveal.seq)
        return Verdict(status="invalid", failure="seed", seq=error.seq, reason=error.reason, **base)

    try:
        Session.from_log(log.decider, log.header, log.records, log.lines, seed)
    except LogEndsEarly:  # every record there re-executed: only the end is missing
        return _incomplete(log, receipts, len(log.lines), NO_END, base)
    except ReplayDiverged as exc:
        return Verdict(status="invalid", failure="replay", seq=exc.seq, reason=exc.reason, **base)
    except Exception as exc:  # the rules could not even start from this header
        reason = f"re-execution failed: {type(exc).__name__}: {exc}"
        return Verdict(status="invalid", failure="replay", seq=0, reason=reason, **base)

    last = log.records[-1]
    result = last.result if isinstance(last, EndRecord) else None
    if receipts:
        refused = _refused_receipt(log, receipts)
        if refused is not None:
            seq, reason = refused
            return Verdict(status="invalid", failure="receipt", seq=seq, reason=reason, **base)
        base["reason"] = f"{len(receipts)} receipt{'s' if len(receipts) > 1 else ''} checked"
    return Verdict(status="valid", result=result, checked=len(receipts), **base)


def _incomplete(
    log: ReadLog, receipts: Sequence[Receipt], seq: int, reason: str, base: dict[str, Any]
) -> Verdict:
    """The verdict on a log that stops before its end at record ``seq`` (every record there
    checked as far as it can be), its ``receipts`` checked as far as the log goes: each whose
    record is there against the records (a receipt's view head needs no seed), each past
    the end for its seat and signature; the first that fails makes the log ``invalid``
    (``receipt``), the others past the end are named in :attr:`Verdict.unchecked`."""
    present = [receipt for receipt in receipts if receipt.seq < len(log.lines)]
    past = [receipt for receipt in receipts if receipt.seq >= len(log.lines)]
    refused = _refused_receipt(log, present) or _refused_receipt(log, past, signed_only=True)
    if refused is not None:
        failed_at, why = refused
        return Verdict(status="invalid", failure="receipt", seq=failed_at, reason=why, **base)
    unchecked = tuple(f"{_whose(receipt)} receipt at record {receipt.seq}" for receipt in past)
    return Verdict(
        status="incomplete",
        seq=seq,
        reason=reason,
        checked=len(present),
        unchecked=unchecked,
        **base,
    )


def _refused_receipt(
    log: ReadLog, receipts: Sequence[Receipt], *, signed_only: bool = False
) -> tuple[int | None, str] | None:
    """The record and reason of the first receipt that does not belong to ``log``
    (``signed_only``: checked for its seat and signature alone, its record not there)."""
    from .receipts import ReceiptRefused, check_receipt, check_signed  # cryptography: when asked

    for receipt in receipts:
        try:
            if signed_only:
                check_signed(log.header, receipt)
            else:
                check_receipt(log.header, log.lines, log.decider, receipt)
        except ReceiptRefused as exc:
            seq = receipt.seq if receipt.seq < len(log.lines) else None
            return seq, f"{_whose(receipt)} receipt at record {receipt.seq}: {exc.reason}"
    return None


def _whose(receipt: Receipt) -> str:
    """``the spectator's`` or ``seat 'red''s``."""
    return "the spectator's" if not receipt.seat else f"seat {receipt.seat!r}'s"
