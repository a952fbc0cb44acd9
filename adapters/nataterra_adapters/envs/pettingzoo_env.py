"""Every registered rule system as a PettingZoo AEC environment (the ``envs`` extra).

::

    from nataterra_adapters.envs.pettingzoo_env import env

    game = env("nataterra", seats=2, options={"max_turns": 20}, render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        mask = observation["action_mask"]
        action = None if terminated or truncated else game.action_space(agent).sample(mask)
        game.step(action)
    assert game.verify()  # the game's own log, closed at the end, verifies

Agents are the game's seats (its ``default_seats``). An observation is a dict:
``observation``, the seat's view through the system's encoder (``float32``, its layout in
``game.layout.describe()``), and ``action_mask`` (``int8``, 1 for each legal action). The
action space is ``Discrete(codec.size)``; an index names the same command in every state
(``game.describe(action)``). The agent to act is the first seat the rules let act (allies
acting together in a team game are asked one after the other). Rewards come at the end from
the outcome: +1 to each winner, -1 to the others, 0 to all in a draw. A game the rules end
(a turn limit included) terminates; ``max_commands`` truncates one. ``render`` gives the
spectator's view in the system's words. The game's log is kept (``log_bytes``) and closed
when the game ends, so ``verify`` re-executes it.

``reset(seed=N)`` starts a game from the public seed ``N``, ``reset()`` from a secret one;
``reset(options={"game_options": {...}})`` changes the game's options from then on (other
keys are ignored: PettingZoo's own test passes some).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from nataterra_core.game import GameSession, verify_log
from nataterra_core.kernel import Command
from nataterra_core.kernel.encoding import Layout
from nataterra_core.kernel.replay import Verdict

from .common import GameSpec, rewards_of

__all__ = ["RulesEnv", "env"]

FEATURE_BOUND = float(2**31)
"""Features are raw counts and flags; the observation box is this wide either way."""


class RulesEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A registered rule system as a PettingZoo AEC environment (see the module's text)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo reads it from the class)
        "name": "nataterra_rules_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "nataterra",
        seats: Sequence[str] | int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        render_mode: str | None = None,
        max_commands: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.spec_ = GameSpec(game, seats, options)
        self.render_mode = render_mode
        self.max_commands = max_commands
        self.possible_agents = list(self.spec_.seats)
        size = self.spec_.encoder.layout.size
        actions = self.spec_.codec.size
        observation = spaces.Dict(
            {
                "observation": spaces.Box(-FEATURE_BOUND, FEATURE_BOUND, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.session: GameSession | None = None
        self.commands = 0

    # -- the AEC API ------------------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        """The same space object for every call (PettingZoo seeds it)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        """``Discrete(codec.size)``, the same object for every call."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (from the public ``seed``, or a secret one)."""
        if options and "game_options" in options:
            self.spec_ = GameSpec(self.spec_.record.id, self.spec_.seats, options["game_options"])
        if seed is not None:
            for space in (*self.observation_spaces.values(), *self.action_spaces.values()):
                space.seed(seed)
        self.session = self.spec_.start(seed)
        self.commands = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s encoded view and its action mask (all 0 when it may not act)."""
        session = self._live()
        features = np.asarray(self.spec_.features(session, agent), dtype=np.float32)
        legal = session.legal_commands(agent) if not session.closed else ()
        mask = np.frombuffer(self.spec_.codec.mask(legal), dtype=np.int8)  # owns its fresh buffer
        return {"observation": features, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (an index of the codec; ``None`` once done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: give an action, not None")
        session = self._live()
        command = self.spec_.codec.decode(int(action), session.legal_commands(agent))
        self._apply(agent, command)

    def render(self) -> str | None:
        """The spectator's view in the system's words (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        session = self._live()
        record = self.spec_.record
        text = record.presenter.view(record.seat_view(session.state, None))
        outcome = session.outcome()
        if outcome is not None:
            text += "\n" + record.presenter.outcome(outcome)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (the game's log stays readable)."""

    # -- beyond the AEC API -----------------------------------------------------------------

    @property
    def layout(self) -> Layout:
        """The observation's documented layout."""
        return self.spec_.encoder.layout

    def describe(self, action: int) -> str:
        """What an action index means (in any state)."""
        return self.spec_.codec.describe(action)

    def log_bytes(self) -> bytes:
        """The game's log so far (complete, with the seed revealed, once the game is over)."""
        return self._live().log_bytes()

    def verify(self) -> Verdict:
        """Re-execute the finished game's log (:func:`~nataterra_core.game.verify_log`)."""
        return verify_log(self.log_bytes())

    # -- internals --------------------------------------------------------------------------

    def _live(self) -> GameSession:
        if self.session is None:
            raise RuntimeError("call reset() first")
        return self.session

    def _apply(self, agent: str, command: Command) -> None:
        session = self._live()
        session.apply(agent, command)
        self.commands += 1
        self._clear_rewards()
        outcome = session.outcome()
        if outcome is not None or (
            self.max_commands is not None and self.commands >= self.max_commands
        ):
            result = session.close()
            self.rewards = rewards_of(outcome, self.agents)
            done = dict.fromkeys(self.agents, True)
            if outcome is not None:
                self.terminations = done
            else:
                self.truncations = done
            self._accumulate_rewards()
            words = self.spec_.record.presenter.outcome(result)
            self.infos = {name: {"result": words} for name in self.agents}
        self._select()
        if self.render_mode == "human":
            self.render()

    def _select(self) -> None:
        """The first seat the rules let act; at the end, the agents in seat order."""
        acting = self._live().acting_seats()
        self.agent_selection = acting[0] if acting else self.agents[0]


def env(
    game: str = "nataterra",
    seats: Sequence[str] | int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> RulesEnv:
    """A :class:`RulesEnv` for a registered system (PettingZoo's ``env()`` convention)."""
    return RulesEnv(game, seats, options, **kwargs)
