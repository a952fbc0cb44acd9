"""Kaladan: castles, gold, events and magic on a hex map (``docs/rules/kaladan.md``).

The package has the rooms every game package has (the README's layout section):

- ``system`` — the registry record ``KALADAN`` and nothing else.
- ``messages`` — every command and event class, with the visibility each declares.
- ``state`` — the immutable state classes.
- ``decider`` — the protocol's entry: set-up, ``decide`` and ``evolve``, dispatching into
  ``rules/``.
- ``rules/`` — the rules by topic: ``flow`` (phases, turns, scoring), ``actions`` (the
  active player's phases), ``effects`` (event and magic cards), ``combat``, ``refusals``
  (the clause a refused command breaks) and ``fold`` (the fold of events into the state).
- ``views`` — what one seat may see (K-HID-1).
- ``presenter.py`` — the presenter: sentences and the text view.
- ``geometry`` — the client drawing hook (hex map and SVG).
- ``panels`` — the seat panels hook: each seat's resources, score and counts, the
  viewer's own cards by title.
- ``board`` — Kaladan's own map model: adjacency, capacity, control, castles.
- ``encoding`` — the observation encoder and the action codec.
- ``determinise`` — a full state sampled from a seat's view, for search players.
- ``bots`` — the heuristic player.
- ``content/`` — the pack schema, loader and checks, and the provisional pack.
- ``coverage`` — the rules-coverage spec (clauses and cards).
"""
