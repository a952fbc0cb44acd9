"""Swiss pairings (issue 34 item 3): no pairing repeats while a round without a repeat
exists, checked against every pairing of the round (brute force) for random histories."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from nataterra_core.tools.swiss import swiss_round


def _pairings(players: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to pair an even list of players."""
    if not players:
        yield []
        return
    first = players[0]
    for i, other in enumerate(players[1:], 1):
        rest = players[1:i] + players[i + 1 :]
        for tail in _pairings(rest):
            yield [(first, other), *tail]


def _repeat_free_exists(players: list[str], met: set[frozenset[str]]) -> bool:
    byes = players if len(players) % 2 else [None]
    for bye in byes:
        rest = [p for p in players if p != bye]
        if any(all(frozenset(pair) not in met for pair in way) for way in _pairings(rest)):
            return True
    return False


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[str], set[frozenset[str]], set[str]]:
    count = draw(st.integers(2, 9))
    players = [f"p{i}" for i in range(count)]
    all_pairs = [frozenset((a, b)) for i, a in enumerate(players) for b in players[i + 1 :]]
    met = set(draw(st.lists(st.sampled_from(all_pairs), max_size=len(all_pairs))))
    byes = set(draw(st.lists(st.sampled_from(players), max_size=count)))
    return draw(st.permutations(players)), met, byes


@settings(deadline=None, max_examples=300)
@given(histories())
def test_no_pairing_repeats_while_a_round_without_one_exists(
    history: tuple[list[str], set[frozenset[str]], set[str]],
) -> None:
    standing, met, byes = history
    paired = swiss_round(standing, met, byes)
    seated = [p for pair in paired.pairings for p in pair]
    assert sorted(seated + ([paired.bye] if paired.bye else [])) == sorted(standing)
    assert (paired.bye is not None) == (len(standing) % 2 == 1)
    repeats = sum(frozenset(pair) in met for pair in paired.pairings)
    assert repeats == paired.repeats
    if _repeat_free_exists(standing, met):
        assert repeats == 0, (standing, met, paired)


def test_the_leaders_meet_and_the_lowest_without_a_bye_sits_out() -> None:
    paired = swiss_round(["a", "b", "c", "d", "e"], met=set(), byes={"e"})
    assert paired.bye == "d"
    assert paired.pairings == [("a", "b"), ("c", "e")]
    # a and b have met: a meets the next it has not met, and b is paired below.
    paired = swiss_round(["a", "b", "c", "d"], met={frozenset("ab")})
    assert paired.pairings == [("a", "c"), ("b", "d")]


def test_a_round_robin_by_swiss_rounds_never_repeats() -> None:
    """Four players, three rounds: every pair meets once (each round was repeat-free)."""
    standing = ["a", "b", "c", "d"]
    met: set[frozenset[str]] = set()
    for _ in range(3):
        paired = swiss_round(standing, met)
        assert paired.repeats == 0
        met |= {frozenset(pair) for pair in paired.pairings}
    assert len(met) == 6
