"""Every registered system as an OpenSpiel game (issue 19 item 3): OpenSpiel's own random
simulation test and its MCTS bot run on it. Skipped, with the reason, when ``open_spiel``
is not installed (CI installs it with the envs extra)."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

import numpy as np  # noqa: E402
from nataterra_adapters.envs.openspiel_game import RulesState, register_all, short_name  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from test_conformance import QUICK  # noqa: E402

from nataterra_core.game import verify_log  # noqa: E402
from nataterra_core.kernel.registry import systems  # noqa: E402

IDS = [
    record.id
    for record in systems()
    if record.hooks.observation is not None and record.hooks.action_codec is not None
]
"""The systems the research environments serve: those offering both research hooks (the
bare test system offers neither, and is refused by name)."""
NAMES = register_all()


MAX_LENGTH = 600
"""Actions after which a simulated game is abandoned (OpenSpiel's ``max_game_length``): it
keeps a system without a turn limit short; a Nataterra game of ``QUICK`` ends before."""


def _load(rules_id: str, **params: object) -> object:
    options = json.dumps(QUICK.get(rules_id, {}))
    defaults = {"options": options, "max_game_length": MAX_LENGTH}
    return pyspiel.load_game(short_name(rules_id), {**defaults, **params})


@pytest.mark.parametrize("rules_id", IDS)
def test_openspiel_random_simulation_test_passes(rules_id: str) -> None:
    assert short_name(rules_id) in NAMES
    pyspiel.random_sim_test(_load(rules_id), num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(
    ("rules_id", "options"),
    [("nataterra-combat-sandbox", {}), ("nataterra", {"max_turns": 2})],
)
def test_openspiel_mcts_bot_plays_a_game_whose_log_verifies(
    rules_id: str, options: dict[str, int]
) -> None:
    game = pyspiel.load_game(short_name(rules_id), {"options": json.dumps(options)})
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert isinstance(state, RulesState)
    session = state.to_session()
    assert session.state == state.state
    session.close()
    assert verify_log(session.log_bytes()).valid


def test_the_observer_shows_a_seat_its_hand_and_the_public_none() -> None:
    game = pyspiel.load_game(short_name("nataterra"), {"seed": 3})
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    seats = ("velathi", "beasts")
    while not any(state.state.player(seat).tactic_hand for seat in seats):
        state.apply_action(rng.choice(state.legal_actions()))
    holder = next(i for i, seat in enumerate(seats) if state.state.player(seat).tactic_hand)
    private = game.make_py_observer()
    public = game.make_py_observer(
        pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        )
    )
    private.set_from(state, holder)
    public.set_from(state, holder)
    hand = len(state.state.player(seats[holder]).tactic_hand)
    assert private.dict["my_tactics"].sum() == hand
    assert public.dict["my_tactics"].sum() == 0
    hands = [
        [p["tactic_hand"] for p in json.loads(observer.string_from(state, holder))["players"]]
        for observer in (private, public)
    ]
    assert hands[0][holder] == list(state.state.player(seats[holder]).tactic_hand)
    assert hands[0][1 - holder] is None and hands[1] == [None, None]


DETERMINISING = [r.id for r in systems() if r.hooks.determiniser is not None]


@pytest.mark.parametrize("rules_id", DETERMINISING)
def test_resampling_keeps_the_seats_view_and_openspiel_ismcts_plays(rules_id: str) -> None:
    """``resample_from_infostate`` gives a world the seat cannot tell from the real one (its
    view is the same), and OpenSpiel's information-set MCTS plays on it (the game, and each
    rollout, abandoned after 40 actions to keep it short)."""
    game = _load(rules_id, max_game_length=40)
    rng = np.random.RandomState(11)
    sampler = rng.uniform
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=4,
        random_state=rng,
        use_observation_string=True,
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        observer = game.make_py_observer()
        assert observer.string_from(world, player) == observer.string_from(state, player)
        assert world.legal_actions() == state.legal_actions()
        action = bot.step(state) if player == 0 else int(rng.choice(state.legal_actions()))
        state.apply_action(action)
    assert isinstance(state, RulesState) and state.returns()
