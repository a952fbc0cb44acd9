"""Bots see only what their seat sees (issue 13): a bot's choice depends on the seat's view
and the legal commands alone, and the heuristic player keeps its strength on that view.

Fairness: in mid-game positions (tactic cards in hands, decks with cards left) another
seat's hands are swapped for cards from its decks and every deck order is permuted; the
seat's view and legal commands stay equal, and so does every bot's choice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import cache

import msgspec
import pytest

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.bots import HeuristicPlayer, RandomPlayer, play, reading
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.decider import Nataterra
from nataterra_core.games.nataterra.messages.combat import PlayTactic
from nataterra_core.games.nataterra.rules.development import unit_cost
from nataterra_core.games.nataterra.rules.tactic_play import counted
from nataterra_core.games.nataterra.rules.teams import allied
from nataterra_core.games.nataterra.state import GameState, PlayerState
from nataterra_core.games.nataterra.views import seat_view
from nataterra_core.kernel import Player

MAX_TURNS = 200
BOTS: dict[str, Callable[[int], Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
}

Position = tuple[str, GameState, str]
"""(kind of decision, state, acting seat)."""


def _kind(decider: Nataterra, state: GameState, seat: str) -> str:
    legal = decider.legal_commands(state, seat)
    tactic = "+tactic" if any(isinstance(c, PlayTactic) for c in legal) else ""
    return ("combat" if state.combat is not None else state.phase) + tactic


def _mid_game(state: GameState, seat: str) -> bool:
    """Every other seat holds tactic cards and every deck still has two or more cards."""
    others = [p for p in state.players if p.civ != seat]
    decks = [d for p in state.players for d in (p.tech_deck, p.tactic_deck)]
    return (
        state.turn >= 2
        and all(p.tactic_hand for p in others)
        and all(len(d) >= 2 for d in decks)
        and any(len(d) >= 2 for d in state.biome_decks.values())
    )


@cache
def positions() -> tuple[Position, ...]:
    """The first decision of each kind (phase, combat, a tactic window) in heuristic games,
    2 and 3 players, learning and advanced, where the position is mid-game."""
    found: list[Position] = []
    for players, mode, seed in ((2, "learning", 1), (2, "learning", 4), (3, "advanced", 2)):
        session = new_game(players, seed=seed, options={"max_turns": MAX_TURNS, "mode": mode})
        decider = session.decider
        assert isinstance(decider, Nataterra)
        bots = {s: HeuristicPlayer(seed * 16 + i) for i, s in enumerate(session.header.seats)}
        seen: set[str] = set()
        while session.outcome() is None and session.state.turn < 40:
            seat = session.acting_seats()[0]
            state = session.state
            legal = session.legal_commands(seat)
            if len(legal) > 1 and _mid_game(state, seat):
                kind = _kind(decider, state, seat)
                if kind not in seen:
                    seen.add(kind)
                    found.append((kind, state, seat))
            session.apply(seat, bots[seat].choose(seat_view(state, seat), legal))
    return tuple(found)


def _reorder(cards: tuple[str, ...], rng: random.Random) -> tuple[str, ...]:
    """``cards`` in another order (when any other order exists)."""
    order = tuple(rng.sample(cards, len(cards)))
    return order if order != cards else (*cards[1:], *cards[:1])


def _swap_hand(hand: tuple[str, ...], deck: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """(new hand, new deck): the hand's cards traded for the same number from the deck."""
    k = min(len(hand), len(deck))
    return (*deck[:k], *hand[k:]), (*hand[:k], *deck[k:])


def perturbed(state: GameState, seat: str, seed: int) -> GameState:
    """``state`` with every other seat's hands swapped for deck cards and every deck (the
    seat's own included: nobody sees a deck's order) permuted."""
    rng = random.Random(seed)
    players: list[PlayerState] = []
    for p in state.players:
        tech_hand, tech_deck = p.tech_hand, p.tech_deck
        tactic_hand, tactic_deck = p.tactic_hand, p.tactic_deck
        if p.civ != seat:
            tech_hand, tech_deck = _swap_hand(tech_hand, tech_deck)
            tactic_hand, tactic_deck = _swap_hand(tactic_hand, tactic_deck)
        players.append(
            msgspec.structs.replace(
                p,
                tech_hand=tech_hand,
                tech_deck=_reorder(tech_deck, rng),
                tactic_hand=tactic_hand,
                tactic_deck=_reorder(tactic_deck, rng),
            )
        )
    # A combat keeps no copy of the hands: they are the players', swapped above.
    return msgspec.structs.replace(
        state,
        players=tuple(players),
        biome_decks={b: _reorder(cards, rng) for b, cards in state.biome_decks.items()},
    )


