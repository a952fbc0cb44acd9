"""``nataterra show``: the position after any record of a log, as one seat sees it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from .common import ContentOption, LogArgument, check_out, console, read, states
from .words import describe_record, view_text

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
) -> None:
    """Print the position after a record of LOG as one seat sees it (no verification).

    Any registered game: the log's header names it. Only that seat's view is printed: its
    own hands, counts of everything hidden. ``--svg FILE`` draws the same view's boards.
    """
    record, log_read = read(log, content)
    last = len(log_read.records) - 1
    seq = last if at is None else at
    if not 0 <= seq <= last:
        raise typer.BadParameter(f"the log has records 0 to {last}", param_hint="--at")
    seats = log_read.header.seats
    if seat is not None and seat not in seats:
        raise typer.BadParameter(f"seats are {', '.join(seats)}", param_hint="--as")
    if svg is not None:
        check_out(svg)
        if record.hooks.svg is None:
            raise typer.BadParameter(f"{record.id} has no board to draw", param_hint="--svg")
    after = states(log, log_read)
    state = after[seq]
    summary, _ = describe_record(
        record, log_read.records[seq], after.get(seq - 1), log_read.decider
    )
    console.print(Text(f"{log_read.header.game_id}, after record {seq} of {last}: {summary}"))
    console.print(view_text(record, state, seat), soft_wrap=True)
    if svg is not None and record.hooks.svg is not None:
        svg.write_text(record.hooks.svg(record.seat_view(state, seat)), encoding="utf-8")
        console.print(Text(f"board written to {svg}"), soft_wrap=True)
