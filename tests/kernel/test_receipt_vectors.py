"""``docs/receipt-vectors.json`` checked as an auditor without our library would
(docs/RECEIPTS.md): the standard library and ``cryptography`` only, no ``nataterra_core`` import.

Every view line must be canonical JSON (sorted keys, compact, UTF-8) and a cut of its log
record (``prev`` dropped; each command and event whole, only its type, or with declared
fields removed and named in ``redacted``); every head must follow from the lines by the
view-chain formula; every signature must verify under the game's key, and the game's key
under the server's.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "receipt-vectors.json"


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS.read_text(encoding="utf-8"))
    return data


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def public_of(secret_hex: str) -> str:
    key = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(secret_hex))
    return key.public_key().public_bytes_raw().hex()


def signed(public_hex: str, signature_hex: str, message: bytes) -> bool:
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
    try:
        key.verify(bytes.fromhex(signature_hex), message)
    except InvalidSignature:
        return False
    return True


def is_cut_of(seen: Any, whole: Any) -> bool:
    """Whether ``seen`` is ``whole`` or one of the declared cut forms of it."""
    if seen == whole:
        return True
    if not isinstance(seen, dict) or not isinstance(whole, dict):
        return False
    if seen == {"type": whole.get("type"), "redacted": True}:
        return True
    cut = seen.get("redacted")
    if not isinstance(cut, list) or cut != sorted(cut) or not set(cut) <= set(whole):
        return False
    rest = {k: v for k, v in whole.items() if k not in cut}
    kept = {k: v for k, v in seen.items() if k not in ("redacted", "size")}
    sized = any(isinstance(whole[f], list) and len(whole[f]) == seen.get("size") for f in cut)
    if "size" in seen and "size" not in whole and not sized:  # a hidden order keeps its length
        return False
    return kept == rest


@pytest.mark.parametrize("viewer", list(load()["viewers"]))
def test_every_line_is_a_canonical_cut_of_its_record(viewer: str) -> None:
    data = load()
    records = [json.loads(line) for line in data["log"].splitlines()]
    lines = data["viewers"][viewer]["lines"]
    assert len(lines) == len(records)
    for line, record in zip(lines, records, strict=True):
        seen = json.loads(line)
        assert canonical(seen) == line.encode()
        whole = {k: v for k, v in record.items() if k != "prev"}
        assert set(seen) == set(whole)
        for field, value in whole.items():
            if field == "events":
                assert len(seen["events"]) == len(value)
                assert all(map(is_cut_of, seen["events"], value))
            elif field == "command":
                assert is_cut_of(seen["command"], value)
            else:
                assert seen[field] == value


def test_each_seat_sees_its_own_draws_only() -> None:
    """The start record deals hidden hands: each seat's line of it, and the spectator's,
    differ (so the vectors exercise the cut forms, not only whole records)."""
    viewers = load()["viewers"]
    starts = {seat: seen["lines"][1] for seat, seen in viewers.items()}
    assert len(set(starts.values())) == len(starts) == 3


@pytest.mark.parametrize("viewer", list(load()["viewers"]))
def test_heads_follow_from_the_lines_by_the_chain_formula(viewer: str) -> None:
    data = load()
    game_id = data["game_id"]
    value = hashlib.sha256(f"nataterra-view-chain-v1\n{game_id}\n{viewer}".encode()).digest()
    heads = []
    for line in data["viewers"][viewer]["lines"]:
        value = hashlib.sha256(value + hashlib.sha256(line.encode()).digest()).digest()
        heads.append(value.hex())
    assert heads == data["viewers"][viewer]["heads"]


@pytest.mark.parametrize("viewer", list(load()["viewers"]))
def test_every_receipt_verifies_under_the_game_key(viewer: str) -> None:
    data = load()
    game_id, key = data["game_id"], data["receipt_key"]
    assert public_of(data["game_key_secret"]) == key
    assert f'"receipt_key":"{key}"' in data["log"].splitlines()[0]
    seen = data["viewers"][viewer]
    for seq, (head, signature) in enumerate(zip(seen["heads"], seen["signatures"], strict=True)):
        message = f"nataterra-receipt-v1\n{game_id}\n{viewer}\n{seq}\n{head}".encode()
        assert signed(key, signature, message)
        other = f"nataterra-receipt-v1\n{game_id}\n{viewer}x\n{seq}\n{head}".encode()
        assert not signed(key, signature, other)


def test_the_server_certifies_the_game_key() -> None:
    data = load()
    assert public_of(data["server_key_secret"]) == data["server_key"]
    message = f"nataterra-game-key-v1\n{data['game_id']}\n{data['receipt_key']}".encode()
    assert signed(data["server_key"], data["receipt_key_signature"], message)
    assert not signed(data["receipt_key"], data["receipt_key_signature"], message)
