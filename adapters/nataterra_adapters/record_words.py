"""Log records in words, for any rule system, and cut for a seat that may not see everything.

Commands, events and outcomes are worded by the system's presenter
(``RuleSystem.presenter``); the records around them (header, undo, reveal) are the kernel's,
so they read the same in every game. The CLI, the JSON-RPC server and the browser client all
word records here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from nataterra_core.kernel import (
    CommandRecord,
    Decider,
    EndRecord,
    Header,
    Record,
    RecordCodec,
    RevealRecord,
    StartRecord,
    UndoRecord,
    replay_states,
)
from nataterra_core.kernel.registry import RuleSystem
from nataterra_core.kernel.visibility import record_view

__all__ = ["RecordWords", "describe_record", "record_words", "worded"]


class RecordWords(msgspec.Struct, frozen=True, kw_only=True):
    """One record in words: its ``seq``, ``kind``, acting ``seat`` (if any), a one-line
    ``summary`` and one sentence per event."""

    seq: int
    kind: str
    seat: str | None
    summary: str
    events: tuple[str, ...]


def describe_record(
    record_system: RuleSystem,
    record: Record,
    before: Any = None,
    decider: Decider[Any, Any, Any] | None = None,
) -> tuple[str, tuple[str, ...]]:
    """A record's one-line summary and its events' sentences (never a deck's order).

    With ``before`` (the state before the record) and the log's ``decider``, the command is
    worded against a spectator's view of ``before`` and each event against the view of the
    state it applies to, so sentences can name what ids point at (a combat group's owner and
    units).
    """
    presenter = record_system.presenter
    if isinstance(record, Header):
        options = ", ".join(f"{k}={v}" for k, v in record.options.items()) or "none"
        pack = f"{record.content.id} {record.content.sha256[:12]}" if record.content else "none"
        return (
            f"game {record.game_id}: {', '.join(record.seats)}; rules {record.rules.id} "
            f"v{record.rules.version}; content {pack}; options {options}",
            (),
        )
    if isinstance(record, StartRecord | CommandRecord):
        seat = record.seat if isinstance(record, CommandRecord) else None
        return worded(record_system, record.command, seat, record.events, before, decider)
    if isinstance(record, UndoRecord):
        return f"{record.seat} undoes record {record.undoes}", ()
    if isinstance(record, RevealRecord):
        return f"the server seed is revealed: {record.server_seed}", ()
    if isinstance(record, EndRecord):
        return f"result: {presenter.outcome(record.result)}", ()
    raise TypeError(f"not a log record: {type(record).__name__}")


def worded(
    record_system: RuleSystem,
    command: Any,
    seat: str | None,
    events: Sequence[Any],
    before: Any = None,
    decider: Decider[Any, Any, Any] | None = None,
) -> tuple[str, tuple[str, ...]]:
    """A command and the events it caused in the system's words, each against a spectator's
    view of the position it applies to (when ``before`` and ``decider`` are given)."""
    presenter, view_of = record_system.presenter, record_system.seat_view
    if before is None or decider is None:
        return presenter.command(command, seat), tuple(presenter.event(e) for e in events)
    summary = presenter.command(command, seat, view_of(before, None))
    sentences = []
    state = before
    for event in events:
        sentences.append(presenter.event(event, view_of(state, None)))
        state = decider.evolve(state, event)
    return summary, tuple(sentences)


def record_words(
    record_system: RuleSystem,
    decider: Decider[Any, Any, Any],
    lines: Sequence[bytes],
    seat: str | None,
    *,
    revealed: bool,
    first: int = 0,
    states: Sequence[Any] | None = None,
) -> list[RecordWords]:
    """The records ``lines[first:]`` in words as ``seat`` (``None``: a spectator) may read them.

    Each is worded against a spectator's view of the position it applies to (``states``: the
    state after each record, folded here from ``lines`` when not given). Before the reveal a
    command that ``seat`` may not see whole (its class's declared visibility cuts it, see
    :func:`~nataterra_core.kernel.visibility.record_view`), and an event of which it may see
    only the type, are named by their type alone. An event cut in part keeps the presenter's
    sentence, which never shows hidden information ("draws a tactic card", never which).
    """
    codec = RecordCodec(decider.command_types, decider.event_types)
    records = [codec.decode(line, seq) for seq, line in enumerate(lines)]
    if states is None:
        header = records[0]
        assert isinstance(header, Header)
        states = [state for _, state in replay_states(decider, header, records)]
    said: list[RecordWords] = []
    for seq in range(first, len(lines)):
        line, record = lines[seq], records[seq]
        before = states[seq - 1] if seq > 0 else None
        summary, events = describe_record(record_system, record, before, decider)
        actor = getattr(record, "seat", None)
        if not revealed and isinstance(record, StartRecord | CommandRecord):
            whole = msgspec.json.decode(line)
            cut = record_view(line, seat, decider)
            if cut["command"] != whole["command"]:
                summary = f"{actor or 'the game'} sends {cut['command']['type']} (hidden)"
            events = tuple(
                f"{seen['type']} (hidden)" if _only_type(seen, full) else sentence
                for sentence, seen, full in zip(events, cut["events"], whole["events"], strict=True)
            )
        kind = type(record).__name__.removesuffix("Record").lower()
        said.append(RecordWords(seq=seq, kind=kind, seat=actor, summary=summary, events=events))
    return said


def _only_type(seen: dict[str, Any], whole: dict[str, Any]) -> bool:
    """Whether a cut message shows nothing but its type (of a message that has more)."""
    return set(seen) == {"type"} and set(whole) != {"type"}
