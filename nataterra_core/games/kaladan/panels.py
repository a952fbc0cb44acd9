"""Kaladan's seat panels for clients (the registry's panels hook, ``kernel.panels``).

From a seat view — never the state — one panel per seat: its gold, crowns and scalps (and
the score once the game is scored), how many magic and captured cards it holds and the units
in its reserve, and in the viewer's own panel its magic cards by title and text. A card's id
is ``magic:KIND`` (a hand names cards by kind: copies share it): :func:`card_of` gives the
card a command plays or exchanges, which the board-geometry hook puts in the command's
targets.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Command
from nataterra_core.kernel.panels import Card, Panels, SeatPanel, Stat

from . import messages as m
from .content import load_pack
from .views import SeatView

__all__ = ["card_of", "panels"]


def panels(view: Any) -> Panels:
    """The panels of a Kaladan seat view."""
    if not isinstance(view, SeatView):
        raise TypeError(f"not a Kaladan view: {type(view).__name__}")
    pack = load_pack.in_play(view.pack)
    seats = []
    for player in view.players:
        score = [
            Stat(label="crowns", value=player.crowns),
            Stat(label="scalps", value=len(player.graveyard)),
        ]
        if player.seat in view.scores:
            score.append(Stat(label="score", value=view.scores[player.seat]))
        hand = None
        if player.hand is not None:
            hand = tuple(_magic(pack, card) for card in player.hand)
        seats.append(
            SeatPanel(
                seat=player.seat,
                resources=(Stat(label="gold", value=player.gold),),
                score=tuple(score),
                counts=(
                    Stat(label="magic cards", value=player.hand_count),
                    Stat(label="captured cards", value=player.captured_count),
                    Stat(label="units in reserve", value=sum(player.reserve.values())),
                ),
                hand=hand,
                out=player.eliminated,
            )
        )
    stage = f"turn {view.turn}, {view.active}'s {view.phase} phase"
    if view.winners or view.reason:
        stage = f"the game is over after turn {view.turn}"
    return Panels(seats=tuple(seats), stage=stage)


def _magic(pack: Any, card: str) -> Card:
    kind = card
    found = pack.magic.get(kind)
    if found is None:
        return Card(id=f"magic:{kind}", title=kind, deck="magic")
    return Card(id=f"magic:{kind}", title=found.title, text=found.text, deck="magic")


def card_of(command: Command) -> str | None:
    """The magic card a command plays or exchanges (``magic:KIND``); ``None`` otherwise."""
    if isinstance(command, (m.PlayMagic, m.ExchangeMagic)):
        return f"magic:{command.card}"
    return None
