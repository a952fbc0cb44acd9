"""The games one server holds and their lifecycle, below the method table (:mod:`.games`).

A game is created started (a public test seed, or a client seed given at once) or waiting
for every seat's hidden contribution to the dice (docs/DICE.md), which the last
``game.join`` completes; it is resumed from the store when the server starts again. Every
change goes through the game's :class:`~nataterra_core.game.GameSession` (which writes the
store's log); after it the server's bot seats act, and a game whose rules have ended is
closed at once (the ``reveal`` and ``end`` records). Each game also keeps the answers of its
successful acts by ``command_id`` (a retry gets the first answer) and refuses a stale
``expected_version``.

Bots act in one of two ways. Embedded (the default, ``bots_inline``), they play inside the
call that gave them the turn, as a library caller expects. In a server, the host is told
whom to hand their turns to (:meth:`GameHost.run_bots_with`: the worker pool of
``background.py``): every call answers once its own command is stored, and each bot command
follows through :meth:`GameHost.bot_move`. Every change is told to the watchers
(:meth:`GameHost.watch`: ``game.wait`` and the WebSocket's ``game.changed``).
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from nataterra_core.game import GameSession, decider_for, new_game
from nataterra_core.kernel import (
    Command,
    CommandRejected,
    LogError,
    ReplayDiverged,
    Session,
    read_log,
)
from nataterra_core.kernel.receipts import KeyPair
from nataterra_core.kernel.registry import RuleSystem, system_for
from nataterra_core.kernel.seed_ceremony import SeedCeremony

from .bots import DEFAULT_MAX_BOT_TIME, Bots
from .checks import seat_of
from .errors import GameError, GameErrorCode, rejected
from .receipts import GameReceipts, server_key
from .store import DamagedGame, GameStore, StoredGame
from .wire import ActResult

__all__ = ["DEFAULT_MAX_GAMES", "Game", "GameHost", "Waiting"]

DEFAULT_MAX_GAMES = 1000
"""Games one server holds at once (``--max-games``)."""


@dataclass
class Waiting:
    """A game created with seat seeds: committed to its server seed, collecting one hidden
    contribution per seat (docs/DICE.md) before its header can be written."""

    system: RuleSystem
    seats: tuple[str, ...]
    options: dict[str, Any] | None
    ceremony: SeedCeremony
    tokens: dict[str, str]
    bots: Bots
    key: KeyPair
    """The game's receipt key, drawn at creation (its public half goes into the header)."""


@dataclass
class Game:
    """A started game: its session, its seats' tokens, its bots and its remembered answers."""

    game_id: str
    system: RuleSystem
    session: GameSession
    tokens: dict[str, str]
    bots: Bots
    receipts: GameReceipts | None
    """Its receipt key and seats' view chains (``None``: a game stored before receipts)."""
    # (seat, command_id) -> (what was asked, the answer): successful acts only, since a
    # refused one changed nothing and may simply be tried again.
    done: dict[tuple[str, str], tuple[bytes, ActResult]] = field(default_factory=dict)
    thinking: set[str] = field(default_factory=set)
    """The bot seats whose decision a worker is working on now (``game.view``'s ``thinking``)."""

    def thinking_seats(self) -> tuple[str, ...]:
        """:attr:`thinking` in seat order."""
        return tuple(s for s in self.session.header.seats if s in self.thinking)

    @property
    def version(self) -> int:
        """The seq of the last record."""
        return len(self.session.lines) - 1

    def cached(self, seat: str, command_id: str | None, key: bytes) -> ActResult | None:
        """The answer already given to ``command_id`` (``None``: none); an error when the id
        was used for another request (``key`` differs)."""
        if command_id is None or (seat, command_id) not in self.done:
            return None
        asked, answer = self.done[seat, command_id]
        if asked != key:
            raise GameError(
                GameErrorCode.COMMAND_ID_REUSED,
                f"command_id {command_id!r} was used for another request",
                version=self.version,
            )
        return answer

    def remember(self, seat: str, command_id: str | None, key: bytes, answer: ActResult) -> None:
        """Keep a successful act's answer for a retry with the same ``command_id``."""
        if command_id is not None:
            self.done[seat, command_id] = (key, answer)

    def check_version(self, expected: int | None) -> None:
        """Refuse an act based on another version than the game's (a stale picture)."""
        if expected is not None and expected != self.version:
            raise GameError(
                GameErrorCode.VERSION_CONFLICT,
                f"the game is at version {self.version}, not {expected}",
                version=self.version,
                expected_version=expected,
            )


