"""The combat sandbox's bonus tokens and small map (issue: combat sandbox)."""

from __future__ import annotations

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.messages.combat import (
    DeployGroup,
    Retreat,
    RetreatUnits,
    UnitsRetreated,
)
from nataterra_core.games.nataterra.messages.sandbox import StartBattle
from nataterra_core.games.nataterra.rules.combat.model import Boost
from nataterra_core.games.nataterra.rules.combat.sandbox import (
    Battle,
    ForceSpec,
    MapZone,
    Sandbox,
    battle_option,
)
from nataterra_core.kernel import DiceStream, Setup, seed_from_number

PACK = load_pack()
SEED, GAME = seed_from_number(3)


def run(battle: Battle, retreat: str | None = None) -> tuple[Sandbox, object, list[object]]:
    sandbox = Sandbox(PACK)
    options = {"battle": battle_option(battle)}
    sandbox.validate_options(options)
    state = sandbox.initial_state(Setup(game_id=GAME, seats=("velathi", "beasts"), options=options))
    events: list[object] = []

    def fold(new: tuple[object, ...]) -> None:
        nonlocal state
        for event in new:
            state = sandbox.evolve(state, event)  # type: ignore[arg-type]
        events.extend(new)

    fold(sandbox.decide(state, StartBattle(), DiceStream(SEED, GAME, "", 0), seat=None).events)
    while sandbox.outcome(state) is None:  # type: ignore[arg-type]
        seat = sandbox.acting_seats(state)[0]  # type: ignore[arg-type]
        options_ = sandbox.legal_commands(state, seat)  # type: ignore[arg-type]
        choice = options_[-1]
        if isinstance(options_[0], DeployGroup):
            choice = max(options_, key=lambda c: c.size)  # type: ignore[attr-defined]
        elif Retreat(retreat=True) in options_:
            choice = Retreat(retreat=seat == retreat)
        elif isinstance(options_[0], RetreatUnits):
            choice = options_[0]
        dice = DiceStream(SEED, GAME, "", state.counter)  # type: ignore[attr-defined]
        fold(sandbox.decide(state, choice, dice, seat=seat).events)  # type: ignore[arg-type]
    return sandbox, state, events


def test_sandbox_bonus_tokens_are_given_at_deployment() -> None:
    # As an Outpost and a Barricade would (N-STR-3): 1 attack per unit, 2 armor per group.
    battle = Battle(
        attacker="velathi",
        defender="beasts",
        forces=(ForceSpec("velathi", "disciple", 2), ForceSpec("beasts", "orc", 2)),
        boosts={"velathi": Boost(attack_per_unit=1, armor_per_group=2)},
    )
    sandbox = Sandbox(PACK)
    options = {"battle": battle_option(battle)}
    state = sandbox.initial_state(Setup(game_id=GAME, seats=("velathi", "beasts"), options=options))
    for event in sandbox.decide(
        state, StartBattle(), DiceStream(SEED, GAME, "", 0), seat=None
    ).events:
        state = sandbox.evolve(state, event)
    while state.combat is not None and state.combat.stage == "deploy":
        seat = sandbox.acting_seats(state)[0]
        deploy = max(sandbox.legal_commands(state, seat), key=lambda c: c.size)  # type: ignore[attr-defined]
        for event in sandbox.decide(state, deploy, DiceStream(SEED, GAME, "", 0), seat=seat).events:
            state = sandbox.evolve(state, event)
    assert state.combat is not None
    tokens = {g.owner: (g.attack_bonus, g.armor_bonus) for g in state.combat.groups}
    assert tokens == {"velathi": (2, 2), "beasts": (0, 0)}


def test_N_COMBAT_23_sandbox_with_a_small_map_retreats_into_it() -> None:
    battle = Battle(
        attacker="velathi",
        defender="beasts",
        biome="hills",
        zone="fight",
        forces=(ForceSpec("velathi", "disciple", 3), ForceSpec("beasts", "orc", 3)),
        map=(
            MapZone(id="fight", q=0, r=0, biome="hills"),
            MapZone(id="north", q=0, r=-1, biome="forest"),
            MapZone(id="lake", q=1, r=-1, biome="lake"),
            MapZone(id="home", q=-1, r=0, biome="swamp", base="velathi"),
        ),
    )
    _, _, events = run(battle, retreat="beasts")
    retreated = [e for e in events if isinstance(e, UnitsRetreated)]
    assert retreated and all(e.seat == "beasts" for e in retreated)
    # Not the lake, not the Velathi base: only "north" is open to the Beasts.
    assert {e.destination for e in retreated if not e.lost} <= {"north"}


def test_N_COMBAT_23_units_lost_for_want_of_a_zone_count_as_losses() -> None:
    """Issue 14 item 7: a retreat with nowhere to go destroys the units; the sandbox outcome
    counts them as losses, so losses plus survivors make up the starting force."""
    battle = Battle(
        attacker="velathi",
        defender="beasts",
        biome="hills",
        zone="fight",
        forces=(ForceSpec("velathi", "disciple", 3), ForceSpec("beasts", "orc", 3)),
        map=(
            MapZone(id="fight", q=0, r=0, biome="hills"),
            MapZone(id="lake", q=1, r=-1, biome="lake"),
            MapZone(id="home", q=-1, r=0, biome="swamp", base="velathi"),
        ),
    )
    sandbox, state, events = run(battle, retreat="beasts")
    lost = sum(e.count for e in events if isinstance(e, UnitsRetreated) and e.lost)
    assert lost > 0, "the Beasts had nowhere to retreat to"
    result = sandbox.outcome(state)  # type: ignore[arg-type]
    assert result is not None
    ended = state.result  # type: ignore[attr-defined]
    on_board = sum(g.units for g in state.combat.groups if g.owner == "beasts")  # type: ignore[attr-defined]
    assert (
        result.scores["beasts"]
        == ended.killed.get("beasts", 0) + ended.injured.get("beasts", 0) + lost
    )
    assert result.scores["beasts"] + on_board == 3
