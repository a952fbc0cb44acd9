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
from types import MappingProxyType
from typing import Any, ClassVar, Final

import msgspec

from nataterra_core.games.nataterra.content.schema import ContentPack, Side
from nataterra_core.kernel import (
    Command,
    ContentRef,
    Decided,
    Decision,
    DiceStream,
    Event,
    Folds,
    IllegalCommand,
    Outcome,
    RulesRef,
    Setup,
)

from ...messages import SANDBOX_COMMANDS, SANDBOX_EVENTS
from ...messages import combat as messages
from ...messages.sandbox import StartBattle
from ..stock import Resources
from .flow import (
    CombatEnv,
    combat_from_start,
    decision,
    evolve_combat,
    start_combat,
)
from .holdings import HOLDINGS, fold_stocks
from .model import Combat, Force
from .sandbox_model import Battle, ForceSpec, MapZone, SandboxState, battle_option
from .sandbox_steps import as_decision, battle_env, decided, opened

__all__ = [
    "SANDBOX_RULES",
    "Battle",
    "ForceSpec",
    "MapZone",
    "Sandbox",
    "SandboxState",
    "battle_option",
]

SANDBOX_RULES = RulesRef(id="nataterra-combat-sandbox", version=5)

_replace: Final = msgspec.structs.replace


class Sandbox:
    """The sandbox decider: ``Session.new(Sandbox(pack), seats=(attacker, defender),
    options={"battle": battle_option(battle)}, ...)``.

    The header options hold the battle, so a sandbox log verifies like any other.
    """

    rules: ClassVar[RulesRef] = SANDBOX_RULES
    # The Decider protocol's optional members, written out: a compiled class cannot inherit
    # the interpreted kernel.DeciderDefaults.
    turn_rule: ClassVar[str] = "N-COMBAT-10"
    folds: ClassVar[Folds] = MappingProxyType({})
    command_types: ClassVar[Sequence[type[Command]]] = SANDBOX_COMMANDS
    event_types: ClassVar[Sequence[type[Event]]] = SANDBOX_EVENTS

    def __init__(self, pack: ContentPack) -> None:
        self.pack = pack
        self.content = ContentRef(id=pack.pack_id, sha256=pack.sha256)
        self._decoded: tuple[str, Battle] | None = None
        # The last battle's opening event and the combat it opens, and its environment:
        # pure functions of the battle (and the sides' stocks and flare), built once for
        # the many decisions and runs of one battle (the battle calculator).
        self._opening: tuple[Battle, messages.CombatStarted, Combat] | None = None
        self._env: tuple[dict[str, Resources], dict[str, int], CombatEnv] | None = None

    def env(self, state: SandboxState) -> CombatEnv:
        """The battle's environment: its biome card (or none) is drawn, retreats use its
        small map when it has one, and the state's stocks and flare are the sides' (built
        once per battle and holdings)."""
        # Stocks and flare come from a battle's opening event and its folds, so they are
        # another battle's objects for another battle.
        known = self._env
        stocks, flare = state.stocks, state.flare
        if known is not None and known[0] is stocks and known[1] is flare:
            return known[2]
        env = battle_env(self.pack, state)
        self._env = (stocks, flare, env)
        return env

    def redact_options(self, options: Mapping[str, Any], seat: str | None) -> dict[str, Any]:
        """The battle is public."""
        return dict(options)

    def validate_options(self, options: Mapping[str, Any]) -> None:
        """The options hold one valid ``battle`` (the kernel's ``tournament`` is not ours)."""
        if "battle" not in options or set(options) - {"battle"}:
            raise ValueError("the sandbox takes the option 'battle'")
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
        if type(command) is StartBattle:
            if seat is not None or state.combat is not None:
                raise IllegalCommand("N-COMBAT-1", "the battle has already started")
            started, combat = self._start(state.battle)
            state = _replace(state, stocks=started.stocks, flare=started.flare)
            return opened(self.env(state), state, started, combat, dice)
        fighting = state.combat
        if fighting is None or seat is None:
            raise IllegalCommand("N-COMBAT-1", "the battle has not started")
        return decided(self.env(state), state, fighting, seat, command, dice, legal)

    def evolve(self, state: SandboxState, event: Event) -> SandboxState:
        """Fold one event; the sides' stocks and flare (the combat's host's) are seeded by
        the ``CombatStarted`` event and folded as ``decide`` folds them."""
        if type(event) is messages.CombatStarted:
            combat = self._combat(state.battle, event)
            return _replace(state, combat=combat, stocks=event.stocks, flare=event.flare)
        fighting = state.combat
        assert fighting is not None
        kind = type(event)
        if kind in HOLDINGS and (kind is not messages.AttackResolved or event.flare):  # type: ignore[attr-defined]
            stocks, flare = fold_stocks(state.stocks, state.flare, fighting, event)
            if stocks is not state.stocks or flare is not state.flare:
                state = _replace(state, stocks=stocks, flare=flare)
        combat = evolve_combat(self.pack, fighting, event)
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
            return as_decision(None)
        return as_decision(decision(self.env(state), state.combat))

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
