"""The search player (issue 19 item 1): information-set MCTS on the registry's determiniser.

It is registered for every system that determinises, deterministic for a seed and budget,
fair (its choice depends only on the seat's view: hidden information changed behind the
seat's back changes nothing), and it plays whole games whose logs verify. The many-game
match against the heuristic player runs behind the ``soak`` marker (``docs/BOTS.md``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import pytest
from nataterra_adapters.cli.tournament_games import plan, play_game

from nataterra_core.game import GameSession, new_game, verify_log
from nataterra_core.kernel import Player, play
from nataterra_core.kernel.registry import system, systems
from nataterra_core.kernel.secrets import twins
from nataterra_core.search.catalogue import (
    SEARCH,
    make_player,
    parse_player,
    players_of,
    search_player,
)
from nataterra_core.search.ismcts import SearchPlayer


def test_every_system_with_a_determiniser_offers_the_search_player() -> None:
    offering = {r.id for r in systems() if r.hooks.determiniser is not None}
    assert {"nataterra", "nataterra-combat-sandbox"} <= offering
    for record in systems():
        assert (SEARCH in players_of(record)) == (record.id in offering), record.id
        # The registry's record lists only the system's own players: the kernel never
        # builds (or imports) the search player.
        assert SEARCH not in record.players, record.id


def test_player_specs_name_a_budget_and_a_rollout_policy() -> None:
    record = system("nataterra")
    player = make_player(record, "search:3:random", 1)
    assert isinstance(player, SearchPlayer) and player.iterations == 3
    for bad in ("nobody", "random:3", "search:0", "search:x", "search:3:search", "search:3:no"):
        with pytest.raises(ValueError):
            parse_player(record, bad)


@cache
def _positions() -> tuple[tuple[object, str], ...]:
    """Decisions the search player searches (three to ten legal commands) from a heuristic
    2-player game, one per phase and in combat."""
    session = new_game(2, seed=5, options={"max_turns": 30})
    record = system("nataterra")
    bots = {s: record.players["heuristic"](i) for i, s in enumerate(session.header.seats)}
    found: list[tuple[object, str]] = []
    kinds: set[str] = set()
    while session.outcome() is None and len(found) < 4:
        seat = session.acting_seats()[0]
        state = session.state
        legal = session.legal_commands(seat)
        kind = "combat" if state.combat is not None else state.phase
        if 2 < len(legal) <= 10 and state.turn >= 2 and kind not in kinds:
            kinds.add(kind)
            found.append((state, seat))
        session.apply(seat, bots[seat].choose(record.seat_view(state, seat), legal))
    return tuple(found)


def _choose(player: Player, state: object, seat: str) -> object:
    record = system("nataterra")
    legal = record.decider(None).decision(state).legal(seat)
    return player.choose(record.seat_view(state, seat), legal)


def test_the_same_seed_and_budget_give_the_same_choices() -> None:
    record = system("nataterra")
    assert len(_positions()) >= 3
    for state, seat in _positions():
        players = [search_player(record, 7, iterations=4, rollout="random") for _ in range(2)]
        first, again = (_choose(player, state, seat) for player in players)
        assert first == again
        assert players[0].stats.iterations == 4 and players[0].stats.decisions == 1


def test_bot_fairness_hidden_information_changes_no_choice() -> None:
    """Other seats' hands re-dealt and every deck reordered (``kernel.secrets.twins``): the
    seat's view is the same, and so is the search player's choice, seed for seed."""
    record = system("nataterra")
    rng = random.Random(3)
    compared = 0
    for state, seat in _positions():
        twin = twins(state, seat, rng)
        assert twin != state
        for seed in (1, 2):
            ours = _choose(search_player(record, seed, iterations=4, rollout="random"), state, seat)
            theirs = _choose(
                search_player(record, seed, iterations=4, rollout="random"), twin, seat
            )
            assert ours == theirs
            compared += 1
    assert compared >= 6


def test_a_time_budget_stops_on_the_callers_clock() -> None:
    record = system("nataterra")
    ticks = iter(range(1000))
    player = search_player(record, 1, iterations=100, seconds=2.5, clock=lambda: next(ticks))
    state, seat = _positions()[0]
    _choose(player, state, seat)
    assert 1 <= player.stats.iterations <= 4
    with pytest.raises(ValueError, match="clock"):
        search_player(record, 1, seconds=1.0)


def _match(
    game: str, seeds: range, spec: str, other: str, **options: object
) -> Iterator[tuple[GameSession, str]]:
    """Games of ``spec`` against ``other``, the seats swapped on every second game."""
    record = system(game)
    for n in seeds:
        chosen = {**record.default_options, **options}
        session = new_game(2, game=game, seed=n // 2, options=chosen)
        seats = session.header.seats
        mine = seats[n % 2]
        bots = {s: make_player(record, spec if s == mine else other, 100 + n) for s in seats}
        play(session, bots, record.seat_view)
        session.close()
        yield session, mine


def _wins(game: str, seeds: range, spec: str, other: str, **options: object) -> tuple[int, int]:
    wins = games = 0
    for session, mine in _match(game, seeds, spec, other, **options):
        assert verify_log(session.log_bytes()).valid
        outcome = session.outcome()
        assert outcome is not None
        wins += mine in outcome.winners
        games += 1
    return wins, games


def test_smoke_a_search_player_plays_whole_games_whose_logs_verify() -> None:
    """A short Nataterra game against the heuristic player (eight turns) and two sandbox
    battles against random, at tiny budgets: the games end and the logs verify."""
    _wins("nataterra", range(1), "search:2", "heuristic", max_turns=8)
    _wins("nataterra-combat-sandbox", range(2), "search:4:random", "random")


@pytest.mark.parametrize("rules_id", [r.id for r in systems() if r.hooks.determiniser is not None])
def test_the_search_player_plays_every_system_that_determinises(rules_id: str) -> None:
    """Generic over the registry: a tiny search (random playouts) against random, a few
    hundred commands at most, then the log closes and verifies."""
    record = system(rules_id)
    options = dict(record.default_options)
    if "max_turns" in record.options.__struct_fields__:
        options["max_turns"] = 6
    session = new_game(min(record.player_counts), game=rules_id, seed=1, options=options)
    seats = session.header.seats
    bots = {s: make_player(record, "search:4:random" if i == 0 else "random", i)
            for i, s in enumerate(seats)}  # fmt: skip
    assert play(session, bots, record.seat_view, max_commands=300) > 0
    session.close()
    assert verify_log(session.log_bytes()).valid


@pytest.mark.soak
def test_search_beats_the_heuristic_player_in_60_percent_of_40_games() -> None:
    """The must-show of issue 19 at 8 iterations: the 40 games of ``nataterra tournament
    --players heuristic,search:8 --games 40 --seed 1`` (docs/BOTS.md), each log verified."""
    wins = 0
    spec = f"{SEARCH}:8"
    for planned in plan("nataterra", ["heuristic", spec], 40, 1, options={"max_turns": 100}):
        result, _ = play_game(planned)
        assert result.valid, result.verdict
        wins += result.winners == (spec,)
    assert wins >= 24, wins
