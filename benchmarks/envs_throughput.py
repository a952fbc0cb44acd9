"""Research environments: steps per second through PettingZoo and OpenSpiel.

    python benchmarks/envs_throughput.py [--games N] [--max-turns T]

A random agent (masked uniform sampling) plays N games of 2-player Nataterra (learning map,
turn limit T) and N standard sandbox battles through the PettingZoo AEC environment: every
step observes (the seat view encoded, the legal mask built) and applies one command. Then
the same games as OpenSpiel states: legal actions, apply, and the cost of ``clone`` (what
OpenSpiel's MCTS pays per simulation). Needs the ``envs`` extra.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import pyspiel
from nataterra_adapters.envs.openspiel_game import register_all, short_name
from nataterra_adapters.envs.pettingzoo_env import env


def pettingzoo_steps(game: str, options: dict[str, int], games: int) -> tuple[int, float]:
    """(steps, seconds) of ``games`` random games through the AEC environment."""
    environment = env(game, options=options)
    steps, start = 0, time.perf_counter()
    for seed in range(games):
        environment.reset(seed=seed)
        for agent in environment.agent_iter():
            observation, _, terminated, truncated, _ = environment.last()
            action = None
            if not (terminated or truncated):
                mask = observation["action_mask"]
                action = environment.action_space(agent).sample(mask)
            environment.step(action)
            steps += 1
    return steps, time.perf_counter() - start


def openspiel_steps(game: str, options: dict[str, int], games: int) -> tuple[int, float, float]:
    """(actions, seconds, seconds per clone) of ``games`` random OpenSpiel playouts."""
    loaded = pyspiel.load_game(short_name(game), {"options": json.dumps(options)})
    rng = np.random.RandomState(0)
    actions, clones, cloning, start = 0, 0, 0.0, time.perf_counter()
    for _ in range(games):
        state = loaded.new_initial_state()
        while not state.is_terminal():
            if actions % 10 == 0:
                began = time.perf_counter()
                state.clone()
                cloning += time.perf_counter() - began
                clones += 1
            state.apply_action(int(rng.choice(state.legal_actions())))
            actions += 1
    return actions, time.perf_counter() - start - cloning, cloning / max(clones, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--max-turns", type=int, default=30)
    args = parser.parse_args()
    register_all()
    for game, options in (
        ("nataterra", {"max_turns": args.max_turns}),
        ("nataterra-combat-sandbox", {}),
    ):
        steps, seconds = pettingzoo_steps(game, options, args.games)
        print(f"pettingzoo {game}: {steps} steps in {seconds:.2f}s = {steps / seconds:.0f}/s")
        actions, seconds, clone = openspiel_steps(game, options, args.games)
        print(
            f"openspiel  {game}: {actions} actions in {seconds:.2f}s = "
            f"{actions / seconds:.0f}/s; clone {clone * 1e6:.0f} us"
        )


if __name__ == "__main__":
    main()
