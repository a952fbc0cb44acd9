"""Each game's rules for its players (issue 29 item 5): a how-to-play page per game, shipped
with its package (``Hooks.how_to_play``), printed by ``nataterra rules --game ID``, and its
worked example turn true of the game it quotes.

A page's worked example is the ``nataterra replay`` of a seeded ``nataterra demo``: the
comment ``<!-- worked example: demo ARGS -->`` names the game, and every ``text`` block after
it must appear in that replay as consecutive lines. When the rules, the bots or the words
change, this test says which line no longer holds: play the demo again and paste the turn.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from nataterra_adapters.cli import app
from nataterra_adapters.cli.rules import NO_PAGE
from typer.testing import CliRunner

from nataterra_core.kernel.registry import RuleSystem, system, systems

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
WITH_PAGES = ("nataterra", "nataterra-combat-sandbox", "kaladan", "battlelore", "liars-dice")
PAGE_FILES = {"nataterra-combat-sandbox": "nataterra/how_to_play_sandbox.md"}
"""A page that is not its package's ``how_to_play.md`` (the sandbox shares Nataterra's package)."""
RULES_TEXTS = {"nataterra-combat-sandbox": "nataterra"}
"""A game whose clauses are another's rules text (the sandbox fights Nataterra's combat)."""
EXAMPLE = re.compile(
    r"<!-- worked example: demo (?P<args>[^>]*?) -->(?P<rest>.*?)(?=^## |\Z)", re.S | re.M
)
TEXT_BLOCK = re.compile(r"^```text\n(.*?)^```", re.S | re.M)


def _page(record: RuleSystem) -> str:
    assert record.hooks.how_to_play is not None, record.id
    return record.hooks.how_to_play()


@pytest.mark.parametrize("game", WITH_PAGES)
def test_each_game_has_a_page_with_a_turn_a_goal_and_an_example(game: str) -> None:
    page = _page(system(game))
    headings = re.findall(r"^## (.+)$", page, flags=re.M)
    assert page.startswith(f"# How to play {system(game).title}\n")
    assert any("turn" in h.lower() for h in headings), headings
    assert any(w in h.lower() for h in headings for w in ("win", "scor")), headings
    assert "A worked example turn" in headings
    rules = f"docs/rules/{RULES_TEXTS.get(game, game).replace('-', '_')}.md"
    assert rules in page  # where the clause-level rules are
    assert (ROOT / rules).is_file()


def test_the_pages_ship_as_package_data() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"games/*/how_to_play*.md"' in pyproject
    for game in WITH_PAGES:
        page = PAGE_FILES.get(game, f"{game.replace('-', '_')}/how_to_play.md")
        assert (ROOT / "nataterra_core/games" / page).is_file()


def worked_examples(page: str) -> list[tuple[list[str], list[list[str]]]]:
    """Each worked example of a page: the demo's arguments and its ``text`` blocks' lines.

    >>> page = "<!-- worked example: demo --seed 5 -->\\n```text\\n 1 a\\n```\\n## Next\\n"
    >>> worked_examples(page)
    [(['--seed', '5'], [[' 1 a']])]
    """
    return [
        (
            shlex.split(match["args"]),
            [block.rstrip("\n").split("\n") for block in TEXT_BLOCK.findall(match["rest"])],
        )
        for match in EXAMPLE.finditer(page)
    ]


def _contains_run(lines: list[str], run: list[str]) -> bool:
    wanted = [line.rstrip() for line in run]
    return any(lines[i : i + len(wanted)] == wanted for i in range(len(lines)))


@pytest.mark.parametrize("game", WITH_PAGES)
def test_the_worked_example_is_what_the_game_replays(game: str, tmp_path: Path) -> None:
    examples = worked_examples(_page(system(game)))
    assert examples, f"{game}'s page has no worked example"
    for args, blocks in examples:
        log = tmp_path / "example.jsonl"
        demo = runner.invoke(app, ["demo", *args, "--out", str(log), "--force"])
        assert demo.exit_code == 0, demo.output
        replay = runner.invoke(app, ["replay", str(log)])
        assert replay.exit_code == 0, replay.output
        lines = [line.rstrip() for line in replay.output.splitlines()]
        assert blocks
        for block in blocks:
            assert _contains_run(lines, block), (
                f"{game}: `nataterra demo {shlex.join(args)}` no longer replays as the page "
                f"says; its block starting {block[0].strip()!r} must be pasted anew"
            )


@pytest.mark.parametrize("game", WITH_PAGES)
def test_nataterra_rules_prints_the_page(game: str) -> None:
    plain = runner.invoke(app, ["rules", "--game", game, "--plain"])
    assert plain.exit_code == 0, plain.output
    assert plain.output == _page(system(game))
    rendered = runner.invoke(app, ["rules", "--game", game])
    assert rendered.exit_code == 0, rendered.output
    assert f"How to play {system(game).title}" in rendered.output
    assert "# How to play" not in rendered.output  # Markdown rendered, not printed
    assert "worked example:" not in rendered.output  # the test's comment stays hidden


def test_rules_without_a_page_or_with_an_unknown_game() -> None:
    without = [r.id for r in systems() if r.hooks.how_to_play is None]
    for game in without:
        result = runner.invoke(app, ["rules", "--game", game])
        assert result.exit_code == NO_PAGE
        assert "has no how-to-play page" in result.output
    unknown = runner.invoke(app, ["rules", "--game", "no-such-game"])
    assert unknown.exit_code == 2 and "no-such-game" in unknown.output
