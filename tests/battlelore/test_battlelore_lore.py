"""Lore and the war council (B-ADV-3, B-ADV-4, B-ADV-5), in the war-council scenario."""

from __future__ import annotations

from bl_helpers import act, position, pt, unit
from msgspec.structs import replace

from nataterra_core.game import new_game
from nataterra_core.games.battlelore import messages as m
from nataterra_core.games.battlelore.decider import BattleLore
from nataterra_core.games.battlelore.state import BattleLoreState


def _lore(
    state: BattleLoreState, seat: str, cards: tuple[str, ...], tokens: int
) -> BattleLoreState:
    i = state.seats.index(seat)
    sides = list(state.sides)
    sides[i] = replace(sides[i], lore_hand=cards, lore_tokens=tokens, lore_limit=3)
    return replace(state, sides=(sides[0], sides[1]))


def _duel() -> tuple[BattleLore, BattleLoreState]:
    """English red foot next to French blue foot, the English battling, with lore in play."""
    return position(
        unit("e1", "english", "foot_red", (6, 6)),
        unit("f1", "french", "foot_blue", (6, 5)),
        scenario="war-council",
        card="probe_centre",
    )


def test_B_ADV_4_B_ADV_3a_councils_give_tokens_and_each_side_keeps_its_members_cards() -> None:
    session = new_game(
        ("english", "french"), game="battlelore", seed=3, options={"scenario": "war-council"}
    )
    state = session.state
    assert set(session.acting_seats()) == {"english", "french"}  # both choose, hidden
    for seat in ("english", "french"):
        side = state.side_of(seat)
        assert (side.lore_tokens, side.lore_keep, side.lore_limit) == (2, 2, 3)  # level 2
        assert len(side.lore_offer) == 4
    english = {c.split("_")[0] for c in state.side_of("english").lore_offer}
    assert english <= {"fireball", "lightning", "teleport", "healing", "divine", "courage"}
    for seat in ("english", "french", "english", "french"):
        session.apply(seat, session.legal_commands(seat)[0])
    state = session.state
    assert state.phase == "card" and state.turn == 1
    assert all(len(s.lore_hand) == 2 and not s.lore_offer for s in state.sides)


def test_B_ADV_5a_B_ADV_5b_fireball_in_the_command_step_then_a_command_card() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (6, 6)),
        unit("f1", "french", "foot_blue", (6, 3)),
        scenario="war-council",
        phase="card",
        card="",
        ordered=(),
    )
    state = _lore(state, "english", ("fireball",), 3)
    state = replace(state, sides=(replace(state.sides[0], hand=("probe_centre",)), state.sides[1]))
    state, events = act(
        game, state, "english", m.PlayLore(card="fireball", unit="f1"), "blue", "flag"
    )
    assert m.FiguresLost(unit="f1", count=1, cause="hits") in events
    assert not any(isinstance(e, m.RetreatBegun) for e in events)  # B-ADV-5b: hits only
    assert m.LoreTokens(side="english", tokens=0, reason="paid for Fireball") in events
    legal = game.decision(state).legal("english")
    assert m.PlayCard(card="probe_centre") in legal and m.SkipCard() in legal
    assert not any(isinstance(c, m.PlayLore) for c in legal)  # one lore card per window
    state, events = act(game, state, "english", m.SkipCard())
    assert m.StepEnded(step="order", lost=0) in events  # instead of a card: no orders


def test_B_ADV_5_divine_shield_cancels_a_hit_after_the_roll() -> None:
    game, state = _duel()
    state = _lore(state, "french", ("divine_shield",), 2)
    state, _ = act(
        game,
        state,
        "english",
        m.BattleUnit(unit="e1", target="f1"),
        "blue",
        "blue",
        "lore",
        "green",
    )
    assert state.combat is not None and state.combat.stage == "lore"
    assert game.decision(state).acting == ("french",)
    state, events = act(game, state, "french", m.PlayLore(card="divine_shield"))
    assert m.FiguresLost(unit="f1", count=1, cause="hits") in events  # 2 hits, 1 cancelled


def test_B_ADV_3_the_lore_face_gives_the_roller_a_token() -> None:
    game, state = _duel()
    state, events = act(
        game,
        state,
        "english",
        m.BattleUnit(unit="e1", target="f1"),
        "lore",
        "lore",
        "green",
        "green",
    )
    assert m.LoreTokens(side="english", tokens=2, reason="lore rolled") in events


