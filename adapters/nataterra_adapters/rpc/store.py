"""The server's games on disk, so that no acknowledged command is lost to a crash.

Each started game is two files in the store directory: ``<game_id>.jsonl``, its log, appended
record by record with one ``fsync`` per record before the reply is sent, and
``<game_id>.secret``, readable by the server's user only (mode 0600), holding what the log
must not: the server seed (until the game's own ``reveal``), the seats' tokens and the
private half of the game's receipt key (never revealed). ``server.key`` (0600) is the
server's long-term identity key, which certifies each game's receipt key. On start
the server resumes every stored game by re-executing its log (the kernel's verification
path), cutting a torn last record (never acknowledged: its reply was not sent). A game whose
files cannot be read (a damaged secret, a log that is not a file) is set aside with its
reason, its files left as they are for an operator, and every other game resumes. Secrets are
written atomically (a temporary file in the store, fsync, rename, fsync of the directory), so
a crash leaves the old secret or the new one, never half of one; a secret without a log (the
crash came before the header) belongs to no game and is replaced by the next game of its id.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from nataterra_core.kernel.log import LogWriter, split_lines

__all__ = ["DamagedGame", "GameStore", "StoredGame"]

MAX_SECRET_BYTES = 64 * 1024
"""A secret is a few hundred bytes; anything much larger is not one of ours."""


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


@dataclass(frozen=True)
class DamagedGame:
    """A stored game whose files cannot be read, set aside (its files left untouched)."""

    game_id: str
    reason: str


class DamagedSecret(ValueError):
    """A ``.secret`` file that is not what :meth:`GameStore.create` writes."""


def _hex(value: object, field: str) -> bytes:
    if not isinstance(value, str):
        raise DamagedSecret(f"{field} is not a hex string")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise DamagedSecret(f"{field} is not valid hex") from None


def _names(value: object, field: str) -> dict[str, str]:
    if not isinstance(value, dict) or not all(
        isinstance(key, str) and isinstance(item, str) for key, item in value.items()
    ):
        raise DamagedSecret(f"{field} is not an object of strings")
    return dict(value)


def _parse_secret(data: bytes) -> tuple[bytes, dict[str, str], dict[str, str], bytes | None]:
    """The server seed, seat tokens, bot names and receipt key of a secret, or DamagedSecret."""
    if not data:
        raise DamagedSecret("the secret is empty (a crash while it was written)")
    try:
        kept = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise DamagedSecret("the secret is not UTF-8") from None
    except ValueError as exc:
        raise DamagedSecret(f"the secret is not JSON ({exc})") from None
    if not isinstance(kept, dict):
        raise DamagedSecret("the secret is not a JSON object")
    if "server_seed" not in kept:
        raise DamagedSecret("the secret has no server_seed")
    if "tokens" not in kept:
        raise DamagedSecret("the secret has no tokens")
    receipt_key = kept.get("receipt_key")
    return (
        _hex(kept["server_seed"], "server_seed"),
        _names(kept["tokens"], "tokens"),
        _names(kept.get("bots", {}), "bots"),
        None if receipt_key is None else _hex(receipt_key, "receipt_key"),
    )


def _write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by ``data`` (mode 0600) so a crash leaves the old file or the new one:
    a temporary file in the same directory, fsync, rename over ``path``, fsync of the
    directory (which makes the rename itself durable)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(descriptor, view) :]
            os.fsync(descriptor)
        finally:
            os.close(descriptor)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


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
        log for appending, with an fsync per record.

        A secret left without a log (a crash before the header) is replaced; a game whose
        log holds records already is refused with :class:`FileExistsError`."""
        log_path = self.directory / f"{game_id}.jsonl"
        if log_path.is_dir() or (log_path.exists() and log_path.stat().st_size > 0):
            raise FileExistsError(f"game {game_id!r} is in the store already")
        kept: dict[str, object] = {
            "server_seed": server_seed.hex(),
            "tokens": tokens,
            "bots": dict(bots or {}),
        }
        if receipt_key is not None:
            kept["receipt_key"] = receipt_key.hex()
        secret = json.dumps(kept).encode()
        _write_atomically(self.directory / f"{game_id}.secret", secret)
        return LogWriter(log_path, fsync=True)

    def games(self) -> Iterator[StoredGame | DamagedGame]:
        """Every stored game with a log, its torn last record (if any) cut off the file, or
        the reason it cannot be read."""
        for secret_path in sorted(self.directory.glob("*.secret")):
            game_id = secret_path.stem
            log_path = self.directory / f"{game_id}.jsonl"
            if not log_path.exists():
                continue  # the crash came between the secret and the header
            try:
                yield from self._read(game_id, secret_path, log_path)
            except (DamagedSecret, OSError) as exc:
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                if isinstance(exc, OSError) and exc.filename:
                    reason = f"{Path(exc.filename).name}: {reason}"
                yield DamagedGame(game_id, reason)

    def _read(self, game_id: str, secret_path: Path, log_path: Path) -> Iterator[StoredGame]:
        with secret_path.open("rb") as file:
            secret = file.read(MAX_SECRET_BYTES + 1)
        if len(secret) > MAX_SECRET_BYTES:
            raise DamagedSecret(f"the secret is over {MAX_SECRET_BYTES} bytes")
        server_seed, tokens, bots, receipt_key = _parse_secret(secret)
        data = log_path.read_bytes()
        torn = split_lines(data).torn
        if torn:
            data = data[: len(data) - len(torn)]
            with log_path.open("r+b") as file:
                file.truncate(len(data))
        if data:
            yield StoredGame(game_id, server_seed, tokens, data, bots, receipt_key)

    def append(self, game_id: str) -> LogWriter:
        """Open a resumed game's log for appending."""
        return LogWriter(self.directory / f"{game_id}.jsonl", fsync=True)
