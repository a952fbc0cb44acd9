"""``docs/GAME_GUIDE.md`` runs as written (issue 29 item 1): every code block, in order, in a
temporary copy of the repository.

A block whose first line names a file (``# nataterra_core/games/mini_liars/state.py``, ``<!--
.../how_to_play.md -->``) is written there (``(append)``: appended); every other Python block
runs as a script; every ``$`` line of a ``console`` block runs (``nataterra`` is the CLI of the
copy, ``python`` this interpreter) and must succeed, printing each line shown under it (spaces
around a line aside: rich pads what it renders); the ``toml`` block is the entry point a game
in its own distribution declares, the one ``nataterra new-game`` writes. A block of any other
language fails the test, so nothing in the guide goes unexecuted. The copy is the library's
packages, tests and ``pyproject.toml``: the guide's commands run there exactly as an author
runs them in a checkout.
"""

from __future__ import annotations

import re
import shlex
import sys
import tomllib
from pathlib import Path

import attrs
import pytest
from nataterra_adapters.cli.scaffold import GameFiles
from nataterra_adapters.cli.scaffold_files import PYPROJECT
from repo_copy import ROOT, nataterra, repository_copy, run

from nataterra_core.kernel.registry import Hooks

GUIDE = ROOT / "docs" / "GAME_GUIDE.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
FILE_HEADER = re.compile(r"^(?:# |<!-- )(\S+\.\w+)( \(append\))?(?: -->)?$")
REQUIRED_ROOMS = ("__init__", "messages", "state", "decider", "views", "presenter", "system")
STATED_LINES = 450
"""The example's required files, in lines, as the guide states it (give or take 10 %)."""


def guide_blocks() -> list[tuple[str, str]]:
    """Each fenced block of the guide: its language and its text."""
    return [(match[1], match[2]) for match in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))]


def console_steps(text: str) -> list[tuple[list[str], list[str]]]:
    """Each ``$`` command of a console block with the output lines shown under it."""
    steps: list[tuple[list[str], list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            steps.append((shlex.split(line[2:]), []))
        elif line.strip():
            assert steps, f"output before any command: {line!r}"
            steps[-1][1].append(line.rstrip())
    return steps


def argv_of(words: list[str]) -> list[str]:
    if words[0] == "nataterra":
        return nataterra(*words[1:])
    assert words[0] == "python", f"the guide runs nataterra or python only, not {words[0]}"
    return [sys.executable, *words[1:]]


def run_block(root: Path, language: str, text: str) -> None:
    first, _, rest = text.partition("\n")
    header = FILE_HEADER.match(first)
    if header is not None and language in ("python", "markdown"):
        path = root / header[1]
        path.parent.mkdir(parents=True, exist_ok=True)
        body = text if language == "python" else rest
        with path.open("a" if header[2] else "w", encoding="utf-8") as out:
            out.write(("\n" + body) if header[2] else body)
    elif language == "python":
        run(root, [sys.executable, "-c", text])
    elif language == "console":
        for words, shown in console_steps(text):
            output = [line.strip() for line in run(root, argv_of(words)).splitlines()]
            missing = [line for line in shown if line.strip() not in output]
            assert not missing, f"$ {shlex.join(words)} did not print {missing}:\n{output}"
    elif language == "toml":
        # the entry point new-game writes into the pyproject.toml of a game outside the library
        scaffold = tomllib.loads(GameFiles("mini-liars", "mini_liars").substitute(PYPROJECT))
        guide = tomllib.loads(text)
        assert guide["project"]["entry-points"] == scaffold["project"]["entry-points"]
    else:
        raise AssertionError(f"a {language} block the test does not run:\n{text}")


def test_the_guide_has_the_blocks_this_test_runs() -> None:
    languages = {language for language, _ in guide_blocks()}
    assert languages == {"python", "console", "markdown", "toml"}
    files = [FILE_HEADER.match(text.partition("\n")[0]) for _, text in guide_blocks()]
    written = {match[1] for match in files if match is not None}
    assert "nataterra_core/games/mini_liars/system.py" in written
    assert "tests/mini_liars/test_mini_rules.py" in written


def test_the_hook_table_names_every_slot_of_hooks() -> None:
    """The table of what each hook lights up has a row for every slot of ``Hooks``."""
    text = GUIDE.read_text(encoding="utf-8")
    first_cells = [line.split("|")[1] for line in text.splitlines() if line.startswith("| `")]
    named = {name for cell in first_cells for name in re.findall(r"`(\w+)`", cell)}
    assert set(attrs.fields_dict(Hooks)) <= named


def test_every_block_of_the_guide_runs_in_order(tmp_path: Path) -> None:
    root = repository_copy(tmp_path / "repo")
    for language, text in guide_blocks():
        try:
            run_block(root, language, text)
        except AssertionError as failure:
            pytest.fail(f"the guide's {language} block\n{text}\nfailed: {failure}")
    # The game the guide wrote is a game of the copy's library, like any other.
    games = (root / "nataterra_core" / "games" / "__init__.py").read_text(encoding="utf-8")
    assert "mini_liars.system:MINI_LIARS" in games
    package = root / "nataterra_core" / "games" / "mini_liars"
    lines = sum(len((package / f"{room}.py").read_text().splitlines()) for room in REQUIRED_ROOMS)
    assert abs(lines - STATED_LINES) <= STATED_LINES // 10, f"the example is {lines} lines now"