def test_B_ADV_5_courage_ignores_one_more_flag() -> None:
    game, state = _duel()
    state = _lore(state, "french", ("courage",), 1)
    state, _ = act(
        game,
        state,
        "english",
        m.BattleUnit(unit="e1", target="f1"),
        "flag",
        "lore",
        "lore",
        "green",
    )
    assert state.combat is not None and state.combat.stage == "lore"  # after the roll: none
    state, _ = act(game, state, "french", m.Decline())
    assert state.combat is not None and state.combat.stage == "flags"
    state, events = act(game, state, "french", m.PlayLore(card="courage"))
    assert m.FlagIgnored(unit="f1", forced=True) in events
    held = state.unit("f1")
    assert held is not None and held.hex == pt(6, 5)  # its one flag ignored: it holds


def test_B_ADV_5_a_window_opens_on_the_public_lore_count_not_on_the_cards_held() -> None:
    """The defender's pause after a roll must not tell the attacker which lore it holds."""
    for cards, tokens in ((("fireball",), 0), (("divine_shield",), 2)):
        game, state = _duel()
        state = _lore(state, "french", cards, tokens)
        battle = m.BattleUnit(unit="e1", target="f1")
        state, _ = act(game, state, "english", battle, "blue", "lore", "lore", "lore")
        assert state.combat is not None and state.combat.stage == "lore"
        assert game.decision(state).acting == ("french",)
        playable = [c for c in game.decision(state).legal("french") if isinstance(c, m.PlayLore)]
        assert bool(playable) == (cards == ("divine_shield",))


def test_B_ADV_5c_ambush_lets_a_defender_that_is_not_bold_battle_back() -> None:
    game, state = _duel()
    state = _lore(state, "french", ("ambush",), 2)
    battle = m.BattleUnit(unit="e1", target="f1")
    state, _ = act(game, state, "english", battle, "green", "lore", "lore", "lore")
    state, events = act(game, state, "french", m.PlayLore(card="ambush"))
    assert m.Ambush(unit="f1") in events
    assert state.combat is not None and state.combat.stage == "battle_back"


def test_B_ADV_5d_charge_adds_a_die_to_a_mounted_units_next_battle() -> None:
    game, state = position(
        unit("e1", "english", "mounted_blue", (6, 6)),
        unit("f1", "french", "foot_blue", (6, 5)),
        scenario="war-council",
        card="probe_centre",
    )
    state = _lore(state, "english", ("charge",), 3)
    state, _ = act(game, state, "english", m.PlayLore(card="charge", unit="e1"))
    battle = m.BattleUnit(unit="e1", target="f1")
    _, events = act(game, state, "english", battle, "lore", "lore", "lore", "lore")
    assert m.BattleDeclared(unit="e1", target="f1", dice=4, melee=True) in events


def test_B_ADV_5e_sabotage_discards_a_random_card_and_the_victim_draws_again() -> None:
    game, state = position(
        unit("e1", "english", "foot_blue", (6, 6)),
        scenario="war-council",
        phase="card",
        card="",
        ordered=(),
    )
    state = _lore(state, "english", ("sabotage",), 2)
    sides = (state.sides[0], replace(state.sides[1], hand=("rally", "probe_left", "attack_left")))
    state = replace(state, sides=sides, deck=("scout_left",))
    state, events = act(game, state, "english", m.PlayLore(card="sabotage"), 1)
    discard = next(e for e in events if isinstance(e, m.RandomDiscard))
    assert (discard.m, discard.value, discard.card) == (3, 1, "probe_left")
    assert sorted(state.side_of("french").hand) == ["attack_left", "rally", "scout_left"]


def test_B_ADV_6_the_end_of_turn_gives_a_lore_hex_token_and_refills_the_lore_hand() -> None:
    hill = (6, 4)  # the war-council scenario's lore hex
    game, state = position(
        unit("e1", "english", "foot_blue", hill), scenario="war-council", card="probe_centre"
    )
    state = _lore(state, "english", (), 1)
    sides = (replace(state.sides[0], lore_deck=("courage", "fireball")), state.sides[1])
    state = replace(state, sides=sides, deck=("rally",))
    state, events = act(game, state, "english", m.FinishBattles())
    assert m.LoreTokens(side="english", tokens=2, reason="lore hex held") in events
    assert state.side_of("english").lore_hand == ("courage",)
