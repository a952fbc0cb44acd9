"""Combat (§4, K-FIG-1..6): committing units, the magic windows before the first roll,
rounds with every die drawn from the stream and recorded, losses chosen by their owner,
continue or withdraw, moving in; crowns falling end a player (K-CAS-4..7).
"""

from __future__ import annotations

from nataterra_core.kernel import Command
from nataterra_core.kernel.chance import record_draws

from .. import messages as m
from ..state import Choice, Combat, GameState, base_of
from .actions import subsets
from .effects import choice_options, play_magic
from .flow import Play, Table, finish

__all__ = ["combat_acting", "combat_command", "combat_options", "pools", "start_fight"]


def _trait(table: Table, units: tuple[str, ...], kind: str) -> bool:
    for unit in units:
        trait = table.pack.units[base_of(unit)].trait
        if trait is not None and trait.kind == kind:
            return True
    return False


def _trait_die(table: Table, units: tuple[str, ...], kind: str) -> int:
    for unit in units:
        trait = table.pack.units[base_of(unit)].trait
        if trait is not None and trait.kind == kind:
            return trait.die
    return 0


def combat_acting(state: GameState) -> str:
    """Who decides next in the fight."""
    combat = state.combat
    assert combat is not None
    if combat.stage == "defence_magic":
        return combat.defender
    if combat.stage == "loss":
        return combat.loser
    return combat.attacker


def _losable(table: Table, units: tuple[str, ...]) -> list[str]:
    """K-FIG-3: the kinds a side may lose; a crown is always the last unit removed."""
    kinds = sorted(set(units))
    others = [u for u in kinds if table.pack.units[base_of(u)].class_ != "crown"]
    return others or kinds


def combat_options(table: Table, state: GameState) -> list[Command]:
    """The fight's decision for :func:`combat_acting`."""
    combat = state.combat
    assert combat is not None
    if combat.stage in ("attack_magic", "defence_magic"):
        seat = combat_acting(state)
        timing = "attack" if combat.stage == "attack_magic" else "defence"
        return [*_window_plays(table, state, seat, timing), m.Pass()]
    if combat.stage == "loss":
        tile = combat.source if combat.loser == combat.attacker else combat.target
        units = combat.committed if combat.loser == combat.attacker else state.units_on(tile)
        return [m.TakeLoss(unit=u) for u in _losable(table, units)]
    if combat.stage == "continue":
        return [m.ContinueFight(), m.Withdraw()]
    room = table.board.capacity_of[combat.target]
    return [m.MoveIn(units=s) for s in subsets(combat.committed, room)]


def _window_plays(table: Table, state: GameState, seat: str, timing: str) -> list[Command]:
    if seat in state.magic_played:
        return []
    kinds = sorted(set(state.player(seat).hand))
    return [
        m.PlayMagic(card=k)
        for k in kinds
        if table.pack.magic[k].timing == timing and table.pack.magic[k].effect.kind == "combat_die"
    ]


def start_fight(play: Play, seat: str, command: m.Fight) -> None:
    """K-ACT-3, K-FIG-2: the fight begins; the windows open or the first round is rolled."""
    defender = play.state.owner(command.target) or ""
    play.emit(
        m.CombatStarted(
            attacker=seat,
            defender=defender,
            source=command.source,
            target=command.target,
            units=command.units,
        )
    )
    _open_windows(play)


def _wants_window(state: GameState, seat: str) -> bool:
    """A seat holding any magic card is asked in a window (hand sizes are public, so asking
    reveals nothing, K-HID-1), unless it has played its card this phase."""
    return bool(state.player(seat).hand) and seat not in state.magic_played


def _open_windows(play: Play) -> None:
    combat = play.state.combat
    assert combat is not None
    if combat.stage == "attack_magic":
        if _wants_window(play.state, combat.attacker):
            return
        play.emit(m.CombatStep(stage="defence_magic"))
    if _wants_window(play.state, combat.defender):
        return
    _roll(play)


def pools(
    table: Table,
    attackers: tuple[str, ...],
    defenders: tuple[str, ...],
    source: str,
    target: str,
    castle_upgraded: bool,
    attack_bonus: tuple[int, ...] = (),
    defence_bonus: tuple[int, ...] = (),
) -> tuple[list[int], list[int], bool]:
    """K-FIG-2 and the specials' traits (K-CARD-3): the attack and defence pools' dice, and
    whether the defender drops its lowest die (mountain). Bots judge fights with it too."""
    board = table.board
    attack = [table.die(u, "attack") for u in attackers]
    defence = [table.die(u, "defence") for u in defenders]
    attack_ranger = _trait(table, attackers, "ignore_terrain")
    defence_ranger = _trait(table, defenders, "ignore_terrain")
    source_terrain = table.pack.terrains[board.terrain[source]]
    target_terrain = table.pack.terrains[board.terrain[target]]
    if source_terrain.attack_die and not defence_ranger:
        attack.append(source_terrain.attack_die)
    attack += attack_bonus
    if target in board.castle_of:
        siege = _trait_die(table, attackers, "attack_die_vs_castle")
        if siege:
            attack.append(siege)
    if castle_upgraded:
        defence.append(table.pack.economy.castle_upgrade_die)
    drop = False
    if target_terrain.defence_die and not attack_ranger:
        defence.append(target_terrain.defence_die)
        drop = target_terrain.drop_lowest
    defence += defence_bonus
    warden = _trait_die(table, defenders, "defence_die")
    if warden:
        defence.append(warden)
    return attack, defence, drop


def _pool(table: Table, state: GameState, combat: Combat) -> tuple[list[int], list[int], bool]:
    return pools(
        table,
        combat.committed,
        state.units_on(combat.target),
        combat.source,
        combat.target,
        combat.target in state.castle_upgrades,
        combat.attack_bonus,
        combat.defence_bonus,
    )


