"""Kaladan's heuristic player: plays to win on its seat's view alone (never the state).

It judges each legal command by rules of thumb: it fights only with an edge in expected
dice (K-FIG-2's pools, as :func:`.rules.combat.pools` builds them), keeps its crown at home and
out of attacks, expands onto empty tiles (income and score, K-INC-2, K-END-2), garrisons a
threatened castle, spends gold on units and upgrades while it pays, and takes the best of
every card's choice. Ties are broken by its own seeded dice (``player_dice``).

:func:`evaluate` is the search player's estimate of a seat's winning chance
(``Hooks.evaluate``): the seats' K-END-2 scores and armies, as shares of a softmax.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from nataterra_core.kernel import Command, player_dice

from . import messages as m
from .board import board_for
from .content import load_pack
from .content.schema import KaladanPack
from .rules.combat import pools
from .rules.flow import Table, score
from .state import GameState, base_of
from .views import SeatView

__all__ = ["HeuristicPlayer", "evaluate"]

FIGHT_EDGE = 1.25
"""Attack only when the expected attack sum beats the expected defence by this factor."""


def _mean(dice: Sequence[int]) -> float:
    return sum((d + 1) / 2 for d in dice)


class HeuristicPlayer:
    """A purposeful Kaladan player, seeded for its tie-breaks."""

    def __init__(self, seed: int, *, pack: KaladanPack | None = None) -> None:
        self._dice = player_dice(seed, "kaladan-heuristic")
        self._pack = pack or load_pack()

    def choose(self, view: SeatView, legal_commands: Sequence[Command]) -> Command:
        """The best-valued legal command (ties by the player's own dice)."""
        assert view.seat is not None
        table = Table(self._pack, board_for(self._pack, view.map_id))
        scored = [(self._value(table, view, c), i) for i, c in enumerate(legal_commands)]
        best = max(score for score, _ in scored)
        top = [i for score, i in scored if score == best]
        return legal_commands[top[self._dice.draw(len(top))] if len(top) > 1 else top[0]]

    def rank(self, view: SeatView, legal_commands: Sequence[Command]) -> list[Command]:
        """The legal commands, best-valued first (ties in the list's order; no dice drawn):
        the search player's prior at the root."""
        assert view.seat is not None
        table = Table(self._pack, board_for(self._pack, view.map_id))
        values = [self._value(table, view, c) for c in legal_commands]
        order = sorted(range(len(legal_commands)), key=lambda n: -values[n])
        return [legal_commands[n] for n in order]

    # -- valuation --------------------------------------------------------------------------

    def _unit_value(self, table: Table, unit: str) -> float:
        kind = self._pack.units[base_of(unit)]
        if kind.class_ == "crown":
            return 100.0
        return _mean((table.die(unit, "attack"), table.die(unit, "defence")))

    def _threat(self, table: Table, view: SeatView, tile: str) -> float:
        """The expected attack enemies next to ``tile`` could bring against it."""
        seat = view.seat
        worst = 0.0
        for near in table.board.neighbours[tile]:
            army = view.board.get(near)
            if army is not None and army.owner != seat:
                worst = max(worst, _mean([table.die(u, "attack") for u in army.units]))
        return worst

    def _defence(
        self, table: Table, view: SeatView, tile: str, extra: tuple[str, ...] = ()
    ) -> float:
        army = view.board.get(tile)
        units = (*(army.units if army else ()), *extra)
        _, defence, _ = pools(table, (), units, tile, tile, tile in view.castle_upgrades)
        return _mean(defence)

    def _value(self, table: Table, view: SeatView, command: Command) -> float:
        seat = view.seat
        assert seat is not None
        me = next(p for p in view.players if p.seat == seat)
        late = view.event_deck_count <= 2 or view.final_order is not None
        if isinstance(command, (m.DrawEventCard, m.Pass, m.ContinueFight, m.Withdraw)):
            return self._combat_flow(table, view, command)
        if isinstance(command, m.EndPhase):
            return 0.0
        if isinstance(command, m.PlayMagic):
            return self._magic(table, view, command)
        if isinstance(command, m.Recruit):
            threatened = self._threat(table, view, command.castle) > 0
            prefer = (
                "shieldbearer"
                if threatened
                else "archer"
                if me.reserve.get("archer")
                else "swordsman"
            )
            return 5.0 + (1.0 if command.unit == prefer else 0.0)
        if isinstance(command, m.DeclineRecruit):
            return 0.1
        if isinstance(command, (m.Revive, m.FreeUpgrade)):
            return self._unit_value(table, command.unit)
        if isinstance(command, m.LoseUnit):
            return 20.0 - self._unit_value(table, command.unit)
        if isinstance(command, m.TakeLoss):
            return 200.0 - self._unit_value(table, command.unit)
        if isinstance(command, m.ScoutOrder):
            return 0.0 if command.swap else 1.0
        if isinstance(command, m.MoveIn):
            crown = sum(1 for u in command.units if self._pack.units[base_of(u)].class_ == "crown")
            return len(command.units) - 10 * crown
        if isinstance(command, m.Fight):
            return self._fight(table, view, command)
        if isinstance(command, m.Move):
            return self._move(table, view, command, late)
        if isinstance(command, m.Swap):
            return -1.0
        if isinstance(command, m.Place):
            return self._place(table, view, command, me.gold, late)
        if isinstance(command, m.Upgrade):
            unit = command.unit
            if late:
                return -1.0
            frontier = self._threat(table, view, command.tile) > 0
            return (1.5 if frontier else 0.5) * self._unit_value(table, unit) / 5 - 0.5
        if isinstance(command, m.UpgradeCastle):
            return 2.0 if self._threat(table, view, command.tile) > 0 and not late else -1.0
        if isinstance(command, (m.ExchangeMagic, m.BuyMagic)):
            return -1.0
        if isinstance(command, m.BuyCaptured):
            return 0.5 if me.gold >= 8 and not late else -1.0
        return 0.0

    def _combat_flow(self, table: Table, view: SeatView, command: Command) -> float:
        if isinstance(command, m.DrawEventCard):
            return 1.0
        if isinstance(command, m.Pass):
            return 0.0
        combat = view.combat
        assert combat is not None
        attack, defence, _ = pools(
            table,
            combat.committed,
            view.board[combat.target].units if combat.target in view.board else (),
            combat.source,
            combat.target,
            combat.target in view.castle_upgrades,
        )
        edge = _mean(attack) / max(1.0, _mean(defence))
        keep_going = edge >= 1.0 or len(combat.committed) >= 3
        return 1.0 if isinstance(command, m.ContinueFight) == keep_going else 0.0

    def _magic(self, table: Table, view: SeatView, command: m.PlayMagic) -> float:
        kind = self._pack.magic[command.card].effect.kind
        if kind == "assassinate":
            return 3.0 + self._unit_value(table, command.unit) / 10
        if kind in ("combat_die", "gold"):
            return 5.0
        if kind == "revive":
            return 0.5 + self._unit_value(table, command.unit) / 10
        if kind == "remove_castle_upgrade":
            return 1.0
        if kind == "extra_move":
            return 0.5
        return -1.0  # scout: nothing to learn that changes the plan

    def _fight(self, table: Table, view: SeatView, command: m.Fight) -> float:
        units = command.units
        if any(self._pack.units[base_of(u)].class_ == "crown" for u in units):
            return -5.0  # the crown never attacks
        target = view.board[command.target]
        attack, defence, drop = pools(
            table,
            units,
            target.units,
            command.source,
            command.target,
            command.target in view.castle_upgrades,
        )
        mean_defence = _mean(defence) - (1.5 if drop else 0.0)
        edge = _mean(attack) / max(1.0, mean_defence)
        if edge < _needed_edge(len(units), len(target.units)):
            return -1.0
        crown = any(self._pack.units[base_of(u)].class_ == "crown" for u in target.units)
        prize = (
            3.0
            + (20.0 if crown else 0.0)
            + (3.0 if command.target in table.board.castle_of else 0.0)
        )
        return prize * min(edge, 2.0) + len(units) * 0.1

    def _move(self, table: Table, view: SeatView, command: m.Move, late: bool) -> float:
        board = table.board
        source = view.board[command.source]
        crown = any(self._pack.units[base_of(u)].class_ == "crown" for u in command.units)
        if crown:
            return -5.0
        left = len(source.units) - len(command.units)
        home = command.source == board.home(view.seat or "")
        if left == 0 or (home and left < 2):
            return -2.0
        if command.target in view.board:
            # Reinforce a threatened tile of ours.
            return (
                0.5
                if self._threat(table, view, command.target)
                > self._threat(table, view, command.source)
                else -1.0
            )
        value = 2.0 if len(command.units) == 1 else 1.0
        if self._threat(table, view, command.target) > 6 * len(command.units):
            value -= 1.5
        if command.target in board.castle_of:
            value += 4.0
        return value + (1.0 if late else 0.0)

    def _place(
        self, table: Table, view: SeatView, command: m.Place, gold: int, late: bool
    ) -> float:
        board = table.board
        kind = self._pack.units[command.unit]
        own = view.board.get(command.tile)
        threat = self._threat(table, view, command.tile)
        if own is None:  # expansion onto an empty tile
            value = 3.0 + (4.0 if command.tile in board.castle_of else 0.0)
            return value - kind.place_cost * 0.5
        castle = command.tile in board.castle_of and any(
            self._pack.units[base_of(u)].class_ == "crown" for u in own.units
        )
        if castle and threat > self._defence(table, view, command.tile) * 0.8:
            return 4.0 + (1.0 if command.unit == "shieldbearer" else 0.0)
        if late:
            return -1.0
        if threat > 0:
            return 1.0 + self._unit_value(table, command.unit) / 10 - kind.place_cost * 0.3
        if gold >= 6:
            return 0.2 + self._unit_value(table, command.unit) / 20
        return -1.0


def _needed_edge(attackers: int, defenders: int) -> float:
    """The edge a fight needs: more when few attackers face many defenders."""
    return FIGHT_EDGE + (0.15 if attackers < defenders else 0.0)


SCORE_SCALE = 6.0
"""K-END-2 points worth one unit of strength in :func:`evaluate` (a crown defeated is 5)."""
ARMY_WEIGHT = 0.5
"""The strength of an army the average seat's size (what wins the next fights)."""


def evaluate(state: GameState, seat: str) -> float:
    """``seat``'s chance of winning from ``state``, estimated (``Hooks.evaluate``): each seat
    still in the game has a strength, its K-END-2 score (what the deck's end ranks, K-END-1)
    over :data:`SCORE_SCALE` plus its units on the board against the average seat's, and its
    chance is its share of ``exp(strength)``. A seat eliminated has none; a game over is 1
    for a winner, 0 otherwise."""
    if state.phase == "over":
        return float(seat in state.winners)
    standing = state.in_game()
    if seat not in standing:
        return 0.0
    table = _table(state.map_id)
    units = dict.fromkeys(standing, 0)
    for army in state.board.values():
        if army.owner in units:
            units[army.owner] += len(army.units)
    average = max(1.0, sum(units.values()) / len(standing))
    strength = {
        s: score(table, state, s) / SCORE_SCALE + ARMY_WEIGHT * units[s] / average for s in standing
    }
    top = max(strength.values())
    weights = {s: math.exp(value - top) for s, value in strength.items()}
    return weights[seat] / sum(weights.values())


def _table(map_id: str) -> Table:
    """The tables of the library's pack, by map (the map's castles are what ``score`` reads;
    a user pack's map of another name falls back to the first map of the library's)."""
    pack = load_pack()
    if map_id not in pack.maps:
        map_id = next(iter(pack.maps))
    return Table(pack, board_for(pack, map_id))
