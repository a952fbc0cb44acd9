"""The rulebook's binding facts and the limits the rules put on any content pack.

This is the one place where content is checked against ``rules/nataterra.md``: every message
starts with the rule ID it enforces. A provisional or user pack that contradicts one of these is
rejected (rules §"Two kinds of content": provisional values must never contradict a binding
fact). The loader calls :func:`check_binding_facts` on the merged, structured pack.

Group-card sides: where the rulebook ties a fact to a tech, the side is the one that tech selects:
*Blood Brothers* is Orc option A (N-FAQ-19), so *Tribal Shaman* (Heal 2) is side B; the Ditcher's
"back" card without injury is side B (N-FAQ-21). Facts the rulebook states without a tech are
checked on side A, the side used without a tech (N-DEV-5). Facts tied to a named tech whose letter
the rulebook does not give (*Protector*, *Gargoyle*, *Poison Blade*, *Shadow Steps*) must hold on
one of the two sides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from typing import Any, Protocol

from nataterra_core.games.nataterra.content.schema import (
    AbilityId,
    ContentPack,
    Cost,
    GroupSide,
    UnitType,
)
from nataterra_core.kernel.errors import ContentProblem

__all__ = ["Locator", "check_binding_facts"]

CIVILISATIONS = ("velathi", "beasts", "humans", "naga")
CIV_ABILITIES = {
    "humans": ("N-CIV-1", "for_the_king"),
    "velathi": ("N-CIV-2", "stoneskin"),
    "naga": ("N-CIV-3", "flare"),
    "beasts": ("N-CIV-4", "bloodthirst"),
}
BIOME_DECKS = {"desert": 8, "forest": 13, "hills": 13, "swamp": 13}
VICTORY_CATEGORIES = {"learning": 1, "strategy": 3, "war": 3, "glory": 3}
# N-WIN-3: the advanced conditions by category, with the per-turn caps their texts state.
VICTORY_CAPS: dict[str, tuple[str, int | None]] = {
    "oath_of_asha": ("strategy", 2),
    "colonisation": ("strategy", None),
    "strategic_point": ("strategy", None),
    "total_dominance": ("war", 2),
    "war_of_attrition": ("war", 2),
    "subjugation": ("war", 3),
    "glory_of_the_king": ("glory", None),
    "rise_of_the_mighty": ("glory", 2),
    "military_supremacy": ("glory", 2),
}
# N-WIN-3: the counts the condition texts state (thresholds reached at the start of a turn,
# the wood-and-metal cost of an Oath of Asha cube).
VICTORY_THRESHOLDS: dict[str, tuple[int, ...]] = {
    "colonisation": (11,),
    "strategic_point": (1,),
    "glory_of_the_king": (3, 4),
}
VICTORY_COSTS: dict[str, int] = {"oath_of_asha": 3}
# Rules §1: unit types the rulebook's texts name, by civilisation.
NAMED_UNITS = {
    "velathi": ("hunter", "disciple", "zealot", "cave_golem"),
    "beasts": ("woodcutter", "goblin", "orc", "ogre", "ditcher"),
    "humans": ("spearman", "marksman"),
    "naga": ("kambar", "fairy", "forest_snake", "moldy_golem"),
}
WORKERS = {"velathi": "hunter", "beasts": "woodcutter"}
MAP_PLAYERS = {
    "learning": ("velathi", "beasts"),
    "three_players": ("velathi", "beasts", "humans"),
    "four_players": ("velathi", "beasts", "humans", "naga"),
}

Keys = tuple[str | int, ...]


class Locator(Protocol):
    """Tells where in the pack's files a value was written."""

    def entry(self, collection: str, entry_id: str, *keys: str | int) -> tuple[str, str]:
        """File and path of the value at ``keys`` in entry ``entry_id`` of ``collection``."""
        ...

    def collection(self, collection: str) -> tuple[str, str]:
        """File and path standing for ``collection`` as a whole."""
        ...


