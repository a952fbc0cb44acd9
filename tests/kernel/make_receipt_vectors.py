"""Regenerate ``docs/receipt-vectors.json`` (run from the repository root).

    python tests/kernel/make_receipt_vectors.py

A small Kaladan game (hidden hands, shuffled decks) served with receipts: every seat's and
the spectator's view lines, heads and signed receipts, from fixed test keys
(docs/RECEIPTS.md). ``test_receipt_vectors.py`` recomputes the file with the standard library and
``cryptography`` alone; ``test_receipts.py`` checks that the library still produces it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from nataterra_core.game import new_game
from nataterra_core.kernel import RandomPlayer
from nataterra_core.kernel.receipts import SPECTATOR, KeyPair, view_heads, view_lines

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "receipt-vectors.json"

GAME_KEY = bytes(range(32))
"""The game's receipt key: a fixed test key, never one a server draws."""
SERVER_KEY = hashlib.sha256(b"nataterra receipt vectors: server key").digest()
COMMANDS = 4
"""Random commands before the game is closed (abandoned): a few records of each kind."""


def vectors() -> dict[str, Any]:
    """The vectors file's content."""
    game_key, server_key = KeyPair(GAME_KEY), KeyPair(SERVER_KEY)
    session = new_game(2, game="kaladan", seed=11, receipt_key=game_key.public)
    player = RandomPlayer(11)
    for _ in range(COMMANDS):
        seat = session.acting_seats()[0]
        session.apply(seat, player.choose(None, session.legal_commands(seat)))
    session.close()
    game_id = session.header.game_id
    viewers: dict[str, Any] = {}
    for seat in (*session.header.seats, SPECTATOR):
        lines = view_lines(session.lines, seat, session.decider)
        heads = view_heads(game_id, seat, lines)
        receipts = [game_key.receipt(game_id, seat, seq, head) for seq, head in enumerate(heads)]
        viewers[seat] = {
            "lines": [line.decode() for line in lines],
            "heads": heads,
            "signatures": [receipt.signature for receipt in receipts],
        }
    return {
        "about": (
            "docs/RECEIPTS.md: view lines, view-chain heads and Ed25519 receipts of one "
            "small Kaladan game; seat '' is the spectator. Test keys only."
        ),
        "game_key_secret": GAME_KEY.hex(),
        "server_key_secret": SERVER_KEY.hex(),
        "game_id": game_id,
        "receipt_key": game_key.public,
        "server_key": server_key.public,
        "receipt_key_signature": server_key.certify(game_id, game_key.public),
        "log": session.log_bytes().decode(),
        "viewers": viewers,
    }


def render() -> str:
    """The file's text."""
    return json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    VECTORS.write_text(render(), encoding="utf-8")
    print(f"wrote {VECTORS}")
