"""Kaladan combat (§4): pools, terrain, rounds, losses, withdrawal, moving in, scalps,
specials' traits, and every die recorded (K-FIG-1..6, K-TER-1, K-CARD-3)."""

from __future__ import annotations

import pytest
from kaladan_positions import (
    at_phase,
    beside_castle,
    board_of,
    decide,
    empty_hands,
    of_type,
    pair,
    placed,
    seed_where,
    started,
)

from nataterra_core.games.kaladan import messages as m
from nataterra_core.games.kaladan.decider import Kaladan
from nataterra_core.games.kaladan.state import Fallen
from nataterra_core.kernel import DiceStream, IllegalCommand, seed_from_number
from nataterra_core.kernel.chance import recheck


def _fight_position(
    source_terrain: str, target_terrain: str, attackers: tuple[str, ...], defenders: tuple[str, ...]
):  # type: ignore[no-untyped-def]
    session = started()
    board = board_of(session)
    source, target = pair(board, source_terrain, target_terrain)
    state = placed(
        session.state,
        {
            board.home("red"): ("red", ("crown",)),
            board.home("blue"): ("blue", ("crown",)),
            source: ("red", attackers),
            target: ("blue", defenders),
        },
    )
    return session, at_phase(empty_hands(state), "red", "action"), source, target


def test_K_FIG_1_an_upgrade_raises_both_dice_one_size() -> None:
    session = started()
    decider = session.decider
    assert isinstance(decider, Kaladan)
    table = decider.table(session.state.map_id)
    assert (table.die("archer", "attack"), table.die("archer", "defence")) == (10, 6)
    assert (table.die("archer+", "attack"), table.die("archer+", "defence")) == (12, 8)
    assert table.die("catapult+", "attack") == 12  # d12 stays d12
    assert (table.die("crown", "attack"), table.die("crown", "defence")) == (6, 8)


def test_K_FIG_2_K_TER_forest_attacker_rolls_an_extra_d10_and_keeps_it() -> None:
    """Seed search: a round the forest's d10 turns from a loss into a win."""
    session, state, source, target = _fight_position(
        "forest", "plain", ("swordsman",), ("swordsman",)
    )
    command = m.Fight(source=source, target=target, units=("swordsman",))

    def forest_decides(events, after):  # type: ignore[no-untyped-def]
        roll = of_type(events, m.CombatRolled)[0]
        return roll.attack[0] <= sum(roll.defence) < sum(roll.attack)

    events, after = seed_where(session, state, "red", command, forest_decides)
    roll = of_type(events, m.CombatRolled)[0]
    assert roll.ms == (8, 10, 8) and len(roll.attack) == 2 and roll.dropped == 0
    assert roll.loser == "defender"
    assert after.player("red").graveyard == (Fallen("blue", "swordsman"),)  # K-FIG-5 scalp


def test_K_FIG_2_K_TER_mountain_defender_rolls_an_extra_d10_and_drops_its_lowest() -> None:
    """Seed search: a round where the defender's own d8 is the die the mountain drops."""
    session, state, source, target = _fight_position(
        "plain", "mountain", ("swordsman",), ("swordsman",)
    )
    command = m.Fight(source=source, target=target, units=("swordsman",))

    def own_die_dropped(events, after):  # type: ignore[no-untyped-def]
        roll = of_type(events, m.CombatRolled)[0]
        return roll.values[1] < roll.values[2]

    events, _ = seed_where(session, state, "red", command, own_die_dropped)
    roll = of_type(events, m.CombatRolled)[0]
    assert roll.ms == (8, 8, 10)
    assert roll.dropped == roll.values[1] + 1
    assert roll.defence == (roll.values[2] + 1,)


def test_K_FIG_3_a_tie_goes_to_the_defender() -> None:
    session, state, source, target = _fight_position(
        "plain", "plain", ("swordsman",), ("swordsman",)
    )
    command = m.Fight(source=source, target=target, units=("swordsman",))
    events, after = seed_where(
        session,
        state,
        "red",
        command,
        lambda ev, _: (
            sum(of_type(ev, m.CombatRolled)[0].attack)
            == sum(of_type(ev, m.CombatRolled)[0].defence)
        ),
    )
    assert of_type(events, m.CombatRolled)[0].loser == "attacker"
    assert after.player("blue").graveyard == (Fallen("red", "swordsman"),)
    assert after.combat is None  # the attacker had no unit left in the fight


def test_K_FIG_3_the_loser_chooses_its_loss_and_the_crown_goes_last() -> None:
    session, state, source, target = _fight_position(
        "plain", "plain", ("archer", "swordsman"), ("crown", "shieldbearer")
    )
    # (a crown off its castle may stand anywhere: here it defends a plain)
    command = m.Fight(source=source, target=target, units=("archer", "swordsman"))
    events, after = seed_where(
        session,
        state,
        "red",
        command,
        lambda ev, _: of_type(ev, m.CombatRolled)[0].loser == "attacker",
    )
    assert after.combat is not None and after.combat.stage == "loss"
    legal = session.decider.decision(after).legal("red")
    assert set(legal) == {m.TakeLoss(unit="archer"), m.TakeLoss(unit="swordsman")}
    events, after = seed_where(
        session,
        state,
        "red",
        command,
        lambda ev, _: of_type(ev, m.CombatRolled)[0].loser == "defender",
    )
    # The defender's crown is never chosen while another unit stands: no choice, the
    # shieldbearer falls.
    removed = of_type(events, m.UnitRemoved)
    assert [r.unit for r in removed] == ["shieldbearer"]


