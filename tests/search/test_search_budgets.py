"""The search player thinks in time or in iterations, and scores short playouts by each
game's evaluation (issue 34 item 1).

Budgets: ``search:N`` (reproducible), ``search:1s`` and ``search:500ms`` on a clock the caller
passes (the core reads none), a front end's cap cutting either; a forced decision costs no
thinking. Each game with an evaluation (``Hooks.evaluate``) gives every seat a winning chance
in [0, 1]; the chances of a two-seat game sum to 1 and a finished game's are its result.
Decisions with more legal commands than ``max_branching`` (Liar's Dice's bids) are searched
among the policy's ranking, widening with the rounds, instead of being left to the policy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

from nataterra_core.game import new_game
from nataterra_core.kernel.registry import RuleSystem, system, systems
from nataterra_core.search.budget import MAX_ITERATIONS, Budget
from nataterra_core.search.catalogue import (
    PLAYOUT_DEPTH,
    SEARCH_ITERATIONS,
    SEARCH_SECONDS,
    budget_of,
    make_player,
    parse_player,
    players_of,
    playout_depth_of,
    search_player,
)
from nataterra_core.search.ismcts import SearchPlayer

EVALUATED = ("nataterra", "kaladan", "battlelore", "liars-dice")


def _ticking(step: float = 1.0) -> Callable[[], float]:
    """A clock that moves ``step`` seconds on every reading."""
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


def _no_clock() -> float:
    raise AssertionError("the clock was read")


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("8", Budget(iterations=8)),
        ("1s", Budget(seconds=1.0)),
        ("1.5s", Budget(seconds=1.5)),
        ("500ms", Budget(seconds=0.5)),
        (str(MAX_ITERATIONS), Budget(iterations=MAX_ITERATIONS)),
    ],
)
def test_a_budget_is_iterations_or_a_time(text: str, budget: Budget) -> None:
    assert Budget.parse(text) == budget
    assert budget.timed == text.endswith("s")


@pytest.mark.parametrize(
    "text", ["0", "0s", "0ms", "-1", "1h", "s", "1.s", "10000000", "3601s", "1e3", "١٢", "1 s"]
)
def test_a_budget_out_of_bounds_or_unreadable_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Budget.parse(text)


def test_a_time_budget_needs_the_callers_clock() -> None:
    record = system("nataterra")
    with pytest.raises(ValueError, match="clock"):
        parse_player(record, "search:1s")
    player = make_player(record, "search:500ms:random", 1, clock=_ticking())
    assert isinstance(player, SearchPlayer)
    assert (player.seconds, player.iterations) == (0.5, None)
    assert budget_of("search:500ms:random") == Budget(seconds=0.5)
    assert budget_of("search") is None and budget_of("heuristic") is None


def test_plain_search_is_a_time_budget_where_a_clock_is_passed() -> None:
    record = system("kaladan")
    timed = players_of(record, clock=_ticking())["search"](1)
    counted = players_of(record)["search"](1)
    assert isinstance(timed, SearchPlayer) and isinstance(counted, SearchPlayer)
    assert (timed.seconds, timed.iterations) == (SEARCH_SECONDS, None)
    assert (counted.seconds, counted.iterations) == (None, SEARCH_ITERATIONS)


def test_a_cap_cuts_a_longer_time_and_an_iteration_budget() -> None:
    record = system("battlelore")
    capped = make_player(record, "search:8", 1, clock=_ticking(), max_seconds=5.0)
    longer = make_player(record, "search:30s", 1, clock=_ticking(), max_seconds=5.0)
    shorter = make_player(record, "search:1s", 1, clock=_ticking(), max_seconds=5.0)
    assert isinstance(capped, SearchPlayer) and (capped.iterations, capped.seconds) == (8, 5.0)
    assert isinstance(longer, SearchPlayer) and longer.seconds == 5.0
    assert isinstance(shorter, SearchPlayer) and shorter.seconds == 1.0


def _decisions(record: RuleSystem, seed: int = 2) -> Iterator[tuple[Any, str]]:
    """(state, seat) of every decision of a seeded heuristic two-seat game, and its end."""
    options = dict(record.default_options)
    if "max_turns" in record.options.__struct_fields__:
        options["max_turns"] = 12
    session = new_game(2, game=record.id, seed=seed, options=options)
    bots = {s: record.players["heuristic"](i) for i, s in enumerate(session.header.seats)}
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        yield session.state, seat
        legal = session.legal_commands(seat)
        session.apply(seat, bots[seat].choose(record.seat_view(session.state, seat), legal))
    yield session.state, session.header.seats[0]


def test_a_forced_decision_costs_no_thinking() -> None:
    record = system("nataterra")
    player = search_player(record, 1, seconds=1.0, clock=_no_clock)
    decider = record.decider(None)
    for state, seat in _decisions(record):
        legal = decider.decision(state).legal(seat) if decider.outcome(state) is None else []
        if len(legal) == 1:
            assert player.choose(record.seat_view(state, seat), legal) == legal[0]
            break
    else:
        pytest.fail("no forced decision in the game")
    assert player.stats.decisions == 0


def test_a_time_budget_searches_until_the_clock_says_so() -> None:
    record = system("liars-dice")
    player = search_player(record, 1, seconds=10.0, clock=_ticking())
    state, seat = next(iter(_decisions(record)))
    legal = record.decider(None).decision(state).legal(seat)
    player.choose(record.seat_view(state, seat), legal)
    # Read once for the deadline, then once before each iteration after the first.
    assert player.stats.iterations == 10


@pytest.mark.parametrize("rules_id", EVALUATED)
def test_every_game_evaluates_a_seats_winning_chance(rules_id: str) -> None:
    record = system(rules_id)
    evaluate = record.hooks.evaluate
    assert evaluate is not None, f"{rules_id} offers no evaluation"
    decider = record.decider(None)
    seen = 0
    for state, _ in _decisions(record):
        chances = {s: evaluate(state, s) for s in state.seats}
        assert all(0.0 <= c <= 1.0 for c in chances.values()), chances
        assert sum(chances.values()) == pytest.approx(1.0), chances
        seen += 1
    outcome = decider.outcome(state)
    assert outcome is not None
    for seat in state.seats:
        result = 0.5 if not outcome.winners else float(seat in outcome.winners)
        assert evaluate(state, seat) == result
    assert seen > 10


def test_playouts_are_cut_and_scored_by_the_evaluation_or_played_out_without_one() -> None:
    record = system("kaladan")
    assert record.hooks.evaluate is not None and record.hooks.determiniser is not None
    asked: list[str] = []

    def spy(state: Any, seat: str) -> float:
        asked.append(seat)
        assert record.hooks.evaluate is not None
        return record.hooks.evaluate(state, seat)

    state, seat = next(
        (st, se)
        for st, se in _decisions(record)
        if len(record.decider(None).decision(st).legal(se)) > 2 and st.turn >= 2
    )
    legal = record.decider(None).decision(state).legal(seat)
    view = record.seat_view(state, seat)

    def player(evaluate: Any) -> SearchPlayer:
        return SearchPlayer(
            1,
            decider=record.decider(None),
            seat_view=record.seat_view,
            determiniser=record.hooks.determiniser,  # type: ignore[arg-type]
            pack=record.load_pack(None) if record.load_pack is not None else None,
            rollout=lambda s: record.players["heuristic"](s),
            iterations=6,
            evaluate=evaluate,
            playout_depth=10,
        )

    cut, whole = player(spy), player(None)
    cut.choose(view, legal)
    whole.choose(view, legal)
    assert asked, "the evaluation was never asked"
    assert cut.stats.commands < whole.stats.commands


def test_a_decision_with_many_bids_is_searched_among_the_policys_ranking() -> None:
    """Liar's Dice offers far more than ``max_branching`` bids: the search tries the
    heuristic's best first and widens as the rounds go by."""
    record = system("liars-dice")
    state, seat = next(iter(_decisions(record)))
    legal = record.decider(None).decision(state).legal(seat)
    assert len(legal) > 30
    player = search_player(record, 3, iterations=400)
    view = record.seat_view(state, seat)
    player.choose(view, legal)
    assert player.stats.decisions == 1 and player.stats.iterations == 400
    ranked = record.players["heuristic"](0).rank(view, legal)  # type: ignore[attr-defined]
    assert ranked[0] == record.players["heuristic"](0).choose(view, legal)
    # 400 iterations: a few dozen rounds, so a few candidates past the first ten.
    tiny = search_player(record, 3, iterations=3)
    assert tiny.choose(view, legal) == ranked[0] and tiny.stats.decisions == 0


