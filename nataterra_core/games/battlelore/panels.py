"""BattleLore's seat panels for clients (the registry's panels hook, ``kernel.panels``).

From a seat view — never the state — one panel per side: its medals towards the scenario's
target (B-WIN-1), kills and objectives, lore tokens, how many command and lore cards it
holds, and in the viewer's own panel its command cards (what each orders, B-CMD-1) and lore
cards (cost in lore tokens). Card ids are ``command:ID`` and ``lore:ID`` (copies share one):
:func:`card_of` gives the card a command plays, which the board-geometry hook puts in the
command's targets so a client plays a card by clicking it.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Command
from nataterra_core.kernel.panels import Card, Panels, SeatPanel, Stat

from . import messages as m
from .content.schema import CommandCard, LoreCard
from .rules.world import world_in_play
from .views import SeatView

__all__ = ["card_of", "panels"]


def panels(view: Any) -> Panels:
    """The panels of a BattleLore seat view."""
    if not isinstance(view, SeatView):
        raise TypeError(f"not a BattleLore view: {type(view).__name__}")
    world = world_in_play(view.pack, view.scenario)
    pack = world.pack
    seats = []
    for side in view.sides:
        hand = None
        if side.hand is not None:
            hand = tuple(_command(pack.cards.get(c), c) for c in side.hand)
            hand += tuple(_lore(pack.lore.get(c), c) for c in side.lore_hand or ())
        seats.append(
            SeatPanel(
                seat=side.seat,
                resources=(Stat(label="lore tokens", value=side.lore_tokens),),
                score=(
                    Stat(label="medals", value=f"{side.medals} of {world.scenario.medals}"),
                    Stat(label="kills", value=side.kills),
                    Stat(label="objectives", value=side.objectives),
                ),
                counts=(
                    Stat(label="command cards", value=side.hand_size),
                    Stat(label="lore cards", value=side.lore_hand_size),
                ),
                hand=hand,
            )
        )
    limit = f" of {view.max_turns}" if view.max_turns else ""
    stage = f"turn {view.turn}{limit}, {view.active} to play"
    if view.winner or view.ended:
        stage = f"the battle is over after turn {view.turn}"
    return Panels(seats=tuple(seats), stage=stage)


def _command(card: CommandCard | None, card_id: str) -> Card:
    if card is None:
        return Card(id=f"command:{card_id}", title=card_id, deck="command")
    orders = []
    for order in card.orders:
        kinds = " or ".join(order.kinds) if order.kinds else "unit"
        plural = "s" if order.count != 1 and not order.kinds else ""
        where = " or ".join(order.sections)
        orders.append(f"order {order.count} {kinds}{plural} in the {where}")
    text = "; ".join(orders)
    if card.copy_last:
        text = "acts as the opponent's last card"
    if card.move_bonus:
        text += f"; they move {card.move_bonus} more"
    if card.heal:
        text += f"; each regains {card.heal} figure"
    if card.draw > 1:
        text += f"; draw {card.draw} cards, keep one"
    return Card(id=f"command:{card_id}", title=card.name, text=text, deck="command")


def _lore(card: LoreCard | None, card_id: str) -> Card:
    if card is None:
        return Card(id=f"lore:{card_id}", title=card_id, deck="lore")
    text = f"{card.member}'s lore, when {card.window}: {card.effect}"
    if card.dice:
        text += f", {card.dice} dice"
    return Card(
        id=f"lore:{card_id}",
        title=card.name,
        cost=f"{card.cost} lore",
        text=text,
        deck="lore",
    )


def card_of(command: Command) -> str | None:
    """The card of the hand a command plays (``command:ID``, ``lore:ID``); ``None`` otherwise."""
    if isinstance(command, m.PlayCard):
        return f"command:{command.card}"
    if isinstance(command, m.PlayLore):
        return f"lore:{command.card}"
    return None
