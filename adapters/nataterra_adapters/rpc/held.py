"""A game as a server holds it: started (:class:`Game`: its session, tokens, bots, receipts,
its records on their way to the store and the answers kept for ``command_id`` retries) or
waiting for its seats' contributions to the dice (:class:`Waiting`), and the error a client
gets when the store refuses a game's records (:func:`store_refused`)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

import msgspec

from nataterra_core.game import GameSession
from nataterra_core.kernel.receipts import KeyPair
from nataterra_core.kernel.registry import RuleSystem
from nataterra_core.kernel.seed_ceremony import SeedCeremony

from .bots import Bots
from .errors import GameError, GameErrorCode
from .receipts import GameReceipts
from .store import ANSWERS_KEPT, MAX_ANSWER_BYTES, Answer, GameExists, StaleAppend, StoreError
from .wire import ActResult
from .writes import GameLog

__all__ = ["Game", "Waiting", "store_refused"]

_ANSWERS = msgspec.json.Encoder()


def store_refused(exc: StoreError, version: int | None = None) -> GameError:
    """The error a client gets for a write the store refused (nothing was kept)."""
    if isinstance(exc, GameExists):
        return GameError(GameErrorCode.GAME_EXISTS, str(exc))
    if isinstance(exc, StaleAppend):
        return GameError(
            GameErrorCode.VERSION_CONFLICT,
            f"another server process moved the game on ({exc}); look again",
            version=exc.stored - 1,
        )
    return GameError(
        GameErrorCode.STORE_FAILED,
        f"the store did not keep the change, so nothing was done ({exc}); try again",
        version=version,
    )


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
    expires: float | None = None
    """When it expires unless it has started (Unix time; ``None``: never)."""
    log: GameLog | None = None
    """How it is kept in the store until it starts (``None``: a server without a store)."""

    def expired(self, now: float) -> bool:
        """Whether it has expired by ``now`` (Unix time)."""
        return self.expires is not None and self.expires <= now


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
    log: GameLog | None = None
    """Its records on their way to the store (``None``: a server without a store)."""
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
        """Keep a successful act's answer for a retry with the same ``command_id``: here,
        and in the store with the act's records (any process serving the game answers the
        retry), for the acts of the last :data:`~.store.ANSWERS_KEPT` records."""
        if command_id is None:
            return
        self.done[seat, command_id] = (key, answer)
        if len(self.done) > 2 * ANSWERS_KEPT:
            oldest = self.version - ANSWERS_KEPT
            self.done = {k: v for k, v in self.done.items() if v[1].version >= oldest}
        if self.log is not None:
            data = _ANSWERS.encode(answer)
            if len(data) <= MAX_ANSWER_BYTES:
                self.log.answer(Answer(seat, command_id, answer.version, key, data))

    def recall(self, answers: tuple[Answer, ...]) -> None:
        """The answers the store kept for this game's retries (one that does not decode,
        which only a damaged store holds, is said on stderr and left out)."""
        for kept in answers:
            try:
                answer = msgspec.json.decode(kept.answer, type=ActResult)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                print(
                    f"nataterra-rpc: {self.game_id}: the kept answer of {kept.seat}'s "
                    f"command_id {kept.command_id!r} is damaged ({exc}); left out",
                    file=sys.stderr,
                )
                continue
            self.done[kept.seat, kept.command_id] = (kept.request, answer)

    def check_version(self, expected: int | None) -> None:
        """Refuse an act based on another version than the game's (a stale picture)."""
        if expected is not None and expected != self.version:
            raise GameError(
                GameErrorCode.VERSION_CONFLICT,
                f"the game is at version {self.version}, not {expected}",
                version=self.version,
                expected_version=expected,
            )
