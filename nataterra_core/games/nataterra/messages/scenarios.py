"""The scenario book's commands and events (``docs/SCENARIOS.md``): markers moved,
controlled, destroyed and loaded, recruits on markers, sacrifices and scenario counters. Their
rules are in ``rules/scenarios/play.py``."""

from __future__ import annotations

from nataterra_core.kernel import Command, Event
from nataterra_core.kernel.visibility import PUBLIC

from ..rules.stock import Resources

__all__ = [
    "COMMANDS",
    "EVENTS",
    "MarkerControlled",
    "MarkerDestroyed",
    "MarkerLoaded",
    "MarkerMoved",
    "MoveMarker",
    "RecruitOnMarker",
    "RecruitedOnMarker",
    "SacrificeWorker",
    "ScenarioCounted",
    "WorkerSacrificed",
]


class MoveMarker(Command, frozen=True, tag="move_marker.v1"):
    """N-SCN-GEN-4: move the ``marker`` in ``origin`` along ``path`` (start excluded)."""

    visibility = PUBLIC

    marker: str
    origin: str
    path: tuple[str, ...]


class RecruitOnMarker(Command, frozen=True, tag="recruit_on_marker.v1"):
    """Recruit one ``unit`` onto the scenario marker in ``zone`` (a portal, the village)."""

    visibility = PUBLIC

    unit: str
    zone: str


class SacrificeWorker(Command, frozen=True, tag="sacrifice_worker.v1"):
    """N-SCN-HOME-2/3: sacrifice a worker on the marker in ``zone``, for ``gain`` (2
    resources) or, ``for_points``, for a point."""

    visibility = PUBLIC

    zone: str
    gain: Resources = Resources()
    for_points: bool = False


class MarkerMoved(Event, frozen=True, tag="marker_moved.v1"):
    """``seat`` moved the ``marker`` from ``origin`` along ``path``."""

    visibility = PUBLIC

    seat: str
    marker: str
    origin: str
    path: tuple[str, ...]


class MarkerControlled(Event, frozen=True, tag="marker_controlled.v1"):
    """The ``marker`` in ``zone`` is controlled by ``seat`` this turn (``None``: nobody)."""

    visibility = PUBLIC

    marker: str
    zone: str
    seat: str | None = None


class MarkerDestroyed(Event, frozen=True, tag="marker_destroyed.v1"):
    """``by`` destroyed the ``marker`` in ``zone`` as an enemy structure (``rule``)."""

    visibility = PUBLIC

    marker: str
    zone: str
    by: str
    rule: str


class MarkerLoaded(Event, frozen=True, tag="marker_loaded.v1"):
    """The ``marker`` in ``zone`` now carries ``cubes`` civilisation dice (the ship's cargo)."""

    visibility = PUBLIC

    marker: str
    zone: str
    cubes: int


class ScenarioCounted(Event, frozen=True, tag="scenario_counted.v1"):
    """A scenario count (``rounds``, ``points:<seat>``) is now ``value``."""

    visibility = PUBLIC

    name: str
    value: int


class RecruitedOnMarker(Event, frozen=True, tag="recruited_on_marker.v1"):
    """``seat`` recruited a ``unit`` onto ``zone``, paying ``cost`` and ``flare``; the token came
    from the locked supply when ``from_locked``."""

    visibility = PUBLIC

    seat: str
    unit: str
    zone: str
    cost: Resources = Resources()
    flare: int = 0
    from_locked: bool = False


class WorkerSacrificed(Event, frozen=True, tag="worker_sacrificed.v1"):
    """``seat`` sacrificed a ``unit`` (worker) in ``zone`` for ``gain`` and ``points``; the
    token goes back to the worker supply."""

    visibility = PUBLIC

    seat: str
    unit: str
    zone: str
    gain: Resources = Resources()
    points: int = 0


COMMANDS: tuple[type[Command], ...] = (MoveMarker, RecruitOnMarker, SacrificeWorker)
EVENTS: tuple[type[Event], ...] = (
    MarkerMoved,
    MarkerControlled,
    MarkerDestroyed,
    MarkerLoaded,
    ScenarioCounted,
    RecruitedOnMarker,
    WorkerSacrificed,
)
