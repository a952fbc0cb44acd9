"""The content-pack format, the provisional pack and user overlays
(docs/ARCHITECTURE.md §1, rules §1)."""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from pathlib import Path

import pytest

from nataterra_core.games.nataterra.content import (
    PROVISIONAL_DIR,
    ContentPack,
    effective_sha256,
    load_pack,
)
from nataterra_core.kernel.errors import ContentError, ContentProblem

CIVS = ("velathi", "beasts", "humans", "naga")
COVERS_ALL_TECH_CARDS = True
"""test_N_COMP_3_tech_decks reads every tech card of the pack: 64 cards, each civilisation's
16 numbered 1..16, each checked for its kind, resource or unit, options and cost
(docs/COVERAGE.md)."""


@pytest.fixture(scope="module")
def pack() -> ContentPack:
    return load_pack()


def write_pack(root: Path, files: dict[str, str], pack_id: str = "printed") -> Path:
    """Write an overlay pack: a pack.toml plus ``files`` (relative path -> TOML text)."""
    (root / "pack.toml").write_text(f'[pack]\nid = "{pack_id}"\nversion = "1"\n', encoding="utf-8")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def problems_of(overlay: Path) -> tuple[ContentProblem, ...]:
    with pytest.raises(ContentError) as caught:
        load_pack(overlay)
    return caught.value.problems


def has(problems: tuple[ContentProblem, ...], file: str, path: str, text: str) -> bool:
    return any(p.file == file and p.path == path and text in p.message for p in problems)


# --- The provisional pack -----------------------------------------------------------------


def test_provisional_pack_loads_once_and_is_identified(pack: ContentPack) -> None:
    assert load_pack() is pack
    assert pack.pack_id == "nataterra-provisional"
    assert pack.version == "0.1.0"
    assert pack.overlay is None
    assert len(pack.sha256) == 64
    assert pack.sha256 == pack.sha256.lower()


def test_every_provisional_value_is_flagged(pack: ContentPack) -> None:
    assert pack.base.provisional
    assert pack.die.provisional
    for name in (
        "essences", "civilisations", "units", "techs", "tactics", "structures",
        "biome_cards", "victory_conditions", "map_tiles", "maps",
    ):  # fmt: skip
        unflagged = [e.id for e in getattr(pack, name).values() if not e.provisional]
        assert unflagged == [], name


def test_N_COMP_5_die_has_minus_five_with_two_swords(pack: ContentPack) -> None:
    faces = [(f.value, f.swords) for f in pack.die.faces]

    assert len(faces) == 10
    assert (-5, 2) in faces
    assert faces == [
        (-5, 2),
        (-2, 0),
        (-1, 0),
        (0, 0),
        (0, 0),
        (1, 0),
        (1, 0),
        (2, 0),
        (2, 1),
        (3, 0),
    ]


def test_N_COMP_1_each_civilisation_has_seven_unit_types(pack: ContentPack) -> None:
    assert sorted(pack.civilisations) == sorted(CIVS)
    assert len(pack.units) == 28
    for civ in CIVS:
        roster = pack.units_of(civ)
        by_slot = Counter((u.role, u.unlock) for u in roster)

        assert len(roster) == 7
        assert by_slot == Counter(
            {("worker", "start"): 1, ("combat", "start"): 2, ("combat", "left_tile"): 2,
             ("combat", "right_tile"): 2}
        )  # fmt: skip
        assert any(u.hero for u in roster)
        assert all(u.unlock == "right_tile" for u in roster if u.hero)
        assert pack.worker_of(civ).role == "worker"
    assert pack.worker_of("velathi").id == "hunter"
    assert pack.worker_of("beasts").id == "woodcutter"


def test_N_COMP_2_stat_lines_are_complete(pack: ContentPack) -> None:
    for unit in pack.units.values():
        assert 1 <= unit.initiative <= 10, unit.id
        assert unit.group_size >= 1 and unit.movement >= 1 and unit.tokens >= unit.group_size
        assert unit.cost.food + unit.cost.wood + unit.cost.metal > 0, unit.id
        for side in (unit.side_a, unit.side_b):
            assert side.health >= 1
        assert unit.side_a.injury is not None, unit.id


