"""Sans-IO framing: frames survive any chunking, over-long frames are skipped to the boundary."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nataterra_adapters.rpc.framing import (
    BadHeader,
    ContentLengthFramer,
    Frame,
    Framer,
    NewlineFramer,
    Oversized,
)


def feed_in_chunks(framer: Framer, data: bytes, cuts: list[int]) -> list[Frame]:
    frames: list[Frame] = []
    start = 0
    for cut in [*sorted({min(c, len(data)) for c in cuts}), len(data)]:
        frames += framer.feed(data[start:cut])
        start = cut
    return frames


def describe(frames: list[Frame]) -> list[object]:
    return [f if isinstance(f, bytes) else (type(f).__name__) for f in frames]


bodies = st.lists(
    st.binary(min_size=1, max_size=40).map(lambda b: b.replace(b"\n", b"x").strip() or b"y"),
    max_size=6,
)


@given(bodies, st.lists(st.integers(0, 400)))
def test_newline_frames_survive_any_chunking(frames: list[bytes], cuts: list[int]) -> None:
    framer = NewlineFramer(max_frame_bytes=30)
    data = b"".join(framer.encode(f) for f in frames)
    expected = [f if len(f) <= 30 else "Oversized" for f in frames]
    assert describe(feed_in_chunks(framer, data, cuts)) == expected


@given(bodies, st.lists(st.integers(0, 600)))
def test_content_length_frames_survive_any_chunking(frames: list[bytes], cuts: list[int]) -> None:
    framer = ContentLengthFramer(max_frame_bytes=30)
    data = b"".join(framer.encode(f) for f in frames)
    expected = [f if len(f) <= 30 else "Oversized" for f in frames]
    assert describe(feed_in_chunks(framer, data, cuts)) == expected


def test_newline_blank_lines_and_crlf() -> None:
    framer = NewlineFramer()
    assert framer.feed(b'\n  \r\n{"a":1}\r\n[]\n{"b"') == [b'{"a":1}', b"[]"]
    assert framer.feed(b":2}\n") == [b'{"b":2}']


def test_oversized_line_is_reported_once_at_its_end() -> None:
    framer = NewlineFramer(max_frame_bytes=10)
    assert framer.feed(b"x" * 25) == []
    frames = framer.feed(b"x" * 25 + b"\nok\n")
    assert isinstance(frames[0], Oversized) and frames[0].size == 50 and frames[1:] == [b"ok"]


def test_content_length_headers() -> None:
    framer = ContentLengthFramer(max_frame_bytes=100)
    data = b"Content-Type: application/json\r\ncontent-length:  2\r\n\r\n[]"
    assert framer.feed(data) == [b"[]"]
    assert framer.feed(b"Content-Length: 0\r\n\r\n") == [b""]  # answered as a parse error
    bad = framer.feed(b"Content-Length: -3\r\n\r\nContent-Length: 2\r\n\r\n{}")
    assert isinstance(bad[0], BadHeader) and bad[1:] == [b"{}"]
    big = framer.feed(b"Content-Length: 101\r\n\r\n" + b"z" * 101 + b"Content-Length: 2\r\n\r\n{}")
    assert isinstance(big[0], Oversized) and big[1:] == [b"{}"]


def test_endless_header_block_is_dropped_and_bounded() -> None:
    framer = ContentLengthFramer()
    frames = framer.feed(b"h" * 20000) + framer.feed(b"h" * 20000)
    assert [type(f) for f in frames] == [BadHeader]
    assert len(framer._buffer) < 10  # nothing piles up
    assert framer.feed(b"\r\n\r\nContent-Length: 2\r\n\r\n{}") == [b"{}"]


def _frames(chunks: list[bytes]) -> list[object]:
    framer = ContentLengthFramer(1024)
    out: list[object] = []
    for chunk in chunks:
        out.extend(framer.feed(chunk))
    return out


def frame(body: bytes, length: int | None = None) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


@pytest.mark.parametrize("split", [False, True])
def test_a_length_that_is_too_long_resynchronises_on_the_next_header(split: bool) -> None:
    """Issue 14 item 6: a frame claiming more bytes than it has does not swallow the next."""
    data = frame(b'{"a":1}', 200) + frame(b'{"b":2}') + frame(b'{"c":3}')
    chunks = [data[i : i + 5] for i in range(0, len(data), 5)] if split else [data]
    got = _frames(chunks)
    assert isinstance(got[0], BadHeader) and "ran into the next header" in got[0].reason
    assert got[1:] == [b'{"b":2}', b'{"c":3}']


def test_a_length_that_is_too_short_loses_only_that_frame() -> None:
    data = frame(b'{"a":1}', 5) + frame(b'{"b":2}') + frame(b'{"c":3}')
    got = _frames([data])
    assert got[0] == b'{"a":'
    assert isinstance(got[1], BadHeader) and "before a header" in got[1].reason
    assert got[2:] == [b'{"b":2}', b'{"c":3}']


def test_a_length_with_too_many_digits_is_refused() -> None:
    got = _frames([b"Content-Length: " + b"9" * 40 + b"\r\n\r\n" + frame(b"{}")])
    assert isinstance(got[0], BadHeader) and got[1:] == [b"{}"]


@pytest.mark.parametrize("length", [b"1048577", b"9" * 18])
@pytest.mark.parametrize("split", [False, True])
def test_a_length_over_the_cap_is_refused_at_once_and_resynchronises(
    length: bytes, split: bool
) -> None:
    """Issue 32 item 3: ``Content-Length: 1048577`` (or 18 digits) with no such body swallowed
    every following frame, unanswered; now it is refused at once (-32600, ``Oversized``) and
    reading resumes at the next header, as under the cap."""
    good = [b'{"n":%d}' % n for n in range(5)]
    data = b"Content-Length: " + length + b"\r\n\r\n" + b"".join(frame(body) for body in good)
    chunks = [data[i : i + 7] for i in range(0, len(data), 7)] if split else [data]
    framer = ContentLengthFramer()
    got: list[object] = []
    for chunk in chunks:
        got.extend(framer.feed(chunk))
    assert isinstance(got[0], Oversized) and got[0].size == int(length)
    assert got[1:] == good
    assert not framer.pending


def test_a_body_over_the_cap_that_does_come_is_skipped_whole() -> None:
    framer = ContentLengthFramer(max_frame_bytes=100)
    head = framer.feed(b"Content-Length: 3000\r\n\r\n")
    assert isinstance(head[0], Oversized) and framer.pending
    assert framer.feed(b'{"pad":"' + b"a" * 2990 + b'"}') == []
    assert not framer.pending and framer.feed(frame(b"{}")) == [b"{}"]
