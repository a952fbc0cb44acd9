"""Nataterra's determiniser: every public fact of the state comes back from a seat's view,
and only what the seat cannot see is sampled (the hidden cards as the rules hold them).

The conformance test checks the contract for every system (view and decision unchanged);
here, in learning, advanced with a map being built, and team games, the sampled state with
the real hidden parts put back is the real state, field for field: a public field added to
the state but not to the view fails here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import msgspec
import pytest

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.determinise import determinise
from nataterra_core.games.nataterra.state import GameState
from nataterra_core.games.nataterra.views import seat_view
from nataterra_core.kernel.determinise import deal, sampling_dice, unseen
from nataterra_core.kernel.registry import system

GAMES = (
    (2, {"max_turns": 12}, 1),
    (3, {"mode": "advanced", "max_turns": 6}, 2),
    (4, {"teams": ["velathi+humans", "beasts+naga"], "max_turns": 6}, 3),
)


def _states(players: int, options: dict[str, object], seed: int) -> Iterator[GameState]:
    session = new_game(players, seed=seed, options=options)
    record = system("nataterra")
    bots = {s: record.players["heuristic"](seed + i) for i, s in enumerate(session.header.seats)}
    while session.outcome() is None:
        yield session.state
        seat = session.acting_seats()[0]
        view = seat_view(session.state, seat)
        session.apply(seat, bots[seat].choose(view, session.legal_commands(seat)))
    yield session.state


def _with_hidden_of(sampled: GameState, real: GameState) -> GameState:
    """``sampled`` with the real hidden parts (hands, decks, the dice counter) put back."""
    players = tuple(
        msgspec.structs.replace(
            mine,
            tech_hand=theirs.tech_hand,
            tech_deck=theirs.tech_deck,
            tactic_hand=theirs.tactic_hand,
            tactic_deck=theirs.tactic_deck,
        )
        for mine, theirs in zip(sampled.players, real.players, strict=True)
    )
    structuring = sampled.structuring
    if structuring is not None and real.structuring is not None:
        structuring = msgspec.structs.replace(structuring, hands=real.structuring.hands)
    return msgspec.structs.replace(
        sampled,
        players=players,
        biome_decks=real.biome_decks,
        structuring=structuring,
        counter=real.counter,
    )


@pytest.mark.parametrize(("players", "options", "seed"), GAMES)
def test_the_view_holds_every_public_fact_and_only_hidden_cards_are_sampled(
    players: int, options: dict[str, object], seed: int
) -> None:
    pack = load_pack()
    varied = 0
    for n, real in enumerate(_states(players, options, seed)):
        if n % 3:
            continue
        seat = real.seats[n % len(real.seats)]
        sampled = determinise(seat_view(real, seat), pack, n)
        assert _with_hidden_of(sampled, real) == real
        for mine, theirs in zip(sampled.players, real.players, strict=True):
            # Hidden cards as the rules hold them: sizes, and what a deck may still hold.
            assert len(mine.tactic_hand) == len(theirs.tactic_hand)
            assert Counter(mine.tactic_hand + mine.tactic_deck) == Counter(
                theirs.tactic_hand + theirs.tactic_deck
            )
            assert len(mine.tech_hand) == len(theirs.tech_hand)
            assert len(mine.tech_deck) == len(theirs.tech_deck)
            if mine.civ == seat:
                assert mine.tactic_hand == theirs.tactic_hand
                assert mine.tech_hand == theirs.tech_hand
        for biome, cards in sampled.biome_decks.items():
            assert Counter(cards) == Counter(real.biome_decks[biome])
        if real.structuring is not None:
            assert sampled.structuring is not None
            own = real.structuring.hands.get(seat, ())
            theirs = [t for s, h in real.structuring.hands.items() if s != seat for t in h]
            mine = [t for s, h in sampled.structuring.hands.items() if s != seat for t in h]
            assert len(mine) == len(theirs) and not set(mine) & set(own)
        other = determinise(seat_view(real, seat), pack, n + 1000)
        varied += other != sampled
    assert varied > 5, "different seeds never sampled different hidden information"


def test_a_spectators_view_is_refused() -> None:
    state = next(_states(2, {}, 1))
    with pytest.raises(ValueError, match="spectator"):
        determinise(seat_view(state, None), load_pack(), 0)


def test_kernel_helpers_take_out_what_was_seen_and_deal_the_rest() -> None:
    assert unseen("aabbc", "ab", "c") == ["a", "b"]
    with pytest.raises(ValueError, match="seen but not in the collection"):
        unseen("ab", "z")
    hands, rest = deal(list("abcdef"), (2, 1), sampling_dice(3))
    assert [len(h) for h in hands] == [2, 1] and len(rest) == 3
    assert sorted(hands[0] + hands[1] + rest) == list("abcdef")
    assert deal(list("abcdef"), (2, 1), sampling_dice(3)) == (hands, rest)
    with pytest.raises(ValueError, match="cannot deal"):
        deal(["a"], (2,), sampling_dice(0))