def test_binding_unit_facts_hold(pack: ContentPack) -> None:
    """The worked examples of rules §1: Disciple, Goblin, Orc, Ogre, Cave Golem, Zealot, Ditcher."""
    disciple, goblin, orc = pack.units["disciple"], pack.units["goblin"], pack.units["orc"]
    golem = pack.units["cave_golem"]

    assert disciple.class_ == "melee"
    assert (disciple.side_a.armor, disciple.side_a.health) == (0, 8)
    assert disciple.side_a.injury is not None
    assert disciple.side_a.injury.threshold == 4
    assert (disciple.side_a.injury.fee.food, disciple.side_a.injury.fee.wood) == (1, 0)
    assert goblin.class_ == "ranged" and goblin.group_size == 4 and goblin.side_b.attack == 3
    assert orc.class_ == "melee" and orc.group_size == 3 and orc.side_a.attack == 3
    assert orc.side_b.ability_level("heal", with_tech=True) == 2
    assert orc.side_b.ability_level("heal", with_tech=False) == 0
    assert pack.units["ogre"].class_ == "melee"
    assert (golem.side_a.attack, golem.side_a.armor) == (2, 4)
    assert golem.side_a.ability_level("reinforce", with_tech=True) == 4
    assert golem.side_b.flexible_slot
    assert pack.units["zealot"].side_a.ability_level("retaliation", with_tech=True) == 1
    assert pack.units["ditcher"].side_b.injury is None


def test_N_COMP_3_tech_decks(pack: ContentPack) -> None:
    assert len(pack.techs) == 64
    for civ in CIVS:
        deck = pack.tech_deck(civ)
        resources = Counter(t.resource for t in deck if t.kind == "resource")
        unit_techs = [t for t in deck if t.kind == "unit"]

        assert [t.number for t in deck] == list(range(1, 17))
        assert resources == Counter(food=3, wood=3, metal=3)
        assert sorted(t.unit or "" for t in unit_techs) == sorted(pack.civilisations[civ].units)
        for tech in unit_techs:
            assert tech.option("a").title != tech.option("b").title
            assert tech.cost is None
        for tech in deck:
            if tech.kind == "resource":
                assert tech.cost is not None
                with pytest.raises(ValueError, match="resource tech"):
                    tech.option("a")


def test_N_SETUP_4_every_tech_card_can_be_drawn(pack: ContentPack) -> None:
    """Cards 1-3 start in hand; every other card is reachable by draw_tech bonuses."""
    for civ in CIVS:
        draws: dict[int, set[int]] = {}
        for tech in pack.tech_deck(civ):
            holders = [tech] if tech.kind == "resource" else [tech.option("a"), tech.option("b")]
            # A unit tech's draw must not depend on the option chosen.
            targets = [{b.amount for b in h.bonuses if b.kind == "draw_tech"} for h in holders]
            assert all(t == targets[0] for t in targets), tech.id
            draws[tech.number] = targets[0]
        reached, frontier = {1, 2, 3}, [1, 2, 3]
        while frontier:
            for nxt in draws[frontier.pop()] - reached:
                reached.add(nxt)
                frontier.append(nxt)

        assert reached == set(range(1, 17)), civ


def test_N_FAQ_19_blood_brothers(pack: ContentPack) -> None:
    tech = next(t for t in pack.techs.values() if t.unit == "orc")
    option = tech.option("a")

    assert option.title_de == "Blutsbrüder der Orks"
    assert [(e.kind, e.resource, e.amount) for e in option.effects] == [("unit_cost", "food", -1)]
    assert {(b.kind, b.amount) for b in option.bonuses} >= {("add_units", 6), ("draw_tactic", 1)}


def test_N_COMP_3_tactic_cards(pack: ContentPack) -> None:
    assert len(pack.tactics) == 60
    for civ in CIVS:
        deck = pack.tactic_deck(civ)

        assert [t.number for t in deck] == list(range(1, 16))
    assert pack.tactic_deck("beasts")[0].title_de == "Ohne Angst"
    assert pack.tactic_deck("beasts")[-1].title_de == "Gewonnene Erkenntnisse"
    assert pack.tactic_deck("humans")[0].title_de == "In der Rechtssache"
    assert pack.tactic_deck("humans")[-1].title_de == "Fortgeschrittene Strategie"
    assert pack.tactic_deck("naga")[0].title_de == "Waldtiere"
    assert pack.tactic_deck("naga")[-1].title_de == "Natürliche Verstärkung"
    assert pack.tactic_deck("velathi")[0].title_de == "Tödlicher Schnitt"
    assert pack.tactic_deck("velathi")[-1].title_de == "Geborener Mörder"


