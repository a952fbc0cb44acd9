"""Nataterra: the hex-map strategy game for 2-4 players (``docs/rules/nataterra.md``), and its
combat sandbox (one described battle fought to its end, ``docs/COMBAT_SANDBOX.md``).

The package has the rooms every game package has (the README's layout section):

- ``system`` — the registry records ``NATATERRA`` and ``SANDBOX`` (with the sandbox's header
  options) and nothing else.
- ``messages/`` — every command and event class, by topic (``setup``, ``turns``,
  ``movement``, ``development``, ``tactics``, ``victory``, ``structuring``, ``scenarios``,
  ``combat`` with ``combat_opening`` and ``combat_rounds``, ``sandbox``); its ``__init__``
  holds the unions.
- ``state`` — the immutable state classes.
- ``decider`` — the protocol's entry: set-up, ``decide`` and ``evolve``, dispatching into
  ``rules/``.
- ``rules/`` — the rules by topic, one module per part of the rulebook: ``setup``, ``turns``,
  ``movement``, ``resources``, ``development``, ``structures``, ``tactics`` and
  ``tactic_play``, ``victory``, ``conquest``, ``teams``, ``structuring`` (the advanced map's
  set-up), ``hexmap`` and ``map_layout`` (the map model), ``combat_phase`` and ``combat_map``
  (combat in the game), ``combat/`` (group combat itself and the sandbox's decider),
  ``positions/`` (position files) and ``scenarios/`` (the scenario book).
- ``views`` — what one seat may see.
- ``words/`` — the presenter (``words/presenter.py``): a sentence per command, event and
  outcome, by topic, and a seat view as text (``text_view``, the hex map in ``text_board``).
- ``geometry`` — the client drawing hook: the hex map, the combat board, click targets.
- ``panels`` — the seat panels hook: each seat's resources, score and counts, the
  viewer's own cards by title.
- ``encoding/`` — the observation encoders and action codecs of both systems.
- ``determinise`` — a full state sampled from a seat's view, for search players.
- ``bots/`` — the heuristic player and its parts.
- ``content/`` — the pack schema, loader and checks, and the provisional pack.
- ``coverage`` — the rules-coverage spec (clauses and cards).

Nataterra's board is a map model of its own but lives in ``rules/hexmap.py`` (the rules read
it everywhere), so there is no ``board`` module. Its extra rooms, each a tool of the combat
sandbox kept at the top so ``nataterra odds`` leads straight to it:

- ``battles`` — battle descriptions (JSON) for the sandbox and the calculator; ``data/``
  holds ``standard_battle.json``, the battle fought when none is described.
- ``odds`` — the battle calculator: win odds and expected survivors, by simulation.
- ``cli_commands`` — the ``nataterra odds`` sub-command (typer and rich are imported here
  only, never by the rules).
- ``how_to_play.md`` — the players' page (``nataterra rules``), shipped as package data, and
  ``how_to_play_sandbox.md``, the combat sandbox's.
"""