def test_positions_cover_the_phases_combat_and_tactic_windows() -> None:
    """The fairness test below is only as good as its positions."""
    kinds = {kind for kind, _, _ in positions()}
    assert {"movement", "development", "combat"} <= {k.split("+")[0] for k in kinds}, kinds
    assert any(k.endswith("+tactic") for k in kinds), kinds
    assert len(positions()) >= 6, kinds


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_bots_choose_the_same_when_hidden_information_differs(bot: str) -> None:
    """Another seat's hands swapped, every deck order permuted: the seat's view and legal
    commands are equal, the other seats' views are not, and the bot's choice is the same."""
    decider = Nataterra(load_pack())
    for n, (kind, state, seat) in enumerate(positions()):
        twin = perturbed(state, seat, seed=n)
        assert twin != state
        for other in state.seats:
            if other != seat:  # the perturbation really changed what someone else knows
                assert seat_view(twin, other) != seat_view(state, other), (kind, other)
        view, twin_view = seat_view(state, seat), seat_view(twin, seat)
        assert view == twin_view and msgspec.json.encode(view) == msgspec.json.encode(twin_view)
        legal = decider.legal_commands(state, seat)
        assert decider.legal_commands(twin, seat) == legal, kind
        for player_seed in range(3):
            chosen = BOTS[bot](player_seed).choose(view, legal)
            assert BOTS[bot](player_seed).choose(twin_view, legal) == chosen, (kind, seat)


def _teams_position() -> Iterator[tuple[GameState, str]]:
    session = new_game(4, seed=3, options={"teams": ["velathi+humans", "beasts+naga"]})
    bots = {s: HeuristicPlayer(i) for i, s in enumerate(session.header.seats)}
    play(session, bots, max_commands=300)
    yield session.state, session.acting_seats()[0]


def test_the_views_readings_agree_with_the_rules() -> None:
    """What the heuristic player reads from a view (group side, unit cost, a tactic count,
    allies) equals what the rules compute from the state."""
    decider = Nataterra(load_pack())
    pack = decider.pack
    per_effects = [
        e for card in pack.tactics.values() for o in card.options for e in o.effects if e.per
    ]
    assert per_effects
    cases = [(state, seat) for _, state, seat in positions()] + list(_teams_position())
    for state, seat in cases:
        ctx = decider.context(state.map_id)
        view = seat_view(state, seat)
        for p in state.players:
            shown = reading.player_of(view, p.civ)
            for unit in pack.units:
                assert reading.group_side(ctx, shown, unit) == ctx.group_side(p, unit)[0]
                assert unit_cost(ctx, shown, unit) == unit_cost(ctx, p, unit)
            for other in state.seats:
                assert reading.allied(view, p.civ, other) == allied(state, p.civ, other)
        for effect in per_effects:
            assert reading.counted(ctx, view, effect) == counted(ctx, state, seat, effect)
    assert any(state.teams for state, _ in cases)


def _against_random(seeds: range) -> tuple[int, int, int]:
    """(wins, draws, losses) of the heuristic player against the random one in 2-player
    learning games, each seed played with the heuristic player in each seat."""
    wins = draws = losses = 0
    for seed in seeds:
        for smart_index in (0, 1):
            session = new_game(2, seed=seed, options={"max_turns": MAX_TURNS})
            seats = session.header.seats
            bots: dict[str, Player] = {
                s: HeuristicPlayer(seed * 16 + i)
                if i == smart_index
                else RandomPlayer(seed * 16 + i)
                for i, s in enumerate(seats)
            }
            play(session, bots)
            outcome = session.outcome()
            assert outcome is not None
            if not outcome.winners:
                draws += 1
            elif seats[smart_index] in outcome.winners:
                wins += 1
            else:
                losses += 1
    return wins, draws, losses


def test_N_WIN_1_heuristic_on_its_view_beats_random_smoke() -> None:
    """3 seeds, both seatings: the heuristic player wins most games against random."""
    wins, draws, losses = _against_random(range(3))
    assert wins >= 5, (wins, draws, losses)


@pytest.mark.soak
def test_N_WIN_1_heuristic_on_its_view_beats_random_over_40_games() -> None:
    """20 seeds, both seatings (40 games; measured 40 wins when bots moved to views)."""
    wins, draws, losses = _against_random(range(20))
    assert wins >= 36 and losses <= 2, (wins, draws, losses)
