"""The records the games append, on their way to the store, off the server's event loop.

Each stored game's session writes its lines into a :class:`GameLog` (its sink). Embedded
(the library's callers, the tests), each line is written to the store at once, inside the
call that made it, except within :meth:`Writes.together` (an act: its records and the answer
kept for its ``command_id`` retries), whose lines and answers wait for its end and are then
written as the server writes a batch, a game's in one append: a crash cannot keep the
records without their answer. In a server (:meth:`Writes.defer`), the lines wait for one
store thread, which writes every game's waiting lines, a game's lines of one batch in one
append; a reply is sent only once what it may show is durable (:meth:`Writes.durable`), so
the event loop never waits on a disk or a database and many games' records share a commit.
A store that
takes several writers at once (``writers``: PostgreSQL's connection pool) gets the appends
of one batch's games side by side, so their commits overlap instead of queueing one after
another (a game's own appends stay in order: one batch at a time), and the reads (a game,
a record count, a lease) on as many threads of their own, so a request's read never queues
behind a batch of commits or behind the other games' reads.

A write the store refuses (another process appended that record first, the id is taken,
the store is down) loses the game's in-memory session: it is dropped (:attr:`Writes.lost`
tells the host), its waiting lines with it, and the next request reads the game from the
store again. So no process's cached session stays ahead of the store, and a request that
may have shown the lost records gets an error instead (:meth:`Writes.failure_since`).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TypeVar

from .store import Answer, Pending, Secret, Store, StoreError

__all__ = ["GameLog", "StoreLost", "Writes"]

T = TypeVar("T")


class StoreLost(StoreError):
    """A line written to a game whose session was dropped after a refused write."""


@dataclass(eq=False)
class GameLog:
    """One game's sink: its lines not yet stored, and how many are."""

    writes: Writes
    game_id: str
    stored: int
    """Records the store holds (as far as this process knows)."""
    secret: Secret | None = None
    """Set until the game's first records are stored (a new game: they create it)."""
    pending: list[bytes] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    """Answers to keep for retries, stored with the records waiting (or after them)."""
    waiting: Pending | None = None
    """A game waiting for contributions, to be kept until it is (then ``None``)."""
    lost: StoreError | None = None

    def write(self, line: bytes) -> None:
        """The session's sink: one more line of this game."""
        self._check()
        self.pending.append(line)
        self.writes.queued(self)

    def answer(self, answer: Answer) -> None:
        """Keep ``answer`` for a retry, in the transaction of the records it answers (they
        wait here still, in a server: an act queues its answer after its records, within
        one call of the loop, so both go in one batch)."""
        self._check()
        self.answers.append(answer)
        self.writes.queued(self)

    def _check(self) -> None:
        if self.lost is not None:
            raise StoreLost(f"game {self.game_id!r} was dropped: {self.lost}")

    @property
    def dirty(self) -> bool:
        """Whether something waits to be written."""
        return bool(self.pending or self.answers or self.waiting)


@dataclass(frozen=True)
class _Batch:
    log: GameLog
    secret: Secret | None
    seq: int
    lines: list[bytes]
    answers: list[Answer]
    waiting: Pending | None


