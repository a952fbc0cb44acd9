"""Nataterra's and the combat sandbox's stable action codecs (the registry's ``action_codec``).

Every command a seat may send is numbered by its **fields**, never by its place in the legal
list: a :class:`~nataterra_core.kernel.encoding.FactoredCodec` lays out one block per command
type (several for some), in the order of the table below, each numbering the combinations of
its fields in mixed radix (the last field fastest). The domains come from the content pack
and the game's set-up, so the codec is fixed for a set-up: same pack, seats and options, same
indices, in every state.

========================  ===============================================================
command                   fields and their domains
========================  ===============================================================
discard_opening_tactic    card: the seats' tactic cards
end_phase                 phase: the phases
move_units                per unit type: origin (zone) x count (1..tokens) x destination
                          (zone); the path is not part of the index: the legal list holds
                          one canonical path per endpoint pair (N-MOV-1), and ``decode``
                          returns that listed command
start_combat              zone x defender (seat)
strategise                per unit: origin x count
deploy_group              per unit (or fighting structure): size x slot x origin ("" or zone)
combat answers            group ids 0..G-1 (G: every token that could fight, since a group
                          holds at least one), seats, yes/no, attack/armor bonus
play_tactic               per (card, option): the arguments its effects ask for (nothing;
                          a group; a player; a zone; a zone and a structure to build), times
                          the card discarded when the option costs one
retreat / move after win  per unit: count x destination (zone)
recruit, research, build  unit; tech x option (none, a, b); structure x zone
swear_oath                wood x metal (0..the oath's cost each)
map structuring (N-MAP-4) only in a structured game: the shared tile's side; map tile x
                          anchor hex x rotation; player tile anchor x rotation; modifier side
                          x (zone, or edge hex). Anchors range over a hex disc whose radius
                          bounds how far the map can grow from its centre
========================  ===============================================================

Zones are the map's zones (all tiles' zones and the modifier zones in a structured game;
the battle's zone and small map in the sandbox). ``describe(index)`` names any index.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import attrs

from nataterra_core.boards.hexgrid import Hex
from nataterra_core.games.nataterra.content.schema import ContentPack, TacticOption
from nataterra_core.kernel import Command, Setup
from nataterra_core.kernel.encoding import Block, FactoredCodec

from ..decider import Nataterra
from ..messages import combat
from ..messages.combat import StartCombat
from ..messages.development import Build, Recruit, Research
from ..messages.movement import MoveUnits
from ..messages.setup import DiscardOpeningTactic
from ..messages.structuring import AttachMapTile, PlaceModifier, PlacePlayerTile, PlaceSharedTile
from ..messages.turns import EndPhase
from ..messages.victory import SwearOath
from ..rules import structuring
from ..rules.combat.model import SlotKind
from ..rules.combat.sandbox import Sandbox
from ..rules.combat.sandbox_model import SandboxState
from ..rules.hexmap import build_map
from ..rules.tactic_play import PHASE_WINDOWS, ZONE_EFFECTS
from ..rules.victory import OATH_OF_ASHA
from ..state import Phase

__all__ = ["Universe", "nataterra_codec", "sandbox_codec"]

YES_NO = (False, True)
BONUSES = ("attack", "armor")
SIDES = ("a", "b")
SLOTS: tuple[str, ...] = typing.get_args(SlotKind)
PHASES: tuple[str, ...] = typing.get_args(Phase)


@attrs.frozen
class Universe:
    """Every value a command field can take in games of one set-up (the codec's domains).

    ``tokens`` maps each unit type (and each fighting structure) that can appear to its number
    of tokens, the largest count a command can name; ``groups`` bounds combat group ids.
    """

    seats: tuple[str, ...]
    tokens: Mapping[str, int]
    fighters: tuple[str, ...]
    zones: tuple[str, ...]
    tactics: tuple[str, ...]
    techs: tuple[str, ...]
    structures: tuple[str, ...]
    groups: int
    oath_cost: int | None = None
    structuring: StructuringSpace | None = None

    @property
    def units(self) -> tuple[str, ...]:
        """The unit types that move, recruit and retreat (fighting structures excluded)."""
        return tuple(u for u in self.tokens if u not in self.fighters)


@attrs.frozen
class StructuringSpace:
    """N-MAP-4's domains: the tiles a seat may attach, the player tiles, and the anchor and
    edge hexes (discs around the centre large enough for any map the players can build)."""

    map_tiles: tuple[str, ...]
    anchors: tuple[tuple[int, int], ...]
    edge: tuple[tuple[int, int], ...]


# -- domains of a set-up ----------------------------------------------------------------


def _fighting_structures(pack: ContentPack) -> dict[str, int]:
    return {s.id: s.copies for s in pack.structures.values() if s.combat is not None}


def _disc(radius: int) -> tuple[tuple[int, int], ...]:
    centre = Hex(0, 0)
    return tuple(
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if Hex(q, r).distance(centre) <= radius
    )


def _structuring_space(
    pack: ContentPack, seats: tuple[str, ...]
) -> tuple[StructuringSpace, set[str]]:
    """The structuring domains and every zone id a structured map can have.

    Tile 0 lies at the centre; each later tile touches a placed one, so its zones lie at most
    ``1 + diameter`` further out than the farthest placed zone, and its anchor at most
    ``reach`` (the largest zone offset) from one of its zones.
    """
    tiles = [t for t in pack.map_tiles.values() if t.kind != "player" or t.civ in seats]
    reach = max(Hex(*z.at).distance(Hex(0, 0)) for t in tiles for z in t.zones)
    diameter = max(Hex(*a.at).distance(Hex(*b.at)) for t in tiles for a in t.zones for b in t.zones)
    placements = (structuring.TILES_EACH + 1) * len(seats)  # map tiles, then player tiles
    farthest = reach + placements * (diameter + 1)
    zones = {f"{t.id}.{z.key}" for t in tiles for z in t.zones}
    zones |= {f"m{n}" for n in range(1, structuring.MODIFIERS_EACH * len(seats) + 1)}
    space = StructuringSpace(
        map_tiles=tuple(t.id for t in tiles if t.kind == "map"),
        anchors=_disc(farthest + reach),
        edge=_disc(farthest + 1),
    )
    return space, zones


def game_universe(decider: Nataterra, setup: Setup) -> Universe:
    """The domains of a Nataterra game with this set-up."""
    pack = decider.pack
    state = decider.initial_state(setup)
    seats = state.seats
    tokens = {u.id: u.tokens for civ in seats for u in pack.units_of(civ)}
    fighters = _fighting_structures(pack)
    space: StructuringSpace | None = None
    if state.structuring is not None:
        space, zone_set = _structuring_space(pack, seats)
        zones = tuple(sorted(zone_set))
    else:
        zones = tuple(build_map(pack, state.map_id).zone_ids)
    oath = pack.victory_conditions.get(OATH_OF_ASHA)
    return Universe(
        seats=seats,
        tokens={**tokens, **fighters},
        fighters=tuple(fighters),
        zones=zones,
        tactics=tuple(t.id for t in pack.tactics.values() if t.civ in seats),
        techs=tuple(t.id for t in pack.techs.values() if t.civ in seats),
        structures=tuple(pack.structures),
        groups=sum(tokens.values()) + sum(fighters.values()),
        oath_cost=oath.cost if oath is not None and state.mode == "advanced" else None,
        structuring=space,
    )


def battle_universe(decider: Sandbox, setup: Setup) -> Universe:
    """The domains of a sandbox battle with this set-up (its forces, its small map)."""
    pack = decider.pack
    state: SandboxState = decider.initial_state(setup)
    battle = state.battle
    seats = tuple(setup.seats)
    tokens: dict[str, int] = {}
    for force in battle.forces:
        tokens[force.unit] = tokens.get(force.unit, 0) + force.count
    fighters = tuple(u for u in tokens if u in _fighting_structures(pack))
    civs = {battle.attacker, battle.defender, *seats}
    return Universe(
        seats=seats,
        tokens=tokens,
        fighters=fighters,
        zones=(battle.zone, *(z.id for z in battle.map if z.id != battle.zone)),
        tactics=tuple(t.id for t in pack.tactics.values() if t.civ in civs),
        techs=(),
        structures=(),
        groups=sum(tokens.values()),
    )


# -- blocks ---------------------------------------------------------------------------------


def _block(command: type[Command], *fields: tuple[str, Iterable[Any]], **fixed: Any) -> Block:
    return Block(
        command=command,
        fixed=tuple(fixed.items()),
        fields=tuple((name, tuple(domain)) for name, domain in fields),
    )


def _counts(universe: Universe, unit: str) -> range:
    return range(1, universe.tokens[unit] + 1)


def _combat_blocks(pack: ContentPack, u: Universe) -> Iterator[Block]:
    """The commands of a combat (the game's combat phase and the sandbox alike)."""
    zones, groups = u.zones, range(u.groups)
    for unit in u.units:
        yield _block(combat.Strategise, ("origin", zones), ("count", _counts(u, unit)), unit=unit)
    yield _block(combat.StrategiseDone)
    yield _block(combat.RedirectBiome, ("redirect", YES_NO))
    yield _block(combat.DiscardTactic, ("card", u.tactics))
    yield _block(combat.RaiseInitiative, ("unit", u.tokens))
    yield _block(combat.ChooseEffectGroup, ("group", groups))
    yield _block(combat.ChoosePlayer, ("seat", u.seats))
    yield _block(combat.SpiritsEmbrace, ("group", (None, *groups)), ("bonus", BONUSES))
    for unit in u.units:
        yield _block(
            combat.MoveAfterWin,
            ("count", _counts(u, unit)),
            ("destination", zones),
            unit=unit,
        )
    yield _block(combat.FinishMoves)
    yield from _tactic_blocks(pack, u)
    yield _block(combat.PassTactics)
    yield _block(combat.StandingPass)
    for unit in u.tokens:
        yield _block(
            combat.DeployGroup,
            ("size", _counts(u, unit)),
            ("slot", SLOTS),
            ("origin", ("", *zones)),
            unit=unit,
        )
    yield _block(combat.ChooseGroup, ("group", groups))
    yield _block(combat.HealGroup, ("target", groups))
    yield _block(combat.Attack, ("target", groups))
    yield _block(combat.Support, ("target", groups), ("bonus", BONUSES))
    yield _block(combat.Reroll, ("reroll", YES_NO))
    yield _block(combat.ClaimArmor, ("accept", YES_NO))
    yield _block(combat.Retreat, ("retreat", YES_NO))
    yield _block(combat.Backstab, ("group", (None, *groups)), ("target", (None, *groups)))
    for unit in u.units:
        yield _block(
            combat.RetreatUnits,
            ("count", _counts(u, unit)),
            ("destination", zones),
            unit=unit,
        )
    yield _block(combat.PayInjury, ("group", groups), ("pay", YES_NO))


_NO_ARGUMENTS = {"target": None, "player": None, "zone": None, "structure": None}


def _tactic_blocks(pack: ContentPack, u: Universe) -> Iterator[Block]:
    """One block per tactic option and kind of argument it may ask for (N-TAC-1): the
    arguments of :func:`~..rules.combat.tactics.playable` (combat windows) and
    :func:`~..rules.tactic_play.legal_plays` (the phases)."""
    for card in u.tactics:
        tactic = pack.tactics[card]
        for index, option in enumerate(tactic.options):
            for arguments, fields in _tactic_arguments(option, u):
                discards: tuple[str | None, ...] = (None,)
                if option.discards and option.window in PHASE_WINDOWS.values():
                    discards = tuple(t for t in u.tactics if pack.tactics[t].civ == tactic.civ)
                yield _block(
                    combat.PlayTactic,
                    *fields,
                    ("discard", discards),
                    card=card,
                    option=index,
                    **arguments,
                )


def _tactic_arguments(
    option: TacticOption, u: Universe
) -> Iterator[tuple[dict[str, Any], tuple[tuple[str, Iterable[Any]], ...]]]:
    """(fixed fields, ranging fields) for each kind of argument ``option`` may take."""
    yield dict(_NO_ARGUMENTS), ()
    if option.window in PHASE_WINDOWS.values():
        kinds = {effect.kind for effect in option.effects}
        if kinds & ZONE_EFFECTS:
            yield _without("zone"), (("zone", u.zones),)
        if "build_structure" in kinds:
            yield _without("zone", "structure"), (("zone", u.zones), ("structure", u.structures))
        return
    targets = {effect.target for effect in option.effects}
    if targets & {"own_group", "enemy_group"}:
        yield _without("target"), (("target", range(u.groups)),)
    if "any_player" in targets:
        yield _without("player"), (("player", u.seats),)
    if "zone" in targets:
        yield _without("zone"), (("zone", u.zones),)


def _without(*names: str) -> dict[str, Any]:
    """The argument fields other than ``names``, fixed to ``None``."""
    return {k: v for k, v in _NO_ARGUMENTS.items() if k not in names}


def _game_blocks(pack: ContentPack, u: Universe) -> Iterator[Block]:
    """Nataterra's commands outside a combat, and its combat's."""
    zones = u.zones
    if u.structuring is not None:
        yield from _structuring_blocks(pack, u, u.structuring)
    yield _block(DiscardOpeningTactic, ("card", u.tactics))
    yield _block(EndPhase, ("phase", PHASES))
    for unit in u.units:
        yield _block(
            MoveUnits,
            ("origin", zones),
            ("count", _counts(u, unit)),
            ("destination", zones),
            unit=unit,
        )
    yield _block(StartCombat, ("zone", zones), ("defender", u.seats))
    yield from _combat_blocks(pack, u)
    yield _block(Recruit, ("unit", u.units))
    yield _block(Research, ("tech", u.techs), ("option", (None, *SIDES)))
    yield _block(Build, ("structure", u.structures), ("zone", zones))
    if u.oath_cost is not None:
        cost = range(u.oath_cost + 1)
        yield _block(SwearOath, ("wood", cost), ("metal", cost))


def _structuring_blocks(pack: ContentPack, u: Universe, space: StructuringSpace) -> Iterator[Block]:
    yield _block(PlaceSharedTile, ("side", SIDES))
    rotations = range(6)
    yield _block(
        AttachMapTile,
        ("tile", space.map_tiles),
        ("at", space.anchors),
        ("rotation", rotations),
    )
    yield _block(PlacePlayerTile, ("at", space.anchors), ("rotation", rotations))
    terrain = ("mountain", "lake")
    yield _block(PlaceModifier, ("side", terrain), ("zone", u.zones), at=None)
    yield _block(PlaceModifier, ("side", terrain), ("at", space.edge), zone=None)


def _move_key(command: Command) -> dict[str, Any]:
    """A move is named by its endpoints: the legal list holds one canonical path for each."""
    assert isinstance(command, MoveUnits)
    destination = command.path[-1] if command.path else command.origin
    return {
        "unit": command.unit,
        "origin": command.origin,
        "count": command.count,
        "destination": destination,
    }


def _codec(blocks: Iterable[Block], command_types: Iterable[type[Command]]) -> FactoredCodec:
    wanted = set(command_types)
    return FactoredCodec((b for b in blocks if b.command in wanted), keys={MoveUnits: _move_key})


def nataterra_codec(decider: Any, setup: Setup) -> FactoredCodec:
    """The action codec of a Nataterra game with this set-up (see the module's table)."""
    assert isinstance(decider, Nataterra)
    universe = game_universe(decider, setup)
    return _codec(_game_blocks(decider.pack, universe), decider.command_types)


def sandbox_codec(decider: Any, setup: Setup) -> FactoredCodec:
    """The action codec of a sandbox battle with this set-up (the combat's commands)."""
    assert isinstance(decider, Sandbox)
    universe = battle_universe(decider, setup)
    return _codec(_combat_blocks(decider.pack, universe), decider.command_types)
