"""Team play (rules §10a, N-TURN-3): allies take their turn together, share zones, win
together; and the option that sets teams up."""

from __future__ import annotations

import msgspec
import pytest
from positions import Table, grid_map, position

from nataterra_core.game import new_game, verify_log
from nataterra_core.games.nataterra.bots import HeuristicPlayer, play
from nataterra_core.games.nataterra.messages.combat import (
    Attack,
    Backstab,
    ChooseGroup,
    CombatEnded,
    HealGroup,
    PassTactics,
    PlayTactic,
    Retreat,
    RetreatChosen,
    StartCombat,
    Support,
)
from nataterra_core.games.nataterra.messages.development import (
    ResourcesGathered,
    StructureDestroyed,
)
from nataterra_core.games.nataterra.messages.movement import MoveUnits
from nataterra_core.games.nataterra.messages.turns import (
    EndPhase,
    GameEnded,
    PhaseFinished,
    PhaseStarted,
    PlayerEliminated,
    TurnStarted,
)
from nataterra_core.games.nataterra.rules.combat.policies import DefaultPolicy
from nataterra_core.games.nataterra.rules.combat_phase import contested
from nataterra_core.games.nataterra.state import PlacedStructure, Resources
from nataterra_core.kernel import Event, IllegalCommand

SEATS = ("velathi", "beasts", "humans", "naga")
TEAMS = (("velathi", "humans"), ("beasts", "naga"))
OPTION = ["velathi+humans", "beasts+naga"]
ROWS = [
    "V . . . E",  # z00 Velathi base, z40 Beasts base
    ". . . . .",
    "H . . . N",  # z02 Humans base, z42 Naga base (a lake)
]


def team_table(units: list[tuple[str, str, str, int]], *, phase: str = "movement") -> Table:
    ctx, state = position(grid_map(ROWS), units, seats=SEATS, active="velathi", phase=phase)  # type: ignore[arg-type]
    return Table(ctx, msgspec.structs.replace(state, teams=TEAMS), seed_number=23)


