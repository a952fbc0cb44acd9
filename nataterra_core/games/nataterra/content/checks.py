"""Consistency checks of a structured pack: references, value ranges, kinds and map geometry.

These hold for any well-formed pack, whatever the rulebook says; the rulebook's own facts are
in :mod:`nataterra_core.games.nataterra.content.binding`. References are checked against the ids
every entry was *written* with (``ids``), so an entry that failed to structure is not reported a
second time as unknown.
"""

from __future__ import annotations

from collections.abc import Mapping

from nataterra_core.games.nataterra.content.binding import Locator
from nataterra_core.games.nataterra.content.schema import (
    GRANTABLE_ABILITIES,
    ZONE_TARGETED,
    Bonus,
    ContentPack,
    Cost,
    GroupSide,
    MapDef,
    MapTile,
    TacticCard,
    TechCard,
    UnitType,
)
from nataterra_core.kernel.errors import ContentProblem

__all__ = ["check_pack"]

Keys = tuple[str | int, ...]

# The fields each tile kind must have; the others must be absent.
_TILE_FIELDS = {
    "map": {"number"},
    "player": {"civ", "base"},
    "shared": {"number", "side", "centre"},
}


class _Scope:
    """Reports problems of one entry."""

    def __init__(self, checks: _Checks, collection: str, entry_id: str) -> None:
        self._checks = checks
        self._collection = collection
        self._id = entry_id

    def bad(self, keys: Keys, message: str) -> None:
        file, path = self._checks.where.entry(self._collection, self._id, *keys)
        self._checks.problems.append(ContentProblem(file, path, message))

    def ref(self, keys: Keys, target: str, value: str) -> None:
        if value not in self._checks.ids[target]:
            self.bad(keys, f"unknown {target[:-1].replace('_', ' ')} id {value!r}")

    def at_least(self, keys: Keys, value: int, minimum: int) -> None:
        if value < minimum:
            self.bad(keys, f"must be {minimum} or more, got {value}")

    def cost(self, keys: Keys, cost: Cost) -> None:
        for resource in ("food", "wood", "metal"):
            self.at_least((*keys, resource), getattr(cost, resource), 0)


