"""Sentences of development (recruiting, research, techs and their bonuses) and structures,
with each card's title, cost and effect from the content pack.

    >>> from nataterra_core.games.nataterra.rules.development import Research
    >>> describe_command(Research(tech="velathi_01"), "velathi")  # doctest: +ELLIPSIS
    'velathi researches Food multiplier I (raises the food multiplier), costs 1 wood, 1 metal; ...'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nataterra_core.kernel.seen import Cut
from nataterra_core.kernel.wording import article, counted

from ..content.cards import Bonus, TechEffect
from ..messages.development import (
    BonusResolved,
    Build,
    Recruit,
    Recruited,
    Research,
    Researched,
    StructureBuilt,
    StructureDestroyed,
    StructureRecruited,
    StructuresProduced,
    TechResolved,
)
from .base import (
    cost_text,
    cut_words,
    describe_command,
    describe_event,
    pack,
    resources_text,
    structure_title,
    subject,
    tech_title,
    unit_title,
)

__all__ = ["bonus_text", "tech_text"]


def bonus_text(bonus: Bonus) -> str:
    """A tech's bonus effect (N-DEV-4) in words."""
    n = bonus.amount
    return {
        "draw_tactic": f"draw {counted(n, 'tactic card')}",
        "draw_tech": f"draw tech card no. {n}",
        "add_workers": f"{counted(n, 'worker')} to the pool",
        "unlock_tile": f"unlock the next civilisation tile ({n} of each unit to the pool)",
        "unlock_structure": "unlock a structure",
        "add_units": f"{counted(n, 'unit')} to the pool",
    }.get(bonus.kind, f"{bonus.kind.replace('_', ' ')} {n}")


def _effect_text(effect: TechEffect) -> str:
    sign = f"{effect.amount:+d}"
    if effect.kind == "unit_cost":
        return f"unit cost {sign} {effect.resource or ''}".rstrip()
    return f"{effect.kind} {sign}"


def tech_text(tech: str, option: str | None) -> str:
    """A tech card as a sentence: title, what it does, cost and bonuses."""
    card = pack().techs.get(tech)
    if card is None:
        return tech + (f" (option {option.upper()})" if option else "")
    if card.kind == "resource" or option is None:
        what = f"raises the {card.resource} multiplier" if card.resource else card.kind
        cost = card.cost
        bonuses = card.bonuses
        head = f"{card.title} ({what})"
    else:
        chosen = card.option(option)  # type: ignore[arg-type]
        cost = chosen.cost
        bonuses = chosen.bonuses
        changes = ", ".join(_effect_text(e) for e in chosen.effects)
        unit = unit_title(card.unit) if card.unit else card.title
        head = (
            f"{card.title}: {chosen.title} (option {option.upper()}: {unit} group card side "
            f"{option.upper()}" + (f", {changes}" if changes else "") + ")"
        )
    parts = [head]
    if cost is not None:
        parts.append(cost_text(cost))
    text = ", ".join(parts)
    if bonuses:
        text += "; bonus: " + ", ".join(bonus_text(b) for b in bonuses)
    return text


# -- commands ---------------------------------------------------------------------------------


@describe_command.register
def _(command: Recruit, seat: str | None = None, view: Any = None) -> str:
    unit = pack().units.get(command.unit)
    cost = f" ({cost_text(unit.cost)})" if unit is not None else ""
    return f"{subject(seat, 'recruits', 'recruit')} {article(unit_title(command.unit))}{cost}"


@describe_command.register
def _(command: Research, seat: str | None = None, view: Any = None) -> str:
    return f"{subject(seat, 'researches', 'research')} {tech_text(command.tech, command.option)}"


@describe_command.register
def _(command: Build, seat: str | None = None, view: Any = None) -> str:
    found = pack().structures.get(command.structure)
    cost = f" ({cost_text(found.cost)})" if found is not None else ""
    title = structure_title(command.structure)
    return f"{subject(seat, 'builds', 'build')} the {title} in {command.zone}{cost}"


# -- events -----------------------------------------------------------------------------------


@describe_event.register
def _(event: Recruited, view: Any = None) -> str:
    return (
        f"{event.seat} recruits {article(unit_title(event.unit))} in {event.zone}, "
        f"paying {resources_text(event.cost)}"
    )


@describe_event.register
def _(event: Researched, view: Any = None) -> str:
    option = f" (option {event.option.upper()})" if event.option else ""
    return (
        f"{event.seat} researches {tech_title(event.tech)}{option}, paying "
        f"{resources_text(event.cost)}; it takes effect at the end of the turn"
    )


@describe_event.register
def _(event: TechResolved, view: Any = None) -> str:
    title = tech_title(event.tech)
    if event.resource is not None:
        return f"{title} takes effect: {event.seat}'s {event.resource} multiplier rises"
    changes = []
    if event.unit is not None and event.option is not None:
        changes.append(f"{unit_title(event.unit)} group cards turn to side {event.option.upper()}")
    if resources_text(event.cost) != "nothing":
        changes.append(f"unit cost changes by {resources_text(event.cost)}")
    changes += [f"movement {event.movement:+d}"] if event.movement else []
    changes += [f"initiative {event.initiative:+d}"] if event.initiative else []
    return f"{title} takes effect for {event.seat}: {', '.join(changes) or 'no change'}"


@describe_event.register
def _(event: BonusResolved, view: Any = None) -> str:
    return _bonus_words(event.tech, event.seat, event.kind, event.card, event.units)


@cut_words(BonusResolved)
def _bonus_resolved_cut(event: Cut[BonusResolved], view: Any = None) -> str:
    # A drawn tech card is the drawer's to know: the cut form has no ``card``.
    return _bonus_words(event.tech, event.seat, event.kind, None, event.units)


def _bonus_words(
    tech: str, seat: str, kind: str, card: str | None, units: Mapping[str, int]
) -> str:
    moved = ", ".join(f"{n} {unit_title(unit)}" for unit, n in units.items() if n)
    what = kind.replace("_", " ")
    if kind == "unlock_structure" and card:
        what = f"unlocks the {structure_title(card)}"
    elif kind == "draw_tech":
        what = "draws a tech card"
    detail = f": {moved} to the pool" if moved else ""
    return f"{tech_title(tech)}'s bonus for {seat}: {what}{detail}"


@describe_event.register
def _(event: StructureBuilt, view: Any = None) -> str:
    return (
        f"{event.seat} builds the {structure_title(event.structure)} in {event.zone}, "
        f"paying {resources_text(event.cost)}"
    )


@describe_event.register
def _(event: StructureDestroyed, view: Any = None) -> str:
    cubes = f" ({counted(event.cubes, 'cube')} freed)" if event.cubes else ""
    return (
        f"{event.owner}'s {structure_title(event.structure)} in {event.zone} is destroyed "
        f"({event.rule}){cubes}"
    )


@describe_event.register
def _(event: StructuresProduced, view: Any = None) -> str:
    gain = resources_text(event.gain)
    flare = f" and {event.flare} flare" if event.flare else ""
    return f"{event.seat}'s structures in {', '.join(event.zones)} produce {gain}{flare}"


@describe_event.register
def _(event: StructureRecruited, view: Any = None) -> str:
    return (
        f"{event.seat}'s {structure_title(event.structure)} recruits a "
        f"{unit_title(event.unit)} in {event.zone}"
    )
