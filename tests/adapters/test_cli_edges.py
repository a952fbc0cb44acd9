"""Bad input at the CLI's edges (issue 14 item 6): one clear line and exit code 2 each, and
nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from nataterra_adapters.cli import app
from typer.testing import CliRunner

runner = CliRunner()


def flat(output: str) -> str:
    """The output as one line of words (rich wraps and boxes error messages)."""
    return " ".join(output.replace("│", " ").split())


@pytest.mark.parametrize("command", ["demo", "play"])
@pytest.mark.parametrize(
    ("flags", "says"),
    [
        (["--seed", "-1"], "greater than or equal to 0"),
        (["--seed", str(2**64)], "less than or equal to"),
        (["--players", "5"], "2 to 4 players"),
    ],
)
def test_bad_flags_are_one_clear_line(
    command: str, flags: list[str], says: str, tmp_path: Path
) -> None:
    out = tmp_path / "game.jsonl"
    result = runner.invoke(app, [command, *flags, "--out", str(out)], input="q\n")
    assert result.exit_code == 2, result.output
    assert says in flat(result.output)
    assert "Traceback" not in result.output
    assert not out.exists()


@pytest.mark.parametrize("command", ["demo", "play"])
def test_an_out_that_is_a_directory_or_in_a_missing_folder_is_refused(
    command: str, tmp_path: Path
) -> None:
    for out, says in (
        (tmp_path, "is a directory"),
        (tmp_path / "no" / "x.jsonl", "does not exist"),
    ):
        result = runner.invoke(app, [command, "--seed", "1", "--out", str(out)], input="q\n")
        assert result.exit_code == 2, result.output
        assert says in flat(result.output)
        assert "Traceback" not in result.output
    assert not (tmp_path / "no").exists()