def test_systems_without_an_evaluation_play_their_playouts_out() -> None:
    without = [r.id for r in systems() if r.hooks.determiniser and r.hooks.evaluate is None]
    assert "nataterra-combat-sandbox" in without
    assert set(EVALUATED) <= {r.id for r in systems() if r.hooks.evaluate is not None}


def test_a_time_budget_at_a_slow_pace_still_searches_and_measures_it_again() -> None:
    """A first decision that fitted one iteration in its time must not stop the search for
    good: the next decisions try two candidates (a move tried once never overrides the
    policy's choice), and their pace is measured again."""
    record = system("liars-dice")
    player = search_player(record, 1, seconds=1.0, clock=_ticking())
    decider = record.decider(None)
    asked = 0
    for state, seat in _decisions(record):
        if decider.outcome(state) is not None:
            break
        legal = decider.decision(state).legal(seat)
        if len(legal) > 1 and asked < 3:
            policy = record.players["heuristic"](0).choose(record.seat_view(state, seat), legal)
            assert player.choose(record.seat_view(state, seat), legal) == policy
            asked += 1
    assert asked == 3 and player.stats.decisions == 3


def test_a_systems_own_playout_depth_is_its_search_players() -> None:
    """``Hooks.playout_depth`` names a game's own depth; without it, ``PLAYOUT_DEPTH``."""
    record = system("battlelore")
    deeper = attrs.evolve(record, hooks=attrs.evolve(record.hooks, playout_depth=90))
    unset = attrs.evolve(record, hooks=attrs.evolve(record.hooks, playout_depth=None))
    assert playout_depth_of(deeper) == 90 and search_player(deeper, 1).playout_depth == 90
    assert playout_depth_of(unset) == PLAYOUT_DEPTH == search_player(unset, 1).playout_depth
    for each in systems():
        if each.hooks.determiniser is not None:
            assert search_player(each, 1).playout_depth == playout_depth_of(each) > 0


def test_the_last_decisions_rounds_pair_each_candidate_with_the_policys_choice() -> None:
    """``last_rounds``: every iteration's score in [0, 1] under its candidate and round, each
    candidate once a round, the policy's choice first (what ``search_signal`` pairs)."""
    record = system("battlelore")
    decider = record.decider(None)
    state, seat = next(
        (st, se)
        for st, se in _decisions(record)
        if decider.outcome(st) is None and 2 < len(decider.decision(st).legal(se)) <= 10
    )
    legal = decider.decision(state).legal(seat)
    player = search_player(record, 4, iterations=3 * len(legal) + 1)
    player.choose(record.seat_view(state, seat), legal)
    rounds = player.last_rounds
    assert set(rounds) == set(legal)
    assert sum(len(r) for r in rounds.values()) == player.stats.iterations == 3 * len(legal) + 1
    assert all(0.0 <= score <= 1.0 for r in rounds.values() for score in r.values())
    first, *others = rounds.values()
    assert sorted(first) == [0, 1, 2, 3]
    assert all(sorted(r) == [0, 1, 2] for r in others)
