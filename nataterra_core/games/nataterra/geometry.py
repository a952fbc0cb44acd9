"""Nataterra's boards for clients (the registry's board-geometry hook, ``kernel.geometry``).

From a seat view — never the state — :class:`NataterraBoards` builds the hex map (every zone
with its axial hex, biome, resource, base and the strategy marker, adjacency, the unit stacks
and the structures) and, while a combat runs, the combat board: each player's slots (melee,
ranged, flex, as its civilisation's board has them, N-COMBAT-5) with the groups in them
(units, damage, bonus tokens, initiative) and the units still in reserve. The combat
sandbox's view gets the combat board alone.

Ids: a zone is its zone id (``"t1.z4"``); a unit stack ``"stack:OWNER/UNIT@ZONE"``; a
structure ``"structure:STRUCTURE@ZONE"``; a combat slot ``"slot:OWNER:KINDn"``; a combat
group ``"group:ID"`` (its id in the combat); units in reserve ``"reserve:OWNER/UNIT/ORIGIN"``
on the cell ``"reserve:OWNER"``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from nataterra_core.boards.hexgrid import hex_centre, hex_outline
from nataterra_core.boards.names import short_name
from nataterra_core.kernel import Command
from nataterra_core.kernel.geometry import (
    Board,
    Cell,
    Geometry,
    Mark,
    Piece,
    Structure,
    Targets,
)

from .content import ContentPack, load_pack
from .messages.combat import (
    Attack,
    Backstab,
    ChooseEffectGroup,
    ChooseGroup,
    DeployGroup,
    HealGroup,
    MoveAfterWin,
    PayInjury,
    PlayTactic,
    RetreatUnits,
    SpiritsEmbrace,
    Strategise,
    Support,
)
from .messages.development import Build, Recruit
from .messages.movement import MoveUnits
from .messages.structuring import PlaceModifier
from .panels import card_of
from .rules.combat.model import Combat, Group, SlotKind
from .rules.hexmap import GameMap, build_map
from .state import PlacedStructure
from .views import SandboxView, SeatView

__all__ = [
    "BIOME_COLOURS",
    "CIV_COLOURS",
    "NataterraBoards",
    "combat_board",
    "game_map",
    "group_piece",
    "seated",
    "slot_name",
    "slot_names",
    "stack_piece",
    "zone_name",
]

BIOME_COLOURS = {
    "desert": "#f3dfa2",
    "forest": "#7fb77e",
    "hills": "#c9b27c",
    "swamp": "#8fa98f",
    "mountain": "#a6a6a6",
    "lake": "#8ec5e8",
    "melee": "#e8d6cf",
    "ranged": "#d6e0ea",
    "flex": "#e3e3d1",
    "reserve": "#f4f4f4",
}
"""Fills of the biomes and of the combat board's slot kinds."""

CIV_COLOURS = {
    "velathi": "#7d3c98",
    "beasts": "#a04000",
    "humans": "#2471a3",
    "naga": "#148f77",
}

SLOT_WIDTH, SLOT_HEIGHT, GAP = 2.2, 1.3, 0.2

TERRAINS = {
    "melee": "melee slot",
    "ranged": "ranged slot",
    "flex": "flex slot",
    "reserve": "units in reserve",
}
"""The legend's words for the combat board's slot kinds (biomes are named as they are)."""

MAP_MARKS = {
    "base": Mark(words="base", glyph="⌂"),
    "resource:food": Mark(words="food", glyph="✿"),
    "resource:wood": Mark(words="wood", glyph="♣"),
    "resource:metal": Mark(words="metal", glyph="⚒"),
    "modifier:mountain": Mark(words="mountain token (the zone is mountain)", glyph="▲"),
    "modifier:lake": Mark(words="lake token (the zone is lake)", glyph="≈"),
    "strategy": Mark(words="strategy zone", glyph="✦"),
}
"""How the map's zone markers are drawn, and the legend's words for them."""


