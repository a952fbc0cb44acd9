"""The games of one server that wait for their seats' contributions to the dice (docs/DICE.md),
kept in the store so that any process sharing it serves them.

``game.create`` with seat seeds draws the server seed, the tokens and the receipt key and
keeps them, with the seats, options, bot seats and the bots' own contributions, as a
:class:`~.store.Pending` game in the store (secret as a whole, like a started game's secret).
Each ``game.join`` adds its seat's contribution in the store, in one transaction that adds it
only if the seat has none (:meth:`~.store.Store.contribute`): two processes joining two seats
at once both count, and only the call whose contribution completes the ceremony starts the
game, whose first records replace the waiting game in the store in one commit. A copy held
here is read again before each request in a server whose store is shared (another process may
have added a contribution, or started the game), and a waiting game found complete in the
store (the process that completed it died before starting it) is started by whoever reads it.

A waiting game expires ``waiting_seconds`` after its creation (``--waiting-seconds``) unless it
has started: its slot in ``--max-games`` is freed and its secret goes. The expiry is kept
with it (:attr:`~.store.Pending.expires`, the creating server's clock), so every process
judges it alike: an expired copy is dropped here on its next use (the store's copy removed
too), the server's periodic sweep (:meth:`WaitingGames.expire`) drops the held ones and
removes the store's expired ones, each by one process (the one that removes it says so on
stderr), and a client asking for it is told it expired (:func:`expired`): by this process as
long as it remembers it (:data:`EXPIRED_KEPT`), and by any process sharing the store, which
keeps the expired games' ids for :data:`~.store.EXPIRED_KEPT_SECONDS`
(:meth:`~.store.Store.expired`, read with the store's copy, :meth:`WaitingGames.read`).
"""

from __future__ import annotations

import secrets
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from nataterra_core.kernel.dice import check_contribution
from nataterra_core.kernel.receipts import KeyPair
from nataterra_core.kernel.registry import RuleSystem, system
from nataterra_core.kernel.seed_ceremony import SeedCeremony

from .bots import Bots
from .checks import seat_of
from .errors import GameError, GameErrorCode
from .held import Game, Waiting, store_refused
from .store import DamagedSecret, NotWaiting, Pending, Secret, Store, StoreError
from .writes import GameLog, Writes

__all__ = [
    "DEFAULT_WAITING_SECONDS",
    "MAX_WAITING_SECONDS",
    "Expired",
    "WaitingGames",
    "expired",
]

Start = Callable[[str, Waiting], Game]
"""Starts a game whose seats have all contributed (the host writes its header)."""
Clock = Callable[[], float]
"""Unix time now (:func:`time.time`; a test's own clock)."""
DEFAULT_WAITING_SECONDS = 24 * 3600.0
"""How long a game may wait for its seats' ``game.join`` before it expires
(``--waiting-seconds``): a club's evening and the night after."""
MAX_WAITING_SECONDS = 30 * 24 * 3600.0
"""The longest ``--waiting-seconds`` a server takes."""
EXPIRED_KEPT = 1024
"""Expired games whose ids a process remembers, to tell a client they expired."""


@dataclass(frozen=True)
class Expired:
    """What the store says of an id whose waiting game expired (and was removed)."""

    expires: float
    """When it expired (Unix time)."""


def expired(game_id: str) -> GameError:
    """The error for a game that expired waiting for its seats (the game is gone)."""
    return GameError(
        GameErrorCode.UNKNOWN_GAME,
        f"game {game_id!r} expired: not every seat joined (game.join) in the time a game may "
        "wait for its seats (the server's --waiting-seconds)",
        expired=True,
    )


