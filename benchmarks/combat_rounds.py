"""Combat battles per CPU second: the engine against a lean hand-written reference reducer.

    python benchmarks/combat_rounds.py [--seconds S] [--pairs N] [--cachegrind-battles N]

The standard battle (issue 4): Velathi 3 Disciples, 3 Zealots with Retaliation, 2 Cave
Golems, 3 Hunters against Beasts 3 Orcs with Heal 2, 4 Goblins with Pierce, 3 Ditchers,
3 Woodcutters, in a hills zone, no biome card, no tactic cards, default policies that
never retreat. The engine is driven exactly as the session drives it: the decision →
policy → ``decide``, which hands back the events folded into the next state together with
that state's decision (``Decided``), real dice, combat set-up and end included. The reference
plays the same battle (same abilities, same dice stream, same targeting policy) with
plain lists: no validation, no choices, no events.

Both sides play the same battles (battle *i* from seed *i*: the same groups in the same
order, the same attacks, a test checks it) and count rounds the same way (a round counts
once every living group has had its turn; the round in which a side is wiped out does not
end, N-COMBAT-25); they are compared per battle, in
interleaved pairs timed by CPU time (``pairs.py``), each turn about ``--seconds`` of the
engine's CPU time. The last line is ``combat_ratio=<median>`` with its range, ``combat_ratio``
being reference battles per CPU second ÷ engine battles per CPU second; the line before
keeps the earlier figures' names (rounds per second and their ``ratio``, as medians). With
valgrind installed, each side's instructions per battle are counted under cachegrind (a
process playing N battles minus one playing none, with a fixed string hash seed), which load
on the machine leaves unchanged. A first pass times each step (legal list and policy,
decide, evolve, per kind of decision) to show where the time goes; the headline figures
come from untimed passes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pairs import MIN_PAIRS, build_name, interleaved, load_note, summary

from nataterra_core.games.nataterra.content import load_pack
from nataterra_core.games.nataterra.content.schema import ContentPack
from nataterra_core.games.nataterra.messages.combat import RoundEnded
from nataterra_core.games.nataterra.messages.sandbox import StartBattle
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.rules.combat.sandbox import (
    Battle,
    ForceSpec,
    Sandbox,
    battle_option,
)
from nataterra_core.kernel import DiceStream, Setup, seed_from_number

STANDARD_BATTLE = Battle(
    attacker="velathi",
    defender="beasts",
    biome="hills",
    forces=(
        ForceSpec("velathi", "disciple", 3),
        ForceSpec("velathi", "zealot", 3, "a"),  # Retaliation
        ForceSpec("velathi", "cave_golem", 2),
        ForceSpec("velathi", "hunter", 3),
        ForceSpec("beasts", "orc", 3, "b"),  # Heal 2
        ForceSpec("beasts", "goblin", 4, "a"),  # Pierce
        ForceSpec("beasts", "ditcher", 3),
        ForceSpec("beasts", "woodcutter", 3),
    ),
)
SEATS = ("velathi", "beasts")
VALGRIND = shutil.which("valgrind")


class Profile:
    """Where the engine's time goes, measured in a pass of its own (timing every step
    costs time too, so the headline figure comes from an untimed pass)."""

    def __init__(self) -> None:
        self.stages = {"legal": 0.0, "decide": 0.0, "evolve": 0.0}
        self.by_command: dict[str, list[float]] = {}  # kind -> [decisions, seconds]

    def add(self, command: object, legal: float, decide: float, evolve: float) -> None:
        self.stages["legal"] += legal
        self.stages["decide"] += decide
        self.stages["evolve"] += evolve
        kind = self.by_command.setdefault(type(command).__name__, [0, 0.0])
        kind[0] += 1
        kind[1] += legal + decide + evolve


def engine_battles(
    decider: Sandbox, policy: DefaultPolicy, seeds: range, profile: Profile | None = None
) -> int:
    """Rounds the engine plays over the battles of ``seeds`` (battle *i* from seed *i*); with
    ``profile`` each decision's legal list + policy, decide and evolve are timed into it."""
    options = {"battle": battle_option(STANDARD_BATTLE)}
    clock = time.perf_counter
    rounds = 0
    for battle in seeds:
        server_seed, game_id = seed_from_number(battle)
        state = decider.initial_state(Setup(game_id=game_id, seats=SEATS, options=options))
        dice = DiceStream(server_seed, game_id, "", 0)
        decided = decider.decide(state, StartBattle(), dice, seat=None)
        state, decision = decided.state, decided.decision
        while state.result is None:
            t0 = clock() if profile else 0.0
            if decision is None:  # as the session does: asked only when decide did not say
                decision = decider.decision(state)
            seat = decision.acting[0]
            legal = decision.legal(seat)
            command = policy.choose(state.combat, seat, legal)  # type: ignore[arg-type]
            t1 = clock() if profile else 0.0
            dice = DiceStream(server_seed, game_id, "", state.counter)
            decided = decider.decide(state, command, dice, seat=seat, legal=True)
            t2 = clock() if profile else 0.0
            # The state comes folded with the events (``Decided``), as the session takes it.
            state, decision = decided.state, decided.decision
            for event in decided.events:
                if type(event) is RoundEnded:
                    rounds += 1
            if profile:
                profile.add(command, t1 - t0, t2 - t1, clock() - t2)
    return rounds


