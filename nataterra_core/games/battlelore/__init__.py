"""BattleLore (Richard Borg, Days of Wonder 2006) on the kernel: ``docs/rules/battlelore.md``.

Registered as the rule system ``battlelore``. The package has the rooms every game package
has (the README's layout section):

- ``system`` — the registry record ``BATTLELORE`` and nothing else.
- ``messages`` — every command and event class, with the visibility each declares.
- ``state`` — the immutable state classes.
- ``decider`` — the protocol's entry: set-up, ``decide`` and ``evolve``, dispatching into
  ``rules/``.
- ``rules/`` — the rules by topic: ``world`` (questions about a position), ``turn`` (the
  turn's steps and legal commands), ``combat``, ``lore`` and ``lore_windows``, ``refusals``
  (the clause a refused command breaks), ``resolver`` and ``fold`` (the fold of events into
  the state).
- ``views`` — what one seat may see (B-CMD-2).
- ``presenter.py`` — the presenter: sentences and the text view.
- ``geometry`` — the client drawing hook (hex board and SVG).
- ``panels`` — the seat panels hook: each seat's resources, score and counts, the
  viewer's own cards by title.
- ``board`` — BattleLore's own board model: offset hexes, sections, line of sight.
- ``encoding`` — the observation encoder and the action codec.
- ``determinise`` — a full state sampled from a seat's view, for search players.
- ``bots`` — the heuristic player.
- ``content/`` — the pack schema and loader, and the provisional pack.
- ``coverage`` — the rules-coverage spec (clauses, cards, unit types, scenarios).
"""
