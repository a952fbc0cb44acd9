"""The game-neutral pack loader (nataterra_core.packs) on a tiny made-up schema.

The schema has two collections (``fruits``, ``baskets``) and one singleton (``orchard``), plus a
game check that every basket holds known fruits, so each behaviour is tested without Nataterra.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Literal

import attrs
import pytest

from nataterra_core.kernel.errors import ContentError, ContentProblem
from nataterra_core.packs import PackContents, PackSchema, effective_sha256, load, pack_files


@attrs.frozen
class Info:
    id: str
    version: str


@attrs.frozen
class Taste:
    sweet: int
    sour: int = 0


@attrs.frozen
class Fruit:
    id: str
    weight: int
    colour: Literal["red", "green"]
    taste: Taste = Taste(sweet=0)
    class_: str = "plain"


@attrs.frozen
class Basket:
    id: str
    fruits: tuple[str, ...]


@attrs.frozen
class Orchard:
    name: str
    rows: int


@attrs.frozen
class Harvest:
    info: Info | None
    overlay: Info | None
    sha256: str
    orchard: Orchard | None
    fruits: Mapping[str, Fruit]
    baskets: Mapping[str, Basket]


def build(contents: PackContents) -> Harvest:
    return Harvest(
        contents.base_info,
        contents.overlay_info,
        contents.sha256,
        contents.singletons["orchard"],
        contents.collections["fruits"],
        contents.collections["baskets"],
    )


def check(harvest: Harvest, contents: PackContents) -> Iterable[ContentProblem]:
    for basket in harvest.baskets.values():
        for index, fruit in enumerate(basket.fruits):
            if fruit not in contents.raw_ids["fruits"]:
                file, path = contents.locator.entry("baskets", basket.id, "fruits", index)
                yield ContentProblem(file, path, f"unknown fruit {fruit!r}")


SCHEMA = PackSchema(
    info=Info,
    singletons={"orchard": Orchard},
    collections={"fruits": Fruit, "baskets": Basket},
    build=build,
    check=check,
    required=frozenset({"orchard"}),
)

BASE = {
    "pack.toml": '[pack]\nid = "base"\nversion = "1"\n\n[orchard]\nname = "Hill"\nrows = 4\n',
    "fruit/red.toml": (
        '[[fruits]]\nid = "apple"\nweight = 150\ncolour = "red"\n'
        "taste = { sweet = 3, sour = 1 }\n\n"
        '[[fruits]]\nid = "cherry"\nweight = 5\ncolour = "red"\n'
    ),
    "baskets.toml": '[[baskets]]\nid = "small"\nfruits = ["apple", "cherry"]\n',
}


def write(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture
def base(tmp_path: Path) -> Path:
    return write(tmp_path / "base", BASE)


def overlay(tmp_path: Path, files: Mapping[str, str]) -> Path:
    return write(
        tmp_path / "overlay", {"pack.toml": '[pack]\nid = "mine"\nversion = "2"\n', **files}
    )


def problems(base: Path, over: Path | None) -> list[tuple[str, str, str]]:
    with pytest.raises(ContentError) as caught:
        load(SCHEMA, base, over)
    return [(p.file, p.path, p.message) for p in caught.value.problems]


def test_base_pack_loads_in_pack_order(base: Path) -> None:
    harvest = load(SCHEMA, base)
    assert harvest.info == Info("base", "1")
    assert harvest.overlay is None
    assert harvest.orchard == Orchard("Hill", 4)
    assert list(harvest.fruits) == ["apple", "cherry"]
    assert harvest.fruits["apple"].taste == Taste(sweet=3, sour=1)
    assert harvest.baskets["small"].fruits == ("apple", "cherry")


def test_overlay_merges_tables_key_by_key_and_replaces_other_values(
    tmp_path: Path, base: Path
) -> None:
    over = overlay(
        tmp_path,
        {
            "x.toml": (
                '[[fruits]]\nid = "apple"\ntaste = { sour = 4 }\n\n'
                '[[baskets]]\nid = "small"\nfruits = ["cherry"]\n\n'
                "[orchard]\nrows = 9\n"
            )
        },
    )
    harvest = load(SCHEMA, base, over)
    apple = harvest.fruits["apple"]
    assert apple.taste == Taste(sweet=3, sour=4)  # the table merged: sweet kept from the base
    assert (apple.weight, apple.colour) == (150, "red")
    assert harvest.baskets["small"].fruits == ("cherry",)  # an array replaces whole
    assert harvest.orchard == Orchard("Hill", 9)
    assert harvest.overlay == Info("mine", "2")
    assert harvest.info == Info("base", "1")


def test_overlay_adds_a_new_id_after_the_base_entries(tmp_path: Path, base: Path) -> None:
    over = overlay(tmp_path, {"f.toml": '[[fruits]]\nid = "lime"\nweight = 60\ncolour = "green"\n'})
    harvest = load(SCHEMA, base, over)
    assert list(harvest.fruits) == ["apple", "cherry", "lime"]
    assert harvest.fruits["lime"] == Fruit("lime", 60, "green")


def test_problem_names_the_file_and_key_that_supplied_the_value(tmp_path: Path, base: Path) -> None:
    over = overlay(tmp_path, {"sub/f.toml": '[[fruits]]\nid = "apple"\ntaste = { sweet = "a" }\n'})
    assert problems(base, over) == [
        ("overlay/sub/f.toml", "$.fruits[0].taste.sweet", "expected integer, got string 'a'")
    ]


def test_problem_in_an_inherited_value_names_the_base_file(tmp_path: Path) -> None:
    broken = write(
        tmp_path / "base", {**BASE, "baskets.toml": '[[baskets]]\nid = "b"\nfruits = 3\n'}
    )
    over = overlay(tmp_path, {"b.toml": '[[baskets]]\nid = "b"\n'})
    assert problems(broken, over) == [
        ("base/baskets.toml", "$.baskets[0].fruits", "expected an array, got integer 3")
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("3.0", "expected integer, got float 3.0"),
        ('"3"', "expected integer, got string '3'"),
        ("true", "expected integer, got boolean True"),
    ],
)
def test_types_are_strict(tmp_path: Path, base: Path, value: str, message: str) -> None:
    over = overlay(tmp_path, {"f.toml": f'[[fruits]]\nid = "cherry"\nweight = {value}\n'})
    assert problems(base, over) == [("overlay/f.toml", "$.fruits[0].weight", message)]


def test_keyword_attribute_is_written_without_its_underscore(tmp_path: Path, base: Path) -> None:
    over = overlay(tmp_path, {"f.toml": '[[fruits]]\nid = "cherry"\nclass = 1\n'})
    assert problems(base, over) == [
        ("overlay/f.toml", "$.fruits[0].class", "expected string, got integer 1")
    ]
    fine = overlay(tmp_path, {"f.toml": '[[fruits]]\nid = "cherry"\nclass = "stone"\n'})
    assert load(SCHEMA, base, fine).fruits["cherry"].class_ == "stone"


def test_duplicate_ids_are_reported_with_the_first_place(tmp_path: Path, base: Path) -> None:
    over = overlay(
        tmp_path,
        {
            "a.toml": '[[fruits]]\nid = "lime"\nweight = 60\ncolour = "green"\n',
            "b.toml": '[[fruits]]\nid = "lime"\nweight = 61\ncolour = "green"\n',
        },
    )
    assert problems(base, over) == [
        (
            "overlay/b.toml",
            "$.fruits[0].id",
            "duplicate id 'lime' (first at overlay/a.toml $.fruits[0])",
        )
    ]


def test_every_problem_is_collected_at_once(tmp_path: Path, base: Path) -> None:
    over = write(
        tmp_path / "overlay",
        {
            "x.toml": (
                '[[fruits]]\nid = "kiwi"\nweight = 1\ncolour = "brown"\nseeds = 2\n\n'
                '[[baskets]]\nid = "big"\nfruits = ["kiwi", "plum"]\n\n'
                '[[trees]]\nid = "oak"\n\n[orchard]\nname = 7\n'
            ),
            "bad.toml": "x = = 1\n",
        },
    )
    found = problems(base, over)
    assert ("overlay/pack.toml", "$.pack", "required [pack] table (id, version) missing") in found
    assert (
        "overlay/x.toml",
        "$.trees",
        "unknown table 'trees'; expected one of: pack, orchard, fruits, baskets",
    ) in found
    assert ("overlay/x.toml", "$.orchard.name", "expected string, got integer 7") in found
    assert ("overlay/x.toml", "$.fruits[0]", "unknown key(s): seeds") in found
    assert (
        "overlay/x.toml",
        "$.fruits[0].colour",
        "expected one of 'red', 'green', got 'brown'",
    ) in found
    # The game's check runs too: the invalid kiwi was written, so only plum is unknown.
    assert ("overlay/x.toml", "$.baskets[0].fruits[1]", "unknown fruit 'plum'") in found
    assert not any("'kiwi'" in message for _, _, message in found)
    assert any(file == "overlay/bad.toml" and "invalid TOML" in msg for file, _, msg in found)


def test_a_required_singleton_must_be_present(tmp_path: Path) -> None:
    bare = write(tmp_path / "base", {"pack.toml": '[pack]\nid = "b"\nversion = "1"\n'})
    assert problems(bare, None) == [
        ("base/pack.toml", "$.orchard", "the pack has no [orchard] table")
    ]


def test_a_singleton_appears_once_per_pack(tmp_path: Path, base: Path) -> None:
    over = overlay(tmp_path, {"a.toml": "[orchard]\nrows = 1\n", "b.toml": "[orchard]\nrows = 2\n"})
    assert problems(base, over) == [
        (
            "overlay/b.toml",
            "$.orchard",
            "second [orchard] table (first at overlay/a.toml $.orchard)",
        )
    ]


def independent_sha256(base: Path, over: Path | None) -> str:
    """docs/ARCHITECTURE.md §1 recomputed from the directory tree without the loader."""
    named = [(f"base/{p.relative_to(base).as_posix()}", p) for p in base.rglob("*.toml")]
    if over is not None:
        named += [(f"overlay/{p.relative_to(over).as_posix()}", p) for p in over.rglob("*.toml")]
    digest = hashlib.sha256()
    for name, path in sorted(named):
        digest.update(name.encode() + b"\x00" + path.read_bytes() + b"\x00")
    return digest.hexdigest()


def test_effective_hash_is_stable_and_changed_by_an_overlay(tmp_path: Path, base: Path) -> None:
    alone = load(SCHEMA, base).sha256
    assert alone == effective_sha256(base) == independent_sha256(base, None)
    assert load(SCHEMA, base).sha256 == alone
    over = overlay(tmp_path, {"f.toml": '[[fruits]]\nid = "cherry"\nweight = 6\n'})
    merged = load(SCHEMA, base, over).sha256
    assert merged == effective_sha256(base, over) == independent_sha256(base, over)
    assert merged != alone
    (over / "f.toml").write_text('[[fruits]]\nid = "cherry"\nweight = 7\n', encoding="utf-8")
    assert load(SCHEMA, base, over).sha256 not in {alone, merged}


def test_hidden_files_are_not_pack_files(tmp_path: Path, base: Path) -> None:
    write(base, {".git/x.toml": "not toml at all = =", "notes.txt": "ignored"})
    assert [rel for rel, _ in pack_files(base)] == ["baskets.toml", "fruit/red.toml", "pack.toml"]
    assert load(SCHEMA, base).sha256 == effective_sha256(base)


def test_schema_rejects_clashing_table_names() -> None:
    with pytest.raises(ValueError, match="distinct"):
        PackSchema(
            info=Info, singletons={"fruits": Orchard}, collections={"fruits": Fruit}, build=build
        )
    with pytest.raises(ValueError, match="singletons"):
        PackSchema(
            info=Info,
            singletons={},
            collections={"fruits": Fruit},
            build=build,
            required=frozenset({"x"}),
        )
