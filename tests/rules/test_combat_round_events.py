"""The events of the rounds record what the steps and commands decided (issue 20 item 4):
the folds of :mod:`~nataterra_core.games.nataterra.rules.combat.round_folds` apply them and
read nothing of the content pack (no biome card's effect, no civilisation's ability)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.messages.sandbox import StartBattle
from nataterra_core.games.nataterra.rules.combat import flow, folds
from nataterra_core.games.nataterra.rules.combat.model import Combat
from nataterra_core.games.nataterra.rules.combat.round_folds import ROUND_FOLDS
from nataterra_core.games.nataterra.rules.combat.sandbox import (
    Battle,
    ForceSpec,
    Sandbox,
    battle_option,
)
from nataterra_core.kernel import DiceStream, Setup, seed_from_number

PACK = load_pack()

# Cards whose effects the round folds used to look up: a healing card, Drought, Quick Gains.
CARDS = (
    ("swamp", "swamp_knowledge_of_the_waterways_naga"),
    ("swamp", "swamp_knowledge_of_the_waterways_humans"),
    ("desert", "desert_drought"),
    ("desert", "desert_quick_gains_naga"),
    ("desert", "desert_quick_gains_humans"),
    ("hills", None),
)


class _Sealed:
    """A content pack that must not be read."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a round fold read the pack's {name}")


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every round event folded while the test runs is folded a second time with a sealed
    pack, which must give the same combat; counts them by type, and by each field that
    records a decision when it is off its default."""
    found: Counter[str] = Counter()
    for kind, fold in ROUND_FOLDS.items():

        def sealed(pack: Any, combat: Combat, event: Any, fold: Any = fold) -> Combat:
            after: Combat = fold(pack, combat, event)
            assert fold(_Sealed(), combat, event) == after, type(event).__name__
            found[type(event).__name__] += 1
            for name in ("embrace", "closing", "heal", "stabbers", "injuries", "mover"):
                if getattr(event, name, None):
                    found[f"{type(event).__name__}.{name}"] += 1
            return after

        # The flow folds from its own split of the table (plain folds, and those of the
        # events that change what the host holds): the same functions, sealed alike.
        for table in (folds.FOLDS, flow._PLAIN, flow._HOLDING):
            if kind in table:
                monkeypatch.setitem(table, kind, sealed)
    return found


def _battle(seed: int, biome: str, card: str | None) -> None:
    """A Naga against Humans sandbox battle with random legal choices (retreats among them)."""
    rng = random.Random(seed)
    naga, humans = PACK.civilisations["naga"].units, PACK.civilisations["humans"].units
    battle = Battle(
        attacker="naga",
        defender="humans",
        biome=biome,
        biome_card=card,
        forces=(
            ForceSpec("naga", naga[0], 4),
            ForceSpec("naga", naga[1], 3, "b"),
            ForceSpec("humans", humans[0], 4, "a"),
            ForceSpec("humans", humans[1], 3),
        ),
    )
    sandbox = Sandbox(PACK)
    server_seed, game_id = seed_from_number(seed)
    options = {"battle": battle_option(battle)}
    state = sandbox.initial_state(Setup(game_id=game_id, seats=("naga", "humans"), options=options))
    dice = DiceStream(server_seed, game_id, "", 0)
    state = sandbox.decide(state, StartBattle(), dice, seat=None).state
    while sandbox.outcome(state) is None:
        decision = sandbox.decision(state)
        seat = decision.acting[0]
        command = rng.choice(decision.legal(seat))
        dice = DiceStream(server_seed, game_id, "", state.counter)
        state = sandbox.decide(state, command, dice, seat=seat, legal=True).state


def test_N_COMBAT_10_round_folds_apply_the_events_without_the_pack(seen: Counter[str]) -> None:
    for biome, card in CARDS:
        for seed in range(8):
            _battle(seed, biome, card)
    # Each recorded decision was met, with something to record.
    for what in (
        "RoundStarted",
        "RoundStarted.embrace",  # N-CIV-3: the Naga gain flare and are offered the Embrace
        "RoundEnded.closing",  # N-COMBAT-8: Drought and the healing cards
        "RoundClosing.heal",
        "RetreatChosen.stabbers",  # N-COMBAT-24
        "CombatDecided.injuries",  # N-COMBAT-26
        "Aftermath.mover",  # Quick Gains
        "GroupActivated",
        "AttackResolved",
    ):
        assert seen[what], what
