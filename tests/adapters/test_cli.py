"""The ``nataterra`` command line and the examples, run as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from nataterra_adapters.cli import EXIT_CODES, app
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def demo_log(tmp_path: Path, seed: int, name: str, turns: int = 12) -> Path:
    out = tmp_path / name
    result = runner.invoke(
        app, ["demo", "--seed", str(seed), "--out", str(out), "--turns", str(turns)]
    )
    assert result.exit_code == 0, result.output
    return out


def test_demo_plays_writes_and_verifies_a_game(tmp_path: Path) -> None:
    out = tmp_path / "demo.jsonl"
    result = runner.invoke(app, ["demo", "--seed", "3", "--out", str(out), "--turns", "8"])
    assert result.exit_code == 0, result.output
    assert "VALID" in result.output
    assert "turn limit" in result.output
    lines = out.read_bytes().splitlines()
    assert b'"kind":"reveal"' in lines[-2] and b'"kind":"end"' in lines[-1]
    assert runner.invoke(app, ["verify", str(out)]).exit_code == 0


def test_demo_is_reproducible(tmp_path: Path) -> None:
    a = demo_log(tmp_path, 5, "a.jsonl")
    b = demo_log(tmp_path, 5, "b.jsonl")
    assert a.read_bytes() == b.read_bytes()


def test_demo_with_four_players(tmp_path: Path) -> None:
    out = tmp_path / "four.jsonl"
    result = runner.invoke(app, ["demo", "--players", "4", "--out", str(out), "--turns", "8"])
    assert result.exit_code == 0, result.output
    assert "naga" in result.output


def test_N_MAP_4_demo_on_a_structured_map(tmp_path: Path) -> None:
    out = tmp_path / "structured.jsonl"
    result = runner.invoke(
        app, ["demo", "--structured", "--players", "3", "--out", str(out), "--turns", "8"]
    )
    assert result.exit_code == 0, result.output
    # The header's options, in the same words for every game (was "on a structured map").
    assert "map structuring" in result.output and "VALID" in result.output
    assert b'"map_structuring":true' in out.read_bytes().splitlines()[0]


def test_verify_exit_code_is_the_most_severe(tmp_path: Path) -> None:
    data = demo_log(tmp_path, 4, "good.jsonl").read_bytes()
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(data[:-3])
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(data.replace(b'"client_seed":""', b'"client_seed":"x"', 1))
    result = runner.invoke(app, ["verify", str(tmp_path / "good.jsonl"), str(torn), str(forged)])
    assert result.exit_code == max(EXIT_CODES["torn"], EXIT_CODES["chain"])
    assert "INVALID (torn)" in result.output and "INVALID (chain)" in result.output


def test_verify_folder_example(tmp_path: Path) -> None:
    demo_log(tmp_path, 1, "g1.jsonl")
    demo_log(tmp_path, 2, "g2.jsonl")
    (tmp_path / "g3.jsonl").write_bytes((tmp_path / "g1.jsonl").read_bytes()[:-1])
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "verify_folder.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("g1.jsonl: valid")
    assert lines[1].startswith("g2.jsonl: valid")
    assert lines[2].startswith("g3.jsonl: invalid at record")
