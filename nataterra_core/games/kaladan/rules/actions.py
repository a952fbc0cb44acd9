"""The active player's own phases: free recruitment (K-REC-1), the one action (K-ACT-1..3),
buying (K-BUY-1..3) and the reinforcement manoeuvre (K-REI-1).

Each phase's legal commands are listed here once (a command outside the list is explained
by :mod:`.refusals`, naming the rule it breaks); :func:`apply` turns a legal one into events.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from nataterra_core.kernel import Command

from .. import messages as m
from ..state import GameState, base_of, is_upgraded
from .flow import Play, Table, end_turn, next_phase

__all__ = ["apply", "buy_options", "phase_options", "subsets"]


def subsets(units: tuple[str, ...], most: int | None = None) -> list[tuple[str, ...]]:
    """Every non-empty sub-multiset of ``units`` (sorted, each once), of at most ``most``."""
    found: set[tuple[str, ...]] = set()
    ordered = tuple(sorted(units))
    for size in range(1, (len(ordered) if most is None else min(most, len(ordered))) + 1):
        found.update(combinations(ordered, size))
    return sorted(found, key=lambda s: (len(s), s))


def _kinds(units: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted(set(units)))


def recruit_options(table: Table, state: GameState, seat: str) -> list[Command]:
    """K-REC-1: for the next castle ``seat`` controls that can take a unit, each base unit in
    reserve, and declining."""
    player = state.player(seat)
    bases = [u for u in table.pack.base_units() if player.reserve.get(u, 0) > 0]
    for castle in table.board.castles_of(state, seat):
        if castle in state.recruit_done or not bases or table.board.room(state, castle) < 1:
            continue
        return [*(m.Recruit(castle=castle, unit=u) for u in bases), m.DeclineRecruit(castle=castle)]
    return []


def moves(
    table: Table, state: GameState, seat: str, *, single: bool = False, haste: bool = False
) -> Iterator[m.Move]:
    """K-ACT-1 (``single``: K-REI-1): units from one tile of ``seat`` to one adjacent tile it
    controls or that is empty, within capacity (K-TER-1)."""
    board = table.board
    for source in state.tiles_of(seat):
        units = state.units_on(source)
        groups = [(u,) for u in _kinds(units)] if single else subsets(units)
        for target in board.neighbours[source]:
            if state.owner(target) not in (None, seat):
                continue
            room = board.room(state, target)
            for group in groups:
                if len(group) <= room:
                    yield m.Move(source=source, target=target, units=group, haste=haste)


def swaps(table: Table, state: GameState, seat: str, *, single: bool = False) -> Iterator[m.Swap]:
    """K-ACT-2 (``single``: K-REI-1): 1↔1, 1↔n or n↔1 between two adjacent tiles of ``seat``,
    both within capacity afterwards."""
    board = table.board
    for first in state.tiles_of(seat):
        for second in board.neighbours[first]:
            if second <= first or state.owner(second) != seat:
                continue
            a, b = state.units_on(first), state.units_on(second)
            gives = [(u,) for u in _kinds(a)] if single else subsets(a)
            takes = [(u,) for u in _kinds(b)] if single else subsets(b)
            for give in gives:
                for take in takes:
                    if give == take or (len(give) > 1 and len(take) > 1):
                        continue
                    if len(a) - len(give) + len(take) > board.capacity_of[first]:
                        continue
                    if len(b) - len(take) + len(give) > board.capacity_of[second]:
                        continue
                    yield m.Swap(first=first, second=second, give=give, take=take)


def fights(table: Table, state: GameState, seat: str) -> Iterator[m.Fight]:
    """K-ACT-3: from one tile of ``seat`` against one adjacent enemy tile, with any
    non-empty group of its units (K-FIG-2)."""
    for source in state.tiles_of(seat):
        groups = subsets(state.units_on(source))
        for target in table.board.neighbours[source]:
            if state.owner(target) not in (None, seat):
                for group in groups:
                    yield m.Fight(source=source, target=target, units=group)


def action_options(table: Table, state: GameState, seat: str) -> list[Command]:
    """The action phase's commands besides magic cards and ending the phase."""
    found: list[Command] = []
    if not state.action_done:
        found += [
            *moves(table, state, seat),
            *swaps(table, state, seat),
            *fights(table, state, seat),
        ]
    if state.extra_moves > 0:
        found += moves(table, state, seat, haste=True)
    return found


