"""The combat stage table (N-COMBAT-10): every stage has a row, and every move from one stage
to another that the folds make in played games and battles is one the table lists."""

from __future__ import annotations

import random
from typing import Any, get_args

import pytest

from nataterra_core.game import new_game
from nataterra_core.games.nataterra.bots import HeuristicPlayer, play
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.messages.sandbox import StartBattle
from nataterra_core.games.nataterra.rules.combat import folds
from nataterra_core.games.nataterra.rules.combat.model import Combat, Stage
from nataterra_core.games.nataterra.rules.combat.sandbox import (
    Battle,
    ForceSpec,
    Sandbox,
    battle_option,
)
from nataterra_core.games.nataterra.rules.combat.stages import STAGES
from nataterra_core.kernel import DiceStream, Setup, seed_from_number

PACK = load_pack()


@pytest.fixture
def moves(monkeypatch: pytest.MonkeyPatch) -> set[tuple[str, str, str]]:
    """(stage, next stage, event) for every fold that changes the stage, while the test runs."""
    seen: set[tuple[str, str, str]] = set()
    for kind, fold in list(folds.FOLDS.items()):

        def watched(pack: Any, combat: Combat, event: Any, fold: Any = fold) -> Combat:
            after: Combat = fold(pack, combat, event)
            if after.stage != combat.stage:
                seen.add((combat.stage, after.stage, type(event).__name__))
            return after

        monkeypatch.setitem(folds.FOLDS, kind, watched)
    return seen


def _battles(seed: int) -> None:
    """Sandbox battles with random choices, a biome card and retreats among them."""
    rng = random.Random(seed)
    sandbox = Sandbox(PACK)
    battle = Battle(
        attacker="naga",
        defender="humans",
        biome="forest",
        biome_card=rng.choice([c.id for c in PACK.biome_cards.values() if c.biome == "forest"]),
        forces=(
            ForceSpec("naga", PACK.civilisations["naga"].units[0], 4),
            ForceSpec("naga", PACK.civilisations["naga"].units[1], 2, "b"),
            ForceSpec("humans", PACK.civilisations["humans"].units[0], 4, "a"),
            ForceSpec("humans", PACK.civilisations["humans"].units[1], 3),
        ),
    )
    options = {"battle": battle_option(battle)}
    server_seed, game_id = seed_from_number(seed)
    state = sandbox.initial_state(Setup(game_id=game_id, seats=("naga", "humans"), options=options))
    decided = sandbox.decide(
        state, StartBattle(), DiceStream(server_seed, game_id, "", 0), seat=None
    )
    state = decided.state
    while sandbox.outcome(state) is None:
        decision = sandbox.decision(state)
        seat = decision.acting[0]
        command = rng.choice(decision.legal(seat))
        dice = DiceStream(server_seed, game_id, "", state.counter)
        state = sandbox.decide(state, command, dice, seat=seat, legal=True).state


def test_N_COMBAT_10_every_stage_has_one_row() -> None:
    assert set(STAGES) == set(get_args(Stage))
    for stage, row in STAGES.items():
        assert row.then <= set(STAGES), stage
        assert row.rule.startswith("N-")


@pytest.mark.parametrize("seed", [1, 2])
def test_N_COMBAT_10_games_and_battles_move_only_as_the_table_says(
    seed: int, moves: set[tuple[str, str, str]]
) -> None:
    session = new_game(seed=seed, options={"max_turns": 40})
    play(session, {seat: HeuristicPlayer(seed) for seat in session.header.seats})
    for battle_seed in range(seed * 10, seed * 10 + 10):
        _battles(battle_seed)
    assert moves, "no combat was fought"
    unlisted = sorted((a, b, e) for a, b, e in moves if b not in STAGES[a].then)  # type: ignore[index]
    assert not unlisted, f"moves the stage table does not list: {unlisted}"
