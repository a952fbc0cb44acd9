"""Which lore cards a side may play in each window (B-ADV-3, B-ADV-5): affordable cards of
the window with a target, one play per window (B-ADV-5a). Pure questions about a position."""

from __future__ import annotations

from .. import messages as m
from ..board import distance
from ..content.schema import LoreCard
from ..state import BattleLoreState
from .world import World

__all__ = ["lore_card", "lore_commands"]


def lore_card(world: World, card_id: str) -> LoreCard:
    return world.pack.lore[card_id]


def lore_commands(world: World, state: BattleLoreState, seat: str, window: str) -> list[m.Command]:
    """The lore plays ``seat`` may make in ``window`` (affordable, one per window)."""
    side = state.side_of(seat)
    found: list[m.Command] = []
    for card_id in sorted(set(side.lore_hand)):
        card = lore_card(world, card_id)
        if card.window != window or card.cost > side.lore_tokens:
            continue
        found += _plays(world, state, seat, card)
    return found


def _plays(world: World, state: BattleLoreState, seat: str, card: LoreCard) -> list[m.Command]:
    own = [u for u in state.units if u.side == seat]
    enemies = [u for u in state.units if u.side != seat]
    play = m.PlayLore
    combat_ = state.combat
    match card.effect:
        case "damage":
            return [
                play(card=card.id, unit=e.id)
                for e in enemies
                if any(distance(e.hex, u.hex) <= card.range for u in own)
            ]
        case "teleport":  # B-ADV-5f: an empty hex of a shared section, at most 3 away
            occupied = {u.hex for u in state.units}
            found: list[m.Command] = []
            for unit in own:
                sections = set(world.board.sections(unit.hex, seat))
                found += [
                    play(card=card.id, unit=unit.id, to=h)
                    for h in sorted(world.board.hexes)
                    if h not in occupied
                    and not world.terrain_at(h).impassable
                    and sections & set(world.board.sections(h, seat))
                    and distance(h, unit.hex) <= 3
                ]
            return found
        case "discard_random":
            return [play(card=card.id)] if state.side_of(state.other(seat)).hand else []
        case "extra_order":
            return [play(card=card.id)]
        case "heal":
            return [play(card=card.id, unit=u.id) for u in own if u.figures < u.start]
        case "steal_token":
            return [play(card=card.id)] if state.side_of(state.other(seat)).lore_tokens else []
        case "cancel_hit":
            return [play(card=card.id)] if combat_ is not None and combat_.hits > 0 else []
        case "shield_wall":
            defender = state.unit(combat_.defender) if combat_ is not None else None
            if combat_ is None or defender is None or combat_.flags <= 0:
                return []
            return [play(card=card.id)] if world.friends_around(state, defender) >= 2 else []
        case "ambush":
            ok = combat_ is not None and combat_.melee and combat_.kind in ("battle", "bonus")
            return [play(card=card.id)] if ok else []
        case "ignore_flag":
            return [play(card=card.id)] if combat_ is not None and combat_.flags > 0 else []
        case "extra_die":
            return [
                play(card=card.id, unit=u.id)
                for u in own
                if u.id in state.ordered
                and u.id not in state.battled
                and u.id not in state.no_battle
                and u.id not in state.charged
                and (not card.kinds or world.type_of(u).kind in card.kinds)
                and world.targets(state, u)
            ]
    return []
