"""A store that takes several writers at once (PostgreSQL's pool: ``writers``) gets the
appends of one batch's games side by side (issue 33: store I/O off the event loop, commits
overlapping); any other store gets them one at a time. Each game's lines are stored in
order, whatever the store."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
from nataterra_adapters.rpc.store import Answer, Secret
from nataterra_adapters.rpc.store_sqlite import SqliteStore
from nataterra_adapters.rpc.writes import Writes

GAMES = 4
SECRET = Secret(b"\x01" * 32, {"a": "t"})


class CountingStore(SqliteStore):
    """A real SQLite store whose writes (a game's first records, then its appends) count how
    many run at once, each then done by the store itself. With ``writers``, each write waits
    until all ``GAMES`` are in flight together (a barrier: writes made one after another
    would break it after its timeout, failing the test)."""

    def __init__(self, path: Path, writers: int | None) -> None:
        super().__init__(path)
        if writers is not None:
            self.writers = writers
        self.barrier = threading.Barrier(GAMES, timeout=30) if writers else None
        self.active = self.most = 0
        self.lock = threading.Lock()

    def create(
        self, game_id: str, secret: Secret, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        with self._counted():
            super().create(game_id, secret, lines, answers)

    def append(
        self, game_id: str, seq: int, lines: Sequence[bytes], answers: Sequence[Answer] = ()
    ) -> None:
        with self._counted():
            super().append(game_id, seq, lines, answers)

    @contextmanager
    def _counted(self) -> Iterator[None]:
        with self.lock:
            self.active += 1
            self.most = max(self.most, self.active)
        try:
            if self.barrier is not None:
                self.barrier.wait()
            yield
        finally:
            with self.lock:
                self.active -= 1


async def _write_games(store: CountingStore) -> None:
    writes = Writes(store, stored=lambda log: None)
    writes.defer()
    logs = [writes.log(f"g{n}", 0, SECRET) for n in range(GAMES)]
    for log in logs:  # one flush holds every game's batch (each creates its game)
        log.write(b"one")
        log.write(b"two")
    await writes.durable()
    for log in logs:  # and the next one every game's append
        log.write(b"three")
    await writes.durable()
    await writes.close()
    assert [log.lost for log in logs] == [None] * GAMES


@pytest.mark.parametrize("writers", [GAMES, None])
def test_a_batch_of_several_games_is_written_side_by_side_when_the_store_allows(
    writers: int | None, tmp_path: Path
) -> None:
    store = CountingStore(tmp_path / "games.sqlite3", writers)
    try:
        asyncio.run(_write_games(store))
        assert store.most == (writers or 1)
        assert {f"g{n}": store.log(f"g{n}") for n in range(GAMES)} == {
            f"g{n}": b"one\ntwo\nthree\n" for n in range(GAMES)
        }
        assert [store.secret(f"g{n}") for n in range(GAMES)] == [SECRET] * GAMES
    finally:
        store.close()
