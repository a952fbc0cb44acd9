"""Kaladan: castles, gold, events and magic on a hex map (``../shared/rules/kaladan.md``)."""