class _Report:
    """Collects contradictions, each prefixed with its rule ID."""

    def __init__(self, where: Locator, incomplete: Collection[str]) -> None:
        self.problems: list[ContentProblem] = []
        self.where = where
        self._incomplete = incomplete

    def complete(self, collection: str) -> bool:
        """Whether every entry of ``collection`` loaded, so that counting it means something."""
        return collection not in self._incomplete

    def of(self, collection: str, entry_id: str) -> _EntryReport:
        return _EntryReport(self, collection, entry_id)

    def collection(self, rule: str, collection: str, message: str) -> None:
        file, path = self.where.collection(collection)
        self.problems.append(ContentProblem(file, path, f"{rule}: {message}"))


class _EntryReport:
    def __init__(self, report: _Report, collection: str, entry_id: str) -> None:
        self._report = report
        self._collection = collection
        self._id = entry_id

    def bad(self, rule: str, keys: Keys, message: str) -> None:
        file, path = self._report.where.entry(self._collection, self._id, *keys)
        self._report.problems.append(ContentProblem(file, path, f"{rule}: {message}"))

    def expect(self, rule: str, keys: Keys, actual: Any, expected: Any) -> None:
        if actual != expected:
            what = ".".join(str(k) for k in keys)
            self.bad(rule, keys, f"{self._id} {what} must be {expected!r}, not {actual!r}")


_Check = Callable[[ContentPack, _Report], None]
_CHECKS: list[_Check] = []


def _check(function: _Check) -> _Check:
    _CHECKS.append(function)
    return function


def check_binding_facts(
    pack: ContentPack, where: Locator, incomplete: Collection[str] = ()
) -> list[ContentProblem]:
    """Return every contradiction between ``pack`` and the rules, each naming its rule ID.

    ``incomplete`` names collections with entries that failed to load: checks that count a
    collection skip it then (its counts would be wrong), checks of single entries still run.
    """
    report = _Report(where, incomplete)
    for function in _CHECKS:
        function(pack, report)
    return report.problems


# --- Components (rules §1) ----------------------------------------------------------------


@_check
def _attack_die(pack: ContentPack, report: _Report) -> None:
    die = report.of("die", "die")
    faces = pack.die.faces
    if len(faces) != 10:
        die.bad("N-COMP-5", ("faces",), f"the attack die is a d10, not {len(faces)} faces")
    if not any(face.value == -5 and face.swords == 2 for face in faces):
        die.bad("N-COMP-5", ("faces",), "one face must show -5 with two swords")
    for i, face in enumerate(faces):
        if face.swords < 0:
            die.bad("N-COMP-5", ("faces", i, "swords"), "sword count below 0")


@_check
def _civilisations(pack: ContentPack, report: _Report) -> None:
    if report.complete("civilisations"):
        for civ_id in CIVILISATIONS:
            if civ_id not in pack.civilisations:
                report.collection("N-SETUP-1", "civilisations", f"civilisation {civ_id!r} missing")
    for civ in pack.civilisations.values():
        entry = report.of("civilisations", civ.id)
        if civ.id in CIV_ABILITIES:
            rule, ability = CIV_ABILITIES[civ.id]
            entry.expect(rule, ("ability",), civ.ability, ability)
        if len(civ.essences) != 2:
            entry.bad("N-COMP-3", ("essences",), "a civilisation has 2 essences")
        slots = 7 if civ.id == "beasts" else 6
        if civ.combat_board.total != slots:
            msg = f"the {civ.id} combat board has {slots} slots, not {civ.combat_board.total}"
            entry.bad("N-COMP-3", ("combat_board",), msg)


