"""Where a server keeps its games: the :class:`Store` interface its backends share.

A stored game is its log, record by record under a unique ``(game_id, seq)`` key (the stored
lines are the log's exact bytes), and its secret, kept apart from the log: the server seed
(until the game's own ``reveal``), the seats' tokens, the player names of its bot seats and
the private half of its receipt key (never revealed). The store also keeps the server's
long-term identity key, which certifies each game's receipt key.

Everything else a game needs lives there too, so that any process sharing the store can
serve it: a game still waiting for its seats' contributions to the dice (:class:`Pending`,
secret as a whole: its server seed, tokens and the contributions so far; removed when it
expires, :meth:`Store.expire_waiting`, which keeps its id and expiry for
:data:`EXPIRED_KEPT_SECONDS` so that every process tells a client it expired,
:meth:`Store.expired`) and the answers kept
for ``command_id`` retries (:class:`Answer`, each a seat's view of what its act appended),
stored in the transaction of the records they answer and kept for the game's last
:data:`ANSWERS_KEPT` records. Neither is ever readable through a log or exported with one.

Records are appended at a given seq, all of one call or none (:meth:`Store.append`): an
append at a seq the store has passed already is refused with :class:`StaleAppend`, so two
writers can never both append record ``n`` and the loser learns it (the server answers it
with the stale-version error). A game that cannot be read is set aside with its reason
(:meth:`Store.set_aside`), listed, and still exportable; every other game goes on.

The backends: :class:`~.store_files.DirectoryStore` (two files a game, for the CLI and for
anyone who wants plain files), :class:`~.store_sqlite.SqliteStore` (one ``games.sqlite3``
file, the servers' default) and :class:`~.store_postgres.PostgresStore` (several processes);
:func:`~.store_tools.open_store` picks one from a ``--store`` value.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

import msgspec

__all__ = [
    "ANSWERS_KEPT",
    "EXPIRED_KEPT_SECONDS",
    "Answer",
    "DamagedGame",
    "DamagedSecret",
    "GameExists",
    "KeyFileError",
    "Listing",
    "NotWaiting",
    "Pending",
    "Secret",
    "SharedStore",
    "StaleAppend",
    "Store",
    "StoreError",
    "StoredGame",
    "Tail",
    "UnknownStoredGame",
    "is_end",
    "read_game",
]

MAX_SECRET_BYTES = 64 * 1024
"""A secret is a few hundred bytes; anything much larger is not one of ours."""
MAX_PENDING_BYTES = 256 * 1024
"""A waiting game: a secret, its seats and its options (a client's, within a request's size)."""
MAX_ANSWER_BYTES = 1024 * 1024
"""An act's answer kept for retries (a larger one is not kept: the retry is told the game
moved on, through ``expected_version``)."""
ANSWERS_KEPT = 256
"""Answers are kept for the acts of the game's last this many records (a retry comes soon)."""
EXPIRED_KEPT_SECONDS = 7 * 24 * 3600.0
"""How long after its expiry a store remembers that a waiting game expired (its id and expiry
time, no secret), so that any process sharing it answers ``expired``: a week, longer than a
player takes to come back to an invitation. At most one such record a waiting game created,
each let go by the periodic sweep a week after its expiry."""

Status = Literal["live", "finished", "set aside"]


class StoreError(Exception):
    """The store cannot do what was asked (the message says why, for an operator)."""


class StoreUnavailable(StoreError):
    """The store cannot be reached now (a database down, restarting or out of connections):
    it says nothing about any game, so no game is set aside for it; the caller tries again."""


class StaleAppend(StoreError):
    """An append at a seq the store has passed: another writer appended that record first."""

    def __init__(self, game_id: str, seq: int, stored: int) -> None:
        super().__init__(f"game {game_id!r} has {stored} records stored, not {seq}")
        self.game_id, self.seq, self.stored = game_id, seq, stored


class GameExists(StoreError):
    """A game of that id has records in the store already."""


class KeyFileError(StoreError):
    """The server's identity key in the store is not a key (the message says where)."""


class UnknownStoredGame(StoreError):
    """No game of that id in the store."""


class DamagedSecret(StoreError):
    """A stored secret that is not what :meth:`Secret.encode` writes."""


