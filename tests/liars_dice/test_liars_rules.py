"""Liar's Dice rule by rule (``docs/rules/liars_dice.md``): each test is named by the clause
it checks."""

from __future__ import annotations

import pytest
from liars_positions import DECIDER, act, dice, lost, opener, start_events, table

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.liars_dice import messages as m
from nataterra_core.games.liars_dice.rules.bidding import bid_key
from nataterra_core.kernel import CommandRejected, IllegalCommand, play, recheck
from nataterra_core.kernel.registry import OptionsError, system

RECORD = system("liars-dice")


def _rule(error: pytest.ExceptionInfo[CommandRejected]) -> str | None:
    return error.value.rule_id


def test_L_SET_1_two_to_six_players_in_table_order() -> None:
    for count in (2, 6):
        session = new_game(count, game="liars-dice", seed=1)
        assert session.header.seats == RECORD.default_seats[count]
    for count in (1, 7):
        with pytest.raises(OptionsError):
            new_game(("a", "b", "c", "d", "e", "f", "g")[:count], game="liars-dice", seed=1)


def test_L_SET_2_five_dice_each_or_the_dice_option() -> None:
    assert new_game(3, game="liars-dice", seed=2).state.counts() == (5, 5, 5)
    three = new_game(2, game="liars-dice", seed=2, options={"dice": 3})
    assert three.state.counts() == (3, 3)
    for bad in (0, 6):
        with pytest.raises(OptionsError, match="L-SET-2"):
            new_game(2, game="liars-dice", seed=2, options={"dice": bad})


def test_L_SET_3_the_first_opener_is_drawn_with_the_dice_stream() -> None:
    openers = set()
    for seed in range(1, 12):
        session = new_game(4, game="liars-dice", seed=seed)
        drawn = start_events(session)[0]
        assert isinstance(drawn, m.OpenerDrawn) and drawn.m == 4
        assert recheck(dice(seed=seed), drawn) is None
        assert session.state.seats[session.state.active] == drawn.seat
        openers.add(drawn.seat)
    assert len(openers) > 1


def test_L_ROUND_1_every_cup_is_rolled_from_the_stream_one_draw_per_die() -> None:
    session = new_game(3, game="liars-dice", seed=4)
    rolled = [e for e in start_events(session) if isinstance(e, m.CupRolled)]
    assert [e.seat for e in rolled] == list(session.header.seats)
    stream = dice(rolled[0].counter_before, seed=4)
    for event in rolled:
        assert event.ms == (6,) * 5 and event.faces == tuple(v + 1 for v in event.values)
        assert recheck(stream, event) is None
    assert session.state.cups == tuple(tuple(sorted(e.faces)) for e in rolled)


def test_L_ROUND_2_the_turn_passes_to_the_next_player_with_dice() -> None:
    state = table((2, 3), (), (4, 5), active="red")
    _, after = act(state, "red", m.Bid(quantity=1, face=3))
    assert after.seats[after.active] == "green"  # blue is out
    _, after = act(after, "green", m.Bid(quantity=2, face=3))
    assert after.seats[after.active] == "red"


def test_L_ROUND_3_the_loser_opens_the_next_round() -> None:
    state = table((5, 5), (2, 3), (4, 6), bids=(("red", 4, 5),), active="blue")
    events, _ = act(state, "blue", m.CallLiar())
    assert lost(events) == ["red"] and opener(events) == "red"
    state = table((5, 5), (2, 3), (4, 6), bids=(("red", 2, 5),), active="blue")
    events, _ = act(state, "blue", m.CallLiar())
    assert lost(events) == ["blue"] and opener(events) == "blue"


def test_L_ROUND_3_after_an_exact_spot_on_the_caller_opens() -> None:
    state = table((5, 5), (2, 3), (4, 6), bids=(("red", 2, 5),), active="blue", spot_on=True)
    events, after = act(state, "blue", m.CallSpotOn())
    assert lost(events) == ["red", "green"] and opener(events) == "blue"
    assert after.counts() == (1, 2, 1)


def test_L_ROUND_4_when_the_loser_is_out_the_next_player_with_dice_opens() -> None:
    state = table((5,), (2, 3), (4, 6), bids=(("red", 2, 5),), active="blue")
    events, after = act(state, "blue", m.CallLiar())
    assert lost(events) == ["red"] and after.counts()[0] == 0
    assert opener(events) == "blue"
    state = table((2, 2), (5,), (4, 6), bids=(("green", 2, 2),), active="blue")
    events, _ = act(state, "blue", m.CallLiar())  # two twos are there: blue loses its last die
    assert lost(events) == ["blue"] and opener(events) == "green"