@_check
def _rosters(pack: ContentPack, report: _Report) -> None:
    for civ in pack.civilisations.values():
        entry = report.of("civilisations", civ.id)
        for unit_id in NAMED_UNITS.get(civ.id, ()):
            if unit_id not in civ.units:
                msg = f"the rulebook names a {civ.id} unit {unit_id!r}; it is not in the roster"
                entry.bad("N-COMP-1", ("units",), msg)
        named_worker = pack.units.get(WORKERS.get(civ.id, ""))
        if named_worker is not None:
            entry_of = report.of("units", named_worker.id)
            entry_of.expect("N-COMP-1", ("role",), named_worker.role, "worker")
        roster = [pack.units[u] for u in civ.units if u in pack.units]
        if not report.complete("units") or len(roster) != len(civ.units):
            continue
        workers = [u for u in roster if u.role == "worker"]
        combat = Counter(u.unlock for u in roster if u.role == "combat")
        if len(workers) != 1 or combat != Counter(start=2, left_tile=2, right_tile=2):
            msg = (
                "a civilisation has 7 unit types: 1 worker, 2 combat types unlocked at the "
                "start, 2 under the left tile, 2 under the right tile; "
                f"{civ.id} has {len(workers)} worker(s), combat types {dict(combat)}"
            )
            entry.bad("N-COMP-1", ("units",), msg)
        for worker in workers:
            report.of("units", worker.id).expect("N-COMP-1", ("unlock",), worker.unlock, "start")
        if not any(u.hero for u in roster if u.unlock == "right_tile"):
            msg = f"the right tile of {civ.id} covers its hero unit(s); none is marked hero"
            entry.bad("N-COMP-1", ("units",), msg)


@_check
def _unit_limits(pack: ContentPack, report: _Report) -> None:
    for unit in pack.units.values():
        entry = report.of("units", unit.id)
        if not 1 <= unit.initiative <= 10:
            entry.bad("N-COMBAT-6", ("initiative",), f"initiative is 1..10, not {unit.initiative}")
        if unit.hero and unit.unlock != "right_tile":
            entry.bad("N-COMP-1", ("hero",), "hero units sit under the right civilisation tile")
        if unit.role == "worker" and unit.tokens != 12:
            msg = f"a civilisation has 12 workers (3 base, 3 pool, 6 supply), not {unit.tokens}"
            entry.bad("N-SETUP-5", ("tokens",), msg)
        if unit.role == "combat" and unit.unlock == "start" and unit.tokens < unit.group_size:
            msg = f"a starting type puts {unit.group_size} tokens in the pool; it has {unit.tokens}"
            entry.bad("N-SETUP-6", ("tokens",), msg)


def _on_one_side(unit: UnitType, test: Callable[[GroupSide], bool]) -> bool:
    return test(unit.side_a) or test(unit.side_b)


def _with_tech(ability: AbilityId, level: int) -> Callable[[GroupSide], bool]:
    return lambda side: side.ability_level(ability, with_tech=True) == level


@_check
def _unit_facts(pack: ContentPack, report: _Report) -> None:
    units = pack.units
    if "disciple" in units:
        disciple, entry = units["disciple"], report.of("units", "disciple")
        entry.expect("N-COMP-2", ("class",), disciple.class_, "melee")
        entry.expect("N-COMBAT-15", ("side_a", "armor"), disciple.side_a.armor, 0)
        entry.expect("N-COMBAT-16", ("side_a", "health"), disciple.side_a.health, 8)
        injury = disciple.side_a.injury
        if injury is None or injury.threshold != 4 or injury.fee != Cost(food=1):
            msg = "disciple side_a injury must be threshold 4, fee 1 food (the worked example)"
            entry.bad("N-COMBAT-26", ("side_a", "injury"), msg)
        if not _on_one_side(
            disciple, lambda s: _with_tech("stealth", 1)(s) and _with_tech("strategise", 1)(s)
        ):
            msg = "Shadow Steps gives the Disciple Stealth and Strategise on one side"
            entry.bad("N-MOV-4", ("side_a", "abilities"), msg)
    if "goblin" in units:
        goblin, entry = units["goblin"], report.of("units", "goblin")
        entry.expect("N-COMP-2", ("class",), goblin.class_, "ranged")
        entry.expect("N-COMBAT-4", ("group_size",), goblin.group_size, 4)
        entry.expect("N-COMBAT-15", ("side_b", "attack"), goblin.side_b.attack, 3)
    if "orc" in units:
        orc, entry = units["orc"], report.of("units", "orc")
        entry.expect("N-COMP-2", ("class",), orc.class_, "melee")
        entry.expect("N-COMBAT-14", ("group_size",), orc.group_size, 3)
        entry.expect("N-COMBAT-14", ("side_a", "attack"), orc.side_a.attack, 3)
        if not _with_tech("heal", 2)(orc.side_b):
            msg = "Tribal Shaman (Orc side B) gives two Heal: 3 Orcs remove 6"
            entry.bad("N-ABL-3", ("side_b", "abilities"), msg)
    if "ogre" in units:
        report.of("units", "ogre").expect("N-COMP-2", ("class",), units["ogre"].class_, "melee")
    if "zealot" in units and not _on_one_side(units["zealot"], _with_tech("retaliation", 1)):
        msg = "Poison Blade gives the Zealot Retaliation 1 on one side: 2 Zealots deal 2"
        report.of("units", "zealot").bad("N-ABL-9", ("side_a", "abilities"), msg)
    if "cave_golem" in units:
        _cave_golem(units["cave_golem"], report.of("units", "cave_golem"))
    if "ditcher" in units and units["ditcher"].side_b.injury is not None:
        msg = "ARRGGGHH!!! (Ditcher side B) prints no injury value: Ditchers suffer no injuries"
        report.of("units", "ditcher").bad("N-FAQ-21", ("side_b", "injury"), msg)


