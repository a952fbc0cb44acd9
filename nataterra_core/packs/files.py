"""The files of a content pack, read within bounds: which ``*.toml`` files a pack directory
holds, what is refused in it, and the effective SHA-256 over them (docs/ARCHITECTURE.md §1).

A pack is read from outside (a user's folder), so nothing in it is taken on trust: only
regular files are read, each of at most :data:`PACK_FILE_BYTES`, at most :data:`PACK_FILES` of
them; a ``*.toml`` name that is something else (a FIFO, a device, a directory, a dangling
symlink, a symlink loop) and a folder symlink leading back to a folder already read are
reported by :func:`walk_pack`, never skipped in silence.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from nataterra_core.kernel.bounded import file_kind, read_regular_file

__all__ = [
    "PACK_FILES",
    "PACK_FILE_BYTES",
    "effective_sha256",
    "hash_named",
    "pack_files",
    "read_pack_file",
    "walk_pack",
]

PACK_FILE_BYTES = 4 << 20
"""The largest pack file read (the largest shipped is some tens of kilobytes)."""
PACK_FILES = 1000
"""The most ``*.toml`` files a pack may have."""


def pack_files(directory: Path) -> list[tuple[str, Path]]:
    """The pack files under ``directory``: (relative POSIX path, path), sorted by relative path
    (what :func:`walk_pack` finds; the entries it refuses are left out)."""
    return walk_pack(directory)[0]


def walk_pack(directory: Path) -> tuple[list[tuple[str, Path]], list[tuple[str, str]]]:
    """The pack files under ``directory`` as :func:`pack_files` gives them, and the entries
    that would have been pack files but are refused, each ``(relative path, why)``: a
    ``*.toml`` that is not a regular file (a FIFO, a device, a directory, a dangling
    symlink, a symlink loop), a symlinked folder leading back to one already read, the
    files past :data:`PACK_FILES`. Names starting with ``.`` are skipped, as before."""
    files: list[tuple[str, Path]] = []
    refused: list[tuple[str, str]] = []
    seen = {_identity(directory)}
    folders = [directory]
    while folders:
        folder = folders.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            refused.append((folder.relative_to(directory).as_posix(), f"cannot list: {exc}"))
            continue
        for entry in entries:
            path = Path(entry.path)
            rel = path.relative_to(directory).as_posix()
            if entry.name.startswith("."):
                continue
            if _is_folder(entry) and not entry.name.endswith(".toml"):
                if _identity(path) in seen:
                    refused.append((rel, "a directory loop: it leads back to a folder read"))
                else:
                    seen.add(_identity(path))
                    folders.append(path)
            elif entry.name.endswith(".toml"):
                kind = file_kind(path)
                if kind is not None:
                    refused.append((rel, f"{kind}, not a regular file: a pack file must be one"))
                elif len(files) == PACK_FILES:
                    refused.append((rel, f"more than {PACK_FILES} pack files"))
                    return sorted(files), refused
                else:
                    files.append((rel, path))
    return sorted(files), sorted(refused)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a symlink loop: named with its file, if it is a pack file's name
        return False


def _identity(folder: Path) -> tuple[int, int]:
    status = folder.stat()
    return status.st_dev, status.st_ino


def effective_sha256(base_dir: Path, overlay_dir: Path | None = None) -> str:
    """The effective SHA-256 of a base pack with an optional overlay (docs/ARCHITECTURE.md §1)."""
    named = [(f"base/{rel}", read_pack_file(path)) for rel, path in pack_files(base_dir)]
    if overlay_dir is not None:
        named += [(f"overlay/{rel}", read_pack_file(path)) for rel, path in pack_files(overlay_dir)]
    return hash_named(named)


def read_pack_file(path: Path) -> bytes:
    """The bytes of one pack file (a regular file of at most :data:`PACK_FILE_BYTES`)."""
    return read_regular_file(path, PACK_FILE_BYTES)


def hash_named(named: list[tuple[str, bytes]]) -> str:
    """One SHA-256 over ``name ‖ 0x00 ‖ bytes ‖ 0x00`` of each named file, sorted by name."""
    digest = hashlib.sha256()
    for name, data in sorted(named):
        digest.update(name.encode("utf-8") + b"\x00" + data + b"\x00")
    return digest.hexdigest()
