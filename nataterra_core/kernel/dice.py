"""The seeded, auditable random stream ``nataterra-dice-v1`` (docs/DICE.md, binding).

Anyone holding the revealed ``server_seed`` can recompute every draw of a game::

    >>> stream = DiceStream(bytes(range(32)), "demo-0001", "")
    >>> [stream.draw(10) for _ in range(6)]
    [5, 5, 3, 0, 1, 8]
    >>> stream.counter
    6

The game state keeps only :attr:`DiceStream.counter` (words consumed so far), never the
seed; the session rebuilds a stream at that counter for each command.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

__all__ = [
    "CONTRIBUTION_PATTERN",
    "DICE_FORMAT",
    "GAME_ID_PATTERN",
    "DiceStream",
    "check_contribution",
    "check_game_id",
    "join_client_seeds",
    "odds_seed",
    "seed_commitment",
    "seed_from_number",
]

DICE_FORMAT = "nataterra-dice-v1"
GAME_ID_PATTERN = r"\A[A-Za-z0-9._-]{1,64}\Z"
_GAME_ID = re.compile(GAME_ID_PATTERN)
_DOMAIN = b"nataterra-dice-v1"
_WORDS_PER_BLOCK = 8
_MAX_M = 1 << 32

T = TypeVar("T")


def _length_prefixed(text: str) -> bytes:
    raw = text.encode("utf-8")
    return struct.pack(">I", len(raw)) + raw


def check_game_id(game_id: str) -> None:
    """Raise ``ValueError`` unless ``game_id`` is ASCII ``[A-Za-z0-9._-]{1,64}``."""
    if not _GAME_ID.fullmatch(game_id):
        raise ValueError(f"game_id must match {GAME_ID_PATTERN}, got {game_id!r}")


CONTRIBUTION_PATTERN = GAME_ID_PATTERN
"""A seat's client-seed contribution: ASCII ``[A-Za-z0-9._-]{1,64}`` (docs/DICE.md)."""


def check_contribution(contribution: str) -> None:
    """Raise ``ValueError`` unless a seat's contribution is ASCII ``[A-Za-z0-9._-]{1,64}``."""
    if not _GAME_ID.fullmatch(contribution):
        raise ValueError(
            f"a client-seed contribution must match {CONTRIBUTION_PATTERN}, got {contribution!r}"
        )


def join_client_seeds(seats: Sequence[str], contributions: Mapping[str, str]) -> str:
    """The header's ``client_seed`` when every seat contributed (docs/DICE.md, binding).

    The contributions in header seat order, each as ``seat:contribution``, joined by ``;``::

        >>> join_client_seeds(("ann", "bob"), {"bob": "x-1", "ann": "k3J9"})
        'ann:k3J9;bob:x-1'

    Every seat must have sent exactly one valid contribution; the dice stream is unchanged.
    """
    missing = [seat for seat in seats if seat not in contributions]
    unknown = sorted(set(contributions) - set(seats))
    if missing or unknown:
        raise ValueError(f"contributions missing for {missing}, from unknown seats {unknown}")
    for seat in seats:
        check_contribution(contributions[seat])
    return ";".join(f"{seat}:{contributions[seat]}" for seat in seats)


def seed_commitment(server_seed: bytes) -> str:
    """The header's ``seed_commitment``: lowercase hex SHA-256 of the raw 32 seed bytes."""
    return hashlib.sha256(server_seed).hexdigest()


def seed_from_number(number: int) -> tuple[bytes, str]:
    """``--seed N``: ``sha256("nataterra-seed-v1" ‖ u64be(N))`` and game id ``seed-N``."""
    seed = hashlib.sha256(b"nataterra-seed-v1" + struct.pack(">Q", number)).digest()
    return seed, f"seed-{number}"


def odds_seed(seed: int, run: int) -> bytes:
    """Battle-calculator run ``run`` of seed ``seed``; independent of how runs are split."""
    return hashlib.sha256(
        b"nataterra-odds-v1" + struct.pack(">Q", seed) + struct.pack(">Q", run)
    ).digest()


