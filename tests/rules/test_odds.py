"""The battle calculator (``nataterra_core.games.nataterra.odds``), battle descriptions, ``nataterra
odds`` and ``examples/battle_calculator.py``."""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest
from nataterra_adapters.cli import EXIT_CODES, app
from typer.testing import CliRunner

from nataterra_core.games.nataterra.battles import (
    BattleError,
    decode_battle,
    encode_battle,
    load_battle,
)
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.odds import OddsReport, play_battle, simulate, wilson_interval
from nataterra_core.games.nataterra.rules.combat.model import Combat
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.rules.combat.sandbox import Battle, ForceSpec
from nataterra_core.kernel import Command

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STANDARD = EXAMPLES / "standard_battle.json"

# Small and even enough that both sides win sometimes.
SKIRMISH = Battle(
    attacker="velathi",
    defender="beasts",
    biome="forest",
    forces=(
        ForceSpec("velathi", "zealot", 3, "a"),
        ForceSpec("velathi", "hunter", 2),
        ForceSpec("beasts", "orc", 3),
        ForceSpec("beasts", "goblin", 2, "b"),
    ),
    stocks={},
)


@pytest.fixture(scope="module")
def skirmish_report() -> OddsReport:
    return simulate(SKIRMISH, 150, seed=11)


def starts(battle: Battle) -> dict[tuple[str, str], int]:
    counts: dict[tuple[str, str], int] = {}
    for spec in battle.forces:
        counts[spec.owner, spec.unit] = counts.get((spec.owner, spec.unit), 0) + spec.count
    return counts


# -- the calculator ---------------------------------------------------------------------------


def test_the_report_does_not_depend_on_the_number_of_workers() -> None:
    pack = load_pack()
    # Retreating policies, so the retreat path runs in the workers too.
    policies = {seat: DefaultPolicy(pack, retreat_below=0.9) for seat in ("velathi", "beasts")}
    one = simulate(SKIRMISH, 80, seed=3, workers=1, policies=policies)
    two = simulate(SKIRMISH, 80, seed=3, workers=2, policies=policies)
    assert one == two
    assert msgspec.json.encode(one) == msgspec.json.encode(two)


def test_same_seed_same_report_and_runs_are_replayable(skirmish_report: OddsReport) -> None:
    assert simulate(SKIRMISH, 150, seed=11) == skirmish_report
    ticks: list[int] = []
    first = simulate(SKIRMISH, 1, seed=11, progress=ticks.append)
    assert ticks == [1]
    alone = play_battle(SKIRMISH, 0, seed=11)
    assert alone.result is not None
    expected = {"velathi": first.attacker_wins.count, "beasts": first.defender_wins.count}
    assert expected.get(alone.result.winner or "", 0) == 1 or first.no_winner.count == 1


def test_probabilities_sum_to_one_and_intervals_hold_them(skirmish_report: OddsReport) -> None:
    report = skirmish_report
    outcomes = (report.attacker_wins, report.defender_wins, report.no_winner)
    assert sum(e.count for e in outcomes) == report.runs == 150
    assert sum(e.p for e in outcomes) == pytest.approx(1.0)
    assert report.attacker_wins.count > 0 and report.defender_wins.count > 0
    for estimate in (*outcomes, *(side.retreated for side in report.losses)):
        assert 0.0 <= estimate.low <= estimate.p <= estimate.high <= 1.0
        assert estimate.p == estimate.count / report.runs
    assert report.mean_rounds >= 1
    assert report.confidence == 0.95


def test_survivors_and_losses_add_up(skirmish_report: OddsReport) -> None:
    report = skirmish_report
    start = starts(SKIRMISH)
    assert [(u.owner, u.unit) for u in report.survivors] == list(start)
    gone: dict[str, float] = {}
    for unit in report.survivors:
        assert unit.start == start[unit.owner, unit.unit]
        assert 0.0 <= unit.mean <= unit.start
        gone[unit.owner] = gone.get(unit.owner, 0.0) + unit.start - unit.mean
    for side in report.losses:  # without a map, every unit lost was killed or injured
        assert side.mean_lost == pytest.approx(side.mean_killed + side.mean_injured)
        assert side.mean_lost == pytest.approx(gone[side.owner])


def test_retreating_units_leave_as_survivors() -> None:
    pack = load_pack()
    # The defender always has fewer units than 100x the attacker's: it retreats after round 1.
    policies = {"beasts": DefaultPolicy(pack, retreat_below=100.0)}
    report = simulate(SKIRMISH, 40, seed=2, policies=policies)
    defender = report.losses[1]
    assert defender.owner == "beasts"
    assert defender.retreated.count == 40
    assert report.attacker_wins.count == 40
    beasts = [u for u in report.survivors if u.owner == "beasts"]
    assert sum(u.mean for u in beasts) > 0
    assert sum(u.start - u.mean for u in beasts) == pytest.approx(defender.mean_lost)


