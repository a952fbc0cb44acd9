"""A log's records in words as one seat may read them (``game.log``'s and ``log.replay``'s
``words``), on the kernel's wording (:mod:`nataterra_core.kernel.wording`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nataterra_core.kernel import (
    CommandRecord,
    Decider,
    Header,
    RecordCodec,
    StartRecord,
    UndoRecord,
    replay_states,
)
from nataterra_core.kernel.registry import RuleSystem
from nataterra_core.kernel.wording import describe_record

__all__ = ["appended_words", "record_words"]


def record_words(
    record_system: RuleSystem,
    decider: Decider[Any, Any, Any],
    lines: Sequence[bytes],
    seat: str | None,
    *,
    revealed: bool,
    first: int = 0,
    states: Sequence[Any] | None = None,
) -> list[list[str]]:
    """The records ``lines[first:]`` in words as ``seat`` (``None``: a spectator) may read
    them, each ``[summary, event sentence, ...]``.

    Each is worded against a spectator's view of the position it applies to (``states``: the
    state after each record, folded here from ``lines`` when not given). Before the reveal
    the presenter words each command and event as ``seat`` may see it, cut by its class's
    declared visibility as the record's line is
    (:func:`~nataterra_core.kernel.seen.as_seen`): "french keeps a card", never which.
    """
    codec = RecordCodec(decider.command_types, decider.event_types)
    records = codec.decode_lines(lines)
    if states is None:
        header = records[0]
        assert isinstance(header, Header)
        states = [state for _, state in replay_states(decider, header, records)]
    said = []
    for seq in range(first, len(lines)):
        before = states[seq - 1] if seq > 0 else None
        said.append(_said(record_system, decider, records[seq], before, seat, revealed))
    return said


def appended_words(
    record_system: RuleSystem,
    decider: Decider[Any, Any, Any],
    lines: Sequence[bytes],
    seat: str | None,
    *,
    revealed: bool,
    first: int,
    before: Any,
) -> list[list[str]]:
    """The records just appended, ``lines[first:]``, in words as :func:`record_words` gives
    them (the same cuts), each against the position it applies to: ``before`` for the
    first, then that folded through each record's events (what ``game.apply`` answers; a
    bot's moves after the seat's are worded in position too, as ``game.log`` words them: a
    piece as players see it on the board, never by its id). After an ``undo`` (which goes back
    to a position not at hand here) the records are worded without one."""
    codec = RecordCodec(decider.command_types, decider.event_types)
    said = []
    for seq in range(first, len(lines)):
        record = codec.decode(lines[seq], seq)
        said.append(_said(record_system, decider, record, before, seat, revealed))
        if isinstance(record, UndoRecord):
            before = None
        elif before is not None and isinstance(record, CommandRecord | StartRecord):
            for event in record.events:
                before = decider.evolve(before, event)
    return said


def _said(
    record_system: RuleSystem,
    decider: Decider[Any, Any, Any],
    record: Any,
    before: Any,
    seat: str | None,
    revealed: bool,
) -> list[str]:
    """One record in words as ``seat`` may read them (the rule both functions above share)."""
    summary, events = describe_record(
        record_system, record, before, decider, reader=seat, revealed=revealed
    )
    return [summary, *events]
