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
        (["--seed", "-1"], "-1 is not in the range 0<=x<="),
        (["--seed", str(2**64)], f"{2**64} is not in the range 0<=x<="),
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


def test_without_seed_the_server_seed_is_secret_and_fresh(tmp_path: Path) -> None:
    """Issue 14 item 2: the CLI draws a secret random seed unless --seed asks for a public one."""
    import json

    heads = []
    for name in ("a.jsonl", "b.jsonl"):
        out = tmp_path / name
        result = runner.invoke(app, ["demo", "--turns", "1", "--out", str(out)])
        assert result.exit_code == 0, result.output
        header = json.loads(out.read_text().splitlines()[0])
        assert header["game_id"].startswith("g-") and "secret seed" in result.output
        heads.append(header["seed_commitment"])
    assert heads[0] != heads[1]


def test_hot_seat_client_seeds_are_joined_in_seat_order(tmp_path: Path) -> None:
    import json

    out = tmp_path / "hot.jsonl"
    args = ["play", "--out", str(out), "--client-seed", "beasts=b-2", "--client-seed", "velathi=v1"]
    result = runner.invoke(app, args, input="q\n")
    assert result.exit_code == 0, result.output
    header = json.loads(out.read_text().splitlines()[0])
    assert header["client_seed"] == "velathi:v1;beasts:b-2"
    for bad in (["--client-seed", "velathi=v1"], ["--client-seed", "velathi"]):
        refused = runner.invoke(app, ["play", "--out", str(tmp_path / "x.jsonl"), *bad])
        assert refused.exit_code == 2 and "Traceback" not in refused.output


def test_an_existing_out_is_never_overwritten_without_force(tmp_path: Path) -> None:
    """Issue 14 item 5: --out never replaces a file unless --force."""
    out = tmp_path / "kept.jsonl"
    out.write_bytes(b"precious\n")
    refused = runner.invoke(app, ["demo", "--seed", "1", "--turns", "1", "--out", str(out)])
    assert refused.exit_code == 2 and "--force" in flat(refused.output)
    assert out.read_bytes() == b"precious\n"
    forced = runner.invoke(
        app, ["demo", "--seed", "1", "--turns", "1", "--out", str(out), "--force"]
    )
    assert forced.exit_code == 0, forced.output
    assert out.read_bytes().startswith(b'{"kind":"header"')


def test_without_out_each_game_gets_a_fresh_file_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    for _ in range(2):
        result = runner.invoke(app, ["demo", "--seed", "4", "--turns", "1"])
        assert result.exit_code == 0, result.output
    games = sorted(p.name for p in (tmp_path / "nataterra" / "games").iterdir())
    assert games == ["seed-4-1.jsonl", "seed-4.jsonl"]
    played = runner.invoke(app, ["play", "--seed", "5"], input="q\n")
    assert played.exit_code == 0, played.output
    assert (tmp_path / "nataterra" / "games" / "seed-5.jsonl").exists()


def test_a_suspended_hot_seat_game_resumes_from_its_log(tmp_path: Path) -> None:
    """Issue 14 item 5: q then s suspends (the seed kept beside the log, 0600); --resume LOG
    continues; closing the game reveals the seed and drops the secret file."""
    import stat

    from nataterra_core.game import verify_log

    log = tmp_path / "hot.jsonl"
    secret = tmp_path / "hot.jsonl.secret"
    first = runner.invoke(app, ["play", "--out", str(log)], input="1\nq\ns\n")
    assert first.exit_code == 0, first.output
    assert "--resume" in flat(first.output)
    assert secret.exists() and stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert verify_log(log.read_bytes()).status == "incomplete"
    records = len(log.read_bytes().splitlines())
    second = runner.invoke(app, ["play", "--resume", str(log)], input="1\nq\na\n")
    assert second.exit_code == 0, second.output
    assert "resuming" in second.output
    assert len(log.read_bytes().splitlines()) > records + 2  # a command, reveal and end
    assert verify_log(log.read_bytes())
    assert not secret.exists()
    again = runner.invoke(app, ["play", "--resume", str(log)])
    assert again.exit_code == 2 and "not a suspended game" in flat(again.output)


def test_resuming_a_tampered_game_names_the_record_and_field_not_the_hidden_order(
    tmp_path: Path,
) -> None:
    """Issue 30 item 2: a suspended game whose log was altered in a deck's hidden order is
    refused naming the record and the field, never the order the seed recomputes."""
    import json

    log = tmp_path / "hot.jsonl"
    first = runner.invoke(app, ["play", "--out", str(log)], input="1\nq\ns\n")
    assert first.exit_code == 0, first.output
    lines = log.read_text().splitlines()
    start = json.loads(lines[1])
    at, shuffle = next(
        (i, e) for i, e in enumerate(start["events"]) if e["type"] == "deck_shuffled.v1"
    )
    true_order = list(shuffle["after"])
    shuffle["after"] = list(reversed(true_order))  # a forged order
    lines[1] = json.dumps(start, separators=(",", ":"), sort_keys=False)
    log.write_text("\n".join(lines) + "\n")
    resumed = runner.invoke(app, ["play", "--resume", str(log)])
    said = flat(resumed.output)
    assert resumed.exit_code == 2 and "does not re-execute" in said, said
    assert f"record 1: $.events[{at}].after[0]" in said, said
    assert "hidden" in said, said
    assert true_order[0] not in said and true_order[-1] not in said, said