def test_the_standard_battle_from_its_json_file() -> None:
    battle = load_battle(STANDARD)
    assert decode_battle(encode_battle(battle)) == battle
    assert len(battle.forces) == 8
    report = simulate(battle, 30, seed=1)
    assert report.runs == 30
    assert [u.start for u in report.survivors] == [3, 3, 2, 3, 3, 4, 3, 3]


def test_wilson_interval() -> None:
    low, high = wilson_interval(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(20, 20)[1] == 1.0
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


class _Local:
    """A policy defined in a function: it cannot be pickled."""

    def choose(self, combat: Combat, seat: str, options: Sequence[Command]) -> Command:
        return options[0]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="runs"):
        simulate(SKIRMISH, 0)
    with pytest.raises(ValueError, match="workers"):
        simulate(SKIRMISH, 10, workers=0)
    with pytest.raises(ValueError, match="seed"):
        simulate(SKIRMISH, 10, seed=-1)

    def unpicklable() -> _Local:
        class Inner(_Local):
            pass

        return Inner()

    with pytest.raises(ValueError, match="picklable"):
        simulate(SKIRMISH, 10, workers=2, policies={"velathi": unpicklable()})


# -- descriptions -----------------------------------------------------------------------------

GOOD = {
    "attacker": "velathi",
    "defender": "beasts",
    "biome": "hills",
    "forces": [
        {"owner": "velathi", "unit": "zealot", "count": 3, "side": "a"},
        {"owner": "beasts", "unit": "orc", "count": 2},
    ],
}


def with_change(path: Sequence[str | int], value: object) -> dict[str, object]:
    data = json.loads(json.dumps(GOOD))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            with_change(["forces", 0, "count"], "3"),
            "Expected `int`, got `str` - at `$.forces[0].count`",
        ),
        (with_change(["forces", 1, "side"], "c"), "at `$.forces[1].side`"),
        (with_change(["forces", 0, "colour"], "red"), "unknown field `colour` - at `$.forces[0]`"),
        (with_change(["forces", 1, "unit"], "orcs"), "unknown unit 'orcs' - at `$.forces[1].unit`"),
        (with_change(["forces", 1, "owner"], "velathi"), "at `$.forces[1].unit`"),
        (with_change(["forces", 0, "count"], 0), "at least 1, got 0 - at `$.forces[0].count`"),
        (with_change(["defender"], "elves"), "unknown civilisation 'elves' - at `$.defender`"),
        (with_change(["biome"], "tundra"), "at `$.biome`"),
        (with_change(["biome_card"], "no_such_card"), "at `$.biome_card`"),
        (with_change(["stocks"], {"velathi": {"food": -1}}), "at `$.stocks.velathi.food`"),
        (with_change(["forces"], [GOOD["forces"][0]]), "beasts has no units"),
        ({"attacker": "velathi"}, "missing required field `defender`"),
    ],
)
def test_bad_descriptions_name_the_field(data: dict[str, object], message: str) -> None:
    with pytest.raises(BattleError) as caught:
        decode_battle(json.dumps(data), source="battle.json")
    assert str(caught.value).startswith("battle.json: ")
    assert message in str(caught.value)


def test_a_biome_card_must_match_the_zone(tmp_path: Path) -> None:
    card = next(c for c in load_pack().biome_cards.values() if c.biome == "desert")
    assert decode_battle(json.dumps(with_change(["biome"], "desert") | {"biome_card": card.id}))
    with pytest.raises(BattleError, match="is a desert card, the zone is hills"):
        decode_battle(json.dumps(GOOD | {"biome_card": card.id}))


