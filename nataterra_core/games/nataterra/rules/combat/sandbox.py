"""The combat sandbox: one combat from a JSON description, as a rule system of its own.

The sandbox runs the same combat flow as the game, on the kernel, so battles can be
played, logged, verified and simulated (the battle calculator) without a whole game.
Without a map, retreating units leave the combat as survivors (N-COMBAT-23).

A description (``docs/COMBAT_SANDBOX.md``)::

    {"attacker": "velathi", "defender": "beasts", "biome": "hills",
     "forces": [{"owner": "velathi", "unit": "zealot", "count": 3, "side": "a"}, ...],
     "stocks": {"velathi": {"food": 2}}, "biome_card": null}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import msgspec

from nataterra_core.games.nataterra.content.schema import Biome, ContentPack, Side
from nataterra_core.kernel import (
    Command,
    ContentRef,
    Decided,
    Decision,
    DiceStream,
    Event,
    IllegalCommand,
    Outcome,
    RulesRef,
    Setup,
)
from nataterra_core.kernel.visibility import PUBLIC

from ..hexmap import GameMap, Hex, Zone
from ..stock import Resources
from . import messages
from .flow import (
    CombatEnv,
    Pending,
    Stepped,
    combat_from_start,
    decision,
    evolve_combat,
    run_on,
    start_combat,
    step,
)
from .model import Boost, Combat, Force

__all__ = [
    "SANDBOX_RULES",
    "Battle",
    "ForceSpec",
    "MapZone",
    "Sandbox",
    "SandboxState",
    "StartBattle",
    "battle_option",
]

SANDBOX_RULES = RulesRef(id="nataterra-combat-sandbox", version=4)

_replace = msgspec.structs.replace


class ForceSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """``count`` units of ``unit`` for ``owner``; ``side`` is the group-card side a tech
    selected (``None``: side A without tech abilities, N-DEV-5)."""

    owner: str
    unit: str
    count: int
    side: Literal["a", "b"] | None = None


class MapZone(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A zone of a battle's small map: id, axial hex, biome, and whose base it is."""

    id: str
    q: int
    r: int
    biome: Biome
    base: str | None = None


