"""Development (rules §7, N-DEV-1..6) and the end-of-turn resolution of techs."""

from __future__ import annotations

import msgspec
import pytest

from nataterra_core.game import GameSession, new_game
from nataterra_core.games.nataterra.messages.development import (
    BonusResolved,
    Recruit,
    Research,
    TechResolved,
)
from nataterra_core.games.nataterra.messages.tactics import TacticCardDrawn
from nataterra_core.games.nataterra.messages.turns import EndPhase
from nataterra_core.games.nataterra.rules.development import legal_development
from nataterra_core.games.nataterra.rules.stock import Resources
from nataterra_core.games.nataterra.state import GameState, PlayerState
from nataterra_core.kernel import IllegalCommand

RICH = Resources(20, 20, 20)


def at_development(seed: int = 1, stock: Resources = RICH) -> GameSession:
    session = new_game(2, seed=seed)
    seat = session.state.active_seat
    for phase in ("movement", "resources", "combat"):
        session.apply(seat, EndPhase(phase=phase))
    rich = msgspec.structs.replace(session.state.player(seat), stock=stock)
    session.state = session.state.with_player(rich)
    return session


def give(session: GameSession, **changes: object) -> PlayerState:
    seat = session.state.active_seat
    player = msgspec.structs.replace(session.state.player(seat), **changes)
    session.state = session.state.with_player(player)
    return player


def end_turn(session: GameSession) -> tuple[object, ...]:
    return session.apply(session.state.active_seat, EndPhase(phase="development"))


def me(session: GameSession) -> PlayerState:
    return session.state.player(session.state.active_seat)


def test_N_DEV_2_recruit_pays_takes_from_the_pool_and_stands_on_the_base() -> None:
    session = at_development()
    seat = session.state.active_seat
    unit = "disciple" if seat == "velathi" else "orc"
    before: GameState = session.state
    session.apply(seat, Recruit(unit=unit))
    cost = session.decider.pack.units[unit].cost
    assert me(session).stock == before.player(seat).stock - Resources(
        cost.food, cost.wood, cost.metal
    )
    assert me(session).pool[unit] == before.player(seat).pool[unit] - 1
    base = session.decider.context(session.state.map_id).map.base_of(seat)
    assert any(s.key == (seat, unit, base) for s in session.state.units)


def test_N_DEV_2_empty_pool_means_no_recruit() -> None:
    session = at_development()
    seat = session.state.active_seat
    locked = "exiled" if seat == "velathi" else "ogre"  # still under its tile
    assert Recruit(unit=locked) not in session.legal_commands(seat)
    with pytest.raises(IllegalCommand) as info:
        session.apply(seat, Recruit(unit=locked))
    assert info.value.rule_id == "N-DEV-2"


def test_N_DEV_2_recruiting_needs_the_cost() -> None:
    session = at_development(stock=Resources())
    seat = session.state.active_seat
    assert not any(isinstance(c, Recruit) for c in session.legal_commands(seat))


def test_N_DEV_3_research_pays_now_and_resolves_at_the_end_of_the_turn() -> None:
    session = at_development()
    seat = session.state.active_seat
    food_tech = next(t for t in me(session).tech_hand if session.decider.pack.techs[t].number == 1)
    session.apply(seat, Research(tech=food_tech))
    assert food_tech not in me(session).tech_hand
    assert me(session).multipliers.food == 1  # not yet (N-DEV-3)
    events = end_turn(session)
    assert any(isinstance(e, TechResolved) and e.tech == food_tech for e in events)
    assert session.state.player(seat).multipliers.food == 2  # N-RES-4: x1 -> x2


def test_N_DEV_3_unit_techs_need_an_option_resource_techs_none() -> None:
    session = at_development()
    seat = session.state.active_seat
    hand = me(session).tech_hand
    with pytest.raises(IllegalCommand, match="N-DEV-3"):
        session.apply(seat, Research(tech=hand[0], option="a"))
    give(session, tech_hand=(*hand, f"{seat}_04"))
    with pytest.raises(IllegalCommand, match="N-DEV-3"):
        session.apply(seat, Research(tech=f"{seat}_04"))


