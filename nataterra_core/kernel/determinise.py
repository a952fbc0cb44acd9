"""Determinisers: a full state sampled from what one seat may see (search players).

A seat's view hides other seats' hands and every deck's order. A search player that wants
to look ahead with the rules needs a whole state, so each rule system that offers the
registry's ``Hooks.determiniser`` turns a view back into one: the public part copied from
the view, the hidden part (others' hands, deck orders, anything else the view leaves out)
sampled from the cards the seat has not seen, in a way consistent with the counts the view
shows. The contract, checked by the conformance test for every system that offers one::

    state = determiniser(view, pack, seed)
    seat_view(state, seat) == view          # where view == seat_view(some_state, seat)

and the seat's decision (who acts, its legal commands) in ``state`` equals the one in the
state the view came from. Sampling is seeded (the same view, pack and seed give the same
state) and draws only from :func:`sampling_dice`, never from the game's own stream: a
player's determinisations tell it nothing about the game's future dice.

The helpers here are what most systems need: the cards of a known collection nobody can see
(:func:`unseen`), and those cards dealt into hands of known sizes and a shuffled rest
(:func:`deal`).
"""

from __future__ import annotations

import hashlib
import struct
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from .dice import DiceStream

__all__ = ["Determiniser", "deal", "sampling_dice", "unseen"]

T = TypeVar("T", bound=Hashable)


class Determiniser(Protocol):
    """``(view, pack, seed) -> state``: a state whose seat view equals ``view``.

    ``view`` is a seat's view (``RuleSystem.seat_view(state, seat)``), never a spectator's;
    ``pack`` the system's loaded content pack (``RuleSystem.load_pack(content)``, ``None``
    for a system without one); ``seed`` picks one sample of the hidden information. The
    state returned must be one the rules can play on from here (its dice counter need not
    be the game's: a search player rolls its own dice).
    """

    def __call__(self, view: Any, pack: Any, seed: int) -> Any:
        """A full state consistent with ``view``, the hidden parts sampled with ``seed``."""


def sampling_dice(seed: int, purpose: str = "determiniser") -> DiceStream:
    """A ``nataterra-dice-v1`` stream of its own for sampling hidden information, keyed by
    ``seed`` (never the game's seed, so a determinisation says nothing of the game's dice)."""
    key = hashlib.sha256(b"nataterra-determinise-v1" + struct.pack(">Q", seed)).digest()
    return DiceStream(key, purpose, "")


def unseen(collection: Iterable[T], *seen: Iterable[T]) -> list[T]:
    """The items of ``collection`` (a multiset, in its order) left once every item of each
    ``seen`` is taken out; ``ValueError`` if something seen is not in the collection."""
    missing: Counter[T] = Counter()
    for items in seen:
        missing.update(items)
    left: list[T] = []
    for item in collection:
        if missing[item] > 0:
            missing[item] -= 1
        else:
            left.append(item)
    extra = +missing
    if extra:
        raise ValueError(f"seen but not in the collection: {sorted(map(str, extra))}")
    return left


def deal(
    cards: Sequence[T], sizes: Sequence[int], dice: DiceStream
) -> tuple[tuple[tuple[T, ...], ...], tuple[T, ...]]:
    """``cards`` shuffled with ``dice`` and dealt into hands of ``sizes``; (hands, the rest
    in shuffled order). ``ValueError`` when the hands need more cards than there are."""
    if sum(sizes) > len(cards):
        raise ValueError(f"cannot deal hands of {list(sizes)} from {len(cards)} cards")
    shuffled = dice.shuffle(cards)
    hands: list[tuple[T, ...]] = []
    start = 0
    for size in sizes:
        hands.append(tuple(shuffled[start : start + size]))
        start += size
    return tuple(hands), tuple(shuffled[start:])
