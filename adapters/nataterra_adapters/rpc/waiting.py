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
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable
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

__all__ = ["WaitingGames"]

Start = Callable[[str, Waiting], Game]
"""Starts a game whose seats have all contributed (the host writes its header)."""


class WaitingGames:
    """The waiting games held here, and their copies in the store (if there is one)."""

    def __init__(
        self, store: Store | None, writes: Writes | None, *, max_bot_time: float, start: Start
    ) -> None:
        self._store, self._writes = store, writes
        self._max_bot_time = max_bot_time
        self._start = start
        self._games: dict[str, Waiting] = {}

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def get(self, game_id: str) -> Waiting | None:
        """The waiting game ``game_id`` held here."""
        return self._games.get(game_id)

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
        pending = Pending(record.id, seats, options, secret, contributions)
        waiting = Waiting(record, seats, options, _ceremony(pending), tokens, bots, key)
        if waiting.ceremony.complete:  # no person has a seat: it starts at once, unkept
            return waiting, self._start(game_id, waiting)
        if self._writes is not None:
            try:
                waiting.log = self._writes.wait(game_id, pending)
            except StoreError as exc:  # embedded: the store refused it at once
                raise store_refused(exc) from exc
        self._games[game_id] = waiting
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
        waiting = self._games.get(game_id)
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
        if isinstance(exc, NotWaiting):  # another process started it: read it next time
            self._games.pop(game_id, None)
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

    def read(self, store: Store, game_id: str) -> Pending | None:
        """The waiting game ``game_id`` in ``store`` (in the store's thread); a damaged one
        is said on stderr and left there."""
        try:
            return store.pending(game_id)
        except DamagedSecret as exc:
            print(f"nataterra-rpc: the waiting game {game_id}: {exc}", file=sys.stderr)
            return None

    def load(self, game_id: str, pending: Pending | None) -> Game | None:
        """Hold the waiting game read from the store (``None``: none waits there any more,
        so a copy held here goes); the started game if it was complete."""
        if pending is None:
            self._games.pop(game_id, None)
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
