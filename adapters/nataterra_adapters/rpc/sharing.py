"""A server's part in a store that other server processes write too (SQLite on one machine,
PostgreSQL on several): any process serves any game.

* **Catch-up before acting**: before a command is applied, the store is asked for the
  game's records past the copy held here (one query; none, usually); a copy that is behind
  re-executes them in place (:meth:`~nataterra_core.kernel.Session.extend`, each compared
  with its stored bytes, with the answers kept for their acts), so the command is decided on
  the game as it stands. A copy that cannot take them (its own records not stored yet, a
  record that does not re-execute, very far behind) is dropped and read again whole. (A
  write that still loses the race is refused by the store's ``(game_id, seq)`` key: the
  client gets ``version_conflict``.)
* **Notifications**: with PostgreSQL, every append is announced on a channel
  (``NOTIFY``); :meth:`Sharing.listen` hears the other processes' appends, catches the game
  up and tells this process's watchers (the WebSocket's ``game.changed``), so a client
  connected here sees a move made through another process at once. After a lost connection
  every held game is checked again.
* **Bot leases**: a bot's decision is taken by the process that holds the game's lease (a
  row with an expiry in the store), renewed at each decision. Only the processes that need
  it ask for it, as each ask costs a commit: the one that applied the command that gave a
  bot its turn takes it at once (:meth:`Sharing.claim`). A process that only heard of that
  command (a notification, or a catch-up that found it) leaves the turn to that one: it
  asks only once the lease it believes another process holds may have expired
  (:meth:`Sharing.may_lease`; each record heard of from another process, and each refusal,
  puts that moment a lease's length later). A process that dies lets its lease expire;
  the periodic sweep (:meth:`Sharing.sweep`) of any other process, or the next request
  for the game there, then takes the game's bots over. The holder lets the lease go once
  its bots have nothing to do, then reads the game again: a person's command appended
  through another process while it held the lease (that process was refused it) gives
  the bot its turn back here. The store's key still guarantees that each record, a bot's
  included, is appended once.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import socket
import sys
import time
from collections.abc import Callable

from nataterra_core.kernel import LogError

from .errors import GameError
from .held import Game
from .lifecycle import GameHost
from .store import SharedStore, StaleAppend, StoreError, Tail

__all__ = ["LEASE_MARGIN_SECONDS", "MAX_FOLDED", "SWEEP_SECONDS", "Sharing"]

SWEEP_SECONDS = 10.0
"""How often a process looks for games in play whose bots nobody is moving."""
LEASE_MARGIN_SECONDS = 15.0
"""A bot lease lasts one decision's bound (``--bot-seconds``) and this much more."""
RECONNECT_SECONDS = 1.0
MAX_FOLDED = 64
"""A copy this many records behind or more is read again whole, its log re-executed in a
worker thread (fewer are re-executed on the loop, as a command is applied)."""