# -- the reference: the same battle, hand-written ------------------------------------------

# Group fields, by index, for speed: a list per group.
OWNER, UNITS, ATTACK, ARMOR, HEALTH, DAMAGE, ATK_BONUS, ARM_BONUS = range(8)
INIT, RANGED, PIERCE, HEAL, RETALIATION, ACTED = range(8, 14)


def reference_groups(pack: ContentPack) -> list[list[int]]:
    """The standard battle's groups in the order the engine deploys them, which is the order
    of its group ids (ties on initiative and on a target's health go to the first): the
    attacker's side, then the defender's (N-COMBAT-4), each side as the default policy
    places its groups: the largest group it can form first, the first waiting unit type
    (the combat's reserve is sorted by unit) on ties."""
    groups: list[list[int]] = []
    for owner in (STANDARD_BATTLE.attacker, STANDARD_BATTLE.defender):
        specs = sorted(
            (s for s in STANDARD_BATTLE.forces if s.owner == owner), key=lambda s: s.unit
        )
        waiting = {spec.unit: spec.count for spec in specs}
        sides = {spec.unit: spec.side for spec in specs}
        while waiting:
            sizes = {name: min(n, pack.units[name].group_size) for name, n in waiting.items()}
            name = max(sizes, key=lambda name: sizes[name])  # the first of the largest
            size, side = sizes[name], sides[name]
            waiting[name] -= size
            if not waiting[name]:
                del waiting[name]
            unit = pack.units[name]
            card = unit.side(side or "a")
            tech = side is not None
            groups.append(
                [
                    0 if owner == STANDARD_BATTLE.attacker else 1,
                    size,
                    card.attack,
                    card.armor,
                    card.health,
                    0,
                    0,
                    0,
                    unit.initiative,
                    int(unit.class_ == "ranged"),
                    card.ability_level("pierce", with_tech=tech),
                    card.ability_level("heal", with_tech=tech),
                    card.ability_level("retaliation", with_tech=tech),
                    0,
                ]
            )
    return groups


