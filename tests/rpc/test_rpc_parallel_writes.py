"""A store that takes several writers at once (PostgreSQL's pool: ``writers``) gets the
appends of one batch's games side by side (issue 33: store I/O off the event loop, commits
overlapping); any other store gets them one at a time. Each game's lines are stored in
order, whatever the store."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import pytest
from nataterra_adapters.rpc.writes import Writes

GAMES = 4


class CountingStore:
    """An in-memory store's appends, counting how many run at once. With ``writers``, each
    append waits until all ``GAMES`` are in flight together (a barrier: appends made one
    after another would break it after its timeout, failing the test)."""

    location = "memory"
    shared = True

    def __init__(self, writers: int | None) -> None:
        if writers is not None:
            self.writers = writers
        self.barrier = threading.Barrier(GAMES, timeout=30) if writers else None
        self.lines: dict[str, list[bytes]] = {}
        self.active = self.most = 0
        self.lock = threading.Lock()

    def append(
        self, game_id: str, seq: int, lines: Sequence[bytes], answers: Sequence[object] = ()
    ) -> None:
        with self.lock:
            self.active += 1
            self.most = max(self.most, self.active)
        if self.barrier is not None:
            self.barrier.wait()
        with self.lock:
            self.active -= 1
            stored = self.lines.setdefault(game_id, [])
            assert len(stored) == seq  # a game's appends in order
            stored.extend(lines)


async def _write_games(store: CountingStore) -> None:
    writes = Writes(store, stored=lambda log: None)  # type: ignore[arg-type]
    writes.defer()
    logs = [writes.log(f"g{n}", 0) for n in range(GAMES)]
    for log in logs:  # one flush holds every game's batch
        log.write(b"one")
        log.write(b"two")
    await writes.durable()
    for log in logs:
        log.write(b"three")
    await writes.durable()
    await writes.close()
    assert all(log.lost is None for log in logs)


@pytest.mark.parametrize("writers", [GAMES, None])
def test_a_batch_of_several_games_is_written_side_by_side_when_the_store_allows(
    writers: int | None,
) -> None:
    store = CountingStore(writers)
    asyncio.run(_write_games(store))
    assert store.most == (writers or 1)
    assert store.lines == {f"g{n}": [b"one", b"two", b"three"] for n in range(GAMES)}
