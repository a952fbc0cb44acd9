"""A client's side of receipts (docs/RECEIPTS.md), written from ``docs/LOG_FORMAT.md`` §7 with
the standard library and ``cryptography`` only: no ``nataterra_core`` import, so the server
is not checked with its own code.

A :class:`Holder` is one seat (or the spectator, seat ``""``): it keeps the lines it was
shown, exactly as received, recomputes its view chain, and checks every receipt on arrival.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def signed(public_hex: str, signature_hex: str, message: bytes) -> bool:
    """Whether ``signature_hex`` is ``public_hex``'s Ed25519 signature of ``message``."""
    key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
    try:
        key.verify(bytes.fromhex(signature_hex), message)
    except InvalidSignature:
        return False
    return True


def check_game_key(server_key: str, game_id: str, receipt_key: str, certificate: str) -> None:
    """The server with identity ``server_key`` issued the game's ``receipt_key``."""
    message = f"nataterra-game-key-v1\n{game_id}\n{receipt_key}".encode()
    assert signed(server_key, certificate, message), "the game's key is not certified"


class Holder:
    """One viewer's lines, chain and receipts."""

    def __init__(self, game_id: str, seat: str, receipt_key: str) -> None:
        self.game_id = game_id
        self.seat = seat
        self.receipt_key = receipt_key
        self.lines: list[str] = []
        self.heads: list[str] = []
        self.receipts: list[dict[str, Any]] = []
        start = f"nataterra-view-chain-v1\n{game_id}\n{seat}".encode()
        self._value = hashlib.sha256(start).digest()

    def take(self, lines: list[str]) -> None:
        """Lines received (each a record's canonical view: hashed as received)."""
        for line in lines:
            parsed = json.loads(line)
            canonical = json.dumps(
                parsed, sort_keys=True, separators=(",", ":"), ensure_ascii=False
            )
            assert canonical == line, f"line {len(self.lines)} is not canonical JSON"
            digest = hashlib.sha256(line.encode()).digest()
            self._value = hashlib.sha256(self._value + digest).digest()
            self.lines.append(line)
            self.heads.append(self._value.hex())

    def check(self, receipt: dict[str, Any]) -> None:
        """A receipt just received: for this viewer, at a record it holds, with the head its
        own lines give, signed by the game's key."""
        assert receipt["seat"] == self.seat, receipt
        seq, head = receipt["seq"], receipt["head"]
        assert 0 <= seq < len(self.lines), (seq, len(self.lines))
        assert head == self.heads[seq], f"record {seq}: the head is not what my lines give"
        message = f"nataterra-receipt-v1\n{self.game_id}\n{self.seat}\n{seq}\n{head}".encode()
        assert signed(self.receipt_key, receipt["signature"], message), "bad signature"
        self.receipts.append(receipt)

    def texts(self) -> list[str]:
        """Every receipt held, as ``nataterra verify --receipt`` reads them."""
        return [f"{r['seat']}:{r['seq']}:{r['head']}:{r['signature']}" for r in self.receipts]
