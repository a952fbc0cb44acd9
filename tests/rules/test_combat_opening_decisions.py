"""The decisions of the events before and around the rounds (issue 20 item 4): the steps and
effects that make them decide, the events record, the folds only apply. Each test checks
the decision where it is made now and that the fold applies the event without deciding
again (with a pack that has no biome cards, so that a fold reading one would fail)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import pytest
from combat_helpers import PACK, Fight, any_dice, drawing

from nataterra_core.game import verify_log
from nataterra_core.games.nataterra.messages import combat as m
from nataterra_core.games.nataterra.rules.combat import flow, folds
from nataterra_core.games.nataterra.rules.combat.biome import FLAGS, START_CHOICES, choice_events
from nataterra_core.games.nataterra.rules.combat.effects import (
    grant_move_after_win,
    player_chosen,
    raise_initiative,
)
from nataterra_core.games.nataterra.rules.combat.flow import (
    CombatEnv,
    combat_from_start,
    evolve_combat,
)
from nataterra_core.games.nataterra.rules.combat.holdings import fold_stocks
from nataterra_core.games.nataterra.rules.combat.host import Answers
from nataterra_core.games.nataterra.rules.combat.model import Combat, Force
from nataterra_core.games.nataterra.rules.combat.opening_folds import OPENING_FOLDS
from nataterra_core.games.nataterra.rules.combat.steps import deployment_ended
from nataterra_core.games.nataterra.rules.combat.tactics import resolve_deferred
from nataterra_core.kernel import Event

NO_CARDS = attrs.evolve(PACK, biome_cards={})
"""The pack without biome cards: a fold that looked a card up would fail with it."""


def combat(**fields: object) -> Combat:
    defaults: dict[str, object] = {
        "zone": "test",
        "biome": "forest",
        "attacker": "velathi",
        "defender": "beasts",
        "sides": {},
    }
    return Combat(**{**defaults, **fields})  # type: ignore[arg-type]


def just_before(fight: Fight, event: Event) -> Combat:
    """The combat of ``fight`` folded from its events up to ``event``."""
    folded = combat_from_start(fight.started)
    for earlier in fight.events[1 : fight.events.index(event)]:
        folded = evolve_combat(PACK, folded, earlier)
    return folded


# -- DeploymentEnded: who deploys next, and the stage after deployment ------------------------


def test_N_COMBAT_4_N_TEAM_4_deployment_ended_names_the_next_seat() -> None:
    teams = combat(allies={"humans": "velathi", "naga": "beasts"}, deploying="velathi")
    order = []
    while teams.stage == "deploy":
        ended = deployment_ended(teams)
        assert ended.seat == teams.deploying
        order.append((ended.seat, ended.following, ended.then))
        teams = evolve_combat(NO_CARDS, teams, ended)
    # The attacker's side, then the defender's, each lead first; then the card turns up.
    assert order == [
        ("velathi", "humans", "opening"),
        ("humans", "beasts", "opening"),
        ("beasts", "naga", "opening"),
        ("naga", "", "opening"),
    ]
    assert teams.stage == "opening" and teams.deploying == ""


def test_N_COMBAT_8_ambush_deployment_ends_into_the_effects() -> None:
    fight = Fight(
        "velathi",
        "beasts",
        [("velathi", "disciple", 3, None), ("beasts", "orc", 3, None)],
        card="forest_ambush_velathi",
        start=False,
    )
    fight.env = CombatEnv(
        PACK, host=Answers(draw_biome=drawing("forest_ambush_velathi"), ambush=lambda s: "zealot")
    )
    fight.run()
    fight.deploy_largest()
    ended = [e for e in fight.events if isinstance(e, m.DeploymentEnded)]
    assert [(e.seat, e.following, e.then) for e in ended] == [
        ("velathi", "beasts", "opening"),
        ("beasts", "", "opening"),
        ("velathi", "", "effects"),  # the Ambush unit deployed after the card
    ]
    assert fight.of_type(m.AmbushJoined)
    assert fight.combat.stage not in ("deploy", "opening", "redirect")


# -- BiomeTargetFixed: the flag the card sets and the choices it asks --------------------------


@pytest.mark.parametrize("card_id", sorted(PACK.biome_cards))
def test_N_COMBAT_8_biome_target_fixed_records_the_flag_and_the_choices(card_id: str) -> None:
    card = PACK.biome_cards[card_id]
    forces = [("velathi", "disciple", 3, None), ("beasts", "orc", 3, None)]
    fight = Fight("velathi", "beasts", forces, biome=card.biome, card=card_id, start=False)
    fight.env = CombatEnv(PACK, host=Answers(draw_biome=drawing(card_id), ambush=lambda s: None))
    fight.run()
    fight.deploy_largest()
    (fixed,) = fight.of_type(m.BiomeTargetFixed)
    assert isinstance(fixed, m.BiomeTargetFixed)
    kind = card.effect.kind
    assert fixed.binds == FLAGS.get(kind, "")
    assert fixed.asks == START_CHOICES.get(kind, "")
    assert fixed.holders == tuple(s for s in ("velathi", "beasts") if card.target in ("all", s))
    # The fold applies the event as it is, with no biome card to look up.
    revealed = evolve_combat(NO_CARDS, just_before(fight, fixed), fixed)
    if fixed.binds:
        assert getattr(revealed, fixed.binds) == fixed.holders
    assert revealed.pending == tuple((seat, fixed.asks) for seat in fixed.holders if fixed.asks)


def test_N_COMBAT_8_a_redirected_flag_binds_the_naga() -> None:
    before = combat(attacker="naga", biome_card="desert_fight_to_the_bitter_end", stage="redirect")
    fixed = m.BiomeTargetFixed(
        holders=("naga",), redirected_by="naga", flare_paid=1, binds="no_retreat"
    )
    after = evolve_combat(NO_CARDS, before, fixed)
    assert after.no_retreat == ("naga",) and after.stage == "effects"
    # The flare paid is the host's (the combat keeps none): the sandbox's fold pays it.
    assert fold_stocks({}, {"naga": 3}, before, fixed) == ({}, {"naga": 2})


# -- InitiativeRaised: N-COMBAT-6's cap, applied by the step ----------------------------------


def test_N_COMBAT_6_initiative_cap_applied_where_the_raise_is_made() -> None:
    placed = combat(initiative={"velathi/disciple": 9, "velathi/zealot": 4})
    assert raise_initiative(placed, "velathi", ["disciple"], 2) == (
        m.InitiativeRaised(seat="velathi", unit="disciple", amount=1),
    )
    full = combat(initiative={"velathi/disciple": 10})
    assert raise_initiative(full, "velathi", ["disciple"], 3) == (
        m.InitiativeRaised(seat="velathi", unit="disciple", amount=0),
    )
    # Two raises of one marker in one step: the second sees the first.
    assert [e.amount for e in raise_initiative(placed, "velathi", ["disciple"] * 2, 1)] == [1, 0]
    # A type without a marker has left the board (N-COMBAT-17): nothing to raise.
    assert raise_initiative(placed, "velathi", ["hunter"], 1) == ()
    # Before the markers are placed the raise is whole: the cap applies when they are.
    assert raise_initiative(combat(), "velathi", ["disciple"], 3) == (
        m.InitiativeRaised(seat="velathi", unit="disciple", amount=3),
    )


def test_N_COMBAT_6_the_fold_moves_the_marker_by_the_recorded_amount() -> None:
    fight = Fight(
        "velathi", "beasts", [("velathi", "disciple", 3, None), ("beasts", "orc", 3, None)]
    )
    fight.deploy_largest()
    opened = fight.combat
    key = "velathi/disciple"
    assert opened.initiative[key] == 7
    (raised,) = raise_initiative(opened, "velathi", ["disciple"], 5)
    assert raised.amount == 3
    after = evolve_combat(NO_CARDS, opened, raised)
    assert after.initiative[key] == 10
    assert all(g.initiative == 10 for g in after.groups if g.unit == "disciple")
    # The fold no longer caps: it applies the recorded amount (the cap is the step's).
    beyond = evolve_combat(NO_CARDS, after, raised)
    assert beyond.initiative[key] == 13


def test_N_COMBAT_6_start_choice_raise_is_capped_when_the_markers_are_placed() -> None:
    # The Manipulator (9) with Hunting Trails' +1 and a matching essence (+1): 10, not 11.
    forces = [("velathi", "manipulator", 1, None), ("beasts", "orc", 1, None)]
    fight = Fight("velathi", "beasts", forces, card="forest_hunting_trails_velathi")
    fight.deploy_largest()
    fight.decide(m.RaiseInitiative(unit="manipulator"))
    fight.run()
    (raised,) = fight.of_type(m.InitiativeRaised)
    assert raised.amount == 1  # type: ignore[attr-defined]
    (opened,) = fight.of_type(m.CombatOpened)
    assert opened.initiative["velathi/manipulator"] == 10  # type: ignore[attr-defined]
    assert fight.group("velathi", "manipulator").initiative == 10


# -- MoveAfterWinGranted: what may move, and the grants that do not stack ------------------------


def test_Ruling_N_COMBAT_27_a_grant_records_the_units_that_may_move() -> None:
    won = combat(
        winner="velathi",
        reserve=(Force("velathi", "disciple", 2), Force("velathi", "hunter", 1, "next_door")),
    )
    (granted,) = grant_move_after_win(PACK, won, "velathi")
    # Units joined by Strategise stay where they are (N-ABL-7).
    assert granted == m.MoveAfterWinGranted(seat="velathi", movable=(("disciple", 2),))
    after = evolve_combat(NO_CARDS, won, granted)
    assert after.movable == (("disciple", 2),)
    assert after.pending == (("velathi", "move_after_win"),)
    assert grant_move_after_win(PACK, combat(winner="velathi"), "velathi") == ()  # nothing to move


def test_Ruling_N_COMBAT_27_move_after_win_grants_do_not_stack() -> None:
    reserve = (Force("velathi", "disciple", 2),)
    granted = combat(winner="velathi", reserve=reserve, movable=(("disciple", 2),))
    assert grant_move_after_win(PACK, granted, "velathi") == ()
    moved = combat(winner="velathi", reserve=reserve, moved_after_win=True)
    assert grant_move_after_win(PACK, moved, "velathi") == ()


def test_Ruling_N_COMBAT_27_two_deferred_grants_resolved_together_do_not_stack() -> None:
    card, index = next(
        (card.id, i)
        for card in PACK.tactics.values()
        for i, option in enumerate(card.options)
        if [e.kind for e in option.effects] == ["move_after_win"]
        and option.window == "after_combat"
        and card.civ == "velathi"
    )
    won = combat(
        winner="velathi",
        decided=True,
        stage="aftermath",
        reserve=(Force("velathi", "disciple", 2),),
        deferred=((("velathi", card, index, None)),) * 2,
    )
    events = resolve_deferred(CombatEnv(PACK, host=Answers()), won, any_dice())
    assert [type(e) for e in events] == [
        m.DeferredResolved,
        m.MoveAfterWinGranted,
        m.DeferredResolved,
    ]


def test_Ruling_N_COMBAT_27_the_last_move_after_a_win_ends_the_choice() -> None:
    asked = combat(
        winner="velathi",
        reserve=(Force("velathi", "disciple", 2),),
        movable=(("disciple", 2),),
        pending=(("velathi", "move_after_win"),),
    )
    env = CombatEnv(PACK, host=Answers(after_win=lambda seat, unit: ["next_door"]))
    first = m.MoveAfterWin(unit="disciple", count=1, destination="next_door")
    (moved,) = choice_events(env, asked, "velathi", first, any_dice()) or ()
    after = evolve_combat(NO_CARDS, asked, moved)
    assert after.movable == (("disciple", 1),) and after.pending == asked.pending
    events = choice_events(env, after, "velathi", first, any_dice())
    assert events is not None and [type(e) for e in events] == [
        m.UnitsMovedAfterWin,
        m.ChoiceResolved,
    ]
    for event in events:
        after = evolve_combat(NO_CARDS, after, event)
    assert after.movable == () and after.pending == () and after.moved_after_win


# -- PlayerChosen: what the choice means for the chosen player ---------------------------------


@pytest.mark.parametrize(
    "effect,binds,asks",
    [("choose_no_retreat", "no_retreat", ""), ("choose_discarder", "", "discard")],
)
def test_N_COMBAT_8_a_chosen_player_event_records_what_the_choice_means(
    effect: str, binds: str, asks: str
) -> None:
    chosen = player_chosen("velathi", "beasts", effect)
    assert (chosen.binds, chosen.asks) == (binds, asks)
    before = combat(pending=(("humans", "discard"),))
    after = evolve_combat(NO_CARDS, before, chosen)
    assert after.no_retreat == (("beasts",) if binds else ())
    # The chosen player discards at once, before anything else queued.
    assert after.pending == ((("beasts", "discard"),) if asks else ()) + before.pending
    with pytest.raises(ValueError):
        player_chosen("velathi", "beasts", "discard")


# -- every opening fold, over the golden games: the pack's units and nothing else ------------


class _UnitsOnly:
    """The content pack with only what a deployed group's statistics need (``make_group``:
    units, and structures that fight as groups); reading anything else fails."""

    def __init__(self, pack: object) -> None:
        self._pack = pack

    def __getattr__(self, name: str) -> Any:
        if name in ("units", "structures"):
            return getattr(self._pack, name)
        raise AssertionError(f"an opening fold read the pack's {name}")


GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_N_COMBAT_8_opening_folds_apply_the_events_without_the_pack_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every event of :mod:`.opening_events` in the Nataterra golden games is folded a second
    time with a pack that has only its units: the same combat (no biome card's effect, no
    civilisation, no tactic card is looked up)."""
    sealed = _UnitsOnly(PACK)
    seen: Counter[str] = Counter()
    for kind, fold in OPENING_FOLDS.items():

        def checked(pack: Any, combat: Combat, event: Any, fold: Any = fold) -> Combat:
            after: Combat = fold(pack, combat, event)
            assert fold(sealed, combat, event) == after, type(event).__name__
            seen[type(event).__name__] += 1
            for name in ("following", "binds", "asks", "movable"):
                if getattr(event, name, None):
                    seen[f"{type(event).__name__}.{name}"] += 1
            return after

        # The flow folds from its own split of the table (plain folds, and those of the
        # events that change what the host holds): the same functions, checked alike.
        for table in (folds.FOLDS, flow._PLAIN, flow._HOLDING):
            if kind in table:
                monkeypatch.setitem(table, kind, checked)
    games = sorted(p for p in GOLDEN.glob("game-*.jsonl") if "kaladan" not in p.name)
    assert games
    for path in games:
        verdict = verify_log(path.read_bytes())
        assert verdict.valid, (path.name, verdict)
    for what in (
        "DeploymentEnded.following",
        "BiomeTargetFixed.binds",
        "BiomeTargetFixed.asks",
        "InitiativeRaised",
        "PlayerChosen.binds",
        "PlayerChosen.asks",
        "UnitsMovedAfterWin",
        "GroupDeployed",
    ):
        assert seen[what], what
