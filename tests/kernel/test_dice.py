"""The dice stream nataterra-dice-v1 (docs/DICE.md)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from nataterra_core.kernel.dice import (
    DiceStream,
    check_game_id,
    odds_seed,
    seed_commitment,
    seed_from_number,
)

VECTORS = Path(__file__).resolve().parents[2] / "docs" / "dice-vectors.json"
REF_SEED = bytes(range(32))


def ref_stream(client_seed: str = "") -> DiceStream:
    return DiceStream(REF_SEED, "demo-0001", client_seed)


def test_reference_vector_literal_values() -> None:
    """docs/DICE.md's reference vector, typed in by hand: an oracle independent of our code."""
    assert seed_commitment(REF_SEED) == (
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    )
    assert ref_stream().block(0).hex() == (
        "913c47bd1af9d1b5ea698e75c066a6a0ef7b78b3722b86c0b1b97f23bf03bb96"
    )
    stream = ref_stream()
    assert [stream.next_word() for _ in range(8)] == [
        2436646845, 452579765, 3932786293, 3227952800,
        4017846451, 1915455168, 2981723939, 3204692886,
    ]  # fmt: skip
    stream = ref_stream()
    assert [stream.draw(10) for _ in range(12)] == [5, 5, 3, 0, 1, 8, 9, 6, 0, 8, 2, 4]
    stream = ref_stream()
    assert [stream.draw(6) for _ in range(12)] == [3, 5, 1, 2, 1, 0, 5, 0, 2, 0, 2, 2]
    stream = ref_stream()
    assert [stream.draw(2147483649) for _ in range(12)] == [
        452579765, 1915455168, 512792210, 272563668, 1447781661, 1244624033,
        1404589296, 1396371069, 746751002, 720570066, 230424070, 260291557,
    ]  # fmt: skip
    assert stream.counter == 23
    stream = ref_stream()
    assert stream.shuffle(list(range(10))) == [7, 6, 0, 4, 3, 1, 2, 8, 9, 5]
    assert stream.counter == 9
    stream = ref_stream("organiser")
    assert [stream.draw(10) for _ in range(10)] == [9, 2, 4, 4, 6, 4, 9, 0, 7, 5]


def test_blake2b_parameter_block_not_truncated_512() -> None:
    message = b"nataterra-dice-v1" + b"\0\0\0\x09demo-0001" + b"\0\0\0\0" + bytes(8)
    truncated = hashlib.blake2b(message, key=REF_SEED).digest()[:32]
    assert ref_stream().block(0) != truncated
    assert ref_stream().block(0) == hashlib.blake2b(message, key=REF_SEED, digest_size=32).digest()


def load_vectors() -> list[dict[str, object]]:
    data = json.loads(VECTORS.read_text())
    assert isinstance(data, list)
    return data


def test_vectors_file_covers_the_required_cases() -> None:
    vectors = load_vectors()
    assert len(vectors) >= 6
    assert {6, 7, 10, 1000003, 2147483649} <= {v["m"] for v in vectors}
    assert any(
        v["server_seed"] == REF_SEED.hex()
        and v["game_id"] == "demo-0001"
        and v["client_seed"] == ""
        for v in vectors
    )


@pytest.mark.parametrize("case", load_vectors(), ids=lambda v: f"m={v['m']}")
def test_dice_vectors(case: dict[str, object]) -> None:
    seed = bytes.fromhex(str(case["server_seed"]))
    args = (seed, str(case["game_id"]), str(case["client_seed"]))
    m = case["m"]
    assert isinstance(m, int)
    draws = DiceStream(*args)
    assert [draws.draw(m) for _ in range(12)] == case["draws"]
    words = DiceStream(*args)
    assert [words.next_word() for _ in range(16)] == case["words"]
    shuffle = case["shuffle"]
    assert isinstance(shuffle, dict)
    stream = DiceStream(*args)
    assert stream.shuffle(list(range(shuffle["n"]))) == shuffle["after"]
    assert stream.counter == shuffle["counter"]


def test_stream_resumes_at_any_counter() -> None:
    whole = ref_stream()
    words = [whole.next_word() for _ in range(40)]
    for k in (0, 7, 8, 9, 31):
        assert DiceStream(REF_SEED, "demo-0001", "", counter=k).next_word() == words[k]


def test_rejected_words_are_consumed() -> None:
    # 2147483649 = 2**31 + 1: limit is 2**31 + 1, so about half the words are rejected.
    stream = ref_stream()
    for _ in range(12):
        stream.draw(2147483649)
    assert stream.counter == 23


def test_draw_one_consumes_a_word_and_shuffle_of_one_consumes_none() -> None:
    stream = ref_stream()
    assert stream.draw(1) == 0
    assert stream.counter == 1
    assert stream.shuffle(["only"]) == ["only"]
    assert stream.shuffle([]) == []
    assert stream.counter == 1


def test_roll_uses_faces_in_pack_order() -> None:
    faces = ["-5", "-2", "-1", "0", "0", "+1", "+1", "+2", "+2", "+3"]
    assert [ref_stream().roll(faces) for _ in range(1)] == ["+1"]  # draw(10) = 5


@pytest.mark.parametrize("m", [0, -1, 2**32 + 1])
def test_draw_range_checked(m: int) -> None:
    with pytest.raises(ValueError):
        ref_stream().draw(m)


@pytest.mark.parametrize("game_id", ["", "a b", "é", "x" * 65, "semi;colon"])
def test_game_id_checked(game_id: str) -> None:
    with pytest.raises(ValueError):
        check_game_id(game_id)


def test_seed_derivations() -> None:
    seed, game_id = seed_from_number(7)
    assert seed == hashlib.sha256(b"nataterra-seed-v1" + (7).to_bytes(8, "big")).digest()
    assert game_id == "seed-7"
    expected = hashlib.sha256(
        b"nataterra-odds-v1" + (3).to_bytes(8, "big") + (11).to_bytes(8, "big")
    ).digest()
    assert odds_seed(3, 11) == expected


# Critical values of the chi-square distribution at p = 0.001 (from standard tables).
CHI2_CRITICAL_P001 = {5: 20.515, 9: 27.877}


@pytest.mark.parametrize("sides", [6, 10])
def test_chi_square_uniformity(sides: int) -> None:
    n = 1_000_000
    stream = DiceStream(hashlib.sha256(b"chi-square").digest(), "chi-square", "")
    counts = [0] * sides
    for _ in range(n):
        counts[stream.draw(sides)] += 1
    expected = n / sides
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    assert statistic < CHI2_CRITICAL_P001[sides - 1], (counts, statistic)
