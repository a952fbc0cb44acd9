"""Grammar through the presenters (issue 31 item 8): the sentences that read wrong, each
with the game's own presenter: articles (``recruit an Orc``), plurals (``1 crown``, ``no
units killed``), verb agreement (``red's Crown goes``)."""

from __future__ import annotations

from nataterra_core.games.battlelore import messages as bl
from nataterra_core.games.kaladan import messages as ka
from nataterra_core.games.nataterra.messages.combat_rounds import AttackResolved
from nataterra_core.games.nataterra.messages.development import Recruit
from nataterra_core.kernel.registry import system


def test_an_orc_is_recruited_with_an_an() -> None:
    words = system("nataterra").presenter
    assert words.offer(Recruit(unit="orc"), "beasts").startswith("recruit an Orc (costs ")
    assert words.command(Recruit(unit="goblin"), "beasts").startswith("beasts recruits a Goblin")


def test_one_kaladan_unit_goes_and_two_go() -> None:
    words = system("kaladan").presenter
    one = ka.UnitsMoved(seat="red", source="C1", target="B2", units=("crown",), rule="K-MOV-1")
    two = ka.UnitsMoved(
        seat="red", source="C1", target="B2", units=("crown", "general"), rule="K-MOV-1"
    )
    assert words.event(one) == "red's Crown goes from C1 to B2 (K-MOV-1)"
    assert words.event(two) == "red's Crown, General go from C1 to B2 (K-MOV-1)"


def test_kaladan_counts_agree() -> None:
    words = system("kaladan").presenter
    assert words.event(ka.MagicDrawn(seat="red", cards=("scout",))) == "red draws 1 magic card"
    assert words.event(ka.MovesGranted(seat="red", amount=2)).endswith("make 2 extra moves")
    ended = ka.GameEnded(winners=("red",), scores={"red": 9}, reason="deck_used_up")
    assert words.event(ended) == "the game ends (deck used up): red wins"


def test_a_kaladan_view_says_1_crown_and_0_scalps() -> None:
    from nataterra_core.game import new_game

    record = system("kaladan")
    session = new_game(2, game="kaladan", seed=3)
    text = record.presenter.view(record.seat_view(session.state, "red"))
    assert "0 scalps, 0 crowns" in text and "(s)" not in text
    assert "4 Archers" in text and "1 Knight" in text  # the reserve by title, agreeing


def test_nataterra_says_no_units_killed() -> None:
    words = system("nataterra").presenter
    missed = AttackResolved(
        group=0,
        target=1,
        total=1,
        damage=0,
        target_deaths=0,
        bonus_spent=0,
        armor_bonus_spent=False,
        swords=1,
        face=2,
    )
    said = words.event(missed)
    assert "0 damage, no units killed (face 3, 1 sword)" in said and "(s)" not in said


def test_battlelore_counts_agree_and_cards_have_titles() -> None:
    words = system("battlelore").presenter
    assert words.event(bl.RollRead(unit="f2", hits=1, flags=0)) == (
        "the roll against f2: 1 hit, 0 flags"
    )
    assert words.event(bl.FiguresLost(unit="f2", count=1, cause="hits")) == (
        "f2 loses 1 figure (hits)"
    )
    assert words.command(bl.PlayCard(card="probe_centre"), "english") == (
        "english plays Probe centre"
    )
    assert words.offer(bl.PlayCard(card="probe_centre"), "english") == "play Probe centre"


def test_a_liars_dice_call_names_the_bid_and_how_many_counted() -> None:
    """It read ``blue calls "liar!" on red's a one; ...: one count``."""
    from nataterra_core.games.liars_dice import messages as ld

    words = system("liars-dice").presenter
    called = ld.CupsRevealed(
        caller="blue", call="liar", bidder="red", quantity=1, face=1, cups={"red": (1,)}, count=1
    )
    assert words.event(called) == (
        'blue calls "liar!" on red\'s bid of a one; the cups show red 1: one counted'
    )