@functools.lru_cache(maxsize=8)
def game_map(map_id: str, pack: str = "") -> GameMap | None:
    """The map (or a structured layout) of a view, from the pack in play (its SHA-256:
    ``view.pack``; the provisional pack's when not loaded in this process); ``None`` while a
    structured map is still being built or for an unknown id."""
    try:
        return build_map(load_pack.in_play(pack), map_id)
    except (KeyError, ValueError):
        return None


def stack_piece(owner: str, unit: str, zone: str) -> str:
    """The piece id of ``owner``'s ``unit`` stack in ``zone``."""
    return f"stack:{owner}/{unit}@{zone}"


def group_piece(group: int) -> str:
    """The piece id of combat group ``group``."""
    return f"group:{group}"


class NataterraBoards:
    """The board-geometry hook of Nataterra and of its combat sandbox."""

    def geometry(self, view: Any) -> Geometry:
        """The map (and the combat board while a combat runs) of a Nataterra seat view, or
        the battle's combat board of a sandbox view."""
        pack = load_pack.in_play(view.pack) if isinstance(view, SeatView) else load_pack()
        if isinstance(view, SandboxView):
            seats = (view.attacker, view.defender)
            fought = () if view.combat is None else (combat_board(view.combat, pack),)
            return Geometry(seats=seats, boards=fought, colours=_colours(seats))
        if not isinstance(view, SeatView):
            raise TypeError(f"not a Nataterra view: {type(view).__name__}")
        boards = [_map_board(view, pack)]
        if view.combat is not None:
            boards.append(combat_board(view.combat, pack))
        return Geometry(seats=view.seats, boards=tuple(boards), colours=_colours(view.seats))

    def targets(self, view: Any, command: Command) -> Targets:
        """What a legal command acts on: the stack that moves and where it goes, the group
        that acts and the group it aims at, the zone something is built or recruited in."""
        seat = view.seat or _acting(view)
        combat: Combat | None = view.combat
        find = _TARGETS.get(type(command))
        found = find(view, seat, combat, command) if find is not None else Targets()
        card = card_of(command)
        return found if card is None else msgspec.structs.replace(found, card=card)


def _acting(view: Any) -> str:
    if isinstance(view, SeatView):
        return view.active or ""
    return ""


def _colours(seats: tuple[str, ...]) -> dict[str, str]:
    return {seat: CIV_COLOURS[seat] for seat in seats if seat in CIV_COLOURS}


# -- the map ------------------------------------------------------------------------------------


def _map_board(view: SeatView, pack: ContentPack) -> Board:
    found = game_map(view.map_id, view.pack)
    cells = tuple(_zones(found, pack)) if found is not None else ()
    on_map = {cell.id for cell in cells}
    pieces = tuple(
        Piece(
            id=stack_piece(s.owner, s.unit, s.zone),
            cell=s.zone,
            owner=s.owner,
            kind=s.unit,
            count=s.count,
            label=f"{s.count} {_unit_title(pack, s.unit)}",
            counters={"moved": s.moved} if s.moved else {},
            glyph=short_name(_unit_title(pack, s.unit)),
        )
        for s in view.units
        if s.zone in on_map
    )
    structures = tuple(_structure(pack, placed) for placed in view.structures)
    holders: dict[str, set[str]] = {}
    for s in view.units:
        holders.setdefault(s.zone, set()).add(s.owner)
    for placed in view.structures:
        holders.setdefault(placed.zone, set()).add(placed.owner)
    cells = tuple(
        msgspec.structs.replace(cell, holder=next(iter(holders[cell.id])))
        if len(holders.get(cell.id, ())) == 1
        else cell
        for cell in cells
    )
    title = f"map {found.map_id}" if found is not None else "the map is being built"
    return Board(
        id="map",
        title=title if not view.turn else f"{title}, turn {view.turn}",
        cells=cells,
        pieces=pieces,
        structures=structures,
        palette=BIOME_COLOURS,
        marks=MAP_MARKS,
    )


