"""Sentences for starting from a position and for the scenario book (``docs/POSITIONS.md``,
``docs/SCENARIOS.md``)."""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel.wording import article, counted

from ..messages.scenarios import (
    MarkerControlled,
    MarkerDestroyed,
    MarkerLoaded,
    MarkerMoved,
    MoveMarker,
    RecruitedOnMarker,
    RecruitOnMarker,
    SacrificeWorker,
    ScenarioCounted,
    WorkerSacrificed,
)
from ..messages.setup import StartFromPosition
from .base import describe_command, describe_event, resources_text, subject, unit_title


@describe_command.register
def _(command: StartFromPosition, seat: str | None = None, view: Any = None) -> str:
    shuffled = f", shuffling {', '.join(command.shuffle)}" if command.shuffle else ""
    return f"the game starts from position {command.public_sha256[:12]}{shuffled}"


@describe_command.register
def _(command: MoveMarker, seat: str | None = None, view: Any = None) -> str:
    route = " → ".join(command.path)
    return f"{subject(seat, 'moves', 'move')} the {command.marker} from {command.origin} to {route}"


@describe_command.register
def _(command: RecruitOnMarker, seat: str | None = None, view: Any = None) -> str:
    what = unit_title(command.unit)
    return (
        f"{subject(seat, 'recruits', 'recruit')} {article(what)} onto the marker in {command.zone}"
    )


@describe_command.register
def _(command: SacrificeWorker, seat: str | None = None, view: Any = None) -> str:
    why = "for a point" if command.for_points else f"for {resources_text(command.gain)}"
    return f"{subject(seat, 'sacrifices', 'sacrifice')} a worker in {command.zone} {why}"


@describe_event.register
def _(event: MarkerMoved, view: Any = None) -> str:
    return f"{event.seat} moves the {event.marker} from {event.origin} to {event.path[-1]}"


@describe_event.register
def _(event: MarkerControlled, view: Any = None) -> str:
    if event.seat is None:
        return f"nobody controls the {event.marker} in {event.zone} now"
    return f"{event.seat} controls the {event.marker} in {event.zone} this turn"


@describe_event.register
def _(event: MarkerDestroyed, view: Any = None) -> str:
    return f"{event.by} destroys the {event.marker} in {event.zone} ({event.rule})"


@describe_event.register
def _(event: MarkerLoaded, view: Any = None) -> str:
    if event.cubes:
        return f"the {event.marker} in {event.zone} takes on its cargo"
    return f"the {event.marker} in {event.zone} unloads its cargo"


@describe_event.register
def _(event: ScenarioCounted, view: Any = None) -> str:
    return f"the scenario's {event.name.replace(':', ' of ')} count is now {event.value}"


@describe_event.register
def _(event: RecruitedOnMarker, view: Any = None) -> str:
    paid = (
        [resources_text(event.cost)] if event.cost.food + event.cost.wood + event.cost.metal else []
    )
    if event.flare:
        paid.append(f"{event.flare} flare")
    price = f" for {' and '.join(paid)}" if paid else " for free"
    return f"{event.seat} recruits {article(unit_title(event.unit))} onto {event.zone}{price}"


@describe_event.register
def _(event: WorkerSacrificed, view: Any = None) -> str:
    gains = (
        [resources_text(event.gain)] if event.gain.food + event.gain.wood + event.gain.metal else []
    )
    if event.points:
        gains.append(counted(event.points, "point"))
    worker = unit_title(event.unit)
    return f"{event.seat} sacrifices {article(worker)} in {event.zone} for {' and '.join(gains)}"
