"""Where a moving stack can go, with the canonical path to each destination (N-MOV-1..4).

Kept apart from the movement rules because it knows nothing of units or players: it is
a breadth-first search over (zone, stealth used) given what each zone does to a mover.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

__all__ = ["reachable"]

Path = tuple[str, ...]


def reachable(
    start: str,
    movement: int,
    neighbours: Callable[[str], Iterable[str]],
    *,
    can_enter: Callable[[str], bool],
    ends_move: Callable[[str], bool],
    enemy_occupied: Callable[[str], bool],
    stealth: int = 0,
) -> dict[str, Path]:
    """Every destination within ``movement`` steps, mapped to its canonical path.

    The path lists the zones entered, start excluded. ``can_enter`` bars zones (lakes,
    N-MOV-2); entering a zone where ``ends_move`` holds (a mountain, N-MOV-2) or an enemy
    zone (N-MOV-4) ends the move, except that each Stealth instance lets the mover pass
    through one enemy zone. The canonical path is the shortest legal one, ties broken by
    the lexicographically smallest sequence of zone ids (N-MOV-1).
    """
    best: dict[str, Path] = {}
    seen: set[tuple[str, int]] = {(start, 0)}
    frontier: dict[tuple[str, int], Path] = {(start, 0): ()}
    for _ in range(movement):
        following: dict[tuple[str, int], Path] = {}
        # Expanding in path order makes the first path found for a state the smallest.
        for (zone, used), path in sorted(frontier.items(), key=lambda item: item[1]):
            for step in sorted(neighbours(zone)):
                if step == start or not can_enter(step):
                    continue
                route = (*path, step)
                if step not in best:
                    best[step] = route
                if ends_move(step):
                    continue
                spent = used
                if enemy_occupied(step):
                    if used >= stealth:
                        continue
                    spent = used + 1
                state = (step, spent)
                if state not in seen:
                    seen.add(state)
                    following[state] = route
        frontier = following
    return best
