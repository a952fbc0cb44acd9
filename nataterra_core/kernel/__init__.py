"""The game-agnostic kernel: decider protocol, dice, hash-chained log, session, replay, verify.

Nothing here knows a game; any rule system implementing :class:`Decider` runs on it, and any
game's bots (:class:`Player`) play it through :func:`play` on that game's seat views. What a
game author needs, by task (the registry record that makes a system known to every front end
is :class:`nataterra_core.kernel.registry.RuleSystem`; the optional hooks' protocols are in
:mod:`.encoding`, :mod:`.determinise` and :mod:`.geometry`):

**Writing the rules** (:mod:`.decider`): :class:`Decider` (the protocol: ``decision``,
``decide``, ``evolve`` and the questions the kernel asks), :class:`DeciderDefaults` (the
optional members' defaults: ``turn_rule``, ``folds``, ``redact_options``), :class:`Decision`
(who may act, and each one's legal commands), :class:`Decided`, :func:`events_of`,
:class:`Setup`, :class:`Outcome`, :class:`RulesRef`, :class:`ContentRef`, :data:`Folds`; the
kernel's own options every system has: :data:`KERNEL_OPTIONS`, :data:`TOURNAMENT`,
:func:`rules_options`, :func:`check_kernel_options`.

**Commands and events** (:mod:`.messages`): :class:`Command`, :class:`Event`, :class:`Wire`,
:func:`check_tags`, :func:`encode`, :func:`decode_command` (a command from its JSON).

**Secrets** (:mod:`.visibility`: who may see each command and event, declared on its class):
:class:`Visibility`, :data:`PUBLIC`, :data:`HIDDEN`, :func:`hide_from_others`,
:func:`hidden_order`, :func:`visibility_of`; a log as a seat sees it: :class:`MessageTypes`,
:func:`record_view`, :func:`log_view`, :class:`LogView`.

**Dice and chance** (:mod:`.dice`, :mod:`.chance`: random events carry what an auditor needs
to recompute them from the seed alone): :class:`DiceStream`, :data:`DICE_FORMAT`,
:func:`seed_from_number`, :func:`seed_commitment`, :func:`join_client_seeds`,
:func:`odds_seed`; :class:`RandomEvent`, :class:`DrawEvent`, :class:`DrawsEvent`,
:class:`ShuffleEvent`, :func:`record_draw`, :func:`record_draws`, :func:`record_shuffle`,
:func:`recheck`.

**Playing** (:mod:`.session`, :mod:`.players`): :class:`Session`, :data:`LineSink`;
:class:`Player`, :class:`RandomPlayer`, :func:`play`, :func:`player_dice`.

**Logs, replay and verification** (:mod:`.log`, :mod:`.replay`): :class:`Header`,
:data:`Record`, :class:`StartRecord`, :class:`CommandRecord`, :class:`UndoRecord`,
:class:`RevealRecord`, :class:`EndRecord`, :class:`RecordCodec`, :class:`LogWriter`,
:func:`split_lines`; :func:`read_log`, :class:`ReadLog`, :func:`replay`,
:func:`replay_states`, :func:`verify`, :class:`Verdict`, :data:`DeciderFactory`.

**Errors** (:mod:`.errors`): :class:`EngineError` (alias :class:`NataterraError`) and below
it :class:`CommandRejected` (:class:`IllegalCommand` naming the rule broken,
:class:`NotYourTurn`, :class:`GameOver`, :class:`MalformedCommand`, :class:`UndoRefused`),
:class:`LogError` (:class:`TornRecord`, :class:`ChainBroken`, :class:`HeadMismatch`,
:class:`SeedMismatch`, :class:`ReplayDiverged`, :class:`UnsupportedVersion`,
:class:`UnknownContent`, :class:`HeaderRefused`) and :class:`ContentError` (its
:class:`ContentProblem` records).
"""