def zone_name(pack: ContentPack, zone_id: str, modifier: str | None = None) -> str:
    """A zone as players read it: ``"tile 1, zone 4"`` for ``t1.z4``, ``"centre tile, zone 2"``
    on the shared tile, ``"velathi's tile, zone 3"`` on a player tile; a modifier token beyond
    the map's edge by its terrain (``"mountain beyond the edge"``). The pack names no zones, so
    these come from the tile (an id it does not know is kept as it is).

    >>> zone_name(load_pack(), "t1.z4"), zone_name(load_pack(), "velathi.z3")
    ('tile 1, zone 4', "velathi's tile, zone 3")
    """
    tile_id, _, key = zone_id.rpartition(".")
    tile = pack.map_tiles.get(tile_id)
    if tile is None or not key.startswith("z") or not key[1:].isdigit():
        return f"{modifier} beyond the edge" if modifier else zone_id
    if tile.kind == "shared":
        on = "centre tile"
    elif tile.kind == "player":
        on = f"{tile.civ}'s tile"
    else:
        on = f"tile {tile.number}"
    return f"{on}, zone {key[1:]}"


def slot_name(owner: str, slot: str) -> str:
    """A combat slot as players read it: ``melee1`` of velathi -> ``"velathi's melee 1"``."""
    kind = slot.rstrip("0123456789")
    number = slot[len(kind) :]
    return f"{owner}'s {kind} {number}".rstrip()


def _zones(found: GameMap, pack: ContentPack) -> Iterator[Cell]:
    for zone_id in found.zone_ids:
        zone = found.zones[zone_id]
        x, y = hex_centre(zone.hex)
        markers = []
        if zone.base_owner is not None:
            markers.append("base")
        if zone.resource is not None:
            markers.append(f"resource:{zone.resource}")
        if zone.modifier is not None:
            markers.append(f"modifier:{zone.modifier}")
        if zone_id == found.strategy_zone:
            markers.append("strategy")
        yield Cell(
            id=zone_id,
            x=round(x, 4),
            y=round(y, 4),
            outline=hex_outline(zone.hex),
            hex=(zone.hex.q, zone.hex.r),
            terrain=zone.biome,
            label=zone_name(pack, zone_id, zone.modifier if zone.tile is None else None),
            neighbours=found.neighbours(zone_id),
            owner=zone.base_owner,
            markers=tuple(markers),
        )


def _structure(pack: ContentPack, placed: PlacedStructure) -> Structure:
    known = pack.structures.get(placed.structure)
    return Structure(
        id=f"structure:{placed.structure}@{placed.zone}",
        cell=placed.zone,
        owner=placed.owner,
        kind=placed.structure,
        label=known.title if known is not None else placed.structure,
        counters={"cubes": placed.cubes} if placed.cubes else {},
        glyph=_initials(known.title if known is not None else placed.structure),
    )


def _initials(title: str) -> str:
    """A structure's mark: the initials of a title of several words (``Bone Tower`` -> ``BT``),
    else its first two letters (``Farm`` -> ``Fa``)."""
    words = title.replace("_", " ").split()
    return "".join(w[0] for w in words[:2]).upper() if len(words) > 1 else title[:2].title()


def _unit_title(pack: ContentPack, unit: str) -> str:
    known = pack.units.get(unit) or pack.structures.get(unit)
    return known.title if known is not None else unit


# -- the combat board ---------------------------------------------------------------------------


