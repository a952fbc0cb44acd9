"""A live game: state plus log, with ``apply``, ``undo`` and ``redo`` (docs/LOG_FORMAT.md).

A :class:`Session` is the only place where the pure rules meet the seed. For each command it
builds the dice stream at the counter the state holds, asks the decider for events, folds
them, and appends one record. A rejected command raises and changes nothing.

Undo (docs/LOG_FORMAT.md): only the seat that issued the last command, only within the current
turn, never across a command whose events revealed randomness, never in tournament mode.
The session keeps a stack of the commands that may still be undone; any command that can
never be undone (it used dice, revealed a card or ended the turn) empties the stack, since
nothing beneath it can be reached again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar, cast

import msgspec

from .chance import RandomEvent
from .decider import (
    TOURNAMENT,
    Decided,
    Decider,
    Decision,
    Outcome,
    Setup,
    check_kernel_options,
    direct_folds,
    rules_options,
)
from .dice import DICE_FORMAT, DiceStream, check_game_id, seed_commitment
from .divergence import divergence
from .errors import (
    CommandRejected,
    GameOver,
    LogEndsEarly,
    MalformedCommand,
    NotYourTurn,
    ReplayDiverged,
    UndoRefused,
)
from .log import (
    FORMAT_NAME,
    FORMAT_VERSION,
    GENESIS,
    RECEIPTS_FORMAT_VERSION,
    CommandRecord,
    EndRecord,
    Header,
    OptionValue,
    Record,
    RecordCodec,
    RevealRecord,
    StartRecord,
    UndoRecord,
    line_hash,
)
from .messages import Command, Event, encode
from .refusals import refusal_for, rule_only

__all__ = ["LineSink", "Session", "well_typed"]

S = TypeVar("S")
C = TypeVar("C", bound=Command)
E = TypeVar("E", bound=Event)

LineSink = Callable[[bytes], None]
"""Receives each line (without newline) as it is appended, e.g. ``LogWriter.write``."""

TOURNAMENT_OPTION = TOURNAMENT
"""The kernel option that turns undo off (:data:`~.decider.TOURNAMENT`)."""


class _Done(Generic[S, C, E]):
    """A command record that may still be undone, with the state before it."""

    __slots__ = ("before", "command", "events", "seat", "seq")

    def __init__(self, seq: int, seat: str, command: C, events: tuple[E, ...], before: S):
        self.seq = seq
        self.seat = seat
        self.command = command
        self.events = events
        self.before = before


class Session(Generic[S, C, E]):
    """One game in progress. Build it with :meth:`new` or :meth:`from_log`."""

    def __init__(
        self,
        decider: Decider[S, C, E],
        header: Header,
        server_seed: bytes,
        sink: LineSink | None = None,
    ) -> None:
        if seed_commitment(server_seed) != header.seed_commitment:
            raise ValueError("server_seed does not match the header's seed_commitment")
        self.decider = decider
        self.header = header
        self._seed = server_seed
        self._sink = sink
        self._lines: list[bytes] = []
        self._command_types = tuple(decider.command_types)
        # Type sets: ``isinstance`` against a msgspec class goes through its metaclass's
        # ``__instancecheck__``, ~0.3 us a class; a set lookup is one hash.
        self._command_set = frozenset(self._command_types)
        self._event_set = frozenset(decider.event_types)
        self._drawing = frozenset(t for t in self._event_set if issubclass(t, RandomEvent))
        self._folds = direct_folds(decider)
        self._tournament = bool(header.options.get(TOURNAMENT_OPTION, False))
        self._undoable: list[_Done[S, C, E]] = []
        self._redoable: list[_Done[S, C, E]] = []
        self._undo_barrier = "nothing to undo"
        self._closed = False
        self._decision: tuple[S, Decision[C]] | None = None
        self.setup = Setup(
            game_id=header.game_id, seats=header.seats, options=rules_options(header.options)
        )
        self.state: S = decider.initial_state(self.setup)
        self._append(header)

    # -- construction ---------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        decider: Decider[S, C, E],
        *,
        seats: Sequence[str],
        server_seed: bytes,
        game_id: str,
        client_seed: str = "",
        options: Mapping[str, Any] | None = None,
        sink: LineSink | None = None,
        receipt_key: str | None = None,
    ) -> Session[S, C, E]:
        """Start a game: write the header and the ``start`` record.

        ``receipt_key`` (the game's Ed25519 public key, 64 lowercase hex digits) goes into
        the header of a game served with receipts (docs/RECEIPTS.md), which makes it a
        ``format_version`` 2 log; without it the header is version 1's.
        """
        check_game_id(game_id)
        if not seats or len(set(seats)) != len(seats):
            raise ValueError(f"seats must be distinct and not empty, got {list(seats)}")
        try:  # §4: header values are JSON scalars, no floats, integers below 2**53
            opts = msgspec.convert(dict(options or {}), dict[str, OptionValue])
        except msgspec.ValidationError as exc:
            raise ValueError(f"bad option: {exc}") from exc
        check_kernel_options(opts)
        decider.validate_options(rules_options(opts))
        if receipt_key is not None and not _is_hex64(receipt_key):
            raise ValueError("receipt_key must be 64 lowercase hex digits (an Ed25519 key)")
        header = Header(
            seq=0,
            prev=GENESIS,
            format=FORMAT_NAME,
            format_version=FORMAT_VERSION if receipt_key is None else RECEIPTS_FORMAT_VERSION,
            dice=DICE_FORMAT,
            hash="sha256",
            rules=decider.rules,
            content=decider.content,
            game_id=game_id,
            seats=tuple(seats),
            options=opts,
            seed_commitment=seed_commitment(server_seed),
            client_seed=client_seed,
            receipt_key=receipt_key,
        )
        session = cls(decider, header, server_seed, sink)
        session._start()
        return session

    @classmethod
    def from_log(
        cls,
        decider: Decider[S, C, E],
        header: Header,
        records: Sequence[Record],
        lines: Sequence[bytes],
        server_seed: bytes,
        sink: LineSink | None = None,
        *,
        finish: bool = False,
    ) -> Session[S, C, E]:
        """Re-execute a log's commands and compare every re-encoded record with its bytes.

        Raises :class:`ReplayDiverged` naming the first record that differs or whose
        command is now rejected, :class:`LogEndsEarly` when the log stops after its
        ``reveal`` without the ``end`` written with it. Used by verification and to resume
        a saved game.

        With ``finish`` (resuming a game), a log that stops after its ``reveal`` (a crash
        between the two appends of :meth:`close`) is no error: the session is closed, and
        its :attr:`lines` hold the ``end`` record the log lacks, written by :meth:`close`
        as a game that never stopped writes it (the same bytes). The caller appends
        ``session.lines[len(lines):]`` to the log, which then verifies as complete.
        """
        session = cls(decider, header, server_seed, sink)
        # Before the reveal a difference in a hidden field is named, its values not shown.
        revealed = any(isinstance(record, RevealRecord) for record in records)
        session._expect(0, lines, revealed)
        if len(records) < 2 or not isinstance(records[1], StartRecord):
            raise ReplayDiverged(1, "$.kind", _kind(records, 1), "start", "record 1 must be start")
        session._start()
        session._expect(1, lines, revealed)
        seq = 2
        try:
            while seq < len(records):
                seq = session._reexecute(records[seq], seq, lines, revealed)
        except LogEndsEarly:
            # Raised only once the log's last record, its reveal, matched: the session
            # closed, its end record is the one line it holds beyond the log's.
            if not finish:
                raise
        return session

    def extend(self, lines: Sequence[bytes]) -> None:
        """Re-execute the records another writer appended to this game's log after the
        session's own lines (``lines``: the log's lines from ``len(self.lines)`` on),
        comparing each re-encoded record with its bytes as :meth:`from_log` does; a copy of
        a game catches up so without reading its whole log again.

        Raises :class:`LogError` (a line that does not decode) or :class:`ReplayDiverged`
        naming the first record that differs; the session then holds the records before it
        and should be dropped. The records re-executed go to the sink like any other line
        (detach it first when they are stored already).
        """
        start = len(self._lines)
        codec = RecordCodec(self._command_types, self.decider.event_types)
        records = [codec.decode(line, start + offset) for offset, line in enumerate(lines)]
        logged = [*self._lines, *lines]
        revealed = any(isinstance(record, RevealRecord) for record in records)
        seq = start
        while seq < len(logged):
            seq = self._reexecute(records[seq - start], seq, logged, revealed)

    def _reexecute(self, record: Record, seq: int, lines: Sequence[bytes], revealed: bool) -> int:
        """Re-execute logged record ``seq`` and compare what it writes with ``lines``; the
        seq of the next record to re-execute."""
        try:
            if isinstance(record, CommandRecord):
                self.apply(record.seat, record.command)
            elif isinstance(record, UndoRecord):
                self.undo(record.seat)
            elif isinstance(record, RevealRecord):
                self.close()
            else:
                raise ReplayDiverged(
                    seq, "$.kind", _kind([record], 0), "command", "unexpected record kind"
                )
        except CommandRejected as exc:
            raise ReplayDiverged(
                seq, "$", "accepted", "rejected", _rejected_now(exc, record, revealed)
            ) from exc
        except ReplayDiverged:
            raise
        except Exception as exc:  # a log the rules cannot even run is still just a bad log
            raise ReplayDiverged(seq, "$", None, None, _failure(exc, revealed)) from exc
        # A reveal record makes the session write reveal and end together.
        while seq < len(self._lines):
            if seq >= len(lines):  # the end written with the reveal is not there
                raise LogEndsEarly(seq, "$", None, _kind_of(self._lines[seq]), "the log ends early")
            self._expect(seq, lines, revealed)
            seq += 1
        return seq

    def attach_sink(self, sink: LineSink | None) -> None:
        """Send every line appended from now on to ``sink`` (a resumed game's log file:
        :meth:`from_log` rebuilds a game without writing its existing lines again)."""
        self._sink = sink

    # -- reading --------------------------------------------------------------------------

    @property
    def lines(self) -> tuple[bytes, ...]:
        """Every line written so far (without newlines)."""
        return tuple(self._lines)

    def log_bytes(self) -> bytes:
        """The whole log as JSON Lines."""
        return b"".join(line + b"\n" for line in self._lines)

    @property
    def head(self) -> str:
        """SHA-256 of the last line: publish it to make the log tamper-evident."""
        return line_hash(self._lines[-1])

    @property
    def closed(self) -> bool:
        """True once ``reveal`` and ``end`` have been written."""
        return self._closed

    def outcome(self) -> Outcome | None:
        """The result if the game is over, else ``None``."""
        return self.decider.outcome(self.state)

    def decision(self) -> Decision[C]:
        """This state's decision (who may act, with which commands), computed once per state."""
        cached = self._decision
        if cached is not None and cached[0] is self.state:
            return cached[1]
        decision = self.decider.decision(self.state)
        self._decision = (self.state, decision)
        return decision

    def acting_seats(self) -> Sequence[str]:
        """Seats that may send a command now."""
        if self._closed:
            return ()
        return self.decision().acting

    def legal_commands(self, seat: str) -> Sequence[C]:
        """Every command ``seat`` may send now (empty if it may not act); ``ValueError`` for
        a seat that is not in the game (a typo must not read as "nothing to do")."""
        if seat not in self.header.seats:
            raise ValueError(f"unknown seat {seat!r}; seats are {list(self.header.seats)}")
        if self._closed:
            return ()
        return self.decision().legal(seat)

    def can_undo(self, seat: str) -> bool:
        """Whether :meth:`undo` would succeed for ``seat``."""
        return (
            not self._closed
            and not self._tournament
            and bool(self._undoable)
            and self._undoable[-1].seat == seat
        )

    def can_redo(self, seat: str) -> bool:
        """Whether :meth:`redo` would succeed for ``seat``."""
        return not self._closed and bool(self._redoable) and self._redoable[-1].seat == seat

    # -- acting ---------------------------------------------------------------------------

    def apply(self, seat: str, command: C) -> tuple[E, ...]:
        """Apply ``seat``'s command; return its events. On error nothing changes."""
        events = self._accept(seat, command)
        self._redoable.clear()
        return events

    def undo(self, seat: str) -> int:
        """Take back ``seat``'s last command; return the seq of the record undone."""
        if self._closed:
            raise UndoRefused("the game is over")
        if self._tournament:
            raise UndoRefused("undo is off in tournament mode")
        if not self._undoable:
            raise UndoRefused(self._undo_barrier)
        done = self._undoable[-1]
        if done.seat != seat:
            raise UndoRefused(f"only seat {done.seat!r}, who issued record {done.seq}, may undo it")
        self._append(
            UndoRecord(seq=len(self._lines), prev=self._prev(), seat=seat, undoes=done.seq)
        )
        self._undoable.pop()
        self._redoable.append(done)
        self.state = done.before
        return done.seq

    def redo(self, seat: str) -> tuple[E, ...]:
        """Apply the last undone command again, as an ordinary command record."""
        if self._closed:
            raise UndoRefused("the game is over")
        if not self._redoable:
            raise UndoRefused("nothing to redo")
        done = self._redoable[-1]
        if done.seat != seat:
            raise UndoRefused(f"only seat {done.seat!r} may redo record {done.seq}")
        events = self._accept(seat, done.command)
        if events != done.events:  # undo never crosses randomness, so this cannot differ
            raise AssertionError(f"redo of record {done.seq} produced different events")
        self._redoable.pop()
        return events

    def close(self) -> Outcome:
        """End the game: append ``reveal`` (the seed) and ``end`` (the result).

        A game closed before its rules end it is recorded as ``abandoned``.
        """
        if self._closed:
            raise GameOver("the game is already closed")
        result = self.outcome() or Outcome(reason="abandoned")
        self._append(
            RevealRecord(seq=len(self._lines), prev=self._prev(), server_seed=self._seed.hex())
        )
        self._append(EndRecord(seq=len(self._lines), prev=self._prev(), result=result))
        self._closed = True
        self._undoable.clear()
        self._redoable.clear()
        return result

    # -- internals ------------------------------------------------------------------------

    def _start(self) -> None:
        command = self.decider.start_command(self.setup)
        events, state = self._run(command, None)
        self.state = state
        self._append(
            StartRecord(seq=len(self._lines), prev=self._prev(), command=command, events=events)
        )

    def _accept(self, seat: str, command: C) -> tuple[E, ...]:
        if self._closed or self.decider.outcome(self.state) is not None:
            raise GameOver("the game is over; no command is accepted")
        if type(command) not in self._command_set and not isinstance(command, self._command_types):
            raise MalformedCommand(f"{command!r} is not a command of {self.decider.rules.id}")
        if seat not in self.header.seats:
            raise MalformedCommand(f"unknown seat {seat!r}; seats are {list(self.header.seats)}")
        decision = self.decision()
        if seat not in decision.acting:
            raise NotYourTurn(seat, f"seat {seat!r} may not act now", self.decider.turn_rule)
        listed = decision.find(seat, command)
        if listed is None:  # typed, then checked rule by rule, so that the error names the rule
            command, legal = well_typed(command), False
        else:  # accepted by membership: the list's own instance is logged
            if listed is not command and encode(listed) != encode(command):
                well_typed(command)  # equal yet not the same on the wire: True for 1, 1.0 ...
            command, legal = listed, True
        before = self.state
        try:
            events, after = self._run(command, seat, legal)
        except CommandRejected as refused:  # told from what the seat may know (refusals.py)
            counter = self.decider.dice_counter(before)
            dice = DiceStream(self._seed, self.header.game_id, self.header.client_seed, counter)
            raise refusal_for(self.decider, before, seat, command, refused, dice) from None
        seq = len(self._lines)
        self._append(
            CommandRecord(seq=seq, prev=self._prev(), seat=seat, command=command, events=events)
        )
        self.state = after
        self._track_undo(_Done(seq, seat, command, events, before), after)
        return events

    def _run(self, command: C, seat: str | None, legal: bool = False) -> tuple[tuple[E, ...], S]:
        """Decide and fold one command without touching the session."""
        decider = self.decider
        counter = decider.dice_counter(self.state)
        dice = DiceStream(self._seed, self.header.game_id, self.header.client_seed, counter)
        decided = decider.decide(self.state, command, dice, seat=seat, legal=legal)
        if isinstance(decided, Decided):  # the decider folded its events itself
            events, given = tuple(decided.events), decided.state
            if decided.decision is not None:  # ... and found the next decision: keep it
                self._decision = (given, decided.decision)
        else:
            events, given = tuple(decided), None
        state = self.state
        drawing, known = self._drawing, self._event_set
        for event in events:
            kind = type(event)
            if kind in drawing or (kind not in known and isinstance(event, RandomEvent)):
                counter = _chained(counter, cast(RandomEvent, event))
            if given is None:
                state = self._folds.get(kind, decider.evolve)(state, event)
        if given is not None:
            state = given
        if counter != dice.counter or decider.dice_counter(state) != dice.counter:
            # Every draw must be recorded in an event (docs/DICE.md): a rules bug, not input.
            raise AssertionError(
                f"{type(command).__name__} used dice up to word {dice.counter} but its events "
                f"record {counter} and the new state holds {decider.dice_counter(state)}"
            )
        return events, state

    def _track_undo(self, done: _Done[S, C, E], after: S) -> None:
        decider = self.decider
        reason = None
        if decider.dice_counter(after) != decider.dice_counter(done.before):
            reason = f"record {done.seq} used dice"
        elif any(type(event).reveals_information for event in done.events):
            reason = f"record {done.seq} revealed hidden information"
        elif decider.turn_number(after) != decider.turn_number(done.before):
            reason = f"record {done.seq} ended the turn"
        elif decider.outcome(after) is not None:
            reason = f"record {done.seq} ended the game"
        if reason is None:
            self._undoable.append(done)
        else:
            self._undoable.clear()
            self._undo_barrier = f"cannot undo past {reason}"

    def _prev(self) -> str:
        return line_hash(self._lines[-1])

    def _append(self, record: Record) -> None:
        line = encode(record)
        self._lines.append(line)
        if self._sink is not None:
            self._sink(line)

    def _expect(self, seq: int, logged: Sequence[bytes], revealed: bool) -> None:
        mine = self._lines[seq]
        if mine != logged[seq]:
            raise divergence(self.decider, seq, logged[seq], mine, revealed=revealed)