class NotWaiting(StoreError):
    """No game of that id waits for contributions (none, or it has started)."""


@dataclass(frozen=True)
class Secret:
    """What a game keeps out of its log."""

    server_seed: bytes
    tokens: dict[str, str]
    bots: dict[str, str] = field(default_factory=dict)
    """The player names of its bot seats, by seat."""
    receipt_key: bytes | None = None
    """The private half of the game's receipt key (``None``: a game stored before receipts)."""

    def encode(self) -> bytes:
        """The stored form (JSON, as the directory store's ``.secret`` files have it)."""
        return json.dumps(self._fields()).encode()

    def _fields(self) -> dict[str, object]:
        kept: dict[str, object] = {
            "server_seed": self.server_seed.hex(),
            "tokens": self.tokens,
            "bots": self.bots,
        }
        if self.receipt_key is not None:
            kept["receipt_key"] = self.receipt_key.hex()
        return kept

    @classmethod
    def decode(cls, data: bytes) -> Secret:
        """The secret stored as ``data``, or :class:`DamagedSecret` saying what is wrong."""
        return cls._from_fields(_json_object(data, "secret", MAX_SECRET_BYTES))

    @classmethod
    def _from_fields(cls, kept: dict[str, Any]) -> Secret:
        if "server_seed" not in kept:
            raise DamagedSecret("the secret has no server_seed")
        if "tokens" not in kept:
            raise DamagedSecret("the secret has no tokens")
        receipt_key = kept.get("receipt_key")
        return cls(
            _hex(kept["server_seed"], "server_seed"),
            _names(kept["tokens"], "tokens"),
            _names(kept.get("bots", {}), "bots"),
            None if receipt_key is None else _hex(receipt_key, "receipt_key"),
        )


@dataclass(frozen=True)
class Pending:
    """A game waiting for its seats' contributions to the dice (docs/DICE.md): its header is
    written once every seat has sent one. Secret as a whole."""

    rules: str
    """The rule system's registry id."""
    seats: tuple[str, ...]
    options: dict[str, Any] | None
    secret: Secret
    """Its server seed (committed to), seat tokens, bot seats and receipt key."""
    contributions: dict[str, str] = field(default_factory=dict)
    """The contributions sent so far, by seat (the bots' at once)."""
    expires: float | None = None
    """When it expires unless it has started (Unix time, the creating server's clock plus its
    ``--waiting-seconds``; ``None``: never, a game kept before waiting games expired)."""

    def encode(self) -> bytes:
        """The stored form (JSON)."""
        kept: dict[str, object] = {
            "rules": self.rules,
            "seats": list(self.seats),
            "options": self.options,
            "secret": self.secret._fields(),
            "contributions": self.contributions,
        }
        if self.expires is not None:
            kept["expires"] = self.expires
        return json.dumps(kept).encode()

    @classmethod
    def decode(cls, data: bytes) -> Pending:
        """The waiting game stored as ``data``, or :class:`DamagedSecret` saying what is wrong."""
        kept = _json_object(data, "waiting game", MAX_PENDING_BYTES)
        rules, seats, options = kept.get("rules"), kept.get("seats"), kept.get("options")
        if not isinstance(rules, str):
            raise DamagedSecret("the waiting game names no rules")
        if not isinstance(seats, list) or not all(isinstance(seat, str) for seat in seats):
            raise DamagedSecret("the waiting game's seats are not a list of names")
        if options is not None and not isinstance(options, dict):
            raise DamagedSecret("the waiting game's options are not an object")
        secret = kept.get("secret")
        if not isinstance(secret, dict):
            raise DamagedSecret("the waiting game has no secret")
        contributions = _names(kept.get("contributions", {}), "contributions")
        expires = kept.get("expires")
        if expires is not None and (
            isinstance(expires, bool) or not isinstance(expires, int | float)
        ):
            raise DamagedSecret("the waiting game's expiry is not a number")
        return cls(
            rules,
            tuple(seats),
            options,
            Secret._from_fields(secret),
            contributions,
            None if expires is None else float(expires),
        )

    def expired(self, now: float) -> bool:
        """Whether it has expired by ``now`` (Unix time)."""
        return self.expires is not None and self.expires <= now

    @property
    def complete(self) -> bool:
        """Whether every seat has contributed."""
        return all(seat in self.contributions for seat in self.seats)


