"""``nataterra verify``: forgeries caught with their own exit codes, worker processes, Dask."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from nataterra_adapters.batch_verify import bundle_pack, verify_many, verify_source
from nataterra_adapters.cli import EXIT_CODES, app
from typer.testing import CliRunner

from nataterra_core.kernel.log import line_hash

runner = CliRunner()


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three finished games (seeds 1-3, four turns each)."""
    folder = tmp_path_factory.mktemp("games")
    paths = []
    for seed in (1, 2, 3):
        out = folder / f"g{seed}.jsonl"
        result = runner.invoke(
            app, ["demo", "--seed", str(seed), "--out", str(out), "--turns", "4"]
        )
        assert result.exit_code == 0, result.output
        paths.append(out)
    return paths


def rechained(lines: list[bytes], edited: int) -> bytes:
    """A forger's log: recompute every ``prev`` after the edited record, so the chain holds."""
    out = list(lines)
    for seq in range(edited + 1, len(out)):
        prev = json.loads(out[seq])["prev"]
        out[seq] = out[seq].replace(prev.encode(), line_hash(out[seq - 1]).encode(), 1)
    return b"".join(line + b"\n" for line in out)


def forge(path: Path, target: Path, seq: int, edit: dict[str, object]) -> Path:
    """Rewrite fields of record ``seq`` (re-encoded compactly) and rechain the log."""
    lines = path.read_bytes().splitlines()
    seq %= len(lines)
    record = json.loads(lines[seq])
    record.update(edit)
    lines[seq] = json.dumps(record, separators=(",", ":")).encode()
    target.write_bytes(rechained(lines, seq))
    return target


def verify(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["verify", *args])
    return result.exit_code, result.output


# -- each forgery has its own exit code and message -------------------------------------------


def test_a_tampered_byte_breaks_the_chain(logs: list[Path], tmp_path: Path) -> None:
    data = logs[0].read_bytes()
    lines = data.splitlines()
    tampered_line = lines[2].replace(b'"count":', b'"count":1', 1)  # 2 woodcutters -> 12
    assert tampered_line != lines[2]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(data.replace(lines[2], tampered_line, 1))
    code, output = verify(str(tampered))
    assert code == EXIT_CODES["chain"] == 9
    assert "INVALID (chain)" in output
    said = "record 2 breaks the chain of hashes that links the records: the log was edited"
    assert f"{said} (its hash does not match record 3's prev)" in " ".join(output.split())


def test_a_wrong_claimed_winner_fails_re_execution(logs: list[Path], tmp_path: Path) -> None:
    lines = logs[0].read_bytes().splitlines()
    end = len(lines) - 1
    forged = forge(
        logs[0],
        tmp_path / "winner.jsonl",
        end,
        {"result": {"winners": ["velathi"], "reason": "turn_limit"}},
    )
    code, output = verify(str(forged))
    assert code == EXIT_CODES["replay"] == 10
    assert "INVALID (replay)" in output
    # The first difference in the recomputed record's field order: the rules say "draw".
    said = f"record {end} is not what the rules give ($.result.draw: logged None, recomputed True)"
    assert said in " ".join(output.split())


def test_a_wrong_claimed_winner_against_a_published_head(logs: list[Path], tmp_path: Path) -> None:
    head = line_hash(logs[0].read_bytes().splitlines()[-1])
    forged = forge(
        logs[0],
        tmp_path / "w.jsonl",
        -1,
        {"result": {"winners": ["beasts"], "reason": "turn_limit"}},
    )
    code, output = verify(str(forged), "--expect-head", head)
    assert code == EXIT_CODES["head"] == 7
    assert "INVALID (head)" in output and "expected head" in output


def test_a_wrong_revealed_seed_fails_the_commitment(logs: list[Path], tmp_path: Path) -> None:
    lines = logs[0].read_bytes().splitlines()
    reveal = len(lines) - 2
    forged = forge(logs[0], tmp_path / "seed.jsonl", reveal, {"server_seed": "ab" * 32})
    code, output = verify(str(forged))
    assert code == EXIT_CODES["seed"] == 8
    assert "INVALID (seed)" in output
    said = (
        f"the seed revealed at record {reveal} is not the one promised at the start, so the "
        "dice cannot be trusted (the revealed seed does not match seed_commitment)"
    )
    assert said in " ".join(output.split())


def test_an_unfinished_game_is_incomplete(logs: list[Path], tmp_path: Path) -> None:
    running = tmp_path / "running.jsonl"
    running.write_bytes(b"".join(line + b"\n" for line in logs[0].read_bytes().splitlines()[:-2]))
    code, output = verify(str(running))
    assert code == EXIT_CODES["incomplete"]
    assert "INCOMPLETE" in output and "seed is not published" in output


def test_the_most_severe_wins_and_the_summary_counts_classes(
    logs: list[Path], tmp_path: Path
) -> None:
    seed = forge(logs[0], tmp_path / "seed.jsonl", -2, {"server_seed": "cd" * 32})
    missing = tmp_path / "missing.jsonl"
    code, output = verify(*map(str, logs), str(seed), str(missing))
    assert code == EXIT_CODES["seed"]
    assert "cannot read the file" in output  # a missing log is a read failure, not a crash
    assert "5 logs: 3 valid, 0 incomplete, 2 invalid; exit code 8" in output
    for name in ("valid", "read", "seed"):
        assert name in output


