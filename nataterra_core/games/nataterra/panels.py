"""Nataterra's seat panels for clients (the registry's panels hook, ``kernel.panels``).

From a seat view — never the state — one panel per civilisation: its stock (with the
multipliers), flare, cubes, the units in its pool, how many tech and tactic cards it holds,
and in the viewer's own panel its tech and tactic cards by title, cost and text. A card's id
is ``tech:ID`` or ``tactic:ID``; :func:`card_of` gives the card a command plays, which the
board-geometry hook puts in the command's targets so a client makes the card clickable.
The combat sandbox's view has no stock or hands: its panels name the two sides.
"""

from __future__ import annotations

from typing import Any

from nataterra_core.kernel import Command
from nataterra_core.kernel.panels import Card, Panels, SeatPanel, Stat

from .content import ContentPack, load_pack
from .messages.combat import DiscardTactic, PlayTactic
from .messages.development import Research
from .views import PlayerView, SandboxView, SeatView
from .words.base import resources_text

__all__ = ["card_of", "panels"]


def panels(view: Any) -> Panels:
    """The panels of a Nataterra (or combat sandbox) seat view."""
    if isinstance(view, SandboxView):
        return Panels(
            seats=(
                SeatPanel(seat=view.attacker, name="attacker"),
                SeatPanel(seat=view.defender, name="defender"),
            ),
            stage="the battle" if view.combat is not None else "the battle is over",
        )
    if not isinstance(view, SeatView):
        raise TypeError(f"not a Nataterra view: {type(view).__name__}")
    pack = load_pack.in_play(view.pack)
    limit = f" of {view.max_turns}" if view.max_turns else ""
    stage = (
        "setting up" if view.phase == "setup" else f"turn {view.turn}{limit}, {view.phase} phase"
    )
    if view.phase == "over":
        stage = f"the game is over after turn {view.turn}"
    return Panels(seats=tuple(_panel(view, player, pack) for player in view.players), stage=stage)


def _panel(view: SeatView, player: PlayerView, pack: ContentPack) -> SeatPanel:
    civ = pack.civilisations.get(player.civ)
    stock, factor = player.stock, player.multipliers
    resources = tuple(
        Stat(label=name, value=f"{count} (x{times})" if times != 1 else count)
        for name, count, times in (
            ("food", stock.food, factor.food),
            ("wood", stock.wood, factor.wood),
            ("metal", stock.metal, factor.metal),
        )
    ) + ((Stat(label="flare", value=player.flare),) if player.flare else ())
    score = []
    if view.conditions:
        by = view.condition_cubes.get(player.civ, {})
        score.append(Stat(label="cubes", value=sum(by.values())))
    elif view.cubes or view.dominance_cubes:
        score.append(Stat(label="cubes", value=view.cubes.get(player.civ, 0)))
    if player.techs:
        score.append(Stat(label="techs", value=len(player.techs)))
    if player.civ in view.bases_destroyed:
        score.append(Stat(label="base", value="destroyed"))
    pool = sum(player.pool.values())
    counts = (
        Stat(label="tech cards", value=player.tech_hand_count),
        Stat(label="tactic cards", value=player.tactic_hand_count),
        Stat(label="units in pool", value=pool),
    )
    hand = None
    if player.tech_hand is not None or player.tactic_hand is not None:
        hand = tuple(_tech(pack, t) for t in player.tech_hand or ()) + tuple(
            _tactic(pack, t) for t in player.tactic_hand or ()
        )
    return SeatPanel(
        seat=player.civ,
        name=civ.title if civ is not None and civ.title != player.civ else "",
        resources=resources,
        score=tuple(score),
        counts=counts,
        hand=hand,
        out=player.civ in view.eliminated,
    )


def _tech(pack: ContentPack, tech: str) -> Card:
    card = pack.techs.get(tech)
    if card is None:
        return Card(id=f"tech:{tech}", title=tech, deck="tech")
    if card.cost is not None:
        bonuses = ", ".join(f"{b.kind.replace('_', ' ')} {b.amount}" for b in card.bonuses)
        text = f"{card.resource} tech" + (f": {bonuses}" if bonuses else "")
        return Card(
            id=f"tech:{tech}",
            title=card.title,
            cost=resources_text(card.cost),
            text=text,
            deck="tech",
        )
    options = [
        f"{letter}: {option.title} ({resources_text(option.cost)})"
        for letter, option in (("A", card.option_a), ("B", card.option_b))
        if option is not None
    ]
    unit = pack.units.get(card.unit or "")
    text = (f"{unit.title} tech; " if unit is not None else "") + "; ".join(options)
    return Card(id=f"tech:{tech}", title=card.title, text=text, deck="tech")


def _tactic(pack: ContentPack, name: str) -> Card:
    card = pack.tactics.get(name)
    if card is None:
        return Card(id=f"tactic:{name}", title=name, deck="tactic")
    texts = [option.text for option in card.options if option.text]
    costs = [resources_text(option.cost) for option in card.options]
    cost = " or ".join(dict.fromkeys(c for c in costs if c != "nothing"))
    return Card(
        id=f"tactic:{name}",
        title=card.title,
        cost=cost,
        text=" / ".join(texts),
        deck="tactic",
    )


def card_of(command: Command) -> str | None:
    """The card of the hand a command plays (researching a tech, playing or discarding a
    tactic), as its panel's id; ``None`` for any other command."""
    if isinstance(command, Research):
        return f"tech:{command.tech}"
    if isinstance(command, (PlayTactic, DiscardTactic)):
        return f"tactic:{command.card}"
    return None
