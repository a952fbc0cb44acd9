"""Log records, outcomes and verdicts in words, for any rule system.

Records are worded by the kernel (:mod:`nataterra_core.kernel.wording`, re-exported here):
commands, events and outcomes by the system's presenter, the records around them the same
in every game.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from nataterra_core.kernel import Verdict
from nataterra_core.kernel.failure_words import (
    failure_words,
    incomplete_words,
    receipts_words,
)
from nataterra_core.kernel.registry import Presenter, RuleSystem
from nataterra_core.kernel.secrets import redact
from nataterra_core.kernel.wording import describe_record, worded
from nataterra_core.kernel.wording import outcome_text as plain_outcome

from .common import escape

__all__ = [
    "describe_record",
    "plain_outcome",
    "seen_view",
    "verdict_line",
    "view_text",
    "worded",
]


def verdict_line(name: str, verdict: Verdict, presenter: Presenter | None = None) -> str:
    """One line of rich markup for a verdict; the result in ``presenter``'s words (that of
    the log's system), or the kernel's when the system is not known."""
    if verdict.valid:
        result = verdict.result
        words = presenter.outcome if presenter is not None else plain_outcome
        outcome = escape(words(result)) if result else "no result"
        receipts = receipts_words(verdict)
        checked = f"; {escape(receipts)}" if receipts else ""
        return f"[green]VALID[/] {name}: {verdict.records} records, {outcome}{checked}"
    if verdict.status == "incomplete":
        said = incomplete_words(verdict.seq, verdict.reason)
        receipts = receipts_words(verdict)
        return f"[red]INCOMPLETE[/] {name}: {escape(f'{said}; {receipts}' if receipts else said)}"
    said = failure_words(verdict.failure, verdict.seq, verdict.reason)
    return f"[red]INVALID ({verdict.failure})[/] {name}: {escape(said)}"


def seen_view(record: RuleSystem, state: Any, seat: str | None, *, revealed: bool) -> Any:
    """``seat``'s view of ``state``: built from what the seat may know (kernel.secrets'
    ``redact``: its view cannot say more) until the seed is ``revealed``, from the whole
    state after (every secret public)."""
    if revealed:
        return record.view_of(state, seat, revealed=True)
    return record.seat_view(redact(state, seat), seat)


def view_text(record: RuleSystem, state: Any, seat: str | None, *, revealed: bool = False) -> Text:
    """What ``seat`` (``None``: a spectator) may see of ``state``, in the system's words;
    every secret once the log's seed is ``revealed`` (a finished game)."""
    text = Text(record.presenter.view(seen_view(record, state, seat, revealed=revealed)))
    first = text.plain.find("\n")
    text.stylize("bold", 0, first if first >= 0 else len(text))  # the status line
    return text
