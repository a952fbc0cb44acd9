"""The resources phase (rules §5, N-RES-1..4).

On entering the phase the active player's workers gather: each zone producing a resource
counts once if it holds at least one of their workers, whoever else is there (N-RES-2),
and the count is multiplied by that resource's multiplier (N-RES-1). Only this gathering is
ever multiplied (N-RES-3).
"""

from __future__ import annotations

import msgspec

from ..messages.development import (
    ResourcesGathered,
)
from ..state import GameState, Resources
from .context import Context

__all__ = ["gather"]


def gather(ctx: Context, state: GameState, seat: str) -> ResourcesGathered:
    """What ``seat``'s workers gather now (N-RES-1/2)."""
    zones = sorted(
        {
            s.zone
            for s in state.stacks_of(seat)
            if s.unit in ctx.workers and ctx.map.zones[s.zone].resource is not None
        }
    )
    counts = {"food": 0, "wood": 0, "metal": 0}
    for zone in zones:
        resource = ctx.map.zones[zone].resource
        assert resource is not None
        counts[resource] += 1
    m = state.player(seat).multipliers
    gain = Resources(counts["food"] * m.food, counts["wood"] * m.wood, counts["metal"] * m.metal)
    return ResourcesGathered(seat=seat, zones=tuple(zones), gain=gain)


def evolve_resources_gathered(state: GameState, event: ResourcesGathered) -> GameState:
    """Add the gain to the stock (no upper limit, N-RES-1)."""
    player = state.player(event.seat)
    return state.with_player(msgspec.structs.replace(player, stock=player.stock + event.gain))