def test_N_COMP_3_civilisations(pack: ContentPack) -> None:
    abilities = {c.id: c.ability for c in pack.civilisations.values()}

    assert abilities == {
        "humans": "for_the_king", "velathi": "stoneskin", "naga": "flare", "beasts": "bloodthirst"
    }  # fmt: skip
    for civ in pack.civilisations.values():
        board = civ.combat_board

        assert len(civ.essences) == 2
        assert board.total == (7 if civ.id == "beasts" else 6)
        assert (board.melee, board.ranged, board.flex) == (
            (4, 2, 1) if civ.id == "beasts" else (3, 2, 1)
        )
    all_essences = [e for c in pack.civilisations.values() for e in c.essences]
    assert len(set(all_essences)) == 8


def test_N_COMP_4_biome_decks_and_victory_conditions(pack: ContentPack) -> None:
    sizes = {b: len(pack.biome_deck(b)) for b in ("desert", "forest", "hills", "swamp", "lake")}
    categories = Counter(v.category for v in pack.victory_conditions.values())

    assert sizes == {"desert": 8, "forest": 13, "hills": 13, "swamp": 13, "lake": 0}
    assert all(len(c.essences) == 2 for c in pack.biome_cards.values())
    assert {c.target for c in pack.biome_cards.values()} == {"all", *CIVS}
    assert categories == Counter(learning=1, strategy=3, war=3, glory=3)
    assert pack.victory_conditions["battlefield_dominance"].cubes == 4
    assert pack.victory_conditions["subjugation"].cap_per_turn == 3


def test_N_STR_0_structures(pack: ContentPack) -> None:
    by_civ = {c.id: list(c.structures) for c in pack.civilisations.values()}

    assert by_civ == {
        "velathi": ["underground_tunnel", "outpost"],
        "beasts": ["bone_tower", "warcry_totem", "rift_in_the_wall"],
        "humans": ["farm", "barricade", "stable", "war_council"],
        "naga": ["sacred_tree", "soul_prison", "reinforcement_post"],
    }
    assert [s.id for s in pack.structures.values() if s.start_unlocked] == ["farm"]
    assert pack.structures["outpost"].radiance and pack.structures["outpost"].copies == 2
    assert pack.structures["underground_tunnel"].copies == 3
    assert pack.structures["bone_tower"].combat is not None


def test_provisional_pack_matches_the_component_list(pack: ContentPack) -> None:
    """Rulebook p. 4: 121 combat tokens, 48 workers, 11 structure tiles, 27 structure tokens,
    29 initiative markers (one per unit type and the Bone Tower), 64 techs, 60 tactics."""
    combat_tokens = sum(u.tokens for u in pack.units.values() if u.role == "combat")
    workers = sum(u.tokens for u in pack.units.values() if u.role == "worker")
    tiles = [s for s in pack.structures.values() if not s.start_unlocked]
    fighting_structures = [s for s in pack.structures.values() if s.combat is not None]
    unlock_bonuses = Counter(
        t.civ for t in pack.techs.values() for b in t.bonuses if b.kind == "unlock_structure"
    )

    assert combat_tokens == 121
    assert workers == 48
    assert len(tiles) == 11
    assert sum(s.copies for s in pack.structures.values()) == 27
    assert len(pack.units) + len(fighting_structures) == 29
    for civ in CIVS:
        locked = [s for s in tiles if s.civ == civ]
        assert unlock_bonuses[civ] == len(locked), civ


def test_lookups_are_indexed_by_id(pack: ContentPack) -> None:
    assert pack.units["orc"].title_de == "Ork"
    assert pack.techs["velathi_05"].unit == "disciple"
    assert pack.tactics["fearless"].civ == "beasts"
    assert pack.biome_cards["desert_drought"].title_de == "Dürre"
    assert pack.victory_conditions["oath_of_asha"].category == "strategy"
    assert pack.structures["farm"].civ == "humans"
    assert pack.map_tiles["t1"].number == 1
    assert pack.maps["learning"].players == ("velathi", "beasts")
    assert pack.essences["water"].title == "Water"
    with pytest.raises(TypeError):
        pack.units["orc"] = pack.units["goblin"]  # type: ignore[index]


# --- Overlays -----------------------------------------------------------------------------


