"""Regenerate ``docs/dice-vectors.json`` (run from the repository root).

    python tests/kernel/make_dice_vectors.py

The file is for auditors writing a verifier in another language; ``test_dice.py`` checks
that our stream still produces it, and pins docs/DICE.md's reference vector (§9) literally.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from nataterra_core.kernel.dice import DiceStream, join_client_seeds

CASES: list[tuple[bytes, str, str, int]] = [
    (bytes(range(32)), "demo-0001", "", 10),  # docs/DICE.md reference vector
    (bytes(range(32)), "demo-0001", "", 6),
    (bytes(range(32)), "demo-0001", "organiser", 7),
    (hashlib.sha256(b"vector-3").digest(), "seed-42", "", 1000003),
    (hashlib.sha256(b"vector-4").digest(), "Cup_2026.round-3", "Zürich", 2147483649),
    (bytes(32), "a", "", 1),
    (bytes([0xFF] * 32), "x" * 64, "client seed with spaces", 4294967296),
    (hashlib.sha256(b"vector-7").digest(), "seed-7", "", 47),
]

JOINED: list[tuple[bytes, str, tuple[str, ...], dict[str, str], int]] = [
    # Client seeds from every seat (docs/DICE.md): contributions joined in header seat order.
    (
        bytes(range(32)),
        "demo-0001",
        ("velathi", "beasts"),
        {"velathi": "k3J9", "beasts": "x-1"},
        10,
    ),
    (
        hashlib.sha256(b"vector-8").digest(),
        "cup.final-1",
        ("velathi", "beasts", "humans", "naga"),
        {"naga": "N4g4", "humans": "h.0", "beasts": "B_e", "velathi": "v"},
        6,
    ),
]


def vector(server_seed: bytes, game_id: str, client_seed: str, m: int) -> dict[str, Any]:
    def fresh() -> DiceStream:
        return DiceStream(server_seed, game_id, client_seed)

    draws = fresh()
    words = fresh()
    shuffler = fresh()
    n = 10 if m < 1000 else 25
    return {
        "server_seed": server_seed.hex(),
        "game_id": game_id,
        "client_seed": client_seed,
        "m": m,
        "draws": [draws.draw(m) for _ in range(12)],
        "words": [words.next_word() for _ in range(16)],
        "shuffle": {"n": n, "after": shuffler.shuffle(list(range(n))), "counter": shuffler.counter},
    }


def main() -> None:
    out = Path("docs/dice-vectors.json")
    vectors = [vector(*case) for case in CASES]
    for server_seed, game_id, seats, contributions, m in JOINED:
        joined = join_client_seeds(seats, contributions)
        vectors.append(
            {
                "seats": list(seats),
                "contributions": contributions,
                **vector(server_seed, game_id, joined, m),
            }
        )
    out.write_text(json.dumps(vectors, indent=1) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