class _Checks:
    def __init__(
        self, pack: ContentPack, ids: Mapping[str, frozenset[str]], where: Locator
    ) -> None:
        self.pack = pack
        self.ids = ids
        self.where = where
        self.problems: list[ContentProblem] = []

    def scope(self, collection: str, entry_id: str) -> _Scope:
        return _Scope(self, collection, entry_id)

    def run(self) -> list[ContentProblem]:
        pack = self.pack
        self.civilisations()
        for unit in pack.units.values():
            self.unit(unit)
        numbers: dict[str, set[int]] = {}
        for tech in pack.techs.values():
            numbers.setdefault(tech.civ, set()).add(tech.number)
        for tech in pack.techs.values():
            self.tech(tech, numbers.get(tech.civ, set()))
        for tactic in pack.tactics.values():
            self.tactic(tactic)
        self.structures()
        for card in pack.biome_cards.values():
            scope = self.scope("biome_cards", card.id)
            if card.target != "all":
                scope.ref(("target",), "civilisations", card.target)
            for i, essence in enumerate(card.essences):
                scope.ref(("essences", i), "essences", essence)
        for condition in pack.victory_conditions.values():
            scope = self.scope("victory_conditions", condition.id)
            scope.at_least(("cubes",), condition.cubes, 1)
            if condition.cap_per_turn is not None:
                scope.at_least(("cap_per_turn",), condition.cap_per_turn, 1)
        for tile in pack.map_tiles.values():
            self.tile(tile)
        for map_def in pack.maps.values():
            self.map(map_def)
        return self.problems

    def civilisations(self) -> None:
        pack = self.pack
        for civ in pack.civilisations.values():
            scope = self.scope("civilisations", civ.id)
            for i, essence in enumerate(civ.essences):
                scope.ref(("essences", i), "essences", essence)
            for i, unit_id in enumerate(civ.units):
                scope.ref(("units", i), "units", unit_id)
                unit = pack.units.get(unit_id)
                if unit is not None and unit.civ != civ.id:
                    scope.bad(("units", i), f"unit {unit_id!r} belongs to {unit.civ!r}")
            for i, structure_id in enumerate(civ.structures):
                scope.ref(("structures", i), "structures", structure_id)
                structure = pack.structures.get(structure_id)
                if structure is not None and structure.civ != civ.id:
                    msg = f"structure {structure_id!r} belongs to {structure.civ!r}"
                    scope.bad(("structures", i), msg)
            for field in ("melee", "ranged", "flex"):
                scope.at_least(("combat_board", field), getattr(civ.combat_board, field), 0)
            for field in ("units", "structures", "essences"):
                values: tuple[str, ...] = getattr(civ, field)
                if len(set(values)) != len(values):
                    scope.bad((field,), "lists an id more than once")

    def unit(self, unit: UnitType) -> None:
        scope = self.scope("units", unit.id)
        scope.ref(("civ",), "civilisations", unit.civ)
        owner = self.pack.civilisations.get(unit.civ)
        if owner is not None and unit.id not in owner.units:
            scope.bad(("civ",), f"not in the roster of civilisation {unit.civ!r}")
        scope.cost(("cost",), unit.cost)
        scope.at_least(("movement",), unit.movement, 0)
        scope.at_least(("group_size",), unit.group_size, 1)
        scope.at_least(("tokens",), unit.tokens, 1)
        for key, side in (("side_a", unit.side_a), ("side_b", unit.side_b)):
            self.side(scope, key, side)

    @staticmethod
    def side(scope: _Scope, key: str, side: GroupSide) -> None:
        for field in ("attack", "armor", "attack_bonus", "armor_bonus"):
            scope.at_least((key, field), getattr(side, field), 0)
        scope.at_least((key, "health"), side.health, 1)
        if side.injury is not None:
            scope.at_least((key, "injury", "threshold"), side.injury.threshold, 1)
            scope.cost((key, "injury", "fee"), side.injury.fee)
        for i, ability in enumerate(side.abilities):
            scope.at_least((key, "abilities", i, "level"), ability.level, 1)

    def tech(self, tech: TechCard, deck_numbers: set[int]) -> None:
        scope = self.scope("techs", tech.id)
        scope.ref(("civ",), "civilisations", tech.civ)
        fields: dict[str, object] = {
            "resource": tech.resource,
            "cost": tech.cost,
            "bonuses": tech.bonuses or None,
            "unit": tech.unit,
            "option_a": tech.option_a,
            "option_b": tech.option_b,
        }
        required = (
            {"resource", "cost"} if tech.kind == "resource" else {"unit", "option_a", "option_b"}
        )
        optional = {"bonuses"} if tech.kind == "resource" else set()
        for field, value in fields.items():
            if value is None and field in required:
                scope.bad((field,), f"required for a {tech.kind} tech")
            elif value is not None and field not in required | optional:
                scope.bad((field,), f"not allowed on a {tech.kind} tech")
        if tech.cost is not None:
            scope.cost(("cost",), tech.cost)
        if tech.unit is not None:
            scope.ref(("unit",), "units", tech.unit)
            unit = self.pack.units.get(tech.unit)
            if unit is not None and unit.civ != tech.civ:
                scope.bad(("unit",), f"unit {tech.unit!r} belongs to {unit.civ!r}")
        bonus_lists: list[tuple[Keys, tuple[Bonus, ...]]] = [((), tech.bonuses)]
        for key, option in (("option_a", tech.option_a), ("option_b", tech.option_b)):
            if option is None:
                continue
            bonus_lists.append(((key,), option.bonuses))
            scope.cost((key, "cost"), option.cost)
            for i, effect in enumerate(option.effects):
                if (effect.kind == "unit_cost") != (effect.resource is not None):
                    need = "needs" if effect.kind == "unit_cost" else "does not take"
                    scope.bad((key, "effects", i), f"a {effect.kind} effect {need} a resource")
        for prefix, bonuses in bonus_lists:
            for i, bonus in enumerate(bonuses):
                keys = (*prefix, "bonuses", i, "amount")
                scope.at_least(keys, bonus.amount, 1)
                if bonus.kind == "draw_tech" and bonus.amount not in deck_numbers:
                    scope.bad(keys, f"no tech card number {bonus.amount} in the {tech.civ} deck")

    def tactic(self, tactic: TacticCard) -> None:
        """Civilisation, number, and each option's references and targets (N-TAC-1)."""
        scope = self.scope("tactics", tactic.id)
        scope.ref(("civ",), "civilisations", tactic.civ)
        scope.at_least(("number",), tactic.number, 1)
        for i, option in enumerate(tactic.options):
            scope.cost(("options", i, "cost"), option.cost)
            for key in ("flare", "discards", "min_units"):
                scope.at_least(("options", i, key), getattr(option, key), 0)
            zones = 0
            for j, effect in enumerate(option.effects):
                keys: tuple[str | int, ...] = ("options", i, "effects", j)
                for field in ("unit", "replaces"):
                    if getattr(effect, field):
                        scope.ref((*keys, field), "units", getattr(effect, field))
                if effect.structure:
                    scope.ref((*keys, "structure"), "structures", effect.structure)
                if effect.kind == "grant_ability" and effect.ability not in GRANTABLE_ABILITIES:
                    scope.bad((*keys, "ability"), f"a card cannot grant {effect.ability!r}")
                if effect.kind in ZONE_TARGETED and effect.target != "zone":
                    scope.bad((*keys, "target"), f'{effect.kind} needs target = "zone"')
                zones += effect.target == "zone"
            if zones > 1:
                scope.bad(("options", i, "effects"), "an option may choose one zone at most")

    def structures(self) -> None:
        for structure in self.pack.structures.values():
            scope = self.scope("structures", structure.id)
            scope.ref(("civ",), "civilisations", structure.civ)
            owner = self.pack.civilisations.get(structure.civ)
            if owner is not None and structure.id not in owner.structures:
                scope.bad(("civ",), f"not in the structures of civilisation {structure.civ!r}")
            scope.cost(("cost",), structure.cost)
            scope.at_least(("copies",), structure.copies, 1)
            if structure.capacity is not None:
                scope.at_least(("capacity",), structure.capacity, 1)
            if structure.combat is not None:
                for field in ("attack", "armor"):
                    scope.at_least(("combat", field), getattr(structure.combat, field), 0)
                scope.at_least(("combat", "health"), structure.combat.health, 1)

    def tile(self, tile: MapTile) -> None:
        scope = self.scope("map_tiles", tile.id)
        keys = [zone.key for zone in tile.zones]
        if len(set(keys)) != len(keys):
            scope.bad(("zones",), "zone keys must be unique in a tile")
        if len({zone.at for zone in tile.zones}) != len(tile.zones):
            scope.bad(("zones",), "two zones of the tile are on the same hex")
        expected = _TILE_FIELDS[tile.kind]
        for field in ("number", "side", "civ", "base", "centre"):
            present = getattr(tile, field) is not None
            if present and field not in expected:
                scope.bad((field,), f"not allowed on a {tile.kind} tile")
            elif not present and field in expected:
                scope.bad((field,), f"required for a {tile.kind} tile")
        for field in ("base", "centre"):
            value = getattr(tile, field)
            if value is not None and value not in keys:
                scope.bad((field,), f"no zone {value!r} on this tile")
        if tile.civ is not None:
            scope.ref(("civ",), "civilisations", tile.civ)

    def map(self, map_def: MapDef) -> None:
        scope = self.scope("maps", map_def.id)
        tiles = self.pack.map_tiles
        for i, civ in enumerate(map_def.players):
            scope.ref(("players", i), "civilisations", civ)
        if len(set(map_def.players)) != len(map_def.players):
            scope.bad(("players",), "lists a civilisation more than once")
        tile_ids = [p.tile for p in map_def.tiles]
        for i, placement in enumerate(map_def.tiles):
            scope.ref(("tiles", i, "tile"), "map_tiles", placement.tile)
            if tile_ids.index(placement.tile) != i:
                scope.bad(("tiles", i, "tile"), f"tile {placement.tile!r} placed twice")
            if not 0 <= placement.rotation <= 5:
                scope.bad(("tiles", i, "rotation"), "must be 0..5 (60° steps)")
            tile = tiles.get(placement.tile)
            if tile is not None and tile.kind == "player" and tile.civ not in map_def.players:
                scope.bad(("tiles", i, "tile"), f"player tile of {tile.civ!r}, not a player here")
        if any(t not in tiles for t in tile_ids):
            return  # the geometry needs every tile
        if sum(1 for t in tile_ids if tiles[t].kind == "shared") > 1:
            scope.bad(("tiles",), "tile 0 is one tile: place one of its sides at most")
        placed = map_def.placed_zones(tiles)
        by_hex: dict[tuple[int, int], str] = {}
        for zone in placed:
            other = by_hex.setdefault(zone.at, zone.id)
            if other != zone.id:
                scope.bad(("tiles",), f"zones {other!r} and {zone.id!r} overlap at {zone.at}")
        zone_ids = {zone.id for zone in placed}
        for i, modifier in enumerate(map_def.modifiers):
            if (modifier.zone is None) == (modifier.at is None):
                scope.bad(("modifiers", i), "give exactly one of zone or at")
            elif modifier.zone is not None and modifier.zone not in zone_ids:
                scope.bad(("modifiers", i, "zone"), f"no zone {modifier.zone!r} on this map")
            elif modifier.at is not None and modifier.at in by_hex:
                msg = f"hex {modifier.at} is zone {by_hex[modifier.at]!r}; use zone to cover it"
                scope.bad(("modifiers", i, "at"), msg)
        covered = [m.zone for m in map_def.modifiers if m.zone is not None]
        if len(set(covered)) != len(covered):
            scope.bad(("modifiers",), "two modifiers on one zone")


def check_pack(
    pack: ContentPack, ids: Mapping[str, frozenset[str]], where: Locator
) -> list[ContentProblem]:
    """Return the consistency problems of ``pack``; ``ids`` are the ids written per collection."""
    return _Checks(pack, ids, where).run()