def test_N_RES_4_multipliers_stop_at_x4() -> None:
    session = at_development()
    seat = session.state.active_seat
    food = next(t for t in me(session).tech_hand if session.decider.pack.techs[t].number == 1)
    give(session, multipliers=Resources(4, 1, 1))
    session.apply(seat, Research(tech=food))
    end_turn(session)
    assert session.state.player(seat).multipliers.food == 4


def test_N_DEV_4_N_DEV_5_unit_tech_turns_the_group_card_and_stays() -> None:
    session = at_development(seed=2)
    seat = session.state.active_seat
    tech = f"{seat}_06" if seat == "beasts" else f"{seat}_05"
    card = session.decider.pack.techs[tech]
    give(session, tech_hand=(*me(session).tech_hand, tech))
    session.apply(seat, Research(tech=tech, option="b"))
    end_turn(session)
    player = session.state.player(seat)
    assert player.sides[card.unit] == "b"  # type: ignore[index]
    assert tech in player.techs


def test_N_FAQ_19_blood_brothers() -> None:
    # Ork tech A: Orks cost 1 food less, 6 Ork tokens unlocked, draw a tactic card.
    session = new_game(2, seed=4)
    while session.state.active_seat != "beasts" or session.state.phase != "development":
        seat = session.state.active_seat
        session.apply(seat, EndPhase(phase=session.state.phase))
    give(session, stock=Resources(20, 20, 20), tech_hand=(*me(session).tech_hand, "beasts_06"))
    locked_before = me(session).locked["orc"]
    pool_before = me(session).pool["orc"]
    session.apply("beasts", Research(tech="beasts_06", option="a"))
    events = end_turn(session)
    assert any(isinstance(e, TacticCardDrawn) and e.seat == "beasts" for e in events)
    player = session.state.player("beasts")
    moved = min(6, locked_before)
    assert player.pool["orc"] == pool_before + moved
    assert player.locked["orc"] == locked_before - moved
    orc = session.decider.pack.units["orc"].cost
    ctx = session.decider.context(session.state.map_id)
    from nataterra_core.games.nataterra.rules.development import unit_cost

    assert unit_cost(ctx, player, "orc") == Resources(orc.food - 1, orc.wood, orc.metal)


def test_N_DEV_4_bonus_effects_draw_tech_add_workers_unlock_tile_and_structure() -> None:
    session = at_development(seed=1)
    seat = session.state.active_seat
    pack = session.decider.pack
    food = next(t for t in me(session).tech_hand if pack.techs[t].number == 1)
    supply = me(session).worker_supply
    session.apply(seat, Research(tech=food))
    events = end_turn(session)
    bonuses = [e for e in events if isinstance(e, BonusResolved)]
    kinds = {e.kind for e in bonuses}
    assert kinds == {b.kind for b in pack.techs[food].bonuses}
    player = session.state.player(seat)
    for bonus in bonuses:
        if bonus.kind == "draw_tech":
            assert bonus.card in player.tech_hand and bonus.card not in player.tech_deck
        if bonus.kind == "add_workers":
            assert player.worker_supply == supply - sum(bonus.units.values())

    # Tiles and structures, from techs that unlock them.
    def unlocks(card: object, option: str | None) -> set[str]:
        options = card.bonuses if option is None else card.option(option).bonuses  # type: ignore[attr-defined]
        return {b.kind for b in options} & {"unlock_tile", "unlock_structure"}

    choices = [
        (t.id, option)
        for t in pack.tech_deck(seat)
        for option in ((None,) if t.kind == "resource" else ("a", "b"))
        if unlocks(t, option)
    ]
    kinds_seen: set[str] = set()
    for tech, option in choices:
        later = at_development(seed=1)
        give(later, tech_hand=(*me(later).tech_hand, tech))
        later.apply(seat, Research(tech=tech, option=option))  # type: ignore[arg-type]
        player_before = me(later)
        events = end_turn(later)
        player = later.state.player(seat)
        for bonus in (e for e in events if isinstance(e, BonusResolved)):
            kinds_seen.add(bonus.kind)
            if bonus.kind == "unlock_tile":
                assert player.tiles_unlocked == player_before.tiles_unlocked + 1
                for unit, n in bonus.units.items():
                    assert pack.units[unit].unlock == "left_tile"
                    assert player.pool[unit] == player_before.pool[unit] + n
            if bonus.kind == "unlock_structure":
                assert bonus.card in player.structures_unlocked
    assert {"unlock_tile", "unlock_structure"} <= kinds_seen


