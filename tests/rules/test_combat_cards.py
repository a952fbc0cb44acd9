"""Biome-card effects (N-COMBAT-7/8), tactic windows (N-COMBAT-9/11/27, N-TAC-1a/2),
Stoneskin (N-CIV-2), Spirit's Embrace and the Naga's redirection (N-CIV-3, N-COMBAT-8),
each played through a combat.

Tactic options come from a test-only overlay (``tests/packs/made_up_tactics``): one
made-up option per window kind on four printed card ids, so that each window is tested
with an option of known, simple effect. The printed options themselves are played in
``test_tactic_cards.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import msgspec
import pytest
from positions import grid_map, position

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.decider import Nataterra
from nataterra_core.games.nataterra.messages import combat as m
from nataterra_core.games.nataterra.messages.combat import StartCombat
from nataterra_core.games.nataterra.messages.tactics import TacticCardDrawn
from nataterra_core.games.nataterra.rules.combat.flow import (
    CombatEnv,
    advance,
    combat_from_start,
    decide_combat,
    decision,
    evolve_with_host,
    start_combat,
)
from nataterra_core.games.nataterra.rules.combat.host import Answers
from nataterra_core.games.nataterra.rules.combat.model import Combat, Force
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.rules.combat_phase import combat_env
from nataterra_core.games.nataterra.state import GameState, Resources
from nataterra_core.kernel import Command, DiceStream, Event, events_of, seed_from_number

PACK = load_pack(Path(__file__).resolve().parents[1] / "packs" / "made_up_tactics")
SEED, GAME = seed_from_number(77)
Chooser = Callable[[Combat, str, Sequence[Command]], Command | None]
COVERS_ALL_BIOME_CARDS = True
"""test_N_COMBAT_8_every_biome_card_effect_plays runs every biome card of the pack
(docs/COVERAGE.md)."""


class CardFight:
    """A combat with hands, a tactic deck and a pool, driven to its end by a chooser."""

    def __init__(
        self,
        forces: dict[str, list[tuple[str, int]]],
        *,
        attacker: str,
        defender: str,
        card: str | None = None,
        biome: str = "forest",
        hands: dict[str, list[str]] | None = None,
        flare: dict[str, int] | None = None,
        flare_cost: int | None = None,
        choose: Chooser | None = None,
    ) -> None:
        self.hands = {seat: list(cards) for seat, cards in (hands or {}).items()}
        self.asked: list[tuple[str, list[Command]]] = []
        self.policy = DefaultPolicy(PACK)
        self.choose = choose
        started = start_combat(
            zone="test",
            biome=biome,
            attacker=attacker,
            defender=defender,
            forces=[Force(o, u, n) for o in forces for u, n in forces[o]],
            sides={attacker: {}, defender: {}},
            stocks={attacker: Resources(5, 5, 5), defender: Resources(5, 5, 5)},
            flare=flare or {},
        )
        self.events: list[Event] = [started]
        held = {seat: tuple(cards) for seat, cards in self.hands.items()}
        self.env = CombatEnv(
            PACK,
            host=Answers(
                draw_biome=lambda combat, dice: (card, ()),
                draw_tactics=lambda seat, dice: (TacticCardDrawn(seat=seat, card="fearless"),),
                ambush=lambda seat: PACK.civilisations[seat].units[1],
                after_win=lambda seat, unit: ["next_zone"],
                flare_costs=lambda seat, zone: flare_cost,
                hands=held,
                stocks=started.stocks,
                flare=started.flare,
            ),
        )
        self.combat = combat_from_start(started)
        self.counter = 0
        self._fold(advance(self.env, self.combat, self._dice())[0])
        while self.combat.stage != "end":
            pending = decision(self.env, self.combat)
            assert pending is not None
            seat, options = pending
            self.asked.append((seat, options))
            chosen = self.choose(self.combat, seat, options) if self.choose else None
            hand = self.env.hand(seat)  # its own hand, which only it sees
            command = chosen or self.policy.choose(self.combat, seat, options, hand=hand)
            self._fold(decide_combat(self.env, self.combat, seat, command, self._dice()))

    def _dice(self) -> DiceStream:
        return DiceStream(SEED, GAME, "", self.counter)

    def _fold(self, events: Sequence[Event]) -> None:
        for event in events:
            self.env, self.combat = evolve_with_host(self.env, self.combat, event)
            self.counter = getattr(event, "counter_after", None) or self.counter
            if isinstance(event, m.TacticPlayed | m.TacticDiscarded):
                self.hands[event.seat].remove(event.card)
            if isinstance(event, TacticCardDrawn):
                self.hands.setdefault(event.seat, []).append(event.card)
            self.events.append(event)

    def of(self, kind: type[Event]) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]

    def before(self, kind: type[Event]) -> list[Event]:
        """Events before the first event of ``kind``."""
        index = next(i for i, e in enumerate(self.events) if isinstance(e, kind))
        return self.events[:index]


def start_units(civ: str) -> list[tuple[str, int]]:
    return [(u.id, 3) for u in PACK.units_of(civ) if u.unlock == "start" and u.role == "combat"]


def opponent_of(civ: str) -> str:
    return "beasts" if civ != "beasts" else "velathi"


def retreat_if(seat: str) -> Chooser:
    def choose(combat: Combat, who: str, options: Sequence[Command]) -> Command | None:
        if who == seat and any(isinstance(o, m.Retreat) for o in options):
            return m.Retreat(retreat=True)
        return None

    return choose


# -- every biome card, played --------------------------------------------------------------


def card_fight(card_id: str, *, strong_holder: bool = True, **kwargs: object) -> CardFight:
    card = PACK.biome_cards[card_id]
    holder = "velathi" if card.target == "all" else card.target
    other = opponent_of(holder)
    weak = [(start_units(other)[0][0], 1)]
    forces = {holder: start_units(holder), other: weak if strong_holder else start_units(other)}
    hands = {holder: ["deadly_cut"], other: ["fearless"]}
    if holder == "naga" or other == "naga":
        hands.setdefault("naga", [])
    return CardFight(
        forces,
        attacker=holder,
        defender=other,
        card=card_id,
        biome=card.biome,
        hands=hands,
        **kwargs,  # type: ignore[arg-type]
    )


def asked_kinds(fight: CardFight, seat: str) -> set[type[Command]]:
    return {type(o) for who, options in fight.asked if who == seat for o in options}


@pytest.mark.parametrize("card_id", sorted(PACK.biome_cards))
def test_N_COMBAT_8_every_biome_card_effect_plays(card_id: str) -> None:
    card = PACK.biome_cards[card_id]
    kind, amount = card.effect.kind, card.effect.amount
    holder = "velathi" if card.target == "all" else card.target
    other = opponent_of(holder)
    if kind == "no_backstab":
        fight = card_fight(card_id, strong_holder=False, choose=retreat_if(holder))
    elif kind in ("no_retreat", "choose_player_no_retreat", "heal_each_round", "smite_each_round"):
        fight = card_fight(card_id, strong_holder=False)
    else:
        fight = card_fight(card_id)
    holders = fight.of(m.BiomeTargetFixed)[0].holders  # type: ignore[attr-defined]
    assert holder in holders
    opening = fight.before(m.CombatOpened)
    if kind == "smite_each_round":
        hits = [e for e in fight.of(m.EffectDamage) if e.smite]  # type: ignore[attr-defined]
        assert hits and all(e.amount == amount for e in hits)  # type: ignore[attr-defined]
    elif kind in ("no_retreat", "choose_player_no_retreat"):
        barred = fight.combat.no_retreat
        assert barred
        for seat in barred:
            assert m.Retreat not in asked_kinds(fight, seat)
    elif kind == "discard_tactic":
        assert {e.seat for e in fight.of(m.TacticDiscarded)} == set(holders)  # type: ignore[attr-defined]
    elif kind == "no_tactics_at_start":
        windows = [e for e in opening if isinstance(e, m.WindowOpened) and e.window == "before"]
        assert all(not set(w.seats) & set(holders) for w in windows)
    elif kind == "move_after_win":
        assert fight.combat.winner == holder
        assert fight.of(m.UnitsMovedAfterWin) or any(
            isinstance(e, m.ChoiceResolved) and e.choice == "move_after_win" for e in fight.events
        )
    elif kind == "ambush":
        (joined,) = fight.of(m.AmbushJoined)
        deployed = [e for e in fight.of(m.GroupDeployed) if e.unit == joined.unit]  # type: ignore[attr-defined]
        assert deployed and deployed[-1].units == 1  # type: ignore[attr-defined]
        # Regression: the joined unit was taken from every reserve entry of its type.
        assert all(f.count >= 0 for f in fight.combat.reserve)
    elif kind == "raise_initiative":
        (raised,) = fight.of(m.InitiativeRaised)
        opened = fight.of(m.CombatOpened)[0]
        key = f"{raised.seat}/{raised.unit}"  # type: ignore[attr-defined]
        base = PACK.units[raised.unit].initiative  # type: ignore[attr-defined]
        essences = sum(e in PACK.civilisations[holder].essences for e in card.essences)
        assert opened.initiative[key] == min(10, base + amount + essences)  # type: ignore[attr-defined]
    elif kind == "attack_bonus":
        granted = [e for e in opening if isinstance(e, m.BonusGranted)]
        assert {fight.combat.groups[e.group].owner for e in granted} == set(holders)
        assert all(e.attack == amount for e in granted)
    elif kind == "draw_tactic_if_win":
        assert fight.combat.winner == holder
        after = fight.events[fight.events.index(fight.of(m.CombatDecided)[0]) :]
        assert [e.seat for e in after if isinstance(e, TacticCardDrawn)] == [holder]
    elif kind == "draw_tactic":
        drawn = [e.seat for e in opening if isinstance(e, TacticCardDrawn)]
        assert sorted(drawn) == sorted(holders)
    elif kind == "choose_player_discards":
        chosen = [e.chosen for e in fight.of(m.PlayerChosen)]  # type: ignore[attr-defined]
        discarded = [e.seat for e in fight.of(m.TacticDiscarded)]  # type: ignore[attr-defined]
        assert len(chosen) == len(holders)  # each holder names a player...
        assert discarded and set(discarded) <= set(chosen)  # ...who discards if they can
    elif kind == "no_backstab":
        assert fight.combat.retreating == holder
        assert m.Backstab not in asked_kinds(fight, other)
        assert fight.of(m.BackstabDeclined)
    elif kind == "damage_per_group":
        for seat in holders:
            mine = [g for g in fight.combat.groups if g.owner == seat]
            hits = [
                e
                for e in opening
                if isinstance(e, m.EffectDamage) and e.group in {g.id for g in mine}
            ]
            assert len(hits) == len(mine)
            assert all(not e.smite and e.amount == amount * len(mine) for e in hits)
    elif kind == "heal_each_round":
        assert m.ChooseEffectGroup in asked_kinds(fight, holder)
        assert fight.of(m.DamageRemoved)
    else:  # pragma: no cover - a new kind needs its own check
        pytest.fail(f"no check for effect kind {kind}")


def test_N_COMBAT_7_no_biome_card_means_no_effect() -> None:
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        card=None,
        biome="mountain",
    )
    assert fight.of(m.BiomeTargetFixed)[0].holders == ()  # type: ignore[attr-defined]
    assert not fight.of(m.EffectDamage) and not fight.of(m.BonusGranted)


# -- tactic windows and Stoneskin ------------------------------------------------------------


def play_first(window: str, seat: str, card: str | None = None) -> Chooser:
    """Play the first offered option (of ``card``) when ``seat`` is asked in ``window``."""

    def choose(combat: Combat, who: str, options: Sequence[Command]) -> Command | None:
        plays = [o for o in options if isinstance(o, m.PlayTactic)]
        if who != seat or not plays or combat.pending[0][1] != f"tactic_{window}":
            return m.PassTactics() if plays else None
        return next((p for p in plays if card in (None, p.card)), m.PassTactics())

    return choose


def test_N_COMBAT_9_before_combat_window_asks_attacker_first_once_each() -> None:
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["deadly_cut"], "beasts": ["keep_searching"]},
        choose=play_first("before", "beasts"),
    )
    windows = [e for e in fight.before(m.CombatOpened) if isinstance(e, m.WindowOpened)]
    assert [(w.window, w.seats) for w in windows] == [
        ("setup", ("velathi", "beasts")),  # every holder is asked, nothing fits there
        ("before", ("velathi", "beasts")),
    ]
    resolved = [e for e in fight.events if isinstance(e, m.ChoiceResolved)][2:4]
    assert [(e.seat, e.declined) for e in resolved] == [("velathi", True), ("beasts", False)]
    played = fight.of(m.TacticPlayed)[0]
    assert (played.seat, played.card) == ("beasts", "keep_searching")  # type: ignore[attr-defined]
    smite = [e for e in fight.of(m.EffectDamage) if e.smite]  # type: ignore[attr-defined]
    assert smite and smite[0].amount == 2  # type: ignore[attr-defined]


def test_N_COMBAT_9_every_holder_is_asked_though_nothing_fits() -> None:
    # The ruling: hand sizes decide who is asked, so a window never tells what a hand holds.
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["home_advantage"], "beasts": []},  # a combat option, no ↑↑↑
    )
    before = [e for e in fight.before(m.CombatOpened) if isinstance(e, m.WindowOpened)]
    assert [(w.window, w.seats) for w in before] == [
        ("setup", ("velathi",)),
        ("before", ("velathi",)),
    ]
    windows_asked = [(who, o) for who, o in fight.asked if m.StandingPass() in o]
    assert windows_asked[:2] == [("velathi", [m.PassTactics(), m.StandingPass()])] * 2
    windows = fight.of(m.WindowOpened)
    assert all(w.seats == ("velathi",) for w in windows)  # type: ignore[attr-defined]
    assert any(w.window == "group" for w in windows)  # type: ignore[attr-defined]


def standing_pass_for(seat: str) -> Chooser:
    """``seat`` gives a standing pass the first time a window asks it."""

    def choose(combat: Combat, who: str, options: Sequence[Command]) -> Command | None:
        return m.StandingPass() if who == seat and m.StandingPass() in options else None

    return choose


def test_N_COMBAT_9_a_standing_pass_answers_every_later_window() -> None:
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["deadly_cut", "home_advantage"], "beasts": ["keep_searching"]},
        choose=standing_pass_for("velathi"),
    )
    (given,) = fight.of(m.StandingPassGiven)
    assert given.seat == "velathi"  # type: ignore[attr-defined]
    later = fight.events[fight.events.index(given) :]
    windows = [e for e in later if isinstance(e, m.WindowOpened)]
    assert windows and all("velathi" not in w.seats for w in windows)
    asked = [who for who, options in fight.asked if m.StandingPass() in options]
    assert asked.count("velathi") == 1
    assert fight.env.hand("velathi") == ("deadly_cut", "home_advantage")  # nothing played
    assert fight.combat.standing_passes == ("velathi",)


def test_N_COMBAT_9_no_window_once_every_holder_gave_a_standing_pass() -> None:
    # Nobody left to ask: groups activate as without cards (logged, and no window follows).
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["deadly_cut"], "beasts": []},
        choose=standing_pass_for("velathi"),
    )
    given = fight.of(m.StandingPassGiven)[0]
    later = fight.events[fight.events.index(given) :]
    assert not [e for e in later if isinstance(e, m.WindowOpened)]
    assert [e for e in later if isinstance(e, m.GroupActivated)]


def test_N_COMBAT_9_default_policy_gives_a_standing_pass_with_no_combat_card() -> None:
    # too_many has resource and development options only: nothing for any window; the
    # beasts' after-combat card keeps them asked (and the last window needs no standing pass).
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["too_many"], "beasts": ["home_advantage"]},
    )
    assert [e.seat for e in fight.of(m.StandingPassGiven)] == ["velathi"]  # type: ignore[attr-defined]
    asked = [who for who, options in fight.asked if m.StandingPass() in options]
    assert asked.count("velathi") == 1 and asked.count("beasts") > 2  # beasts may play later


def test_N_CIV_2_stoneskin_on_a_before_combat_option() -> None:
    # N-FAQ-18: Stoneskin triggers on before-combat options too.
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["deadly_cut"], "beasts": []},
        choose=play_first("before", "velathi"),
    )
    opening = fight.before(m.CombatOpened)
    (hardened,) = [e for e in opening if isinstance(e, m.StoneskinHardened)]
    assert (hardened.seat, hardened.amount) == ("velathi", 1)
    granted = [e for e in opening if isinstance(e, m.BonusGranted)]
    assert [e.attack for e in granted] == [2]  # deadly_cut's +2 on the chosen group


def test_N_CIV_2_no_stoneskin_for_other_civilisations() -> None:
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": [], "beasts": ["keep_searching"]},
        choose=play_first("before", "beasts"),
    )
    assert fight.of(m.TacticPlayed) and not fight.of(m.StoneskinHardened)


def test_N_COMBAT_11_window_before_each_active_group_owner_first() -> None:
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["deadly_cut"], "beasts": ["fearless"]},
    )
    events = fight.events
    for i, event in enumerate(events):
        if isinstance(event, m.WindowOpened) and event.window == "group":
            activated = events[i - 1]
            assert isinstance(activated, m.GroupActivated)
            owner = fight.combat.groups[activated.group].owner
            assert event.seats[0] == owner
    assert any(isinstance(e, m.WindowOpened) and e.window == "group" for e in events)


def test_N_TAC_2_one_option_per_window_per_player() -> None:
    fight = CardFight(
        {"velathi": start_units("velathi"), "beasts": start_units("beasts")},
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["deadly_cut", "deadly_cut"], "beasts": []},
        choose=play_first("before", "velathi"),
    )
    before = fight.before(m.CombatOpened)
    assert len([e for e in before if isinstance(e, m.TacticPlayed)]) == 1
    asked = [(who, o) for who, o in fight.asked if any(isinstance(x, m.PlayTactic) for x in o)]
    assert len([a for a in asked if a[0] == "velathi"]) >= 1
    assert fight.hands["velathi"] == ["deadly_cut"]  # the second copy stays in hand for now


@pytest.mark.parametrize("wins", [True, False])
def test_N_COMBAT_27_after_combat_option_waits_and_needs_its_condition(wins: bool) -> None:
    if wins:
        forces = {"velathi": start_units("velathi"), "beasts": [("goblin", 1)]}
    else:
        forces = {"velathi": [("disciple", 1)], "beasts": start_units("beasts")}
    fight = CardFight(
        forces,
        attacker="velathi",
        defender="beasts",
        hands={"velathi": ["home_advantage"], "beasts": []},
        choose=play_first("group", "velathi", "home_advantage"),
    )
    (played,) = fight.of(m.TacticPlayed)
    assert played.deferred  # type: ignore[attr-defined]
    (deferred,) = fight.of(m.DeferredResolved)
    assert deferred.lapsed is (not wins)  # type: ignore[attr-defined]
    ended = fight.events.index(fight.of(m.CombatDecided)[0])
    draws = [e for e in fight.events[ended:] if isinstance(e, TacticCardDrawn)]
    assert len(draws) == (1 if wins else 0)


# -- the Naga --------------------------------------------------------------------------------


def test_N_CIV_3_spirits_embrace_at_the_start_of_rounds() -> None:
    def embrace(combat: Combat, who: str, options: Sequence[Command]) -> Command | None:
        offered = [o for o in options if isinstance(o, m.SpiritsEmbrace) and o.group is not None]
        return offered[0] if offered else None

    fight = CardFight(
        {"naga": start_units("naga"), "beasts": start_units("beasts")},
        attacker="naga",
        defender="beasts",
        flare={"naga": 4},
        choose=embrace,
    )
    embraced = fight.of(m.SpiritsEmbraced)
    assert embraced
    # At most once per round, right after the round starts (which offers it), and paid for.
    for event in embraced:
        index = fight.events.index(event)
        started = fight.events[index - 2]
        assert isinstance(started, m.RoundStarted) and started.embrace == ("naga",)
    rounds = [e.round for e in fight.of(m.RoundStarted)]  # type: ignore[attr-defined]
    assert rounds == list(range(1, len(rounds) + 1))
    gained = sum(e.flare for e in fight.of(m.AttackResolved))  # type: ignore[attr-defined]
    assert fight.env.flare("naga") == 4 + gained - 2 * len(embraced) >= 0  # the host's


def redirect(combat: Combat, who: str, options: Sequence[Command]) -> Command | None:
    if any(isinstance(x, m.RedirectBiome) for x in options):
        return m.RedirectBiome(redirect=True)
    return None


def test_N_COMBAT_8_naga_three_zones_away_pays_two_flare() -> None:
    # The Naga base (a lake) at z00; the combat zone z30 is three zones away and borders
    # the lake z31: the zones strictly between are two, so redirection costs 2 flare.
    game_map = grid_map(["N . . . E V", "H . . L . ."])
    ctx, state = position(
        game_map,
        [("naga", "kambar", "z30", 2), ("velathi", "disciple", "z30", 2)],
        seats=("velathi", "beasts", "humans", "naga"),
        active="velathi",
        phase="combat",
    )
    env = combat_env(ctx, state)
    assert env.flare_cost("naga", "z30") == 2
    assert env.flare_cost("naga", "z50") is None  # no lake in or next to it
    fight = CardFight(
        {"velathi": start_units("velathi"), "naga": start_units("naga")},
        attacker="velathi",
        defender="naga",
        card="forest_hunting_trails_velathi",
        flare={"naga": 3},
        flare_cost=env.flare_cost("naga", "z30"),
        choose=redirect,
    )
    (fixed,) = fight.of(m.BiomeTargetFixed)
    assert fixed.holders == ("naga",)  # type: ignore[attr-defined]
    assert (fixed.redirected_by, fixed.flare_paid) == ("naga", 2)  # type: ignore[attr-defined]
    (raised,) = fight.of(m.InitiativeRaised)
    assert raised.seat == "naga"  # type: ignore[attr-defined]


def test_N_COMBAT_8_redirect_needs_enough_flare() -> None:
    fight = CardFight(
        {"velathi": start_units("velathi"), "naga": start_units("naga")},
        attacker="velathi",
        defender="naga",
        card="forest_hunting_trails_velathi",
        flare={"naga": 1},
        flare_cost=2,
        choose=redirect,
    )
    assert fight.of(m.BiomeTargetFixed)[0].holders == ("velathi",)  # type: ignore[attr-defined]


def test_N_COMBAT_8_all_effects_cannot_be_redirected() -> None:
    fight = CardFight(
        {"velathi": start_units("velathi"), "naga": start_units("naga")},
        attacker="velathi",
        defender="naga",
        card="forest_a_familiar_area",
        flare={"naga": 5},
    )
    assert not any(isinstance(o, m.RedirectBiome) for _, options in fight.asked for o in options)


# -- three players in one zone ---------------------------------------------------------------


def test_N_COMBAT_1a_three_players_fight_one_opponent_at_a_time() -> None:
    from nataterra_core.games.nataterra.rules.combat_phase import attacker_in, contested

    _ctx, state = position(
        grid_map(["V E H . . ."]),
        [
            ("velathi", "disciple", "z30", 2),
            ("beasts", "orc", "z30", 2),
            ("humans", "peasant", "z30", 2),
        ],
        seats=("velathi", "beasts", "humans"),
        active="velathi",
        phase="combat",
    )
    assert contested(state) == [("z30", "beasts"), ("z30", "humans")]
    # Once the attacker has gone (it retreated or lost), whoever is left fights on: the
    # next player in turn order attacks.
    assert attacker_in(state, {"beasts", "humans"}) == "beasts"
    gone = msgspec.structs.replace(
        state, units=tuple(s for s in state.units if s.owner != "velathi")
    )
    assert contested(gone) == [("z30", "humans")]


# -- Strategise ------------------------------------------------------------------------------


def test_N_ABL_7_strategise_joins_from_next_door_once_per_turn_and_stays_on_retreat() -> None:
    ctx, state = position(
        grid_map(["V . . . . E", ". . . . . ."]),
        [
            ("velathi", "disciple", "z20", 2),  # next to both fights
            ("velathi", "zealot", "z30", 1),
            ("beasts", "orc", "z30", 1),
            ("velathi", "hunter", "z21", 1),
            ("beasts", "woodcutter", "z21", 1),
        ],
        active="velathi",
        phase="combat",
        sides={"velathi": {"disciple": "a"}},  # tech A: Stealth and Strategise
    )

    decider = Nataterra(ctx.pack, contexts=[ctx])
    counter = 0

    def play(command: Command, seat: str = "velathi") -> list[Event]:
        nonlocal state, counter
        events = events_of(
            decider.decide(state, command, DiceStream(SEED, GAME, "", counter), seat=seat)
        )
        for event in events:
            state = decider.evolve(state, event)
            counter = getattr(event, "counter_after", None) or counter
        return list(events)

    play(StartCombat(zone="z30", defender="beasts"))
    legal = decider.legal_commands(state, "velathi")
    assert m.Strategise(unit="disciple", origin="z20", count=2) in legal
    play(m.Strategise(unit="disciple", origin="z20", count=2))
    assert decider.acting_seats(state) == ("velathi",)  # nothing left to join: deployment
    deploys = decider.legal_commands(state, "velathi")
    assert any(isinstance(c, m.DeployGroup) and c.origin == "z20" for c in deploys)
    # Play on: Velathi retreats at the first chance; the joined Disciples stay in z20.
    while state.combat is not None:
        seat = decider.acting_seats(state)[0]
        options = decider.legal_commands(state, seat)
        retreat = m.Retreat(retreat=True)
        choice = retreat if retreat in options and seat == "velathi" else options[-1]
        if isinstance(options[0], m.DeployGroup):
            choice = max(options, key=lambda c: c.size)  # type: ignore[attr-defined]
        play(choice, seat)
    lost = state.player("velathi").pool["disciple"] - 3  # 3 Disciple tokens start in the pool
    disciples = [s for s in state.units if s.unit == "disciple"]
    assert [(s.zone, s.count) for s in disciples] == ([("z20", 2 - lost)] if lost < 2 else [])
    assert not any(s.unit == "zealot" and s.zone == "z30" for s in state.units)  # retreated
    # The second fight of the turn, next door too: those Disciples have strategised already.
    play(StartCombat(zone="z21", defender="beasts"))
    assert not any(isinstance(c, m.Strategise) for c in decider.legal_commands(state, "velathi"))


def _strategising(disciples: int, *commands: Command) -> tuple[Nataterra, GameState]:
    """Velathi attack z30 with Disciples (tech A: Strategise) next door in z20; after
    ``commands`` (the combat has started)."""
    ctx, state = position(
        grid_map(["V . . . . E"]),
        [
            ("velathi", "disciple", "z20", disciples),
            ("velathi", "zealot", "z30", 1),
            ("beasts", "orc", "z30", 1),
        ],
        active="velathi",
        phase="combat",
        sides={"velathi": {"disciple": "a"}},
    )
    decider = Nataterra(ctx.pack, contexts=[ctx])
    for command in (StartCombat(zone="z30", defender="beasts"), *commands):
        for event in events_of(
            decider.decide(state, command, DiceStream(SEED, GAME, ""), seat="velathi")
        ):
            state = decider.evolve(state, event)
    return decider, state


def test_N_ABL_7_joining_part_of_a_stack_leaves_the_rest_to_choose() -> None:
    # Regression: the combat and the turn both counted a join, so after joining one of two
    # Disciples nobody was left to decide (found by random play).
    decider, state = _strategising(2, m.Strategise(unit="disciple", origin="z20", count=1))
    assert decider.acting_seats(state) == ("velathi",)
    assert m.Strategise(unit="disciple", origin="z20", count=1) in decider.legal_commands(
        state, "velathi"
    )


def test_N_ABL_7_joining_one_stack_twice_keeps_every_unit() -> None:
    # Regression: two joins from one zone made two reserve entries, and deploying from
    # either took the units from both (found while speeding up the set-up).
    deploy = m.DeployGroup(unit="disciple", size=3, slot="melee", origin="z20")
    joins = (
        m.Strategise(unit="disciple", origin="z20", count=1),
        m.Strategise(unit="disciple", origin="z20", count=2),
    )
    decider, state = _strategising(3, *joins)
    assert state.combat is not None
    assert sum(f.count for f in state.combat.reserve if f.origin == "z20") == 3
    assert deploy in decider.legal_commands(state, "velathi")
    decider, state = _strategising(3, *joins, deploy)
    assert state.combat is not None
    assert all(f.count >= 0 for f in state.combat.reserve)
    group = state.combat.groups[-1]
    assert (group.unit, group.units, group.origin) == ("disciple", 3, "z20")
    assert sum(f.count for f in state.combat.reserve if f.origin == "z20") == 0


def test_N_COMBAT_9_window_messages_have_sentences() -> None:
    # play and replay print the windows in words, never by the fallback tag.
    from nataterra_core.games.nataterra.words import describe_command, describe_event

    said = [
        describe_command(m.PassTactics(), "velathi"),
        describe_command(m.StandingPass(), "velathi"),
        describe_event(m.WindowOpened(window="group", seats=("beasts", "velathi"))),
        describe_event(m.StandingPassGiven(seat="velathi")),
    ]
    assert said == [
        "velathi passes in this tactic window",
        "velathi passes in every tactic window left in this combat",
        "the group tactic window asks beasts, velathi",
        "velathi will not be asked in this combat's tactic windows again",
    ]
