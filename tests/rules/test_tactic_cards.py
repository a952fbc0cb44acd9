"""The 60 printed tactic cards (N-TAC-4): every option of every card played through the
engine in its window, on a hand-made position built for that option.

Each test reads the option's compiled effects from the pack and sets up what the option
needs (units in the right biome, a structure, a pool token, a hand to discard from); it
then checks what the engine did against what the test itself expects from that set-up:
the stock, the units on the map, the hand, the structures, and the events of a combat.
The windows' rules have their own tests below, named after their rule ids.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest
from positions import Table, grid_map, position

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.content.schema import EffectSpec, TacticOption
from nataterra_core.games.nataterra.messages.combat import (
    AbilityGranted,
    BackstabDeclared,
    BonusGranted,
    DamageRemoved,
    EffectDamage,
    EmbraceGranted,
    InitiativeRaised,
    MoveAfterWinGranted,
    PassTactics,
    PlayerChosen,
    PlayTactic,
    Retreat,
    RetreatChosen,
    SpiritsEmbraced,
    StartCombat,
    StoneskinHardened,
    StrategiseGranted,
    StrategiseJoined,
    TacticPlayed,
    WithdrawalDeclared,
)
from nataterra_core.games.nataterra.messages.development import Build, Research
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.tactics import ResourcesGained, TacticCardDrawn
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.rules.combat.biome import EMBRACE_COST
from nataterra_core.games.nataterra.rules.combat.model import Combat
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.state import PlacedStructure, Resources
from nataterra_core.kernel import Command, Event

COVERS_ALL_TACTIC_CARDS = True  # the tests below are parametrized over every card

PACK = load_pack()
SEED_NUMBER = 17

# Bases of all four civilisations and a zone of every biome (z41 is a lake).
ROWS = [
    "V . s h D",  # z00 Velathi base (swamp), z10 forest, z20 swamp, z30 hills, z40 desert
    ". s h D L",  # z01 forest, z11 swamp, z21 hills, z31 desert, z41 lake
    "E . s h D",  # z02 Beasts base, z12 forest, z22 swamp, z32 hills, z42 desert (by the lake)
    "H . h s N",  # z03 Humans base (hills), z13 forest, z23 hills, z33 swamp, z43 Naga base
]
ZONE_OF = {
    "forest": "z12",
    "swamp": "z22",
    "hills": "z32",
    "desert": "z42",
    "lakeside": "z42",
    "any": "z22",
}
NOT_LAKESIDE = "z12"
FIGHTER = {"velathi": "disciple", "beasts": "orc", "humans": "spearman", "naga": "kambar"}
WORKER = {"velathi": "hunter", "beasts": "woodcutter", "humans": "peasant", "naga": "gatherer"}
RICH = Resources(20, 20, 20)


def opponent(civ: str) -> str:
    return "beasts" if civ != "beasts" else "velathi"


def options(window: Sequence[str]) -> list[tuple[str, int]]:
    return [
        (card.id, i)
        for card in PACK.tactics.values()
        for i, option in enumerate(card.options)
        if option.window in window
    ]


def effects(option: TacticOption, kind: str) -> list[EffectSpec]:
    return [e for e in option.effects if e.kind == kind]


def table(
    civ: str,
    card: str,
    units: list[tuple[str, str, str, int]],
    *,
    phase: str,
    built: Sequence[tuple[str, str, str]] = (),
    **changes: object,
) -> Table:
    """A 2-player position where ``civ`` is active, holds ``card`` (and ``changes``)."""
    seats = (civ, opponent(civ))
    ctx, state = position(grid_map(ROWS), units, seats=seats, active=civ, phase=phase)  # type: ignore[arg-type]
    deck = tuple(c.id for c in PACK.tactic_deck(civ) if c.id != card)
    fields: dict[str, object] = {"stock": RICH, "tactic_hand": (card,), "tactic_deck": deck}
    fields.update(changes)
    state = state.with_player(msgspec.structs.replace(state.player(civ), **fields))
    placed = tuple(PlacedStructure(o, s, z) for o, s, z in built)
    state = msgspec.structs.replace(state, structures=placed)
    return Table(ctx, state, seed_number=SEED_NUMBER)


def plays(t: Table, card: str, index: int) -> list[PlayTactic]:
    return [
        c for c in t.legal() if isinstance(c, PlayTactic) and c.card == card and c.option == index
    ]


def played_card(t: Table, civ: str, card: str) -> None:
    """N-TAC-1: playing one option discards the whole card."""
    player = t.state.player(civ)
    assert card not in player.tactic_hand and card in player.tactic_discard


def drawn(t: Table, civ: str) -> int:
    return sum(1 for e in t.of(TacticCardDrawn) if isinstance(e, TacticCardDrawn) and e.seat == civ)


def cost_of(option: TacticOption) -> Resources:
    return Resources(option.cost.food, option.cost.wood, option.cost.metal)


# -- movement options (N-MOV-6) ------------------------------------------------------------


def reach(t: Table, zone: str) -> int:
    """The longest legal move from ``zone``."""
    return max(
        (len(c.path) for c in t.legal() if isinstance(c, MoveUnits) and c.origin == zone),
        default=0,
    )


@pytest.mark.parametrize("card,index", options(["movement"]))
def test_N_MOV_6_every_movement_option_plays(card: str, index: int) -> None:
    civ = PACK.tactics[card].civ
    option = PACK.tactics[card].options[index]
    grant = option.effects[0]
    zone = ZONE_OF[grant.zone_filter]
    fighter = FIGHTER[civ]
    units = [(civ, fighter, zone, 3)]
    if grant.kind == "grant_stealth":  # an enemy next door, and one more zone beyond it
        units.append((opponent(civ), FIGHTER[opponent(civ)], "z32", 1))
    t = table(civ, card, units, phase="movement")
    before = reach(t, zone)
    through_before = any(isinstance(c, MoveUnits) and "z32" in c.path[:-1] for c in t.legal())
    chosen = [c for c in plays(t, card, index) if c.zone == zone]
    assert chosen, f"{card} option {index} is not offered for {zone}"
    t.play(chosen[0])
    played_card(t, civ, card)
    grants = [g for g in t.state.zone_grants if (g.seat, g.zone) == (civ, zone)]
    if grant.kind == "extra_movement":
        assert [g.movement for g in grants] == [grant.amount]
        assert reach(t, zone) > before
    else:  # Stealth: the enemy zone can now be passed through (N-MOV-4)
        assert [g.stealth for g in grants] == [grant.amount]
        assert not through_before
        assert any(isinstance(c, MoveUnits) and "z32" in c.path[:-1] for c in t.legal())
    assert drawn(t, civ) == sum(e.amount for e in effects(option, "draw_tactic"))


# -- resource options (N-TAC-1 conditions, N-RES-3) -----------------------------------------


def resource_position(card: str, index: int) -> tuple[Table, Resources]:
    """A position where the option gains something, and what it should gain."""
    civ = PACK.tactics[card].civ
    option = PACK.tactics[card].options[index]
    units: list[tuple[str, str, str, int]] = []
    changes: dict[str, object] = {"flare": option.flare}
    built: list[tuple[str, str, str]] = []
    expected = Resources()
    if option.min_units:
        units.append((civ, FIGHTER[civ], ZONE_OF[option.units_in_biome], option.min_units))
    for gain in effects(option, "gain_resources"):
        each = Resources(gain.resources.food, gain.resources.wood, gain.resources.metal)
        times = 1
        if gain.per == "units":  # two counted, one in a zone that does not count
            units += [(civ, gain.unit, ZONE_OF[gain.zone_filter], 2)]
            units += [(civ, gain.unit, NOT_LAKESIDE if gain.zone_filter != "forest" else "z22", 1)]
            if gain.side:
                changes["sides"] = {gain.unit: gain.side}
            times = 2
        elif gain.per == "structures":
            structure = PACK.civilisations[civ].structures[0]
            built = [(civ, structure, "z10"), (civ, structure, "z20")]
            times = 2
        elif gain.per == "unit_techs":
            techs = [t.id for t in PACK.techs.values() if t.civ == civ and t.kind == "unit"]
            changes["techs"] = tuple(techs[:3])
            times = 3
        elif gain.per == "tactics_in_hand":
            others = [c.id for c in PACK.tactic_deck(civ) if c.id != card][:2]
            changes["tactic_hand"] = (card, *others)
            times = 3  # this card included
        expected = expected + each.scaled(times)
    t = table(civ, card, units, phase="resources", built=built, **changes)
    return t, expected


@pytest.mark.parametrize("card,index", options(["resource"]))
def test_N_TAC_4_every_resource_option_plays(card: str, index: int) -> None:
    civ = PACK.tactics[card].civ
    option = PACK.tactics[card].options[index]
    t, expected = resource_position(card, index)
    stock, flare, hand = t.state.player(civ).stock, t.state.player(civ).flare, t.state.player(civ)
    chosen = plays(t, card, index)
    assert len(chosen) == 1
    t.play(chosen[0])
    played_card(t, civ, card)
    player = t.state.player(civ)
    assert player.stock == stock - cost_of(option) + expected  # N-RES-3: not multiplied
    gained_flare = sum(e.amount for e in effects(option, "gain_flare"))
    assert player.flare == flare - option.flare + gained_flare
    assert drawn(t, civ) == sum(e.amount for e in effects(option, "draw_tactic"))
    assert len(player.tactic_hand) == len(hand.tactic_hand) - 1 + drawn(t, civ)


@pytest.mark.parametrize(
    "card,index", [(c, i) for c, i in options(["resource"]) if PACK.tactics[c].options[i].min_units]
)
def test_N_TAC_1_a_resource_option_needs_its_units(card: str, index: int) -> None:
    civ = PACK.tactics[card].civ
    option = PACK.tactics[card].options[index]
    zone = ZONE_OF[option.units_in_biome]
    short = [(civ, FIGHTER[civ], zone, option.min_units - 1)] if option.min_units > 1 else []
    workers = [(civ, WORKER[civ], zone, 5)]  # workers are not combat units
    t = table(civ, card, short + workers, phase="resources")
    assert not plays(t, card, index)
    assert t.refused(PlayTactic(card=card, option=index)) == "N-TAC-1"


# -- development options (N-DEV-1..2, N-TAC-3) --------------------------------------------


@pytest.mark.parametrize("card,index", options(["development"]))
def test_N_TAC_3_every_development_option_plays(card: str, index: int) -> None:
    civ = PACK.tactics[card].civ
    option = PACK.tactics[card].options[index]
    kinds = {e.kind for e in option.effects}
    units: list[tuple[str, str, str, int]] = [(civ, WORKER[civ], "z21", 1)]
    built: list[tuple[str, str, str]] = []
    changes: dict[str, object] = {"stock": RICH + cost_of(option)}
    other = next(c.id for c in PACK.tactic_deck(civ) if c.id != card)
    if option.discards:
        changes["tactic_hand"] = (card, other)
    spec = option.effects[0]
    zone = "z22"
    if spec.kind == "recruit":
        changes["pool"] = {spec.unit: 5}
        if spec.zone_filter == "structure":
            structure = spec.structure or next(
                s for s in PACK.civilisations[civ].structures if PACK.structures[s].combat is None
            )
            zone = "z32"
            built.append((civ, structure, zone))
        elif spec.zone_filter == "unmoved_units":
            units.append((civ, FIGHTER[civ], zone, spec.at_least))
        else:  # a zone by the lake that already holds one of them
            zone = ZONE_OF[spec.zone_filter]
            units.append((civ, spec.unit, zone, spec.at_least))
    elif spec.kind == "replace_unit":
        changes["pool"] = {spec.unit: 1}
        units.append((civ, spec.replaces, zone, 1))
    elif spec.kind == "destroy_structure":
        built.append((civ, PACK.civilisations[civ].structures[0], zone))
    elif spec.kind in ("build_structure", "unlock_structure"):
        first = PACK.civilisations[civ].structures[0]
        price = PACK.structures[first].cost
        unlocked = (first,) if spec.kind == "build_structure" else ()
        # exactly the discounted price: without the discount it could not be built
        changes["stock"] = Resources(price.food, max(0, price.wood - 1), price.metal)
        changes["structures_unlocked"] = unlocked
        if spec.kind == "unlock_structure":
            changes["stock"] = RICH
    t = table(civ, card, units, phase="development", built=built, **changes)
    before = t.state
    counted = {(s.unit, s.zone): s.count for s in before.units if s.owner == civ}
    if spec.kind == "build_structure":
        assert not any(isinstance(c, Build) for c in t.legal())
    chosen = [
        c for c in plays(t, card, index) if c.zone in (None, zone) or spec.kind == "build_structure"
    ]
    assert chosen, f"{card} option {index} is not offered"
    command = chosen[0]
    if option.discards:
        assert command.discard == other
    t.play(command)
    played_card(t, civ, card)
    player = t.state.player(civ)
    after = {(s.unit, s.zone): s.count for s in t.state.units if s.owner == civ}
    if option.discards:
        assert other in player.tactic_discard
    for spec in option.effects:
        if spec.kind == "recruit":
            assert after[spec.unit, zone] == counted.get((spec.unit, zone), 0) + max(1, spec.amount)
        elif spec.kind == "replace_unit":
            assert (spec.replaces, zone) not in after and after[spec.unit, zone] == 1
            assert player.pool[spec.replaces] == before.player(civ).pool.get(spec.replaces, 0) + 1
        elif spec.kind == "build_structure":
            assert len(t.state.structures) == 1 and player.stock == Resources()
        elif spec.kind == "destroy_structure":
            assert not t.state.structures
            price = PACK.structures[before.structures[0].structure].cost
            refund = spec.amount * (price.food + price.wood + price.metal)
            assert player.stock.wood == before.player(civ).stock.wood - option.cost.wood + refund
        elif spec.kind == "unlock_structure":  # N-FAQ-16: buildable in this very phase
            (new,) = player.structures_unlocked
            assert any(isinstance(c, Build) and c.structure == new for c in t.legal())
        elif spec.kind == "structure_discount":
            assert player.structure_discount.wood == spec.resources.wood
        elif spec.kind == "tech_discount":
            assert player.tech_discount.wood == spec.resources.wood
        elif spec.kind == "gain_flare":
            assert player.flare == before.player(civ).flare + spec.amount
    assert drawn(t, civ) == sum(e.amount for e in effects(option, "draw_tactic"))
    assert kinds <= {
        "recruit",
        "replace_unit",
        "build_structure",
        "destroy_structure",
        "unlock_structure",
        "structure_discount",
        "tech_discount",
        "gain_flare",
        "draw_tactic",
    }


# -- combat options (N-COMBAT-9/11/27, N-TAC-1a, N-CIV-2) ----------------------------------

EVENT_OF: dict[str, type[Event]] = {
    "attack_bonus": BonusGranted,
    "armor_bonus": BonusGranted,
    "remove_damage": DamageRemoved,
    "damage": EffectDamage,
    "raise_initiative": InitiativeRaised,
    "grant_ability": AbilityGranted,
    "draw_tactic": TacticCardDrawn,
    "gain_resources": ResourcesGained,
    "gain_flare": ResourcesGained,
    "no_retreat": PlayerChosen,
    "withdraw": WithdrawalDeclared,
    "extra_embrace": EmbraceGranted,
    "move_after_win": MoveAfterWinGranted,
    "strategise_zone": StrategiseGranted,
}


def fight_with(t: Table, civ: str, card: str, index: int) -> None:
    """Fight the combat out, playing ``card``'s option the first time it is offered and
    passing every other tactic window."""

    def choose(combat: Combat, seat: str, commands: Sequence[Command]) -> Command | None:
        mine = [
            c for c in commands if isinstance(c, PlayTactic) and (c.card, c.option) == (card, index)
        ]
        hostile = [c for c in mine if c.player in (None, opponent(civ))]
        if hostile:
            return hostile[0]
        if any(isinstance(c, PassTactics) for c in commands):
            return PassTactics()
        return None

    t.fight_out(choose)


@pytest.mark.parametrize("card,index", options(["combat", "after_combat", "combat_setup"]))
def test_N_TAC_1a_every_combat_option_plays_in_a_combat(card: str, index: int) -> None:
    civ = PACK.tactics[card].civ
    option = PACK.tactics[card].options[index]
    enemy = opponent(civ)
    wins = option.condition == "win"
    units = [
        (civ, FIGHTER[civ], "z22", 6 if wins else 3),
        (enemy, FIGHTER[enemy], "z22", 1 if wins else 3),
    ]
    if effects(option, "strategise_zone"):
        units.append((civ, FIGHTER[civ], "z21", 2))
    # enough flare for the option after a Spirit's Embrace at the start of round 1
    t = table(civ, card, units, phase="combat", flare=option.flare + EMBRACE_COST)
    t.play(StartCombat(zone="z22", defender=enemy))
    fight_with(t, civ, card, index)
    played = [e for e in t.of(TacticPlayed) if isinstance(e, TacticPlayed) and e.card == card]
    assert [(e.seat, e.option) for e in played] == [(civ, index)]
    played_card(t, civ, card)
    for spec in option.effects:
        kind = EVENT_OF[spec.kind]
        assert t.of(kind), f"{card} option {index}: no {kind.__name__}"
    stoneskin = [e for e in t.of(StoneskinHardened) if isinstance(e, StoneskinHardened)]
    assert bool(stoneskin) == (civ == "velathi")  # N-CIV-2: every option in a combat
    if effects(option, "strategise_zone"):
        joined = [e for e in t.of(StrategiseJoined) if isinstance(e, StrategiseJoined)]
        assert joined and {e.origin for e in joined} == {"z21"}


# -- the rules of the windows -------------------------------------------------------------


def test_N_TURN_2_one_option_per_phase_and_only_of_its_kind() -> None:
    # born_killer: a movement option (0) and two combat options (1, 2)
    t = table(
        "velathi",
        "born_killer",
        [("velathi", "disciple", "z22", 3)],
        phase="movement",
        tactic_hand=("born_killer", "unstoppable"),
    )
    offered = {(c.card, c.option) for c in t.legal() if isinstance(c, PlayTactic)}
    assert offered == {("born_killer", 0), ("unstoppable", 0)}
    assert t.refused(PlayTactic(card="born_killer", option=1)) == "N-TURN-2"
    t.play(PlayTactic(card="born_killer", option=0, zone="z22"))
    assert not any(isinstance(c, PlayTactic) for c in t.legal())
    assert t.refused(PlayTactic(card="unstoppable", option=0, zone="z22")) == "N-TURN-2"
    # the next phase has its own window, and the next turn starts afresh
    t.play(EndPhase(phase="movement"))
    assert "movement" in t.state.tactic_phases


def test_N_MOV_6_only_units_that_have_not_moved_yet_get_the_points() -> None:
    t = table("velathi", "keep_searching", [("velathi", "disciple", "z22", 2)], phase="movement")
    (first,) = [
        c for c in t.legal() if isinstance(c, MoveUnits) and c.count == 1 and c.path == ("z12",)
    ]
    t.play(first)  # one disciple leaves; the other waits in z22
    t.play(PlayTactic(card="keep_searching", option=0, zone="z22"))
    moved_on = [c for c in t.legal() if isinstance(c, MoveUnits) and c.origin == "z12"]
    assert not moved_on  # the moved disciple gets nothing
    longest = max(len(c.path) for c in t.legal() if isinstance(c, MoveUnits) and c.origin == "z22")
    assert longest == PACK.units["disciple"].movement + 1


def test_N_TAC_3_a_discount_is_used_by_the_next_build_only() -> None:
    price = PACK.structures["bone_tower"].cost
    t = table(
        "beasts",
        "in_search_of_hope",
        [("beasts", "woodcutter", "z22", 1), ("beasts", "ogre", "z22", 1)],
        phase="development",
        pool={"woodcutter": 1},
        structures_unlocked=("bone_tower",),
    )
    t.play(PlayTactic(card="in_search_of_hope", option=2, zone="z22"))
    stock = t.state.player("beasts").stock
    t.play(next(c for c in t.legal() if isinstance(c, Build) and c.zone == "z22"))
    paid = stock - t.state.player("beasts").stock
    assert paid == Resources(price.food, max(0, price.wood - 2), price.metal)
    assert t.state.player("beasts").structure_discount == Resources()


def test_N_TAC_3_a_tech_discount_lowers_the_next_research() -> None:
    tech = next(c for c in PACK.techs.values() if c.civ == "naga" and c.kind == "resource")
    t = table(
        "naga",
        "encircle_the_prey",
        [("naga", "gatherer", "z22", 1)],
        phase="development",
        tactic_hand=("encircle_the_prey", "chosen"),
        tech_hand=(tech.id,),
    )
    t.play(PlayTactic(card="encircle_the_prey", option=2, discard="chosen"))
    stock = t.state.player("naga").stock
    t.play(Research(tech=tech.id))
    price = tech.cost
    assert price is not None
    assert stock - t.state.player("naga").stock == Resources(
        price.food, max(0, price.wood - 4), price.metal
    )
    assert t.state.player("naga").tech_discount == Resources()


def test_N_FAQ_16_a_structure_unlocked_by_a_card_is_built_the_same_turn() -> None:
    t = table(
        "velathi",
        "take_the_stage",
        [("velathi", "hunter", "z22", 1)],
        phase="development",
        structures_unlocked=(),
    )
    assert not any(isinstance(c, Build) for c in t.legal())
    t.play(PlayTactic(card="take_the_stage", option=2))
    assert t.state.player("velathi").structures_unlocked == ("underground_tunnel",)
    builds = [c for c in t.legal() if isinstance(c, Build)]
    assert builds and all(c.structure == "underground_tunnel" for c in builds)
    t.play(builds[0])
    assert t.state.structures[0].structure == "underground_tunnel"


def test_N_COMBAT_22_a_withdrawing_player_retreats_unasked_and_without_backstab() -> None:
    t = table(
        "humans",
        "watchtowers",
        [("humans", "spearman", "z22", 3), ("beasts", "orc", "z22", 3)],
        phase="combat",
    )
    t.play(StartCombat(zone="z22", defender="beasts"))
    asked_humans = False
    while t.state.combat is not None:
        seat, commands = t.seat, t.legal()
        asked_humans |= seat == "humans" and any(isinstance(c, Retreat) for c in commands)
        play = [c for c in commands if c == PlayTactic(card="watchtowers", option=1)]
        if play:
            t.play(play[0])
        elif PassTactics() in commands:
            t.play(PassTactics())
        else:
            t.play(DefaultPolicy(PACK).choose(t.state.combat, seat, commands, hand=t.hand(seat)))
    assert t.of(WithdrawalDeclared)
    retreats = [e for e in t.of(RetreatChosen) if isinstance(e, RetreatChosen)]
    assert retreats[-1].seat == "humans" and retreats[-1].retreat and retreats[-1].forced
    assert not t.of(BackstabDeclared) and not asked_humans


def test_N_COMBAT_22_a_chosen_player_cannot_retreat() -> None:
    t = table(
        "naga",
        "forest_creatures",
        [("naga", "kambar", "z22", 3), ("beasts", "orc", "z22", 3)],
        phase="combat",
    )
    t.play(StartCombat(zone="z22", defender="beasts"))
    policy = DefaultPolicy(PACK)
    while not any(isinstance(c, PlayTactic) for c in t.legal()):
        assert t.state.combat is not None
        t.play(policy.choose(t.state.combat, t.seat, t.legal(), hand=t.hand()))
    offers = [c for c in t.legal() if isinstance(c, PlayTactic)]
    assert {c.player for c in offers} == {"naga", "beasts"}  # any player of the combat
    t.play(next(c for c in offers if c.player == "beasts"))
    assert t.state.combat is not None and "beasts" in t.state.combat.no_retreat
    while t.state.combat is not None:
        commands = t.legal()
        assert not any(isinstance(c, Retreat) for c in commands) or t.seat != "beasts"
        t.play(policy.choose(t.state.combat, t.seat, commands, hand=t.hand()))


def test_N_CIV_3_a_card_adds_a_free_spirits_embrace() -> None:
    t = table(
        "naga",
        "encircle_the_prey",
        [("naga", "kambar", "z22", 3), ("beasts", "orc", "z22", 3)],
        phase="combat",
        flare=1,  # too little for the usual Embrace (2): only the card's one is offered
    )
    t.play(StartCombat(zone="z22", defender="beasts"))
    fight_with(t, "naga", "encircle_the_prey", 1)
    embraced = [e for e in t.of(SpiritsEmbraced) if isinstance(e, SpiritsEmbraced)]
    assert embraced[0].flare == 0  # the first, at round 1, is the card's
    assert [e.flare for e in embraced].count(0) == 1


def test_N_COMBAT_10_a_raised_marker_reorders_the_groups_during_the_rounds() -> None:
    t = table(
        "velathi",
        "new_paths",
        [("velathi", "disciple", "z22", 3), ("beasts", "orc", "z22", 3)],
        phase="combat",
        tactic_hand=("new_paths",),
    )
    t.play(StartCombat(zone="z22", defender="beasts"))
    fight_with(t, "velathi", "new_paths", 2)  # ↑↑↑: played in the before-combat window
    raised = [e for e in t.of(InitiativeRaised) if isinstance(e, InitiativeRaised)]
    assert [(e.seat, e.unit, e.amount) for e in raised] == [("velathi", "disciple", 1)]


def test_N_COMBAT_11_active_group_options_are_for_its_owner_only() -> None:
    t = table(
        "velathi",
        "unstoppable",
        [("velathi", "disciple", "z22", 3), ("beasts", "orc", "z22", 3)],
        phase="combat",
    )
    t.play(StartCombat(zone="z22", defender="beasts"))
    seen_enemy_turn = False
    while t.state.combat is not None:
        combat = t.state.combat
        commands = t.legal()
        if combat.active >= 0 and combat.groups[combat.active].owner == "beasts":
            assert not any(isinstance(c, PlayTactic) for c in commands)
            seen_enemy_turn = True
        t.play(PassTactics() if PassTactics() in commands else commands[0])
    assert seen_enemy_turn


def test_N_TAC_4_every_card_has_its_three_printed_options() -> None:
    assert len(PACK.tactics) == 60
    for civ in ("beasts", "humans", "naga", "velathi"):
        assert len(PACK.tactic_deck(civ)) == 15
    for card in PACK.tactics.values():
        assert len(card.options) == 3, card.id
        assert all(option.text and option.text_de for option in card.options), card.id
