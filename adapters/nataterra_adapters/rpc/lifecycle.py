"""The games one server holds and their lifecycle, below the method table (:mod:`.games`).

A game is created started (a public test seed, or a client seed given at once) or waiting
for every seat's hidden contribution to the dice (:mod:`.waiting`, kept in the store too);
it is resumed from the store when the server starts again. Every
change goes through the game's :class:`~nataterra_core.game.GameSession` (which writes the
store's log); after it the server's bot seats act, and a game whose rules have ended is
closed at once (the ``reveal`` and ``end`` records). Each game also keeps the answers of its
successful acts by ``command_id``, in the store too (a retry through any process gets the
first answer), and refuses a stale ``expected_version``.

Stored games are read when first asked for, not when the server starts (:mod:`.reading`:
the :attr:`GameHost.reader`, which also wakes the games whose bots were to move and keeps the
games set aside). A finished game leaves memory once its last record is stored (a few stay, for
the calls that follow its end; any other is read again on demand, read-only), so
``--max-games`` counts the games in play. Their records reach the store through
:mod:`.writes`; a write the store refuses drops the game's session (read again next time).

Bots act in one of two ways. Embedded (the default, ``bots_inline``), they play inside the
call that gave them the turn, as a library caller expects. In a server, the host is told
whom to hand their turns to (:meth:`GameHost.run_bots_with`: the worker pool of
``background.py``): every call answers once its own command is stored, and each bot command
follows through :meth:`GameHost.bot_move`. Every change is told to the watchers
(:meth:`GameHost.watch`: ``game.wait`` and the WebSocket's ``game.changed``).
"""

from __future__ import annotations

import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from nataterra_core.game import GameSession, new_game
from nataterra_core.kernel import Command, CommandRejected
from nataterra_core.kernel.receipts import KeyPair
from nataterra_core.kernel.registry import RuleSystem

from .bots import DEFAULT_MAX_BOT_TIME, GIVEN_UP, Bots
from .checks import seat_of
from .errors import GameError, GameErrorCode, rejected
from .held import Game, Waiting, store_refused
from .reading import GameReader
from .receipts import GameReceipts, server_key
from .store import Secret, Store, StoreError
from .waiting import DEFAULT_WAITING_SECONDS, Clock, WaitingGames
from .writes import GameLog, Writes

__all__ = ["DEFAULT_MAX_GAMES", "GameHost"]

DEFAULT_MAX_GAMES = 1000
"""Games in play one server holds at once (``--max-games``)."""
JoinAnswer = tuple[Waiting, Game | None]
FINISHED_KEPT = 64
"""Finished games kept in memory after their end (the others are read again on demand)."""