def test_L_TURN_1_only_the_player_to_act_may_bid_or_call() -> None:
    session = new_game(3, game="liars-dice", seed=5)
    acting = session.acting_seats()[0]
    other = next(s for s in session.header.seats if s != acting)
    with pytest.raises(CommandRejected) as error:
        session.apply(other, m.Bid(quantity=1, face=2))
    assert _rule(error) == "L-TURN-1"
    session.apply(acting, m.Bid(quantity=1, face=2))
    assert not session.can_undo(acting)  # a bid said is heard: no undo


def test_L_BID_1_a_bid_names_a_face_and_at_most_the_dice_in_play() -> None:
    state = table((1, 2), (3, 4))
    for bad in (m.Bid(quantity=0, face=2), m.Bid(quantity=5, face=2), m.Bid(quantity=1, face=7)):
        with pytest.raises(IllegalCommand) as error:
            act(state, "red", bad)
        assert _rule(error) == "L-BID-1"
    legal = DECIDER.decision(state).legal("red")
    assert m.Bid(quantity=4, face=6) in legal and m.Bid(quantity=5, face=1) not in legal


def test_L_BID_2_a_raise_is_more_dice_or_the_same_dice_of_a_higher_face() -> None:
    state = table((1, 2, 3), (3, 4, 5), bids=(("blue", 2, 4),), wild_ones=False)
    legal = DECIDER.decision(state).legal("red")
    assert m.Bid(quantity=2, face=5) in legal and m.Bid(quantity=3, face=1) in legal
    for bad in (m.Bid(quantity=2, face=4), m.Bid(quantity=2, face=3), m.Bid(quantity=1, face=6)):
        assert bad not in legal
        with pytest.raises(IllegalCommand) as error:
            act(state, "red", bad)
        assert _rule(error) == "L-BID-2"
    assert bid_key(2, 1, wild_ones=False) < bid_key(2, 2, wild_ones=False)


def test_L_BID_3_ones_are_wild_for_other_faces_unless_the_option_says_not() -> None:
    # Two fives and two ones: four count for fives while ones are wild, two when not.
    for wild, loser in ((True, "blue"), (False, "red")):
        state = table((1, 5), (1, 5), bids=(("red", 4, 5),), active="blue", wild_ones=wild)
        events, _ = act(state, "blue", m.CallLiar())
        revealed = next(e for e in events if isinstance(e, m.CupsRevealed))
        assert revealed.count == (4 if wild else 2) and lost(events) == [loser]


def test_L_BID_4_ones_while_wild_count_alone_and_rank_by_halving() -> None:
    state = table((1, 1, 2), (1, 5, 5), (6, 6, 6), bids=(("red", 5, 4),), active="blue")
    legal = DECIDER.decision(state).legal("blue")
    assert m.Bid(quantity=3, face=1) in legal  # at least half of five, rounded up
    assert m.Bid(quantity=2, face=1) not in legal
    with pytest.raises(IllegalCommand) as error:
        act(state, "blue", m.Bid(quantity=2, face=1))
    assert _rule(error) == "L-BID-4"
    after_ones = table((1, 1, 2), (1, 5, 5), (6, 6, 6), bids=(("red", 3, 1),), active="blue")
    legal = DECIDER.decision(after_ones).legal("blue")
    assert m.Bid(quantity=7, face=2) in legal and m.Bid(quantity=6, face=6) not in legal
    assert m.Bid(quantity=4, face=1) in legal
    # A bid on ones counts only the ones: three ones are there (not the sixes).
    events, _ = act(after_ones, "blue", m.CallLiar())
    assert lost(events) == ["blue"]


def test_L_BID_5_the_opener_may_open_on_ones_and_nobody_calls_before() -> None:
    state = table((1, 2), (3, 4))
    legal = DECIDER.decision(state).legal("red")
    assert m.Bid(quantity=1, face=1) in legal
    assert all(isinstance(c, m.Bid) for c in legal)


def test_L_CALL_1_liar_needs_a_bid_to_call() -> None:
    state = table((1, 2), (3, 4))
    with pytest.raises(IllegalCommand) as error:
        act(state, "red", m.CallLiar())
    assert _rule(error) == "L-CALL-1"
    state = table((1, 2), (3, 4), bids=(("red", 1, 2),), active="blue")
    assert m.CallLiar() in DECIDER.decision(state).legal("blue")


