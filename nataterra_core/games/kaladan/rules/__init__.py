"""Kaladan's rules by topic, joined by the package's ``decider``: :mod:`.flow`,
:mod:`.actions`, :mod:`.effects`, :mod:`.combat`, :mod:`.refusals` (the clause a refused
command breaks) and :mod:`.fold`, the fold of events into the state."""