class GameHost:
    """The games of one server, started or waiting, and every change made to them."""

    def __init__(
        self,
        *,
        max_games: int = DEFAULT_MAX_GAMES,
        store: Store | None = None,
        bots_inline: bool = True,
        max_bot_time: float = DEFAULT_MAX_BOT_TIME,
        waiting_seconds: float = DEFAULT_WAITING_SECONDS,
        clock: Clock = time.time,
    ):
        """``max_games``: games in play held at once (started or waiting); ``store``: keep
        every started game there and serve the stored ones (``None``: in memory only);
        ``bots_inline``: the bots play inside the call that gave them the turn (``False``:
        their turns wait for :meth:`run_bots_with`); ``max_bot_time``: the longest a bot
        thinks per decision, in wall-clock seconds (its budget is cut there);
        ``waiting_seconds``: how long a game may wait for its seats' ``game.join`` before it
        expires, by ``clock`` (Unix time). The server's identity key is the store's, or new
        without one."""
        self.max_bot_time = max_bot_time
        self._games: dict[str, Game] = {}  # in play
        self._finished: OrderedDict[str, Game] = OrderedDict()  # the last few to end
        self._max_games = max_games
        self._store = store
        self._writes = None if store is None else Writes(store, stored=self._stored)
        self.seeds = WaitingGames(
            store,
            self._writes,
            max_bot_time=max_bot_time,
            start=self._begin,
            waiting_seconds=waiting_seconds,
            clock=clock,
        )
        if self._writes is not None:
            self._writes.lost = self._lost
        self.server_key = server_key(store)
        self._bots_inline = bots_inline
        self._bot_turns: Callable[[Game, bool], None] | None = None
        self._bots_due: dict[str, Game] = {}  # turns given before run_bots_with
        self._watchers: dict[str | None, list[Callable[[str], None]]] = {}
        self.reader = GameReader(
            store,
            self._writes,
            self.seeds,
            held=self._held,
            hold=self._hold,
            receipts=self.receipts,
            max_bot_time=max_bot_time,
        )
        """Reads the stored games into memory (when first asked for, and the start's wake)."""
        self.bot_moves = 0
        """Bot commands this process has applied (``server.health``)."""
        self.lease_tries = 0
        """Bot leases this process asked a shared store for, taken or refused, renewals
        included (``server.health``: each costs a commit)."""

    # -- looking up -------------------------------------------------------------------------

    def session(self, game_id: str) -> GameSession:
        """The live session of ``game_id`` (for embedding the server; clients never see it)."""
        return self.find(game_id, None)[0].session

    @property
    def store(self) -> Store | None:
        """Where the games are kept (``None``: in memory only)."""
        return self._store

    @property
    def writes(self) -> Writes | None:
        """The store's thread and the records on their way to it."""
        return self._writes

    def games_in_play(self) -> int:
        """Games held that count against ``--max-games`` (started or waiting, not over)."""
        return len(self._games) + len(self.seeds)

    def held_ids(self) -> list[str]:
        """The ids of the started games in memory here."""
        return [*self._games, *self._finished]

    def held(self, game_id: str) -> Game | None:
        """The game of ``game_id`` if it is in memory here (never read from the store)."""
        return self._held(game_id)

    def drop(self, game_id: str, reason: StoreError) -> None:
        """Forget the copy held here (another process moved the game on): its records still
        waiting are not written, and the next request reads the game again."""
        for held in (self._games, self._finished):
            game = held.pop(game_id, None)
            if game is not None and game.log is not None and game.log.lost is None:
                game.log.lost = reason
                game.log.pending, game.log.answers = [], []

    def changed(self, game_id: str) -> None:
        """Tell the watchers of ``game_id`` it changed (another process moved it on)."""
        self._changed(game_id)

    def _held(self, game_id: str) -> Game | None:
        game = self._games.get(game_id)
        if game is None and game_id in self._finished:
            game = self._finished[game_id]
            self._finished.move_to_end(game_id)
        return game

    def holds(self, game: Game) -> bool:
        """Whether ``game`` is the session this server serves for its id (a session dropped
        after a refused write is not)."""
        return self._games.get(game.game_id) is game or self._finished.get(game.game_id) is game

    def version_of(self, game_id: str) -> int | None:
        """The version of a game held here (0 while it waits for seat seeds; ``None``: no
        such game in memory), for servers that tell watching clients about changes."""
        if game_id in self.seeds:
            return 0
        game = self._held(game_id)
        return None if game is None else game.version

    def over(self, game_id: str) -> bool:
        """Whether ``game_id`` is held here and closed (nothing more will come)."""
        game = self._held(game_id)
        return game is not None and game.session.closed

    def waiting(self, game_id: str) -> Waiting | None:
        """The game ``game_id`` if it waits for seat seeds; the expired error if it expired
        waiting (and no game of its id has started since)."""
        if self._held(game_id) is not None:
            return None
        return self.seeds.get(game_id)

    def find(self, game_id: str, token: str | None) -> tuple[Game, str | None]:
        """A started game and the seat of ``token`` (``None``: a spectator), or an error."""
        game = self._held(game_id)
        if game is None and game_id not in self.seeds:
            game = self.reader.load_now(game_id)
        if game is None:
            waiting_game = self.seeds.get(game_id)
            if waiting_game is not None:
                waiting = waiting_game.ceremony.waiting_for
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

    # -- the store --------------------------------------------------------------------------

    def _hold(self, game: Game) -> None:
        """Serve a game read from the store (:attr:`reader`): finished, or in play (its bots
        act: the crash may have come before their answer)."""
        if game.session.closed:
            self._keep_finished(game)
        else:
            self._games[game.game_id] = game
            self._play_bots(game)

    def caught_up(self, game: Game) -> None:
        """``game``'s copy took the records another process appended (:mod:`.sharing`): a
        finished game leaves the games in play, else its bots may act; watchers are told."""
        if game.session.closed:
            self._keep_finished(game)
            self._changed(game.game_id)
        else:
            self._play_bots(game)

    def _keep_finished(self, game: Game) -> None:
        self._games.pop(game.game_id, None)
        self._finished[game.game_id] = game
        while len(self._finished) > FINISHED_KEPT:
            self._finished.popitem(last=False)

    def _stored(self, log: GameLog) -> None:
        """A game's records so far are durable: a finished game leaves the games in play."""
        game = self._games.get(log.game_id)
        if game is not None and game.log is log:
            self._leave_if_finished(game)

    def _leave_if_finished(self, game: Game) -> None:
        log = game.log
        if log is not None and game.session.closed and not log.dirty and not log.lost:
            self._keep_finished(game)

    def _lost(self, log: GameLog) -> None:
        """The store refused a write: the game's session is dropped (read again next time)."""
        self.seeds.lost(log)
        for held in (self._games, self._finished):
            game = held.get(log.game_id)
            if game is not None and game.log is log:
                del held[log.game_id]
                print(
                    f"nataterra-rpc: {log.game_id} dropped from memory: {log.lost}",
                    file=sys.stderr,
                )

    def serve(self) -> None:
        """In a server, on its running loop: store writes go to a thread of their own."""
        if self._writes is not None:
            self._writes.defer()

    def mark(self) -> int:
        """Where the store's answers stand before a request (for :meth:`refusal`)."""
        return 0 if self._writes is None else self._writes.resolved

    async def durable(self) -> None:
        """Wait until every record appended so far is stored."""
        if self._writes is not None:
            await self._writes.durable()

    def refusal(self, game_id: str | None, mark: int) -> GameError | None:
        """The error for a request about ``game_id`` begun at ``mark`` whose records (or the
        records it showed) the store refused since."""
        if self._writes is None or game_id is None:
            return None
        failure = self._writes.failure_since(game_id, mark)
        return None if failure is None else store_refused(failure)

    async def close(self) -> None:
        """Store what waits and let the store go."""
        if self._writes is not None:
            await self._writes.close()

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
        game = self._held(game_id)
        return () if game is None else game.thinking_seats()

    def _changed(self, game_id: str) -> None:
        for told in [*self._watchers.get(game_id, ()), *self._watchers.get(None, ())]:
            told(game_id)

    # -- creating ---------------------------------------------------------------------------

    def check_room(self) -> None:
        """Refuse a new game when the server holds its cap of games in play (``--max-games``;
        finished games do not count, nor waiting games that have expired)."""
        self.seeds.drop_expired()
        if self.games_in_play() >= self._max_games:
            raise GameError(
                GameErrorCode.SETUP_REJECTED,
                f"the server holds {self._max_games} games, its cap (--max-games)",
            )

    def check_new(self, game_id: str) -> None:
        """Refuse an id a game held here, or set aside in the store, has already."""
        if self._held(game_id) or game_id in self.seeds or game_id in self.reader.set_aside:
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
        log = None
        if self._writes is not None:
            secret = Secret(server_seed, tokens, dict(bots.names), key.secret)
            log = self._writes.log(game_id, 0, secret)
        try:
            session = new_game(
                seats,
                game=record.id,
                server_seed=server_seed,
                game_id=game_id,
                client_seed=client_seed,
                options=options,
                sink=None if log is None else log.write,
                receipt_key=key.public,
            )
        except StoreError as exc:
            raise store_refused(exc) from exc
        except (ValueError, CommandRejected) as exc:
            raise rejected(exc) from exc
        receipts = self.receipts(session, key)
        game = Game(game_id, record, session, tokens, bots, receipts, log)
        self._games[game_id] = game
        self._change(game, lambda: None)
        return game

    def join(self, game_id: str, token: str, client_seed: str) -> JoinAnswer:
        """A seat's contribution to the dice; the game, started once every seat has sent one
        (no seat learns another's contribution before the header shows them all)."""
        if game_id not in self.seeds:
            self.reader.load_now(game_id)
        self._check_started(game_id)
        return self.seeds.join(game_id, token, client_seed)

    async def join_async(self, game_id: str, token: str, client_seed: str) -> JoinAnswer:
        """:meth:`join` in a server (the store is asked off the loop)."""
        self._check_started(game_id)
        return await self.seeds.join_async(game_id, token, client_seed)

    def _check_started(self, game_id: str) -> None:
        game = self._held(game_id)
        if game is not None and game_id not in self.seeds:
            raise GameError(
                GameErrorCode.SETUP_REJECTED, "the game has started", version=game.version
            )

    def _begin(self, game_id: str, waiting: Waiting) -> Game:
        """Start a game whose seats have all contributed, and let its bots act."""
        ceremony = waiting.ceremony
        return self.start(
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

    def receipts(self, session: GameSession, key: KeyPair) -> GameReceipts:
        """A game's receipts: its key, certified by this server's identity key."""
        game_id = session.header.game_id
        certificate = self.server_key.certify(game_id, key.public)
        return GameReceipts(key, certificate, game_id, session.header.seats, session.decider)

    # -- acting -----------------------------------------------------------------------------

    @contextmanager
    def acting(self, game: Game) -> Iterator[None]:
        """One act on ``game``, its answer kept within: embedded, the records it appends and
        the answer kept for its ``command_id`` retries are written together at its end, in
        one append (:meth:`~.writes.Writes.together`), so a crash cannot keep one without
        the other; a server batches them anyway. The store's refusal is STORE_FAILED."""
        if self._writes is None:
            yield
            return
        try:
            with self._writes.together():
                yield
        except StoreError as exc:
            raise store_refused(exc, game.version) from exc

    def apply(self, game: Game, seat: str, command: Command) -> None:
        """Apply the seat's command; then the bots act and a finished game is closed."""
        self._change(game, lambda: game.session.apply(seat, command))

    def undo(self, game: Game, seat: str) -> int:
        """Take back the seat's last command; the seq of the record undone."""
        try:
            undone = game.session.undo(seat)
            self._close_if_over(game)
        except CommandRejected as exc:
            raise rejected(exc, game.version) from exc
        except StoreError as exc:
            raise store_refused(exc, game.version) from exc
        self._changed(game.game_id)  # the turn goes back to the seat: no bot acts on an undo
        return undone

    def redo(self, game: Game, seat: str) -> None:
        """Apply the seat's last undone command again; then as :meth:`apply`."""
        self._change(game, lambda: game.session.redo(seat))

    def _change(self, game: Game, change: Callable[[], object]) -> None:
        try:
            change()
            self._play_bots(game, here=True)
        except CommandRejected as exc:
            raise rejected(exc, game.version) from exc
        except StoreError as exc:  # embedded: the store refused the line at once
            raise store_refused(exc, game.version) from exc

    # -- bots -------------------------------------------------------------------------------

    def run_bots_with(self, turns: Callable[[Game, bool], None]) -> None:
        """Hand the bots' turns to ``turns`` (called with a game whose bot seat may act, after
        every change; it sends their commands through :meth:`bot_move`), the turns given
        before this first. Its second argument says whether the command that gave the turn
        was applied here (``False``: the game was read, or caught up with the records
        another process appended, which is then the one to move the bot)."""
        self._bot_turns = turns
        self._bots_inline = False
        due, self._bots_due = self._bots_due, {}
        for game in due.values():
            turns(game, False)

    def give_up(self, game: Game, seat: str) -> None:
        """``seat``'s bot overran its bound: the random player takes the seat, here and in
        the store (so neither a restart nor another process brings the slow bot back)."""
        game.bots.give_up(seat)
        if self._writes is not None:
            game_id = game.game_id
            self._writes.later(lambda store: store.give_up(game_id, seat, GIVEN_UP))

    def bot_move(self, game: Game, seat: str, command: Command, version: int) -> bool:
        """Apply a bot's command chosen at ``version``; ``False`` (nothing done) when the
        game has moved on since (the bot must look again) or the seat may no longer act."""
        session = game.session
        if not self.holds(game) or game.version != version or seat not in session.acting_seats():
            return False
        session.apply(seat, command)
        self.bot_moves += 1
        self._play_bots(game, here=True)
        return True

    def _play_bots(self, game: Game, *, here: bool = False) -> None:
        """After a change (``here``: a command applied by this process): let the server's
        seats act (or hand them their turn), close the game if that ended it, and tell the
        watchers."""
        if self._bots_inline:
            game.bots.play(game.system, game.session)
        self._close_if_over(game)
        if self._games.get(game.game_id) is game:
            self._leave_if_finished(game)
        if not self._bots_inline and game.bots.acting(game.session) is not None:
            if self._bot_turns is None:
                self._bots_due[game.game_id] = game
            else:
                self._bot_turns(game, here)
        self._changed(game.game_id)

    @staticmethod
    def _close_if_over(game: Game) -> None:
        session = game.session
        if session.outcome() is not None and not session.closed:
            session.close()  # the rules ended the game: publish the seed and the result
