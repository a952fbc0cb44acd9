"""Bounds on what is read from outside: file kinds and sizes, nesting depth, integer ranges.

Every reader of outside input (a log's records, a position, a content pack) goes through here:

* :func:`read_regular_file` reads only a regular file, and at most a given size: a FIFO made
  a reader wait forever, a symlink to ``/dev/zero`` filled the memory.
* :data:`MAX_DEPTH` caps how deep arrays and objects (tables) nest. Python's parsers, and
  msgspec's, recurse once per level, so a deeper text raised ``RecursionError`` at a depth
  that depends on how deep the reader's own stack already was: the same input could be
  refused one way in a command and another in a server. Past the cap the reason is always
  the depth (:func:`nesting_depth` for JSON text, :func:`check_depth` for a parsed value).
* :func:`integers_outside` finds integers past a bound, by path, so that each reader can
  name them (a position's or a pack's numbers end up in log records, which allow only
  ``|n| < 2**53``: ``docs/LOG_FORMAT.md`` §1).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from itertools import accumulate
from pathlib import Path
from typing import Any

__all__ = [
    "LOG_BYTES",
    "MAX_DEPTH",
    "SAFE_INTEGER",
    "InputRefused",
    "check_depth",
    "file_kind",
    "integers_outside",
    "nesting_depth",
    "read_regular_file",
]

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects any reader accepts; every game's records,
positions and packs nest under 10 (``tests/test_deep_records.py`` checks the records)."""

LOG_BYTES = 256 << 20
"""The largest log file a front end reads (a whole tournament game's is some hundreds of
kilobytes)."""

SAFE_INTEGER = 2**53
"""Integers in a log are ``|n| < 2**53``, exact in every JSON reader (LOG_FORMAT §1)."""


class InputRefused(OSError):
    """A file or text refused before it is parsed: not a regular file, too large, too deep.

    An :class:`OSError`, so that a reader's handling of a file it cannot read covers it."""


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (a symlink is followed to one), refusing
    anything else (a FIFO, a device, a directory) and a file of more than ``limit`` bytes,
    with :class:`InputRefused`; other failures are the ``OSError`` of opening or reading."""
    # O_NONBLOCK: opening a FIFO for reading waits for a writer; here it returns at once and
    # fstat names what it is.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise InputRefused(f"{os.fspath(path)} is not a regular file ({_kind(mode)})")
        os.set_blocking(descriptor, True)
        chunks, size = [], 0
        while chunk := os.read(descriptor, min(limit + 1 - size, 1 << 20) or 1):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise InputRefused(f"{os.fspath(path)} is larger than {limit:,} bytes")
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def _kind(mode: int) -> str:
    kinds = {
        stat.S_ISDIR: "a directory",
        stat.S_ISFIFO: "a FIFO",
        stat.S_ISCHR: "a character device",
        stat.S_ISBLK: "a block device",
        stat.S_ISSOCK: "a socket",
    }
    return next((name for test, name in kinds.items() if test(mode)), "not a file")


def file_kind(path: Path) -> str | None:
    """What a directory entry found by a walk is when it is not a regular file (``None``
    when it is one): a directory, a FIFO, a dangling symlink, a symlink loop..."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a dangling symlink"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symlink loop"
        return f"unreadable ({exc.strerror or exc})"
    return None if stat.S_ISREG(mode) else _kind(mode)


_STRUCTURE = b'"[]{}'
_OTHER_BYTES = bytes(b for b in range(256) if b not in _STRUCTURE)
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
"""An opening bracket a step of +1, a closing one of -1 (read as signed bytes)."""


def nesting_depth(text: bytes) -> int:
    """How deep the arrays and objects of JSON ``text`` nest (brackets in strings do not
    count); for text that is not JSON, a number that a parser's refusal makes moot.

    Runs in C over the bytes (no Python step per character): escaped backslashes and quotes
    are dropped, then everything but quotes and brackets, then what lies between quotes.
    """
    kept = text.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _OTHER_BYTES)
    outside = b"".join(kept.split(b'"')[::2])
    steps = memoryview(outside.translate(_STEPS)).cast("b")
    return max(accumulate(steps), default=0)


def check_depth(value: Any, what: str = "the value") -> None:
    """Raise :class:`InputRefused` if ``value`` (parsed JSON or TOML: dicts and lists)
    nests deeper than :data:`MAX_DEPTH`; walks without recursing."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node
        if isinstance(node, dict | list):
            if depth >= MAX_DEPTH:
                raise InputRefused(f"{what} is nested deeper than {MAX_DEPTH} levels")
            stack.extend((child, depth + 1) for child in children)


def integers_outside(value: Any, bound: int, path: str = "$") -> Iterator[tuple[str, int]]:
    """Each integer of ``value`` (dicts and lists of it) with ``|n| >= bound``, with its
    path (``$.players[0].pool.food``), in document order; walks without recursing."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            stack.extend((v, f"{where}.{k}") for k, v in reversed(node.items()))
        elif isinstance(node, list | tuple):
            stack.extend((v, f"{where}[{i}]") for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, int) and not isinstance(node, bool) and abs(node) >= bound:
            yield where, node