def _roll(play: Play) -> None:
    """One round (K-FIG-3): both pools rolled and summed, the lower sum loses a unit."""
    state, table = play.state, play.table
    combat = state.combat
    assert combat is not None
    attack, defence, drop = _pool(table, state, combat)
    before = play.dice.counter
    first = record_draws(play.dice, (*attack, *defence))
    ms, values = list(first["ms"]), list(first["values"])
    a_faces = [v + 1 for v in values[: len(attack)]]
    d_faces = [v + 1 for v in values[len(attack) :]]
    for faces, dice, units in (
        (a_faces, attack, combat.committed),
        (d_faces, defence, state.units_on(combat.target)),
    ):
        if _trait(table, units, "reroll_lowest"):  # K-CARD-3: the Knight's re-roll
            low = faces.index(min(faces))
            again = record_draws(play.dice, (dice[low],))
            ms.append(dice[low])
            values.append(again["values"][0])
            faces[low] = again["values"][0] + 1
    dropped = 0
    if drop and d_faces:
        dropped = min(d_faces)
        d_faces.remove(dropped)
    loser = "attacker" if sum(a_faces) <= sum(d_faces) else "defender"
    play.emit(
        m.CombatRolled(
            ms=tuple(ms),
            values=tuple(values),
            counter_before=before,
            counter_after=play.dice.counter,
            round=combat.round + 1,
            attack=tuple(a_faces),
            defence=tuple(d_faces),
            dropped=dropped,
            loser=loser,
        )
    )
    seat = combat.attacker if loser == "attacker" else combat.defender
    units = combat.committed if loser == "attacker" else state.units_on(combat.target)
    kinds = _losable(table, units)
    if len(kinds) > 1:
        play.emit(m.CombatStep(stage="loss", loser=seat))
    else:
        _lose(play, seat, kinds[0])


def _lose(play: Play, seat: str, unit: str) -> None:
    """``seat`` loses ``unit``: into the round winner's graveyard (K-FIG-5), a crown ends
    its owner (K-CAS-4); then the fight goes on, or ends."""
    combat = play.state.combat
    assert combat is not None
    winner = combat.defender if seat == combat.attacker else combat.attacker
    tile = combat.source if seat == combat.attacker else combat.target
    crown = play.table.pack.units[base_of(unit)].class_ == "crown"
    play.emit(m.UnitRemoved(owner=seat, tile=tile, unit=unit, scalp_of="" if crown else winner))
    if crown:
        eliminate(play, seat, winner, crown_tile=tile)
        if play.state.phase == "over":
            return
    combat = play.state.combat
    if combat is None:
        return
    if not play.state.units_on(combat.target) or play.state.owner(combat.target) != combat.defender:
        _conquered(play)
    elif not combat.committed:
        play.emit(m.CombatEnded(winner=combat.defender, how="repelled"))
    else:
        play.emit(m.CombatStep(stage="continue"))


def _conquered(play: Play) -> None:
    """K-FIG-5: the defender is wiped out; the survivors move in (a choice when there is one)."""
    combat = play.state.combat
    assert combat is not None
    options = subsets(combat.committed, play.table.board.room(play.state, combat.target))
    if len(options) == 1:
        _move_in(play, m.MoveIn(units=options[0]))
    else:
        play.emit(m.CombatStep(stage="move_in"))


def _move_in(play: Play, command: m.MoveIn) -> None:
    combat = play.state.combat
    assert combat is not None
    play.emit(
        m.UnitsMoved(
            seat=combat.attacker,
            source=combat.source,
            target=combat.target,
            units=command.units,
            rule="K-FIG-5",
        ),
        m.CombatEnded(winner=combat.attacker, how="conquered"),
    )


def eliminate(play: Play, seat: str, by: str, *, crown_tile: str) -> None:
    """K-CAS-4..7: ``seat``'s crown fell to ``by``."""
    state, table = play.state, play.table
    special = table.pack.seats[seat].special if seat in table.pack.seats else ""
    on_board = any(
        base_of(u) == special for a in state.board.values() if a.owner == seat for u in a.units
    )
    if not (on_board or state.player(seat).reserve.get(special, 0)):
        special = ""
    combat = state.combat
    play.emit(m.PlayerEliminated(seat=seat, by=by, special=special))
    if combat is not None and seat == combat.attacker:
        play.emit(m.CombatEnded(winner=by, how="crown_fell"))
    home = table.board.home(seat)
    if crown_tile != home and play.state.owner(home) is None:
        choice = Choice(seat=by, kind="garrison", tile=home)
        if choice_options(table, play.state, choice):
            play.emit(m.ChoiceAwaited(choice=choice))
    if len(play.state.in_game()) == 1:
        if play.state.combat is not None:
            play.emit(m.CombatEnded(winner=by, how="last_crown"))
        finish(play, "last_crown")


def combat_command(play: Play, seat: str, command: Command) -> None:
    """The events of a legal decision in the fight."""
    combat = play.state.combat
    assert combat is not None
    if isinstance(command, m.PlayMagic):
        play_magic(play, seat, command)
        command = m.Pass()
    if isinstance(command, m.Pass):
        if combat.stage == "attack_magic":
            play.emit(m.CombatStep(stage="defence_magic"))
            _open_windows(play)
        else:
            _roll(play)
    elif isinstance(command, m.TakeLoss):
        _lose(play, seat, command.unit)
    elif isinstance(command, m.ContinueFight):
        _roll(play)
    elif isinstance(command, m.Withdraw):
        play.emit(m.CombatEnded(winner=combat.defender, how="withdrawn"))
    elif isinstance(command, m.MoveIn):
        _move_in(play, command)
