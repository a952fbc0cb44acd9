"""BattleLore's rules by topic, joined by the package's ``decider``: :mod:`.world` (read-only
questions about a position), :mod:`.turn` (the turn's steps and the legal commands),
:mod:`.combat`, :mod:`.lore` and :mod:`.lore_windows`, :mod:`.refusals` (the clause a refused
command breaks), :mod:`.resolver` (events emitted and folded one at a time) and :mod:`.fold`
(the fold of events into the state)."""