def _is_hex64(value: str) -> bool:
    return len(value) == 64 and not value.encode().translate(None, b"0123456789abcdef")


def _chained(counter: int, event: RandomEvent) -> int:
    """The counter after ``event``, which must start where the last random event ended.

    Random events chain (docs/DICE.md): each ``counter_before`` is the previous one's
    ``counter_after``. A break is a rules bug, not bad input, hence ``AssertionError``.
    """
    before, after = event.counter_before, event.counter_after
    if before is None and after is None:  # this one drew nothing
        return counter
    if before != counter or after is None or after < counter:
        raise AssertionError(
            f"{type(event).__name__} records words {before}..{after}, the stream was at {counter}"
        )
    return after


def well_typed(command: C) -> C:
    """``command`` with every field of its declared type, or :class:`MalformedCommand`.

    msgspec does not validate on construction, so ``count=1.5``, ``count=True`` or an
    unknown literal would otherwise be logged and make the log unverifiable. The command is
    round-tripped through its own schema (strictly: no bool for an int, no float for an
    int); the round-tripped value, with tuples where tuples are declared, is what the rules
    see and the log holds.
    """
    try:
        return msgspec.convert(msgspec.to_builtins(command), type(command), strict=True)
    except (msgspec.ValidationError, TypeError) as exc:
        tag = type(command).__struct_config__.tag
        raise MalformedCommand(f"{tag}: {exc}") from exc


