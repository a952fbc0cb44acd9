"""Set-up (rules §2), turn flow (N-TURN-1) and the turn limit (N-WIN-6) on real games."""

from __future__ import annotations

import itertools

import pytest

from nataterra_core.game import decider_for, new_game
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.setup import DeckShuffled, FirstPlayerDrawn
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.kernel import IllegalCommand, NotYourTurn, UndoRefused, read_log


@pytest.mark.parametrize("players", [2, 3, 4])
def test_N_SETUP_1_learning_seats(players: int) -> None:
    session = new_game(players, seed=1)
    expected = ("velathi", "beasts", "humans", "naga")[:players]
    assert session.header.seats == expected
    state = session.state
    for civ in expected:
        assert state.owners_in(session.decider.context(state.map_id).map.base_of(civ)) == {civ}


def test_N_SETUP_1_wrong_civilisations_are_refused() -> None:
    with pytest.raises(ValueError, match="N-SETUP-1"):
        new_game(("velathi", "naga"), seed=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_N_SETUP_2_first_player_is_drawn_from_the_seed(players: int) -> None:
    firsts = set()
    for seed in range(40):
        session = new_game(players, seed=seed)
        firsts.add(session.state.active_seat)
        assert session.state.active_seat == session.state.seats[session.state.first]
    assert len(firsts) == players  # over 40 seeds every seat started at least once


def test_N_SETUP_3_starting_resources_and_second_player_food() -> None:
    session = new_game(2, seed=3)
    state = session.state
    second = state.seats[(state.first + 1) % 2]
    for player in state.players:
        extra = 1 if player.civ == second else 0
        assert player.stock == Resources(4 + extra, 3, 3)
        assert player.multipliers == Resources(1, 1, 1)
    three = new_game(3, seed=3).state
    assert all(p.stock == Resources(4, 3, 3) for p in three.players)


def test_N_SETUP_4_tech_hand_and_shuffled_decks() -> None:
    session = new_game(2, seed=5)
    pack = session.decider.pack
    for player in session.state.players:
        numbers = sorted(pack.techs[t].number for t in player.tech_hand)
        assert numbers == [1, 2, 3]
        assert len(player.tech_deck) == 13
        assert sorted(player.tactic_deck) == sorted(t.id for t in pack.tactic_deck(player.civ))
    assert {len(d) for d in session.state.biome_decks.values()} == {8, 13}
    # All set-up randomness is in the start record (docs/LOG_FORMAT.md).
    start = session.lines[1].decode()
    assert start.count('"deck_shuffled.v1"') == 2 + 4
    assert '"first_player_drawn.v1"' in start


def test_N_SETUP_4_shuffle_events_record_before_and_after() -> None:
    session = new_game(2, seed=5)
    log = read_log(session.log_bytes(), decider_for)
    events = log.records[1].events  # type: ignore[attr-defined]
    shuffles = [e for e in events if isinstance(e, DeckShuffled)]
    assert all(sorted(e.before) == sorted(e.after) for e in shuffles)
    counters = [(e.counter_before, e.counter_after) for e in events if hasattr(e, "counter_after")]
    assert all(a[1] == b[0] for a, b in itertools.pairwise(counters))
    assert isinstance(events[0], FirstPlayerDrawn)


def test_N_SETUP_5_and_6_workers_and_pools() -> None:
    state = new_game(2, seed=1).state
    pack = new_game(2, seed=1).decider.pack
    for player in state.players:
        worker = pack.worker_of(player.civ)
        on_map = sum(s.count for s in state.stacks_of(player.civ))
        assert on_map == 3
        assert player.pool[worker.id] == 3
        assert player.worker_supply == 6
        for unit in pack.units_of(player.civ):
            if unit.role == "worker":
                continue
            if unit.unlock == "start":
                assert player.pool[unit.id] == unit.group_size
            else:
                assert player.pool[unit.id] == 0
            assert player.pool[unit.id] + player.locked[unit.id] == unit.tokens


def test_N_SETUP_7_naga_starts_with_two_flare() -> None:
    state = new_game(4, seed=1).state
    assert state.player("naga").flare == 2
    assert state.player("velathi").flare == 0


def test_N_TURN_1_phases_in_order_then_next_seat() -> None:
    session = new_game(3, seed=2)
    first = session.state.active_seat
    phases = []
    for phase in ("movement", "resources", "combat", "development"):
        phases.append(session.state.phase)
        session.apply(first, EndPhase(phase=phase))
    assert phases == ["movement", "resources", "combat", "development"]
    seats = session.state.seats
    assert session.state.active_seat == seats[(seats.index(first) + 1) % 3]
    assert session.state.turn == 2


def test_N_TURN_1_ending_another_phase_is_refused() -> None:
    session = new_game(2, seed=2)
    seat = session.state.active_seat
    with pytest.raises(IllegalCommand) as info:
        session.apply(seat, EndPhase(phase="combat"))
    assert info.value.rule_id == "N-TURN-1"


def test_N_TURN_1_only_the_active_seat_acts() -> None:
    session = new_game(2, seed=2)
    other = next(s for s in session.state.seats if s != session.state.active_seat)
    with pytest.raises(NotYourTurn):
        session.apply(other, EndPhase(phase="movement"))
    assert session.legal_commands(other) == ()


def test_N_TURN_1_units_move_only_in_the_movement_phase() -> None:
    session = new_game(2, seed=2)
    seat = session.state.active_seat
    move = next(c for c in session.legal_commands(seat) if isinstance(c, MoveUnits))
    session.apply(seat, EndPhase(phase="movement"))
    with pytest.raises(IllegalCommand, match="N-TURN-1"):
        session.apply(seat, move)


def test_N_RES_1_resources_are_gathered_on_entering_the_phase() -> None:
    session = new_game(2, seed=2)
    seat = session.state.active_seat
    before = session.state.player(seat).stock
    events = session.apply(seat, EndPhase(phase="movement"))
    gathered = events[-1]
    assert type(gathered).__name__ == "ResourcesGathered"
    # Three workers on a base zone without a resource gather nothing on turn 1.
    assert session.state.player(seat).stock == before + gathered.gain  # type: ignore[attr-defined]


def test_N_WIN_6_turn_limit_ends_the_game_drawn() -> None:
    session = new_game(2, seed=4, options={"max_turns": 3})
    while session.outcome() is None:
        seat = session.state.active_seat
        session.apply(seat, EndPhase(phase=session.state.phase))
    outcome = session.outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.draw, outcome.winners) == ("turn_limit", True, ())
    assert session.state.turn == 3
    assert '"max_turns":3' in session.lines[0].decode()


def test_undo_of_a_move_within_the_turn_but_not_across_the_turn() -> None:
    session = new_game(2, seed=6)
    seat = session.state.active_seat
    before = session.state
    move = next(c for c in session.legal_commands(seat) if isinstance(c, MoveUnits))
    session.apply(seat, move)
    session.undo(seat)
    assert session.state == before
    for phase in ("movement", "resources", "combat", "development"):
        session.apply(seat, EndPhase(phase=phase))
    with pytest.raises(UndoRefused):
        session.undo(seat)


def test_N_SETUP_6_structures_locked_except_the_humans_farm() -> None:
    state = new_game(3, seed=1).state
    assert state.player("humans").structures_unlocked == ("farm",)
    assert state.player("velathi").structures_unlocked == ()
    assert state.player("beasts").structures_unlocked == ()
