"""The leak test over the browser's WebSocket (issue 30 item 3): both twins hosted in one web
server, asked over its ``/rpc`` WebSocket.

:class:`WebTwins` is :class:`~leak_rpc.HostedTwins` with the game created on the web
application's own :class:`~nataterra_adapters.rpc.games.Games` (``app.state.games``), served
by uvicorn in a thread of this process, and every request sent over a WebSocket of the
seat's own (a spectator's for ``None``): the replies a seat's connection gets of either twin
are compared byte for byte, and so are the ``game.changed`` notes it is pushed meanwhile
(:meth:`WebTwins.told`). A note's timing relative to a reply is the server loop's, so notes
are kept apart from replies, in arrival order, and gathered once the server has told every
change (``app.state.hub``). Nothing in them is normalised: what each connection was last
told is put back after each twin (:meth:`WebTwins.hosting`), so both twins start from the
same and a note differs only if what the seat is told does.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from leak_rpc import HostedTwins
from serving import serving

from nataterra_core.game import GameSession
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
        self._websockets = pytest.importorskip("websockets.sync.client")
        from nataterra_adapters.web import create_app

        app = create_app(test_seeds=True)
        self._open = contextlib.ExitStack()
        address = self._open.enter_context(serving(app))
        self.url = address.replace("http://", "ws://", 1) + "/rpc"
        self._sockets: dict[str | None, Any] = {}
        self._notes: dict[str | None, list[bytes]] = {}
        """The notifications each connection got and no one has looked at yet."""
        self._hub = app.state.hub
        self._changes = self._changes_before = 0
        """Changes the server told its hub of (all time, and before the hosting)."""
        app.state.games.host.watch(None, self._changed)
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
        # Every connection watches the game from the start, as a page that opened it does:
        # the seat's is told of the other seat's move before it asks anything.
        for seat in (*seats, None):
            self.call("game.view", seat)
        self.told(None)

    def _changed(self, game_id: str) -> None:
        # On the server's loop, as the hub is told of a change (it then notifies).
        self._changes += 1

    def _socket(self, seat: str | None) -> Any:
        if seat not in self._sockets:
            self._sockets[seat] = self._open.enter_context(self._websockets.connect(self.url))
            self._notes[seat] = []
        return self._sockets[seat]

    @contextmanager
    def hosting(self, session: GameSession) -> Iterator[None]:
        """As :meth:`HostedTwins.hosting`; besides, what each connection was last told of
        the game is put back afterwards, so the next twin's notes start from the same."""
        told = {connection: dict(connection.watched) for connection in self._hub.connections}
        self._changes_before = self._changes
        try:
            with super().hosting(session):
                try:
                    yield
                finally:  # every note told while the twin is hosted, not the game
                    self._settle()
        finally:
            for connection in self._hub.connections:
                connection.watched = dict(told.get(connection, {}))

    def _settle(self) -> None:
        """Wait until the server has told every change, and every note it sent is read."""
        deadline = time.monotonic() + 30
        while not self._hub.quiet():
            assert time.monotonic() < deadline, "the web server never told its changes"
            time.sleep(0.002)
        if self._changes != self._changes_before:  # notes were sent: read up to them
            self._changes_before = self._changes
            for seat in list(self._sockets):
                self.call("game.view", seat)  # its answer comes after the notes sent before

    def told(self, seat: str | None) -> list[bytes]:
        """The ``game.changed`` notes ``seat``'s connection got in this hosting, in arrival
        order (every connection's are read and set aside)."""
        self._settle()
        notes = list(self._notes.get(seat, ()))
        for kept in self._notes.values():
            kept.clear()
        return notes

    def call(self, method: str, seat: str | None, **params: Any) -> bytes:
        """One request as ``seat`` (``None``: a spectator) over its WebSocket: the reply's
        text as sent (notes that arrive first are kept for :meth:`told`)."""
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
            text = connection.recv(timeout=30)
            if "id" not in json.loads(text):  # a notification: kept for told()
                self._notes[seat].append(text.encode())
                continue
            if json.loads(text).get("id") == self._next_id:
                # The id counts every request: compared across twins, a reply without it.
                reply = text.replace(f'"id":{self._next_id}', '"id":1').encode()
                assert b'"code":-326' not in reply, reply  # game answers only
                return reply

    def close(self) -> None:
        """Close every WebSocket and stop the server."""
        self._open.close()
