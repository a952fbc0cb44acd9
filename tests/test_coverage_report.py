"""The rules-coverage report (``nataterra_core.tools.coverage``, Nataterra's description in
``nataterra_core.games.nataterra.coverage``, ``nataterra coverage``).

Small synthetic rules texts and test directories pin the matching rules and the statuses;
one test runs the report on this repository and prints what still lacks a test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from nataterra_adapters.cli import app
from typer.testing import CliRunner

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.games.nataterra.coverage import (
    KINDS,
    CoverageError,
    CoverageReport,
    Item,
    coverage_report,
    parse_rules,
    rule_ids_in_name,
)
from nataterra_core.tools.coverage import CoverageSpec
from nataterra_core.tools.coverage import coverage_report as kernel_report

ROOT = Path(__file__).resolve().parents[1]
REAL_RULES = ROOT.parent / "shared" / "rules" / "nataterra.md"

RULES = """\
# Rules

## 1. Things

* N-X-1 Covered by a test's name.
* N-X-11 A different rule from N-X-1: covered only
  by a test's text.
* N-X-2 Owned by an issue not yet landed.
* N-X-3 (later scope: not in any issue) Deferred.
"""

TEST_RULES = '''\
def test_N_X_1_by_name():
    assert True


def test_mentions_in_its_text():
    """Checks N-X-11 (not N-X-111, not N-X-11b)."""
'''


def cards_source(pack: ContentPack) -> str:
    """A test file naming two biome cards through a constant and one tactic card in a method.

    Built from the pack, so that this file names no real content id (it is under ``tests/``
    and would cover them itself).
    """
    first, second = list(pack.biome_cards)[:2]
    tactic = next(iter(pack.tactics))
    return (
        "import pytest\n\n"
        f"BIOMES = [{first!r}, {second!r}]\n"
        "COVERS_ALL_STRUCTURES = True\n\n\n"
        '@pytest.mark.parametrize("card", BIOMES)\n'
        "def test_biome_cards(card):\n"
        "    assert card\n\n\n"
        "class TestTactics:\n"
        "    def test_one_tactic(self):\n"
        f"        hand = [{tactic!r}]\n"
        "        assert hand\n"
    )


@pytest.fixture(scope="module")
def pack() -> ContentPack:
    return load_pack()


def make_repo(tmp_path: Path, pending: str = "", **files: str) -> tuple[Path, Path]:
    """A rules file and a tests directory with ``files`` (name -> source) and a pending list."""
    rules = tmp_path / "rules.md"
    rules.write_text(RULES)
    tests = tmp_path / "tests"
    (tests / "sub").mkdir(parents=True)
    for name, source in files.items():
        (tests / "sub" / f"{name}.py").write_text(source)
    (tests / "coverage_pending.toml").write_text(pending)
    return rules, tests


def item(report: CoverageReport, kind: str, item_id: str) -> Item:
    (found,) = (i for i in report.items if i.kind == kind and i.id == item_id)
    return found


PENDING_X2 = 'pending = [{id = "N-X-2", issue = 7, reason = "advanced play"}]\n'


def test_parse_rules_finds_definitions_continuations_and_later_scope() -> None:
    clauses = parse_rules(RULES + "\n## 2. Later (later scope)\n\n* N-Y-1a Whole section.\n")

    assert [c.id for c in clauses] == ["N-X-1", "N-X-11", "N-X-2", "N-X-3", "N-Y-1a"]
    assert clauses[1].text.endswith("covered only by a test's text.")
    assert [c.later_scope for c in clauses] == [False, False, False, True, True]


def test_rule_statuses_covered_deferred_pending_missing(tmp_path: Path, pack: ContentPack) -> None:
    rules, tests = make_repo(tmp_path, PENDING_X2, test_rules=TEST_RULES)
    report = coverage_report(rules, tests, pack)

    statuses = {i.id: i.status for i in report.items if i.kind == "rule"}
    assert statuses == {
        "N-X-1": "covered",
        "N-X-11": "covered",
        "N-X-2": "pending",
        "N-X-3": "deferred",
    }
    by_name = item(report, "rule", "N-X-1").tests
    assert [(e.file, e.line, e.test, e.how) for e in by_name] == [
        ("tests/sub/test_rules.py", 1, "test_N_X_1_by_name", "name")
    ]
    assert [(e.test, e.how) for e in item(report, "rule", "N-X-11").tests] == [
        ("test_mentions_in_its_text", "text")
    ]
    assert item(report, "rule", "N-X-2").issue == 7
    assert not report.problems


def test_a_rule_without_a_test_is_missing_and_fails(tmp_path: Path, pack: ContentPack) -> None:
    rules, tests = make_repo(tmp_path, test_rules=TEST_RULES)
    report = coverage_report(rules, tests, pack)

    assert item(report, "rule", "N-X-2").status == "missing"
    assert not report.ok


def test_name_matches_are_listed_before_text_matches(tmp_path: Path, pack: ContentPack) -> None:
    text_first = 'def test_a():\n    """N-X-1."""\n\n\ndef test_N_X_2_N_X_1_both():\n    pass\n'
    rules, tests = make_repo(tmp_path, test_rules=text_first)
    report = coverage_report(rules, tests, pack)

    assert [(e.test, e.how) for e in item(report, "rule", "N-X-1").tests] == [
        ("test_N_X_2_N_X_1_both", "name"),
        ("test_a", "text"),
    ]
    assert item(report, "rule", "N-X-2").status == "covered"


def test_cards_by_string_constant_and_marker(tmp_path: Path, pack: ContentPack) -> None:
    rules, tests = make_repo(tmp_path, test_cards=cards_source(pack))
    report = coverage_report(rules, tests, pack)

    biomes = list(pack.biome_cards)
    named = item(report, "biome_card", biomes[0])
    assert [(e.test, e.how) for e in named.tests] == [("test_biome_cards", "string")]
    assert item(report, "biome_card", biomes[1]).status == "covered"
    assert item(report, "biome_card", biomes[2]).status == "missing"
    tactic = item(report, "tactic_card", next(iter(pack.tactics)))
    assert [e.test for e in tactic.tests] == ["TestTactics::test_one_tactic"]
    assert report.counts("structure") == {
        "covered": len(pack.structures),
        "deferred": 0,
        "pending": 0,
        "missing": 0,
    }
    structure = item(report, "structure", list(pack.structures)[-1])
    assert [(e.test, e.how) for e in structure.tests] == [("COVERS_ALL_STRUCTURES", "marker")]
    assert report.counts("victory_condition")["missing"] == len(pack.victory_conditions)


def test_unknown_marker_is_a_problem(tmp_path: Path, pack: ContentPack) -> None:
    rules, tests = make_repo(tmp_path, test_cards="COVERS_ALL_BIOME_CARD = True\n")
    report = coverage_report(rules, tests, pack)

    assert any("unknown marker COVERS_ALL_BIOME_CARD" in p for p in report.problems)
    assert report.counts("biome_card")["covered"] == 0


def test_pending_list_may_only_shrink(tmp_path: Path, pack: ContentPack) -> None:
    pending = (
        "pending = [\n"
        '  {id = "N-X-1", issue = 7, reason = "has a test now"},\n'
        '  {id = "N-X-2", issue = 7, reason = "still pending"},\n'
        '  {id = "N-Z-*", issue = 8, reason = "matches nothing"},\n'
        '  {kind = "tactic_card", id = "*", issue = 6, reason = "tactic cards"},\n'
        "]\n"
    )
    rules, tests = make_repo(
        tmp_path, pending, test_rules=TEST_RULES, test_cards=cards_source(pack)
    )
    report = coverage_report(rules, tests, pack)
    first, second = list(pack.tactics)[:2]

    assert item(report, "rule", "N-X-1").status == "covered"
    assert item(report, "rule", "N-X-2").status == "pending"
    assert item(report, "tactic_card", second).status == "pending"
    assert report.problems == (
        "rule N-X-1 is pending (issue 7) but has a test now "
        "(tests/sub/test_rules.py::test_N_X_1_by_name): remove it from the pending list",
        f"tactic_card {first} is pending (issue 6) but has a test now "
        "(tests/sub/test_cards.py::TestTactics::test_one_tactic): remove it from the pending "
        "list (narrow the pattern '*')",
        "pending entry rule 'N-Z-*' (issue 8) matches no item: remove it",
    )
    assert not report.ok


def test_a_deferred_rule_needs_no_pending_entry(tmp_path: Path, pack: ContentPack) -> None:
    pending = 'pending = [{id = "N-X-3", issue = 9, reason = "later"}]\n'
    rules, tests = make_repo(tmp_path, pending)
    report = coverage_report(rules, tests, pack)

    assert item(report, "rule", "N-X-3").status == "deferred"
    assert report.problems == ("rule N-X-3 is later scope (deferred): remove its pending entry",)


@pytest.mark.parametrize(
    "pending",
    [
        "pending = [{id = 1, issue = 7, reason = 'x'}]\n",
        "pending = [{id = 'N-X-1', issue = 7}]\n",
        "pending = [{id = 'N-X-1', issue = 7, reason = 'x', kind = 'card'}]\n",
        "pending = [\n",
    ],
)
def test_malformed_pending_list_is_an_error(
    tmp_path: Path, pack: ContentPack, pending: str
) -> None:
    rules, tests = make_repo(tmp_path, pending)
    with pytest.raises(CoverageError, match=r"coverage_pending\.toml"):
        coverage_report(rules, tests, pack)


def test_command_prints_table_and_summary_and_exits_by_the_result(tmp_path: Path) -> None:
    runner = CliRunner()
    rules, tests = make_repo(
        tmp_path, PENDING_X2, test_rules=TEST_RULES, test_cards="COVERS_ALL_BIOME_CARDS = True\n"
    )
    args = ["coverage", "--rules", str(rules), "--tests", str(tests)]

    text = runner.invoke(app, [*args, "--show", "missing"])
    assert text.exit_code == 1  # the pack's tactic cards and more have no test here
    last = text.output.strip().splitlines()[-1]
    assert last.startswith("covered=") and "deferred=1 pending=1 missing=" in last

    result = runner.invoke(app, [*args, "--json", "--show", "covered"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert {i["id"] for i in report["items"] if i["kind"] == "rule"} == {"N-X-1", "N-X-11"}
    assert report["kinds"]["biome_card"]["covered"] == 47
    assert report["ok"] is False

    broken = runner.invoke(app, ["coverage", "--rules", str(tmp_path / "none.md")])
    assert broken.exit_code == 1
    assert "cannot make the coverage report" in broken.output


def test_real_report_lists_every_missing_item_with_its_kind(pack: ContentPack) -> None:
    if not REAL_RULES.exists():
        pytest.skip(f"{REAL_RULES} is not beside the project")
    report = coverage_report(REAL_RULES, ROOT / "tests", pack)

    print(report.summary())
    for problem in report.problems:
        print("problem:", problem)
    for missing in report.missing():
        print(f"missing {missing.kind} {missing.id}")
    rules = [i for i in report.items if i.kind == "rule"]
    assert len(rules) == len(parse_rules(REAL_RULES.read_text())) > 100
    assert len(report.items) == len(rules) + sum(
        len(c)
        for c in (
            pack.tactics,
            pack.biome_cards,
            pack.techs,
            pack.structures,
            pack.victory_conditions,
        )
    )
    # (No real ID or content id is written in this file: it would count as a test of it.)
    later = {c.id for c in parse_rules(REAL_RULES.read_text()) if c.later_scope}
    assert later and {i.id for i in report.items if i.status == "deferred"} <= later
    assert report.counts("rule")["covered"] > len(rules) // 2
    assert report.counts("biome_card")["covered"] == len(pack.biome_cards)
    assert report.counts("structure")["covered"] == len(pack.structures)
    assert all(i.kind in KINDS and i.id and not i.tests for i in report.missing())
    assert sum(report.counts().values()) == len(report.items)


def test_any_system_describes_its_coverage_with_its_own_prefix_kinds_and_markers(
    tmp_path: Path,
) -> None:
    """The kernel's report is game-neutral: another prefix, other kinds, other markers; the
    pending entries and markers of other registered systems are theirs, not problems here."""
    rules = tmp_path / "zeta.md"
    rules.write_text("# Zeta\n\n* Z-A-1 First.\n* Z-A-2 Second.\n* Z-B-1 Later scope.\n")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_zeta.py").write_text(
        "COVERS_ALL_GADGETS = True\nCOVERS_ALL_TACTIC_CARDS = True\n\n\n"
        "def test_Z_A_1_first():\n    assert 'w1'\n"
    )
    (tests / "coverage_pending.toml").write_text(
        "pending = [{id = 'Z-A-2', issue = 9, reason = 'later'},"
        " {id = 'N-NOT-1', issue = 1, reason = 'not ours'}]\n"
    )
    spec = CoverageSpec(
        rules="zeta.md",
        prefix="Z",
        items={"widget": ("w1", "w2"), "gadget": ("g1",)},
        markers={"COVERS_ALL_GADGETS": "gadget"},
    )
    report = kernel_report(spec, rules, tests)
    status = {(i.kind, i.id): i.status for i in report.items}
    assert status == {
        ("rule", "Z-A-1"): "covered",
        ("rule", "Z-A-2"): "pending",
        ("rule", "Z-B-1"): "deferred",
        ("widget", "w1"): "covered",
        ("widget", "w2"): "missing",
        ("gadget", "g1"): "covered",
    }
    assert report.kinds == ("rule", "widget", "gadget")
    assert report.problems == ()  # Nataterra's marker and pending entry are not Zeta's


def test_command_covers_every_system_or_the_one_named(tmp_path: Path) -> None:
    runner = CliRunner()
    rules = tmp_path / "kaladan.md"
    rules.write_text("# Kaladan\n\n* K-Q-1 Only clause.\n")
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "test_q.py").write_text(
        "COVERS_ALL_EVENT_CARDS = True\nCOVERS_ALL_MAGIC_CARDS = True\n\n\n"
        "def test_K_Q_1():\n    pass\n"
    )
    args = ["coverage", "--game", "kaladan", "--rules", str(rules), "--tests", str(tests)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1].startswith("covered=")
    every = runner.invoke(app, ["coverage", "--rules-dir", str(tmp_path), "--tests", str(tests)])
    assert every.exit_code == 1  # no nataterra.md there: every system is reported, or fails
    unknown = runner.invoke(app, ["coverage", "--game", "no-such-game"])
    assert unknown.exit_code == 2


def test_a_project_document_restates_a_later_scope_rule_and_adds_its_own(
    tmp_path: Path, pack: ContentPack
) -> None:
    """``docs/SCENARIOS.md`` takes N-SCN-1 into scope and adds N-SCN-<scenario>-<n> IDs."""
    rules, tests = make_repo(
        tmp_path,
        PENDING_X2,
        test_rules=TEST_RULES + "\n\ndef test_N_X_3_and_N_SCN_FERGUS_2_named():\n    pass\n",
    )
    extra = tmp_path / "SCENARIOS.md"
    extra.write_text("* N-X-3 Restated, in scope now.\n* N-SCN-FERGUS-2 Five on the crown.\n")
    report = coverage_report(rules, tests, pack, documents=(str(extra),))
    statuses = {i.id: i.status for i in report.items if i.kind == "rule"}
    assert statuses["N-X-3"] == "covered" and statuses["N-SCN-FERGUS-2"] == "covered"
    assert rule_ids_in_name("test_N_SCN_GEN_4_N_WIN_2_x") == ("N-SCN-GEN-4", "N-WIN-2")
    assert not report.problems
