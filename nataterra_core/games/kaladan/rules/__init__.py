"""Kaladan's rules by topic, joined by the package's ``decider``: :mod:`.flow`,
:mod:`.actions`, :mod:`.effects`, :mod:`.combat`, and :mod:`.fold`, the fold of events into
the state."""
