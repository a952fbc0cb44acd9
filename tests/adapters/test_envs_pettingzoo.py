"""The PettingZoo AEC environment over every registered system (issue 19 item 2).

PettingZoo's own ``api_test`` passes for every registered system (games kept short by the
conformance test's options), a random agent plays whole games through the environment and
their logs verify. Skipped, with the reason, when the ``envs`` extra is not installed (CI
installs it).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the envs extra (pettingzoo) is not installed")

from nataterra_adapters.envs.pettingzoo_env import RulesEnv, env
from pettingzoo.test import api_test
from test_conformance import QUICK

from nataterra_core.kernel.encoding import CodecError
from nataterra_core.kernel.registry import systems

IDS = [
    record.id
    for record in systems()
    if record.hooks.observation is not None and record.hooks.action_codec is not None
]
"""The systems the research environments serve: those offering both research hooks (the
bare test system offers neither, and is refused by name)."""


def _env(rules_id: str, **kwargs: Any) -> RulesEnv:
    return env(rules_id, options=QUICK.get(rules_id), **kwargs)


def _random_game(game: RulesEnv, seed: int) -> int:
    """A random agent's game (uniform over the mask's legal actions; drawing from the legal
    indices is what ``action_space.sample(mask)`` does, without its checks of a mask of
    millions of entries)."""
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for _agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"].view(bool))))
        game.step(action)
        steps += 1
    return steps


@pytest.mark.parametrize("rules_id", IDS)
def test_pettingzoo_api_test_passes(rules_id: str) -> None:
    with warnings.catch_warnings():
        # Its advice on naming agents player_0 and on flat observations does not apply:
        # agents are the game's seats, observations carry their action mask.
        warnings.simplefilter("ignore")
        api_test(_env(rules_id, render_mode="ansi"), num_cycles=60)


@pytest.mark.parametrize(
    "seed", [1, *(pytest.param(seed, marks=pytest.mark.soak) for seed in range(2, 12))]
)
@pytest.mark.parametrize("rules_id", IDS)
def test_a_random_agent_plays_whole_games_whose_logs_verify(rules_id: str, seed: int) -> None:
    game = _env(rules_id)
    assert _random_game(game, seed) > 0
    assert not game.agents, "every agent is removed once the game is over"
    session = game.session
    assert session is not None and session.closed and session.outcome() is not None
    verdict = game.verify()
    assert verdict.valid, verdict.reason
    log = game.log_bytes()
    _random_game(game, seed)  # reset(seed) seeds the game and the action spaces alike
    assert game.log_bytes() == log


def test_rewards_come_at_the_end_from_the_outcome() -> None:
    game = _env("nataterra-combat-sandbox")
    game.reset(seed=3)
    totals: dict[str, float] = {}
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated:
            assert "won by" in info["result"] or "drawn" in info["result"]
        action = None
        if not (terminated or truncated):
            action = game.action_space(agent).sample(observation["action_mask"])
        game.step(action)
    session = game.session
    assert session is not None
    outcome = session.outcome()
    assert outcome is not None
    for seat in session.header.seats:
        expected = 0.0 if not outcome.winners else (1.0 if seat in outcome.winners else -1.0)
        assert totals[seat] == expected


def test_max_commands_truncates_and_the_abandoned_game_still_verifies() -> None:
    game = env("nataterra", options={"max_turns": 30}, max_commands=25)
    _random_game(game, 4)
    assert game.commands == 25
    verdict = game.verify()
    assert verdict.valid, verdict.reason
    assert b'"abandoned"' in game.log_bytes()


def test_an_action_outside_the_mask_is_refused_and_nothing_changes() -> None:
    game = _env("nataterra")
    game.reset(seed=5)
    observation = game.observe(game.agent_selection)
    illegal = int(observation["action_mask"].argmin())
    lines = game.log_bytes()
    with pytest.raises(CodecError, match="not legal now"):
        game.step(illegal)
    assert game.log_bytes() == lines


def test_render_is_the_spectators_view_in_words_and_actions_are_described() -> None:
    game = _env("nataterra", render_mode="ansi")
    game.reset(seed=6)
    text = game.render()
    assert text is not None and "velathi" in text
    mask = game.observe(game.agent_selection)["action_mask"]
    legal = [int(i) for i in mask.nonzero()[0]]
    assert all(game.describe(i).split()[0].endswith(".v1") for i in legal)
    assert game.layout.size == game.observation_space("velathi")["observation"].shape[0]


def test_a_system_without_the_research_hooks_is_refused_by_name() -> None:
    assert "pig-bare" not in IDS
    with pytest.raises(ValueError, match="pig-bare offers no observation encoder or action codec"):
        env("pig-bare")