class Writes:
    """The stored games' lines on their way to ``store``."""

    def __init__(self, store: Store, *, stored: Callable[[GameLog], None]) -> None:
        """``stored``: told after each of a game's writes is durable (the host lets a
        finished game leave memory)."""
        self.store = store
        self._stored = stored
        self.lost: Callable[[GameLog], None] = lambda log: None
        """Told when a game's session is dropped (the host forgets it)."""
        self._thread: ThreadPoolExecutor | None = None
        self._writers: ThreadPoolExecutor | None = None
        self._readers: ThreadPoolExecutor | None = None
        # Stores that may be written from several threads at once say how many (the
        # Store protocol does not require it: one writer by default).
        self._parallel = max(1, int(getattr(store, "writers", 1)))
        self._dirty: dict[GameLog, None] = {}
        self._together = 0  # embedded: within together(), the writes wait for its end
        self._queued = self._written = 0
        self._resolved = 0
        self._failures: dict[str, tuple[int, StoreError]] = {}
        self._flusher: asyncio.Task[None] | None = None
        self._progress: asyncio.Condition | None = None

    def log(self, game_id: str, stored: int, secret: Secret | None = None) -> GameLog:
        """A sink for a game with ``stored`` records in the store (a new game: 0, and its
        secret, stored with its first lines)."""
        return GameLog(self, game_id, stored, secret)

    def wait(self, game_id: str, pending: Pending) -> GameLog:
        """Keep a game that waits for its seats' contributions (the log it will start with
        is another one, made when it starts)."""
        log = GameLog(self, game_id, 0, waiting=pending)
        self.queued(log)
        return log

    # -- embedded: each line at once, or an act's at its end ------------------------------

    def queued(self, log: GameLog) -> None:
        """``log`` has a new line waiting."""
        if self._thread is None:
            if self._together:
                self._dirty[log] = None  # written at the end of together()
            else:
                self._write_now(log)
            return
        self._queued += 1
        self._dirty[log] = None
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    def _write_now(self, log: GameLog) -> None:
        """Write what ``log`` holds as one batch, here and now (the store's refusal raised)."""
        batch = self._take(log)
        self._resolve(batch, self._write(batch))
        if log.lost is not None:
            raise log.lost

    @contextmanager
    def together(self) -> Iterator[None]:
        """Embedded: the lines and answers queued within are written at its end, a game's
        in one append (one transaction, or the directory store's one durable write), as a
        server's batch is; the store's refusal is raised then (chained to the body's own
        error, if it raised one). In a server, whose writes are batched anyway, nothing
        changes."""
        if self._thread is not None:
            yield
            return
        self._together += 1
        try:
            yield
        finally:
            self._together -= 1
            if not self._together:
                held, self._dirty = list(self._dirty), {}
                refused = None
                for log in held:
                    if log.dirty and log.lost is None:
                        try:
                            self._write_now(log)
                        except StoreError as exc:
                            refused = refused or exc
                if refused is not None:
                    raise refused

    @staticmethod
    def _take(log: GameLog) -> _Batch:
        batch = _Batch(log, log.secret, log.stored, log.pending, log.answers, log.waiting)
        log.pending, log.answers, log.waiting = [], [], None
        return batch

    def _write(self, batch: _Batch) -> StoreError | None:
        """Write one game's lines (in the store thread when deferred); the refusal, if any."""
        game_id = batch.log.game_id
        try:
            if batch.waiting is not None:
                self.store.wait(game_id, batch.waiting)
            elif batch.secret is not None:
                self.store.create(game_id, batch.secret, batch.lines, batch.answers)
            else:
                self.store.append(game_id, batch.seq, batch.lines, batch.answers)
        except StoreError as exc:
            return exc
        except Exception as exc:  # a disk or a driver failing: never the writer's end
            return StoreError(f"the store failed: {type(exc).__name__}: {exc}")
        return None

    def _resolve(self, batch: _Batch, failure: StoreError | None) -> None:
        log = batch.log
        if failure is None:
            # Never back: a copy caught up in place (sharing.py) may have counted records
            # another process stored after this batch's while it was in flight.
            log.stored = max(log.stored, batch.seq + len(batch.lines))
            if batch.waiting is None:
                log.secret = None
            self._stored(log)
            return
        if log.lost is None:
            log.lost = failure
            log.pending, log.answers = [], []
            self._failures[log.game_id] = (self._resolved, failure)
            self.lost(log)

    # -- in a server: a store thread, replies after their records ----------------------------

    def defer(self) -> None:
        """From now on write in a thread of their own (call on the server's running loop)."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="nataterra-store")
            self._progress = asyncio.Condition()
            if self._parallel > 1:
                self._writers = ThreadPoolExecutor(
                    self._parallel, thread_name_prefix="nataterra-store-write"
                )
                self._readers = ThreadPoolExecutor(
                    self._parallel, thread_name_prefix="nataterra-store-read"
                )

    def later(self, work: Callable[[Store], object]) -> None:
        """Store work whose answer nobody waits for (marking a game set aside): in the
        store thread when deferred, else now; a failure is only said on stderr."""

        def run() -> None:
            try:
                work(self.store)
            except (StoreError, OSError) as exc:
                print(f"nataterra-rpc: the store: {exc}", file=sys.stderr)

        if self._thread is None:
            run()
        else:
            self._thread.submit(run)

    async def run(self, work: Callable[[], T]) -> T:
        """Run other store work (reading a game, a lease, listing) off the loop: in the
        store thread, or beside it when the store takes several threads at once (then beside
        the writes and other reads: ``work`` may not count on the writes queued before it
        being made, which :meth:`durable` awaits)."""
        if self._thread is None:
            return work()
        executor = self._readers or self._thread
        return await asyncio.get_running_loop().run_in_executor(executor, work)

    @property
    def resolved(self) -> int:
        """Batches answered so far (:meth:`failure_since`'s mark)."""
        return self._resolved

    async def durable(self) -> None:
        """Wait until every line queued before this call is written (or lost)."""
        if self._progress is None:
            return
        target = self._queued
        async with self._progress:
            await self._progress.wait_for(lambda: self._written >= target)

    def failure_since(self, game_id: str, mark: int) -> StoreError | None:
        """Why ``game_id``'s session was dropped by a batch answered after ``mark``
        (:attr:`resolved` before a request began), if it was."""
        failure = self._failures.get(game_id)
        return failure[1] if failure is not None and failure[0] >= mark else None

    async def _flush(self) -> None:
        assert self._thread is not None and self._progress is not None
        loop = asyncio.get_running_loop()
        while self._dirty:
            batches = [self._take(log) for log in self._dirty if log.dirty and not log.lost]
            self._dirty.clear()
            upto = self._queued
            failures = await loop.run_in_executor(self._thread, self._write_all, batches)
            for batch, failure in zip(batches, failures, strict=True):
                self._resolve(batch, failure)
            self._resolved += 1
            async with self._progress:
                self._written = upto
                self._progress.notify_all()

    def _write_all(self, batches: list[_Batch]) -> list[StoreError | None]:
        """Each batch's refusal, if any (one game a batch: their order does not matter)."""
        if self._writers is not None and len(batches) > 1:
            return list(self._writers.map(self._write, batches))
        return [self._write(batch) for batch in batches]

    async def close(self) -> None:
        """Write what waits, then let the thread go."""
        if self._flusher is not None:
            await asyncio.shield(self._flusher)
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
        for pool in (self._writers, self._readers):
            if pool is not None:
                pool.shutdown(wait=True)
        self._writers = self._readers = None