def reference_battle(
    template: list[list[int]], faces: list[tuple[int, int]], dice: DiceStream
) -> int:
    """Play one battle; return the rounds played to their end (the engine's ``RoundEnded``
    events: the round in which a side is wiped out does not end, N-COMBAT-25). Like
    the reference reducer of docs/ARCHITECTURE.md §7 it appends one event (a plain tuple) per
    attack and per round."""
    groups = [list(g) for g in template]
    events: list[tuple[int, ...]] = []
    beasts_bloodthirst = 1  # the defender is the Beasts
    rounds = 0
    order = sorted(range(len(groups)), key=lambda i: (-groups[i][INIT], groups[i][OWNER]))
    melee = [[g for g in groups if g[OWNER] == side and not g[RANGED]] for side in (0, 1)]
    while True:
        for g in groups:
            g[ACTED] = 0
        for i in order:
            me = groups[i]
            if not me[UNITS]:
                continue
            enemies = [g for g in groups if g[UNITS] and g[OWNER] != me[OWNER]]
            if me[HEAL]:
                friends = [g for g in groups if g[UNITS] and g[OWNER] == me[OWNER]]
                worst = max(friends, key=lambda g: g[DAMAGE])
                worst[DAMAGE] = max(0, worst[DAMAGE] - me[UNITS] * me[HEAL])
            if not me[RANGED]:
                enemies = [g for g in enemies if not g[RANGED]] or enemies
            target = min(enemies, key=lambda g: g[UNITS] * g[HEALTH] - g[DAMAGE])
            value, swords = faces[dice.draw(10)]
            total = me[ATTACK] * me[UNITS] + me[ATK_BONUS] + value
            me[ATK_BONUS] = swords
            p = me[UNITS] * me[PIERCE]
            armor = max(0, target[ARMOR] - p)
            d = total - armor
            if d > 0 and target[ARM_BONUS]:
                d -= max(0, target[ARM_BONUS] - max(0, p - target[ARMOR]))
                target[ARM_BONUS] = 0
            d = max(0, d)
            before = target[UNITS]
            target[DAMAGE] += d
            dead = min(target[UNITS], target[DAMAGE] // target[HEALTH])
            target[UNITS] -= dead
            target[DAMAGE] = 0 if not target[UNITS] else target[DAMAGE] - dead * target[HEALTH]
            if d and target[UNITS] and target[OWNER] == 1:
                target[ATK_BONUS] += beasts_bloodthirst
            retaliation = 0
            # N-ABL-9: the target strikes back if it could attack the attacker (N-COMBAT-13:
            # a melee group reaches a ranged group once that side has no melee group left).
            if target[RETALIATION] and (
                target[RANGED] or not me[RANGED] or not any(g[UNITS] for g in melee[me[OWNER]])
            ):
                retaliation = before * target[RETALIATION]
                me[DAMAGE] += retaliation
                dead = min(me[UNITS], me[DAMAGE] // me[HEALTH])
                me[UNITS] -= dead
                me[DAMAGE] = 0 if not me[UNITS] else me[DAMAGE] - dead * me[HEALTH]
            events.append((i, value, total, d, target[UNITS], retaliation))
            if not (target[UNITS] and me[UNITS]) and not all(
                any(g[UNITS] for g in groups if g[OWNER] == side) for side in (0, 1)
            ):
                return rounds  # decided (N-COMBAT-25): this round does not end, as in the engine
        rounds += 1
        events.append((-1, rounds))


def reference_battles(pack: ContentPack, seeds: range) -> int:
    """Rounds the reference plays over the battles of ``seeds``."""
    template = reference_groups(pack)
    faces = [(f.value, f.swords) for f in pack.die.faces]
    rounds = 0
    for battle in seeds:
        server_seed, game_id = seed_from_number(battle)
        rounds += reference_battle(template, faces, DiceStream(server_seed, game_id, ""))
    return rounds


# -- instructions per battle (cachegrind) ------------------------------------------------------


def instructions(side: str, battles: int) -> int:
    """Instructions this script executes (under cachegrind) to set up and play ``battles``
    battles of ``side`` (``engine`` or ``reference``); 0 battles measures the set-up alone."""
    if VALGRIND is None:
        raise RuntimeError("valgrind is not installed")
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "cachegrind.out"
        subprocess.run(
            [
                VALGRIND,
                "--tool=cachegrind",
                "--cache-sim=no",
                f"--cachegrind-out-file={out}",
                sys.executable,
                __file__,
                "--count",
                side,
                "--battles",
                str(battles),
            ],
            check=True,
            capture_output=True,
            # A fixed string hash seed: with a random one the set-up's instructions vary
            # between processes, and the reference's count per battle moved by up to 6%.
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        for line in out.read_text().splitlines():
            if line.startswith("summary:"):
                return int(line.split()[1])
    raise RuntimeError("cachegrind wrote no summary line")


def count_only(side: str, battles: int) -> None:
    """The process cachegrind counts: the same set-up for both sides, then one side's battles."""
    pack = load_pack()
    decider, policy = Sandbox(pack), DefaultPolicy(pack)
    seeds = range(battles)
    if side == "engine":
        engine_battles(decider, policy, seeds)
    else:
        reference_battles(pack, seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per turn")
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS)
    parser.add_argument(
        "--cachegrind-battles",
        type=int,
        default=60,
        help="battles per side counted under cachegrind (0: skip the count)",
    )
    parser.add_argument("--count", choices=("engine", "reference"), help=argparse.SUPPRESS)
    parser.add_argument("--battles", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.count:
        count_only(args.count, args.battles)
        return
    pack = load_pack()
    decider, policy = Sandbox(pack), DefaultPolicy(pack)

    profile = Profile()
    profiled_rounds = engine_battles(decider, policy, range(100), profile)
    measured = sum(profile.stages.values())
    print(
        "engine time split: "
        + ", ".join(f"{k} {100 * v / measured:.0f}%" for k, v in profile.stages.items())
        + " (legal = acting seat, legal list and policy; decide includes folding)"
    )
    for kind, (count, spent) in sorted(profile.by_command.items(), key=lambda kv: -kv[1][1]):
        print(
            f"  {kind:<12} {count / profiled_rounds:5.2f} per round, "
            f"{1e6 * spent / count:5.1f} µs each, {100 * spent / measured:3.0f}% of the time"
        )

    # The same battles (seeds 0 .. n-1) for both sides in every turn, n sized so that the
    # engine's turn takes about --seconds of CPU time.
    start = time.process_time()
    engine_battles(decider, policy, range(50))
    per_battle = (time.process_time() - start) / 50
    seeds = range(max(20, round(args.seconds / per_battle)))
    rounds = {"engine": engine_battles(decider, policy, seeds), "reference": 0}
    rounds["reference"] = reference_battles(pack, seeds)

    def engine_turn() -> float:
        engine_battles(decider, policy, seeds)
        return len(seeds)

    def reference_turn() -> float:
        reference_battles(pack, seeds)
        return len(seeds)

    rates = interleaved(engine_turn, reference_turn, args.pairs)
    for index, (engine, reference) in enumerate(rates):
        print(
            f"pair {index}: engine {engine:>8,.0f} battles/s, "
            f"reference {reference:>8,.0f} battles/s (CPU time)"
        )
    engine = statistics.median(rate for rate, _ in rates)
    reference = statistics.median(rate for _, rate in rates)
    per = {side: count / len(seeds) for side, count in rounds.items()}
    print(
        f"{len(seeds)} battles per turn; rounds per battle: engine {per['engine']:.2f}, "
        f"reference {per['reference']:.2f}"
    )
    if args.cachegrind_battles and VALGRIND:
        base = instructions("engine", 0)
        counted = {
            side: (instructions(side, args.cachegrind_battles) - base) / args.cachegrind_battles
            for side in ("engine", "reference")
        }
        print(
            f"instructions_per_battle_engine={counted['engine']:.0f} "
            f"instructions_per_battle_reference={counted['reference']:.0f} "
            f"instructions_ratio={counted['engine'] / counted['reference']:.2f}"
        )
    elif args.cachegrind_battles:
        print("instructions per battle: not counted (valgrind is not installed)")
    print(f"build {build_name()}, {load_note()}")
    print(
        f"combat_rounds_per_s={engine * per['engine']:.0f} "
        f"reference_rounds_per_s={reference * per['reference']:.0f} "
        f"ratio={reference * per['reference'] / (engine * per['engine']):.2f} "
        f"combat_battles_per_s={engine:.0f} reference_battles_per_s={reference:.0f}"
    )
    print(summary("combat_ratio", [ref / eng for eng, ref in rates]))


if __name__ == "__main__":
    main()
