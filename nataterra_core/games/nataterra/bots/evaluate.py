"""Nataterra's evaluation for the search player (``Hooks.evaluate``): a seat's winning
chance, estimated from a whole state without playing on.

Two things decide a game: the victory cubes (N-WIN-2: ``dominance_cubes`` of them win a
learning game; N-WIN-3: three conditions of three cubes each in advanced mode) and the army
left to win them with and to guard the base (N-WIN-1). Each seat still in the game gets a
strength, its share of the way to victory plus its units against the average seat's, and its
chance is its share of ``exp(strength)`` (a softmax: the leader's edge grows with the gap,
and the chances of the seats still in sum to 1). A seat eliminated, or whose base is
destroyed, has none; a game over is 1 for a winner, ½ each for a draw, 0 otherwise.
"""

from __future__ import annotations

import math

from ..state import GameState

__all__ = ["CUBE_WEIGHT", "evaluate"]

CUBE_WEIGHT = 3.0
"""The strength of a seat one win away from victory against one with no cube (units: how
much a whole average army is worth, 1)."""
ADVANCED_TARGET = 9
"""Cubes of an advanced game's three conditions (N-WIN-3, three each, provisional)."""


def evaluate(state: GameState, seat: str) -> float:
    """``seat``'s chance of winning from ``state``, in [0, 1] (see the module docstring)."""
    if state.phase == "over":
        if not state.winners:
            return 0.5
        return float(seat in state.winners)
    standing = [
        s for s in state.seats if s not in state.eliminated and s not in state.bases_destroyed
    ]
    if seat not in standing:
        return 0.0
    units = dict.fromkeys(standing, 0)
    for stack in state.units:
        if stack.owner in units:
            units[stack.owner] += stack.count
    average = max(1.0, sum(units.values()) / len(standing))
    target = state.dominance_cubes if state.mode == "learning" else ADVANCED_TARGET
    strength = {
        s: CUBE_WEIGHT * state.cubes.get(s, 0) / max(1, target) + units[s] / average
        for s in standing
    }
    top = max(strength.values())
    weights = {s: math.exp(value - top) for s, value in strength.items()}
    return weights[seat] / sum(weights.values())