def test_N_DEV_1_any_order_as_often_as_affordable() -> None:
    session = at_development(stock=Resources(30, 30, 30))
    seat = session.state.active_seat
    ctx = session.decider.context(session.state.map_id)
    recruits = 0
    while True:
        options = [c for c in legal_development(ctx, session.state, seat) if isinstance(c, Recruit)]
        if not options:
            break
        session.apply(seat, options[0])
        recruits += 1
    assert recruits >= 3


# The rulebook names these techs; each selects a group-card side whose abilities it brings.
NAMED_TECHS = [
    ("Shadow Steps", "velathi", "disciple", "a"),
    ("Poison Blade", "velathi", "zealot", "a"),
    ("Protector", "velathi", "cave_golem", "a"),
    ("Gargoyle", "velathi", "cave_golem", "b"),
    ("Tribal Shaman", "beasts", "orc", "b"),
    ("Blood Brothers", "beasts", "orc", "a"),
    ("ARRGGGHH!!!", "beasts", "ditcher", "b"),
]


@pytest.mark.parametrize("title,civ,unit,side", NAMED_TECHS)
def test_N_DEV_4_N_DEV_5_named_techs_select_their_side(
    title: str, civ: str, unit: str, side: str
) -> None:
    from nataterra_core.games.nataterra.rules.combat.model import make_group

    session = new_game(2, seed=4)
    while session.state.active_seat != civ or session.state.phase != "development":
        session.apply(session.state.active_seat, EndPhase(phase=session.state.phase))
    pack = session.decider.pack
    tech = next(
        t
        for t in pack.techs.values()
        if t.unit == unit and t.option(side).title == title  # type: ignore[arg-type]
    )
    give(session, stock=RICH, tech_hand=(*me(session).tech_hand, tech.id))
    session.apply(civ, Research(tech=tech.id, option=side))  # type: ignore[arg-type]
    end_turn(session)
    player = session.state.player(civ)
    assert player.sides[unit] == side
    group = make_group(pack, 0, civ, unit, 2, "melee", player.sides[unit])
    ctx = session.decider.context(session.state.map_id)
    if title == "Shadow Steps":  # Stealth (N-ABL-2) and Strategise (N-ABL-7)
        assert ctx.ability(player, unit, "stealth") == 1
        assert ctx.ability(player, unit, "strategise") == 1
    elif title == "Poison Blade":  # the rulebook's Zealots retaliate thanks to it (N-ABL-9)
        assert group.retaliation == 1
    elif title == "Protector":  # N-COMBAT-19: 2 Cave Golems give 8 more
        assert group.reinforce * group.units == 8
    elif title == "Gargoyle":  # N-FAQ-17: melee or ranged slots
        assert group.flexible
    elif title == "Tribal Shaman":  # N-ABL-3: Heal 2
        assert group.heal == 2
    elif title == "Blood Brothers":  # N-FAQ-19
        assert player.cost_mods[unit] == Resources(food=-1)
    elif title == "ARRGGGHH!!!":  # N-FAQ-21: no injuries
        assert group.injury == 0
