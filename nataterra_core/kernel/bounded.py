"""Bounds on what is read from outside: how deep JSON text nests.

Every reader of outside input (a log's records, a position, a content pack) nests at most
:data:`MAX_DEPTH` arrays and objects. Python's parsers, and msgspec's, recurse once per level,
so a deeper text raised ``RecursionError`` at a depth that depends on how deep the reader's
own stack already was: the same input could be refused one way in a command and another in a
server. Past the cap the reason is always the depth.
"""

from __future__ import annotations

from itertools import accumulate

__all__ = ["MAX_DEPTH", "nesting_depth"]

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects any reader accepts; every game's records,
positions and packs nest under 10 (``tests/test_deep_records.py`` checks the records)."""

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