@lru_cache(maxsize=256)
def _message_prefix(game_id: str, client_seed: str) -> bytes:
    # Streams are rebuilt for every command; the checked prefix is worth keeping.
    check_game_id(game_id)
    return _DOMAIN + _length_prefixed(game_id) + _length_prefixed(client_seed)


def _block(seed: bytes, prefix: bytes, index: int) -> bytes:
    message = prefix + struct.pack(">Q", index)
    return hashlib.blake2b(message, digest_size=32, key=seed).digest()


@lru_cache(maxsize=8)
def _block_words(seed: bytes, prefix: bytes, index: int) -> tuple[int, ...]:
    # A stream is rebuilt at the state's counter for every command, and consecutive commands
    # mostly read the same block: the last few blocks are kept (in memory only; nothing
    # derived from the seed leaves the process this way).
    words: tuple[int, ...] = struct.unpack(">8I", _block(seed, prefix, index))
    return words


# The last block read (seed, prefix, index, words): most commands read the block the
# previous one did, so it is recognised without hashing a cache key.
_last_words: tuple[bytes, bytes, int, tuple[int, ...]] = (b"", b"", -1, ())


class DiceStream:
    """The word stream of one game, positioned at ``counter``.

    Block ``b`` is keyed BLAKE2b-256 (key = server seed) over
    ``"nataterra-dice-v1" ‖ lp(game_id) ‖ lp(client_seed) ‖ u64be(b)``; each block gives
    eight big-endian 32-bit words. The stream is cheap to build at any counter, so rules
    code receives a fresh one per command and never sees the seed through the state.
    """

    __slots__ = ("_block", "_block_index", "_counter", "_prefix", "_seed")

    def __init__(self, server_seed: bytes, game_id: str, client_seed: str, counter: int = 0):
        if len(server_seed) != 32:
            raise ValueError(f"server_seed must be 32 bytes, got {len(server_seed)}")
        if counter < 0:
            raise ValueError("counter must be >= 0")
        self._seed = server_seed
        self._prefix = _message_prefix(game_id, client_seed)
        self._counter = counter
        self._block_index = -1
        self._block: tuple[int, ...] = ()

    @property
    def counter(self) -> int:
        """Words consumed so far (rejected words included)."""
        return self._counter

    def block(self, index: int) -> bytes:
        """The 32 raw bytes of block ``index`` (for auditors and test vectors)."""
        return _block(self._seed, self._prefix, index)

    def word_at(self, k: int) -> int:
        """Word ``k`` of the stream, without moving the counter."""
        global _last_words
        index, offset = divmod(k, _WORDS_PER_BLOCK)
        if index != self._block_index:
            last = _last_words
            if last[0] is self._seed and last[1] is self._prefix and last[2] == index:
                self._block = last[3]
            else:
                self._block = _block_words(self._seed, self._prefix, index)
                _last_words = (self._seed, self._prefix, index, self._block)
            self._block_index = index
        return self._block[offset]

    def next_word(self) -> int:
        """Consume and return the next 32-bit word."""
        word = self.word_at(self._counter)
        self._counter += 1
        return word

    def draw(self, m: int) -> int:
        """A uniform integer in ``0..m-1`` by rejection sampling; ``1 <= m <= 2**32``."""
        if not 1 <= m <= _MAX_M:
            raise ValueError(f"draw(m) needs 1 <= m <= 2**32, got {m}")
        limit = (_MAX_M // m) * m
        while True:
            word = self.next_word()
            if word < limit:
                return word % m

    def roll(self, faces: Sequence[T]) -> T:
        """One roll of a die with the given faces (a d10 is ``faces[draw(10)]``)."""
        return faces[self.draw(len(faces))]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list: Fisher-Yates from the end, ``j = draw(i + 1)``; index 0 is the top."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.draw(i + 1)
            result[i], result[j] = result[j], result[i]
        return result
