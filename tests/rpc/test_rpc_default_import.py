"""The servers' first start on SQLite imports the old default directory (issue 33 item 1),
and an interrupted import is finished by the next start: a process killed inside a game's
transaction leaves the games before it imported whole, that one not at all, and the next
start imports the rest, nothing twice. (The uninterrupted import: ``test_rpc_stores.py``.)"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from nataterra_adapters.rpc import store_tools
from nataterra_adapters.rpc.games import CreateParams, Games
from nataterra_adapters.rpc.store_files import DirectoryStore
from nataterra_adapters.rpc.store_sqlite import SqliteStore

from nataterra_core.kernel.registry import systems

DIES_AT_GAME = 3
"""The import is killed inside the transaction of this game (counted from 1)."""

# A process importing the old directory into the default store, killed (os._exit: no
# rollback, no clean-up, as kill -9) inside the third game's transaction, once that game's
# records are written and before its commit.
_KILLED_IMPORT = textwrap.dedent(
    f"""
    import os
    from nataterra_adapters.rpc import store_tools
    from nataterra_adapters.rpc.store_sqlite import SqliteStore

    written = []
    def dying(self, db, game_id, records):
        written.append(game_id)
        if len(written) == {DIES_AT_GAME}:
            os._exit(9)
    SqliteStore._notify = dying
    store_tools.open_default_store(print)
    """
)


def test_an_interrupted_first_start_import_is_finished_by_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    old = DirectoryStore(tmp_path / "nataterra" / "rpc-games")
    games = Games(test_seeds=True, store=old)
    made = sorted(
        games.create(CreateParams(rules=record.id, seed=seed)).game_id
        for seed, record in enumerate(systems())
    )
    assert len(made) > DIES_AT_GAME
    default = tmp_path / "nataterra" / "games.sqlite3"
    marker = default.with_name("games.sqlite3.importing")

    killed = subprocess.run(
        [sys.executable, "-c", _KILLED_IMPORT],
        env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
        capture_output=True,
        timeout=120,
    )
    assert killed.returncode == 9, killed.stderr.decode()
    assert marker.exists() and default.exists()
    partial = SqliteStore(default)
    assert [listing.game_id for listing in partial.games()] == made[: DIES_AT_GAME - 1]
    assert partial.server_key() == old.server_key()
    partial.close()

    said: list[str] = []
    store = store_tools.open_default_store(said.append)
    assert said == [
        f"imported {len(made)} games from {old.directory} into {default}"
        " (the directory is left as it was)"
    ]
    assert not marker.exists()
    assert [listing.game_id for listing in store.games()] == made
    for game_id in made:  # each whole and once: the same bytes, the same record count
        assert store.log(game_id) == old.log(game_id)
        assert store.records(game_id) == old.records(game_id)
        assert store.secret(game_id) == old.secret(game_id)
    assert store.server_key() == old.server_key()
    store.close()
    said.clear()
    store_tools.open_default_store(said.append).close()
    assert said == []  # done: never imported again