# -- routes: local processes, JSON lines, Dask ------------------------------------------------


def test_worker_processes_give_the_same_verdicts_in_order(logs: list[Path], tmp_path: Path) -> None:
    winner = forge(
        logs[1],
        tmp_path / "winner.jsonl",
        -1,
        {"result": {"winners": ["beasts"], "reason": "turn_limit"}},
    )
    paths = [*logs, winner]
    many = paths * 4  # more logs than the 8 kept in flight for two workers
    assert list(verify_many(many, workers=2)) == list(verify_many(many))
    code, output = verify(*map(str, paths), "--workers", "2")
    assert code == EXIT_CODES["replay"]
    assert output.index("g1.jsonl") < output.index("g3.jsonl") < output.index("winner.jsonl")


def test_a_refused_header_is_refused_after_any_other_log(logs: list[Path], tmp_path: Path) -> None:
    # Batch verification keeps one decider per rules and pack; each header must still be
    # checked on its own, so a forged header is a header failure whatever came before it.
    forged = forge(logs[0], tmp_path / "forged.jsonl", 0, {"options": {"bogus": 1}})
    alone = verify_source(forged)
    assert alone.failure == "header" and "unknown options" in (alone.reason or "")
    after = list(verify_many([logs[1], forged, logs[2], forged]))
    assert [v.failure for v in after] == [None, "header", None, "header"]


def test_json_lines(logs: list[Path]) -> None:
    result = runner.invoke(app, ["verify", "--json", *map(str, logs[:2])])
    assert result.exit_code == 0
    rows = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert [row["log"] for row in rows] == [str(p) for p in logs[:2]]
    assert rows[0]["status"] == "valid" and rows[0]["exit_code"] == 0
    assert rows[0]["result"]["draw"] is True and rows[0]["result"]["reason"] == "turn_limit"
    assert rows[0]["head"] == line_hash(logs[0].read_bytes().splitlines()[-1])


def test_on_a_local_dask_cluster(logs: list[Path], tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    seed = forge(logs[2], tmp_path / "seed.jsonl", -2, {"server_seed": "ef" * 32})
    paths = [*logs, seed]
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        code, output = verify(*map(str, paths), "--dask-scheduler", cluster.scheduler_address)
    assert code == EXIT_CODES["seed"], output
    assert output.count("\nVALID ") == 2 and "INVALID (seed)" in output
    assert "4 logs: 3 valid, 0 incomplete, 1 invalid" in output


def test_a_user_pack_travels_to_dask_workers(tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.toml").write_text('[pack]\nid = "house"\nversion = "1"\n', encoding="utf-8")
    log = tmp_path / "house.jsonl"
    made = runner.invoke(app, ["demo", "--out", str(log), "--turns", "2", "--content", str(pack)])
    assert made.exit_code == 0, made.output
    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        with_pack = verify(str(log), "--dask-scheduler", address, "--content", str(pack))
        without = verify(str(log), "--dask-scheduler", address)
    assert with_pack[0] == 0, with_pack[1]
    assert without[0] == EXIT_CODES["content"] and "INVALID (content)" in without[1]


def test_without_dask_installed(logs: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "dask.distributed", None)
    code, output = verify(str(logs[0]), "--dask-scheduler", "tcp://127.0.0.1:1")
    assert code == 1
    assert "nataterra-core[cluster]" in output


def test_a_broken_content_pack_is_one_setup_error(logs: list[Path], tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text("[pack]\nid = 3\n", encoding="utf-8")
    code, output = verify(str(logs[0]), "--content", str(tmp_path))
    assert code == 1 and "content pack" in output


def test_a_pack_bundle_is_what_the_hash_covers(tmp_path: Path) -> None:
    (tmp_path / "units.toml").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not part of the pack", encoding="utf-8")
    assert bundle_pack(tmp_path) == (("units.toml", b""),)
    assert verify_source(tmp_path / "absent.jsonl").failure == "read"


FORKED_VERIFY = """
import sys, threading
from pathlib import Path
from nataterra_adapters.batch_verify import verify_many
from nataterra_core.tools.workers import process_context

paths = [Path(p) for p in sys.argv[1:]]
print(process_context([]).get_start_method())  # one thread here: plain fork
verdicts = verify_many(paths, workers=2)  # the workers start now, before the thread below
ticker = threading.Thread(target=threading.Event().wait, args=(30,), daemon=True)
ticker.start()  # what a progress bar does
print(process_context([]).get_start_method())  # a thread runs: the fork server
print(list(verdicts) == list(verify_many(paths)))
"""


def test_a_single_threaded_caller_forks_its_workers_before_it_starts_threads(
    logs: list[Path],
) -> None:
    """Workers fork from a process that runs one thread (no fork server to start), and
    :func:`verify_many` starts them before returning, so that a progress bar's thread
    started afterwards never sees a fork; a process with threads uses the fork server."""
    if sys.platform != "linux":
        pytest.skip("plain fork is used on Linux only")
    done = subprocess.run(
        [sys.executable, "-c", FORKED_VERIFY, *map(str, logs * 3)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["fork", "forkserver", "True"]
