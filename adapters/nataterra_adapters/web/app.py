"""The starlette application: the client's files, each game's how-to-play page
(``/how-to-play/ID.md``) and the JSON-RPC WebSocket (``/rpc``).

Every connection gets its own dispatcher over the server's shared :class:`Games` (as a TCP
connection of ``nataterra-rpc`` does, with its own game quota), and the bots, ``game.wait``
and the slow methods go through the same :class:`~..rpc.background.Background` as
``nataterra-rpc``'s (its worker threads): the games change only on the event loop, so they
need no locks, and no request stalls the others. A connection that named a game
(``params.game_id``) is told of each later version of it (a move of any connection, its own
included since the bots' commands follow it; a bot's command; the start once the last seat
has joined), and each time one of its bot seats starts or stops thinking, with the
notification ``game.changed`` ``{"game_id", "version", "thinking"}`` (``thinking``: the bot
seats working on a decision now, as ``game.view``'s), so a page redraws without polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any

import msgspec
import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from nataterra_core.kernel.registry import system_ids, systems

from ..rpc.admission import DEFAULT_CONNECTIONS_PER_ADDRESS, DEFAULT_MAX_CONNECTIONS
from ..rpc.background import DEFAULT_BOT_SECONDS, Answering, Background
from ..rpc.bots import DEFAULT_MAX_BOT_TIME
from ..rpc.games import Games
from ..rpc.protocol import DEFAULT_MAX_BATCH, Dispatcher
from ..rpc.server import DEFAULT_GAMES_PER_CLIENT
from ..rpc.store import Store
from ..rpc.waiting import DEFAULT_WAITING_SECONDS
from ..rpc.wire import NoParams
from .connections import DEFAULT_HEADER_TIMEOUT, ConnectionGuard, GuardedServer
from .hosts import HEALTH_PATH, LOOPBACK_NAMES, HostGuard, allowed_hosts

__all__ = ["MAX_MESSAGE_BYTES", "create_app", "serve"]

MAX_MESSAGE_BYTES = 8 * 1024 * 1024
"""Largest WebSocket message accepted: a whole log sent to ``log.replay`` or ``log.verify``."""


@dataclass(eq=False)
class _Connection:
    websocket: WebSocket
    dispatcher: Dispatcher
    watched: dict[str, tuple[int | None, tuple[str, ...]]] = field(default_factory=dict)
    """Each game watched: the version and the thinking seats last told."""


class _Hub:
    """The connections of one server and the games each watches."""

    def __init__(
        self, games: Games, games_per_client: int, max_batch: int, bot_seconds: float
    ) -> None:
        self.games = games
        self.games_per_client = games_per_client
        self.max_batch = max_batch
        self.connections: set[_Connection] = set()
        self.background = Background(games.host, bot_seconds=bot_seconds)
        self._telling: asyncio.Task[None] | None = None
        self._changed = False

    def start(self) -> None:
        """On the running loop: the bots' turns, and notifications after every change."""
        self.background.start()
        self.games.host.watch(None, lambda _: self._tell())

    def _tell(self) -> None:
        self._changed = True
        if self._telling is None or self._telling.done():
            self._telling = asyncio.get_running_loop().create_task(self._tell_all())

    async def _tell_all(self) -> None:
        # A change made while the connections are being told gets another round.
        while self._changed:
            self._changed = False
            await self.notify()

    def quiet(self) -> bool:
        """Whether every change has been told: no round of notifications is under way or
        due (a test hosting a game waits for it before it looks at what was sent)."""
        return not self._changed and (self._telling is None or self._telling.done())

    def connect(self, websocket: WebSocket) -> _Connection:
        methods = self.games.methods(games_per_client=self.games_per_client)
        connection = _Connection(websocket, Dispatcher(methods, max_batch=self.max_batch))
        self.connections.add(connection)
        return connection

    def answered(self, connection: _Connection, frame: bytes) -> None:
        """The games an answered frame names are watched from now on. Only a note moves what
        the connection has been told (an answer might not show a bot's command that came
        between two of its calls)."""
        for game_id in _games_named(frame):
            connection.watched.setdefault(game_id, self._now(game_id))

    def _now(self, game_id: str) -> tuple[int | None, tuple[str, ...]]:
        return self.games.version_of(game_id), self.games.host.thinking_of(game_id)

    async def notify(self) -> None:
        """Tell every connection about the watched games whose version or thinking seats
        changed."""
        for connection in list(self.connections):
            for game_id, seen in list(connection.watched.items()):
                now = self._now(game_id)
                if now == seen:
                    continue
                connection.watched[game_id] = now
                version, thinking = now
                note = {
                    "jsonrpc": "2.0",
                    "method": "game.changed",
                    "params": {"game_id": game_id, "version": version, "thinking": list(thinking)},
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
    """A browser's WebSocket from another page than this server's (another port of an
    allowed host) is refused (it could act with a token the user opened here); clients that
    send no ``Origin`` (scripts) are let in. :class:`HostGuard` has already checked that both
    headers name an allowed host (the ``Host`` alone proves nothing: DNS rebinding sets it)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


async def how_to_play(request: Request) -> PlainTextResponse:
    """A rule system's page for its players (``Hooks.how_to_play``) as Markdown; 404 for an
    id that is not registered or a system without one."""
    rules = request.path_params["rules"]
    if rules not in system_ids():
        return PlainTextResponse(f"no rule system {rules!r}", status_code=404)
    hook = next(record for record in systems() if record.id == rules).hooks.how_to_play
    if hook is None:
        return PlainTextResponse(f"{rules} has no how-to-play page", status_code=404)
    return PlainTextResponse(hook(), media_type="text/markdown; charset=utf-8")


def create_app(
    *,
    store: Store | None = None,
    test_seeds: bool = False,
    games_per_client: int = DEFAULT_GAMES_PER_CLIENT,
    max_batch: int = DEFAULT_MAX_BATCH,
    hosts: Iterable[str] = LOOPBACK_NAMES,
    max_bot_time: float = DEFAULT_MAX_BOT_TIME,
    waiting_seconds: float = DEFAULT_WAITING_SECONDS,
) -> Starlette:
    """The application: the client at ``/`` and the JSON-RPC WebSocket at ``/rpc``.

    ``store``: keep every game there and serve the stored ones (``None``: in memory);
    ``test_seeds``: accept ``game.create``'s public ``seed`` (tests and demos only);
    ``hosts``: the host names requests may carry in ``Host`` and ``Origin``
    (:func:`~.hosts.allowed_hosts`; ``*``: any); ``max_bot_time``: the longest a bot
    thinks per decision (``--max-bot-time``; a decision past twice that, and at least the
    RPC server's ``--bot-seconds`` default, goes to the random legal player);
    ``waiting_seconds``: how long a game may wait for its seats' ``game.join``.
    """
    games = Games(
        test_seeds=test_seeds,
        store=store,
        bots_inline=False,
        max_bot_time=max_bot_time,
        waiting_seconds=waiting_seconds,
    )
    hub = _Hub(games, games_per_client, max_batch, max(DEFAULT_BOT_SECONDS, 2 * max_bot_time))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start()
        try:
            yield
        finally:
            await hub.background.close()

    async def rpc(websocket: WebSocket) -> None:
        if not _same_origin(websocket):
            await websocket.close(code=1008)
            return
        await websocket.accept()
        connection = hub.connect(websocket)

        async def send(reply: bytes) -> None:
            with contextlib.suppress(Exception):  # a closing socket: the loop below ends it
                await websocket.send_text(reply.decode())

        answering = Answering(
            connection.dispatcher,
            hub.background,
            send,
            lambda frame: hub.answered(connection, frame),
        )
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                frame = data.encode() if data is not None else message.get("bytes") or b""
                await answering.start(frame)
        except WebSocketDisconnect:
            pass
        finally:
            answering.abandon()
            hub.connections.discard(connection)

    async def health(request: Request) -> JSONResponse:
        return JSONResponse(games.health(NoParams()))

    client = StaticFiles(packages=[("nataterra_adapters.web", "static")], html=True)
    app = Starlette(
        routes=[
            Route(HEALTH_PATH, health),
            WebSocketRoute("/rpc", rpc),
            Route("/how-to-play/{rules}.md", how_to_play),
            Mount("/", app=client),
        ],
        middleware=[Middleware(HostGuard, allowed=frozenset(hosts))],
        lifespan=lifespan,
    )
    app.state.games = games
    app.state.hub = hub  # its connections and notifications (the leak test compares them)
    return app


def serve(
    host: str,
    port: int,
    *,
    store: Store | None = None,
    test_seeds: bool = False,
    sock: socket.socket | None = None,
    allow_hosts: Iterable[str] = (),
    max_bot_time: float = DEFAULT_MAX_BOT_TIME,
    waiting_seconds: float = DEFAULT_WAITING_SECONDS,
    max_connections: int = DEFAULT_MAX_CONNECTIONS,
    connections_per_address: int = DEFAULT_CONNECTIONS_PER_ADDRESS,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    **config: Any,
) -> None:
    """Serve the application until interrupted (port 0: any free port, printed).

    Requests must name ``host`` (and the loopback names when it is a loopback address) or
    one of ``allow_hosts`` in their ``Host`` and ``Origin`` headers (``*``: any). At most
    ``max_connections`` (lowered to fit the descriptor limit) HTTP and WebSocket connections
    are served at once, ``connections_per_address`` from one client address; one more is
    answered 503. A request head must come whole within ``header_timeout`` seconds (408).
    """
    hosts = allowed_hosts(host, allow_hosts)
    app = create_app(
        store=store,
        test_seeds=test_seeds,
        hosts=hosts,
        max_bot_time=max_bot_time,
        waiting_seconds=waiting_seconds,
    )
    if sock is None:
        sock = socket.create_server((host, port))
    address = sock.getsockname()
    shown = f"[{address[0]}]" if ":" in address[0] else address[0]
    print(f"nataterra serve: open http://{shown}:{address[1]}/ in a browser", file=sys.stderr)
    key = app.state.games.host.server_key.public
    print(f"nataterra serve: server key {key} (it certifies each game's key)", file=sys.stderr)
    sys.stderr.flush()
    guard = ConnectionGuard(max_connections, connections_per_address, header_timeout)
    http, ws = guard.protocols()
    settings = {"log_level": "warning", "ws_max_size": MAX_MESSAGE_BYTES, **config}
    server = GuardedServer(uvicorn.Config(app, http=http, ws=ws, **settings), guard)
    server.run(sockets=[sock])
