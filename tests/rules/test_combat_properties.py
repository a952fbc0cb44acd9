"""Properties of random battles played through the combat flow (rules §6, §11, §12).

Random forces of the four civilisations (any unit types, any group-card sides), a random
biome, random legal choices from a seeded chooser and real dice. Every battle ends within
the round cap (N-COMBAT-29); no count or token ever goes negative; every unit is accounted
for at the end; folding the events reproduces the combat; every legal command is accepted
and commands outside the legal list are refused naming a rule; a sandbox log verifies.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from combat_helpers import PACK
from hypothesis import given, settings
from hypothesis import strategies as st

from nataterra_core.games.nataterra.messages.combat import (
    ActivationEnded,
    Attack,
    AttackResolved,
    AttackRolled,
    Backstab,
    ChooseGroup,
    ClaimArmor,
    CombatEnded,
    CombatStarted,
    DeployGroup,
    GroupActivated,
    Healed,
    HealGroup,
    PassTactics,
    PayInjury,
    Reroll,
    Retreat,
    RetreatUnits,
    RoundEnded,
    Support,
    Supported,
    UnitsRetreated,
)
from nataterra_core.games.nataterra.rules.combat.flow import (
    ROUND_CAP,
    CombatEnv,
    combat_from_start,
    decide_combat,
    decision,
    evolve_combat,
    evolve_with_host,
    run_on,
    start_combat,
)
from nataterra_core.games.nataterra.rules.combat.host import Answers
from nataterra_core.games.nataterra.rules.combat.model import Combat, Force
from nataterra_core.games.nataterra.rules.combat.sandbox import (
    Battle,
    ForceSpec,
    Sandbox,
    battle_option,
)
from nataterra_core.games.nataterra.state import Resources
from nataterra_core.kernel import (
    Command,
    DiceStream,
    Event,
    IllegalCommand,
    RecordCodec,
    Session,
    seed_from_number,
    verify,
)

CIVS = sorted(PACK.civilisations)
BIOMES = ["forest", "hills", "swamp", "desert", "mountain", "lake"]
ALL_UNITS = sorted(PACK.units)


@st.composite
def battles(draw: st.DrawFn) -> Battle:
    attacker, defender = draw(st.permutations(CIVS))[:2]
    forces = []
    for civ in (attacker, defender):
        roster = sorted(u.id for u in PACK.units_of(civ))
        types = draw(st.lists(st.sampled_from(roster), min_size=1, max_size=3, unique=True))
        for unit in types:
            count = draw(st.integers(1, 2 * PACK.units[unit].group_size + 1))
            side = draw(st.sampled_from([None, "a", "b"]))
            forces.append(ForceSpec(civ, unit, count, side))
    stocks = {
        civ: Resources(draw(st.integers(0, 3)), draw(st.integers(0, 2)), draw(st.integers(0, 2)))
        for civ in (attacker, defender)
    }
    return Battle(
        attacker=attacker,
        defender=defender,
        biome=draw(st.sampled_from(BIOMES)),
        forces=tuple(forces),
        stocks=stocks,
    )


def choose(rng: random.Random, options: Sequence[Command], passive: bool = False) -> Command:
    """A random legal choice; retreats are rare so that battles also run long. A
    ``passive`` chooser mostly supports, so that some battles reach the round cap."""
    if isinstance(options[0], Retreat):
        return Retreat(retreat=rng.random() < (0.01 if passive else 0.08))
    supports = [c for c in options if isinstance(c, Support)]
    if passive and supports and rng.random() < 0.95:
        return supports[rng.randrange(len(supports))]
    return options[rng.randrange(len(options))]


def outside(rng: random.Random, combat: Combat, legal: Sequence[Command]) -> list[Command]:
    """Commands of every kind, near the legal ones; those not legal must be refused."""
    n = len(combat.groups) + 2
    unit = rng.choice(ALL_UNITS)
    zone = rng.choice(["z00", "sandbox", combat.zone])
    candidates: list[Command] = [
        DeployGroup(unit=unit, size=rng.randrange(0, 6), slot=rng.choice(["melee", "flex"])),
        DeployGroup(unit=unit, size=rng.randrange(0, 6), slot="ranged"),
        ChooseGroup(group=rng.randrange(-1, n)),
        HealGroup(target=rng.randrange(-1, n)),
        Attack(target=rng.randrange(-1, n)),
        Support(target=rng.randrange(-1, n), bonus=rng.choice(["attack", "armor"])),
        Reroll(reroll=rng.random() < 0.5),
        ClaimArmor(accept=rng.random() < 0.5),
        Retreat(retreat=rng.random() < 0.5),
        Backstab(group=rng.randrange(-1, n), target=rng.randrange(-1, n)),
        Backstab(),
        RetreatUnits(unit=unit, count=rng.randrange(0, 5), destination=zone),
        PayInjury(group=rng.randrange(-1, n), pay=rng.random() < 0.5),
    ]
    known = set(legal)
    return [c for c in candidates if c not in known]


def check_invariants(combat: Combat, env: CombatEnv) -> None:
    assert combat.round <= ROUND_CAP
    for g in combat.groups:
        assert g.units >= 0
        assert g.damage >= 0
        assert g.attack_bonus >= 0
        assert g.armor_bonus >= 0
        assert g.units == 0 or g.damage < g.health  # N-COMBAT-16
    for force in combat.reserve:
        assert force.count >= 0
    for seat in combat.seats:  # the host's stocks (the combat keeps no copy)
        stock = env.stock(seat)
        assert min(stock.food, stock.wood, stock.metal) >= 0
    assert all(n >= 0 for n in combat.killed.values())
    assert all(n >= 0 for n in combat.injured.values())


SERVER_SEED, GAME_ID = seed_from_number(4242)


class Played:
    def __init__(self, started: CombatStarted, events: list[Event], combat: Combat) -> None:
        self.started, self.events, self.combat = started, events, combat


def play(
    battle: Battle,
    seed: int,
    *,
    probe: bool,
    passive: bool = False,
    hands: dict[str, tuple[str, ...]] | None = None,
) -> Played:
    """Play ``battle`` with random legal choices; with ``probe`` also try every legal
    command and some illegal ones at every decision. ``hands``: tactic cards the sides
    hold; they pass every window, and passing draws neither dice nor random choices."""
    rng = random.Random(seed)
    counts: dict[tuple[str, str], int] = {}
    sides: dict[str, dict[str, str]] = {battle.attacker: {}, battle.defender: {}}
    for spec in battle.forces:
        counts[spec.owner, spec.unit] = counts.get((spec.owner, spec.unit), 0) + spec.count
        if spec.side is not None:
            sides[spec.owner][spec.unit] = spec.side
    started = start_combat(
        zone="sandbox",
        biome=battle.biome,
        attacker=battle.attacker,
        defender=battle.defender,
        forces=[Force(o, u, n) for (o, u), n in counts.items()],
        sides=sides,  # type: ignore[arg-type]
        stocks=dict(battle.stocks),
    )
    counter = seed * 1000

    def dice() -> DiceStream:
        return DiceStream(SERVER_SEED, GAME_ID, "", counter)

    events: list[Event] = [started]
    env = CombatEnv(PACK, host=Answers(hands=hands, stocks=started.stocks, flare=started.flare))
    combat = combat_from_start(started)
    more, combat, _, env = run_on(env, combat, dice())
    events.extend(more)
    for _ in range(20_000):
        check_invariants(combat, env)
        if combat.stage == "end":
            break
        pending = decision(env, combat)
        assert pending is not None, f"stuck in stage {combat.stage}"
        seat, legal = pending
        assert legal, f"an empty decision in stage {combat.stage}"
        if probe:
            for command in legal:  # every legal command is accepted
                decide_combat(env, combat, seat, command, dice())
            for command in outside(rng, combat, legal):
                with pytest.raises(IllegalCommand) as refused:
                    decide_combat(env, combat, seat, command, dice())
                assert refused.value.rule_id.startswith("N-"), refused.value
            with pytest.raises(IllegalCommand) as refused:  # the other seat may not decide
                decide_combat(env, combat, combat.opponent(seat), legal[0], dice())
            assert refused.value.rule_id.startswith("N-")
        passing = [c for c in legal if isinstance(c, PassTactics)]
        chosen = passing[0] if passing else choose(rng, legal, passive)
        step = decide_combat(env, combat, seat, chosen, dice())
        for event in step:
            env, combat = evolve_with_host(env, combat, event)
            check_invariants(combat, env)
            if isinstance(event, AttackRolled | AttackResolved) and event.counter_after is not None:
                assert event.counter_before == counter
                counter = event.counter_after
        events.extend(step)
    else:  # pragma: no cover
        raise AssertionError("the battle did not end")
    return Played(started, events, combat)


def activation_order(events: Sequence[Event]) -> list[int]:
    """The groups in the order they became active (``GroupActivated``; a backstabbing
    group, active without one, by its attack)."""
    acting = (GroupActivated, AttackResolved, Healed, Supported, ActivationEnded)
    order: list[int] = []
    for event in events:
        if isinstance(event, acting) and (not order or order[-1] != event.group):
            order.append(event.group)
    return order


@settings(max_examples=60, deadline=None)
@given(battle=battles(), seed=st.integers(0, 10_000))
def test_N_COMBAT_10_activations_with_and_without_windows_match(battle: Battle, seed: int) -> None:
    # With a tactic card in hand a window may open at every activation; without one none
    # does. Passing every window, both play the same battle, every activation logged.
    folded = play(battle, seed, probe=False)
    hands = {battle.attacker: ("questionable_strategy",), battle.defender: ("out_of_the_rift",)}
    logged = play(battle, seed, probe=False, hands=hands)
    assert activation_order(folded.events) == activation_order(logged.events)
    assert [e for e in folded.events if isinstance(e, GroupActivated)] == [
        e for e in logged.events if isinstance(e, GroupActivated)
    ]
    for played in (folded, logged):
        assert isinstance(played.events[-1], CombatEnded)
    assert folded.events[-1] == logged.events[-1]  # winner, killed, injured
    assert folded.combat.round == logged.combat.round


@settings(max_examples=150, deadline=None)
@given(battle=battles(), seed=st.integers(0, 10_000), passive=st.booleans())
def test_random_battles_end_and_account_for_every_unit(
    battle: Battle, seed: int, passive: bool
) -> None:
    played = play(battle, seed, probe=False, passive=passive)
    combat, events = played.combat, played.events
    # N-COMBAT-29: within the round cap.
    rounds = [e.round for e in events if isinstance(e, RoundEnded)]
    assert rounds == list(range(1, len(rounds) + 1))
    assert len(rounds) <= ROUND_CAP and combat.round <= ROUND_CAP
    ended = events[-1]
    assert isinstance(ended, CombatEnded)
    assert [e for e in events if isinstance(e, CombatEnded)] == [ended]
    assert ended.killed == combat.killed and ended.injured == combat.injured
    # Units before = survivors (on the boards, sitting out, retreated) + casualties.
    for seat in (battle.attacker, battle.defender):
        before = sum(f.count for f in battle.forces if f.owner == seat)
        on_boards = sum(g.units for g in combat.groups if g.owner == seat)
        sitting_out = sum(f.count for f in combat.reserve if f.owner == seat)
        retreated = sum(e.count for e in events if isinstance(e, UnitsRetreated) and e.seat == seat)
        lost = ended.killed.get(seat, 0) + ended.injured.get(seat, 0)
        assert before == on_boards + sitting_out + retreated + lost, seat
    # N-COMBAT-25: the winner has groups left, or the other side retreated.
    if ended.winner is not None:
        loser = combat.opponent(ended.winner)
        assert combat.retreating == loser or (
            combat.has_groups(ended.winner) or ended.injured.get(ended.winner, 0)
        )
    # Replaying the events reproduces the end state.
    replayed = combat_from_start(played.started)
    for event in events[1:]:
        replayed = evolve_combat(PACK, replayed, event)
    assert replayed == combat


@settings(max_examples=40, deadline=None)
@given(battle=battles(), seed=st.integers(0, 10_000))
def test_random_battles_accept_every_legal_command_and_refuse_others(
    battle: Battle, seed: int
) -> None:
    play(battle, seed, probe=True)


@settings(max_examples=30, deadline=None)
@given(battle=battles(), seed=st.integers(0, 10_000), passive=st.booleans())
def test_random_battle_logs_verify(battle: Battle, seed: int, passive: bool) -> None:
    sandbox = Sandbox(PACK)
    server_seed, game_id = seed_from_number(seed)
    session = Session.new(
        sandbox,
        seats=(battle.attacker, battle.defender),
        server_seed=server_seed,
        game_id=game_id,
        options={"battle": battle_option(battle)},
    )
    rng = random.Random(seed)
    for _ in range(20_000):
        if session.outcome() is not None:
            break
        seat = session.acting_seats()[0]
        session.apply(seat, choose(rng, list(session.legal_commands(seat)), passive))
    outcome = session.outcome()
    assert outcome is not None
    # Folding the logged events with a fresh sandbox reproduces the end state.
    fresh = Sandbox(PACK)
    codec = RecordCodec(fresh.command_types, fresh.event_types)
    state = fresh.initial_state(session.setup)
    for seq, line in enumerate(session.lines[1:], 1):
        for event in codec.decode(line, seq).events:  # type: ignore[attr-defined]
            state = fresh.evolve(state, event)
    assert state == session.state
    session.close()
    verdict = verify(session.log_bytes(), lambda header: Sandbox(PACK))
    assert verdict.valid, verdict
    assert verdict.result == outcome