def test_K_FIG_4_withdrawn_units_stay_on_the_attacking_tile() -> None:
    session, state, source, target = _fight_position(
        "plain", "plain", ("archer", "swordsman"), ("swordsman", "swordsman")
    )
    command = m.Fight(source=source, target=target, units=("archer", "swordsman"))
    _, after = seed_where(
        session,
        state,
        "red",
        command,
        lambda ev, after: after.combat is not None and after.combat.stage == "continue",
    )
    assert set(session.decider.decision(after).legal("red")) == {m.ContinueFight(), m.Withdraw()}
    events, done = decide(session, after, "red", m.Withdraw())
    assert of_type(events, m.CombatEnded)[0].how == "withdrawn"
    assert done.owner(source) == "red" and done.combat is None


def test_K_FIG_5_survivors_move_in_within_capacity_and_scalps_go_to_the_winner() -> None:
    session, state, source, target = _fight_position(
        "plain", "mountain", ("archer", "catapult", "swordsman", "swordsman"), ("archer",)
    )
    command = m.Fight(
        source=source, target=target, units=("archer", "catapult", "swordsman", "swordsman")
    )
    _, after = seed_where(
        session,
        state,
        "red",
        command,
        lambda ev, after: after.combat is not None and after.combat.stage == "move_in",
    )
    legal = session.decider.decision(after).legal("red")
    assert all(isinstance(c, m.MoveIn) and 1 <= len(c.units) <= 3 for c in legal)  # K-TER-1
    assert m.MoveIn(units=("archer", "catapult", "swordsman", "swordsman")) not in legal
    assert after.player("red").graveyard == (Fallen("blue", "archer"),)
    with pytest.raises(IllegalCommand) as raised:
        decide(
            session, after, "red", m.MoveIn(units=("archer", "catapult", "swordsman", "swordsman"))
        )
    assert raised.value.rule_id == "K-FIG-5"
    _, done = decide(session, after, "red", m.MoveIn(units=("catapult",)))
    assert done.units_on(target) == ("catapult",) and done.owner(source) == "red"


def test_K_FIG_6_every_die_is_recorded_and_recomputable_without_the_rules() -> None:
    session, state, source, target = _fight_position(
        "forest", "mountain", ("archer", "knight"), ("swordsman", "warden")
    )
    command = m.Fight(source=source, target=target, units=("archer", "knight"))
    events, _ = decide(session, state, "red", command, seed=3)
    server_seed, game_id = seed_from_number(3)
    stream = DiceStream(server_seed, game_id, "", state.counter)
    rolled = [e for e in events if isinstance(e, m.CombatRolled)]
    assert rolled
    for event in rolled:
        assert recheck(stream, event) is None


def test_K_CARD_3_specials_traits() -> None:
    """Knight re-rolls its side's lowest die; Warden adds a d6 to its side's defence; Ranger
    cancels the enemy's terrain dice; Siege Master adds a d8 against a castle."""
    session, state, source, target = _fight_position("forest", "mountain", ("knight",), ("warden",))
    roll = of_type(
        decide(session, state, "red", m.Fight(source=source, target=target, units=("knight",)))[0],
        m.CombatRolled,
    )[0]
    # knight d12 + forest d10 | warden d12 + mountain d10 + warden's d6 | the knight's re-roll
    assert roll.ms[:5] == (12, 10, 12, 10, 6) and len(roll.ms) == 6
    session, state, source, target = _fight_position(
        "forest", "mountain", ("ranger",), ("swordsman",)
    )
    roll = of_type(
        decide(session, state, "red", m.Fight(source=source, target=target, units=("ranger",)))[0],
        m.CombatRolled,
    )[0]
    assert roll.ms == (10, 10, 8)  # the ranger keeps its forest die; the mountain's is cancelled
    session, state, source, target = _fight_position(
        "mountain", "forest", ("swordsman",), ("ranger",)
    )
    roll = of_type(
        decide(session, state, "red", m.Fight(source=source, target=target, units=("swordsman",)))[
            0
        ],
        m.CombatRolled,
    )[0]
    assert roll.ms == (8, 8)
    session = started()
    board = board_of(session)
    home, near = beside_castle(board, "blue")
    state = placed(
        session.state,
        {
            board.home("red"): ("red", ("crown",)),
            home: ("blue", ("crown", "swordsman")),
            near: ("red", ("siege_master",)),
        },
    )
    state = at_phase(empty_hands(state), "red", "action")
    roll = of_type(
        decide(session, state, "red", m.Fight(source=near, target=home, units=("siege_master",)))[
            0
        ],
        m.CombatRolled,
    )[0]
    assert 8 in roll.ms[: len(roll.attack)]
