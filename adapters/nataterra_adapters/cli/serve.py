"""``nataterra serve``: play in the browser (the optional extra ``web``)."""

from __future__ import annotations

from typing import Annotated

import typer

from nataterra_core.search.budget import MAX_SECONDS

from ..rpc.admission import DEFAULT_CONNECTIONS_PER_ADDRESS, DEFAULT_MAX_CONNECTIONS
from ..rpc.bots import DEFAULT_MAX_BOT_TIME
from ..rpc.server import open_chosen_store, parse_listen
from ..rpc.store import StoreError
from ..rpc.waiting import DEFAULT_WAITING_SECONDS, MAX_WAITING_SECONDS
from .common import SETUP_FAILED, err_console, escape

__all__ = ["serve"]


def _listen(text: str) -> tuple[str, int]:

    try:
        return parse_listen(text)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--listen") from None


def serve(
    listen: Annotated[
        str,
        typer.Option(
            metavar="HOST:PORT",
            help="Where to listen (port 0: any free port). Anything but 127.0.0.1 lets "
            "others on the network create games and watch them.",
        ),
    ] = "127.0.0.1:8000",
    store: Annotated[
        str | None,
        typer.Option(
            metavar="STORE",
            help="Keep every game here and serve the stored ones: a directory, a path "
            "ending in .sqlite3 or a postgresql:// URL (default: games.sqlite3 in the "
            "user's data folder; docs/SERVER.md).",
        ),
    ] = None,
    no_store: Annotated[
        bool, typer.Option("--no-store", help="Keep games in memory only.")
    ] = False,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME",
            help="Also answer requests whose Host and Origin name NAME (repeatable; "
            "'*': any). By default only the listening host (and localhost, 127.0.0.1, "
            "[::1] on loopback) is answered: a page of another site cannot reach the "
            "server through DNS rebinding.",
        ),
    ] = None,
    max_connections: Annotated[
        int,
        typer.Option(
            min=1,
            help="HTTP and WebSocket connections served at once; one more is answered 503 "
            "(lowered to the descriptor limit minus 64).",
        ),
    ] = DEFAULT_MAX_CONNECTIONS,
    max_connections_per_address: Annotated[
        int, typer.Option(min=1, help="Connections served at once from one client address.")
    ] = DEFAULT_CONNECTIONS_PER_ADDRESS,
    header_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            metavar="SECONDS",
            help="Seconds a client has to send a whole request head (408 after).",
        ),
    ] = 10.0,
    test_seeds: Annotated[
        bool,
        typer.Option(
            "--test-seeds", help="Accept a public seed in game.create (tests and demos only)."
        ),
    ] = False,
    max_bot_time: Annotated[
        float,
        typer.Option(
            min=0.001,
            max=MAX_SECONDS,
            help="The longest a bot thinks per decision, in seconds: a search bot's time "
            "budget and its iteration budget are cut there.",
        ),
    ] = DEFAULT_MAX_BOT_TIME,
    waiting_seconds: Annotated[
        float,
        typer.Option(
            min=0.001,
            max=MAX_WAITING_SECONDS,
            help="How long a game created with seat seeds may wait for its seats' game.join "
            "before it expires, in seconds.",
        ),
    ] = DEFAULT_WAITING_SECONDS,
) -> None:
    """Serve the browser client and the JSON-RPC methods over a WebSocket (docs/WEB.md).

    Open the printed address: create a game of any registered rule system, let bots take
    some seats, share one link per seat, watch, and replay finished logs.
    """
    host, port = _listen(listen)
    try:
        from ..web import serve as run
        from ..web.hosts import allowed_hosts
    except ImportError as exc:
        err_console.print(
            f"nataterra serve needs the web extra ({exc.name} is missing): "
            "pip install 'nataterra-core[web]'"
        )
        raise typer.Exit(SETUP_FAILED) from exc
    try:
        allowed_hosts(host, allow_host or ())
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--allow-host") from None

    def say(line: str) -> None:
        err_console.print(f"nataterra serve: {escape(line)}")

    try:
        chosen = None if no_store else open_chosen_store(store, say)
        run(
            host,
            port,
            store=chosen,
            test_seeds=test_seeds,
            allow_hosts=allow_host or (),
            max_bot_time=max_bot_time,
            waiting_seconds=waiting_seconds,
            max_connections=max_connections,
            connections_per_address=max_connections_per_address,
            header_timeout=header_timeout,
        )
    except StoreError as exc:  # a damaged identity key, an unreadable store: no traceback
        say(f"cannot open the store: {exc}")
        raise typer.Exit(SETUP_FAILED) from exc
    except OSError as exc:
        err_console.print(f"nataterra serve: cannot listen on {listen}: {exc.strerror or exc}")
        raise typer.Exit(SETUP_FAILED) from exc
