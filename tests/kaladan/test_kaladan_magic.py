"""Kaladan's magic cards (K-CARD-2): each of the eight kinds at the time it names, one card
per phase, the Assassin's scalps, the combat windows (K-ACT-4, K-HID-1)."""

from __future__ import annotations

import pytest
from kaladan_positions import (
    at_phase,
    beside_castle,
    board_of,
    decide,
    empty_hands,
    of_type,
    placed,
    seed_where,
    started,
    with_player,
)

from nataterra_core.game import new_game
from nataterra_core.games.kaladan import messages as m
from nataterra_core.games.kaladan.state import Fallen
from nataterra_core.kernel import IllegalCommand, RandomPlayer
from nataterra_core.kernel.registry import system
from nataterra_core.kernel.visibility import log_view

COVERS_ALL_MAGIC_CARDS = True


def _duel(hand: tuple[str, ...], phase: str = "action", blue_hand: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    session = started(2)
    board = board_of(session)
    home, near = beside_castle(board, "red")
    enemy = next(t for t in board.neighbours[near] if t != home and t not in board.castle_of)
    state = placed(
        session.state,
        {
            home: ("red", ("crown", "general")),
            near: ("red", ("archer", "swordsman")),
            enemy: ("blue", ("shieldbearer", "swordsman+")),
            board.home("blue"): ("blue", ("crown",)),
        },
    )
    state = with_player(
        with_player(empty_hands(state), "red", hand=hand, gold=6), "blue", hand=blue_hand
    )
    return session, at_phase(state, "red", phase), home, near, enemy


def test_assassin_kills_on_a_strictly_higher_roll_and_takes_a_scalp_K_ACT_4() -> None:
    session, state, _, _, enemy = _duel(("assassin",))
    legal = session.decider.decision(state).legal("red")
    targets = {(c.tile, c.unit) for c in legal if isinstance(c, m.PlayMagic)}
    assert targets == {(enemy, "shieldbearer"), (enemy, "swordsman+")}  # never a crown
    command = m.PlayMagic(card="assassin", tile=enemy, unit="swordsman+")
    events, after = seed_where(
        session, state, "red", command, lambda ev, _: bool(of_type(ev, m.UnitRemoved))
    )
    roll = of_type(events, m.AssassinRolled)[0]
    assert roll.ms == (10, 10) and roll.values[0] > roll.values[1]  # swordsman+ defends with a d10
    assert after.player("red").graveyard == (Fallen("blue", "swordsman"),)
    assert not after.action_done  # K-ACT-4: the Assassin is not the action
    events, missed = seed_where(
        session, state, "red", command, lambda ev, _: not of_type(ev, m.UnitRemoved)
    )
    roll = of_type(events, m.AssassinRolled)[0]
    assert roll.values[0] <= roll.values[1] and missed.player("red").graveyard == ()


def test_battle_cry_and_shield_join_the_pools_before_the_first_roll() -> None:
    session, state, _, near, enemy = _duel(("battle_cry",), blue_hand=("shield",))
    _, state = decide(session, state, "red", m.Fight(source=near, target=enemy, units=("archer",)))
    assert state.combat is not None and state.combat.stage == "attack_magic"
    assert set(session.decider.decision(state).legal("red")) == {
        m.PlayMagic(card="battle_cry"),
        m.Pass(),
    }
    _, state = decide(session, state, "red", m.PlayMagic(card="battle_cry"))
    assert state.combat is not None and state.combat.stage == "defence_magic"
    events, _ = decide(session, state, "blue", m.PlayMagic(card="shield"))
    roll = of_type(events, m.CombatRolled)[0]
    attack = len(roll.attack)
    assert roll.ms[0] == 10 and 6 in roll.ms[1:attack] and 6 in roll.ms[attack:]


def test_a_window_asks_any_holder_of_a_card_so_it_reveals_nothing_K_HID_1() -> None:
    session, state, _, near, enemy = _duel((), blue_hand=("haste",))
    _, state = decide(session, state, "red", m.Fight(source=near, target=enemy, units=("archer",)))
    assert state.combat is not None and state.combat.stage == "defence_magic"
    assert session.decider.decision(state).legal("blue") == (m.Pass(),)


def test_haste_gives_one_extra_move_before_the_action_one_card_per_phase() -> None:
    session, state, _, _, enemy = _duel(("haste", "assassin"))
    _, state = decide(session, state, "red", m.PlayMagic(card="haste"))
    legal = session.decider.decision(state).legal("red")
    assert not [c for c in legal if isinstance(c, m.PlayMagic)]  # one card per phase
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", m.PlayMagic(card="assassin", tile=enemy, unit="shieldbearer"))
    assert raised.value.rule_id == "K-CARD-2"
    haste = next(c for c in legal if isinstance(c, m.Move) and c.haste)
    _, state = decide(session, state, "red", haste)
    assert state.extra_moves == 0 and not state.action_done
    assert any(isinstance(c, m.Fight) for c in session.decider.decision(state).legal("red"))


def test_tax_collector_pays_one_gold_per_castle_in_the_income_phase() -> None:
    session, state, *_ = _duel(("tax_collector",), phase="income")
    gold = state.player("red").gold
    _, after = decide(session, state, "red", m.PlayMagic(card="tax_collector"))
    assert after.player("red").gold == gold + 1 and after.phase == "action"


def test_sabotage_strips_an_adjacent_enemy_castle_of_its_upgrade() -> None:
    session = started(2)
    board = board_of(session)
    home, near = beside_castle(board, "blue")
    state = placed(
        session.state,
        {
            board.home("red"): ("red", ("crown",)),
            near: ("red", ("archer",)),
            home: ("blue", ("crown",)),
        },
    )
    state = at_phase(
        with_player(empty_hands(state), "red", hand=("sabotage",)),
        "red",
        "action",
        castle_upgrades=(home,),
    )
    _, after = decide(session, state, "red", m.PlayMagic(card="sabotage", tile=home))
    assert after.castle_upgrades == ()


def test_scout_reorders_the_top_event_cards_seen_only_by_the_scout() -> None:
    session, state, *_ = _duel(("scout",), phase="event")
    state = at_phase(state, "red", "event", event_deck=("tithe", "storm", "plague"))
    _, state = decide(session, state, "red", m.PlayMagic(card="scout"))
    record = system("kaladan")
    assert record.seat_view(state, "red").scouted == ("tithe", "storm")
    assert record.seat_view(state, "blue").scouted == ()
    _, state = decide(session, state, "red", m.ScoutOrder(swap=True))
    assert state.event_deck[:2] == ("storm", "tithe")
    events, _ = decide(session, state, "red", m.DrawEventCard())
    assert of_type(events, m.EventCardDrawn)[0].card == "storm"


def test_raise_the_fallen_takes_your_unit_from_a_graveyard_in_the_buy_phase() -> None:
    session, state, *_ = _duel(("raise_the_fallen",), phase="buy")
    state = with_player(state, "blue", graveyard=(Fallen("red", "catapult"),))
    legal = session.decider.decision(state).legal("red")
    assert m.PlayMagic(card="raise_the_fallen", source="blue", unit="catapult") in legal
    _, after = decide(
        session, state, "red", m.PlayMagic(card="raise_the_fallen", source="blue", unit="catapult")
    )
    assert after.player("red").reserve["catapult"] == 3 and after.player("blue").graveyard == ()


def test_K_HID_1_drawn_cards_and_deck_orders_are_hidden_in_the_log() -> None:
    session = new_game(2, game="kaladan", seed=4)
    decider = session.decider
    start = log_view(session.lines, "blue", decider).records[1]
    for event in start["events"]:
        if event["type"] == "magic_drawn.v1" and event["seat"] != "blue":
            assert "cards" not in event and event["redacted"] == ["cards"]
        if event["type"] == "deck_shuffled.v1":
            assert "after" not in event and event["size"] > 0
    mine = [e for e in start["events"] if e["type"] == "magic_drawn.v1" and e["seat"] == "blue"]
    assert all("cards" in e for e in mine)


def test_K_HID_1_no_public_record_tells_copies_of_a_card_apart() -> None:
    """A played, exchanged or discarded card is named by its kind alone: had the record said
    which copy left a hidden hand (``assassin#2``), a seat would learn where the other copy
    is (issue 30 item 4)."""
    record = system("kaladan")
    session = new_game(3, game="kaladan", seed=3)
    pack = session.decider.pack  # type: ignore[attr-defined]
    kinds = set(pack.magic)
    players = {seat: RandomPlayer(i) for i, seat in enumerate(session.header.seats)}
    seen: set[str] = set()
    while session.outcome() is None and len(session.lines) < 400:
        seat = session.acting_seats()[0]
        session.apply(seat, players[seat].choose(None, session.legal_commands(seat)))
    for line in log_view(session.lines, None, session.decider).records[1:]:
        for event in line.get("events", ()):
            if event["type"] in ("magic_played.v1", "magic_discarded.v1"):
                seen.add(event["card"])
    assert seen and seen <= kinds, f"cards named by copy: {sorted(seen - kinds)}"
    view = record.seat_view(session.state, None)
    assert set(view.magic_discard) <= kinds and set(pack.magic_cards()) == kinds