def combat_board(combat: Combat, pack: ContentPack) -> Board:
    """The combat as a board: one band of slots per player (the attacker's side on top),
    melee slots towards the middle, then the units in reserve."""
    cells: list[Cell] = []
    pieces: list[Piece] = []
    top = 0.0
    attackers = combat.seats_of(combat.attacker)
    for owner in combat.seats:
        upper = owner in attackers
        groups = [g for g in combat.groups if g.owner == owner]
        rows = slot_names(owner, groups, pack)
        order = ("ranged", "melee") if upper else ("melee", "ranged")
        for kind in order:
            for column, slot in enumerate(rows[kind]):
                cells.append(_rect(f"slot:{owner}:{slot}", column, top, kind, slot, owner))
            top += SLOT_HEIGHT + GAP
        for group, slot in seated(groups):
            pieces.append(_group(group, f"slot:{owner}:{slot}", pack))
        reserve = f"reserve:{owner}"
        width = max(1, *(len(r) for r in rows.values()))
        cells.append(_rect(reserve, 0, top, "reserve", "reserve", owner, columns=width))
        for force in combat.reserve_of(owner):
            pieces.append(
                Piece(
                    id=f"reserve:{owner}/{force.unit}/{force.origin}",
                    cell=reserve,
                    owner=owner,
                    kind=force.unit,
                    count=force.count,
                    label=f"{force.count} {_unit_title(pack, force.unit)} in reserve"
                    + (f" (from {zone_name(pack, force.origin)})" if force.origin else ""),
                    glyph=short_name(_unit_title(pack, force.unit)),
                )
            )
        top += SLOT_HEIGHT + 3 * GAP
    notes = [f"{combat.attacker} attacks {combat.defender}, round {combat.round}"]
    if combat.biome_card is not None and combat.revealed:
        card = pack.biome_cards.get(combat.biome_card)
        notes.append(f"biome card: {card.title if card is not None else combat.biome_card}")
    return Board(
        id="combat",
        title=f"combat in {zone_name(pack, combat.zone)} ({combat.biome})",
        cells=tuple(cells),
        pieces=tuple(pieces),
        palette=BIOME_COLOURS,
        notes=tuple(notes),
        terrains=TERRAINS,
    )


def slot_names(owner: str, groups: list[Group], pack: ContentPack) -> dict[str, list[str]]:
    """The slot names of ``owner``'s board by row: melee (with any flex slots) and ranged.
    A board the pack does not know gets as many slots as its groups need."""
    civ = pack.civilisations.get(owner)
    counts: dict[SlotKind, int] = {
        "melee": civ.combat_board.melee if civ else 0,
        "ranged": civ.combat_board.ranged if civ else 0,
        "flex": civ.combat_board.flex if civ else 0,
    }
    for kind in counts:
        counts[kind] = max(counts[kind], sum(1 for g in groups if g.slot == kind))
    return {
        "melee": [f"melee{i}" for i in range(1, counts["melee"] + 1)]
        + [f"flex{i}" for i in range(1, counts["flex"] + 1)],
        "ranged": [f"ranged{i}" for i in range(1, counts["ranged"] + 1)],
    }


def seated(groups: list[Group]) -> Iterator[tuple[Group, str]]:
    """Each group in a slot of its kind, in the order they were deployed."""
    used: dict[str, int] = {}
    for group in groups:
        n = used[group.slot] = used.get(group.slot, 0) + 1
        yield group, f"{group.slot}{n}"


def _rect(
    cell_id: str, column: int, top: float, kind: str, label: str, owner: str, columns: int = 1
) -> Cell:
    left = column * (SLOT_WIDTH + GAP)
    right = left + columns * SLOT_WIDTH + (columns - 1) * GAP
    bottom = top + SLOT_HEIGHT
    return Cell(
        id=cell_id,
        x=round((left + right) / 2, 4),
        y=round(top + SLOT_HEIGHT / 2, 4),
        outline=((left, top), (right, top), (right, bottom), (left, bottom)),
        terrain=kind,
        label=slot_name(owner, label),
    )


def _group(group: Group, cell: str, pack: ContentPack) -> Piece:
    counters = {
        "damage": group.damage,
        "attack_bonus": group.attack_bonus,
        "armor_bonus": group.armor_bonus,
        "initiative": group.initiative,
    }
    return Piece(
        id=group_piece(group.id),
        cell=cell,
        owner=group.owner,
        kind=group.unit,
        count=group.units,
        label=f"group {group.id}: {group.units} {_unit_title(pack, group.unit)}"
        + ("" if group.alive else " (destroyed)"),
        counters={name.replace("_", " "): value for name, value in counters.items() if value},
        glyph=short_name(_unit_title(pack, group.unit)),
    )


