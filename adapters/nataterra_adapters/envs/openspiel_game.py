"""Every registered rule system as an OpenSpiel Python game (the ``envs`` extra).

::

    import pyspiel
    from nataterra_adapters.envs.openspiel_game import register_all

    register_all()  # python_nataterra, python_nataterra_combat_sandbox, ...
    game = pyspiel.load_game("python_nataterra", {"players": 2, "options": '{"max_turns": 8}'})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)

The game type is sequential, imperfect-information, general-sum with terminal rewards (+1
to each winner, -1 to the others, 0 in a draw) and **sampled-stochastic** chance: the dice
are the engine's own seeded stream, drawn inside ``apply_action`` (docs/DICE.md), so a state
and its clones share their future dice. Game parameters: ``players`` (a count, the default
seats), ``seed`` (the first game's public seed; each new initial state takes the next one),
``options`` (the game's options as JSON) and ``max_game_length`` (a game still running after
that many actions ends as abandoned, returns 0). Actions are the system's stable action codec
(``num_distinct_actions`` is its size); the observer encodes the seat view (the public view
for ``private_info=NONE``), so an observation never holds what the seat cannot see; its
string is the view as canonical JSON. ``resample_from_infostate`` samples the hidden
information through the system's determiniser, so OpenSpiel's information-set MCTS
(``ismcts.ISMCTSBot(..., use_observation_string=True)``) plays on the seat's view. OpenSpiel's
own MCTS bot searches cloned states, which hold the whole truth: that is how OpenSpiel's
vanilla MCTS treats every imperfect-information game; the library's own search player sees
only its seat's view.

A state keeps only the engine's immutable game state; ``to_session`` replays the actions into
a logged :class:`~nataterra_core.game.GameSession` whose log verifies like any game's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import msgspec
import numpy as np
import pyspiel

from nataterra_core.game import GameSession
from nataterra_core.kernel import Command, Decided, Decision, DiceStream, Setup, seed_from_number
from nataterra_core.kernel.registry import systems

from .common import GameSpec, rewards_of

__all__ = ["RulesGame", "RulesState", "register_all", "short_name"]

DEFAULT_MAX_LENGTH = 20_000
_REGISTERED: dict[str, str] = {}


def short_name(rules_id: str) -> str:
    """The OpenSpiel name of a registered system (``python_nataterra_combat_sandbox``)."""
    return "python_" + rules_id.replace("-", "_")


def register_all() -> list[str]:
    """Register with OpenSpiel (once) every rule system that offers the observation and
    action hooks; return their OpenSpiel names."""
    names = []
    for record in systems():
        hooks = record.hooks
        if hooks.observation is None or hooks.action_codec is None:
            continue
        name = short_name(record.id)
        if name not in _REGISTERED:
            pyspiel.register_game(_game_type(record.id), _game_class(record.id))
            _REGISTERED[name] = record.id
        names.append(name)
    return names


def _game_type(rules_id: str) -> pyspiel.GameType:
    record = next(r for r in systems() if r.id == rules_id)
    return pyspiel.GameType(
        short_name=short_name(rules_id),
        long_name=record.title,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(record.player_counts),
        min_num_players=min(record.player_counts),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": min(record.player_counts),
            "seed": 0,
            "options": "{}",
            "max_game_length": DEFAULT_MAX_LENGTH,
        },
    )


def _game_class(rules_id: str) -> type[RulesGame]:
    class Game(RulesGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            super().__init__(rules_id, params or {})

    Game.__name__ = Game.__qualname__ = f"RulesGame_{short_name(rules_id)}"
    return Game


class RulesGame(pyspiel.Game):  # type: ignore[misc]
    """A registered rule system with one set-up (seats, options) as an OpenSpiel game."""

    def __init__(self, rules_id: str, params: dict[str, Any]) -> None:
        merged = {**_game_type(rules_id).parameter_specification, **params}
        options = json.loads(str(merged["options"]))
        self.spec_ = GameSpec(rules_id, int(merged["players"]), options)
        self.max_length = int(merged["max_game_length"])
        self.next_seed = int(merged["seed"])
        self.decider = self.spec_.record.decider(None)
        load_pack = self.spec_.record.load_pack
        self.pack = load_pack(None) if load_pack is not None else None
        self._decisions: dict[int, tuple[Any, Decision[Command]]] = {}
        seats = self.spec_.seats
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spec_.codec.size,
            max_chance_outcomes=0,
            num_players=len(seats),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=self.max_length,
        )
        super().__init__(_game_type(rules_id), info, merged)

    def new_initial_state(self) -> RulesState:
        """A new game, dealt from the next public seed."""
        seed, self.next_seed = self.next_seed, self.next_seed + 1
        return RulesState(self, seed)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> RulesObserver:
        """The seat's view as a tensor (``private_info=NONE``: the public view)."""
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            raise ValueError("no information-state observer: observations are seat views")
        private = iig_obs_type is None or (
            iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        )
        return RulesObserver(self, private)

    def decision(self, state: Any) -> Decision[Command]:
        """The engine's decision for ``state``, kept for the last few states (legal actions
        and applying one both need it)."""
        found = self._decisions.get(id(state))
        if found is not None and found[0] is state:
            return found[1]
        if len(self._decisions) > 64:
            self._decisions.clear()
        decision = self.decider.decision(state)
        self._decisions[id(state)] = (state, decision)
        return decision


