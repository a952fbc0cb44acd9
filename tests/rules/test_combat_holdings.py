"""One source of truth for hands, stocks and flare between a combat and its host (issue 20):
the combat keeps no copy; the host (the game's players, the sandbox's state) holds them, and
within one step the flow moves the host on past the events that change them."""

from __future__ import annotations

from combat_helpers import PACK, Fight, deployed, dice_giving
from gap_helpers import TACTICS_PACK, HandFight, table
from positions import grid_map

from nataterra_core.games.nataterra.messages import combat as m
from nataterra_core.games.nataterra.messages.combat import StartCombat
from nataterra_core.games.nataterra.messages.sandbox import StartBattle
from nataterra_core.games.nataterra.messages.tactics import TacticCardDrawn
from nataterra_core.games.nataterra.rules.combat.sandbox import (
    Battle,
    ForceSpec,
    Sandbox,
    battle_option,
)
from nataterra_core.games.nataterra.rules.combat_phase import combat_env
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.games.nataterra.views import seat_view
from nataterra_core.kernel import DiceStream, Setup, seed_from_number

ROW = ["V . . . . E"]


def test_N_TAC_1_a_card_played_in_a_games_combat_leaves_the_hand_the_next_window_offers() -> None:
    t = table(
        grid_map(ROW),
        [("velathi", "disciple", "z30", 3), ("beasts", "orc", "z30", 1)],
        phase="combat",
        pack=TACTICS_PACK,
        velathi={
            "tactic_hand": ("deadly_cut", "fearless", "home_advantage"),
            "tactic_discard": (),
        },
    )
    t.play(StartCombat(zone="z30", defender="beasts"))
    while t.state.combat is not None and t.state.combat.stage == "deploy":
        t.play(t.legal()[0])
    plays = [c for c in t.legal() if isinstance(c, m.PlayTactic)]
    assert {p.card for p in plays} == {"deadly_cut"}  # before combat: the ↑↑↑ option only
    t.play(plays[0])
    hand = t.state.player("velathi").tactic_hand
    assert hand == ("fearless", "home_advantage")
    # The combat asks the players (its host), and holds no copy of its own.
    assert combat_env(t.ctx, t.state).hand("velathi") == hand
    assert not hasattr(t.state.combat, "stocks")
    while not any(isinstance(c, m.PlayTactic) for c in t.legal()):
        assert t.state.combat is not None
        t.play(t.legal()[0])
    # The next window (before the active group) offers exactly the cards left in hand.
    assert t.seat == "velathi"
    assert {c.card for c in t.legal() if isinstance(c, m.PlayTactic)} == set(hand)


def test_N_COMBAT_9_a_card_drawn_in_a_step_is_seen_by_the_window_after_it() -> None:
    # The Velathi's only card, played during the combat, draws a card when it resolves
    # after the win (N-COMBAT-27); the after-combat window, in the same step, asks them
    # because of it: the host's hand was folded on the way (N-COMBAT-9: holders are asked).
    fight = HandFight(
        "velathi",
        "beasts",
        [("velathi", "disciple", 3), ("beasts", "woodcutter", 1)],
        hands={"velathi": ("home_advantage",), "beasts": ()},
    )
    played = m.PlayTactic(card="home_advantage", option=0)
    while played not in fight.pending[1]:
        fight.decide(fight.pending[1][0])
    fight.decide(played)
    assert fight.env.hand("velathi") == ()
    step: list[object] = []
    while not fight.of(m.DeferredResolved):
        options = fight.pending[1]
        attacks = [o for o in options if isinstance(o, m.Attack)]
        step = list(fight.decide(attacks[0] if attacks else options[-1], dice_giving(3)))
    drawn = next(i for i, e in enumerate(step) if isinstance(e, TacticCardDrawn))
    assert m.WindowOpened(window="after", seats=("velathi",)) in step[drawn:]
    assert fight.env.hand("velathi") == ("fearless",)
    assert fight.pending[0] == "velathi"