def _placement_tiles(table: Table, state: GameState, seat: str) -> list[str]:
    """K-BUY-3: tiles of ``seat`` with room, and the empty tiles next to its territory while
    no empty tile was taken this buy phase."""
    board = table.board
    tiles = [t for t in state.tiles_of(seat) if board.room(state, t) > 0]
    if not state.placed_empty:
        tiles += board.territory_edge(state, seat)
    return sorted(tiles)


def buy_options(table: Table, state: GameState, seat: str) -> list[Command]:
    """The buy phase's commands besides magic plays and ending the phase (K-BUY-1..3, K-CAS-6)."""
    pack, board, player = table.pack, table.board, state.player(seat)
    economy = pack.economy
    found: list[Command] = []
    for unit, count in sorted(player.reserve.items()):
        cost = pack.units[unit].place_cost
        if count > 0 and cost <= player.gold and unit not in player.fresh:
            found += [m.Place(tile=t, unit=unit) for t in _placement_tiles(table, state, seat)]
    for tile in state.tiles_of(seat):
        for unit in _kinds(state.units_on(tile)):
            kind = pack.units[base_of(unit)]
            if (
                not is_upgraded(unit)
                and kind.class_ != "crown"
                and kind.upgrade_cost <= player.gold
            ):
                found.append(m.Upgrade(tile=tile, unit=unit))
    if player.gold >= economy.castle_upgrade_cost:
        found += [
            m.UpgradeCastle(tile=t)
            for t in board.castles_of(state, seat)
            if t not in state.castle_upgrades
        ]
    if player.gold >= economy.magic_exchange_cost:
        found += [m.ExchangeMagic(card=k) for k in _kinds(player.hand)]
    if player.gold >= economy.magic_buy_cost and (state.magic_deck or state.magic_discard):
        found.append(m.BuyMagic())
    if player.gold >= economy.captured_magic_cost:
        found += [m.BuyCaptured(index=i) for i in range(len(player.captured))]
    return found


def reinforce_options(table: Table, state: GameState, seat: str) -> list[Command]:
    """K-REI-1: one unit moved, or one unit swapped for one."""
    return [*moves(table, state, seat, single=True), *swaps(table, state, seat, single=True)]


def phase_options(table: Table, state: GameState, seat: str) -> list[Command]:
    """The phase's own commands (no magic, no ending) for the active ``seat``."""
    if state.phase == "recruit":
        return recruit_options(table, state, seat)
    if state.phase == "action":
        return action_options(table, state, seat)
    if state.phase == "buy":
        return buy_options(table, state, seat)
    if state.phase == "reinforce":
        return reinforce_options(table, state, seat)
    return []


def apply(play: Play, seat: str, command: Command) -> None:
    """The events of a legal recruitment, move, swap, purchase or phase end."""
    state, pack = play.state, play.table.pack
    if isinstance(command, m.Recruit):
        play.emit(m.Recruited(seat=seat, castle=command.castle, unit=command.unit))
    elif isinstance(command, m.DeclineRecruit):
        play.emit(m.Recruited(seat=seat, castle=command.castle))
    elif isinstance(command, m.Move):
        rule = (
            "K-REI-1" if state.phase == "reinforce" else "K-CARD-2" if command.haste else "K-ACT-1"
        )
        play.emit(
            m.UnitsMoved(
                seat=seat,
                source=command.source,
                target=command.target,
                units=command.units,
                rule=rule,
            )
        )
        if state.phase == "reinforce":
            end_turn(play)
    elif isinstance(command, m.Swap):
        play.emit(
            m.UnitsSwapped(
                seat=seat,
                first=command.first,
                second=command.second,
                give=command.give,
                take=command.take,
            )
        )
        if state.phase == "reinforce":
            end_turn(play)
    elif isinstance(command, m.Place):
        cost = pack.units[command.unit].place_cost
        play.emit(
            m.UnitPlaced(seat=seat, tile=command.tile, unit=command.unit, cost=cost, rule="K-BUY-3")
        )
    elif isinstance(command, m.Upgrade):
        cost = pack.units[command.unit].upgrade_cost
        play.emit(m.UnitUpgraded(seat=seat, tile=command.tile, unit=command.unit, cost=cost))
    elif isinstance(command, m.UpgradeCastle):
        play.emit(
            m.CastleUpgraded(seat=seat, tile=command.tile, cost=pack.economy.castle_upgrade_cost)
        )
    elif isinstance(command, m.EndPhase):
        if state.phase == "reinforce":
            end_turn(play)
        else:
            next_phase(play)
    else:
        raise TypeError(type(command).__name__)
