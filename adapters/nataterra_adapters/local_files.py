"""The front ends' local files: the user's data folder, and files only this user may read (the
secret seeds of games in progress)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir", "write_private"]


def data_dir() -> Path:
    """``$XDG_DATA_HOME/nataterra`` (by default ``~/.local/share/nataterra``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "nataterra"


def write_private(path: Path, data: bytes) -> None:
    """Create ``path`` with mode 0600 (refusing to replace a file) and fsync ``data`` into it."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(descriptor, data)
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
