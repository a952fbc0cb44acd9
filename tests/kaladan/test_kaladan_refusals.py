"""A refused Kaladan command names the clause of the check it fails (§8 of the rules): a fight
with units not on its tile is K-FIG-2, a recruit onto a full castle K-TER-1, an upgrade without
the gold K-BUY-2, a magic card out of its phase K-CARD-2; in random play every refusal names a
``K-`` clause and leaves the game as it was."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kaladan_positions import at_phase, board_of, decide, empty_hands, placed, started, with_player
from refusal_play import refusals_name_clauses

from nataterra_core.game import new_game
from nataterra_core.games.kaladan import messages as m
from nataterra_core.kernel import IllegalCommand


def test_K_FIG_2_a_fight_commits_units_of_its_own_tile_and_K_ACT_3_only_against_an_enemy() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    near = board.neighbours[home][0]
    state = placed(
        session.state,
        {
            home: ("red", ("crown", "general")),
            near: ("blue", ("archer",)),
            board.home("blue"): ("blue", ("crown",)),
        },
    )
    state = at_phase(empty_hands(state), "red", "action")
    fight = m.Fight(source=home, target=near, units=("catapult",))
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, "red", fight)
    assert raised.value.rule_id == "K-FIG-2"
    mine = placed(state, {home: ("red", ("crown", "general")), near: ("red", ("archer",))})
    with pytest.raises(IllegalCommand) as raised:
        decide(session, mine, "red", m.Fight(source=home, target=near, units=("general",)))
    assert raised.value.rule_id == "K-ACT-3"


def test_K_TER_1_a_recruit_onto_a_full_castle_and_K_BUY_2_an_upgrade_without_gold() -> None:
    session = started()
    board = board_of(session)
    home = board.home("red")
    full = ("crown", "general", "swordsman", "archer")[: board.capacity_of[home]]
    state = placed(session.state, {home: ("red", full), board.home("blue"): ("blue", ("crown",))})
    recruit = at_phase(empty_hands(state), "red", "recruit")
    with pytest.raises(IllegalCommand) as raised:
        decide(session, recruit, "red", m.Recruit(castle=home, unit="swordsman"))
    assert raised.value.rule_id == "K-TER-1"
    buy = with_player(at_phase(empty_hands(state), "red", "buy"), "red", gold=0)
    with pytest.raises(IllegalCommand) as raised:
        decide(session, buy, "red", m.Upgrade(tile=home, unit="general"))
    assert raised.value.rule_id == "K-BUY-2"


def test_K_CARD_2_a_magic_card_out_of_its_phase() -> None:
    session = started()
    state = session.state
    kind = next(c for c in state.player(state.active).hand)
    timing = session.decider.pack.magic[kind].timing  # type: ignore[attr-defined]
    phase = next(p for p in ("action", "buy", "reinforce") if p != timing)
    state = at_phase(state, state.active, phase)
    with pytest.raises(IllegalCommand) as raised:
        decide(session, state, state.active, m.PlayMagic(card=kind))
    assert raised.value.rule_id == "K-CARD-2" and "phase" in raised.value.message


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**16), players=st.sampled_from((2, 3)))
def test_every_refusal_names_a_K_clause_and_changes_nothing(seed: int, players: int) -> None:
    """Any command once legal but not now is refused with a ``K-`` clause (never another
    error), and the game goes on unchanged."""
    session = new_game(players, game="kaladan", seed=seed)
    assert refusals_name_clauses(session, "K", seed, 60) > 0