class Sharing:
    """Catch-up, notifications and bot leases of one server over ``host``'s shared store."""

    def __init__(self, host: GameHost, *, bot_seconds: float) -> None:
        store, writes = host.store, host.writes
        assert isinstance(store, SharedStore) and writes is not None
        self._host, self._store, self._writes = host, store, writes
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        """This process, as its leases name it."""
        self._lease_seconds = bot_seconds + LEASE_MARGIN_SECONDS
        self._leased: dict[str, float] = {}  # game_id -> when this process took its lease
        # game_id -> until when (monotonic) another process's lease on it may be live
        self._elsewhere: dict[str, float] = {}
        self._catching: dict[str, asyncio.Future[None]] = {}  # catch-ups under way, by game

    @staticmethod
    def of(host: GameHost, *, bot_seconds: float) -> Sharing | None:
        """A server's sharing, if its store is shared with other processes."""
        store = host.store
        if not isinstance(store, SharedStore) or not store.shared:
            return None
        return Sharing(host, bot_seconds=bot_seconds)

    async def catch_up(self, game_id: str) -> None:
        """Bring the copy held here up to the store's records of the game, if it is behind."""
        game = self._host.held(game_id)
        if game is not None:
            await self._catch_up(game)

    async def _behind(self, game: Game, stored: int) -> None:
        if stored > len(game.session.lines):
            await self._catch_up(game)

    async def _catch_up(self, game: Game) -> None:
        game_id = game.game_id
        done = asyncio.get_running_loop().create_future()
        self._catching.setdefault(game_id, done)
        try:
            await self._read_on(game)
        finally:
            if self._catching.get(game_id) is done:
                del self._catching[game_id]
            done.set_result(None)

    async def settled(self, game_id: str) -> None:
        """Wait until no catch-up of ``game_id`` is under way here: a request that only
        reads the game (its legal commands, a view) answers from the copy as a notification
        brought it up, not from the picture just before (on which an act would then be
        refused as stale), as it waits for a whole read under way."""
        while (catching := self._catching.get(game_id)) is not None:
            await asyncio.shield(catching)

    async def _read_on(self, game: Game) -> None:
        """Fold the store's records past the copy into it, or read the game again whole."""
        held, store, game_id = len(game.session.lines), self._store, game.game_id
        try:
            tail = await self._writes.run(lambda: store.since(game_id, held))
        except StoreError:
            return  # the write that follows meets the same error and says it
        if held + len(tail.lines) > len(game.session.lines):
            self._heard(game_id)  # records another process appended
        if not tail.lines or not self._host.holds(game) or self._fold(game, held, tail):
            return
        self._host.drop(game_id, StaleAppend(game_id, held, held + len(tail.lines)))
        await self._host.reader.ready(game_id)
        self._host.changed(game_id)

    def _fold(self, game: Game, held: int, tail: Tail) -> bool:
        """Re-execute the records of ``tail`` (the store's from ``held`` on) that the copy
        lacks, on the loop; ``False`` when the copy cannot take them (it is read again)."""
        session, log = game.session, game.log
        lines = tail.lines
        mine = session.lines[held:]  # what this copy appended while the store was read
        common = min(len(mine), len(lines))
        if lines[:common] != mine[:common]:
            return False  # another process wrote those records: this copy's are refused
        lines = lines[len(mine) :]
        if not lines:
            return True
        if log is None or log.dirty or log.lost is not None or len(lines) >= MAX_FOLDED:
            return False
        session.attach_sink(None)  # the records are stored already
        try:
            session.extend(lines)
        except (LogError, ValueError):  # read whole, which says what is wrong with it
            return False
        finally:
            session.attach_sink(log.write)
        log.stored = len(session.lines)
        game.recall(tail.answers)
        self._host.caught_up(game)
        return True

    async def told(self, game_id: str, stored: int) -> None:
        """Another process (or this one) stored the game's records up to ``stored``."""
        # A read of the game under way began before this note came and may have missed its
        # append: once it is in, the copy it made is compared like any other (ignoring the
        # note meanwhile left that copy behind for good, and game.wait waiting on it).
        await self._host.reader.loaded(game_id)
        game = self._host.held(game_id)
        with contextlib.suppress(GameError):  # the store away: the next request reads it
            if game is not None:
                await self._behind(game, stored)
            elif self._host.waiting(game_id) is not None:  # started through another process
                self._heard(game_id)
                await self._host.reader.ready(game_id)
                self._host.changed(game_id)

    def _heard(self, game_id: str) -> None:
        """Another process moved ``game_id`` on: if that gave a bot its turn, that process
        holds the lease (or its last holder, releasing it, takes it back): leave it a
        lease's length."""
        if game_id not in self._leased:
            self._elsewhere[game_id] = time.monotonic() + self._lease_seconds

    def claim(self, game_id: str) -> None:
        """This process applied the command that gave one of ``game_id``'s bots its turn:
        it asks for the lease at once, whatever it heard before."""
        self._elsewhere.pop(game_id, None)

    def may_lease(self, game_id: str) -> bool:
        """Whether to ask for ``game_id``'s lease now: this process holds it, or no lease
        another process may hold is known to be live (asking would be refused, at the
        cost of a commit)."""
        until = self._elsewhere.get(game_id)
        if until is None or game_id in self._leased:
            return True
        if until > time.monotonic():
            return False
        del self._elsewhere[game_id]
        return True

    async def lease(self, game: Game) -> bool:
        """Take or renew the lease on ``game``'s bot decisions (renewed in the store only
        once half of it has gone by: a write per decision would cost a commit). Taking it
        afresh, the bot seats another holder handed to the random player are read too."""
        store, holder, seconds = self._store, self.holder, self._lease_seconds
        game_id = game.game_id
        now = time.monotonic()
        taken = self._leased.get(game_id)
        if taken is not None and now - taken < seconds / 2:
            return True
        if not self.may_lease(game_id):
            return False
        if taken is None:
            # Asked only once this process's records are stored (a lease's ask goes beside
            # the writes): refused, it was refused before the holder let the lease go, and
            # the holder, reading the game then, finds the command that gave the turn.
            await self._host.durable()
        try:
            self._host.lease_tries += 1
            held = await self._writes.run(lambda: store.lease(game_id, holder, seconds))
            if held and taken is None:
                secret = await self._writes.run(lambda: store.secret(game_id))
                game.bots.given_up(secret.bots)
        except StoreError as exc:
            _say(f"{game_id}: no bot lease ({exc}); the sweep tries again")
            held = False
        if held:
            self._leased[game_id] = now
            self._elsewhere.pop(game_id, None)
        else:
            self._leased.pop(game_id, None)
            self._elsewhere[game_id] = now + seconds  # (a renewal refused: it expired)
        return held

    async def release(self, game: Game, looked: int) -> bool:
        """Give ``game``'s lease up (its bots had nothing to do in the copy of ``looked``
        records); whether a bot may act after all, in records another process stored
        meanwhile (a person's command: that process, refused the lease while this one held
        it, left the turn here)."""
        game_id = game.game_id
        if self._leased.pop(game_id, None) is None:
            return False
        store, holder = self._store, self.holder
        with contextlib.suppress(StoreError):
            await self._writes.run(lambda: store.release(game_id, holder))
        # Read after the release: a process refused the lease was refused before it, so
        # its command, appended before it asked, is in the store by now.
        with contextlib.suppress(GameError):
            await self.catch_up(game_id)
        held = self._host.held(game_id)
        if held is None or len(held.session.lines) <= looked:
            return False
        if held.bots.acting(held.session) is None:
            return False
        self.claim(game_id)
        return True

    async def sweep(self, turn: Callable[[Game], None]) -> None:
        """Every :data:`SWEEP_SECONDS`: each stored game in play with bots is read (caught
        up) and its bots handed to ``turn`` when one may act and no other process's lease
        on it may be live (:meth:`may_lease`), whoever moved them before."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            store = self._store
            try:
                listed = await self._writes.run(store.games)
            except StoreError as exc:
                _say(f"the sweep could not list the store: {exc}")
                continue
            for listing in listed:
                if listing.status != "live" or not listing.bots:
                    continue
                try:
                    await self.catch_up(listing.game_id)
                    await self._host.reader.ready(listing.game_id)
                except GameError as exc:  # the store away: the next sweep tries again
                    _say(f"the sweep could not read {listing.game_id}: {exc}")
                    continue
                game = self._host.held(listing.game_id)
                if (
                    game is not None
                    and game.bots.acting(game.session) is not None
                    and self.may_lease(listing.game_id)
                ):
                    turn(game)

    async def listen(self) -> None:
        """Hear the other processes' appends (PostgreSQL's LISTEN) until cancelled."""
        from .store_postgres import CHANNEL, PostgresStore

        if not isinstance(self._store, PostgresStore):
            return
        import psycopg

        url, said = self._store.url, False
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as db:
                    await db.execute(f"LISTEN {CHANNEL}")
                    if said:
                        _say("listening to the store again")
                    said = False
                    for game_id in self._host.held_ids():  # what came while we were away
                        await self.catch_up(game_id)
                    async for note in db.notifies():
                        game_id, _, stored = note.payload.rpartition(" ")
                        if stored.isdigit():
                            asyncio.get_running_loop().create_task(self.told(game_id, int(stored)))
            except (psycopg.Error, OSError) as exc:
                if not said:
                    _say(f"lost the store's notifications ({exc}); trying again")
                    said = True
                await asyncio.sleep(RECONNECT_SECONDS)


def _say(line: str) -> None:
    print(f"nataterra-rpc: {line}", file=sys.stderr)
