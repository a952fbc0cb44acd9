"""``nataterra replay``: a log's records in words, one line each (fit for grep)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from nataterra_core.kernel import CommandRecord

from .common import ContentOption, LogArgument, console, read_shown, states, stopped, unshowable
from .words import describe_record

__all__ = ["replay"]


def replay(
    log: LogArgument,
    start: Annotated[int, typer.Option("--from", help="First record to print.", min=0)] = 0,
    stop: Annotated[
        int | None, typer.Option("--to", help="Last record to print (default: the last).")
    ] = None,
    content: ContentOption = None,
) -> None:
    """Step through LOG: each record's seat, command and events in words (no verification).

    Any registered game: the log's header names it, and its presenter words the commands
    and events. Deck orders are never printed, so replaying a game still in progress
    spoils nothing. A log whose events stop folding at some record (a forged one) is
    printed up to the record before it, and that record is named (exit code 10, as
    ``verify`` gives a ``replay`` failure); so is one whose records stop being readable
    (exit code 6, ``read``).
    """
    record, log_read, unread = read_shown(log, content)
    after, failure = states(log_read)  # undo records that do not fit stop it too
    stop = len(log_read.records) - 1 if stop is None else stop
    for entry in log_read.records[start : min(stop + 1, len(after))]:
        before = after[entry.seq - 1] if entry.seq > 0 else None
        try:
            summary, events = describe_record(record, entry, before, log_read.decider)
        except Exception as exc:  # a forged log's state that folds but breaks the words
            unshowable(log, entry.seq, exc)
        events = tuple(e for e in events if e != summary)
        line = Text.assemble((f"{entry.seq:>5} ", "dim"), summary)
        if isinstance(entry, CommandRecord):
            line.stylize("bold", 6, 6 + len(entry.seat))
        console.print(line, soft_wrap=True)  # one line per record: fit for grep
        for event in events:
            console.print(Text(f"        -> {event}"), soft_wrap=True)
    if failure is not None:
        stopped(log, failure)
    if unread is not None:
        stopped(log, unread, "read")
