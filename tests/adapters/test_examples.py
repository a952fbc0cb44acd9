"""The scripts in ``examples/`` run as a user would run them (verify_folder: test_cli.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from nataterra_adapters.cli import app
from typer.testing import CliRunner

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_example(name: str, *args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.splitlines()


def test_play_from_code(tmp_path: Path) -> None:
    out = tmp_path / "from-code.jsonl"
    lines = run_example("play_from_code.py", "--seed", "7", "--turns", "4", "--out", str(out))
    assert lines[0] == "seed-7: velathi, beasts"
    assert any(line.startswith("undo/redo: ") for line in lines)
    assert any(line.endswith("over 4 turns; result: turn_limit") for line in lines)
    assert lines[-1] == "verified: valid"
    result = CliRunner().invoke(app, ["verify", str(out)])
    assert result.exit_code == 0, result.output


def test_my_bot_plays_against_a_random_player() -> None:
    lines = run_example("my_bot.py", "--seed", "11", "--turns", "6")
    assert lines[0].startswith("gatherer (velathi): gathered ")
    assert lines[1].startswith("random (beasts): gathered ")
    assert lines[2] == "verified: valid"
