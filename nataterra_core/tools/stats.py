"""Statistics for reports over many games: Wilson intervals and Bradley-Terry ratings.

Pure functions over counts (no game, no randomness), shared by the battle calculator and the
tournament runner.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

__all__ = ["Z95", "Rating", "bradley_terry", "wilson_interval"]

Z95 = 1.959963984540054
"""The two-sided 95 % normal quantile."""

_ELO = 400 / math.log(10)
"""Elo points per unit of log-strength (a 400-point gap is 10:1 odds)."""


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n`` (default: 95 %).

    Unlike the normal approximation it stays inside [0, 1] and is sensible at 0 and n
    successes. ``successes`` may be a half-integer (a draw counted as half a win).
    """
    if n < 1 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n and n >= 1, got {successes} of {n}")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    # Rounding must not push the bounds past an estimate of exactly 0 or 1.
    low = 0.0 if successes == 0 else max(0.0, min(p, centre - half))
    high = 1.0 if successes == n else min(1.0, max(p, centre + half))
    return low, high


class Rating:
    """A Bradley-Terry rating on the Elo scale (mean 0) with its 95 % interval."""

    __slots__ = ("elo", "high", "low")

    def __init__(self, elo: float, low: float, high: float) -> None:
        self.elo = elo
        self.low = low
        self.high = high

    def __repr__(self) -> str:
        return f"Rating({self.elo:.0f} [{self.low:.0f}, {self.high:.0f}])"


def bradley_terry(
    players: Sequence[str],
    scores: Mapping[tuple[str, str], tuple[float, int]],
    *,
    prior_draws: float = 1.0,
    z: float = Z95,
) -> dict[str, Rating]:
    """Bradley-Terry ratings from head-to-head results, on the Elo scale (mean 0).

    ``scores[(a, b)] = (points of a, games)`` over the games between ``a`` and ``b`` (a win
    1, a draw ½), each unordered pair once. Every pair that met gets ``prior_draws`` virtual
    drawn games, so a clean sweep gives a finite rating. Fitted by Hunter's MM iteration;
    the intervals are ``± z`` standard errors from the observed Fisher information (the
    weighted graph Laplacian, inverted on the mean-zero subspace).
    """
    index = {name: i for i, name in enumerate(players)}
    n = len(players)
    wins = [[0.0] * n for _ in range(n)]
    games = [[0.0] * n for _ in range(n)]
    for (a, b), (points, played) in scores.items():
        if played <= 0:
            continue
        i, j = index[a], index[b]
        extra = prior_draws
        wins[i][j] += points + extra / 2
        wins[j][i] += played - points + extra / 2
        games[i][j] += played + extra
        games[j][i] += played + extra
    strength = [1.0] * n
    for _ in range(10_000):
        updated = []
        for i in range(n):
            total = sum(wins[i])
            denominator = sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(n) if games[i][j]
            )
            updated.append(total / denominator if denominator else strength[i])
        mean = math.exp(sum(math.log(max(s, 1e-300)) for s in updated) / n)
        updated = [s / mean for s in updated]
        change = max(abs(math.log(u / s)) for u, s in zip(updated, strength, strict=True))
        strength = updated
        if change < 1e-12:
            break
    logs = [math.log(s) for s in strength]
    laplacian = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                p = 1 / (1 + math.exp(logs[j] - logs[i]))
                w = games[i][j] * p * (1 - p)
                laplacian[i][j] -= w
                laplacian[i][i] += w
    covariance = _mean_zero_inverse(laplacian)
    ratings = {}
    for name, i in index.items():
        elo = _ELO * logs[i]
        half = z * _ELO * math.sqrt(max(covariance[i][i], 0.0))
        ratings[name] = Rating(elo, elo - half, elo + half)
    return ratings


def _mean_zero_inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The Moore-Penrose inverse of a connected graph's Laplacian: ``inv(L + J/n) - J/n``."""
    n = len(matrix)
    shifted = [[matrix[i][j] + 1 / n for j in range(n)] for i in range(n)]
    inverse = _inverse(shifted)
    return [[inverse[i][j] - 1 / n for j in range(n)] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan inverse with partial pivoting (small matrices: one row per player)."""
    n = len(matrix)
    rows = [[*row, *(1.0 if i == j else 0.0 for j in range(n))] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-15:
            raise ValueError("the players are not all connected by games")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [x / lead for x in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]