def _cave_golem(golem: UnitType, entry: _EntryReport) -> None:
    # 2 Cave Golems support with +2 attack or +4 armor, with Protector +8 more (N-COMBAT-19).
    sides = {"side_a": golem.side_a, "side_b": golem.side_b}
    protector = [key for key, side in sides.items() if _with_tech("reinforce", 4)(side)]
    if not protector:
        msg = "Protector gives the Cave Golem Reinforce 4 on one side"
        entry.bad("N-COMBAT-19", ("side_a", "abilities"), msg)
    for key in dict.fromkeys(["side_a", *protector]):
        entry.expect("N-COMBAT-19", (key, "attack"), sides[key].attack, 2)
        entry.expect("N-COMBAT-19", (key, "armor"), sides[key].armor, 4)
    if not _on_one_side(golem, lambda s: s.flexible_slot):
        msg = "Gargoyle lets the Cave Golem use melee or ranged slots (flexible_slot, one side)"
        entry.bad("N-FAQ-17", ("side_b", "flexible_slot"), msg)


# --- Decks and cards ----------------------------------------------------------------------


@_check
def _tech_decks(pack: ContentPack, report: _Report) -> None:
    if not report.complete("techs"):
        return
    for civ in pack.civilisations.values():
        entry = report.of("civilisations", civ.id)
        deck = [t for t in pack.techs.values() if t.civ == civ.id]
        numbers = sorted(t.number for t in deck)
        if numbers != list(range(1, 17)):
            msg = f"a tech deck has 16 cards numbered 1..16 once each; {civ.id} has {numbers}"
            entry.bad("N-COMP-3", (), msg)
        resources = Counter(t.resource for t in deck if t.kind == "resource")
        if resources != Counter(food=3, wood=3, metal=3):
            msg = f"a tech deck has 3 resource techs per resource; {civ.id} has {dict(resources)}"
            entry.bad("N-COMP-3", (), msg)
        unit_techs = sorted(t.unit or "" for t in deck if t.kind == "unit")
        if any(u not in pack.units for u in unit_techs):
            continue  # the loader reports the unknown unit; a count would say it twice
        if unit_techs != sorted(civ.units):
            msg = f"a tech deck has one unit tech per unit type; {civ.id} has them for {unit_techs}"
            entry.bad("N-COMP-3", (), msg)


@_check
def _blood_brothers(pack: ContentPack, report: _Report) -> None:
    for tech in pack.techs.values():
        if tech.unit != "orc" or tech.option_a is None:
            continue
        entry, option = report.of("techs", tech.id), tech.option_a
        bonuses = Counter({b.kind: b.amount for b in option.bonuses})
        if ("unit_cost", "food", -1) not in [
            (e.kind, e.resource, e.amount) for e in option.effects
        ]:
            msg = "Blood Brothers (Orc option A): Orcs cost 1 food less"
            entry.bad("N-FAQ-19", ("option_a", "effects"), msg)
        if bonuses["add_units"] != 6 or bonuses["draw_tactic"] != 1:
            msg = "Blood Brothers (Orc option A): 6 Orc tokens unlocked and one tactic card drawn"
            entry.bad("N-FAQ-19", ("option_a", "bonuses"), msg)