@dataclass(frozen=True)
class Answer:
    """An act's answer, kept for a retry of its ``command_id`` (the seat's view only)."""

    seat: str
    command_id: str
    version: int
    """The game's version after the act (its last record's seq): kept while it is recent."""
    request: bytes
    """What was asked (another request under the same id is refused, not answered)."""
    answer: bytes
    """The answer, as JSON."""


def _json_object(data: bytes, what: str, limit: int) -> dict[str, Any]:
    if not data:
        raise DamagedSecret(f"the {what} is empty (a crash while it was written)")
    if len(data) > limit:
        raise DamagedSecret(f"the {what} is over {limit} bytes")
    try:
        kept = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise DamagedSecret(f"the {what} is not UTF-8") from None
    except ValueError as exc:
        raise DamagedSecret(f"the {what} is not JSON ({exc})") from None
    if not isinstance(kept, dict):
        raise DamagedSecret(f"the {what} is not a JSON object")
    return kept


def _hex(value: object, name: str) -> bytes:
    if not isinstance(value, str):
        raise DamagedSecret(f"{name} is not a hex string")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise DamagedSecret(f"{name} is not valid hex") from None


def _names(value: object, name: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(key, str) and isinstance(item, str) for key, item in value.items()
    ):
        raise DamagedSecret(f"{name} is not an object of strings")
    return dict(value)


@dataclass(frozen=True)
class StoredGame:
    """One game read from a store: its secret and its log's bytes."""

    game_id: str
    secret: Secret
    log: bytes
    answers: tuple[Answer, ...] = ()
    """The answers kept for ``command_id`` retries."""


@dataclass(frozen=True)
class Tail:
    """A game's records from a given seq on, and the answers kept for their acts: what a
    process whose copy of the game is behind reads to catch up (:meth:`SharedStore.since`)."""

    lines: tuple[bytes, ...]
    """The records' lines, without newlines (none: the copy is not behind)."""
    answers: tuple[Answer, ...]


@dataclass(frozen=True)
class DamagedGame:
    """A stored game that cannot be read, and why (what is stored is left untouched)."""

    game_id: str
    reason: str


@dataclass(frozen=True)
class Listing:
    """One game as a store lists it, without reading its log."""

    game_id: str
    status: Status
    records: int
    bots: bool
    """Whether the server plays one of its seats (its bots wake when the server starts)."""
    reason: str | None = None
    """Why the game is set aside."""


class _Kind(msgspec.Struct):
    kind: str = ""


_KIND = msgspec.json.Decoder(_Kind)


def is_end(line: bytes) -> bool:
    """Whether a log line is the ``end`` record (the game is finished)."""
    try:
        return _KIND.decode(line).kind == "end"
    except (msgspec.DecodeError, msgspec.ValidationError):
        return False