def _injured_disciple(food: int) -> Fight:
    """The Disciple ends the fight with 5 damage, over its injury threshold (4)."""
    fight = deployed(
        "beasts",
        "velathi",
        [("beasts", "goblin", 1, None), ("velathi", "disciple", 1, None)],
        stocks={"velathi": Resources(food=food)},
    )
    goblin, disciple = fight.group("beasts", "goblin"), fight.group("velathi", "disciple")
    fight.decide(m.Attack(target=disciple.id), dice_giving(3))
    fight.decide(m.Attack(target=goblin.id), dice_giving(1))
    return fight


def test_N_COMBAT_26_a_paid_fee_leaves_the_hosts_stock_and_nowhere_else() -> None:
    fight = _injured_disciple(food=3)
    disciple = fight.group("velathi", "disciple")
    events = fight.decide(m.PayInjury(group=disciple.id, pay=True))
    (injury,) = [e for e in events if isinstance(e, m.InjuryResolved)]
    assert fight.env.stock("velathi") == Resources(food=3) - injury.fee == Resources(food=2)


SEED, GAME = seed_from_number(3)


def test_N_COMBAT_26_the_sandboxs_stocks_after_fees_decided_and_replayed() -> None:
    # Disciples against Orcs until the end (with this seed both sides pay a fee): every fee
    # comes off the sandbox's own stock, the same in the state decide reached and in the
    # state evolve folds from the events (replay == live).
    battle = Battle(
        attacker="velathi",
        defender="beasts",
        biome="hills",
        forces=(ForceSpec("velathi", "disciple", 3), ForceSpec("beasts", "orc", 3)),
        stocks={"velathi": Resources(food=9, wood=1), "beasts": Resources(food=9)},
    )
    sandbox = Sandbox(PACK)
    options = {"battle": battle_option(battle)}
    start = sandbox.initial_state(Setup(game_id=GAME, seats=("velathi", "beasts"), options=options))
    decided = sandbox.decide(start, StartBattle(), DiceStream(SEED, GAME, "", 0), seat=None)
    live, replayed = decided.state, start
    events = list(decided.events)
    while live.result is None:
        seat = decided.decision.acting[0]
        legal = decided.decision.legal(seat)
        pay = [c for c in legal if isinstance(c, m.PayInjury) and c.pay]
        command = pay[0] if pay else legal[0]
        dice = DiceStream(SEED, GAME, "", live.counter)
        decided = sandbox.decide(live, command, dice, seat=seat, legal=True)
        live = decided.state
        events.extend(decided.events)
    for event in events:
        replayed = sandbox.evolve(replayed, event)
    assert replayed == live
    fees = [e for e in events if isinstance(e, m.InjuryResolved) and e.paid]
    assert live.combat is not None
    for seat in ("velathi", "beasts"):
        paid = [f.fee for f in fees if live.combat.groups[f.group].owner == seat]
        assert paid, f"{seat} paid no fee: the battle does not test what it should"
        left = battle.stocks[seat]
        for fee in paid:
            left = left - fee
        assert live.stocks[seat] == left


def test_N_COMBAT_9_a_views_combat_shows_no_hand_the_seat_sees_its_own_from_its_player() -> None:
    t = table(
        grid_map(ROW),
        [("velathi", "disciple", "z30", 3), ("beasts", "orc", "z30", 1)],
        phase="combat",
        pack=TACTICS_PACK,
        velathi={"tactic_hand": ("deadly_cut", "fearless"), "tactic_discard": ()},
        beasts={"tactic_hand": ("fearless",), "tactic_discard": ()},
    )
    t.play(StartCombat(zone="z30", defender="beasts"))
    assert t.state.combat is not None
    for seat, other in (("velathi", "beasts"), ("beasts", "velathi")):
        view = seat_view(t.state, seat)
        assert view.combat == t.state.combat  # fought in the open: nothing of it is hidden
        players = {p.civ: p for p in view.players}
        assert players[seat].tactic_hand == t.state.player(seat).tactic_hand
        assert players[other].tactic_hand is None  # the other's hand: its size only
        assert players[other].tactic_hand_count == len(t.state.player(other).tactic_hand)
