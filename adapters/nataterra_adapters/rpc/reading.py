"""Reading a server's stored games back into memory: when a request first names one, the
start's wake, and the games that cannot be served (set aside).

Stored games are read when first asked for (:meth:`GameReader.ready` in a server, off its
loop: the store is read in the store's thread and the log re-executed in a worker thread;
:meth:`GameReader.load_now` embedded), not when the server starts: a server listens at once
whatever its store holds, and :meth:`GameReader.wake` then brings back the games whose bots
were to move and tries the set-aside ones again. A game whose log does not re-execute, whose
receipt key does not match its header, or whose secret is damaged is set aside with one
stderr line naming the reason (what is stored is left as it is); a store that cannot be
reached now sets nothing aside (the request gets STORE_FAILED, the next one reads again).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable

from nataterra_core.game import GameSession, decider_for
from nataterra_core.kernel import LogError, Session, read_log
from nataterra_core.kernel.receipts import KeyPair
from nataterra_core.kernel.registry import system_for

from .bots import Bots
from .errors import GameError
from .held import Game, store_refused
from .receipts import GameReceipts
from .store import (
    DamagedGame,
    Pending,
    Store,
    StoredGame,
    StoreError,
    StoreUnavailable,
    read_game,
)
from .waiting import Expired, WaitingGames
from .writes import Writes

__all__ = ["GameReader"]

Held = Callable[[str], Game | None]
"""The game of an id the host holds in memory (never read from the store)."""
Hold = Callable[[Game], None]
"""The host takes a game read from the store into the games it serves."""
Receipts = Callable[[GameSession, KeyPair], GameReceipts]
"""A game's receipts from its session and key, certified by the server's identity key."""


class GameReader:
    """Reads the stored games of one host into memory, and keeps the ones it cannot serve."""

    def __init__(
        self,
        store: Store | None,
        writes: Writes | None,
        seeds: WaitingGames,
        *,
        held: Held,
        hold: Hold,
        receipts: Receipts,
        max_bot_time: float,
    ) -> None:
        """``held``, ``hold`` and ``receipts`` are the host's (see their types);
        ``max_bot_time`` bounds the rebuilt games' bots as the host's."""
        self._store, self._writes, self._seeds = store, writes, seeds
        self._held, self._hold, self._receipts = held, hold, receipts
        self._max_bot_time = max_bot_time
        self._loading: dict[str, asyncio.Future[None]] = {}
        self.set_aside: dict[str, str] = {}
        """Stored games that cannot be served, and why (what is stored is left as it is)."""
        self._aside_listed: set[str] = set()  # set aside in the store when woken

    def load_now(self, game_id: str) -> Game | None:
        """Read a stored game here and now (embedded; a server reads it first, off its
        loop, in :meth:`ready`)."""
        if self._store is None or game_id in self.set_aside:
            return None
        stored = self._read(self._store, game_id)
        if stored is None or isinstance(stored, Pending | Expired):
            return self._seeds.load(game_id, stored)
        return self._adopt(
            game_id, stored if isinstance(stored, DamagedGame) else self._rebuild(stored)
        )

    def _read(
        self, store: Store, game_id: str
    ) -> StoredGame | DamagedGame | Pending | Expired | None:
        """The game ``game_id`` in the store, started or waiting, or that it expired waiting
        (``None``: none of these); a store that cannot be reached now is a STORE_FAILED
        error (the game is not set aside)."""
        try:
            stored = read_game(store, game_id)
            return self._seeds.read(store, game_id) if stored is None else stored
        except StoreUnavailable as exc:
            raise store_refused(exc) from exc

    async def ready(self, game_id: str) -> None:
        """Have ``game_id`` in memory if it is stored: read in the store's thread, its log
        re-executed in a worker thread, so the loop goes on meanwhile."""
        store, writes = self._store, self._writes
        if writes is None or store is None or self._held(game_id) is not None:
            return
        seeds = self._seeds
        if game_id in seeds:
            if not store.shared:
                return
            # Another process may have added a contribution, or started the game.
            pending = await writes.run(lambda: seeds.read(store, game_id))
            if pending is not None:
                seeds.load(game_id, pending)
                return
            seeds.load(game_id, None)
        if game_id in self.set_aside:
            return
        loading = self._loading.get(game_id)
        if loading is not None:
            await asyncio.shield(loading)
            return
        loop = asyncio.get_running_loop()
        loading = self._loading[game_id] = loop.create_future()
        try:
            stored = await writes.run(lambda: self._read(store, game_id))
            if stored is None or isinstance(stored, Pending | Expired):
                seeds.load(game_id, stored)
            elif isinstance(stored, StoredGame):
                rebuilt: Game | DamagedGame = await loop.run_in_executor(
                    None, self._rebuild, stored
                )
                self._adopt(game_id, rebuilt)
            elif isinstance(stored, DamagedGame):
                self._adopt(game_id, stored)
        finally:
            del self._loading[game_id]
            loading.set_result(None)

    async def loaded(self, game_id: str) -> None:
        """Wait until no read of ``game_id`` from the store is under way here."""
        while (loading := self._loading.get(game_id)) is not None:
            await asyncio.shield(loading)

    async def wake(self) -> None:
        """After a server starts: bring back the stored games in play whose bots may have a
        move to make, and try the set-aside ones again (this build may run them)."""
        if self._writes is None or self._store is None:
            return
        listed = await self._writes.run(self._store.games)
        for listing in listed:
            if listing.status == "set aside":
                self._aside_listed.add(listing.game_id)
            if listing.status == "set aside" or (listing.status == "live" and listing.bots):
                with contextlib.suppress(GameError):  # the store away: read when asked for
                    await self.ready(listing.game_id)

    def _rebuild(self, stored: StoredGame) -> Game | DamagedGame:
        """A stored game re-executed from its log (its seats' tokens work again), or why it
        cannot be: the verification path, so it may run in a worker thread."""
        secret = stored.secret
        try:
            log = read_log(stored.log, decider_for)
            session = Session.from_log(
                log.decider, log.header, log.records, log.lines, secret.server_seed, finish=True
            )
        except (LogError, ValueError) as exc:
            return DamagedGame(stored.game_id, str(exc))
        receipts = None
        if secret.receipt_key is not None:
            key = KeyPair(secret.receipt_key)
            if key.public != log.header.receipt_key:
                return DamagedGame(stored.game_id, "its receipt key is not the one in its header")
            receipts = self._receipts(session, key)
        record = system_for(log.header)
        bots = Bots.named(record, log.header.seats, secret.bots, max_seconds=self._max_bot_time)
        game = Game(stored.game_id, record, session, secret.tokens, bots, receipts)
        game.recall(stored.answers)
        assert self._writes is not None  # a host with a store has its writes
        game.log = self._writes.log(stored.game_id, len(log.lines))  # attached when adopted
        return game

    def _adopt(self, game_id: str, rebuilt: Game | DamagedGame) -> Game | None:
        """Serve a game read from the store (unless one of its id came meanwhile)."""
        if isinstance(rebuilt, DamagedGame):
            self._set_aside(game_id, rebuilt.reason)
            return None
        held = self._held(game_id)
        if held is not None or game_id in self._seeds:
            return held
        assert self._writes is not None
        session = rebuilt.session
        log = rebuilt.log
        assert log is not None  # set by _rebuild, at the records the store holds
        # A crash between the reveal and the end left the end unstored: the session wrote
        # it as a game that never stopped does (the same bytes); the store gets it now.
        try:
            for line in session.lines[log.stored :]:
                log.write(line)  # embedded: stored now, or refused (read again next time)
        except StoreError as exc:
            raise store_refused(exc) from exc
        session.attach_sink(log.write)
        if game_id in self._aside_listed:  # set aside by an earlier run: served again
            self._aside_listed.discard(game_id)
            self._writes.later(lambda store: store.set_aside(game_id, None))
        self._hold(rebuilt)
        return rebuilt

    def _set_aside(self, game_id: str, reason: str) -> None:
        """Leave a stored game that cannot be served, saying why on one stderr line."""
        if game_id in self.set_aside:
            return
        self.set_aside[game_id] = reason
        print(f"nataterra-rpc: not resuming {game_id}: {reason}", file=sys.stderr)
        if self._writes is not None:
            self._writes.later(lambda store: store.set_aside(game_id, reason))