def of(events: list[Event], kind: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def test_N_TURN_3_allies_take_each_phase_together() -> None:
    t = team_table([("velathi", "hunter", "z10", 1), ("humans", "peasant", "z11", 1)])
    assert list(t.decider.acting_seats(t.state)) == ["velathi", "humans"]
    events = t.play(EndPhase(phase="movement"), "velathi")
    assert of(events, PhaseFinished) and not of(events, PhaseStarted)
    assert list(t.decider.acting_seats(t.state)) == ["humans"]
    with pytest.raises(IllegalCommand) as refused:
        t.play(EndPhase(phase="movement"), "velathi")
    assert refused.value.rule_id == "N-TURN-3"
    events = t.play(EndPhase(phase="movement"), "humans")
    assert [e.phase for e in of(events, PhaseStarted)] == ["resources"]  # type: ignore[attr-defined]
    gathered = {e.seat for e in of(events, ResourcesGathered)}  # type: ignore[attr-defined]
    assert gathered == {"velathi", "humans"}  # each seat of the turn gathers
    assert list(t.decider.acting_seats(t.state)) == ["velathi", "humans"]


def test_N_TURN_3_each_ally_moves_its_own_units_and_the_enemy_waits() -> None:
    t = team_table([("velathi", "disciple", "z10", 1), ("humans", "spearman", "z11", 1)])
    assert not t.decider.legal_commands(t.state, "beasts")
    moves = {c.unit for c in t.legal("humans") if isinstance(c, MoveUnits)}
    assert moves == {"spearman"}
    with pytest.raises(IllegalCommand) as refused:
        t.play(EndPhase(phase="movement"), "beasts")
    assert refused.value.rule_id == "N-TURN-1"


def test_N_TURN_3_turn_order_is_by_team() -> None:
    t = team_table([], phase="development")
    t.play(EndPhase(phase="development"), "humans")
    events = t.play(EndPhase(phase="development"), "velathi")
    (started,) = of(events, TurnStarted)
    assert started.seat == "beasts"  # type: ignore[attr-defined]
    assert list(t.decider.acting_seats(t.state)) == ["beasts", "naga"]
    for phase in ("movement", "resources", "combat", "development"):
        for seat in ("naga", "beasts"):
            t.play(EndPhase(phase=phase), seat)  # type: ignore[arg-type]
    assert set(t.decider.acting_seats(t.state)) == {"velathi", "humans"}


def test_N_TEAM_2_allies_share_zones_without_a_combat() -> None:
    t = team_table(
        [
            ("velathi", "disciple", "z21", 2),
            ("humans", "spearman", "z21", 1),
            ("humans", "spearman", "z31", 1),
        ]
    )
    assert contested(t.state, t.ctx) == []
    # moving through and into an ally's zone never stops a move (N-MOV-4 is for enemies)
    paths = {c.path for c in t.legal("velathi") if isinstance(c, MoveUnits)}
    assert any(len(p) > 1 and p[0] == "z31" for p in paths)


def in_combat(
    units: list[tuple[str, str, str, int]],
    sides: dict[str, dict[str, str]] | None = None,
    zone: str = "z21",
    hands: dict[str, tuple[str, ...]] | None = None,
) -> Table:
    """A team position in the combat phase, Velathi attacking the Beasts' side in
    ``zone`` (z11 is a mountain: no biome card to change the markers)."""
    rows = [ROWS[0], ". M . . .", ROWS[2]]
    ctx, state = position(
        grid_map(rows), units, seats=SEATS, active="velathi", phase="combat", sides=sides
    )
    for seat, hand in (hands or {}).items():
        state = state.with_player(msgspec.structs.replace(state.player(seat), tactic_hand=hand))
    t = Table(ctx, msgspec.structs.replace(state, teams=TEAMS), seed_number=23)
    t.play(StartCombat(zone=zone, defender="beasts"), "velathi")
    return t


def deploy_all(t: Table) -> None:
    """Deploy every player's units, largest groups first (the default policy)."""
    policy = DefaultPolicy(t.ctx.pack)
    while t.state.combat is not None and t.state.combat.stage == "deploy":
        t.play(policy.choose(t.state.combat, t.seat, t.legal(), hand=t.hand()))


def test_N_TEAM_4_allies_in_a_zone_fight_one_combat_each_with_a_board() -> None:
    units = [
        ("velathi", "disciple", "z21", 2),
        ("humans", "spearman", "z21", 1),
        ("beasts", "orc", "z21", 1),
        ("naga", "kambar", "z21", 1),
    ]
    ctx, state = position(grid_map(ROWS), units, seats=SEATS, active="velathi", phase="combat")
    assert contested(msgspec.structs.replace(state, teams=TEAMS), ctx) == [("z21", "beasts")]
    t = in_combat(units)
    combat = t.state.combat
    assert combat is not None
    assert combat.allies == {"humans": "velathi", "naga": "beasts"}
    deployers = []
    while t.state.combat is not None and t.state.combat.stage == "deploy":
        deployers.append(t.seat)
        t.play(DefaultPolicy(t.ctx.pack).choose(t.state.combat, t.seat, t.legal(), hand=t.hand()))
    # each on its own board, the attacker's side first
    assert list(dict.fromkeys(deployers)) == ["velathi", "humans", "beasts", "naga"]
    assert {g.owner for g in t.state.combat.groups} == set(SEATS)  # type: ignore[union-attr]
    t.fight_out()
    (ended,) = of(t.events, CombatEnded)
    assert ended.winner in ("velathi", "beasts")  # type: ignore[attr-defined]


def test_N_TEAM_4_allies_tied_on_initiative_are_ordered_by_their_side() -> None:
    # Orc (beasts) and Kambar (naga) both have initiative 6: the beasts' side chooses.
    t = in_combat(
        [
            ("velathi", "cave_golem", "z11", 1),
            ("beasts", "orc", "z11", 1),
            ("naga", "kambar", "z11", 1),
        ],
        zone="z11",
    )
    deploy_all(t)
    while not any(isinstance(c, ChooseGroup) for c in t.legal()):
        assert t.state.combat is not None
        t.play(t.legal()[0])
    combat = t.state.combat
    assert combat is not None and t.seat == "beasts"
    owners = {combat.groups[c.group].owner for c in t.legal() if isinstance(c, ChooseGroup)}
    assert owners == {"beasts", "naga"}


def test_N_TEAM_5_no_attack_on_an_ally_but_support_and_heal_may_reach_one() -> None:
    t = in_combat(
        [
            ("beasts", "orc", "z21", 2),
            ("naga", "kambar", "z21", 2),
            ("velathi", "disciple", "z21", 1),
        ],
        sides={"beasts": {"orc": "b"}},  # side B: Heal 2
    )
    deploy_all(t)
    seen_action = seen_heal = False
    while t.state.combat is not None and not (seen_action and seen_heal):
        combat = t.state.combat
        commands = t.legal()
        active = combat.groups[combat.active] if combat.active >= 0 else None
        if active is not None and active.owner == "beasts":
            kinds = {type(c) for c in commands}
            if HealGroup in kinds:
                healed = {
                    combat.groups[c.target].owner for c in commands if isinstance(c, HealGroup)
                }
                assert healed == {"beasts", "naga"}
                seen_heal = True
            if Attack in kinds:
                attacked = {
                    combat.groups[c.target].owner for c in commands if isinstance(c, Attack)
                }
                supported = {
                    combat.groups[c.target].owner for c in commands if isinstance(c, Support)
                }
                assert attacked == {"velathi"} and "naga" in supported
                seen_action = True
        t.play(commands[0])
    assert seen_action and seen_heal


def test_N_TEAM_6_melee_reaches_a_players_ranged_groups_whatever_its_allies_have() -> None:
    t = in_combat(
        [
            ("velathi", "disciple", "z21", 2),
            ("beasts", "orc", "z21", 1),
            ("naga", "fairy", "z21", 1),
        ]
    )
    deploy_all(t)
    while t.state.combat is not None:
        combat = t.state.combat
        commands = t.legal()
        active = combat.groups[combat.active] if combat.active >= 0 else None
        if (
            active is not None
            and active.owner == "velathi"
            and any(isinstance(c, Attack) for c in commands)
        ):
            targets = {combat.groups[c.target].unit for c in commands if isinstance(c, Attack)}
            assert targets == {"orc", "fairy"}  # the naga player has no melee group
            return
        t.play(commands[0])
    raise AssertionError("the disciples never attacked")


def test_N_COMBAT_24_each_player_of_the_side_that_stays_may_backstab_once() -> None:
    t = in_combat(
        [
            ("velathi", "cave_golem", "z21", 3),
            ("beasts", "orc", "z21", 1),
            ("naga", "kambar", "z21", 1),
        ]
    )
    deploy_all(t)
    asked: list[str] = []
    while t.state.combat is not None:
        commands = t.legal()
        if Retreat(retreat=True) in commands and t.seat == "velathi":
            t.play(Retreat(retreat=True))
            continue
        if any(isinstance(c, Backstab) for c in commands):
            asked.append(t.seat)
            stab = next(c for c in commands if isinstance(c, Backstab) and c.group is not None)
            t.play(stab)
            continue
        t.play(DefaultPolicy(t.ctx.pack).choose(t.state.combat, t.seat, commands, hand=t.hand()))
    retreated = [e for e in of(t.events, RetreatChosen) if e.retreat]  # type: ignore[attr-defined]
    assert [e.seat for e in retreated] == ["velathi"]  # type: ignore[attr-defined]
    assert asked == ["beasts", "naga"]  # each player of the side that stays, once, in order


def test_N_TEAM_2_allied_workers_in_one_zone_each_gather() -> None:
    game_map = grid_map(ROWS, resources={"z11": "wood"})
    units = [("velathi", "hunter", "z11", 1), ("humans", "peasant", "z11", 1)]
    ctx, state = position(game_map, units, seats=SEATS, active="velathi")
    t = Table(ctx, msgspec.structs.replace(state, teams=TEAMS), seed_number=23)
    t.play(EndPhase(phase="movement"), "velathi")
    events = t.play(EndPhase(phase="movement"), "humans")
    wood = {e.seat: e.gain.wood for e in of(events, ResourcesGathered)}  # type: ignore[attr-defined]
    assert wood == {"velathi": 1, "humans": 1}


def test_N_TEAM_2_an_allys_structure_is_not_destroyed_by_moving_onto_it() -> None:
    t = team_table([("velathi", "disciple", "z10", 1)])
    t.state = msgspec.structs.replace(
        t.state, structures=(PlacedStructure("humans", "farm", "z20"),)
    )
    move = next(c for c in t.legal("velathi") if isinstance(c, MoveUnits) and c.path[-1] == "z20")
    events = t.play(move, "velathi")
    assert not of(events, StructureDestroyed)
    assert t.state.structures


def test_N_TEAM_3_an_allys_structures_do_not_work_for_you() -> None:
    # A Stable gives movement to its owner's units only: allies share no components.
    t = team_table([("velathi", "disciple", "z10", 1), ("humans", "spearman", "z10", 1)])

    def reach() -> dict[str, int]:
        return {
            seat: max(len(c.path) for c in t.legal(seat) if isinstance(c, MoveUnits))
            for seat in ("velathi", "humans")
        }

    without = reach()
    t.state = msgspec.structs.replace(
        t.state, structures=(PlacedStructure("humans", "stable", "z11"),)
    )
    with_stable = reach()
    assert with_stable["humans"] > without["humans"]
    assert with_stable["velathi"] == without["velathi"]


def test_N_TEAM_1_a_cube_one_player_wins_wins_for_the_team() -> None:
    t = team_table(
        [("velathi", "disciple", "z21", 3), ("beasts", "goblin", "z21", 1)], phase="combat"
    )
    t.state = msgspec.structs.replace(t.state, cubes={"velathi": 3})
    t.play(StartCombat(zone="z21", defender="beasts"), "velathi")
    t.fight_out()
    assert of(t.events, CombatEnded)
    (ended,) = of(t.events, GameEnded)
    assert ended.winners == ("velathi", "humans")  # type: ignore[attr-defined]


def test_N_TEAM_1_the_last_team_standing_wins() -> None:
    t = team_table([("velathi", "disciple", "z40", 1), ("humans", "spearman", "z42", 1)])
    t.state = msgspec.structs.replace(t.state, phase="development")
    t.play(EndPhase(phase="development"), "humans")
    events = t.play(EndPhase(phase="development"), "velathi")
    assert {e.seat for e in of(events, PlayerEliminated)} == {"beasts", "naga"}  # type: ignore[attr-defined]
    (ended,) = of(events, GameEnded)
    assert ended.winners == ("velathi", "humans")  # type: ignore[attr-defined]
    assert ended.reason == "last_player_standing"  # type: ignore[attr-defined]


def test_N_TEAM_7_the_team_that_plays_second_gets_one_food_each() -> None:
    session = new_game(4, seed=3, options={"teams": OPTION})
    start = session.state
    first = start.seats[start.first]
    starting = next(team for team in TEAMS if first in team)
    extra = {s: start.player(s).stock for s in SEATS}
    base = min(extra.values(), key=lambda r: r.food)
    assert {s for s in SEATS if extra[s] == base + Resources(food=1)} == set(SEATS) - set(starting)


@pytest.mark.parametrize(
    "teams",
    [["velathi+humans"], ["velathi+humans", "beasts"], ["velathi+humans", "beasts+naga+humans"]],
)
def test_N_TURN_3_teams_must_share_out_the_seats(teams: list[str]) -> None:
    with pytest.raises(ValueError, match="N-TURN-3"):
        new_game(4, seed=1, options={"teams": teams})


def test_N_TURN_3_team_games_between_heuristic_bots_finish_and_verify() -> None:
    """2 vs 2, 10 seeds: at most 2 turn-limit draws, the winners a whole team, every log
    verifies."""
    results = []
    for seed in range(10):
        session = new_game(4, seed=seed, options={"teams": OPTION, "max_turns": 200})
        bots = {s: HeuristicPlayer(seed * 8 + i) for i, s in enumerate(session.header.seats)}
        play(session, bots)
        session.close()
        outcome = session.outcome()
        assert outcome is not None
        results.append(outcome)
        assert verify_log(session.log_bytes()).valid
    assert all(r.winners in (TEAMS[0], TEAMS[1]) for r in results if r.reason != "turn_limit")
    assert sum(r.reason == "turn_limit" for r in results) <= 2


def test_N_TEAM_4_an_allys_withdrawal_takes_its_side_out() -> None:
    """Watchtowers played by the Humans (not their side's lead) withdraws the whole side."""
    t = in_combat(
        [
            ("velathi", "cave_golem", "z21", 2),
            ("humans", "spearman", "z21", 2),
            ("beasts", "orc", "z21", 2),
        ],
        hands={"humans": ("watchtowers",)},
    )
    policy = DefaultPolicy(t.ctx.pack)
    asked = False
    while t.state.combat is not None:
        commands = t.legal()
        withdraw = PlayTactic(card="watchtowers", option=1)
        asked |= any(isinstance(c, Retreat) for c in commands) and t.seat == "velathi"
        if withdraw in commands:
            t.play(withdraw)
        elif PassTactics() in commands:
            t.play(PassTactics())
        else:
            t.play(policy.choose(t.state.combat, t.seat, commands, hand=t.hand()))
    retreats = [e for e in of(t.events, RetreatChosen) if e.retreat]  # type: ignore[attr-defined]
    assert [(e.seat, e.forced) for e in retreats] == [("velathi", True)]  # type: ignore[attr-defined]
    assert not asked