def _failure(exc: Exception, revealed: bool) -> str:
    """Why re-executing a record raised ``exc``: its class always, its text only once the log
    is revealed (an arbitrary exception's text may hold a hidden value, a card or a deck's
    order, that no declaration can cut)."""
    if revealed:
        return f"re-execution failed: {type(exc).__name__}: {exc}"
    return (
        f"re-execution failed: {type(exc).__name__} (its message is not shown before the "
        "seed is revealed: it may hold a hidden value)"
    )


def _rejected_now(exc: CommandRejected, record: Record, revealed: bool) -> str:
    """Why a logged action is refused now: the refusal's text once the log is revealed;
    before, its kind and rule only (:func:`~.refusals.rule_only`), since the rules word a
    refusal from the whole state, which may name a hidden card or a deck's order."""
    seat = record.seat if isinstance(record, CommandRecord | UndoRecord) else ""
    told = exc if revealed else rule_only(exc, seat)
    return f"the logged action is rejected now: {type(told).__name__}: {told}"


def _kind(records: Sequence[Record], seq: int) -> str | None:
    if seq >= len(records):
        return None
    return type(records[seq]).__struct_config__.tag  # type: ignore[return-value]


def _kind_of(line: bytes) -> Any:
    return msgspec.json.decode(line).get("kind")
