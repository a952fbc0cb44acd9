"""The command line is generic: any registered rule system plays, replays, shows and verifies.

The combat sandbox (``nataterra-combat-sandbox``) stands in for "another game": it has its
own options, seats, view and only the random player.
"""

from __future__ import annotations

import ast
from pathlib import Path

import attrs
import pytest
import typer
from nataterra_adapters.cli import app, build_app, verdict_line
from nataterra_adapters.cli.app import system_commands
from typer.testing import CliRunner

from nataterra_core.game import verify_log
from nataterra_core.kernel import RulesRef, read_log, replay_states
from nataterra_core.kernel.registry import Hooks, RuleSystem, system, system_for

runner = CliRunner()
SANDBOX = "nataterra-combat-sandbox"
CLI = Path(__file__).resolve().parents[2] / "adapters" / "nataterra_adapters" / "cli"
ALLOWED = (
    "nataterra_core.kernel",
    "nataterra_core.game",
    "nataterra_core.search",
    "nataterra_core.tools",
)


def flat(output: str) -> str:
    """Rich's error box as one line of words."""
    return " ".join(output.replace("│", " ").split())


@pytest.fixture(scope="module")
def battle_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sandbox") / "battle.jsonl"
    result = runner.invoke(app, ["demo", "--game", SANDBOX, "--seed", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_the_cli_imports_no_games_internals() -> None:
    """Only the kernel, the search and tools toolkits, the facade, the registering package and
    the package root (its version): no game's own modules."""
    bad = []
    for path in sorted(CLI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom) and not node.level
                else []
            )
            for name in names:
                ours = name.split(".")[0] == "nataterra_core"
                root = name in ("nataterra_core", "nataterra_core.games")
                if ours and not root and not name.startswith(ALLOWED):
                    bad.append(f"{path.name}: {name}")
    assert (CLI / "app.py").is_file() and not bad, bad


def test_demo_of_another_game_writes_a_log_verify_accepts(battle_log: Path) -> None:
    lines = battle_log.read_bytes().splitlines()
    assert b'"id":"nataterra-combat-sandbox"' in lines[0]
    assert b'"kind":"reveal"' in lines[-2] and b'"kind":"end"' in lines[-1]
    assert verify_log(battle_log.read_bytes()).valid
    result = runner.invoke(app, ["verify", str(battle_log)])
    assert result.exit_code == 0 and "VALID" in result.output, result.output


def test_demo_is_worded_by_the_systems_presenter(battle_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "again.jsonl"
    result = runner.invoke(app, ["demo", "--game", SANDBOX, "--seed", "2", "--out", str(out)])
    assert out.read_bytes() == battle_log.read_bytes()  # seeded: the same battle
    record = system(SANDBOX)
    read = read_log(out.read_bytes(), lambda header: system_for(header).decider(None))
    final = list(replay_states(read.decider, read.header, read.records))[-1][1]
    expected = record.presenter.view(record.seat_view(final, None))
    assert result.output.startswith(
        "Nataterra combat sandbox game seed-2 (public test seed): velathi, beasts"
    )
    assert all(line.rstrip() in result.output for line in expected.splitlines())
    assert "by random players" in result.output


def test_show_and_replay_take_the_system_from_the_header(battle_log: Path) -> None:
    shown = runner.invoke(app, ["show", str(battle_log), "--at", "3", "--as", "beasts"])
    assert shown.exit_code == 0, shown.output
    assert "after record 3 of" in shown.output
    assert "battle: velathi attacks beasts" in shown.output
    replayed = runner.invoke(app, ["replay", str(battle_log), "--to", "2"])
    assert replayed.exit_code == 0, replayed.output
    assert "Nataterra combat sandbox, rules version " in replayed.output
    presenter = system(SANDBOX).presenter
    read = read_log(battle_log.read_bytes(), lambda header: system_for(header).decider(None))
    start = read.records[1]
    assert presenter.command(start.command) in replayed.output  # type: ignore[union-attr]


def test_play_another_game_hot_seat(tmp_path: Path) -> None:
    out = tmp_path / "hot.jsonl"
    result = runner.invoke(
        app, ["play", "--game", SANDBOX, "--out", str(out)], input="1\nu\nr\nq\n"
    )
    assert result.exit_code == 0, result.output
    assert "velathi to play" in result.output and "battle: velathi attacks beasts" in result.output
    assert "undone: record 2" in result.output
    assert "result: no winner (abandoned)" in result.output
    assert verify_log(out.read_bytes()).valid


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "heuristic"], "has no player 'heuristic' (it has random, search)"),
        (["--turns", "3"], "has no max_turns option"),
        (["--mode", "advanced"], "has no mode option"),
        (["--players", "3"], "is for 2 players, not 3"),
        (["--option", "tournament"], "is not KEY=VALUE"),
        (["--option", "speed=3"], "unknown field `speed`"),
    ],
)
def test_flags_are_checked_against_the_systems_schema(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "refused.jsonl"
    result = runner.invoke(app, ["demo", "--game", SANDBOX, "--out", str(out), *args])
    assert result.exit_code == 2, result.output
    assert message in flat(result.output)
    assert not out.exists() or not out.read_bytes()  # refused before anything is logged


def test_an_unknown_game_and_an_unknown_bot_are_usage_errors(tmp_path: Path) -> None:
    unknown = runner.invoke(app, ["demo", "--game", "chess"])
    assert unknown.exit_code == 2 and "no rule system 'chess'" in unknown.output
    bot = runner.invoke(app, ["demo", "--bot", "oracle", "--out", str(tmp_path / "x.jsonl")])
    assert bot.exit_code == 2 and "(it has heuristic, random, search)" in flat(bot.output)


def test_option_sets_any_header_option(tmp_path: Path) -> None:
    out = tmp_path / "cubes.jsonl"
    result = runner.invoke(
        app, ["demo", "--turns", "2", "--option", "dominance_cubes=2", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert b'"dominance_cubes":2' in out.read_bytes().splitlines()[0]
    assert "dominance cubes 2" in result.output


def test_systems_add_their_own_commands_through_the_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    from nataterra_core.kernel import registry

    def tally(count: int = 1) -> None:
        """A toy game's own command."""
        typer.echo(f"tallied {count}")

    scores = typer.Typer(name="scores", help="A toy game's sub-app.")

    @scores.command("best")
    def best() -> None:
        typer.echo("best score 9")

    @scores.command("worst")
    def worst() -> None:
        typer.echo("worst score 0")

    toy = attrs.evolve(
        system(SANDBOX),
        rules=RulesRef(id="toy", version=1),
        hooks=Hooks(cli_commands=lambda: [tally, scores]),
    )
    monkeypatch.setitem(registry._SYSTEMS, "toy", toy)
    built = build_app()
    result = runner.invoke(built, ["tally", "--count", "3"])
    assert result.exit_code == 0 and "tallied 3" in result.output
    result = runner.invoke(built, ["scores", "best"])
    assert result.exit_code == 0 and "best score 9" in result.output
    assert runner.invoke(built, ["odds", "--help"]).exit_code == 0  # Nataterra's still there

    clash: RuleSystem = attrs.evolve(toy, hooks=Hooks(cli_commands=lambda: [tally, tally]))
    monkeypatch.setitem(registry._SYSTEMS, "toy", clash)
    with pytest.raises(ValueError, match="'tally'"):
        system_commands()
    assert runner.invoke(build_app(), ["tally"]).exit_code != 0  # refused, not shadowed


def test_a_valid_verdict_states_the_result_in_the_systems_words(
    battle_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Shouting:
        """A presenter that words outcomes its own way (the rest is never called here)."""

        def outcome(self, outcome: object) -> str:
            return "A BATTLE WAS WON"

    verdict = verify_log(battle_log.read_bytes())
    assert verdict.result is not None
    shouted = verdict_line("b.jsonl", verdict, Shouting())  # type: ignore[arg-type]
    assert shouted.endswith("records, A BATTLE WAS WON")
    plain = verdict_line("b.jsonl", verdict)  # the system unknown: the kernel's words
    assert plain.endswith(
        "records, won by "
        + ", ".join(verdict.result.winners)
        + " (battle won)"
        + "; scores "
        + ", ".join(f"{s} {n}" for s, n in verdict.result.scores.items())
    )
    # nataterra verify finds the presenter through the log's header.
    monkeypatch.setattr(system(SANDBOX).presenter, "outcome", lambda outcome: "SANDBOX WORDS")
    result = runner.invoke(app, ["verify", str(battle_log)])
    assert result.exit_code == 0 and "records, SANDBOX WORDS" in result.output, result.output