def test_overlay_replaces_values_by_id_and_changes_the_hash(
    tmp_path: Path, pack: ContentPack
) -> None:
    overlay = write_pack(
        tmp_path,
        {
            "printed/units.toml": """
                [[units]]
                id = "orc"
                provisional = false
                side_a = { health = 10, injury = { threshold = 6 } }
            """,
            "die.toml": "[die]\nprovisional = false\n",
        },
    )
    merged = load_pack(overlay)
    orc, base_orc = merged.units["orc"], pack.units["orc"]

    assert merged.pack_id == "nataterra-provisional+printed"
    assert merged.version == "0.1.0+1"
    assert merged.sha256 != pack.sha256
    assert orc.side_a.health == 10
    assert orc.side_a.injury is not None and base_orc.side_a.injury is not None
    assert orc.side_a.injury.threshold == 6
    assert orc.side_a.injury.fee == base_orc.side_a.injury.fee
    assert orc.side_a.attack == base_orc.side_a.attack
    assert orc.side_b == base_orc.side_b
    assert not orc.provisional
    assert merged.die.faces == pack.die.faces and not merged.die.provisional
    assert list(merged.units) == list(pack.units)
    assert merged.units["goblin"] == pack.units["goblin"]


def test_overlay_adds_new_entries_after_the_base_ones(tmp_path: Path, pack: ContentPack) -> None:
    overlay = write_pack(tmp_path, {"essences.toml": '[[essences]]\nid = "void"\ntitle = "Void"\n'})
    merged = load_pack(overlay)

    assert list(merged.essences)[-1] == "void"
    assert list(merged.essences)[:-1] == list(pack.essences)


def test_malformed_overlay_reports_every_problem_at_once(tmp_path: Path) -> None:
    """Wrong type, unknown reference, duplicate id and a binding contradiction: one error."""
    overlay = write_pack(
        tmp_path,
        {
            "units.toml": """
                [[units]]
                id = "goblin"
                movement = "fast"

                [[units]]
                id = "disciple"
                side_a = { armor = 1 }
            """,
            "cards/techs.toml": """
                [[techs]]
                id = "velathi_05"
                unit = "dragonn"
            """,
            "cards/tactics.toml": """
                [[tactics]]
                id = "fearless"
                title = "Fearless!"

                [[tactics]]
                id = "fearless"
                title = "Fearless again"
            """,
        },
    )
    problems = problems_of(overlay)

    assert has(
        problems, "overlay/units.toml", "$.units[0].movement", "expected integer, got string"
    )
    assert has(problems, "overlay/cards/techs.toml", "$.techs[0].unit", "unknown unit id 'dragonn'")
    assert has(problems, "overlay/cards/tactics.toml", "$.tactics[1].id", "duplicate id 'fearless'")
    assert has(problems, "overlay/units.toml", "$.units[1].side_a.armor", "N-COMBAT-15")
    assert len(problems) == 4, problems


def test_problem_in_an_inherited_value_names_the_base_file(tmp_path: Path) -> None:
    """Turning a unit tech into a resource tech: its options, still the base's, are misplaced."""
    overlay = write_pack(tmp_path, {"t.toml": '[[techs]]\nid = "velathi_05"\nkind = "resource"\n'})
    problems = problems_of(overlay)

    assert has(problems, "base/techs.toml", "$.techs[4].option_a", "not allowed on a resource tech")
    assert has(problems, "base/techs.toml", "$.techs[4].resource", "required for a resource tech")
    assert has(problems, "overlay/t.toml", "$.techs[0]", "N-COMP-3") is False
    assert has(problems, "base/civilisations.toml", "$.civilisations[0]", "N-COMP-3")


