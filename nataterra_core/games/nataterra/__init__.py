"""Nataterra: the hex-map strategy game for 2-4 players (``docs/rules/nataterra.md``)."""
