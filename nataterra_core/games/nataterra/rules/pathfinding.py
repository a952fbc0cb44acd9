"""Where a moving stack can go, with the canonical path to each destination (N-MOV-1..4).

Kept apart from the movement rules because it knows nothing of units or players: it states
what each zone does to a mover as a search over (zone, stealth used), and leaves the
breadth-first search itself to :func:`nataterra_core.boards.hexgrid.canonical_paths`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from nataterra_core.boards.hexgrid import canonical_paths

__all__ = ["reachable"]

Path = tuple[str, ...]
_State = tuple[str, int]


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

    def moves(state: _State) -> Iterator[tuple[str, _State | None]]:
        zone, used = state
        for step in sorted(neighbours(zone)):
            if step == start or not can_enter(step):
                continue
            if ends_move(step):
                yield step, None
            elif not enemy_occupied(step):
                yield step, (step, used)
            elif used < stealth:
                yield step, (step, used + 1)
            else:
                yield step, None

    return canonical_paths((start, 0), movement, moves)
