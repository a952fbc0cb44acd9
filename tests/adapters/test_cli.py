"""The ``nataterra`` command line and the examples, run as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from nataterra_adapters.cli import EXIT_CODES, app
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def test_demo_writes_a_log_that_verifies_and_shows_tampering(tmp_path: Path) -> None:
    out = tmp_path / "demo.jsonl"
    result = runner.invoke(app, ["demo", "--seed", "3", "--out", str(out), "--turns", "8"])
    assert result.exit_code == 0, result.output
    assert "VALID" in result.output
    assert "INVALID (chain)" in result.output
    assert "INVALID (torn)" in result.output
    assert out.read_bytes().endswith(b"\n")
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.exit_code == 0, verified.output


def test_verify_exit_code_is_the_most_severe(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    runner.invoke(app, ["demo", "--seed", "4", "--out", str(good)])
    data = good.read_bytes()
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(data[:-3])
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(data.replace(b'"client_seed":""', b'"client_seed":"x"', 1))
    result = runner.invoke(app, ["verify", str(good), str(torn), str(forged)])
    assert result.exit_code == max(EXIT_CODES["torn"], EXIT_CODES["chain"])
    assert "INVALID (torn)" in result.output and "INVALID (chain)" in result.output


def test_verify_folder_example(tmp_path: Path) -> None:
    for seed in (1, 2):
        runner.invoke(app, ["demo", "--seed", str(seed), "--out", str(tmp_path / f"g{seed}.jsonl")])
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
