"""An independent mini-auditor written from docs/DICE.md and docs/LOG_FORMAT.md alone.

It uses only the standard library (no import of ``nataterra_core``): if these tests pass,
the documents are enough to re-check a log's chain, seed commitment and every dice event,
and to reproduce docs/dice-vectors.json, in any language.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "pig-small.jsonl"
VECTORS = ROOT / "docs" / "dice-vectors.json"
DICE_DOC = ROOT / "docs" / "DICE.md"

HEX = frozenset("0123456789abcdef")
GAME_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
KINDS = frozenset({"header", "start", "command", "undo", "reveal", "end"})
INT_LIMIT = 2**53


# --- dice (DICE.md §2-§5) ------------------------------------------------------------------


def lp(text: str) -> bytes:
    raw = text.encode("utf-8")
    return struct.pack(">I", len(raw)) + raw


def block_message(game_id: str, client_seed: str, b: int) -> bytes:
    return b"nataterra-dice-v1" + lp(game_id) + lp(client_seed) + struct.pack(">Q", b)


class Dice:
    """The word stream of DICE.md, positioned at ``counter``."""

    def __init__(self, seed: bytes, game_id: str, client_seed: str, counter: int = 0) -> None:
        assert len(seed) == 32
        self.seed = seed
        self.game_id = game_id
        self.client_seed = client_seed
        self.counter = counter

    def block(self, b: int) -> bytes:
        message = block_message(self.game_id, self.client_seed, b)
        return hashlib.blake2b(message, key=self.seed, digest_size=32).digest()

    def word(self, k: int) -> int:
        block = self.block(k // 8)
        value: int = struct.unpack_from(">I", block, 4 * (k % 8))[0]
        return value

    def draw(self, m: int) -> int:
        assert 1 <= m <= 2**32
        limit = (2**32 // m) * m
        while True:
            w = self.word(self.counter)
            self.counter += 1
            if w < limit:
                return w % m

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.draw(i + 1)
            result[i], result[j] = result[j], result[i]
        return result


# --- the auditor (LOG_FORMAT.md §1-§5, DICE.md §6) -------------------------------------------


class AuditFailure(Exception):
    def __init__(self, failure: str, seq: int, reason: str) -> None:
        super().__init__(f"{failure} at record {seq}: {reason}")
        self.failure = failure
        self.seq = seq


def is_hex64(value: object) -> bool:
    return isinstance(value, str) and len(value) == 64 and set(value) <= HEX


def no_float(text: str) -> Any:
    raise ValueError(f"float {text} in a record")


def check_numbers(value: object) -> None:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if not -INT_LIMIT < value < INT_LIMIT:
            raise ValueError(f"integer {value} out of range")
    elif isinstance(value, list):
        for item in value:
            check_numbers(item)
    elif isinstance(value, dict):
        for item in value.values():
            check_numbers(item)
    else:
        raise ValueError(f"unexpected JSON value {value!r}")


def read(data: bytes) -> tuple[list[bytes], list[dict[str, Any]]]:
    """Step 1 (without the rule system's schemas)."""
    parts = data.split(b"\n")
    lines = parts[:-1]
    if parts[-1]:
        raise AuditFailure("torn", len(lines), f"{len(parts[-1])} bytes after the last newline")
    if not lines:
        raise AuditFailure("read", 0, "the log is empty")
    records: list[dict[str, Any]] = []
    for seq, line in enumerate(lines):
        try:
            record = json.loads(line.decode("utf-8"), parse_float=no_float, parse_constant=no_float)
            if not isinstance(record, dict):
                raise ValueError("not an object")
            check_numbers(record)
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError included
            raise AuditFailure("read", seq, str(exc)) from exc
        if record.get("seq") != seq or not is_hex64(record.get("prev")):
            raise AuditFailure("read", seq, "seq must equal the line index, prev be hex64")
        if record.get("kind") not in KINDS or (record["kind"] == "header") != (seq == 0):
            raise AuditFailure("read", seq, f"unexpected kind {record.get('kind')!r}")
        records.append(record)
    header = records[0]
    game_id = header.get("game_id")
    if (
        header["prev"] != "0" * 64
        or not isinstance(game_id, str)
        or not 1 <= len(game_id) <= 64
        or not set(game_id) <= GAME_ID_CHARS
        or not is_hex64(header.get("seed_commitment"))
        or not isinstance(header.get("client_seed"), str)
    ):
        raise AuditFailure("read", 0, "bad header")
    # Version 2 (LOG_FORMAT.md §3) adds the game's receipt key, and only that.
    version = 2 if "receipt_key" in header else 1
    expected = ("nataterra-log", version, "nataterra-dice-v1", "sha256")
    found = tuple(header.get(k) for k in ("format", "format_version", "dice", "hash"))
    if found != expected or (version == 2 and not is_hex64(header["receipt_key"])):
        raise AuditFailure("version", 0, f"unsupported {found}")
    return lines, records


def check_chain(lines: Sequence[bytes], expect_head: str | None = None) -> None:
    """Step 2, with the s / s + 1 naming rule and the head as the last witness."""
    prevs = [str(json.loads(line)["prev"]) for line in lines[1:]]
    if expect_head is not None:
        prevs.append(expect_head.lower())
    hashes = [hashlib.sha256(line).hexdigest() for line in lines]
    broken = [s for s, prev in enumerate(prevs) if prev != hashes[s]]
    if not broken:
        return
    s = broken[0]
    altered = s + 1 if s + 1 in broken else s
    failure = "head" if altered + 1 == len(lines) else "chain"
    raise AuditFailure(failure, altered, "prev chain broken")


def check_random_event(dice: Dice, event: dict[str, Any], expected_counter: int) -> int | None:
    """Recompute one event if it records randomness; return its counter_after (else None)."""
    if "counter_before" not in event or "counter_after" not in event:
        return None
    if event["counter_before"] != expected_counter:
        raise ValueError(f"counter_before {event['counter_before']} != {expected_counter}")
    dice.counter = event["counter_before"]
    if {"m", "value"} <= event.keys():
        value = dice.draw(event["m"])
        if value != event["value"]:
            raise ValueError(f"value {event['value']}, recomputed {value}")
    elif {"ms", "values"} <= event.keys():
        values = [dice.draw(m) for m in event["ms"]]
        if values != event["values"]:
            raise ValueError(f"values {event['values']}, recomputed {values}")
    elif {"before", "after"} <= event.keys():
        after = dice.shuffle(event["before"])
        if after != event["after"]:
            raise ValueError(f"shuffle after {event['after']}, recomputed {after}")
    else:
        raise ValueError("a random event without m/value, ms/values or before/after")
    if dice.counter != event["counter_after"]:
        raise ValueError(f"counter_after {event['counter_after']}, recomputed {dice.counter}")
    counter_after: int = event["counter_after"]
    return counter_after


def audit(data: bytes, expect_head: str | None = None) -> dict[str, Any]:
    """Steps 1-3 and every random event; raises :class:`AuditFailure`."""
    lines, records = read(data)
    check_chain(lines, expect_head)
    header = records[0]
    head = hashlib.sha256(lines[-1]).hexdigest()
    reveal = next((r for r in records if r["kind"] == "reveal"), None)
    if reveal is None:
        return {"status": "incomplete", "records": len(lines), "head": head}
    if not is_hex64(reveal.get("server_seed")):
        raise AuditFailure("read", reveal["seq"], "server_seed must be hex64")
    seed = bytes.fromhex(reveal["server_seed"])
    if hashlib.sha256(seed).hexdigest() != header["seed_commitment"]:
        raise AuditFailure("seed", reveal["seq"], "seed does not match seed_commitment")
    dice = Dice(seed, header["game_id"], header["client_seed"])
    counter = 0
    random_events = 0
    for record in records:
        for event in record.get("events", []):
            try:
                after = check_random_event(dice, event, counter)
            except (ValueError, TypeError, KeyError) as exc:
                raise AuditFailure("dice", record["seq"], str(exc)) from exc
            if after is not None:
                counter = after
                random_events += 1
    if records[-1]["kind"] != "end":  # cut after its reveal: every die checked, no end
        return {"status": "incomplete", "records": len(lines), "head": head}
    return {
        "status": "valid",
        "records": len(lines),
        "head": head,
        "random_events": random_events,
        "counter": counter,
    }


# --- helpers -------------------------------------------------------------------------------


def golden_lines() -> list[bytes]:
    return GOLDEN.read_bytes().split(b"\n")[:-1]


def joined(lines: Sequence[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def dump(record: dict[str, Any]) -> bytes:
    return json.dumps(record, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def rechained(lines: Sequence[bytes]) -> bytes:
    """Recompute every prev after an edit: what a forger without the published head does."""
    out: list[bytes] = []
    for line in lines:
        record = json.loads(line)
        if out:
            record["prev"] = hashlib.sha256(out[-1]).hexdigest()
        out.append(dump(record))
    return joined(out)


def first_die_record(lines: Sequence[bytes]) -> tuple[int, dict[str, Any]]:
    for seq, line in enumerate(lines):
        record: dict[str, Any] = json.loads(line)
        if any(e["type"] == "die_rolled.v1" for e in record.get("events", [])):
            return seq, record
    raise AssertionError("no die event in the golden log")


def with_die_value_changed(lines: Sequence[bytes]) -> tuple[int, list[bytes]]:
    seq, record = first_die_record(lines)
    event = next(e for e in record["events"] if e["type"] == "die_rolled.v1")
    event["value"] = (event["value"] + 1) % event["m"]
    changed = list(lines)
    changed[seq] = dump(record)
    return seq, changed


def load_vectors() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))
    return data


# --- tests ---------------------------------------------------------------------------------


def test_rechained_helper_reproduces_the_golden_bytes() -> None:
    assert rechained(golden_lines()) == GOLDEN.read_bytes()


def test_golden_log_passes_the_independent_audit() -> None:
    data = GOLDEN.read_bytes()
    report = audit(data)
    assert report["status"] == "valid"
    assert report["records"] == 14
    assert report["random_events"] == 5  # the first player and four d6 rolls
    assert report["counter"] == 5
    assert audit(data, expect_head=report["head"])["status"] == "valid"


def test_golden_first_player_is_the_drawn_seat() -> None:
    lines = golden_lines()
    header, start = json.loads(lines[0]), json.loads(lines[1])
    event = start["events"][0]
    assert event["m"] == len(header["seats"])
    assert event["seat"] == header["seats"][event["value"]]


def test_golden_faces_are_value_plus_one() -> None:
    """The test game's d6 has faces 1..6 in order: face = faces[value]."""
    for line in golden_lines():
        for event in json.loads(line).get("events", []):
            if event["type"] == "die_rolled.v1":
                assert event["face"] == [1, 2, 3, 4, 5, 6][event["value"]]


def test_tampered_die_value_is_caught() -> None:
    lines = golden_lines()
    seq, changed = with_die_value_changed(lines)
    # As is, the chain names the altered record ...
    with pytest.raises(AuditFailure) as info:
        audit(joined(changed))
    assert (info.value.failure, info.value.seq) == ("chain", seq)
    # ... and with every prev recomputed, the dice recomputation does.
    with pytest.raises(AuditFailure) as info:
        audit(rechained(changed))
    assert (info.value.failure, info.value.seq) == ("dice", seq)


def test_tampered_counter_is_caught() -> None:
    lines = golden_lines()
    seq, record = first_die_record(lines)
    event = next(e for e in record["events"] if e["type"] == "die_rolled.v1")
    event["counter_after"] += 1
    changed = list(lines)
    changed[seq] = dump(record)
    with pytest.raises(AuditFailure) as info:
        audit(rechained(changed))
    assert (info.value.failure, info.value.seq) == ("dice", seq)


def test_chain_names_the_altered_record() -> None:
    lines = golden_lines()
    last = len(lines) - 1
    body = list(lines)
    body[5] = body[5].replace(b'"multiplier":3', b'"multiplier":2', 1)
    with pytest.raises(AuditFailure) as info:
        audit(joined(body))
    assert (info.value.failure, info.value.seq) == ("chain", 5)

    def prev_changed(seq: int) -> list[bytes]:
        changed = list(lines)
        at = changed[seq].index(b'"prev":"') + len(b'"prev":"')
        digit = b"1" if changed[seq][at : at + 1] == b"0" else b"0"
        changed[seq] = changed[seq][:at] + digit + changed[seq][at + 1 :]
        return changed

    with pytest.raises(AuditFailure) as info:  # one alteration explains two mismatches
        audit(joined(prev_changed(6)))
    assert (info.value.failure, info.value.seq) == ("chain", 6)
    with pytest.raises(AuditFailure) as info:  # the last line's prev: inherently ambiguous
        audit(joined(prev_changed(last)))
    assert (info.value.failure, info.value.seq) == ("chain", last - 1)
    head = hashlib.sha256(lines[-1]).hexdigest()
    with pytest.raises(AuditFailure) as info:  # the published head is the last witness
        audit(joined(prev_changed(last)), expect_head=head)
    assert (info.value.failure, info.value.seq) == ("head", last)


def test_torn_seed_and_incomplete() -> None:
    data = GOLDEN.read_bytes()
    lines = golden_lines()
    with pytest.raises(AuditFailure) as info:
        audit(data[:-10])
    assert (info.value.failure, info.value.seq) == ("torn", len(lines) - 1)
    reveal = json.loads(lines[-2])
    reveal["server_seed"] = "ab" * 32
    forged = [*lines[:-2], dump(reveal), lines[-1]]
    with pytest.raises(AuditFailure) as info:
        audit(rechained(forged))
    assert (info.value.failure, info.value.seq) == ("seed", len(lines) - 2)
    assert audit(joined(lines[:-2]))["status"] == "incomplete"
    assert audit(joined(lines[:-1]))["status"] == "incomplete"  # the end record cut off


def test_shuffle_event_is_recomputed() -> None:
    """A shuffle event as DICE.md §6 describes it, from the reference vector."""
    seed = bytes(range(32))
    event: dict[str, Any] = {
        "type": "deck_shuffled.v1",
        "deck": "test",
        "before": list(range(10)),
        "after": [7, 6, 0, 4, 3, 1, 2, 8, 9, 5],
        "counter_before": 0,
        "counter_after": 9,
    }
    assert check_random_event(Dice(seed, "demo-0001", ""), event, 0) == 9
    event["after"] = [6, 7, 0, 4, 3, 1, 2, 8, 9, 5]
    with pytest.raises(ValueError):
        check_random_event(Dice(seed, "demo-0001", ""), event, 0)


def test_several_draws_event_is_recomputed() -> None:
    """An event of several draws as DICE.md §6 describes it, from the reference vector."""
    seed = bytes(range(32))
    event: dict[str, Any] = {
        "type": "tiles_drawn.v1",
        "ms": [10, 10, 6],
        "values": [5, 5, 1],  # draw(10) twice from counter 0, then draw(6): word 2 mod 6
        "counter_before": 0,
        "counter_after": 3,
    }
    assert check_random_event(Dice(seed, "demo-0001", ""), event, 0) == 3
    event["values"] = [5, 5, 0]
    with pytest.raises(ValueError):
        check_random_event(Dice(seed, "demo-0001", ""), event, 0)


@pytest.mark.parametrize("path", sorted(GOLDEN.parent.glob("game-*.jsonl")), ids=lambda p: p.stem)
def test_nataterra_golden_logs_pass_the_independent_audit(path: Path) -> None:
    """Every random event of a real game, the several-draws ones included, rechecks."""
    report = audit(path.read_bytes())
    assert report["status"] == "valid"
    assert report["random_events"] > 0 and report["counter"] > 0


def test_the_receipt_vectors_log_passes_the_independent_audit() -> None:
    """A format_version 2 log (with ``receipt_key``) audits like a version 1 log."""
    log = json.loads((ROOT / "docs" / "receipt-vectors.json").read_text(encoding="utf-8"))["log"]
    assert audit(log.encode())["status"] == "valid"


def test_reference_vector_as_documented() -> None:
    seed = bytes(range(32))
    message = block_message("demo-0001", "", 0)
    block = Dice(seed, "demo-0001", "").block(0)
    doc = DICE_DOC.read_text(encoding="utf-8")
    assert message.hex() in doc
    assert block.hex() in doc
    assert hashlib.sha256(seed).hexdigest() in doc
    assert block.hex() == "913c47bd1af9d1b5ea698e75c066a6a0ef7b78b3722b86c0b1b97f23bf03bb96"
    assert hashlib.blake2b(message, key=seed).digest()[:32] != block  # not truncated -512
    fresh = Dice(seed, "demo-0001", "")
    assert [fresh.draw(10) for _ in range(12)] == [5, 5, 3, 0, 1, 8, 9, 6, 0, 8, 2, 4]
    fresh = Dice(seed, "demo-0001", "")
    assert [fresh.draw(2147483649) for _ in range(12)][:2] == [452579765, 1915455168]
    assert fresh.counter == 23
    fresh = Dice(seed, "demo-0001", "organiser")
    assert [fresh.draw(10) for _ in range(10)] == [9, 2, 4, 4, 6, 4, 9, 0, 7, 5]


def test_seed_derivations_as_documented() -> None:
    seed_42 = hashlib.sha256(b"nataterra-seed-v1" + struct.pack(">Q", 42)).hexdigest()
    odds_42_0 = hashlib.sha256(b"nataterra-odds-v1" + struct.pack(">QQ", 42, 0)).hexdigest()
    doc = DICE_DOC.read_text(encoding="utf-8")
    assert seed_42 in doc
    assert odds_42_0 in doc


@pytest.mark.parametrize("case", load_vectors(), ids=lambda v: f"m={v['m']}")
def test_dice_vectors(case: dict[str, Any]) -> None:
    args = (bytes.fromhex(case["server_seed"]), case["game_id"], case["client_seed"])
    draws = Dice(*args)
    assert [draws.draw(case["m"]) for _ in range(12)] == case["draws"]
    words = Dice(*args)
    assert [words.word(k) for k in range(16)] == case["words"]
    shuffler = Dice(*args)
    assert shuffler.shuffle(list(range(case["shuffle"]["n"]))) == case["shuffle"]["after"]
    assert shuffler.counter == case["shuffle"]["counter"]


def joined_client_seed(seats: Sequence[str], contributions: dict[str, str]) -> str:
    """DICE.md §6a: every seat's contribution, in header seat order, ``seat:contribution``
    joined by ``;``; each contribution is ASCII ``[A-Za-z0-9._-]{1,64}``."""
    for seat in seats:
        text = contributions[seat]
        assert 1 <= len(text) <= 64 and set(text) <= GAME_ID_CHARS
    return ";".join(f"{seat}:{contributions[seat]}" for seat in seats)


def test_joined_client_seed_vectors_as_documented() -> None:
    joined = [case for case in load_vectors() if "contributions" in case]
    assert len(joined) >= 2
    for case in joined:
        assert joined_client_seed(case["seats"], case["contributions"]) == case["client_seed"]
    doc = DICE_DOC.read_text(encoding="utf-8")
    assert "velathi:k3J9;beasts:x-1" in doc
