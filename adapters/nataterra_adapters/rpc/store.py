"""The server's games on disk, so that no acknowledged command is lost to a crash.

Each started game is two files in the store directory: ``<game_id>.jsonl``, its log, appended
record by record with one ``fsync`` per record before the reply is sent, and
``<game_id>.secret``, readable by the server's user only (mode 0600), holding what the log
must not: the server seed (until the game's own ``reveal``), the seats' tokens and the
private half of the game's receipt key (never revealed). ``server.key`` (0600) is the
server's long-term identity key, which certifies each game's receipt key. On start
the server resumes every stored game by re-executing its log (the kernel's verification
path), cutting a torn last record (never acknowledged: its reply was not sent).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from nataterra_core.kernel.log import LogWriter, split_lines

from ..local_files import write_private

__all__ = ["GameStore", "StoredGame"]


@dataclass(frozen=True)
class StoredGame:
    """One game found in the store."""

    game_id: str
    server_seed: bytes
    tokens: dict[str, str]
    log: bytes
    bots: dict[str, str]
    receipt_key: bytes | None = None
    """The private half of the game's receipt key (``None``: a game stored before receipts)."""


class GameStore:
    """A directory of game logs and their secrets."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        os.chmod(self.directory, 0o700)

    def create(
        self,
        game_id: str,
        server_seed: bytes,
        tokens: dict[str, str],
        bots: Mapping[str, str] | None = None,
        receipt_key: bytes | None = None,
    ) -> LogWriter:
        """Record a new game's secret (first, so any log on disk can be resumed), the
        player names of its bot seats and the private half of its receipt key, and open its
        log for appending, with an fsync per record."""
        kept = {"server_seed": server_seed.hex(), "tokens": tokens, "bots": dict(bots or {})}
        if receipt_key is not None:
            kept["receipt_key"] = receipt_key.hex()
        secret = json.dumps(kept).encode()
        write_private(self.directory / f"{game_id}.secret", secret)
        return LogWriter(self.directory / f"{game_id}.jsonl", fsync=True)

    def games(self) -> Iterator[StoredGame]:
        """Every stored game with a log, its torn last record (if any) cut off the file."""
        for secret_path in sorted(self.directory.glob("*.secret")):
            game_id = secret_path.stem
            log_path = self.directory / f"{game_id}.jsonl"
            if not log_path.exists():
                continue  # the crash came between the secret and the header
            secret = json.loads(secret_path.read_text())
            data = log_path.read_bytes()
            torn = split_lines(data).torn
            if torn:
                data = data[: len(data) - len(torn)]
                with log_path.open("r+b") as file:
                    file.truncate(len(data))
            if not data:
                continue
            yield StoredGame(
                game_id,
                bytes.fromhex(secret["server_seed"]),
                dict(secret["tokens"]),
                data,
                dict(secret.get("bots", {})),
                bytes.fromhex(secret["receipt_key"]) if "receipt_key" in secret else None,
            )

    def append(self, game_id: str) -> LogWriter:
        """Open a resumed game's log for appending."""
        return LogWriter(self.directory / f"{game_id}.jsonl", fsync=True)