@pytest.mark.parametrize(
    ("files", "file", "path", "text"),
    [
        ({"x.toml": "[[units]\n"}, "overlay/x.toml", "$", "invalid TOML"),
        ({"x.toml": '[[goblins]]\nid = "g"\n'}, "overlay/x.toml", "$.goblins", "unknown table"),
        (
            {"x.toml": '[pack]\nid = "p"\nversion = "2"\n'},
            "overlay/x.toml",
            "$.pack",
            "root pack.toml",
        ),
        ({"x.toml": "[[units]]\nmovement = 3\n"}, "overlay/x.toml", "$.units[0].id", "string id"),
        (
            {"x.toml": '[[civilisations]]\nid = "naga"\nessences = "water"\n'},
            "overlay/x.toml",
            "$.civilisations[0].essences",
            "expected an array, got string",
        ),
        (
            {"x.toml": '[[units]]\nid = "orc"\ncost = 5\n'},
            "overlay/x.toml",
            "$.units[0].cost",
            "expected a table, got integer 5",
        ),
        (
            {"x.toml": '[[units]]\nid = "orc"\nclass = "siege"\n'},
            "overlay/x.toml",
            "$.units[0].class",
            "expected one of 'melee', 'ranged'",
        ),
        (
            {"x.toml": '[[units]]\nid = "orc"\ninitiative = 11\n'},
            "overlay/x.toml",
            "$.units[0].initiative",
            "N-COMBAT-6",
        ),
        (
            {"x.toml": '[[units]]\nid = "orc"\nside_a = { abilities = [{ id = "flyin" }] }\n'},
            "overlay/x.toml",
            "$.units[0].side_a.abilities[0].id",
            "expected one of",
        ),
        (
            {"x.toml": "[die]\nfaces = [{ value = -5, swords = 1 }]\n"},
            "overlay/x.toml",
            "$.die.faces",
            "N-COMP-5",
        ),
        (
            {"x.toml": '[[civilisations]]\nid = "beasts"\ncombat_board = { melee = 3 }\n'},
            "overlay/x.toml",
            "$.civilisations[0].combat_board",
            "N-COMP-3",
        ),
        (
            {
                "x.toml": '[[maps]]\nid = "learning"\n'
                'modifiers = [{ side = "lake", zone = "t1.z4" }]\n'
            },
            "overlay/x.toml",
            "$.maps[0].modifiers[0]",
            "N-SETUP-1",
        ),
        (
            {
                "x.toml": '[[maps]]\nid = "learning"\ntiles = [{ tile = "t1", at = [0, 0] }, '
                '{ tile = "t2", at = [1, 0] }]\n'
            },
            "overlay/x.toml",
            "$.maps[0].tiles",
            "overlap",
        ),
        (
            {"x.toml": '[[victory_conditions]]\nid = "subjugation"\ncap_per_turn = 2\n'},
            "overlay/x.toml",
            "$.victory_conditions[0].cap_per_turn",
            "N-WIN-3",
        ),
        (
            {"x.toml": '[[victory_conditions]]\nid = "colonisation"\nthresholds = [10]\n'},
            "overlay/x.toml",
            "$.victory_conditions[0].thresholds",
            "N-WIN-3",
        ),
        (
            {"x.toml": '[[victory_conditions]]\nid = "oath_of_asha"\ncost = 2\n'},
            "overlay/x.toml",
            "$.victory_conditions[0].cost",
            "N-WIN-3",
        ),
    ],
)
def test_overlay_problems_name_file_and_path(
    tmp_path: Path, files: dict[str, str], file: str, path: str, text: str
) -> None:
    problems = problems_of(write_pack(tmp_path, files))

    assert has(problems, file, path, text), problems


def test_overlay_needs_its_own_pack_id(tmp_path: Path) -> None:
    (tmp_path / "units.toml").write_text('[[units]]\nid = "orc"\nmovement = 2\n', encoding="utf-8")
    problems = problems_of(tmp_path)

    assert has(problems, "overlay/pack.toml", "$.pack", "[pack] table")


# --- Effective SHA-256 (docs/ARCHITECTURE.md §1) ------------------------------------------


def independent_sha256(layers: list[tuple[str, Path]]) -> str:
    """Recompute the formula of docs/ARCHITECTURE.md §1 from the directory tree, without the
    loader's helpers."""
    entries = []
    for prefix, root in layers:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            for filename in filenames:
                if filename.endswith(".toml") and not filename.startswith("."):
                    full = Path(dirpath) / filename
                    name = prefix + "/" + "/".join(full.relative_to(root).parts)
                    entries.append((name, full.read_bytes()))
    digest = hashlib.sha256()
    for name, data in sorted(entries, key=lambda e: e[0]):
        digest.update(name.encode() + b"\0" + data + b"\0")
    return digest.hexdigest()


def test_sha256_matches_an_independent_recomputation(tmp_path: Path, pack: ContentPack) -> None:
    overlay = write_pack(tmp_path, {"a/b.toml": '[[units]]\nid = "orc"\nmovement = 2\n'})

    assert pack.sha256 == independent_sha256([("base", PROVISIONAL_DIR)])
    assert pack.sha256 == effective_sha256(PROVISIONAL_DIR)
    assert load_pack(overlay).sha256 == independent_sha256(
        [("base", PROVISIONAL_DIR), ("overlay", overlay)]
    )


