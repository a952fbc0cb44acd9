"""Kaladan's event phase and event cards (K-EV-1..6, K-CARD-1), each of the 24 provisional
cards resolved in a position where it has something to do."""

from __future__ import annotations

import pytest
from kaladan_positions import at_phase, board_of, decide, of_type, placed, started, with_player

from nataterra_core.games.kaladan import messages as m
from nataterra_core.games.kaladan.board import Board
from nataterra_core.games.kaladan.content import load_pack
from nataterra_core.games.kaladan.state import Fallen, GameState
from nataterra_core.kernel import IllegalCommand

COVERS_ALL_EVENT_CARDS = True
EVENT_CARDS = list(load_pack().events)


def _rich_position(card: str, players: int = 2) -> tuple[object, GameState]:
    """Everyone with a castle, a general, a catapult on a mountain and an archer on a forest,
    fallen units in each other's graveyards, some gold; ``card`` on top of the event deck."""
    session = started(players)
    board = board_of(session)
    seats = session.state.seats
    armies = {}
    used: set[str] = set()
    for seat in seats:
        home = board.home(seat)
        armies[home] = (seat, ("crown", "general", "swordsman"))
        used.add(home)
        for unit in ("catapult", "archer"):
            near = next(
                t
                for t in board.tiles
                if t not in used
                and t not in board.castle_of
                and board.terrain[t] == ("mountain" if unit == "catapult" else "forest")
            )
            armies[near] = (seat, (unit,))
            used.add(near)
    state = placed(session.state, armies)
    for index, seat in enumerate(seats):
        victim = seats[(index + 1) % len(seats)]
        state = with_player(state, seat, gold=4 + index, graveyard=(Fallen(victim, "archer"),))
    deck = (card, *(c for c in state.event_deck if c != card))
    state = at_phase(state, seats[0], "event", event_deck=deck)
    return session, state


def _resolve(session, state: GameState) -> tuple[list[object], GameState]:  # type: ignore[no-untyped-def]
    """Draw the top card, then settle every awaited choice with its first option."""
    events, state = decide(session, state, state.active, m.DrawEventCard())
    seen = list(events)
    while state.pending:
        seat = state.pending[0].seat
        command = session.decider.decision(state).legal(seat)[0]
        more, state = decide(session, state, seat, command)
        seen += more
    return seen, state


def _meeting_conditions(card: str, state: GameState, board: Board) -> GameState:
    """Red meets the conditions no rich position meets by itself: no gold (Desertion), a
    castle beyond its own (Castle Feast)."""
    if card == "desertion":
        return with_player(state, "red", gold=0)
    if card == "castle_feast":
        blue_home = board.home("blue")
        free = next(t for t in board.tiles if t not in state.board and t not in board.castle_of)
        armies = {t: (a.owner, a.units) for t, a in state.board.items()}
        armies[free] = armies[blue_home]
        armies[blue_home] = ("red", ("swordsman",))
        return placed(state, armies)
    return state


@pytest.mark.parametrize("card", EVENT_CARDS)
def test_K_CARD_1_every_event_card_resolves_by_its_primitives(card: str) -> None:
    session, state = _rich_position(card)
    state = _meeting_conditions(card, state, board_of(session))
    events, after = _resolve(session, state)
    definition = load_pack().events[card]
    assert of_type(events, m.EventCardDrawn)[0].card == card
    assert after.phase != "event" and not after.pending  # K-EV-1: resolved fully first
    kinds = {e.kind for e in definition.effects}
    gold = [e for e in of_type(events, m.GoldChanged) if e.rule == "K-EV-1"]
    assert bool(gold) == ("gold" in kinds)
    assert bool(of_type(events, m.UnitRevived)) == ("revive" in kinds)
    assert bool(of_type(events, m.UnitUpgraded)) == ("upgrade" in kinds)
    assert bool(of_type(events, m.MagicDrawn)) == ("draw_magic" in kinds)
    removed = of_type(events, m.UnitRemoved)
    assert bool(removed) == ("lose_unit" in kinds)
    assert all(not r.scalp_of and r.unit != "crown" for r in removed)  # K-EV-6


def test_K_EV_1_personal_events_touch_the_active_player_global_ones_everyone() -> None:
    session, state = _rich_position("tithe")
    events, _ = _resolve(session, state)
    assert [(e.seat, e.amount) for e in of_type(events, m.GoldChanged) if e.rule == "K-EV-1"] == [
        ("red", 2)
    ]
    session, state = _rich_position("good_harvest", players=3)
    events, _ = _resolve(session, state)
    assert [e.seat for e in of_type(events, m.GoldChanged) if e.rule == "K-EV-1"] == [
        "red",
        "blue",
        "green",
    ]