class WaitingGames:
    """The waiting games held here, and their copies in the store (if there is one)."""

    def __init__(
        self,
        store: Store | None,
        writes: Writes | None,
        *,
        max_bot_time: float,
        start: Start,
        waiting_seconds: float = DEFAULT_WAITING_SECONDS,
        clock: Clock = time.time,
    ) -> None:
        """``waiting_seconds``: how long a new game may wait for its seats; ``clock``: the
        time its expiry is judged by."""
        self._store, self._writes = store, writes
        self._max_bot_time = max_bot_time
        self._start = start
        self._waiting_seconds, self._clock = waiting_seconds, clock
        self._games: dict[str, Waiting] = {}
        self._expired: OrderedDict[str, None] = OrderedDict()  # the last EXPIRED_KEPT

    def __len__(self) -> int:
        """The games held here (one expired but not yet swept included: see
        :meth:`drop_expired`)."""
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return isinstance(game_id, str) and self._live(game_id) is not None

    def get(self, game_id: str) -> Waiting | None:
        """The waiting game ``game_id`` held here; the :func:`expired` error if it expired
        (now, or earlier as far as this process remembers)."""
        waiting = self._live(game_id)
        if waiting is None and game_id in self._expired:
            raise expired(game_id)
        return waiting

    def _live(self, game_id: str) -> Waiting | None:
        """The copy held here, unless it has expired (then it goes, from the store too)."""
        waiting = self._games.get(game_id)
        if waiting is not None and waiting.expired(self._clock()):
            self._expire(game_id)
            return None
        return waiting

    def _expire(self, game_id: str) -> None:
        """Drop an expired game held here and remove the store's copy (in the store's
        thread, after the writes queued before); whoever removes it says so."""
        self._games.pop(game_id, None)
        self._remember(game_id)
        if self._writes is None:
            _say_expired([game_id])
            return
        now = self._clock()
        self._writes.later(lambda store: _say_expired(store.expire_waiting(now, game_id)))

    def _remember(self, game_id: str) -> None:
        self._expired[game_id] = None
        self._expired.move_to_end(game_id)
        while len(self._expired) > EXPIRED_KEPT:
            self._expired.popitem(last=False)

    def drop_expired(self) -> None:
        """Drop the expired games held here now (before counting the games in play)."""
        now = self._clock()
        for game_id in [g for g, waiting in self._games.items() if waiting.expired(now)]:
            self._expire(game_id)

    async def expire(self) -> list[str]:
        """The periodic sweep: drop the expired games held here and remove the expired ones
        of the store (any process's): the ids this call removed, said on stderr. Of the
        processes sharing a store, each expired game is removed by one."""
        now = self._clock()
        dropped = [g for g, waiting in self._games.items() if waiting.expired(now)]
        for game_id in dropped:
            del self._games[game_id]
            self._remember(game_id)
        store, writes = self._store, self._writes
        if store is not None and writes is not None:
            removed = await writes.run(lambda: store.expire_waiting(now))
            for game_id in removed:
                self._games.pop(game_id, None)
                self._remember(game_id)
        else:
            removed = dropped
        _say_expired(removed)
        return removed

    def add(
        self,
        record: RuleSystem,
        game_id: str,
        seats: tuple[str, ...],
        options: dict[str, Any] | None,
        bots: Bots,
    ) -> tuple[Waiting, Game | None]:
        """A new game that waits for every seat's contribution (the bots' are sent now),
        kept in the store; the started game if no person has a seat."""
        tokens = {seat: secrets.token_hex(16) for seat in seats}
        key = KeyPair.generate()
        secret = Secret(secrets.token_bytes(32), tokens, dict(bots.names), key.secret)
        contributions = {seat: secrets.token_hex(16) for seat in bots.names}
        expires = self._clock() + self._waiting_seconds
        pending = Pending(record.id, seats, options, secret, contributions, expires)
        waiting = Waiting(record, seats, options, _ceremony(pending), tokens, bots, key, expires)
        if waiting.ceremony.complete:  # no person has a seat: it starts at once, unkept
            return waiting, self._start(game_id, waiting)
        if self._writes is not None:
            try:
                waiting.log = self._writes.wait(game_id, pending)
            except StoreError as exc:  # embedded: the store refused it at once
                raise store_refused(exc) from exc
        self._games[game_id] = waiting
        self._expired.pop(game_id, None)
        return waiting, None

    # -- joining ------------------------------------------------------------------------------

    def join(self, game_id: str, token: str, client_seed: str) -> tuple[Waiting, Game | None]:
        """A seat's contribution; the game, started once every seat has sent one (embedded:
        the store is asked here and now)."""
        waiting, seat = self._joining(game_id, token, client_seed)
        store = self._store
        if store is None:
            waiting.ceremony.contribute(seat, client_seed)
            return waiting, self._begin(game_id, waiting) if waiting.ceremony.complete else None
        try:
            pending, added = store.contribute(game_id, seat, client_seed)
        except StoreError as exc:
            raise self._refused(game_id, exc) from exc
        return self._joined(game_id, seat, pending, added)

    async def join_async(
        self, game_id: str, token: str, client_seed: str
    ) -> tuple[Waiting, Game | None]:
        """:meth:`join` in a server: the store is asked in its thread."""
        store, writes = self._store, self._writes
        if store is None or writes is None:
            return self.join(game_id, token, client_seed)
        _, seat = self._joining(game_id, token, client_seed)
        try:
            pending, added = await writes.run(lambda: store.contribute(game_id, seat, client_seed))
        except StoreError as exc:
            raise self._refused(game_id, exc) from exc
        return self._joined(game_id, seat, pending, added)

    def _joining(self, game_id: str, token: str, client_seed: str) -> tuple[Waiting, str]:
        waiting = self.get(game_id)
        if waiting is None:
            raise GameError(GameErrorCode.UNKNOWN_GAME, f"no game {game_id!r}")
        seat = seat_of(waiting.tokens, token, 0)
        if seat in waiting.bots.names:
            raise GameError(GameErrorCode.SETUP_REJECTED, f"the server plays {seat!r}")
        if waiting.ceremony.contributed(seat):
            raise GameError(GameErrorCode.SETUP_REJECTED, f"seat {seat!r} has already contributed")
        try:
            check_contribution(client_seed)
        except ValueError as exc:
            raise GameError(GameErrorCode.SETUP_REJECTED, str(exc)) from exc
        return waiting, seat

    def _refused(self, game_id: str, exc: StoreError) -> GameError:
        if isinstance(exc, NotWaiting):  # another process started it (read it next time)
            held = self._games.pop(game_id, None)  # or, at the same moment, expired it
            if held is not None and held.expired(self._clock()):
                self._remember(game_id)
                return expired(game_id)
            return GameError(GameErrorCode.SETUP_REJECTED, "the game has started")
        return store_refused(exc)

    def _joined(
        self, game_id: str, seat: str, pending: Pending, added: bool
    ) -> tuple[Waiting, Game | None]:
        """After the store's answer: the copy here as the store has it, and the game started
        by the call whose contribution completed it."""
        waiting = self._adopt(game_id, pending)
        if not added:
            raise GameError(GameErrorCode.SETUP_REJECTED, f"seat {seat!r} has already contributed")
        return waiting, self._begin(game_id, waiting) if waiting.ceremony.complete else None

    def _begin(self, game_id: str, waiting: Waiting) -> Game:
        game = self._start(game_id, waiting)
        self._games.pop(game_id, None)
        return game

    # -- the store's copies -------------------------------------------------------------------

    def read(self, store: Store, game_id: str) -> Pending | Expired | None:
        """The waiting game ``game_id`` in ``store`` (in the store's thread), or that it
        expired (removed by any process); a damaged one is said on stderr and left there."""
        try:
            pending = store.pending(game_id)
        except DamagedSecret as exc:
            print(f"nataterra-rpc: the waiting game {game_id}: {exc}", file=sys.stderr)
            return None
        if pending is not None:
            return pending
        expires = store.expired(game_id)
        return None if expires is None else Expired(expires)

    def load(self, game_id: str, pending: Pending | Expired | None) -> Game | None:
        """Hold the waiting game read from the store (``None``: none waits there any more,
        so a copy held here goes; :class:`Expired`: it went, and a client asking for it is
        told it expired); the started game if it was complete."""
        if not isinstance(pending, Pending):
            self._games.pop(game_id, None)
            if pending is not None:
                self._remember(game_id)
            return None
        if pending.expired(self._clock()):
            self._expire(game_id)
            return None
        try:
            waiting = self._adopt(game_id, pending)
            if waiting.ceremony.complete:  # completed by a process that died before starting
                return self._begin(game_id, waiting)
        except (GameError, ValueError) as exc:
            print(f"nataterra-rpc: the waiting game {game_id}: {exc}", file=sys.stderr)
        return None

    def _adopt(self, game_id: str, pending: Pending) -> Waiting:
        """The copy held here, as ``pending`` has it (a new copy if none is held)."""
        held = self._games.get(game_id)
        if held is not None and held.key.secret == pending.secret.receipt_key:
            held.ceremony = _ceremony(pending)
            return held
        self._expired.pop(game_id, None)  # a new game of an expired one's id
        try:
            record = system(pending.rules)
        except KeyError as exc:
            raise GameError(GameErrorCode.UNKNOWN_GAME, str(exc)) from None
        secret = pending.secret
        if secret.receipt_key is None:
            raise GameError(GameErrorCode.STORE_FAILED, f"{game_id}: no receipt key stored")
        bots = Bots.named(record, pending.seats, secret.bots, max_seconds=self._max_bot_time)
        waiting = Waiting(
            record,
            pending.seats,
            pending.options,
            _ceremony(pending),
            secret.tokens,
            bots,
            KeyPair(secret.receipt_key),
            pending.expires,
        )
        self._games[game_id] = waiting
        return waiting

    def lost(self, log: GameLog) -> None:
        """The store refused to keep a waiting game (its id is taken): it goes."""
        waiting = self._games.get(log.game_id)
        if waiting is not None and waiting.log is log:
            del self._games[log.game_id]


def _ceremony(pending: Pending) -> SeedCeremony:
    ceremony = SeedCeremony(pending.secret.server_seed, pending.seats)
    for seat in pending.seats:
        if seat in pending.contributions:
            ceremony.contribute(seat, pending.contributions[seat])
    return ceremony


def _say_expired(game_ids: list[str]) -> None:
    for game_id in game_ids:
        print(f"nataterra-rpc: {game_id} expired waiting for its seats", file=sys.stderr)
