"""Verification never raises, whatever the log (issue 14 item 1): every forged header,
reordering, truncation, re-encoding or byte change gets a verdict naming a record."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nataterra_core.game import verify_log

GOLDEN = Path(__file__).resolve().parent / "golden" / "game-seed-11.jsonl"
LOG = GOLDEN.read_bytes()
LINES = LOG.split(b"\n")[:-1]
HEAD = hashlib.sha256(LINES[-1]).hexdigest()


def rechained(lines: list[bytes]) -> bytes:
    """The lines with ``seq`` and ``prev`` recomputed, as a forger who fixes the chain would."""
    out: list[bytes] = []
    prev = "0" * 64
    for seq, line in enumerate(lines):
        record = json.loads(line)
        record["seq"], record["prev"] = seq, prev
        encoded = json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode()
        out.append(encoded)
        prev = hashlib.sha256(encoded).hexdigest()
    return b"".join(line + b"\n" for line in out)


def with_header(**changes: Any) -> bytes:
    header = json.loads(LINES[0])
    header.update(changes)
    return rechained([json.dumps(header).encode(), *LINES[1:]])


@pytest.mark.parametrize(
    "options",
    [
        {"max_turns": -1},
        {"no_such_option": 1},
        {"map": "no-such-map"},
        {"mode": "advanced", "map": "learning"},
        {"mode": 7},
        {"teams": ["velathi+nobody"]},
    ],
)
def test_a_header_whose_options_the_rules_refuse_is_a_header_failure(options: Any) -> None:
    verdict = verify_log(with_header(options=options))
    assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "header", 0)
    assert not verdict


@pytest.mark.parametrize("seats", [["velathi", "velathi"], ["velathi", "nobody"], ["velathi"], []])
def test_a_header_whose_seats_the_rules_refuse_is_a_header_failure(seats: list[str]) -> None:
    verdict = verify_log(with_header(seats=seats))
    assert (verdict.failure, verdict.seq) == ("header", 0), verdict.reason


@pytest.mark.parametrize("value", [2**53, -(2**53), 2**64, 1.5])
def test_integers_outside_the_documented_range_fail_to_read(value: Any) -> None:
    verdict = verify_log(with_header(options={"max_turns": value}))
    assert (verdict.failure, verdict.seq) == ("read", 0), verdict.reason


def test_a_whole_file_converted_to_crlf_is_diagnosed_as_such() -> None:
    verdict = verify_log(LOG.replace(b"\n", b"\r\n"))
    assert (verdict.failure, verdict.seq) == ("read", 0)
    assert "CRLF" in verdict.reason


def test_an_end_record_without_a_reveal_fails_as_replay() -> None:
    verdict = verify_log(rechained([*LINES[:-2], LINES[-1]]))
    assert (verdict.status, verdict.failure) == ("invalid", "replay")
    assert verdict.seq == len(LINES) - 2
    assert "reveal" in verdict.reason


def test_an_edited_last_line_of_a_log_in_progress_fails() -> None:
    in_progress = LINES[:30]
    assert verify_log(b"".join(line + b"\n" for line in in_progress)).status == "incomplete"
    edited = [*in_progress[:-1], in_progress[-1].replace(b'","', b'", "', 1)]
    verdict = verify_log(b"".join(line + b"\n" for line in edited))
    assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "read", 29)


def test_a_verdict_is_truthy_exactly_when_the_log_is_valid() -> None:
    assert verify_log(LOG)
    assert not verify_log(b"garbage\n")
    assert not verify_log(b"".join(line + b"\n" for line in LINES[:10]))  # incomplete


def test_two_commuting_commands_swapped_and_rechained_are_caught_only_by_the_head() -> None:
    """Records 49 and 50 are two moves of separate Velathi stacks: swapped, with the chain
    recomputed, they are another legal game with the same dice and the same end, so the
    log verifies; the published head of the original names the alteration."""
    lines = list(LINES)
    lines[49], lines[50] = lines[50], lines[49]
    forged = rechained(lines)
    assert forged != LOG and verify_log(forged).valid
    verdict = verify_log(forged, expect_head=HEAD)
    assert (verdict.status, verdict.failure) == ("invalid", "head")


@settings(max_examples=150)
@given(st.data())
def test_verification_returns_a_verdict_for_every_forgery(data: st.DataObject) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    kind = data.draw(st.sampled_from(["flip", "reorder", "truncate", "reencode", "header"]))
    lines = list(LINES)
    if kind == "flip":
        raw = bytearray(LOG)
        raw[rng.randrange(len(raw))] = rng.randrange(256)
        forged = bytes(raw)
    elif kind == "reorder":
        i, j = rng.sample(range(len(lines)), 2)
        lines[i], lines[j] = lines[j], lines[i]
        rechain = rng.random() < 0.5
        forged = rechained(lines) if rechain else b"".join(x + b"\n" for x in lines)
    elif kind == "truncate":
        forged = LOG[: rng.randrange(len(LOG))]
    elif kind == "reencode":
        forged = rechained(lines)  # json.dumps: the same values, other bytes
    else:
        header = json.loads(lines[0])
        key = rng.choice(sorted(header))
        header[key] = rng.choice([None, -1, 2**60, "x", [], {}, True, 1.5])
        forged = rechained([json.dumps(header).encode(), *lines[1:]])
    verdict = verify_log(forged)
    assert verdict.status in ("valid", "incomplete", "invalid")
    if verdict.status == "invalid":
        assert verdict.failure is not None and verdict.seq is not None and verdict.reason
    if forged != LOG and kind in ("flip", "reorder", "truncate"):
        # (A header forged with the chain recomputed can be a consistent other game, say
        # one without a turn limit that ended early; only a published head catches that.)
        if kind == "reorder" and rechain and verdict.valid:
            # So can two commands of one seat that commute (moves of two separate stacks),
            # swapped with the chain recomputed: the same dice, another legal game.
            swapped = [json.loads(lines[i]), json.loads(lines[j])]
            assert [r["kind"] for r in swapped] == ["command", "command"]
            assert swapped[0]["seat"] == swapped[1]["seat"]
            assert not verify_log(forged, expect_head=HEAD)
        else:
            assert verdict.status != "valid"