class GameHost:
    """The games of one server, started or waiting, and every change made to them."""

    def __init__(
        self,
        *,
        max_games: int = DEFAULT_MAX_GAMES,
        store: GameStore | None = None,
        bots_inline: bool = True,
        max_bot_time: float = DEFAULT_MAX_BOT_TIME,
    ):
        """``max_games``: games held at once (started or waiting); ``store``: keep every
        started game on disk and resume the stored ones now (``None``: in memory only);
        ``bots_inline``: the bots play inside the call that gave them the turn (``False``:
        their turns wait for :meth:`run_bots_with`); ``max_bot_time``: the longest a bot
        thinks per decision, in wall-clock seconds (its budget is cut there). The server's
        identity key is the store's (``server.key``), or new without one."""
        self.max_bot_time = max_bot_time
        self._games: dict[str, Game] = {}
        self._waiting: dict[str, Waiting] = {}
        self._max_games = max_games
        self._store = store
        self.server_key = server_key(store.directory if store is not None else None)
        self._bots_inline = bots_inline
        self._bot_turns: Callable[[Game], None] | None = None
        self._bots_due: dict[str, Game] = {}  # turns given before run_bots_with
        self._watchers: dict[str | None, list[Callable[[str], None]]] = {}
        self.set_aside: dict[str, str] = {}
        """Stored games that could not be resumed, and why (their files are left as they are)."""
        if store is not None:
            for stored in store.games():
                if isinstance(stored, DamagedGame):
                    self._set_aside(stored.game_id, stored.reason)
                else:
                    self._resume(stored)

    # -- looking up -------------------------------------------------------------------------

    def session(self, game_id: str) -> GameSession:
        """The live session of ``game_id`` (for embedding the server; clients never see it)."""
        return self.find(game_id, None)[0].session

    def version_of(self, game_id: str) -> int | None:
        """The version of a game held here (0 while it waits for seat seeds; ``None``: no
        such game), for servers that tell watching clients about changes."""
        if game_id in self._waiting:
            return 0
        game = self._games.get(game_id)
        return None if game is None else game.version

    def over(self, game_id: str) -> bool:
        """Whether ``game_id`` is held here and closed (nothing more will come)."""
        game = self._games.get(game_id)
        return game is not None and game.session.closed

    def waiting(self, game_id: str) -> Waiting | None:
        """The game ``game_id`` if it waits for seat seeds."""
        return self._waiting.get(game_id)

    def find(self, game_id: str, token: str | None) -> tuple[Game, str | None]:
        """A started game and the seat of ``token`` (``None``: a spectator), or an error."""
        game = self._games.get(game_id)
        if game is None:
            if game_id in self._waiting:
                waiting = self._waiting[game_id].ceremony.waiting_for
                raise GameError(
                    GameErrorCode.SETUP_REJECTED,
                    f"the game waits for the contributions of {list(waiting)} (game.join)",
                    waiting_for=list(waiting),
                )
            raise GameError(GameErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
        if token is None:
            return game, None
        return game, seat_of(game.tokens, token, game.version)

    def find_seat(self, game_id: str, token: str) -> tuple[Game, str]:
        """A started game and the seat of ``token``, or an error."""
        game, seat = self.find(game_id, token)
        assert seat is not None  # a token was given, so find named a seat or raised
        return game, seat

    # -- watching ---------------------------------------------------------------------------

    def watch(self, game_id: str | None, told: Callable[[str], None]) -> Callable[[], None]:
        """Call ``told(game_id)`` after every change of ``game_id`` (``None``: of any game);
        the function that stops it."""
        self._watchers.setdefault(game_id, []).append(told)

        def stop() -> None:
            watchers = self._watchers.get(game_id, [])
            if told in watchers:
                watchers.remove(told)
            if not watchers:
                self._watchers.pop(game_id, None)

        return stop

    def think(self, game: Game, seat: str, thinking: bool) -> None:
        """``seat``'s bot starts (``thinking``) or stops working on a decision: told to the
        watchers like a change (``game.view``'s ``thinking``, the WebSocket's notes)."""
        if thinking == (seat in game.thinking):
            return
        if thinking:
            game.thinking.add(seat)
        else:
            game.thinking.discard(seat)
        self._changed(game.game_id)

    def thinking_of(self, game_id: str) -> tuple[str, ...]:
        """The bot seats of ``game_id`` thinking now (none for a game not held here)."""
        game = self._games.get(game_id)
        return () if game is None else game.thinking_seats()

    def _changed(self, game_id: str) -> None:
        for told in [*self._watchers.get(game_id, ()), *self._watchers.get(None, ())]:
            told(game_id)

    # -- creating ---------------------------------------------------------------------------

    def check_room(self) -> None:
        """Refuse a new game when the server holds its cap (``--max-games``)."""
        if len(self._games) + len(self._waiting) >= self._max_games:
            raise GameError(
                GameErrorCode.SETUP_REJECTED,
                f"the server holds {self._max_games} games, its cap (--max-games)",
            )

    def check_new(self, game_id: str) -> None:
        """Refuse an id a game held here, or set aside in the store, has already."""
        if game_id in self._games or game_id in self._waiting or game_id in self.set_aside:
            raise GameError(GameErrorCode.GAME_EXISTS, f"game {game_id!r} exists already")

    def start(
        self,
        record: RuleSystem,
        seats: Sequence[str],
        server_seed: bytes,
        game_id: str,
        client_seed: str,
        tokens: dict[str, str],
        options: dict[str, Any] | None,
        bots: Bots,
        key: KeyPair,
    ) -> Game:
        """Write a checked game's header (with ``key``'s public half, the game's receipt
        key) and start record (to the store, with ``key``'s private half, if there is one),
        hold it, and let its bots act."""
        sink = None
        if self._store is not None:
            store = self._store
            try:
                writer = store.create(game_id, server_seed, tokens, bots.names, key.secret)
            except FileExistsError as exc:
                raise GameError(GameErrorCode.GAME_EXISTS, str(exc)) from exc
            sink = writer.write
        try:
            session = new_game(
                seats,
                game=record.id,
                server_seed=server_seed,
                game_id=game_id,
                client_seed=client_seed,
                options=options,
                sink=sink,
                receipt_key=key.public,
            )
        except (ValueError, CommandRejected) as exc:
            raise rejected(exc) from exc
        receipts = self.receipts(session, key)
        game = self._games[game_id] = Game(game_id, record, session, tokens, bots, receipts)
        self._play_bots(game)
        return game

    def wait_for_seeds(
        self,
        record: RuleSystem,
        game_id: str,
        seats: tuple[str, ...],
        options: dict[str, Any] | None,
        bots: Bots,
    ) -> tuple[Waiting, Game | None]:
        """A game that waits for every seat's contribution (the bots' are sent now), and the
        started game if no person has a seat."""
        ceremony = SeedCeremony(secrets.token_bytes(32), seats)
        for seat in bots.names:  # the server's own seats contribute at once
            ceremony.contribute(seat, secrets.token_hex(16))
        tokens = {seat: secrets.token_hex(16) for seat in seats}
        waiting = Waiting(record, seats, options, ceremony, tokens, bots, KeyPair.generate())
        self._waiting[game_id] = waiting
        return waiting, self._begin(game_id, waiting) if ceremony.complete else None

    def join(self, game_id: str, token: str, client_seed: str) -> tuple[Waiting, Game | None]:
        """A seat's contribution to the dice; the game, started once every seat has sent one.

        No seat learns another's contribution before the header shows them all.
        """
        waiting = self._waiting.get(game_id)
        if waiting is None:
            if game_id in self._games:
                game = self._games[game_id]
                raise GameError(
                    GameErrorCode.SETUP_REJECTED, "the game has started", version=game.version
                )
            raise GameError(GameErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
        seat = seat_of(waiting.tokens, token, 0)
        if seat in waiting.bots.names:
            raise GameError(GameErrorCode.SETUP_REJECTED, f"the server plays {seat!r}")
        try:
            waiting.ceremony.contribute(seat, client_seed)
        except ValueError as exc:
            raise GameError(GameErrorCode.SETUP_REJECTED, str(exc)) from exc
        if not waiting.ceremony.complete:
            return waiting, None
        return waiting, self._begin(game_id, waiting)

    def _begin(self, game_id: str, waiting: Waiting) -> Game:
        """Start a game whose seats have all contributed, and let its bots act."""
        ceremony = waiting.ceremony
        game = self.start(
            waiting.system,
            waiting.seats,
            ceremony.server_seed,
            game_id,
            ceremony.client_seed(),
            waiting.tokens,
            waiting.options,
            waiting.bots,
            waiting.key,
        )
        del self._waiting[game_id]
        return game

    def _resume(self, stored: StoredGame) -> None:
        """Rebuild a stored game by re-executing its log; its seats' tokens work again."""
        assert self._store is not None
        try:
            log = read_log(stored.log, decider_for)
            session = Session.from_log(
                log.decider, log.header, log.records, log.lines, stored.server_seed
            )
        except (LogError, ReplayDiverged, ValueError) as exc:
            self._set_aside(stored.game_id, str(exc))
            return
        receipts = None
        if stored.receipt_key is not None:
            key = KeyPair(stored.receipt_key)
            if key.public != log.header.receipt_key:
                self._set_aside(stored.game_id, "its receipt key is not the one in its header")
                return
            receipts = self.receipts(session, key)
        session.attach_sink(self._store.append(stored.game_id).write)
        record = system_for(log.header)
        bots = Bots.named(record, log.header.seats, stored.bots, max_seconds=self.max_bot_time)
        game = Game(stored.game_id, record, session, stored.tokens, bots, receipts)
        self._games[stored.game_id] = game
        self._play_bots(game)  # the crash may have come before the bots' answer

    def _set_aside(self, game_id: str, reason: str) -> None:
        """Leave a stored game that cannot be resumed, saying why on one stderr line."""
        self.set_aside[game_id] = reason
        print(f"nataterra-rpc: not resuming {game_id}: {reason}", file=sys.stderr)

    def receipts(self, session: GameSession, key: KeyPair) -> GameReceipts:
        """A game's receipts: its key, certified by this server's identity key."""
        game_id = session.header.game_id
        certificate = self.server_key.certify(game_id, key.public)
        return GameReceipts(key, certificate, game_id, session.header.seats, session.decider)

    # -- acting -----------------------------------------------------------------------------

    def apply(self, game: Game, seat: str, command: Command) -> None:
        """Apply the seat's command; then the bots act and a finished game is closed."""
        self._change(game, lambda: game.session.apply(seat, command))

    def undo(self, game: Game, seat: str) -> int:
        """Take back the seat's last command; the seq of the record undone."""
        try:
            undone = game.session.undo(seat)
        except CommandRejected as exc:
            raise rejected(exc, game.version) from exc
        self._close_if_over(game)
        self._changed(game.game_id)  # the turn goes back to the seat: no bot acts on an undo
        return undone

    def redo(self, game: Game, seat: str) -> None:
        """Apply the seat's last undone command again; then as :meth:`apply`."""
        self._change(game, lambda: game.session.redo(seat))

    def _change(self, game: Game, change: Callable[[], object]) -> None:
        try:
            change()
            self._play_bots(game)
        except CommandRejected as exc:
            raise rejected(exc, game.version) from exc

    # -- bots -------------------------------------------------------------------------------

    def run_bots_with(self, turns: Callable[[Game], None]) -> None:
        """Hand the bots' turns to ``turns`` (called with a game whose bot seat may act, after
        every change; it sends their commands through :meth:`bot_move`), the turns given
        before this first."""
        self._bot_turns = turns
        self._bots_inline = False
        due, self._bots_due = self._bots_due, {}
        for game in due.values():
            turns(game)

    def bot_move(self, game: Game, seat: str, command: Command, version: int) -> bool:
        """Apply a bot's command chosen at ``version``; ``False`` (nothing done) when the
        game has moved on since (the bot must look again) or the seat may no longer act."""
        session = game.session
        if game.version != version or seat not in session.acting_seats():
            return False
        session.apply(seat, command)
        self._play_bots(game)
        return True

    def _play_bots(self, game: Game) -> None:
        """After a change: let the server's seats act (or hand them their turn), close the
        game if that ended it, and tell the watchers."""
        if self._bots_inline:
            game.bots.play(game.system, game.session)
        self._close_if_over(game)
        if not self._bots_inline and game.bots.acting(game.session) is not None:
            if self._bot_turns is None:
                self._bots_due[game.game_id] = game
            else:
                self._bot_turns(game)
        self._changed(game.game_id)

    @staticmethod
    def _close_if_over(game: Game) -> None:
        session = game.session
        if session.outcome() is not None and not session.closed:
            session.close()  # the rules ended the game: publish the seed and the result
