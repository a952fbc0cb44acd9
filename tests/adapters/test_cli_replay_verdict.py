"""``nataterra replay`` verifies first and says so (issue 31 item 6): verified, incomplete
(a game in progress), or INVALID at record N with the reason, the record marked where it is
printed and what can be shown still shown, with ``verify``'s exit code."""

from __future__ import annotations

from pathlib import Path

import pytest
from nataterra_adapters.cli import EXIT_CODES, app
from typer.testing import CliRunner

runner = CliRunner()


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    out = tmp_path_factory.mktemp("logs") / "kaladan.jsonl"
    made = runner.invoke(app, ["demo", "--game", "kaladan", "--seed", "2", "--out", str(out)])
    assert made.exit_code == 0, made.output
    return out.read_bytes()


def replayed(tmp_path: Path, data: bytes) -> tuple[int, list[str]]:
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    result = runner.invoke(app, ["replay", str(path)])
    return result.exit_code, result.output.splitlines()


def test_a_finished_game_is_verified_first(finished: bytes, tmp_path: Path) -> None:
    code, lines = replayed(tmp_path, finished)
    records = len(finished.splitlines())
    assert code == 0
    assert lines[0] == (
        f"verified: all {records} records re-execute under the rules, with the dice of the "
        "revealed seed"
    )
    assert lines[1].split()[0] == "0"


def test_a_game_in_progress_is_incomplete(tmp_path: Path) -> None:
    out = tmp_path / "open.jsonl"
    args = ["play", "--game", "kaladan", "--seed", "1", "--out", str(out)]
    played = runner.invoke(app, args, input="1\nq\ns\n")
    assert played.exit_code == 0, played.output
    code, lines = replayed(tmp_path, out.read_bytes())
    assert code == 0  # a game in progress is nothing wrong
    assert lines[0].startswith("incomplete: the log stops after record ")
    assert lines[0].endswith("(no reveal record: the seed is not published yet)")
    assert any(line.startswith("    2 red draws the top event card") for line in lines)


def test_an_edited_record_is_invalid_where_it_is_and_the_rest_still_shown(
    finished: bytes, tmp_path: Path
) -> None:
    lines = finished.split(b"\n")
    seq = next(n for n, line in enumerate(lines) if b'"target":"B4"' in line and n > 2)
    lines[seq] = lines[seq].replace(b'"target":"B4"', b'"target":"B5"')
    code, printed = replayed(tmp_path, b"\n".join(lines))
    assert code in (EXIT_CODES["chain"], EXIT_CODES["replay"])
    assert printed[0].startswith(
        f"INVALID at record {seq} (chain): the record breaks the chain of hashes that links "
        "the records: the log was edited (its hash does not match"
    )
    assert printed[0].endswith("the records are shown as logged, not as verified")
    marked = printed.index(
        "        !! INVALID here: the record breaks the chain of hashes that links the records: "
        f"the log was edited (its hash does not match record {seq + 1}'s prev)"
    )
    assert any(line.startswith(f"{seq:>5} ") for line in printed[:marked])
    assert any(line.startswith(f"{seq + 1:>5} ") for line in printed[marked:])


def test_a_torn_tail_is_invalid_and_the_intact_records_shown(
    finished: bytes, tmp_path: Path
) -> None:
    code, printed = replayed(tmp_path, finished[:-1])  # the final newline lost
    last = len(finished.splitlines()) - 1
    assert code == EXIT_CODES["torn"]
    assert f"INVALID at record {last} (torn)" in "\n".join(printed)
    assert any(line.startswith(f"{last - 1:>5} ") for line in printed)
