"""Log records, outcomes and verdicts in words, for any rule system.

Commands, events and outcomes are worded by the system's presenter
(``RuleSystem.presenter``); the records around them (header, undo, reveal) are the kernel's,
so they read the same in every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from nataterra_core.kernel import (
    CommandRecord,
    Decider,
    EndRecord,
    Header,
    Outcome,
    Record,
    RevealRecord,
    StartRecord,
    UndoRecord,
    Verdict,
)
from nataterra_core.kernel.registry import Presenter, RuleSystem

from .common import escape

__all__ = ["describe_record", "plain_outcome", "verdict_line", "view_text", "worded"]


def plain_outcome(result: Outcome) -> str:
    """``won by velathi (target_reached)``, ``drawn (turn_limit)``, with any scores: the
    kernel's words, for a verdict whose log's system is not known here."""
    if result.winners:
        text = f"won by {', '.join(result.winners)} ({result.reason})"
    else:
        text = f"drawn ({result.reason})"
    if result.scores:
        text += "; scores " + ", ".join(f"{s} {n}" for s, n in result.scores.items())
    return text


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


def verdict_line(name: str, verdict: Verdict, presenter: Presenter | None = None) -> str:
    """One line of rich markup for a verdict; the result in ``presenter``'s words (that of
    the log's system), or the kernel's when the system is not known."""
    if verdict.valid:
        result = verdict.result
        words = presenter.outcome if presenter is not None else plain_outcome
        outcome = escape(words(result)) if result else "no result"
        return f"[green]VALID[/] {name}: {verdict.records} records, {outcome}"
    where = f"record {verdict.seq}" if verdict.seq is not None else "log"
    label = "INCOMPLETE" if verdict.status == "incomplete" else f"INVALID ({verdict.failure})"
    return f"[red]{label}[/] {name}: {where}: {escape(verdict.reason)}"


def view_text(record: RuleSystem, state: Any, seat: str | None) -> Text:
    """What ``seat`` (``None``: a spectator) may see of ``state``, in the system's words."""
    text = Text(record.presenter.view(record.seat_view(state, seat)))
    first = text.plain.find("\n")
    text.stylize("bold", 0, first if first >= 0 else len(text))  # the status line
    return text
