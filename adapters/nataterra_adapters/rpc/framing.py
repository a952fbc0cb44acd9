"""Sans-IO framing: bytes as they arrive in, whole frames out; and frames back into bytes.

Two framings: newline-delimited JSON (one message per line; JSON never needs a raw newline)
and LSP-style ``Content-Length`` headers. Both cap a frame's size: an over-long frame is
skipped up to the next frame boundary and reported as :class:`Oversized`, so the server
answers it with an error and reads on. Neither ever buffers more than the cap (plus one
read), whatever arrives.
"""

from __future__ import annotations

import re
from typing import Protocol

__all__ = [
    "DEFAULT_MAX_FRAME_BYTES",
    "BadHeader",
    "ContentLengthFramer",
    "Framer",
    "NewlineFramer",
    "Oversized",
    "make_framer",
]

DEFAULT_MAX_FRAME_BYTES = 1 << 20
MAX_HEADER_BYTES = 8192
"""A Content-Length header block longer than this is garbage, not a header."""
MAX_LENGTH_DIGITS = 18
"""A Content-Length value with more digits is refused (it could never fit under the cap)."""
_LENGTH = re.compile(rb"(?i)content-length[ \t]*:[ \t]*(\d+)[ \t]*\r\n")
"""A Content-Length header line; it cannot occur inside a JSON body (raw CR LF may appear only
between tokens, and a bare word never), so finding one in a body means a length lied."""
_HEADER_LINE = re.compile(rb"[!-9;-~]+[ \t]*:.*")
_HEADER_TAIL = 64
"""Skipped bytes kept to find a Content-Length header split between two reads."""


class Oversized:
    """A frame longer than the cap was dropped (``size``: its declared length, or the bytes
    seen of a line; at least the cap + 1)."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        self.size = size

    def __repr__(self) -> str:
        return f"Oversized({self.size})"


class BadHeader:
    """A Content-Length header block that could not be understood was dropped."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"BadHeader({self.reason!r})"


Frame = bytes | Oversized | BadHeader


class Framer(Protocol):
    """Splits a byte stream into frames and wraps replies."""

    def feed(self, data: bytes) -> list[Frame]:
        """Frames completed by ``data`` (in order)."""

    def encode(self, body: bytes) -> bytes:
        """``body`` framed for sending."""

    @property
    def pending(self) -> bool:
        """Whether a frame has begun but not ended (a half-sent frame)."""


