"""nataterra_core: an event-sourced, verifiable rules engine for the board game Nataterra.

Layers, dependencies pointing one way: ``kernel`` (game-agnostic: dice, log, session,
replay, verify) ← ``content`` (content packs) ← ``rules`` (Nataterra) ← the game facade.
"""

__version__ = "0.1.0"
