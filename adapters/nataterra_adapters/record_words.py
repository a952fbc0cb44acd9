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
    EndRecord,
    Header,
    Record,
    RecordCodec,
    RevealRecord,
    StartRecord,
    UndoRecord,
)
from nataterra_core.kernel.registry import Presenter
from nataterra_core.kernel.visibility import MessageTypes, record_view

__all__ = ["RecordWords", "describe_record", "record_words"]


class RecordWords(msgspec.Struct, frozen=True, kw_only=True):
    """One record in words: its ``seq``, ``kind``, acting ``seat`` (if any), a one-line
    ``summary`` and one sentence per event."""

    seq: int
    kind: str
    seat: str | None
    summary: str
    events: tuple[str, ...]


def describe_record(presenter: Presenter, record: Record) -> tuple[str, tuple[str, ...]]:
    """A record's one-line summary and its events' sentences (never a deck's order)."""
    if isinstance(record, Header):
        options = ", ".join(f"{k}={v}" for k, v in record.options.items()) or "none"
        pack = f"{record.content.id} {record.content.sha256[:12]}" if record.content else "none"
        return (
            f"game {record.game_id}: {', '.join(record.seats)}; rules {record.rules.id} "
            f"v{record.rules.version}; content {pack}; options {options}",
            (),
        )
    if isinstance(record, StartRecord):
        return presenter.command(record.command), _events(presenter, record.events)
    if isinstance(record, CommandRecord):
        return (
            presenter.command(record.command, record.seat),
            _events(presenter, record.events),
        )
    if isinstance(record, UndoRecord):
        return f"{record.seat} undoes record {record.undoes}", ()
    if isinstance(record, RevealRecord):
        return f"the server seed is revealed: {record.server_seed}", ()
    if isinstance(record, EndRecord):
        return f"result: {presenter.outcome(record.result)}", ()
    raise TypeError(f"not a log record: {type(record).__name__}")


def _events(presenter: Presenter, events: tuple[Any, ...]) -> tuple[str, ...]:
    return tuple(presenter.event(event) for event in events)


def record_words(
    presenter: Presenter,
    messages: MessageTypes,
    lines: Sequence[bytes],
    seat: str | None,
    *,
    revealed: bool,
    first: int = 0,
) -> list[RecordWords]:
    """The records ``lines[first:]`` in words as ``seat`` (``None``: a spectator) may read them.

    Before the reveal a command that ``seat`` may not see whole (its class's declared
    visibility cuts it, see :func:`~nataterra_core.kernel.visibility.record_view`), and an
    event of which it may see only the type, are named by their type alone. An event cut in
    part keeps the presenter's sentence, which never shows hidden information (``Presenter
    .event``: "draws a tactic card", never which).
    """
    codec = RecordCodec(messages.command_types, messages.event_types)
    worded: list[RecordWords] = []
    for seq in range(first, len(lines)):
        line = lines[seq]
        record = codec.decode(line, seq)
        summary, events = describe_record(presenter, record)
        actor = getattr(record, "seat", None)
        if not revealed and isinstance(record, StartRecord | CommandRecord):
            whole = msgspec.json.decode(line)
            cut = record_view(line, seat, messages)
            if cut["command"] != whole["command"]:
                summary = f"{actor or 'the game'} sends {cut['command']['type']} (hidden)"
            events = tuple(
                f"{seen['type']} (hidden)" if _only_type(seen, full) else sentence
                for sentence, seen, full in zip(events, cut["events"], whole["events"], strict=True)
            )
        kind = type(record).__name__.removesuffix("Record").lower()
        worded.append(RecordWords(seq=seq, kind=kind, seat=actor, summary=summary, events=events))
    return worded


def _only_type(seen: dict[str, Any], whole: dict[str, Any]) -> bool:
    """Whether a cut message shows nothing but its type (of a message that has more)."""
    return set(seen) == {"type"} and set(whole) != {"type"}
