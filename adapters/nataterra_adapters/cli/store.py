"""``nataterra store``: list a server's store, export its games, copy games between stores.

STORE is what ``--store`` takes (a directory, a ``*.sqlite3`` file, a ``postgresql://`` URL);
without it, the servers' default (docs/SERVER.md). Every game exported or copied is checked
by re-executing its log with its secret seed; a game this build cannot run is exported or
copied as it is all the same, and said so. A migration carries the games waiting for their
seats (not the expired ones) and the answers kept for command_id retries too; an export
writes nothing secret.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..rpc.store import Store, StoreError
from ..rpc.store_tools import (
    Copied,
    copy_games,
    default_store,
    export_games,
    open_store,
    survey,
)
from .common import SETUP_FAILED, console, err_console, escape

__all__ = ["store_app"]

NOT_DONE = 2
"""Exit code when a game named could not be exported or copied, or did not verify."""

store_app = typer.Typer(
    help="A server's games: list them, export them, copy them to another store (docs/SERVER.md).",
    no_args_is_help=True,
)

StoreArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="STORE",
        help="A directory, a path ending in .sqlite3 or a postgresql:// URL (default: the "
        "servers' default store).",
        show_default=False,
    ),
]


def _open(where: str | None) -> Store:
    try:
        return open_store(where or default_store())
    except (StoreError, OSError) as exc:
        err_console.print(f"nataterra store: cannot open {escape(str(where))}: {escape(str(exc))}")
        raise typer.Exit(SETUP_FAILED) from exc


def _report(copied: Copied) -> None:
    game = escape(copied.game_id) + (" (waiting for its seats)" if copied.waiting else "")
    if copied.expired:
        console.print(f"{game}: {escape(copied.note)}")
    elif copied.done and copied.verified:
        console.print(f"{game}: verified" + (f" ({escape(copied.note)})" if copied.note else ""))
    elif copied.done:
        console.print(f"{game}: copied as it is, not verified: {escape(copied.note)}")
    else:
        console.print(f"{game}: not done: {escape(copied.note)}")


def _exit_code(done: list[Copied]) -> None:
    if not all(copy.done or copy.expired for copy in done):
        raise typer.Exit(NOT_DONE)


@store_app.command("list")
def list_games(store: StoreArgument = None) -> None:
    """Every game of STORE: in play, finished, or set aside (with the reason)."""
    opened = _open(store)
    try:
        listed = survey(opened)
    finally:
        opened.close()
    table = Table("game", "status", "records", "bots", "reason")
    for listing in listed:
        table.add_row(
            escape(listing.game_id),
            listing.status,
            str(listing.records),
            "yes" if listing.bots else "",
            escape(listing.reason or ""),
        )
    console.print(table)
    console.print(f"{len(listed)} games in {escape(opened.location)}")


@store_app.command("export")
def export(
    store: StoreArgument = None,
    game_ids: Annotated[
        list[str] | None, typer.Argument(metavar="[GAME_ID]...", show_default=False)
    ] = None,
    out: Annotated[
        Path, typer.Option(metavar="DIR", help="Where to write each GAME_ID.jsonl.")
    ] = Path("."),
) -> None:
    """Write each game's log (all by default) as OUT/GAME_ID.jsonl, its exact bytes (no
    secret), each checked by re-executing it with its secret seed; a game waiting for its
    seats as OUT/GAME_ID.waiting.json, its setup without its secret. Nothing secret is
    written: `store migrate` carries the secrets and the answers kept for retries."""
    opened = _open(store)
    try:
        done = export_games(opened, out, game_ids or None, told=_report)
    finally:
        opened.close()
    games = [copy for copy in done if not copy.waiting]
    waiting = [copy for copy in done if copy.waiting]
    console.print(
        f"{_count(games)} games exported to {escape(str(out))} as GAME_ID.jsonl, "
        f"{_count(waiting)} waiting for their seats as GAME_ID.waiting.json (their setup, "
        f"no secret); {sum(copy.answers for copy in games)} answers kept for command_id "
        "retries not exported (a seat's own view each: `store migrate` carries them)"
    )
    _exit_code(done)


def _count(done: list[Copied]) -> str:
    """``N of M``: how many of ``done`` were done."""
    return f"{sum(1 for copy in done if copy.done)} of {len(done)}"


@store_app.command("migrate")
def migrate(
    source: Annotated[str, typer.Argument(metavar="FROM", help="The store to copy from.")],
    target: Annotated[str, typer.Argument(metavar="TO", help="The store to copy into.")],
) -> None:
    """Copy every game of FROM, with its secret and the answers kept for command_id
    retries, and every game waiting for its seats (unless it has expired: those are
    counted, not copied), into TO (which keeps its own games): each verified, and read back
    from TO byte for byte. FROM is left as it was. Run again after an interruption, it
    finishes the copy: a game TO has already as FROM has it counts as copied (a kept answer
    it lacks is added)."""
    opened, into = _open(source), _open(target)
    try:
        key = opened.server_key()
        if key is not None and into.keep_server_key(key) != key:
            err_console.print(
                "nataterra store: TO has another server key: the players' certificates name "
                "FROM's (docs/SERVER.md)"
            )
        done = copy_games(opened, into, told=_report, resume=True)
    finally:
        opened.close()
        into.close()
    games = [copy for copy in done if not copy.waiting]
    waiting = [copy for copy in done if copy.waiting and not copy.expired]
    expired = sum(1 for copy in done if copy.expired)
    answers = sum(copy.answers for copy in games if copy.done)
    console.print(
        f"{_count(games)} games copied into {escape(into.location)} with {answers} answers "
        f"kept for command_id retries; {_count(waiting)} games waiting for their seats; "
        f"{expired} expired waiting games not copied"
    )
    _exit_code(done)
