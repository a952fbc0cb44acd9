"""The leak test over JSON-RPC (issue 30 item 3): both twins hosted in one in-process server.

:class:`HostedTwins` creates a game on a :class:`~nataterra_adapters.rpc.server.Server` (the
test seeds, no bots, every seat a token) and plays on that game's own session. To ask the
server about a twin, :meth:`HostedTwins.hosting` swaps the game's session for a copy standing
at the twin's state (same game id, header and receipt key; a fresh receipt chain grown from
the same lines) and puts the game back afterwards, so every answer a seat gets of either
twin comes from the same server through the same method table, byte for byte.

Every answer list ends with what the server pushed to the seat meanwhile (:meth:`told`):
nothing here, since JSON-RPC over TCP pushes no notification (a client asks ``game.wait``,
which is compared as an answer); the WebSocket's ``game.changed`` notes in ``leak_web.py``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
from nataterra_adapters.rpc.receipts import GameReceipts
from nataterra_adapters.rpc.server import Server
from nataterra_adapters.rpc.wire import CreateParams

from nataterra_core.game import GameSession
from nataterra_core.kernel import Header, RecordCodec, ReplayFailed, replay_states
from nataterra_core.kernel.registry import RuleSystem

__all__ = ["HostedTwins", "fork"]


def _folds(session: GameSession) -> bool:
    """Whether ``session``'s log folds from its header (``replay_states``)."""
    decider = session.decider
    records = RecordCodec(decider.command_types, decider.event_types).decode_lines(session.lines)
    header = records[0]
    assert isinstance(header, Header)
    try:
        for _ in replay_states(decider, header, records):
            pass
    except ReplayFailed:
        return False
    return True


def fork(session: GameSession, state: Any) -> GameSession:
    """A copy of ``session`` (same header, key and log) standing at ``state``."""
    copied = copy.copy(session)
    copied._lines = list(session._lines)
    copied._undoable, copied._redoable = [], []
    copied._decision, copied._sink = None, None
    copied.state = state
    return copied


class HostedTwins:
    """One game of ``record`` on an in-process RPC server, every seat holding a token
    (``served``: the record the server uses for the game, to test a mutated copy)."""

    def __init__(
        self,
        record: RuleSystem,
        seats: tuple[str, ...],
        seed: int,
        options: dict[str, Any],
        served: RuleSystem | None = None,
    ) -> None:
        self.server = Server(test_seeds=True)
        created = self.server.games.create(
            CreateParams(rules=record.id, seats=list(seats), seed=seed, options=dict(options))
        )
        self.game_id, self.tokens = created.game_id, dict(created.tokens)
        self.game = self.server.games.host._games[self.game_id]
        if served is not None:  # a copy of the record the server words and views by
            self.game.system = served
        self.session: GameSession = self.game.session

    @contextmanager
    def hosting(self, session: GameSession) -> Iterator[None]:
        """The server answers from ``session`` (a fork of the game's own) until the end."""
        game = self.game
        saved = game.session, game.receipts, game.done
        kept = saved[1]
        game.session, game.done = session, {}
        if kept is not None:
            game.receipts = GameReceipts(
                kept.key, kept.certificate, self.game_id, session.header.seats, session.decider
            )
        try:
            yield
        finally:
            game.session, game.receipts, game.done = saved

    def call(self, method: str, seat: str | None, **params: Any) -> bytes:
        """One request as ``seat`` (``None``: a spectator); the server's reply bytes."""
        if seat is not None:
            params["token"] = self.tokens[seat]
        params = {"game_id": self.game_id, **params}
        message = {"jsonrpc": "2.0", "method": method, "params": params, "id": 1}
        reply = self.server.dispatcher.handle(json.dumps(message).encode())
        assert reply is not None and b'"code":-326' not in reply, reply  # game answers only
        return reply

    def told(self, seat: str | None) -> list[bytes]:
        """The notifications ``seat``'s connection got while a twin was hosted, called last
        in the hosting: none here (JSON-RPC over TCP pushes nothing)."""
        return []

    def looking(self, state: Any, seat: str | None) -> list[bytes]:
        """What ``seat`` (``None``: a spectator) gets of ``state`` without moving: its view,
        legal list (with words and targets; a seat's only), the last record in words, its
        receipt, ``game.wait``'s answer and every notification."""
        with self.hosting(fork(self.session, state)):
            last = len(self.session.lines) - 1
            return [
                self.call("game.view", seat),
                *([self.call("game.legal_commands", seat)] if seat is not None else []),
                self.call("game.log", seat, words=True, since=last),
                self.call("game.receipt", seat),
                self.call("game.wait", seat, version=last - 1),
                *self.told(seat),
            ]

    def refusal(self, state: Any, seat: str, command: Any) -> list[bytes] | None:
        """The server's answer to ``seat`` sending ``command`` at ``state`` when refused, and
        the notifications it got (``None``: accepted, whose records, and the notifications
        of a game it ended, may show the seat what it drew)."""
        with self.hosting(fork(self.session, state)):
            reply = self.call("game.apply", seat, command=msgspec.to_builtins(command))
            told = self.told(seat)
        return None if b'"error"' not in reply else [reply, *told]

    def after(self, state: Any, seat: str | None, other: str, command: Any) -> list[bytes] | None:
        """``other`` plays ``command`` at ``state`` over RPC; then what ``seat`` gets: the
        game's view, the new records in words and lines, its receipt, ``game.wait``'s answer
        and every notification (``game.changed`` of the move, on the WebSocket). ``None``
        when the log does not fold: a twin's record may not follow the game's real records
        (it draws from a pile the twin changed), and the server words a record from the
        state its log folds to, so it has no words for a log that is none."""
        moved = fork(self.session, state)
        first = len(moved.lines)
        with self.hosting(moved):
            applied = self.call("game.apply", other, command=msgspec.to_builtins(command))
            assert b'"error"' not in applied, applied
            if state is not self.session.state and not _folds(moved):
                return None
            return [
                self.call("game.view", seat),
                self.call("game.log", seat, words=True, since=first),
                self.call("game.receipt", seat),
                self.call("game.wait", seat, version=first - 1),
                *self.told(seat),
            ]
