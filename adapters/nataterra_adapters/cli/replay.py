"""``nataterra replay``: a log verified first, then its records in words, one line each (fit
for grep)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from nataterra_adapters.batch_verify import EXIT_CODES, bundle_pack, verify_source
from nataterra_core.kernel import CommandRecord, RevealRecord, Verdict
from nataterra_core.kernel.failure_words import failure_words, verdict_words

from .common import ContentOption, LogArgument, console, read_shown, states, stopped, unshowable
from .words import describe_record

__all__ = ["exit_if_invalid", "replay", "verdict_said", "verify_first"]


def replay(
    log: LogArgument,
    start: Annotated[int, typer.Option("--from", help="First record to print.", min=0)] = 0,
    stop: Annotated[
        int | None, typer.Option("--to", help="Last record to print (default: the last).")
    ] = None,
    content: ContentOption = None,
) -> None:
    """Verify LOG, say so, then step through it: each record's seat, command and events in
    words.

    The first line is the verdict (as ``verify`` checks it): ``verified``; ``incomplete``
    (a game in progress, or a log cut at a record boundary: its seed not revealed, so its
    dice cannot be checked yet; or its end record missing after the reveal); or
    ``INVALID at record N`` with the reason, that record marked where it is printed, and
    the exit code ``verify`` would give once what can be shown is shown. Any registered
    game: the log's header names it, and its presenter words the commands and events. Deck
    orders are never printed, so replaying a game still in progress spoils nothing. A log
    whose events stop folding at some record (a forged one) is printed up to the record
    before it, and that record is named (exit code 10, as ``verify`` gives a ``replay``
    failure); so is one whose records stop being readable (exit code 6, ``read``).
    """
    verdict = verify_first(log, content)
    record, log_read, unread = read_shown(log, content)
    after, failure = states(log_read)  # undo records that do not fit stop it too
    stop = len(log_read.records) - 1 if stop is None else stop
    # A spectator's words until the seed is revealed: replaying a game in progress spoils
    # nothing (kernel.seen).
    revealed = any(isinstance(r, RevealRecord) for r in log_read.records)
    for entry in log_read.records[start : min(stop + 1, len(after))]:
        before = after[entry.seq - 1] if entry.seq > 0 else None
        try:
            summary, events = describe_record(
                record, entry, before, log_read.decider, reader=None, revealed=revealed
            )
        except Exception as exc:  # a forged log's state that folds but breaks the words
            unshowable(log, entry.seq, exc)
        events = tuple(e for e in events if e != summary)
        line = Text.assemble((f"{entry.seq:>5} ", "dim"), summary)
        if isinstance(entry, CommandRecord):
            line.stylize("bold", 6, 6 + len(entry.seat))
        console.print(line, soft_wrap=True)  # one line per record: fit for grep
        for event in events:
            console.print(Text(f"        -> {event}"), soft_wrap=True)
        if verdict.status == "invalid" and verdict.seq == entry.seq:
            said = failure_words(verdict.failure, verdict.seq, verdict.reason, named=False)
            console.print(Text(f"        !! INVALID here: {said}", style="red"), soft_wrap=True)
    if failure is not None:
        stopped(log, failure)
    if unread is not None:
        stopped(log, unread, "read")
    exit_if_invalid(verdict)


def verify_first(log: Path, content: Path | None, *, out: Console = console) -> Verdict:
    """Verify ``log`` as ``verify`` does and print the verdict (:func:`verdict_said`) to
    ``out``: the first line of ``replay`` and ``show``, before what can be shown."""
    bundle = bundle_pack(content) if content is not None else None
    verdict = verify_source(log, bundle)
    out.print(Text(verdict_said(verdict)), soft_wrap=True)
    return verdict


def exit_if_invalid(verdict: Verdict) -> None:
    """Once what can be shown is shown: exit with the code ``verify`` gives an invalid log."""
    if verdict.status == "invalid" and verdict.failure is not None:
        raise typer.Exit(EXIT_CODES[verdict.failure])


def verdict_said(verdict: Verdict) -> str:
    """The verdict as the first line of a replay: what can be trusted of what follows."""
    said = verdict_words(verdict)
    if verdict.status == "valid":
        return f"verified: {said}"
    if verdict.status == "incomplete":
        return f"incomplete: {said}"
    where = f"at record {verdict.seq}" if verdict.seq is not None else "as a whole"
    return (
        f"INVALID {where} ({verdict.failure}): {said}; the records are shown as logged, not "
        "as verified"
    )
