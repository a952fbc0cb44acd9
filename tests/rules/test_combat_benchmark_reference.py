"""The combat benchmark's reference reducer plays the engine's battles (issue 20, item 6):
from the same seeds, the same battles, round for round, so that ``combat_ratio`` compares
like with like (benchmarks/combat_rounds.py)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.messages.sandbox import StartBattle
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.rules.combat.sandbox import Sandbox, battle_option
from nataterra_core.kernel import DiceStream, Setup

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCHMARKS))
        return importlib.import_module("combat_rounds")


def test_reference_groups_are_the_engine_deployment(bench: ModuleType) -> None:
    """Group ids break ties (the first tied group acts or is attacked first, N-COMBAT-10/13),
    so the reference lists its groups in the order the default policy deploys them."""
    pack = load_pack()
    decider = Sandbox(pack)
    options = {"battle": battle_option(bench.STANDARD_BATTLE)}
    state = decider.initial_state(Setup(game_id="g", seats=bench.SEATS, options=options))
    policy, dice = DefaultPolicy(pack), DiceStream(b"k" * 32, "g", "")
    decided = decider.decide(state, StartBattle(), dice, seat=None)
    while decided.state.combat is not None and not decided.state.combat.order:  # deploying
        assert decided.decision is not None
        seat = decided.decision.acting[0]
        command = policy.choose(decided.state.combat, seat, decided.decision.legal(seat))
        decided = decider.decide(decided.state, command, dice, seat=seat, legal=True)
    state = decided.state
    assert state.combat is not None
    reference = bench.reference_groups(pack)
    engine = [
        [0 if g.owner == "velathi" else 1, g.units, g.attack, g.armor, g.health, g.initiative]
        for g in state.combat.groups
    ]
    fields = [bench.OWNER, bench.UNITS, bench.ATTACK, bench.ARMOR, bench.HEALTH, bench.INIT]
    assert [[g[f] for f in fields] for g in reference] == engine


@pytest.mark.parametrize("seed", range(12))
def test_reference_plays_the_engine_rounds(bench: ModuleType, seed: int) -> None:
    """Battle *i* from seed *i* lasts as many rounds in both (the round in which a side is
    wiped out does not end, N-COMBAT-25); Retaliation (N-ABL-9) reaches a ranged attacker
    once the target's side has no melee group left to hit (N-COMBAT-13)."""
    pack = load_pack()
    seeds = range(seed * 10, seed * 10 + 10)
    engine = [
        bench.engine_battles(Sandbox(pack), DefaultPolicy(pack), range(s, s + 1)) for s in seeds
    ]
    reference = [bench.reference_battles(pack, range(s, s + 1)) for s in seeds]
    assert engine == reference
