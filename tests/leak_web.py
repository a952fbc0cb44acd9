"""The leak test over the browser's WebSocket (issue 30 item 3): both twins hosted in one web
server, asked over its ``/rpc`` WebSocket.

:class:`WebTwins` is :class:`~leak_rpc.HostedTwins` with the game created on the web
application's own :class:`~nataterra_adapters.rpc.games.Games` (``app.state.games``), served
by uvicorn in a thread of this process, and every request sent over a WebSocket of the
seat's own (a spectator's for ``None``): the replies a seat's connection gets of either twin
are compared byte for byte. The ``game.changed`` notes a connection also gets carry the
game's version and thinking seats only; they are kept apart (their timing relative to a
reply is the server loop's) and not compared.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from typing import Any

import pytest
from leak_rpc import HostedTwins

from nataterra_core.kernel.registry import RuleSystem

__all__ = ["WebTwins"]


class WebTwins(HostedTwins):
    """One game of ``record`` on an in-process web server, every seat holding a token and a
    WebSocket of its own. Close it with :meth:`close`."""

    def __init__(
        self,
        record: RuleSystem,
        seats: tuple[str, ...],
        seed: int,
        options: dict[str, Any],
        served: RuleSystem | None = None,
    ) -> None:
        uvicorn = pytest.importorskip("uvicorn")
        self._websockets = pytest.importorskip("websockets.sync.client")
        from nataterra_adapters.web import create_app

        app = create_app(test_seeds=True)
        sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"ws://127.0.0.1:{sock.getsockname()[1]}/rpc"
        self._server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            assert time.monotonic() < deadline, "the web server did not start"
            time.sleep(0.02)
        self._sockets: dict[str | None, Any] = {}
        self._open = contextlib.ExitStack()
        self._next_id = 0
        # Created over the WebSocket: the server's changes are told on its own loop.
        self.game_id, self.tokens = "", {}
        created = json.loads(
            self.call(
                "game.create",
                None,
                rules=record.id,
                seats=list(seats),
                seed=seed,
                options=dict(options),
            )
        )["result"]
        self.game_id, self.tokens = created["game_id"], dict(created["tokens"])
        self.game = app.state.games.host._games[self.game_id]
        if served is not None:
            self.game.system = served
        self.session = self.game.session

    def _socket(self, seat: str | None) -> Any:
        if seat not in self._sockets:
            self._sockets[seat] = self._open.enter_context(self._websockets.connect(self.url))
        return self._sockets[seat]

    def call(self, method: str, seat: str | None, **params: Any) -> bytes:
        """One request as ``seat`` (``None``: a spectator) over its WebSocket: the reply's
        text as sent (notes that arrive first are passed over)."""
        if seat is not None:
            params["token"] = self.tokens[seat]
        self._next_id += 1
        if self.game_id:
            params = {"game_id": self.game_id, **params}
        message = {
            "jsonrpc": "2.0",
            "method": method,
            "params": params,
            "id": self._next_id,
        }
        connection = self._socket(seat)
        connection.send(json.dumps(message))
        while True:
            text = connection.recv(timeout=20)
            if json.loads(text).get("id") == self._next_id:
                # The id counts every request: compared across twins, a reply without it.
                reply = text.replace(f'"id":{self._next_id}', '"id":1').encode()
                assert b'"code":-326' not in reply, reply  # game answers only
                return reply

    def close(self) -> None:
        """Close every WebSocket and stop the server."""
        self._open.close()
        self._server.should_exit = True
        self._thread.join(10)