@pytest.mark.parametrize(
    ("toml", "rule", "file"),
    [
        ('[[units]]\nid = "dragon"\nhero = false\n', "N-COMP-1", "base/civilisations.toml"),
        ('[[units]]\nid = "hunter"\ntokens = 11\n', "N-SETUP-5", "overlay/x.toml"),
        ('[[units]]\nid = "goblin"\ngroup_size = 3\n', "N-COMBAT-4", "overlay/x.toml"),
        (
            '[[units]]\nid = "orc"\nside_b = { abilities = [{ id = "heal", tech = true }] }\n',
            "N-ABL-3",
            "overlay/x.toml",
        ),
        ('[[units]]\nid = "zealot"\nside_a = { abilities = [] }\n', "N-ABL-9", "overlay/x.toml"),
        ('[[units]]\nid = "disciple"\nside_a = { abilities = [] }\n', "N-MOV-4", "overlay/x.toml"),
        ('[[units]]\nid = "cave_golem"\nside_a = { armor = 3 }\n', "N-COMBAT-19", "overlay/x.toml"),
        (
            '[[units]]\nid = "cave_golem"\nside_b = { flexible_slot = false }\n',
            "N-FAQ-17",
            "overlay/x.toml",
        ),
        (
            '[[units]]\nid = "ditcher"\nside_b = { injury = { threshold = 5, fee = {} } }\n',
            "N-FAQ-21",
            "overlay/x.toml",
        ),
        (
            '[[techs]]\nid = "beasts_06"\noption_a = { bonuses = [] }\n',
            "N-FAQ-19",
            "overlay/x.toml",
        ),
        ('[[civilisations]]\nid = "velathi"\nability = "flare"\n', "N-CIV-2", "overlay/x.toml"),
        ('[[tactics]]\nid = "fearless"\nnumber = 16\n', "N-COMP-3", "base/civilisations.toml"),
        (
            '[[biome_cards]]\nid = "desert_drought"\nessences = ["water"]\n',
            "N-COMBAT-7",
            "overlay/x.toml",
        ),
        ('[[structures]]\nid = "outpost"\nradiance = false\n', "N-STR-3", "overlay/x.toml"),
        ('[[structures]]\nid = "underground_tunnel"\ncopies = 2\n', "N-STR-0", "overlay/x.toml"),
        ('[[structures]]\nid = "stable"\nstart_unlocked = true\n', "N-SETUP-6", "overlay/x.toml"),
        (
            '[[victory_conditions]]\nid = "battlefield_dominance"\ncubes = 7\n',
            "N-WIN-2",
            "overlay/x.toml",
        ),
        (
            '[[map_tiles]]\nid = "t5"\nzones = [{ key = "z1", at = [0, 0], biome = "lake" }]\n',
            "N-MAP-1",
            "overlay/x.toml",
        ),
        (
            '[[maps]]\nid = "three_players"\nplayers = ["velathi", "beasts", "humans", "naga"]\n',
            "N-SETUP-1",
            "overlay/x.toml",
        ),
    ],
)
def test_binding_facts_reject_contradicting_overlays(
    tmp_path: Path, toml: str, rule: str, file: str
) -> None:
    """Each binding check fires, named by its rule ID, in the file that holds the culprit (the
    civilisation entry when a count over several entries is off)."""
    problems = problems_of(write_pack(tmp_path, {"x.toml": toml}))

    assert any(p.file == file and p.message.startswith(f"{rule}: ") for p in problems), problems


def test_N_TAC_1_a_bad_tactic_option_names_file_and_key(tmp_path: Path) -> None:
    overlay = write_pack(
        tmp_path,
        {
            "tactics.toml": """
[[tactics]]
id = "fearless"
options = [
  { window = "development", effects = [
    { kind = "recruit", unit = "dragonn", target = "zone", zone_filter = "structure" },
    { kind = "grant_ability", ability = "flying", target = "active_group" },
    { kind = "extra_movement", amount = 1 },
  ] },
]
"""
        },
    )
    problems = problems_of(overlay)
    where = "$.tactics[0].options[0].effects"
    assert has(problems, "overlay/tactics.toml", f"{where}[0].unit", "unknown unit id 'dragonn'")
    assert has(problems, "overlay/tactics.toml", f"{where}[1].ability", "cannot grant 'flying'")
    assert has(problems, "overlay/tactics.toml", f"{where}[2].target", 'needs target = "zone"')
