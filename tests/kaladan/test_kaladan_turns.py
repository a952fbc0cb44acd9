"""Kaladan's set-up and turn (K-SET-1..3, K-TURN-1, K-REC-1, K-ACT-1..4, K-BUY-1..3,
K-REI-1) and capacity everywhere (K-TER-1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kaladan_positions import (
    at_phase,
    board_of,
    decide,
    empty_hands,
    of_type,
    placed,
    started,
    with_player,
)

from nataterra_core.game import new_game
from nataterra_core.games.kaladan import messages as m
from nataterra_core.games.kaladan.board import board_for
from nataterra_core.games.kaladan.content import load_pack
from nataterra_core.games.kaladan.state import PHASES
from nataterra_core.kernel import IllegalCommand, RandomPlayer
from nataterra_core.kernel.registry import system


def test_K_SET_1_maps_for_2_3_and_4_players_with_castles_at_the_edge() -> None:
    pack = load_pack()
    for players in (2, 3, 4):
        session = started(players)
        board = board_of(session)
        assert len(board.castle_of) == players
        for castle in board.castle_of:
            assert len(board.neighbours[castle]) < 6  # at the map's edge
            assert board.terrain[castle] == "plain" and board.capacity_of[castle] == 4
        assert pack.maps[session.state.map_id].players == players


def test_K_SET_2_K_SET_3_what_each_player_starts_with() -> None:
    session = started(3)
    state = session.state
    board = board_of(session)
    assert state.seats == ("red", "blue", "green")
    start = session.lines[1]
    assert b'"deck":"events"' in start and b'"deck":"magic"' in start
    assert b"first_player_drawn" in start
    for player in state.players:
        special = load_pack().seats[player.seat].special
        home = board.home(player.seat)
        assert state.units_on(home) == ("crown", "general", "swordsman", "swordsman")
        assert player.reserve == {
            "swordsman": 4,
            "archer": 4,
            "shieldbearer": 4,
            "catapult": 2,
            special: 1,
        }
        assert player.gold == 3
        assert len(player.hand) == 2
    assert len(state.event_deck) + len(state.event_discard) == 24
    assert {load_pack().seats[s].special for s in ("red", "blue", "green", "yellow")} == {
        "knight",
        "warden",
        "ranger",
        "siege_master",
    }


def test_K_SET_3_seats_are_the_colours_in_order() -> None:
    with pytest.raises(ValueError, match="K-SET-3"):
        new_game(("blue", "red"), game="kaladan", seed=1)


def test_K_TURN_1_six_phases_always_in_order() -> None:
    record = system("kaladan")
    session = started(2, seed=5)
    bots = {seat: RandomPlayer(i) for i, seat in enumerate(session.header.seats)}
    turns: list[list[str]] = [["event"]]  # the first turn began in the start record
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        for event in session.apply(
            seat,
            bots[seat].choose(record.seat_view(session.state, seat), session.legal_commands(seat)),
        ):
            if isinstance(event, m.TurnStarted):
                turns.append([])
            elif isinstance(event, m.PhaseStarted):
                turns[-1].append(event.phase)
    assert len(turns) > 20
    for phases in turns[:-1]:
        assert phases in (list(PHASES), list(PHASES[1:]))  # the last round has no event phase


def test_K_REC_1_one_free_base_unit_per_castle_declining_is_a_command() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    state = placed(
        session.state,
        {home: ("red", ("crown", "general")), board.home("blue"): ("blue", ("crown",))},
    )
    state = at_phase(state, "red", "event", event_deck=("tithe", "storm"))
    _, state = decide(session, state, "red", m.DrawEventCard())
    assert state.phase == "recruit"
    legal = session.decider.decision(state).legal("red")
    assert set(legal) == {
        m.Recruit(castle=home, unit="swordsman"),
        m.Recruit(castle=home, unit="archer"),
        m.Recruit(castle=home, unit="shieldbearer"),
        m.DeclineRecruit(castle=home),
    }
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", m.Recruit(castle=home, unit="catapult"))
    assert raised.value.rule_id == "K-REC-1"
    _, after = decide(session, state, "red", m.Recruit(castle=home, unit="archer"))
    assert after.units_on(home) == ("archer", "crown", "general") and after.phase != "recruit"


def test_K_ACT_1_moving_together_to_an_adjacent_own_or_empty_tile_never_an_enemy_one() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    near = board.neighbours[home][0]
    far = next(t for t in board.neighbours[near] if t != home and t not in board.castle_of)
    state = placed(
        session.state,
        {
            home: ("red", ("crown", "general", "swordsman")),
            near: ("blue", ("archer",)),
            board.home("blue"): ("blue", ("crown",)),
        },
    )
    # red holds a card it cannot play now: the phase waits for its end (K-TURN-1)
    state = at_phase(with_player(empty_hands(state), "red", hand=("shield",)), "red", "action")
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", m.Move(source=home, target=near, units=("swordsman",)))
    assert raised.value.rule_id == "K-ACT-1"
    state = placed(
        state,
        {
            home: ("red", ("crown", "general", "swordsman")),
            board.home("blue"): ("blue", ("crown",)),
        },
    )
    _, after = decide(
        session, state, "red", m.Move(source=home, target=near, units=("general", "swordsman"))
    )
    assert after.units_on(near) == ("general", "swordsman") and after.action_done
    with pytest.raises(IllegalCommand) as raised:
        decide(session, after, "red", m.Move(source=near, target=far, units=("general",)))
    assert raised.value.rule_id == "K-ACT-3"  # one action per turn


def test_K_ACT_2_swaps_are_one_for_one_or_one_for_many_within_capacity() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    near = next(t for t in board.neighbours[home] if board.capacity_of[t] == 3)
    state = placed(
        session.state,
        {
            home: ("red", ("crown", "general", "swordsman", "swordsman")),
            near: ("red", ("archer", "catapult")),
            board.home("blue"): ("blue", ("crown",)),
        },
    )
    state = at_phase(empty_hands(state), "red", "action")
    legal = session.decider.decision(state).legal("red")
    swaps = [c for c in legal if isinstance(c, m.Swap)]
    assert swaps and all(len(s.give) == 1 or len(s.take) == 1 for s in swaps)
    first, second = sorted((home, near))
    at_home, there = ("general", "swordsman"), ("archer", "catapult")
    give, take = (at_home, there) if first == home else (there, at_home)
    bad = m.Swap(first=first, second=second, give=give, take=take)  # n for n
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", bad)
    assert raised.value.rule_id == "K-ACT-2"


def test_K_ACT_3_K_ACT_4_one_fight_from_one_tile_the_crown_may_fight_adjacent_only() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    near = board.neighbours[home][0]
    far = next(
        t
        for t in board.tiles
        if t not in board.neighbours[home] and t != home and t not in board.castle_of
    )
    state = placed(
        session.state,
        {
            home: ("red", ("catapult", "crown")),
            near: ("blue", ("archer",)),
            far: ("blue", ("archer",)),
            board.home("blue"): ("blue", ("crown",)),
        },
    )
    state = at_phase(empty_hands(state), "red", "action")
    legal = session.decider.decision(state).legal("red")
    assert m.Fight(source=home, target=near, units=("crown",)) in legal
    assert not [c for c in legal if isinstance(c, m.Fight) and c.target == far]
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", m.Fight(source=home, target=far, units=("catapult",)))
    assert raised.value.rule_id == "K-ACT-3"


def test_K_BUY_1_K_BUY_2_prices_and_what_they_buy() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    state = placed(
        session.state,
        {home: ("red", ("crown", "general")), board.home("blue"): ("blue", ("crown",))},
    )
    state = at_phase(with_player(state, "red", gold=20), "red", "buy")
    steps = [
        (m.Place(tile=home, unit="catapult"), 2),
        (m.Upgrade(tile=home, unit="general"), 4),
        (m.UpgradeCastle(tile=home), 4),
        (m.BuyMagic(), 4),
    ]
    for command, cost in steps:
        gold = state.player("red").gold
        _, state = decide(session, state, "red", command)
        assert state.player("red").gold == gold - cost, command
    assert home in state.castle_upgrades
    assert m.UpgradeCastle(tile=home) not in session.decider.decision(state).legal("red")  # once
    kind = state.player("red").hand[0]
    gold, size = state.player("red").gold, len(state.player("red").hand)
    _, state = decide(session, state, "red", m.ExchangeMagic(card=kind))
    assert state.player("red").gold == gold - 2 and len(state.player("red").hand) == size
    with pytest.raises(IllegalCommand) as raised:
        decide(
            session, with_player(state, "red", gold=1), "red", m.Place(tile=home, unit="catapult")
        )
    assert raised.value.rule_id == "K-BUY-2"


def test_K_BUY_1_K_HID_1_with_both_magic_piles_empty_buying_is_refused() -> None:
    session = started()
    state = at_phase(
        with_player(session.state, "red", gold=10), "red", "buy", magic_deck=(), magic_discard=()
    )
    legal = session.decider.decision(state).legal("red")
    assert m.BuyMagic() not in legal
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", m.BuyMagic())
    assert raised.value.rule_id == "K-BUY-1"
    state = at_phase(
        with_player(session.state, "red", gold=10),
        "red",
        "buy",
        magic_deck=(),
        magic_discard=("haste", "scout"),
    )
    events, after = decide(session, state, "red", m.BuyMagic())
    assert of_type(events, m.DeckShuffled)[0].deck == "magic"  # a recorded reshuffle
    assert len(after.player("red").hand) == len(state.player("red").hand) + 1


def test_K_BUY_3_one_empty_tile_next_to_your_territory_per_buy_phase() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    a, b = board.neighbours[home][:2]
    remote = next(
        t
        for t in board.tiles
        if t not in board.neighbours[home] and t != home and t not in board.castle_of
    )
    state = placed(
        session.state, {home: ("red", ("crown",)), board.home("blue"): ("blue", ("crown",))}
    )
    state = at_phase(with_player(state, "red", gold=20), "red", "buy")
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", m.Place(tile=remote, unit="archer"))
    assert raised.value.rule_id == "K-BUY-3"
    _, state = decide(session, state, "red", m.Place(tile=a, unit="archer"))
    _, state = decide(session, state, "red", m.Place(tile=a, unit="archer"))  # same tile: fine
    assert state.units_on(a) == ("archer", "archer")
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", m.Place(tile=b, unit="archer"))
    assert raised.value.rule_id == "K-BUY-3"


def test_K_REI_1_one_unit_one_manoeuvre_then_the_turn_ends() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    near = board.neighbours[home][0]
    state = placed(
        session.state,
        {
            home: ("red", ("crown", "general", "swordsman")),
            board.home("blue"): ("blue", ("crown",)),
        },
    )
    state = at_phase(state, "red", "reinforce")
    with pytest.raises(IllegalCommand) as raised:
        decide(
            session, state, "red", m.Move(source=home, target=near, units=("general", "swordsman"))
        )
    assert raised.value.rule_id == "K-REI-1"
    events, after = decide(
        session, state, "red", m.Move(source=home, target=near, units=("general",))
    )
    assert of_type(events, m.TurnStarted)[0].seat == "blue" and after.active == "blue"


@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10_000), players=st.integers(min_value=2, max_value=4)
)
def test_K_TER_1_no_tile_ever_holds_more_units_than_its_capacity(seed: int, players: int) -> None:
    record = system("kaladan")
    session = new_game(players, game="kaladan", seed=seed)
    board = board_for(load_pack(), session.state.map_id)
    bots = {s: RandomPlayer(seed + i) for i, s in enumerate(session.header.seats)}
    while session.outcome() is None:
        for tile, army in session.state.board.items():
            assert 0 < len(army.units) <= board.capacity_of[tile], (tile, army)
        seat = session.acting_seats()[0]
        session.apply(
            seat,
            bots[seat].choose(record.seat_view(session.state, seat), session.legal_commands(seat)),
        )