class Battle(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A combat to play: the two sides, the zone's biome, the forces, each side's stock
    (for injury fees), optionally the biome card that is drawn, bonus tokens per side, and
    a small map around the combat zone.

    ``boosts`` give each side's groups bonus tokens when they deploy, as structures do
    (attack per unit, armor per group, Deception, Reinforce, Bloodthirst levels). With a
    ``map`` (the combat zone is ``zone``, its biome ``biome``), retreating units move to
    adjacent zones as on the game's map (N-COMBAT-23); without one they leave the combat.
    """

    attacker: str
    defender: str
    biome: str = "forest"
    forces: tuple[ForceSpec, ...]
    stocks: dict[str, Resources] = msgspec.field(default_factory=dict)
    biome_card: str | None = None
    boosts: dict[str, Boost] = msgspec.field(default_factory=dict)
    zone: str = "sandbox"
    map: tuple[MapZone, ...] = ()


class StartBattle(Command, frozen=True, tag="start_battle.v1"):
    """The system command that opens the described combat."""

    visibility = PUBLIC


class SandboxState(msgspec.Struct, frozen=True, kw_only=True):
    """The battle, the combat once started, the dice counter and the result;
    ``lost_in_retreat`` counts each side's units destroyed for want of a zone to retreat to
    (N-COMBAT-23), which the combat's own ``killed`` does not."""

    battle: Battle
    combat: Combat | None = None
    counter: int = 0
    result: messages.CombatEnded | None = None
    lost_in_retreat: dict[str, int] = msgspec.field(default_factory=dict)


def battle_option(battle: Battle) -> str:
    """The header option holding a battle: its canonical JSON (options are scalars)."""
    return msgspec.json.encode(battle, order="deterministic").decode()


class SandboxHost:
    """A battle's host: its biome card is the one drawn, and on its small map only the two
    sides stand (a base bars the other side's retreat, N-COMBAT-23); there are no decks,
    pools or units next door."""

    __slots__ = ("battle",)

    def __init__(self, battle: Battle) -> None:
        self.battle = battle

    def blocked(self, seat: str, zone: str) -> bool:
        """Only another side's base bars a retreat on a battle's map (N-COMBAT-23)."""
        return any(z.id == zone and z.base not in (None, seat) for z in self.battle.map)

    def draw_biome(self, combat: Combat, dice: DiceStream) -> tuple[str | None, tuple[Event, ...]]:
        """The battle's biome card, if it names one (N-COMBAT-7)."""
        return self.battle.biome_card, ()

    def draw_tactic(self, seat: str, dice: DiceStream) -> tuple[Event, ...]:
        """No tactic decks in a battle."""
        return ()

    def flare_cost(self, seat: str, zone: str) -> int | None:
        """No lakes or prisons around a battle: no redirection (N-COMBAT-8)."""
        return None

    def ambush_unit(self, seat: str) -> str | None:
        """No pools: no Ambush."""
        return None

    def after_win_destinations(self, seat: str, unit: str) -> list[str]:
        """Nowhere to move after a win."""
        return []

    def zones_next_door(self, seat: str, combat: Combat) -> list[str]:
        """No units next door."""
        return []

    def strategists(self, seat: str, combat: Combat) -> list[tuple[str, str, int]]:
        """Nobody joins by Strategise (N-ABL-7 needs the game's map)."""
        return []

    def has_strategists(self) -> bool:
        """Nobody joins by Strategise."""
        return False


def _battle_map(battle: Battle) -> GameMap | None:
    """A battle's small map (``None`` without one)."""
    if not battle.map:
        return None
    return GameMap(
        "sandbox",
        [Zone.plain(z.id, Hex(z.q, z.r), z.biome, base_owner=z.base) for z in battle.map],
    )


class Sandbox:
    """The sandbox decider: ``Session.new(Sandbox(pack), seats=(attacker, defender),
    options={"battle": battle_option(battle)}, ...)``.

    The header options hold the battle, so a sandbox log verifies like any other.
    """

    rules = SANDBOX_RULES
    turn_rule = "N-COMBAT-10"
    command_types: Sequence[type[Command]] = (StartBattle, *messages.COMMANDS)
    event_types: Sequence[type[Event]] = messages.EVENTS

    def __init__(self, pack: ContentPack) -> None:
        self.pack = pack
        self.content = ContentRef(id=pack.pack_id, sha256=pack.sha256)
        self._decoded: tuple[str, Battle] | None = None
        # The last battle's opening event and the combat it opens: pure functions of the
        # battle, built once for the many runs of one battle (the battle calculator).
        self._opening: tuple[Battle, messages.CombatStarted, Combat] | None = None

    def env(self, battle: Battle) -> CombatEnv:
        """The battle's environment: its biome card (or none) is drawn, and retreats use
        its small map when it has one."""
        return CombatEnv(self.pack, _battle_map(battle), SandboxHost(battle))

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """The options hold one valid ``battle`` (and perhaps ``tournament``)."""
        if "battle" not in options or set(options) - {"battle", "tournament"}:
            raise ValueError("the sandbox takes the option 'battle' (and 'tournament')")
        self._battle(options)

    def _battle(self, options: Mapping[str, Any]) -> Battle:
        """The described battle, validated; the same object for the same description (so
        its environment is built once, not once per battle played)."""
        text = str(options["battle"])
        known = self._decoded
        if known is not None and known[0] == text:
            return known[1]
        battle = self._decode_battle(text)
        self._decoded = (text, battle)
        return battle

    def _decode_battle(self, text: str) -> Battle:
        try:
            battle = msgspec.json.decode(text.encode(), type=Battle)
        except msgspec.DecodeError as exc:
            raise ValueError(f"bad battle description: {exc}") from exc
        for spec in battle.forces:
            if spec.unit not in self.pack.units:
                raise ValueError(f"unknown unit {spec.unit!r}")
            if spec.owner not in (battle.attacker, battle.defender):
                raise ValueError(f"{spec.owner!r} is neither attacker nor defender")
            if self.pack.units[spec.unit].civ != spec.owner or spec.count < 1:
                raise ValueError(f"{spec.count} {spec.unit} cannot fight for {spec.owner}")
        if battle.map:
            ids = {z.id for z in battle.map}
            here = next((z for z in battle.map if z.id == battle.zone), None)
            if len(ids) != len(battle.map) or here is None or here.biome != battle.biome:
                raise ValueError(
                    "a battle map needs unique zone ids and the combat zone "
                    f"{battle.zone!r} with the battle's biome {battle.biome!r}"
                )
        unknown = set(battle.boosts) - {battle.attacker, battle.defender}
        if unknown:
            raise ValueError(f"boosts for {sorted(unknown)}, who are not fighting")
        card = battle.biome_card
        if card is not None:
            if card not in self.pack.biome_cards:
                raise ValueError(f"unknown biome card {card!r}")
            deck = self.pack.biome_cards[card].biome
            if deck != battle.biome:  # N-COMBAT-7: the card comes from the zone's deck
                raise ValueError(
                    f"N-COMBAT-7: a {battle.biome} battle draws no {deck} card ({card!r}); "
                    "mountains and lakes draw none"
                )
        return battle

    def _combat(self, battle: Battle, started: messages.CombatStarted) -> Combat:
        """The combat with the battle's bonus tokens (boosts act on deployment)."""
        known = self._opening
        if known is not None and known[0] is battle and known[1] is started:
            return known[2]  # the combat decide() opened: its decision is remembered too
        return self._boosted(battle, started)

    @staticmethod
    def _boosted(battle: Battle, started: messages.CombatStarted) -> Combat:
        combat = combat_from_start(started)
        if not battle.boosts:
            return combat
        boosts = {f"{owner}@{battle.zone}": boost for owner, boost in battle.boosts.items()}
        return msgspec.structs.replace(combat, boosts=boosts)

    def _start(self, battle: Battle) -> tuple[messages.CombatStarted, Combat]:
        """The event that opens ``battle`` and the combat it opens (remembered)."""
        known = self._opening
        if known is not None and known[0] is battle:
            return known[1], known[2]
        counts: dict[tuple[str, str], int] = {}
        for spec in battle.forces:
            counts[spec.owner, spec.unit] = counts.get((spec.owner, spec.unit), 0) + spec.count
        sides: dict[str, dict[str, Side]] = {battle.attacker: {}, battle.defender: {}}
        for spec in battle.forces:
            if spec.side is not None:
                sides[spec.owner][spec.unit] = spec.side
        started = start_combat(
            zone=battle.zone,
            biome=battle.biome,
            attacker=battle.attacker,
            defender=battle.defender,
            forces=[Force(o, u, n) for (o, u), n in counts.items()],
            sides=sides,
            stocks={
                c: battle.stocks.get(c, Resources()) for c in (battle.attacker, battle.defender)
            },
        )
        combat = self._boosted(battle, started)
        self._opening = (battle, started, combat)
        return started, combat

    def initial_state(self, setup: Setup) -> SandboxState:
        """The described battle, not started."""
        battle = self._battle(setup.options)
        if tuple(setup.seats) != (battle.attacker, battle.defender):
            raise ValueError("the seats are the attacker and the defender, in that order")
        return SandboxState(battle=battle)

    def start_command(self, setup: Setup) -> Command:
        """Record 1's command."""
        return StartBattle()

    def decide(
        self,
        state: SandboxState,
        command: Command,
        dice: DiceStream,
        *,
        seat: str | None,
        legal: bool = False,
    ) -> Decided[SandboxState, Event]:
        """Open the battle, or play one combat decision: the events, the state after them
        (folded while deciding) and that state's decision (reached while deciding)."""
        battle = state.battle
        env = self.env(battle)
        drawn = dice.counter
        if isinstance(command, StartBattle):
            if seat is not None or state.combat is not None:
                raise IllegalCommand("N-COMBAT-1", "the battle has already started")
            started, combat = self._start(battle)
            stepped = run_on(env, combat, dice)
            return self._decided(state, stepped, (started, *stepped[0]), drawn, dice)
        if state.combat is None or seat is None:
            raise IllegalCommand("N-COMBAT-1", "the battle has not started")
        stepped = step(env, state.combat, seat, command, dice, listed=legal)
        return self._decided(state, stepped, stepped[0], drawn, dice)

    @staticmethod
    def _decided(
        state: SandboxState,
        stepped: Stepped,
        events: tuple[Event, ...],
        drawn: int,
        dice: DiceStream,
    ) -> Decided[SandboxState, Event]:
        """``events`` with the state after them, as :meth:`evolve` would fold them (the
        combat ``stepped`` already folded), and the decision reached. Every draw is
        recorded in an event (design.md §3), so the stream's counter is the state's; units
        are lost in a retreat, and the result is known, only once the combat is decided."""
        folded, combat, pending = stepped
        counter = dice.counter if dice.counter != drawn else state.counter
        if not combat.decided:
            after = _replace(state, combat=combat, counter=counter)
            return Decided(events, after, _as_decision(pending))
        result, lost = state.result, state.lost_in_retreat
        for event in folded:
            kind = type(event)
            if kind is _ENDED:
                result = event  # type: ignore[assignment]
            elif kind is _RETREATED:
                retreated: Any = event
                if retreated.lost:
                    lost = {**lost, retreated.seat: lost.get(retreated.seat, 0) + retreated.count}
        after = _replace(state, combat=combat, counter=counter, result=result, lost_in_retreat=lost)
        return Decided(events, after, _as_decision(pending if result is None else None))

    def evolve(self, state: SandboxState, event: Event) -> SandboxState:
        """Fold one event."""
        if type(event) is messages.CombatStarted:
            return msgspec.structs.replace(state, combat=self._combat(state.battle, event))
        assert state.combat is not None
        combat = evolve_combat(self.pack, state.combat, event)
        if type(event) is messages.AttackResolved:
            if event.counter_after is None:  # the roll was its own event (Deception)
                return _replace(state, combat=combat)
            return _replace(state, combat=combat, counter=event.counter_after)
        if type(event) is messages.AttackRolled:
            return _replace(state, combat=combat, counter=event.counter_after)
        if type(event) is messages.CombatEnded:
            return _replace(state, combat=combat, result=event)
        if type(event) is messages.UnitsRetreated and event.lost:
            lost = dict(state.lost_in_retreat)
            lost[event.seat] = lost.get(event.seat, 0) + event.count
            return _replace(state, combat=combat, lost_in_retreat=lost)
        return _replace(state, combat=combat)

    def decision(self, state: SandboxState) -> Decision[Command]:
        """Who decides in the combat now, and the pending decision's options."""
        if state.combat is None or state.result is not None:
            return _as_decision(None)
        return _as_decision(decision(self.env(state.battle), state.combat))

    def acting_seats(self, state: SandboxState) -> Sequence[str]:
        """Whoever must decide in the combat now."""
        return self.decision(state).acting

    def legal_commands(self, state: SandboxState, seat: str) -> Sequence[Command]:
        """The pending decision's options, for the seat that decides."""
        return self.decision(state).legal(seat)

    def dice_counter(self, state: SandboxState) -> int:
        """Dice words consumed."""
        return state.counter

    def turn_number(self, state: SandboxState) -> int:
        """One turn: the battle (undo works within it until dice are rolled)."""
        return 1

    def outcome(self, state: SandboxState) -> Outcome | None:
        """Who won the battle, and the units each side lost."""
        result = state.result
        if result is None:
            return None
        lost = {
            seat: result.killed.get(seat, 0)
            + result.injured.get(seat, 0)
            + state.lost_in_retreat.get(seat, 0)
            for seat in (state.battle.attacker, state.battle.defender)
        }
        winners = (result.winner,) if result.winner else ()
        return Outcome(
            winners=winners,
            draw=not winners,
            scores=lost,
            reason="battle_won" if winners else "no_winner",
        )


_ENDED, _RETREATED = messages.CombatEnded, messages.UnitsRetreated


def _no_commands(seat: str) -> tuple[Command, ...]:
    return ()


def _as_decision(pending: Pending) -> Decision[Command]:
    """A combat's pending decision as the kernel's :class:`Decision`."""
    return Decision((), _no_commands) if pending is None else Decision.asking(*pending)
