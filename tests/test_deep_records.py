"""A record nested deeper than a reader allows is a ``read`` failure naming it, in every game
(issue 32 item 4): never a ``RecursionError`` out of verification, ``show`` or the RPC, and a
batch goes on to the next log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from every_game_logs import game_ids, short_log
from nataterra_adapters.batch_verify import verify_many
from nataterra_adapters.cli import EXIT_CODES, app
from nataterra_adapters.rpc.server import Server
from typer.testing import CliRunner

from nataterra_core.game import verify_log
from nataterra_core.kernel.bounded import MAX_DEPTH, nesting_depth

runner = CliRunner()


def deepened(log: bytes, depth: int = 1000) -> tuple[bytes, int]:
    """The log with an unknown key nested ``depth`` deep before the first command's type
    (the audit's forgery), and the seq of that record."""
    lines = log.split(b"\n")
    seq = next(s for s, line in enumerate(lines) if line.startswith(b'{"kind":"command"'))
    deep = b'"command":{"d":' + b"[" * depth + b"]" * depth + b","
    lines[seq] = lines[seq].replace(b'"command":{', deep, 1)
    return b"\n".join(lines), seq


@pytest.mark.parametrize("game", game_ids())
def test_a_record_nested_a_thousand_deep_fails_to_read_naming_it(game: str) -> None:
    log, seq = deepened(short_log(game))
    verdict = verify_log(log)
    assert (verdict.status, verdict.failure, verdict.seq) == ("invalid", "read", seq)
    assert f"nested deeper than {MAX_DEPTH}" in verdict.reason


@pytest.mark.parametrize("depth", [MAX_DEPTH - 2, MAX_DEPTH + 1, 900])
def test_the_verdict_does_not_depend_on_how_deep_the_reader_s_stack_is(depth: int) -> None:
    """Past the cap the reason is always the depth; under it, the schema's refusal."""
    log, seq = deepened(short_log("pig"), depth)

    def nested(levels: int) -> object:
        return verify_log(log) if levels == 0 else nested(levels - 1)

    verdicts = {nested(levels) for levels in (0, 600)}
    assert len(verdicts) == 1
    (verdict,) = verdicts
    assert (verdict.failure, verdict.seq) == ("read", seq)
    assert ("nested deeper" in verdict.reason) == (depth + 2 > MAX_DEPTH)


def test_nesting_depth_counts_arrays_and_objects_outside_strings() -> None:
    assert nesting_depth(b'{"a":[1,{"b":[]}]}') == 4
    assert nesting_depth(b'{"a":"[[[[{{{{","b":"\\\\","c":"\\"[["}') == 1
    assert nesting_depth(b"7") == 0
    assert nesting_depth(json.dumps([[[[]]]]).encode()) == 4


def test_a_batch_goes_on_to_the_next_log_after_a_deep_one(tmp_path: Path) -> None:
    good = short_log("nataterra")
    (tmp_path / "deep.jsonl").write_bytes(deepened(good)[0])
    (tmp_path / "good.jsonl").write_bytes(good)
    paths = [tmp_path / "deep.jsonl", tmp_path / "good.jsonl"]
    assert [v.failure or v.status for v in verify_many(paths)] == ["read", "valid"]
    result = runner.invoke(app, ["verify", *map(str, paths)])
    assert result.exit_code == EXIT_CODES["read"], result.output
    assert "2 logs: 1 valid" in result.output


def test_show_names_the_deep_record_and_exits_with_the_read_code(tmp_path: Path) -> None:
    log, seq = deepened(short_log("kaladan"))
    (tmp_path / "deep.jsonl").write_bytes(log)
    result = runner.invoke(app, ["show", str(tmp_path / "deep.jsonl")])
    assert result.exit_code == EXIT_CODES["read"], result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"record {seq}" in result.output


def test_log_verify_answers_a_read_verdict_over_rpc() -> None:
    log, seq = deepened(short_log("battlelore"))
    message = {"jsonrpc": "2.0", "id": 1, "method": "log.verify", "params": {"log": log.decode()}}
    reply = Server(test_seeds=True).dispatcher.handle(json.dumps(message).encode())
    assert reply is not None
    verdict = json.loads(reply)["result"]
    assert (verdict["status"], verdict["failure"], verdict["seq"]) == ("invalid", "read", seq)


@pytest.mark.parametrize("game", game_ids())
def test_every_game_s_records_nest_far_under_the_cap(game: str) -> None:
    """What lets a log that decodes skip the depth check: its records nest under 10."""
    golden = Path(__file__).parent / "golden"
    logs = [short_log(game), *(p.read_bytes() for p in golden.glob("*.jsonl"))]
    assert max(nesting_depth(line) for log in logs for line in log.splitlines()) < 10