def test_K_EV_2_a_condition_counts_units_on_the_board_never_in_the_reserve() -> None:
    session, state = _rich_position("siege_engineers")
    board = board_of(session)
    blue_catapult = next(
        t for t, a in state.board.items() if a.owner == "blue" and a.units == ("catapult",)
    )
    state = placed(
        state, {t: (a.owner, a.units) for t, a in state.board.items() if t != blue_catapult}
    )
    assert state.player("blue").reserve["catapult"] >= 1
    events, _ = _resolve(session, state)
    assert [e.seat for e in of_type(events, m.GoldChanged) if e.rule == "K-EV-1"] == ["red"]
    assert board.home("red")


def test_K_EV_3_revival_from_a_chosen_graveyard_returns_without_the_upgrade() -> None:
    session, state = _rich_position("resurrection", players=3)
    # red's units fell to blue (an upgraded archer: it lost its upgrade) and to green.
    state = with_player(state, "blue", graveyard=(Fallen("red", "archer"),))
    state = with_player(state, "green", graveyard=(Fallen("red", "catapult"),))
    _, drawn = decide(session, state, "red", m.DrawEventCard())
    legal = session.decider.decision(drawn).legal("red")
    assert set(legal) == {
        m.Revive(source="blue", unit="archer"),
        m.Revive(source="green", unit="catapult"),
    }
    before = drawn.player("red").reserve.get("archer", 0)
    _, after = decide(session, drawn, "red", m.Revive(source="blue", unit="archer"))
    assert after.player("red").reserve["archer"] == before + 1
    assert after.player("blue").graveyard == ()  # no longer blue's scalp
    with pytest.raises(IllegalCommand) as raised:
        decide(session, drawn, "red", m.Revive(source="green", unit="archer"))
    assert raised.value.rule_id == "K-EV-3"


def test_K_EV_3_a_revived_upgraded_unit_returns_unupgraded() -> None:
    session = started()
    board = board_of(session)
    state = placed(
        session.state,
        {
            board.home("red"): ("red", ("crown", "archer+")),
            board.home("blue"): ("blue", ("crown",)),
        },
    )
    removed = m.UnitRemoved(owner="red", tile=board.home("red"), unit="archer+", scalp_of="blue")
    state = session.decider.evolve(state, removed)
    assert state.player("blue").graveyard == (Fallen("red", "archer"),)
    state = at_phase(state, "red", "event", event_deck=("resurrection", "tithe"))
    events, after = _resolve(session, state)
    assert of_type(events, m.UnitRevived)[0].unit == "archer"
    assert "archer+" not in after.player("red").reserve


def test_K_EV_3_with_no_fallen_unit_nothing_happens() -> None:
    session, state = _rich_position("resurrection")
    state = with_player(state, "blue", graveyard=())
    events, after = decide(session, state, "red", m.DrawEventCard())
    assert not of_type(events, m.ChoiceAwaited) and not after.pending


def test_K_EV_4_a_free_upgrade_costs_nothing_and_only_units_on_the_board() -> None:
    session, state = _rich_position("blacksmith")
    _, drawn = decide(session, state, "red", m.DrawEventCard())
    legal = session.decider.decision(drawn).legal("red")
    assert legal and all(isinstance(c, m.FreeUpgrade) and c.unit != "crown" for c in legal)
    gold = drawn.player("red").gold
    _, after = decide(session, drawn, "red", legal[0])
    assert after.player("red").gold == gold
    assert any(u.endswith("+") for u in after.units_on(legal[0].tile))  # type: ignore[attr-defined]


def test_K_EV_5_richest_and_strongest_include_everyone_tied() -> None:
    session, state = _rich_position("royal_tax", players=3)
    state = with_player(with_player(state, "red", gold=7), "green", gold=7)
    events, _ = _resolve(session, state)
    assert [(e.seat, e.amount) for e in of_type(events, m.GoldChanged)] == [
        ("red", -2),
        ("green", -2),
    ]
    session, state = _rich_position("war_spoils", players=3)
    events, _ = _resolve(session, state)
    assert [e.seat for e in of_type(events, m.GoldChanged)] == ["red", "blue", "green"]


def test_K_EV_6_units_removed_by_events_return_to_the_reserve_and_are_no_scalps() -> None:
    session, state = _rich_position("plague")
    _, drawn = decide(session, state, "red", m.DrawEventCard())
    legal = session.decider.decision(drawn).legal("red")
    assert m.LoseUnit(tile=board_of(session).home("red"), unit="crown") not in legal
    choice = next(c for c in legal if isinstance(c, m.LoseUnit) and c.unit == "general")
    _, after = decide(session, drawn, "red", choice)
    assert after.player("red").reserve.get("general") == 1
    assert after.player("blue").graveyard == drawn.player("blue").graveyard
    assert after.pending[0].seat == "blue"  # global: every player, in turn
