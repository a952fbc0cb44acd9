"""The battle calculator: win odds and expected survivors of a battle, by simulation.

    >>> from nataterra_core.games.nataterra.battles import decode_battle
    >>> battle = decode_battle(
    ...     '{"attacker": "velathi", "defender": "beasts", "biome": "hills", "forces": ['
    ...     '{"owner": "velathi", "unit": "zealot", "count": 3, "side": "a"},'
    ...     '{"owner": "beasts", "unit": "orc", "count": 3}]}'
    ... )
    >>> report = simulate(battle, 40, seed=1)
    >>> report.runs, round(report.attacker_wins.p + report.defender_wins.p + report.no_winner.p, 9)
    (40, 1.0)

Every run plays the battle in the combat sandbox (the game's own combat flow, no map, so a
retreating side's units leave the combat as survivors) with real ``nataterra-dice-v1``
dice: run ``i`` of seed ``S`` uses ``server_seed = odds_seed(S, i)`` (docs/DICE.md) and
game id ``odds-S-i``. A run's result therefore depends only on ``(S, i)``, the battle and
the policies, and runs are tallied in integers, so the report is identical however the
runs are split across worker processes. ``docs/COMBAT_SANDBOX.md`` is the reference.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, wait
from pathlib import Path

import msgspec

from nataterra_core.games.nataterra.battles import BattleError, load_battle
from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.games.nataterra.messages.combat import UnitsRetreated
from nataterra_core.games.nataterra.messages.sandbox import StartBattle
from nataterra_core.games.nataterra.rules.combat.policies import CombatPolicy, DefaultPolicy
from nataterra_core.games.nataterra.rules.combat.sandbox import Sandbox
from nataterra_core.games.nataterra.rules.combat.sandbox_model import (
    Battle,
    SandboxState,
    battle_option,
)
from nataterra_core.kernel import Command, DiceStream, Event, LineSink, Session, Setup, odds_seed
from nataterra_core.tools.stats import wilson_interval
from nataterra_core.tools.workers import default_workers, guided_chunks, start_pool

__all__ = [
    "CONFIDENCE",
    "BattleError",
    "Estimate",
    "OddsReport",
    "SideLosses",
    "UnitSurvival",
    "load_battle",
    "logged_battle",
    "play_battle",
    "simulate",
    "wilson_interval",
]

CONFIDENCE = 0.95
"""The confidence level of every interval in a report."""

_MAX_CHUNK = 250  # runs per worker task: few round trips, yet a lively progress bar
RUNS_PER_WORKER = 400
"""Runs that repay starting one more worker process (a battle takes about a millisecond)."""


def auto_workers(runs: int) -> int:
    """The default number of worker processes for ``runs`` battles on this machine."""
    return default_workers(runs, jobs_per_worker=RUNS_PER_WORKER)


_START = StartBattle()


class Estimate(msgspec.Struct, frozen=True, kw_only=True):
    """A probability estimated from the runs: ``count`` of them, share ``p``, and its 95 %
    Wilson score interval ``[low, high]``."""

    count: int
    p: float
    low: float
    high: float


class UnitSurvival(msgspec.Struct, frozen=True, kw_only=True):
    """One unit type of one side: ``start`` units went in, ``mean`` were alive after the
    battle on average (units that retreated count as alive)."""

    owner: str
    unit: str
    start: int
    mean: float


class SideLosses(msgspec.Struct, frozen=True, kw_only=True):
    """Mean units one side lost per battle (killed on the boards, lost to injuries) and how
    often it retreated."""

    owner: str
    mean_killed: float
    mean_injured: float
    mean_lost: float
    retreated: Estimate


class OddsReport(msgspec.Struct, frozen=True, kw_only=True):
    """What ``runs`` simulated battles from ``seed`` came to (``msgspec.json.encode`` it).

    ``no_winner`` covers battles that ended with both sides wiped out in the same attack.
    ``survivors`` lists each (owner, unit) of the description in its order.
    """

    runs: int
    seed: int
    attacker: str
    defender: str
    attacker_wins: Estimate
    defender_wins: Estimate
    no_winner: Estimate
    mean_rounds: float
    survivors: tuple[UnitSurvival, ...]
    losses: tuple[SideLosses, ...]
    confidence: float = CONFIDENCE


ProgressCallback = Callable[[int], None]
"""Called with the number of runs just finished (``rich``'s ``progress.advance`` fits)."""


def _estimate(count: int, n: int) -> Estimate:
    low, high = wilson_interval(count, n)
    return Estimate(count=count, p=count / n, low=low, high=high)


# -- one battle ---------------------------------------------------------------------------


class _Tally(msgspec.Struct, kw_only=True):
    """Integer sums over some runs: merging tallies is exact, so chunking cannot show."""

    runs: int = 0
    attacker_wins: int = 0
    defender_wins: int = 0
    rounds: int = 0
    survivors: dict[str, int] = msgspec.field(default_factory=dict)  # "owner/unit" → units
    killed: dict[str, int] = msgspec.field(default_factory=dict)
    injured: dict[str, int] = msgspec.field(default_factory=dict)
    retreats: dict[str, int] = msgspec.field(default_factory=dict)

    def merge(self, other: _Tally) -> None:
        self.runs += other.runs
        self.attacker_wins += other.attacker_wins
        self.defender_wins += other.defender_wins
        self.rounds += other.rounds
        for mine, theirs in (
            (self.survivors, other.survivors),
            (self.killed, other.killed),
            (self.injured, other.injured),
            (self.retreats, other.retreats),
        ):
            for key, n in theirs.items():
                mine[key] = mine.get(key, 0) + n


class _Runner:
    """Plays runs of one battle with fixed policies; one per process."""

    def __init__(
        self, battle: Battle, pack: ContentPack, policies: Mapping[str, CombatPolicy] | None
    ) -> None:
        self.sandbox = Sandbox(pack)
        seats = (battle.attacker, battle.defender)
        # The sandbox's own set-up, once: it validates the battle exactly as a log would.
        self.start: SandboxState = self.sandbox.initial_state(
            Setup(game_id="odds", seats=seats, options={"battle": battle_option(battle)})
        )
        given = policies or {}
        self.policies: dict[str, CombatPolicy] = {
            seat: given[seat] if seat in given else DefaultPolicy(pack) for seat in seats
        }

    def play(self, seed: int, run: int) -> tuple[SandboxState, dict[str, int]]:
        """Run ``run`` of ``seed``: the final state and the units that retreated alive."""
        server_seed = odds_seed(seed, run)
        game_id = f"odds-{seed}-{run}"
        sandbox = self.sandbox
        dice = DiceStream(server_seed, game_id, "")
        left: dict[str, int] = {}
        state = self.start
        try:
            decided = sandbox.decide(state, _START, dice, seat=None)
            state, decision = decided.state, decided.decision
            while state.result is None:
                if decision is None:
                    decision = sandbox.decision(state)
                if not decision.acting:
                    raise RuntimeError("the combat waits for nobody but has not ended")
                seat = decision.acting[0]
                options = decision.legal(seat)
                command = self.policies[seat].choose(state.combat, seat, options)  # type: ignore[arg-type]
                if dice.counter != state.counter:  # the state's counter is authoritative
                    dice = DiceStream(server_seed, game_id, "", state.counter)
                # A policy's pick from the list is accepted by membership, as the session does.
                listed = command in options
                decided = sandbox.decide(state, command, dice, seat=seat, legal=listed)
                state, decision = decided.state, decided.decision
                for event in decided.events:
                    if type(event) is UnitsRetreated and not event.lost:
                        key = f"{event.seat}/{event.unit}"
                        left[key] = left.get(key, 0) + event.count
        except Exception as exc:
            exc.add_note(f"in battle-calculator run {run} of seed {seed} (game id {game_id})")
            raise
        return state, left

    def tally(self, seed: int, runs: range, progress: ProgressCallback | None = None) -> _Tally:
        """Play ``runs`` of ``seed`` and sum up what they came to."""
        tally = _Tally()
        battle = self.start.battle
        for run in runs:
            state, left = self.play(seed, run)
            combat, result = state.combat, state.result
            assert combat is not None and result is not None
            tally.runs += 1
            if result.winner == battle.attacker:
                tally.attacker_wins += 1
            elif result.winner == battle.defender:
                tally.defender_wins += 1
            tally.rounds += combat.round
            survivors = tally.survivors
            # Left on the boards, never deployed, or retreated alive: all survived.
            for group in combat.groups:
                if group.units:
                    key = f"{group.owner}/{group.unit}"
                    survivors[key] = survivors.get(key, 0) + group.units
            for force in combat.reserve:
                if force.count:
                    key = f"{force.owner}/{force.unit}"
                    survivors[key] = survivors.get(key, 0) + force.count
            for key, n in left.items():
                survivors[key] = survivors.get(key, 0) + n
            for owner, n in result.killed.items():
                tally.killed[owner] = tally.killed.get(owner, 0) + n
            for owner, n in state.lost_in_retreat.items():  # N-COMBAT-23: no zone to go to
                tally.killed[owner] = tally.killed.get(owner, 0) + n
            for owner, n in result.injured.items():
                tally.injured[owner] = tally.injured.get(owner, 0) + n
            if combat.retreating is not None:
                tally.retreats[combat.retreating] = tally.retreats.get(combat.retreating, 0) + 1
            if progress is not None:
                progress(1)
        return tally


def play_battle(
    battle: Battle,
    run: int = 0,
    *,
    seed: int = 0,
    policies: Mapping[str, CombatPolicy] | None = None,
    pack: ContentPack | None = None,
) -> SandboxState:
    """Play run ``run`` of ``seed`` alone and return the final sandbox state (its
    ``result`` is the :class:`~nataterra_core.games.nataterra.messages.combat.CombatEnded`
    event): the battle :func:`simulate` counts as that run."""
    _check_seed(seed)
    return _Runner(battle, pack or load_pack(), policies).play(seed, run)[0]


def logged_battle(
    battle: Battle,
    run: int = 0,
    *,
    seed: int = 0,
    policies: Mapping[str, CombatPolicy] | None = None,
    pack: ContentPack | None = None,
    sink: LineSink | None = None,
) -> Session[SandboxState, Command, Event]:
    """Play run ``run`` of ``seed`` as a logged combat-sandbox game, closed (reveal, end).

    The same battle :func:`simulate` counts as that run — the same server seed
    (``odds_seed(seed, run)``), game id and policies — but through a kernel session, so its
    log (written line by line to ``sink``) verifies like any game's and lets anyone audit a
    calculator run with ``nataterra verify``.
    """
    _check_seed(seed)
    runner = _Runner(battle, pack or load_pack(), policies)
    session: Session[SandboxState, Command, Event] = Session.new(
        runner.sandbox,
        seats=(battle.attacker, battle.defender),
        server_seed=odds_seed(seed, run),
        game_id=f"odds-{seed}-{run}",
        options={"battle": battle_option(battle)},
        sink=sink,
    )
    while session.outcome() is None:
        seat = session.acting_seats()[0]
        legal = session.legal_commands(seat)
        combat = session.state.combat
        session.apply(seat, runner.policies[seat].choose(combat, seat, legal))  # type: ignore[arg-type]
    session.close()
    return session


# -- many battles -------------------------------------------------------------------------

_worker: _Runner | None = None


def _start_worker(
    battle: Battle, overlay: Path | None, policies: Mapping[str, CombatPolicy] | None
) -> None:
    global _worker
    _worker = _Runner(battle, load_pack(overlay), policies)


def _worker_tally(seed: int, start: int, stop: int) -> _Tally:
    assert _worker is not None, "the pool initialiser has not run"
    return _worker.tally(seed, range(start, stop))


def _check_seed(seed: int) -> None:
    if not 0 <= seed < 1 << 64:  # odds_seed packs it as a u64
        raise ValueError(f"seed must be in 0..2**64-1, got {seed}")


def simulate(
    battle: Battle,
    runs: int,
    *,
    seed: int = 0,
    workers: int = 1,
    policies: Mapping[str, CombatPolicy] | None = None,
    progress: ProgressCallback | None = None,
    pack: ContentPack | Path | None = None,
) -> OddsReport:
    """Play ``battle`` ``runs`` times and report the odds.

    Args:
        battle: the battle (see :func:`~nataterra_core.games.nataterra.battles.load_battle`).
        runs: how many battles to play (runs ``0 .. runs-1`` of ``seed``).
        seed: the calculator seed; equal seeds give equal reports.
        workers: processes to play in (1: this one). The report does not depend on it.
        policies: a policy per seat; a seat left out plays :class:`DefaultPolicy`, which
            never retreats. With ``workers`` > 1 they are pickled into each worker, so
            they must be picklable (instances of module-level classes), and to keep the
            report independent of ``workers`` they must not carry state from one battle
            to the next.
        progress: called with the number of runs just finished.
        pack: the content pack, or a user pack's directory (overlaid on the provisional
            pack); default the provisional pack. A loaded pack cannot travel to worker
            processes, so with ``workers`` > 1 pass a user pack as its directory.

    Raises:
        ValueError: bad ``runs``, ``workers``, ``seed``, policies or pack, or a battle the
            sandbox refuses.
    """
    if runs < 1:
        raise ValueError(f"runs must be at least 1, got {runs}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    _check_seed(seed)
    overlay = Path(pack) if isinstance(pack, str | Path) else None
    loaded = load_pack(overlay) if overlay is not None or pack is None else pack
    assert isinstance(loaded, ContentPack)
    runner = _Runner(battle, loaded, policies)  # validates before any worker starts
    chunks = guided_chunks(runs, workers, largest=_MAX_CHUNK)
    if workers == 1 or len(chunks) == 1:
        tally = runner.tally(seed, range(runs), progress)
    else:
        if overlay is None and loaded.sha256 != load_pack().sha256:
            raise ValueError(
                "a loaded user pack cannot be sent to worker processes: pass its directory "
                "as pack=Path(...), or use workers=1"
            )
        if policies is not None:
            try:
                pickle.dumps(dict(policies))
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                raise ValueError(
                    f"policies must be picklable for workers > 1 (module-level classes): {exc}"
                ) from exc
        tally = _in_pool(
            battle, overlay, policies, seed, chunks, min(workers, len(chunks)), progress
        )
    return _report(battle, seed, tally)


def _in_pool(
    battle: Battle,
    overlay: Path | None,
    policies: Mapping[str, CombatPolicy] | None,
    seed: int,
    chunks: list[range],
    workers: int,
    progress: ProgressCallback | None,
) -> _Tally:
    """Tally ``chunks`` of runs in ``workers`` processes."""
    total = _Tally()
    # Workers fork from this process if it runs one thread, else from a server that has
    # imported this module (a progress bar's thread may run here): see tools.workers.
    initargs = (battle, overlay, dict(policies) if policies is not None else None)
    with start_pool(workers, [__name__], _start_worker, initargs) as pool:
        pending: dict[Future[_Tally], int] = {
            pool.submit(_worker_tally, seed, chunk.start, chunk.stop): len(chunk)
            for chunk in chunks
        }
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                total.merge(future.result())  # integer sums: arrival order cannot matter
                size = pending.pop(future)
                if progress is not None:
                    progress(size)
    return total


def _report(battle: Battle, seed: int, tally: _Tally) -> OddsReport:
    runs = tally.runs
    starts: dict[str, int] = {}
    for spec in battle.forces:
        key = f"{spec.owner}/{spec.unit}"
        starts[key] = starts.get(key, 0) + spec.count
    survivors = tuple(
        UnitSurvival(
            owner=key.split("/")[0],
            unit=key.split("/")[1],
            start=start,
            mean=tally.survivors.get(key, 0) / runs,
        )
        for key, start in starts.items()
    )
    losses = tuple(
        SideLosses(
            owner=side,
            mean_killed=tally.killed.get(side, 0) / runs,
            mean_injured=tally.injured.get(side, 0) / runs,
            mean_lost=(tally.killed.get(side, 0) + tally.injured.get(side, 0)) / runs,
            retreated=_estimate(tally.retreats.get(side, 0), runs),
        )
        for side in (battle.attacker, battle.defender)
    )
    return OddsReport(
        runs=runs,
        seed=seed,
        attacker=battle.attacker,
        defender=battle.defender,
        attacker_wins=_estimate(tally.attacker_wins, runs),
        defender_wins=_estimate(tally.defender_wins, runs),
        no_winner=_estimate(runs - tally.attacker_wins - tally.defender_wins, runs),
        mean_rounds=tally.rounds / runs,
        survivors=survivors,
        losses=losses,
    )