@_check
def _tactic_decks(pack: ContentPack, report: _Report) -> None:
    if not report.complete("tactics"):
        return
    for civ in pack.civilisations.values():
        numbers = sorted(t.number for t in pack.tactics.values() if t.civ == civ.id)
        if numbers != list(range(1, 16)):
            msg = f"a civilisation has 15 tactic cards (numbered 1..15); {civ.id} has {numbers}"
            report.of("civilisations", civ.id).bad("N-COMP-3", (), msg)


@_check
def _biome_decks(pack: ContentPack, report: _Report) -> None:
    for card in pack.biome_cards.values():
        if len(card.essences) != 2:
            msg = "a biome card shows two essences"
            report.of("biome_cards", card.id).bad("N-COMBAT-7", ("essences",), msg)
    if report.complete("biome_cards"):
        counts = Counter(card.biome for card in pack.biome_cards.values())
        if counts != Counter(BIOME_DECKS):
            msg = f"biome decks hold 8 desert, 13 forest, 13 hills, 13 swamp, not {dict(counts)}"
            report.collection("N-COMP-4", "biome_cards", msg)


@_check
def _victory_conditions(pack: ContentPack, report: _Report) -> None:
    conditions = pack.victory_conditions
    if report.complete("victory_conditions"):
        counts = Counter(c.category for c in conditions.values())
        if counts != Counter(VICTORY_CATEGORIES):
            msg = f"10 conditions: 1 learning, 3 strategy, 3 war, 3 glory; not {dict(counts)}"
            report.collection("N-COMP-4", "victory_conditions", msg)
        for condition_id in ("battlefield_dominance", *VICTORY_CAPS):
            if condition_id not in conditions:
                msg = f"condition {condition_id!r} missing"
                report.collection("N-WIN-3", "victory_conditions", msg)
    if "battlefield_dominance" in conditions:
        learning = conditions["battlefield_dominance"]
        entry = report.of("victory_conditions", learning.id)
        entry.expect("N-WIN-2", ("category",), learning.category, "learning")
        entry.expect("N-WIN-2", ("cubes",), learning.cubes, 4)
    for condition_id, (category, cap) in VICTORY_CAPS.items():
        if condition_id in conditions:
            condition = conditions[condition_id]
            entry = report.of("victory_conditions", condition_id)
            entry.expect("N-WIN-3", ("category",), condition.category, category)
            entry.expect("N-WIN-3", ("cap_per_turn",), condition.cap_per_turn, cap)
            thresholds = VICTORY_THRESHOLDS.get(condition_id, ())
            entry.expect("N-WIN-3", ("thresholds",), condition.thresholds, thresholds)
            entry.expect("N-WIN-3", ("cost",), condition.cost, VICTORY_COSTS.get(condition_id, 0))


# --- Structures (rules §8) ----------------------------------------------------------------


@_check
def _structures(pack: ContentPack, report: _Report) -> None:
    structures = pack.structures
    for structure in structures.values():
        if structure.start_unlocked and structure.id != "farm":
            msg = "structure tiles start locked; only the Humans' Farm starts unlocked"
            report.of("structures", structure.id).bad("N-SETUP-6", ("start_unlocked",), msg)
    if "farm" in structures:
        farm, entry = structures["farm"], report.of("structures", "farm")
        entry.expect("N-SETUP-6", ("civ",), farm.civ, "humans")
        entry.expect("N-SETUP-6", ("start_unlocked",), farm.start_unlocked, True)
    if "outpost" in structures:
        outpost, entry = structures["outpost"], report.of("structures", "outpost")
        entry.expect("N-STR-3", ("radiance",), outpost.radiance, True)
        entry.expect("N-STR-0", ("copies",), outpost.copies, 2)
    if "underground_tunnel" in structures:
        tunnel = structures["underground_tunnel"]
        report.of("structures", tunnel.id).expect("N-STR-0", ("copies",), tunnel.copies, 3)
    if "bone_tower" in structures and structures["bone_tower"].combat is None:
        msg = "the Bone Tower fights as a group: it needs a combat stat line"
        report.of("structures", "bone_tower").bad("N-STR-3", ("combat",), msg)
    if "soul_prison" in structures:
        prison, entry = structures["soul_prison"], report.of("structures", "soul_prison")
        if prison.capacity is None:
            entry.bad("N-STR-3", ("capacity",), "a Soul Prison has cube slots")
        entry.expect("N-STR-3", ("copies",), prison.copies, 2)