class RulesState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's immutable state and its dice key (cloned by OpenSpiel)."""

    def __init__(self, game: RulesGame, seed: int, world: Any = None, actions: int = 0) -> None:
        """The game dealt from public ``seed``; or, given ``world`` (a resampled state), that
        position with dice of its own keyed by ``seed``."""
        super().__init__(game)
        server_seed, game_id = seed_from_number(seed)
        self.seed = seed if world is None else None
        self.key = (server_seed, game_id)
        self.actions = actions
        if world is not None:
            self.state = world
            return
        decider = game.decider
        setup = Setup(game_id=game_id, seats=game.spec_.seats, options=dict(game.spec_.options))
        self.state = decider.initial_state(setup)
        self.state = self._run(decider.start_command(setup), None)

    def _game(self) -> RulesGame:
        game = self.get_game()
        assert isinstance(game, RulesGame)
        return game

    def _run(self, command: Command, seat: str | None) -> Any:
        """The state after ``command``: decided with the dice at the state's counter."""
        decider = self._game().decider
        counter = decider.dice_counter(self.state)
        dice = DiceStream(self.key[0], self.key[1], "", counter)
        decided = decider.decide(self.state, command, dice, seat=seat, legal=seat is not None)
        if isinstance(decided, Decided):
            return decided.state
        state = self.state
        for event in decided:
            state = decider.evolve(state, event)
        return state

    def _seat(self, player: int) -> str:
        return self._game().spec_.seats[player]

    def current_player(self) -> int:
        """The first seat the rules let act, or TERMINAL."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        acting = self._game().decision(self.state).acting
        return self._game().spec_.seats.index(acting[0])

    def _legal(self, player: int) -> Sequence[Command]:
        return self._game().decision(self.state).legal(self._seat(player))

    def _legal_actions(self, player: int) -> list[int]:
        """The codec's indices of the seat's legal commands, ascending."""
        codec = self._game().spec_.codec
        return sorted(codec.encode(command) for command in self._legal(player))

    def _apply_action(self, action: int) -> None:
        player = self.current_player()
        command = self._game().spec_.codec.decode(int(action), self._legal(player))
        self.state = self._run(command, self._seat(player))
        self.actions += 1

    def _action_to_string(self, player: int, action: int) -> str:
        return self._game().spec_.codec.describe(int(action))

    def is_terminal(self) -> bool:
        """Over by the rules, or abandoned after ``max_game_length`` actions."""
        game = self._game()
        return game.decider.outcome(self.state) is not None or self.actions >= game.max_length

    def returns(self) -> list[float]:
        """+1 per winner, -1 for the others, 0 in a draw (and until the end)."""
        game = self._game()
        rewards = rewards_of(game.decider.outcome(self.state), game.spec_.seats)
        return [rewards[seat] for seat in game.spec_.seats]

    def __str__(self) -> str:
        record = self._game().spec_.record
        return record.presenter.view(record.seat_view(self.state, None))

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> RulesState:
        """A state ``player`` cannot tell from this one: the system's determiniser samples what
        the seat cannot see (others' hands, deck orders) from its view, and the new state
        rolls dice of its own (for OpenSpiel's information-set MCTS)."""
        game = self._game()
        record = game.spec_.record
        determinise = record.hooks.determiniser
        if determinise is None:
            raise NotImplementedError(f"{record.id} offers no determiniser")
        seed = int(probability_sampler() * 2**62)
        view = record.seat_view(self.state, self._seat(player))
        world = determinise(view, game.pack, seed)
        return RulesState(game, seed, world=world, actions=self.actions)

    def to_session(self) -> GameSession:
        """The game so far as a logged session (the actions replayed from the seed)."""
        game = self._game()
        if self.seed is None:
            raise ValueError("a resampled state is no game's position: it has no log")
        session = game.spec_.start(self.seed)
        replay = RulesState(game, self.seed)
        for action in self.history():
            player = replay.current_player()
            command = game.spec_.codec.decode(action, replay._legal(player))
            session.apply(replay._seat(player), command)
            replay._apply_action(action)
        return session


class RulesObserver:
    """OpenSpiel's observer over the system's encoder: ``tensor`` and per-segment ``dict``."""

    def __init__(self, game: RulesGame, private: bool) -> None:
        layout = game.spec_.encoder.layout
        self.game = game
        self.private = private
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {
            s.name: self.tensor[layout.offsets[s.name] : layout.offsets[s.name] + s.size]
            for s in layout.segments
        }

    def _view(self, state: RulesState, player: int) -> Any:
        seat = self.game.spec_.seats[player] if self.private else None
        return self.game.spec_.record.seat_view(state.state, seat)

    def set_from(self, state: RulesState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s view of ``state``."""
        self.tensor[:] = self.game.spec_.encoder.encode(self._view(state, player))

    def string_from(self, state: RulesState, player: int) -> str:
        """``player``'s view of ``state`` as canonical JSON: all the seat may see, so two
        states with one string offer the seat the same actions (what OpenSpiel's
        information-set MCTS keys its nodes by); ``str(state)`` is the view in words."""
        view = self._view(state, player)
        return msgspec.json.encode(view, order="deterministic").decode()
