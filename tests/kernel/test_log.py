"""The hash-chained log and verification (docs/LOG_FORMAT.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from conftest import finished_log, new_session, pig_factory, play_random
from dicegame import Pig
from hypothesis import given
from hypothesis import strategies as st

from nataterra_core.kernel import (
    ChainBroken,
    Header,
    LogError,
    LogWriter,
    TornRecord,
    UnknownContent,
    UnsupportedVersion,
    read_log,
    split_lines,
    verify,
)
from nataterra_core.kernel.log import check_chain, line_hash

SMALL_LOG = Path(__file__).resolve().parents[1] / "golden" / "pig-small.jsonl"


def test_small_log_is_reproduced_byte_for_byte() -> None:
    """Golden: the same seed and moves give the same bytes on every run and machine."""
    assert finished_log() == SMALL_LOG.read_bytes()


def test_small_log_verifies() -> None:
    verdict = verify(SMALL_LOG.read_bytes(), pig_factory)
    assert verdict.valid, verdict
    assert verdict.result is not None and verdict.result.reason == "target_reached"
    assert verdict.head == line_hash(SMALL_LOG.read_bytes().splitlines()[-1])


def expected_bad_record(data: bytes, position: int, new_byte: int) -> int:
    """The record §4 names when the byte at ``position`` becomes ``new_byte``.

    Every byte belongs to the line it is in (a line's ``\\n`` too). One case cannot be
    told apart from the chain alone: a hex digit changed into another inside the *last*
    line's ``prev`` looks exactly like a change of the line before it, so §4 names that
    line (s + 1 is only the witness); a published head (``expect_head``) catches it.
    """
    line = data[:position].count(b"\n")
    lines = data.split(b"\n")[:-1]
    last = len(lines) - 1
    if line == last:
        start = len(data) - len(lines[last]) - 1
        prev_at = lines[last].index(b'"prev":"') + len(b'"prev":"')
        in_prev = start + prev_at <= position < start + prev_at + 64
        if in_prev and chr(new_byte) in "0123456789abcdef":
            return last - 1
    return line


def test_changing_each_byte_fails_at_the_first_bad_record() -> None:
    data = SMALL_LOG.read_bytes()
    for position in range(len(data)):
        for mask in (0x01, 0x20):
            tampered = bytearray(data)
            tampered[position] ^= mask
            verdict = verify(bytes(tampered), pig_factory)
            assert not verdict.valid, (position, mask)
            assert verdict.status == "invalid", (position, mask, verdict)
            expected = expected_bad_record(data, position, tampered[position])
            assert verdict.seq == expected, (position, mask, verdict)


def test_prev_change_in_last_line_is_caught_by_expected_head() -> None:
    data = SMALL_LOG.read_bytes()
    head = line_hash(data.splitlines()[-1])
    last_line_start = data.rstrip(b"\n").rindex(b"\n") + 1
    at = data.index(b'"prev":"', last_line_start) + len(b'"prev":"')
    tampered = bytearray(data)
    tampered[at] = ord("0") if tampered[at] != ord("0") else ord("1")
    assert verify(bytes(tampered), pig_factory).seq == data.count(b"\n") - 2  # ambiguous
    verdict = verify(bytes(tampered), pig_factory, expect_head=head)
    assert verdict.failure == "head"
    assert verdict.seq == data.count(b"\n") - 1  # the published head names the last line
    assert verify(data, pig_factory, expect_head=head).valid
    assert verify(data, pig_factory, expect_head="0" * 64).failure == "head"


def test_cut_last_line_is_a_torn_record_with_earlier_records_intact() -> None:
    data = SMALL_LOG.read_bytes()
    lines = data.splitlines(keepends=True)
    cut = b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2]
    verdict = verify(cut, pig_factory)
    assert verdict.failure == "torn"
    assert verdict.seq == len(lines) - 1
    split = split_lines(cut)
    assert split.lines == tuple(line.rstrip(b"\n") for line in lines[:-1])
    with pytest.raises(TornRecord) as info:
        split.raise_if_torn()
    assert info.value.seq == len(lines) - 1
    check_chain(split.lines)  # every earlier record still chains


def test_unfinished_log_is_incomplete_not_invalid() -> None:
    session = new_session(4)
    play_random(session, random.Random(4), 20)
    verdict = verify(session.log_bytes(), pig_factory)
    assert verdict.status == "incomplete"
    assert verdict.failure is None


def test_wrong_revealed_seed_is_a_seed_mismatch() -> None:
    data = SMALL_LOG.read_bytes()
    lines = data.split(b"\n")[:-1]
    reveal = json.loads(lines[-2])
    reveal["server_seed"] = "ab" * 32
    lines[-2] = json.dumps(reveal, separators=(",", ":")).encode()
    # Re-chain so that only the seed is wrong.
    end = json.loads(lines[-1])
    end["prev"] = line_hash(lines[-2])
    lines[-1] = json.dumps(end, separators=(",", ":")).encode()
    verdict = verify(b"".join(line + b"\n" for line in lines), pig_factory)
    assert verdict.failure == "seed"
    assert verdict.seq == len(lines) - 2


def rechained(lines: list[bytes]) -> bytes:
    """Recompute every prev after an edit: a forger's log, consistent but false."""
    out: list[bytes] = []
    for line in lines:
        record = json.loads(line)
        if out:
            record["prev"] = line_hash(out[-1])
        out.append(json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode())
    return b"".join(line + b"\n" for line in out)


def test_forged_die_result_is_caught_by_re_execution() -> None:
    lines = SMALL_LOG.read_bytes().split(b"\n")[:-1]
    for seq, line in enumerate(lines):
        record = json.loads(line)
        rolls = [e for e in record.get("events", []) if e["type"] == "die_rolled.v1"]
        if rolls:
            rolls[0]["value"] = (rolls[0]["value"] + 1) % 6
            lines[seq] = json.dumps(record, separators=(",", ":")).encode()
            break
    verdict = verify(rechained(lines), pig_factory)
    assert verdict.failure == "replay"
    assert verdict.seq == seq
    assert "value" in verdict.reason


def test_forged_winner_is_caught() -> None:
    lines = SMALL_LOG.read_bytes().split(b"\n")[:-1]
    end = json.loads(lines[-1])
    end["result"]["winners"] = ["ann" if end["result"]["winners"] == ["bob"] else "bob"]
    lines[-1] = json.dumps(end, separators=(",", ":")).encode()
    verdict = verify(rechained(lines), pig_factory)
    assert verdict.failure == "replay"
    assert verdict.seq == len(lines) - 1
    assert "winners" in verdict.reason


def test_unsupported_version_and_unknown_content() -> None:
    data = SMALL_LOG.read_bytes()

    def old_rules(header: Header) -> Pig:
        raise UnsupportedVersion(f"rules {header.rules.id} v{header.rules.version} unknown", 0)

    def no_pack(header: Header) -> Pig:
        raise UnknownContent("content pack sha256 … unknown", 0)

    assert verify(data, old_rules).failure == "version"
    assert verify(data, no_pack).failure == "content"
    future = data.replace(b'"format_version":1', b'"format_version":3', 1)
    assert verify(future, pig_factory).failure == "version"


def test_read_log_reports_record_index() -> None:
    lines = SMALL_LOG.read_bytes().split(b"\n")[:-1]
    lines[3] = lines[3].replace(b'"seq":3', b'"seq":4')
    with pytest.raises(LogError) as info:
        read_log(b"".join(line + b"\n" for line in lines), pig_factory)
    assert info.value.seq == 3


@pytest.mark.parametrize("digit", [b"A", b"g", b" ", "\u00e9".encode()])
def test_a_prev_not_in_lowercase_hex_is_unreadable(digit: bytes) -> None:
    """The codec checks every ``prev``'s digits for a whole log at once; the read step still
    names the record (before a wrong seq after it) with the schema's message."""
    lines = SMALL_LOG.read_bytes().split(b"\n")[:-1]
    at = lines[3].index(b'"prev":"') + len(b'"prev":"')
    lines[3] = lines[3][:at] + digit + lines[3][at + 1 :]
    lines[4] = lines[4].replace(b'"seq":4', b'"seq":5')
    with pytest.raises(LogError) as info:
        read_log(b"".join(line + b"\n" for line in lines), pig_factory)
    assert info.value.seq == 3
    assert "matching regex" in info.value.reason and "$.prev" in info.value.reason


def test_chain_break_names_altered_record() -> None:
    lines = list(SMALL_LOG.read_bytes().split(b"\n")[:-1])
    lines[2] = (
        lines[2].replace(b"roll.v1", b"hold.v1", 1) if b"roll.v1" in lines[2] else lines[2] + b" "
    )
    with pytest.raises(ChainBroken) as info:
        check_chain(lines)
    assert info.value.seq == 2


def test_log_writer_appends_lines(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    with LogWriter(path) as writer:
        session = new_session(8, target=15)
        writer.write_all(session.lines)
    assert path.read_bytes() == session.log_bytes()


def test_trailing_newline_in_header_strings_is_unreadable() -> None:
    lines = SMALL_LOG.read_bytes().split(b"\n")[:-1]
    lines[0] = lines[0].replace(b'"game_id":"pig-3"', b'"game_id":"pig-3\\n"')
    verdict = verify(rechained(lines), pig_factory)
    assert verdict.failure == "read"
    assert verdict.seq == 0


def test_header_claiming_other_rules_or_pack_is_refused() -> None:
    lines = SMALL_LOG.read_bytes().split(b"\n")[:-1]
    other_version = list(lines)
    other_version[0] = lines[0].replace(b'"version":1', b'"version":7')
    assert verify(rechained(other_version), pig_factory).failure == "version"
    other_pack = list(lines)
    other_pack[0] = lines[0].replace(b'"content":null', b'"content":{"id":"x","sha256":"00"}')
    assert verify(rechained(other_pack), pig_factory).failure == "content"


def test_header_without_kind_is_unreadable() -> None:
    lines = SMALL_LOG.read_bytes().split(b"\n")[:-1]
    lines[0] = lines[0].replace(b'"kind":"header",', b"")
    verdict = verify(rechained(lines), pig_factory)
    assert (verdict.failure, verdict.seq) == ("read", 0)


@pytest.mark.parametrize("value", [12.5, 2**60, {"nested": 1}])
def test_options_must_be_json_safe(value: object) -> None:
    with pytest.raises(ValueError, match="bad option"):
        new_session(1, target=value)


def test_a_receipt_names_the_record_it_acknowledged() -> None:
    from nataterra_core.kernel.log import receipt_record

    session = new_session(5, target=10)
    seat = session.acting_seats()[0]
    session.apply(seat, session.legal_commands(seat)[0])
    receipt, seq = session.head, len(session.lines) - 1
    seat = session.acting_seats()[0]
    session.apply(seat, session.legal_commands(seat)[0])
    data = session.log_bytes()
    assert receipt_record(data, receipt) == seq
    assert receipt_record(data, receipt.upper()) == seq
    forged = data.replace(session.lines[seq], session.lines[seq].replace(b'"seat"', b'"seat" '))
    assert receipt_record(forged, receipt) is None
    assert receipt_record(data, "0" * 64) is None


@given(st.lists(st.sampled_from([b"\n", b"\r", b"{}", b"ab", b" "]), max_size=30).map(b"".join))
def test_split_lines_splits_at_newlines_alone_and_keeps_the_torn_tail(data: bytes) -> None:
    parts = data.split(b"\n")  # the definition: lines end in \n; what follows is torn
    split = split_lines(data)
    assert split.lines == tuple(parts[:-1])
    assert split.torn == (parts[-1] or None)
