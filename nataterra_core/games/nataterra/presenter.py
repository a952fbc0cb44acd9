"""One English sentence per command, event and log record, for ``play``, ``replay``, ``show``
and the RPC server (the sentences themselves are in :mod:`.words`).

    >>> from nataterra_core.games.nataterra.rules.movement import UnitsMoved
    >>> describe_event(UnitsMoved(seat="velathi", unit="hunter", origin="t1.z1", count=2,
    ...                           path=("t1.z2", "t1.z3")))
    'velathi moves 2 Hunters from t1.z1 to t1.z3 via t1.z2'

Pass a seat view of the position a message applies to (``view=``) and combat groups are
named by owner, number and units (``beasts' group 3 (2 Orcs)``). A type with no sentence
(say, an event a newer library added) is described by its tag and fields, so a log with new
types still prints; ``tests/test_words.py`` makes sure no type of a registered system is.
Descriptions never show a deck's order or another seat's drawn card.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import (
    CommandRecord,
    EndRecord,
    Header,
    Record,
    RevealRecord,
    StartRecord,
    UndoRecord,
)

from .words import describe_command, describe_event, describe_outcome, fallback, resources_text

__all__ = [
    "describe_command",
    "describe_event",
    "describe_outcome",
    "describe_record",
    "fallback",
    "resources_text",
]


def describe_record(record: Record, view: Any = None) -> tuple[str, tuple[str, ...]]:
    """A record's one-line summary and its events' sentences (``view``: the position before)."""
    if isinstance(record, Header):
        options = ", ".join(f"{k}={v}" for k, v in record.options.items()) or "none"
        pack = f"{record.content.id} {record.content.sha256[:12]}" if record.content else "none"
        return (
            f"game {record.game_id}: {', '.join(record.seats)}; rules {record.rules.id} "
            f"v{record.rules.version}; content {pack}; options {options}",
            (),
        )
    if isinstance(record, StartRecord):
        return describe_command(record.command, None, view), _events(record.events, view)
    if isinstance(record, CommandRecord):
        summary = describe_command(record.command, record.seat, view)
        return summary, _events(record.events, view)
    if isinstance(record, UndoRecord):
        return f"{record.seat} undoes record {record.undoes}", ()
    if isinstance(record, RevealRecord):
        return f"the server seed is revealed: {record.server_seed}", ()
    if isinstance(record, EndRecord):
        return f"result: {describe_outcome(record.result)}", ()
    return fallback(record), ()


def _events(events: tuple[Any, ...], view: Any) -> tuple[str, ...]:
    return tuple(describe_event(event, view) for event in events)
