"""The starlette application: the client's files and the JSON-RPC WebSocket (``/rpc``).

Every connection gets its own dispatcher over the server's shared :class:`Games` (as a TCP
connection of ``nataterra-rpc`` does, with its own game quota). Requests are answered one at
a time on the event loop, so the games need no locks. A connection that named a game
(``params.game_id``) is told when that game changes by another connection (a move, a bot's
answer, a seat joining) with the notification ``game.changed`` ``{"game_id", "version"}``,
so a page redraws without polling.
"""

from __future__ import annotations

import contextlib
import socket
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import uvicorn
from starlette.applications import Starlette
from starlette.routing import Mount, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..rpc.games import Games
from ..rpc.protocol import DEFAULT_MAX_BATCH, Dispatcher
from ..rpc.server import DEFAULT_GAMES_PER_CLIENT
from ..rpc.store import GameStore

__all__ = ["MAX_MESSAGE_BYTES", "create_app", "serve"]

MAX_MESSAGE_BYTES = 8 * 1024 * 1024
"""Largest WebSocket message accepted: a whole log sent to ``log.replay`` or ``log.verify``."""


@dataclass(eq=False)
class _Connection:
    websocket: WebSocket
    dispatcher: Dispatcher
    watched: dict[str, int | None] = field(default_factory=dict)


class _Hub:
    """The connections of one server and the games each watches."""

    def __init__(self, games: Games, games_per_client: int, max_batch: int) -> None:
        self.games = games
        self.games_per_client = games_per_client
        self.max_batch = max_batch
        self.connections: set[_Connection] = set()

    def connect(self, websocket: WebSocket) -> _Connection:
        methods = self.games.methods(games_per_client=self.games_per_client)
        connection = _Connection(websocket, Dispatcher(methods, max_batch=self.max_batch))
        self.connections.add(connection)
        return connection

    def answer(self, connection: _Connection, frame: bytes) -> bytes | None:
        """The reply to one frame; the games it names are watched from now on."""
        reply = connection.dispatcher.handle(frame)
        for game_id in _games_named(frame):
            connection.watched[game_id] = self.games.version_of(game_id)
        return reply

    async def notify(self) -> None:
        """Tell every connection about the watched games whose version changed."""
        for connection in list(self.connections):
            for game_id, seen in list(connection.watched.items()):
                version = self.games.version_of(game_id)
                if version == seen:
                    continue
                connection.watched[game_id] = version
                note = {
                    "jsonrpc": "2.0",
                    "method": "game.changed",
                    "params": {"game_id": game_id, "version": version},
                }
                with contextlib.suppress(Exception):  # a closing socket: its loop ends it
                    await connection.websocket.send_text(msgspec.json.encode(note).decode())


def _games_named(frame: bytes) -> list[str]:
    """The ``game_id`` params of the requests in a frame (nothing for a bad frame)."""
    try:
        message = msgspec.json.decode(frame)
    except (msgspec.DecodeError, RecursionError, ValueError):
        return []
    requests = message if isinstance(message, list) else [message]
    named = []
    for request in requests:
        params = request.get("params") if isinstance(request, dict) else None
        if isinstance(params, dict) and isinstance(params.get("game_id"), str):
            named.append(params["game_id"])
    return named[:16]


def _same_origin(websocket: WebSocket) -> bool:
    """A browser's WebSocket from another site's page is refused (it could act with a token
    the user opened here); clients that send no ``Origin`` (scripts) are let in."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def create_app(
    *,
    store: Path | None = None,
    test_seeds: bool = False,
    games_per_client: int = DEFAULT_GAMES_PER_CLIENT,
    max_batch: int = DEFAULT_MAX_BATCH,
) -> Starlette:
    """The application: the client at ``/`` and the JSON-RPC WebSocket at ``/rpc``.

    ``store``: keep every game on disk and resume the stored ones (``None``: in memory);
    ``test_seeds``: accept ``game.create``'s public ``seed`` (tests and demos only).
    """
    games = Games(test_seeds=test_seeds, store=GameStore(store) if store is not None else None)
    hub = _Hub(games, games_per_client, max_batch)

    async def rpc(websocket: WebSocket) -> None:
        if not _same_origin(websocket):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        connection = hub.connect(websocket)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                frame = data.encode() if data is not None else message.get("bytes") or b""
                reply = hub.answer(connection, frame)
                if reply is not None:
                    await websocket.send_text(reply.decode())
                await hub.notify()
        except WebSocketDisconnect:
            pass
        finally:
            hub.connections.discard(connection)

    client = StaticFiles(packages=[("nataterra_adapters.web", "static")], html=True)
    app = Starlette(routes=[WebSocketRoute("/rpc", rpc), Mount("/", app=client)])
    app.state.games = games
    return app


def serve(
    host: str,
    port: int,
    *,
    store: Path | None = None,
    test_seeds: bool = False,
    sock: socket.socket | None = None,
    **config: Any,
) -> None:
    """Serve the application until interrupted (port 0: any free port, printed)."""
    app = create_app(store=store, test_seeds=test_seeds)
    if sock is None:
        sock = socket.create_server((host, port))
    address = sock.getsockname()
    shown = f"[{address[0]}]" if ":" in address[0] else address[0]
    print(f"nataterra serve: open http://{shown}:{address[1]}/ in a browser", file=sys.stderr)
    key = app.state.games.host.server_key.public
    print(f"nataterra serve: server key {key} (it certifies each game's key)", file=sys.stderr)
    sys.stderr.flush()
    settings = {"log_level": "warning", "ws_max_size": MAX_MESSAGE_BYTES, **config}
    server = uvicorn.Server(uvicorn.Config(app, **settings))
    server.run(sockets=[sock])