def test_load_battle_reports_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(BattleError, match="cannot read the file"):
        load_battle(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"attacker": ')
    with pytest.raises(BattleError, match=r"broken\.json: Input data was truncated"):
        load_battle(broken)
    broken.write_text('{"attacker": velathi}')
    with pytest.raises(BattleError, match=r"broken\.json: JSON is malformed"):
        load_battle(broken)


# -- command line and example -----------------------------------------------------------------


def test_cli_odds_json_is_independent_of_workers(tmp_path: Path) -> None:
    runner = CliRunner()
    path = tmp_path / "skirmish.json"
    path.write_bytes(encode_battle(SKIRMISH))
    args = ["odds", str(path), "--runs", "60", "--seed", "4", "--json"]
    one = runner.invoke(app, args)
    two = runner.invoke(app, [*args, "--workers", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    report = msgspec.json.decode(one.stdout.strip().splitlines()[-1], type=OddsReport)
    assert report == msgspec.json.decode(two.stdout.strip().splitlines()[-1], type=OddsReport)
    assert report == simulate(SKIRMISH, 60, seed=4)


def test_cli_odds_tables_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["odds", str(STANDARD), "--runs", "20", "--retreat-below", "0.5"])
    assert result.exit_code == 0, result.output
    for text in ("velathi wins", "beasts wins", "no winner", "95% interval", "hunter", "retreated"):
        assert text in result.stdout
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(with_change(["forces", 0, "count"], "3")))
    result = runner.invoke(app, ["odds", str(bad), "--runs", "5"])
    assert result.exit_code == 1
    assert "$.forces[0].count" in result.output


def test_cli_odds_log_dir_writes_the_simulated_runs_as_verifiable_logs(tmp_path: Path) -> None:
    """docs/DICE.md: run i of seed S is the sandbox game with server seed
    sha256("nataterra-odds-v1" || u64be(S) || u64be(i)); its log verifies like any game's."""
    runner = CliRunner()
    path = tmp_path / "skirmish.json"
    path.write_bytes(encode_battle(SKIRMISH))
    logs = tmp_path / "logs"
    args = ["odds", str(path), "--runs", "12", "--seed", "5", "--retreat-below", "0.5"]
    result = runner.invoke(app, [*args, "--json", "--log-dir", str(logs)])
    assert result.exit_code == 0, result.output
    report = msgspec.json.decode(result.stdout.strip().splitlines()[-1], type=OddsReport)
    names = sorted(p.name for p in logs.iterdir())
    assert names == sorted(f"skirmish-seed-5-run-{i}.jsonl" for i in range(12))
    pack = load_pack()
    policies = {seat: DefaultPolicy(pack, 0.5) for seat in ("velathi", "beasts")}
    winners: list[str | None] = []
    for run in range(12):
        lines = (logs / f"skirmish-seed-5-run-{run}.jsonl").read_bytes().splitlines()
        assert b'"id":"nataterra-combat-sandbox"' in lines[0]
        reveal, end = json.loads(lines[-2]), json.loads(lines[-1])
        assert (reveal["kind"], end["kind"]) == ("reveal", "end")
        seed = hashlib.sha256(b"nataterra-odds-v1" + struct.pack(">QQ", 5, run)).hexdigest()
        assert reveal["server_seed"] == seed
        logged = end["result"]["winners"]
        simulated = play_battle(SKIRMISH, run, seed=5, policies=policies).result
        assert simulated is not None
        assert logged == ([simulated.winner] if simulated.winner else [])
        winners.append(simulated.winner)
    assert winners.count("velathi") == report.attacker_wins.count
    assert winners.count("beasts") == report.defender_wins.count
    assert 0 < report.attacker_wins.count < 12  # both sides win: a forged winner shows
    # The same report as without --log-dir: writing logs changes nothing.
    plain = runner.invoke(app, [*args, "--json"])
    assert msgspec.json.decode(plain.stdout.strip().splitlines()[-1], type=OddsReport) == report

    every = [str(p) for p in sorted(logs.iterdir())]
    verified = runner.invoke(app, ["verify", *every])
    assert verified.exit_code == 0, verified.output
    assert verified.output.count("INVALID") == 0 and verified.output.count("VALID ") == 12

    # Forge one winner: edit the end record, fix nothing else.
    victim = logs / "skirmish-seed-5-run-0.jsonl"
    data = victim.read_bytes()
    head, _, last = data.rstrip(b"\n").rpartition(b"\n")
    claimed = json.loads(last)["result"]["winners"]
    other = [{"velathi": "beasts", "beasts": "velathi"}[w] for w in claimed] or ["velathi"]
    forged = last.replace(
        b'"winners":' + json.dumps(claimed, separators=(",", ":")).encode(),
        b'"winners":' + json.dumps(other, separators=(",", ":")).encode(),
    )
    assert forged != last and json.loads(forged)["result"]["winners"] == other
    victim.write_bytes(head + b"\n" + forged + b"\n")
    caught = runner.invoke(app, ["verify", *every])
    assert caught.exit_code in (EXIT_CODES["replay"], EXIT_CODES["chain"]), caught.output
    assert caught.output.count("\nVALID ") + caught.output.startswith("VALID ") == 11
    assert "INVALID (replay)" in caught.output or "INVALID (chain)" in caught.output


def test_the_example_script_runs() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "battle_calculator.py"), "--runs", "30", "--workers", "2"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == "velathi attacks beasts: 30 battles"
    assert lines[1].startswith("velathi wins: ") and "95% CI" in lines[1]
    assert lines[-1].startswith("beasts woodcutter: ") and lines[-1].endswith(" of 3 survive")