from .chance import (
    DrawEvent,
    DrawsEvent,
    RandomEvent,
    ShuffleEvent,
    recheck,
    record_draw,
    record_draws,
    record_shuffle,
)
from .decider import (
    KERNEL_OPTIONS,
    TOURNAMENT,
    ContentRef,
    Decided,
    Decider,
    DeciderDefaults,
    Decision,
    Folds,
    Outcome,
    RulesRef,
    Setup,
    check_kernel_options,
    events_of,
    rules_options,
)
from .dice import (
    DICE_FORMAT,
    DiceStream,
    join_client_seeds,
    odds_seed,
    seed_commitment,
    seed_from_number,
)
from .errors import (
    ChainBroken,
    CommandRejected,
    ContentError,
    ContentProblem,
    EngineError,
    GameOver,
    HeaderRefused,
    HeadMismatch,
    IllegalCommand,
    LogEndsEarly,
    LogError,
    MalformedCommand,
    NataterraError,
    NotYourTurn,
    ReplayDiverged,
    ReplayFailed,
    SeedMismatch,
    TornRecord,
    UndoRefused,
    UnknownContent,
    UnsupportedVersion,
)
from .log import (
    CommandRecord,
    EndRecord,
    Header,
    LogWriter,
    Record,
    RecordCodec,
    RevealRecord,
    StartRecord,
    UndoRecord,
    split_lines,
)
from .messages import Command, Event, Wire, check_tags, decode_command, encode
from .players import Player, RandomPlayer, play, player_dice
from .replay import (
    DeciderFactory,
    ReadLog,
    Verdict,
    read_log,
    read_log_prefix,
    replay,
    replay_prefix,
    replay_states,
    verify,
)
from .session import LineSink, Session
from .visibility import (
    HIDDEN,
    PUBLIC,
    LogView,
    MessageTypes,
    Visibility,
    hidden_order,
    hide_from_others,
    log_view,
    record_view,
    visibility_of,
)

__all__ = [
    "DICE_FORMAT",
    "HIDDEN",
    "KERNEL_OPTIONS",
    "PUBLIC",
    "TOURNAMENT",
    "ChainBroken",
    "Command",
    "CommandRecord",
    "CommandRejected",
    "ContentError",
    "ContentProblem",
    "ContentRef",
    "Decided",
    "Decider",
    "DeciderDefaults",
    "DeciderFactory",
    "Decision",
    "DiceStream",
    "DrawEvent",
    "DrawsEvent",
    "EndRecord",
    "EngineError",
    "Event",
    "Folds",
    "GameOver",
    "HeadMismatch",
    "Header",
    "HeaderRefused",
    "IllegalCommand",
    "LineSink",
    "LogEndsEarly",
    "LogError",
    "LogView",
    "LogWriter",
    "MalformedCommand",
    "MessageTypes",
    "NataterraError",
    "NotYourTurn",
    "Outcome",
    "Player",
    "RandomEvent",
    "RandomPlayer",
    "ReadLog",
    "Record",
    "RecordCodec",
    "ReplayDiverged",
    "ReplayFailed",
    "RevealRecord",
    "RulesRef",
    "SeedMismatch",
    "Session",
    "Setup",
    "ShuffleEvent",
    "StartRecord",
    "TornRecord",
    "UndoRecord",
    "UndoRefused",
    "UnknownContent",
    "UnsupportedVersion",
    "Verdict",
    "Visibility",
    "Wire",
    "check_kernel_options",
    "check_tags",
    "decode_command",
    "encode",
    "events_of",
    "hidden_order",
    "hide_from_others",
    "join_client_seeds",
    "log_view",
    "odds_seed",
    "play",
    "player_dice",
    "read_log",
    "read_log_prefix",
    "recheck",
    "record_draw",
    "record_draws",
    "record_shuffle",
    "record_view",
    "replay",
    "replay_prefix",
    "replay_states",
    "rules_options",
    "seed_commitment",
    "seed_from_number",
    "split_lines",
    "verify",
    "visibility_of",
]
