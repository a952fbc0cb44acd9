"""Swiss-system pairings: each round, players of similar standing meet, and no two players
meet again while a pairing of the round without a repeat exists.

A pure function of the standing (best first), the pairings already played and the byes
given: no game, no randomness (the caller breaks ties in the standing, e.g. by a seeded
shuffle in the first round). The highest unpaired player meets the next highest it has not
met (the Monrad system), with backtracking when that leaves the rest unpairable without a
repeat; the search is exhaustive, so a repeat happens only when every pairing of the round
would have one. With an odd number of players one sits out (a *bye*): the lowest-standing
player who has had none yet, as far as a pairing of the others without repeats allows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

__all__ = ["MAX_SEARCH_STEPS", "SwissRound", "swiss_round"]

MAX_SEARCH_STEPS = 1_000_000
"""Backtracking steps tried before a round accepts repeated pairings. Only a field of many
players, most of whom have met, gets near it; a repeat-free pairing is found within it
whenever one exists for the fields this is meant for (dozens of players)."""


class SwissRound(NamedTuple):
    """One round: the pairings (the better-standing player first) and the bye, if any."""

    pairings: list[tuple[str, str]]
    bye: str | None
    repeats: int
    """Pairings of this round that met before (0 unless every pairing of the round had one)."""


def swiss_round(
    standing: Sequence[str],
    met: Collection[frozenset[str]],
    byes: Collection[str] = (),
) -> SwissRound:
    """Pair ``standing`` (distinct players, best first) for one round.

    ``met``: the pairs that have played each other; ``byes``: the players who have sat out
    a round. No pairing of ``met`` is repeated while a round without a repeat exists
    (:data:`MAX_SEARCH_STEPS` bounds the search); otherwise each player in standing order
    meets the next it has not met if one is left (repeats few, not proven fewest).
    """
    players = list(standing)
    if len(set(players)) != len(players) or len(players) < 2:
        raise ValueError(f"a Swiss round needs two or more distinct players, got {players}")
    candidates: list[str | None] = [None]
    if len(players) % 2:
        lowest_first = players[::-1]
        candidates = [p for p in lowest_first if p not in byes]
        candidates += [p for p in lowest_first if p in byes]
    steps = [MAX_SEARCH_STEPS]
    for bye in candidates:
        rest = [p for p in players if p != bye]
        found = _pair(rest, met, steps, allow_repeats=False)
        if found is not None:
            return SwissRound(found, bye, 0)
        if steps[0] <= 0:
            break
    bye = candidates[0]
    rest = [p for p in players if p != bye]
    steps = [MAX_SEARCH_STEPS]
    fallback = _pair(rest, met, steps, allow_repeats=True)
    assert fallback is not None  # with repeats allowed any even field pairs
    repeats = sum(frozenset(pair) in met for pair in fallback)
    return SwissRound(fallback, bye, repeats)


def _pair(
    players: list[str],
    met: Collection[frozenset[str]],
    steps: list[int],
    *,
    allow_repeats: bool,
) -> list[tuple[str, str]] | None:
    """A pairing of ``players`` (an even number, best first): the first one meets the next
    it may, then the rest recursively; ``None`` if none exists (or the steps ran out)."""
    if not players:
        return []
    steps[0] -= 1
    if steps[0] < 0:
        return None
    first, others = players[0], players[1:]
    fresh = [p for p in others if frozenset((first, p)) not in met]
    order = fresh + [p for p in others if p not in fresh] if allow_repeats else fresh
    for opponent in order:
        rest = [p for p in others if p != opponent]
        paired = _pair(rest, met, steps, allow_repeats=allow_repeats)
        if paired is not None:
            return [(first, opponent), *paired]
        if allow_repeats:  # any completion will do; the first choice was the best
            break
    return None