# -- what commands act on -----------------------------------------------------------------------

TargetFinder = Callable[[Any, str, Combat | None, Any], Targets]


def _move(view: Any, seat: str, combat: Combat | None, command: MoveUnits) -> Targets:
    return Targets(
        pieces=(stack_piece(seat, command.unit, command.origin),),
        cell=command.path[-1] if command.path else command.origin,
        path=(command.origin, *command.path),
    )


def _at_group(view: Any, seat: str, combat: Combat | None, command: Attack) -> Targets:
    acting = (group_piece(combat.active),) if combat is not None and combat.active >= 0 else ()
    return Targets(pieces=acting, piece=group_piece(command.target))


def _group_chosen(view: Any, seat: str, combat: Combat | None, command: ChooseGroup) -> Targets:
    return Targets(pieces=(group_piece(command.group),))


def _backstab(view: Any, seat: str, combat: Combat | None, command: Backstab) -> Targets:
    if command.group is None:
        return Targets()
    target = group_piece(command.target) if command.target is not None else None
    return Targets(pieces=(group_piece(command.group),), piece=target)


def _embrace(view: Any, seat: str, combat: Combat | None, command: SpiritsEmbrace) -> Targets:
    return Targets(piece=group_piece(command.group)) if command.group is not None else Targets()


def _leave(view: Any, seat: str, combat: Combat | None, command: RetreatUnits) -> Targets:
    zone = combat.zone if combat is not None else ""
    return Targets(
        pieces=(stack_piece(seat, command.unit, zone),),
        cell=command.destination,
        path=(zone, command.destination),
    )


def _join(view: Any, seat: str, combat: Combat | None, command: Strategise) -> Targets:
    zone = combat.zone if combat is not None else None
    return Targets(pieces=(stack_piece(seat, command.unit, command.origin),), cell=zone)


def _deploy(view: Any, seat: str, combat: Combat | None, command: DeployGroup) -> Targets:
    """The units in reserve, and the first free slot of the kind asked for."""
    taken = (
        sum(1 for g in combat.groups if g.owner == seat and g.slot == command.slot) if combat else 0
    )
    return Targets(
        pieces=(f"reserve:{seat}/{command.unit}/{command.origin}",),
        cell=f"slot:{seat}:{command.slot}{taken + 1}",
    )


def _recruit(view: Any, seat: str, combat: Combat | None, command: Recruit) -> Targets:
    found = game_map(view.map_id, view.pack) if isinstance(view, SeatView) else None
    base = found.bases.get(seat) if found is not None else None
    return Targets(cell=base)


def _build(view: Any, seat: str, combat: Combat | None, command: Build) -> Targets:
    return Targets(cell=command.zone)


def _modifier(view: Any, seat: str, combat: Combat | None, command: PlaceModifier) -> Targets:
    return Targets(cell=command.zone)


def _tactic(view: Any, seat: str, combat: Combat | None, command: PlayTactic) -> Targets:
    """A tactic option aimed at a group or played on a zone (a card choice otherwise)."""
    piece = group_piece(command.target) if command.target is not None and combat else None
    return Targets(piece=piece, cell=command.zone)


_TARGETS: dict[type[Command], TargetFinder] = {
    MoveUnits: _move,
    MoveAfterWin: _leave,
    RetreatUnits: _leave,
    Attack: _at_group,
    Support: _at_group,
    HealGroup: _at_group,
    ChooseGroup: _group_chosen,
    ChooseEffectGroup: _group_chosen,
    PayInjury: _group_chosen,
    Backstab: _backstab,
    SpiritsEmbrace: _embrace,
    Strategise: _join,
    DeployGroup: _deploy,
    Recruit: _recruit,
    Build: _build,
    PlaceModifier: _modifier,
    PlayTactic: _tactic,
}
"""One finder per command type that has a place on the boards; the others have none."""
