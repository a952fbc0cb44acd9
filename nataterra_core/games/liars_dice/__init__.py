"""Liar's Dice on the kernel (``docs/rules/liars_dice.md``, rule ids ``L-…``).

The package has the one shape of every game: :mod:`.system` (the registry record),
:mod:`.messages` (every command and event, with who may see each field), :mod:`.state`,
:mod:`.decider` (decide and evolve, dispatching into :mod:`.rules`: bidding, the calls, the
rounds), :mod:`.views` (what a seat sees: its own cup, the others' dice counts, the bids),
:mod:`.presenter` (the words), :mod:`.geometry` (cups and dice for the browser),
:mod:`.encoding` (observation and action codec), :mod:`.determinise` (hidden dice sampled
for the search player), :mod:`.bots` and :mod:`.coverage`.
"""