# --- Map (rules §2, §2a) ------------------------------------------------------------------


@_check
def _map_tiles(pack: ContentPack, report: _Report) -> None:
    tiles = pack.map_tiles.values()
    for tile in tiles:
        entry = report.of("map_tiles", tile.id)
        size = {"map": 6, "shared": 4}.get(tile.kind)
        if size is not None and len(tile.zones) != size:
            entry.bad("N-MAP-1", ("zones",), f"a {tile.kind} tile has {size} zones")
        if tile.kind == "player" and tile.civ == "naga":
            base = next((z for z in tile.zones if z.key == tile.base), None)
            if base is not None and base.biome != "lake":
                entry.bad("N-FAQ-1", ("base",), "the Naga base is a lake")
    if not report.complete("map_tiles"):
        return
    numbers = sorted(t.number or 0 for t in tiles if t.kind == "map")
    if numbers != list(range(1, 17)):
        report.collection("N-COMP-4", "map_tiles", f"16 map tiles numbered 1..16, not {numbers}")
    sides = sorted(t.side or "" for t in tiles if t.kind == "shared")
    if sides != ["a", "b"]:
        report.collection("N-COMP-4", "map_tiles", f"shared tile 0 has sides a and b, not {sides}")
    civs = sorted(t.civ or "" for t in tiles if t.kind == "player")
    if civs != sorted(CIVILISATIONS):
        report.collection("N-COMP-4", "map_tiles", f"one player tile per civilisation, not {civs}")


@_check
def _maps(pack: ContentPack, report: _Report) -> None:
    for map_id, players in MAP_PLAYERS.items():
        if map_id not in pack.maps:
            if report.complete("maps"):
                report.collection("N-MAP-5", "maps", f"map {map_id!r} missing")
            continue
        if sorted(pack.maps[map_id].players) != sorted(players):
            msg = f"{map_id} is played by {list(players)}"
            report.of("maps", map_id).bad("N-SETUP-1", ("players",), msg)
    if "learning" in pack.maps:
        _learning_map(pack, report)


def _learning_map(pack: ContentPack, report: _Report) -> None:
    learning, entry = pack.maps["learning"], report.of("maps", "learning")
    placed = [pack.map_tiles[p.tile] for p in learning.tiles if p.tile in pack.map_tiles]
    if len(placed) != len(learning.tiles):
        return
    kinds = sorted((t.kind, str(t.number) if t.kind == "map" else t.civ or "") for t in placed)
    if kinds != [("map", "1"), ("map", "2"), ("player", "beasts"), ("player", "velathi")]:
        msg = "the learning map is tiles 1 and 2 and the Velathi and Beasts player tiles"
        entry.bad("N-SETUP-1", ("tiles",), msg)
    # The named zones are on the map tiles (the player tiles have forest and swamp zones too).
    zones = {z.id: z.zone for z in learning.placed_zones(pack.map_tiles) if z.tile.kind == "map"}
    targets: list[tuple[str, str | None]] = []
    for i, modifier in enumerate(learning.modifiers):
        zone = zones.get(modifier.zone or "")
        if modifier.side != "mountain" or zone is None:
            msg = "the learning map's modifiers lie mountain side up on zones of tiles 1 and 2"
            entry.bad("N-SETUP-1", ("modifiers", i), msg)
        else:
            targets.append((zone.biome, zone.resource))
    if sorted(targets) != [("forest", "food"), ("swamp", "food")]:
        msg = "two mountains: one on the forest-food zone, one on the swamp-food zone"
        entry.bad("N-SETUP-1", ("modifiers",), msg)
    for biome in ("forest", "swamp"):
        if sum(1 for z in zones.values() if (z.biome, z.resource) == (biome, "food")) != 1:
            msg = f"tiles 1 and 2 must hold exactly one {biome}-food zone for the mountain to name"
            entry.bad("N-SETUP-1", ("tiles",), msg)
