"""``nataterra new-game`` (issue 29 item 3): the package it writes registers, passes the
conformance test and plays, both ways a game registers.

Each test runs the scaffold into a temporary copy of the repository, as an author runs it in a
checkout: inside the library with ``--register`` (the line added to ``games/__init__.py``), and
outside it with ``--dir``, where its ``pyproject.toml`` declares the ``nataterra.games`` entry
point, installed here as a distribution on the path (a ``.dist-info`` folder with the entry
point the ``pyproject.toml`` names). The generic tests then run on the new game by its id.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from nataterra_adapters.cli.app import app
from nataterra_adapters.cli.scaffold import MAX_ID, GameFiles, game_files
from repo_copy import ROOT, nataterra, repository_copy, run
from typer.testing import CliRunner

GENERIC_TESTS = (
    "tests/test_conformance.py",
    "tests/test_secrets.py",
    "tests/test_leaks.py",
    "tests/test_words.py",
    "tests/test_offered_words.py",
    "tests/test_seen_words.py",
    "tests/test_shape.py",
)


def generic_tests(game_id: str) -> list[str]:
    """``python -m pytest`` of the generic tests for ``game_id`` alone."""
    select = f"{game_id} or {game_id.replace('-', '_')}"
    return ["python", "-m", "pytest", "-n", "0", "-p", "no:randomly", *GENERIC_TESTS, "-k", select]


def said(output: str) -> str:
    """``output`` on one line, without the frame rich draws around an error."""
    return " ".join(output.replace("│", " ").split())


def plays_and_verifies(root: Path, game_id: str, extra: tuple[Path, ...] = ()) -> None:
    output = run(
        root, nataterra("demo", "--game", game_id, "--seed", "2", "--out", "g.jsonl"), extra
    )
    assert "won by" in output
    assert "VALID" in run(root, nataterra("verify", "g.jsonl"), extra)


def test_a_game_in_the_library_registers_with_one_call(tmp_path: Path) -> None:
    root = repository_copy(tmp_path / "repo")
    printed = run(root, nataterra("new-game", "count-up"))
    line = GameFiles("count-up", "nataterra_core.games.count_up").registration
    assert line in printed  # the line to add, printed
    games = root / "nataterra_core" / "games"
    assert line not in (games / "__init__.py").read_text(encoding="utf-8")
    # the longest id the scaffold accepts: its names fill lines (ruff and mypy below)
    long_id = "a-race-to-the-target-with-one-die-x1-y2z"
    assert len(long_id) == MAX_ID
    package = long_id.replace("-", "_")
    run(root, nataterra("new-game", long_id, "--register"))
    assert (
        (games / "__init__.py")
        .read_text(encoding="utf-8")
        .endswith(GameFiles(long_id, f"nataterra_core.games.{package}").registration + "\n")
    )
    output = run(root, [sys.executable, *generic_tests(long_id)[1:]])
    assert " passed" in output and "failed" not in output
    plays_and_verifies(root, long_id)
    tools = Path(sys.executable).parent
    written = f"nataterra_core/games/{package}"
    run(root, [str(tools / "ruff"), "check", "--no-cache", "nataterra_core/games"])
    run(root, [str(tools / "ruff"), "format", "--no-cache", "--check", "nataterra_core/games"])
    run(root, [str(tools / "mypy"), "--strict", "--cache-dir", str(tmp_path / "mypy"), written])


LONG_IDS = (
    "count-up",
    "a",
    "abcdefghijklmnopqrstuvwxyzab",  # 28 letters: what made ruff format reject decider.py
    "q" * MAX_ID,
    "-".join("abcdefghijklmnopqrst"),  # 20 one-letter words: an all-capitals class name
    "w0rd-" * 7 + "x1y2z",
)


@pytest.mark.parametrize("game_id", LONG_IDS)
def test_the_written_code_is_ruff_clean_whatever_the_id_length(
    tmp_path: Path, game_id: str
) -> None:
    """Every file and the registration line pass ``ruff check`` and ``ruff format --check``
    under the project's settings, up to the longest id the scaffold accepts."""
    assert len(game_id) <= MAX_ID
    games = tmp_path / "nataterra_core" / "games"
    names = GameFiles(game_id, f"nataterra_core.games.{game_id.replace('-', '_')}")
    package = games / names.package
    package.mkdir(parents=True)
    for name, text in game_files(game_id, names.module).items():
        (package / name).write_text(text, encoding="utf-8")
    (games.parent / "__init__.py").write_text('"""The library."""\n', encoding="utf-8")
    (games / "__init__.py").write_text(
        '"""Games."""\n\nfrom nataterra_core.kernel.registry import register_lazily\n\n'
        f"{names.registration}\n",
        encoding="utf-8",
    )
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    ruff = str(Path(sys.executable).parent / "ruff")
    for argv in ([ruff, "check", "--no-cache", "."], [ruff, "format", "--no-cache", "--diff", "."]):
        done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{argv[1]} of {game_id!r}:\n{done.stdout}{done.stderr}"


def _install(dist: Path, site: Path) -> None:
    """What ``pip install`` leaves for the registry to read: a ``.dist-info`` folder with
    the entry points of ``dist``'s ``pyproject.toml``."""
    project = tomllib.loads((dist / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = site / f"{project['name']}-{project['version']}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n",
        encoding="utf-8",
    )
    lines = [f"[{group}]" for group in project["entry-points"]]
    points = "".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in entries.items())
        for group, entries in project["entry-points"].items()
    )
    assert lines
    (info / "entry_points.txt").write_text(points, encoding="utf-8")


def test_a_game_in_its_own_distribution_registers_by_its_entry_point(tmp_path: Path) -> None:
    root = repository_copy(tmp_path / "repo")
    dist, site = tmp_path / "my-race", tmp_path / "site"
    run(root, nataterra("new-game", "my-race", "--dir", str(dist)))
    assert (dist / "my_race" / "system.py").is_file()
    _install(dist, site)
    on_path = (dist, site)
    output = run(root, [sys.executable, *generic_tests("my-race")[1:]], on_path)
    assert " passed" in output and "failed" not in output
    plays_and_verifies(root, "my-race", on_path)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["Bad_Id"], "lower-case letters"),
        (["liars-dice"], "registered already"),
        (["x" * 41], "at most 40"),
    ],
)
def test_a_bad_id_is_refused_naming_why(args: list[str], says: str) -> None:
    result = CliRunner().invoke(app, ["new-game", *args])
    assert result.exit_code == 2 and says in said(result.output)


def test_register_outside_the_library_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["new-game", "abc", "--dir", str(tmp_path), "--register"])
    assert result.exit_code == 2 and "entry point" in said(result.output)
    assert not (tmp_path / "abc").exists()


def test_an_existing_package_is_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "abc").mkdir()
    result = CliRunner().invoke(app, ["new-game", "abc", "--dir", str(tmp_path)])
    assert result.exit_code == 2 and "exists already" in said(result.output)