class NewlineFramer:
    """One message per ``\\n``-terminated line; blank lines are ignored (keep-alives)."""

    def __init__(self, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> None:
        self.max_frame_bytes = max_frame_bytes
        self._buffer = bytearray()
        self._skipped = 0  # > 0 while discarding an over-long line up to its newline

    def feed(self, data: bytes) -> list[Frame]:
        """Frames completed by ``data``."""
        frames: list[Frame] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            chunk = data[start:] if end < 0 else data[start:end]
            if self._skipped:
                self._skipped += len(chunk)
            elif len(self._buffer) + len(chunk) > self.max_frame_bytes:
                self._skipped = len(self._buffer) + len(chunk)
                self._buffer.clear()
            else:
                self._buffer += chunk
            if end < 0:
                return frames
            if self._skipped:
                frames.append(Oversized(self._skipped))
                self._skipped = 0
            else:
                line = bytes(self._buffer).strip()
                if line:
                    frames.append(line)
                self._buffer.clear()
            start = end + 1

    def encode(self, body: bytes) -> bytes:
        """``body`` plus ``\\n`` (our JSON never contains a raw newline)."""
        return body + b"\n"

    @property
    def pending(self) -> bool:
        """Whether a line has begun but not ended."""
        return bool(self._buffer or self._skipped)


class ContentLengthFramer:
    """``Content-Length: N\\r\\n`` (other headers ignored), a blank line, then N bytes.

    A body declared longer than the cap is refused at once (:class:`Oversized`, as soon as
    its header is read) and skipped by its declared length, so the stream stays in step; if a
    ``Content-Length`` header turns up in what is skipped (the body never came: a length
    that lied, or a client that gave up), reading resumes at that header, as it does for a
    length under the cap. A header block without a usable Content-Length is reported and
    dropped; reading resumes after its blank line.
    """

    def __init__(self, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> None:
        self.max_frame_bytes = max_frame_bytes
        self._buffer = bytearray()
        self._body: int | None = None  # declared length of the body being read
        self._skip = 0  # body bytes still to discard (oversized frame)
        self._skipped_tail = b""  # the last skipped bytes: a header may begin in them
        self._header_overflow = False

    def feed(self, data: bytes) -> list[Frame]:
        """Frames completed by ``data``."""
        frames: list[Frame] = []
        view = memoryview(data)
        while view:
            if self._skip:
                view = self._skip_body(view)
                continue
            if self._body is not None:
                n = min(self._body - len(self._buffer), len(view))
                seen = len(self._buffer)
                self._buffer += view[:n]
                view = view[n:]
                # A length that lied (too long) runs into the next frame's header: resynchronise.
                found = _LENGTH.search(self._buffer, max(0, seen - 64))
                if found is not None:
                    frames.append(BadHeader("a frame's Content-Length ran into the next header"))
                    rest = bytes(self._buffer[found.start() :]) + bytes(view)
                    self._buffer.clear()
                    self._body = None
                    view = memoryview(rest)
                    continue
                if len(self._buffer) == self._body:
                    frames.append(bytes(self._buffer))
                    self._buffer.clear()
                    self._body = None
                continue
            view = self._feed_header(view, frames)
        return frames

    def _skip_body(self, view: memoryview) -> memoryview:
        """Discard an oversized body's bytes; what is left of ``view`` to read, from the next
        header on if one turned up in them."""
        n = min(self._skip, len(view))
        seen = self._skipped_tail + bytes(view[:n])
        found = _LENGTH.search(seen)
        if found is not None:
            self._skip, self._skipped_tail = 0, b""
            return memoryview(seen[found.start() :] + bytes(view[n:]))
        self._skip -= n
        self._skipped_tail = seen[-_HEADER_TAIL:] if self._skip else b""
        return view[n:]

    def _feed_header(self, view: memoryview, frames: list[Frame]) -> memoryview:
        before = len(self._buffer)
        self._buffer += view
        end = self._buffer.find(b"\r\n\r\n")
        if end < 0:
            if len(self._buffer) > MAX_HEADER_BYTES:
                # Keep the last 3 bytes: they may begin the terminator.
                del self._buffer[:-3]
                if not self._header_overflow:
                    self._header_overflow = True
                    frames.append(BadHeader(f"header block over {MAX_HEADER_BYTES} bytes"))
            return view[len(view) :]
        consumed = end + 4 - before  # bytes of ``view`` up to the end of the header block
        header = bytes(self._buffer[:end])
        self._buffer.clear()
        overflowed, self._header_overflow = self._header_overflow, False
        if not overflowed:
            self._start_body(header, frames)
        return view[consumed:]

    def _start_body(self, header: bytes, frames: list[Frame]) -> None:
        length: int | None = None
        found = _LENGTH.search(header + b"\r\n")
        if found is not None:
            before = header[: found.start()]
            lines = [line for line in before.split(b"\r\n") if line]
            if not all(_HEADER_LINE.fullmatch(line) for line in lines):
                # The tail of a frame whose length lied (too short): drop it, keep the header.
                frames.append(BadHeader("bytes before a header were dropped"))
            digits = found.group(1)
            length = int(digits) if len(digits) <= MAX_LENGTH_DIGITS else None
        if length is None:
            frames.append(BadHeader("no valid Content-Length header"))
        elif length > self.max_frame_bytes:
            frames.append(Oversized(length))  # refused now: the body may never come
            self._skip = length
        else:
            self._body = length
            if length == 0:
                frames.append(b"")
                self._body = None

    def encode(self, body: bytes) -> bytes:
        """``body`` with its ``Content-Length`` header."""
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    @property
    def pending(self) -> bool:
        """Whether a header or body has begun but not ended."""
        return bool(self._buffer or self._body is not None or self._skip)


def make_framer(name: str, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> Framer:
    """The framer called ``name`` (``newline`` or ``content-length``)."""
    if name == "newline":
        return NewlineFramer(max_frame_bytes)
    if name == "content-length":
        return ContentLengthFramer(max_frame_bytes)
    raise ValueError(f"unknown framing {name!r}: use 'newline' or 'content-length'")