class Store(Protocol):
    """What a server needs of the place its games are kept. Every method may block on I/O:
    a server calls them from a thread of their own, never from its event loop."""

    location: str
    """Where it is, for messages (a path or a URL without its password)."""
    shared: bool
    """Whether other processes may write it too (a server then checks its copy of a game
    against the store before acting, and plays a bot only under a lease)."""

    def create(
        self, game_id: str, secret: Secret, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        """Store a new game's secret and first records (its header first), and the answers
        of its acts among them, all or nothing; :class:`GameExists` when the id has records
        already, or waits for contributions with another server seed (a secret left without
        records by a crash belongs to no game and is replaced). The game's :class:`Pending`
        form, if it waited, is gone with the same commit, and so is an expired game's of
        its id (:meth:`expired`)."""
        ...

    def append(
        self, game_id: str, seq: int, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        """Append records ``seq, seq+1, …`` and the answers of the acts that made them, all
        or none, durably before returning (answers older than the last
        :data:`ANSWERS_KEPT` records are let go); :class:`StaleAppend` when the store holds
        another number of records than ``seq``. With no ``lines``, the answers alone are
        kept (a migration resumed on a game copied without them)."""
        ...

    def answers(self, game_id: str) -> list[Answer]:
        """The answers kept for the game's ``command_id`` retries."""
        ...

    def wait(self, game_id: str, pending: Pending) -> None:
        """Keep a game that waits for its seats' contributions (an expired game of its id
        is forgotten, :meth:`expired`); :class:`GameExists` when the id has records or waits
        already."""
        ...

    def pending(self, game_id: str) -> Pending | None:
        """The game of that id if it waits for contributions; :class:`DamagedSecret`."""
        ...

    def waiting_games(self) -> list[str]:
        """The ids of the games waiting for contributions (none of them has records), by id."""
        ...

    def expire_waiting(self, now: float, game_id: str | None = None) -> list[str]:
        """Remove the waiting games expired by ``now`` (Unix time; only ``game_id``'s if
        named): the ids this call removed, by id. Each is removed by one call only, whichever
        process makes it (the others find it gone), and remembered as expired with it
        (:meth:`expired`); a sweep (no ``game_id``) also lets go of those remembered since
        more than :data:`EXPIRED_KEPT_SECONDS` before ``now``."""
        ...

    def expired(self, game_id: str) -> float | None:
        """When the waiting game of that id expired (its expiry, Unix time), if the store
        remembers it (``None``: it does not, or a game of that id was kept since)."""
        ...

    def contribute(self, game_id: str, seat: str, contribution: str) -> tuple[Pending, bool]:
        """Add ``seat``'s contribution unless it has one (whichever process is asked): the
        waiting game after it, and whether this call added it. :class:`NotWaiting` when
        no game of that id waits (it has started, or never was)."""
        ...

    def give_up(self, game_id: str, seat: str, player: str) -> None:
        """From now on ``player`` plays ``seat``, a bot seat (its bot overran the server's
        bound on a decision): kept in the game's secret, so no process brings it back."""
        ...

    def log(self, game_id: str) -> bytes:
        """The game's log, every stored record with its newline (a torn last record, which
        only the directory store can hold, cut off); :class:`UnknownStoredGame`."""
        ...

    def records(self, game_id: str) -> int:
        """How many records the game has in the store (0: none, or no such game): a
        server sharing the store compares it with its copy before acting."""
        ...

    def secret(self, game_id: str) -> Secret:
        """The game's secret; :class:`DamagedSecret`, :class:`UnknownStoredGame`."""
        ...

    def games(self) -> list[Listing]:
        """Every stored game with records, by id."""
        ...

    def lease(self, game_id: str, holder: str, seconds: float) -> bool:
        """Take or renew the lease on the game's bot decisions for ``seconds``: ``False``
        while another holder's lease has not expired."""
        ...

    def release(self, game_id: str, holder: str) -> None:
        """Give the lease up (if ``holder`` has it)."""
        ...

    def set_aside(self, game_id: str, reason: str | None) -> None:
        """Mark a game that cannot be served, with the reason (``None``: served again)."""
        ...

    def server_key(self) -> bytes | None:
        """The server's identity key (``None``: none kept yet); a damaged one raises
        :class:`KeyFileError`."""
        ...

    def keep_server_key(self, secret: bytes) -> bytes:
        """Keep ``secret`` as the server's identity key unless one is kept already (another
        process won): the key kept."""
        ...

    def close(self) -> None:
        """Let go of files and connections."""
        ...


@runtime_checkable
class SharedStore(Store, Protocol):
    """A store other processes write too (SQLite, PostgreSQL): a process's copy of a game
    may fall behind it, and catches up by reading only what it lacks."""

    def since(self, game_id: str, seq: int) -> Tail:
        """The game's records from ``seq`` on (none when it has ``seq`` or fewer) and the
        answers of the acts among them (read after them: every record's answer is there)."""
        ...


def read_game(store: Store, game_id: str) -> StoredGame | DamagedGame | None:
    """A stored game, or the reason it cannot be read (``None``: no such game)."""
    try:
        secret = store.secret(game_id)
        log = store.log(game_id)  # the answers after the log: those of every record read
        return StoredGame(game_id, secret, log, tuple(store.answers(game_id)))
    except UnknownStoredGame:
        return None
    except StoreUnavailable:
        raise  # not the game's fault: it is read again when the store is back
    except (StoreError, OSError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        if isinstance(exc, OSError) and exc.filename:
            reason = f"{Path(exc.filename).name}: {reason}"
        return DamagedGame(game_id, reason)
