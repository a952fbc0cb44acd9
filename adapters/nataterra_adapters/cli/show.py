"""``nataterra show``: the position after any record of a log, as one seat sees it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import click
import typer
from rich.text import Text

from nataterra_core.kernel import ReadLog, RevealRecord
from nataterra_core.kernel.registry import RuleSystem

from .common import (
    ContentOption,
    LogArgument,
    check_out,
    console,
    err_console,
    read_shown,
    states,
    stopped,
    unshowable,
)
from .replay import exit_if_invalid, verify_first
from .words import describe_record, seen_view, view_text

__all__ = ["show"]


def show(
    log: LogArgument,
    at: Annotated[
        int | None, typer.Option(help="Show the state after this record (default: the last).")
    ] = None,
    seat: Annotated[
        str | None,
        typer.Option("--as", help="The seat whose view to show (default: a spectator's)."),
    ] = None,
    content: ContentOption = None,
    svg: Annotated[
        Path | None,
        typer.Option(help="Also write the board as SVG to this file (a game with a board)."),
    ] = None,
    position: Annotated[
        bool,
        typer.Option(
            "--position",
            help="Print the position in the game's position format (JSON; with --as, only "
            "what that seat may see), to restart from it.",
        ),
    ] = False,
) -> None:
    """Verify LOG, say so, then print the position after one of its records as one seat
    sees it.

    The first line is the verdict, as ``replay`` prints it (``verified``, ``incomplete``,
    or ``INVALID at record N`` with the reason, and then the exit code ``verify`` would
    give once the position is shown; with ``--position``, on stderr). Any registered game:
    the log's header names it. Only that seat's view is printed: its own hands, counts of
    everything hidden; once the log holds its reveal (a finished game), every hand, since
    the seed makes them public. ``--svg FILE`` draws the same view's boards.
    ``--position`` prints the position instead, in the game's position format
    (``new_game(position=...)`` starts from it). A log whose events stop folding at some
    record (a forged one) is shown at the last record before it at the latest, and that
    record is named (exit code 10, as ``verify`` gives a ``replay`` failure); so is one
    whose records stop being readable (exit code 6, ``read``).
    """
    verdict = verify_first(log, content, out=err_console if position else console)
    record, log_read, unread = read_shown(log, content)
    last = len(log_read.records) - 1
    seq = last if at is None else at
    if seq < 0 or (seq > last and unread is None):
        raise typer.BadParameter(f"the log has records 0 to {last}", param_hint="--at")
    seats = log_read.header.seats
    if seat is not None and seat not in seats:
        raise typer.BadParameter(f"seats are {', '.join(seats)}", param_hint="--as")
    if svg is not None:
        check_out(svg)
        if record.hooks.svg is None:
            raise typer.BadParameter(f"{record.id} has no board to draw", param_hint="--svg")
    after, failure = states(log_read)
    seq = min(seq, len(after) - 1)
    try:
        _show(record, log_read, after, seq, seat, svg, position)
    except (typer.Exit, click.ClickException):
        raise
    except Exception as exc:  # a forged log's state that folds but breaks the views
        unshowable(log, seq, exc)
    if failure is not None:
        stopped(log, failure)
    if unread is not None:
        stopped(log, unread, "read")
    exit_if_invalid(verdict)


def _show(
    record: RuleSystem,
    log_read: ReadLog,
    after: list[Any],
    seq: int,
    seat: str | None,
    svg: Path | None,
    position: bool,
) -> None:
    state = after[seq]
    last = len(log_read.records) - 1
    if position:
        formats = record.hooks.positions
        if formats is None:
            raise typer.BadParameter(f"{record.id} has no position format", param_hint="--position")
        try:
            text = formats.export(state, seat=seat)
        except ValueError as exc:
            raise typer.BadParameter(f"after record {seq}: {exc}", param_hint="--position") from exc
        typer.echo(text)
        return
    before = after[seq - 1] if seq > 0 else None
    # Worded and shown for the seat (a spectator without --seat), whole once the seed is
    # revealed: every secret is public then, as the log is.
    revealed = any(isinstance(r, RevealRecord) for r in log_read.records)
    summary, _ = describe_record(
        record, log_read.records[seq], before, log_read.decider, reader=seat, revealed=revealed
    )
    console.print(Text(f"{log_read.header.game_id}, after record {seq} of {last}: {summary}"))
    console.print(view_text(record, state, seat, revealed=revealed), soft_wrap=True)
    if svg is not None and record.hooks.svg is not None:
        view = seen_view(record, state, seat, revealed=revealed)
        svg.write_text(record.hooks.svg(view), encoding="utf-8")
        console.print(Text(f"board written to {svg}"), soft_wrap=True)