def test_L_CALL_2_the_bidder_loses_if_the_count_falls_short_else_the_caller() -> None:
    short = table((2, 3), (4, 4), bids=(("red", 3, 4),), active="blue")
    events, after = act(short, "blue", m.CallLiar())
    revealed = events[0]
    assert isinstance(revealed, m.CupsRevealed)
    assert revealed.cups == {"red": (2, 3), "blue": (4, 4)} and revealed.count == 2
    assert lost(events) == ["red"] and after.last is not None and after.last.losers == ("red",)
    exact = table((2, 4), (4, 4), bids=(("red", 3, 4),), active="blue")
    events, _ = act(exact, "blue", m.CallLiar())
    assert lost(events) == ["blue"]


def test_L_SPOT_1_spot_on_only_with_the_option_and_after_a_bid() -> None:
    state = table((1, 2), (3, 4), bids=(("red", 1, 2),), active="blue")
    assert m.CallSpotOn() not in DECIDER.decision(state).legal("blue")
    with pytest.raises(IllegalCommand) as error:
        act(state, "blue", m.CallSpotOn())
    assert _rule(error) == "L-SPOT-1"
    with_option = table((1, 2), (3, 4), spot_on=True)
    with pytest.raises(IllegalCommand) as error:
        act(with_option, "red", m.CallSpotOn())
    assert _rule(error) == "L-SPOT-1"


def test_L_SPOT_2_exact_costs_everyone_else_a_die_wrong_costs_the_caller() -> None:
    state = table((2, 3), (4, 6), (4, 1), bids=(("red", 3, 4),), active="blue", spot_on=True)
    events, after = act(state, "blue", m.CallSpotOn())
    assert lost(events) == ["red", "green"] and after.counts() == (1, 2, 1)
    for quantity in (2, 4):  # one too few, one too many
        state = table(
            (2, 3), (4, 6), (4, 1), bids=(("red", quantity, 4),), active="blue", spot_on=True
        )
        events, after = act(state, "blue", m.CallSpotOn())
        assert lost(events) == ["blue"] and opener(events) == "blue"


def test_L_END_1_a_player_without_dice_is_out() -> None:
    state = table((2,), (3, 3), (4, 4), bids=(("red", 2, 5),), active="blue")
    _, after = act(state, "blue", m.CallLiar())
    assert after.in_game() == ("blue", "green")
    assert DECIDER.decision(after).acting == ("blue",)
    assert not DECIDER.decision(after).legal("red")


def test_L_END_2_the_last_player_with_dice_wins_scoring_dice_left() -> None:
    state = table((2,), (3, 3), bids=(("red", 2, 5),), active="blue")
    events, after = act(state, "blue", m.CallLiar())
    assert isinstance(events[-1], m.GameWon) and events[-1].seat == "blue"
    outcome = DECIDER.outcome(after)
    assert outcome is not None and outcome.winners == ("blue",)
    assert outcome.scores == {"red": 0, "blue": 2}
    assert DECIDER.decision(after).acting == ()
    with pytest.raises(IllegalCommand) as error:
        act(after, "blue", m.Bid(quantity=1, face=2))
    assert _rule(error) == "L-END-2"


@pytest.mark.parametrize("seed", (1, 2, 3))
def test_L_END_3_random_games_end_without_a_turn_limit(seed: int) -> None:
    session = new_game(6, game="liars-dice", seed=seed, options={"spot_on": True})
    players = {
        s: RECORD.players["random"](seed * 10 + i) for i, s in enumerate(session.header.seats)
    }
    play(session, players, RECORD.seat_view)
    outcome = session.outcome()
    assert outcome is not None and len(outcome.winners) == 1
    assert session.state.round <= 6 * 5 - 1 + 1
    session.close()
    assert verify_log(session.log_bytes()).valid


@pytest.mark.parametrize("wild", (True, False))
def test_L_BID_2_the_legal_bids_are_listed_weakest_first(wild: bool) -> None:
    state = table((1, 2, 3), (3, 4, 5), bids=(("blue", 2, 4),), wild_ones=wild)
    bids = [c for c in DECIDER.decision(state).legal("red") if isinstance(c, m.Bid)]
    keys = [bid_key(b.quantity, b.face, wild) for b in bids]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert bids[0] == m.Bid(quantity=2, face=5)
    if wild:  # "two ones" ranks above every bid of four dice, below five twos (L-BID-4)
        at = bids.index(m.Bid(quantity=2, face=1))
        assert bids[at - 1 : at + 2] == [
            m.Bid(quantity=4, face=6),
            m.Bid(quantity=2, face=1),
            m.Bid(quantity=5, face=2),
        ]
