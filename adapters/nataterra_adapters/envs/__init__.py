"""Research environments over every registered rule system (the optional ``envs`` extra).

* :mod:`.pettingzoo_env` -- a PettingZoo AEC environment (``pip install
  'nataterra-core[envs]'``): observations from the seat view through the system's encoder,
  a ``Discrete`` action space through its stable action codec, with an action mask.
* :mod:`.openspiel_game` -- every system as an OpenSpiel Python game (``open_spiel``).

Both reach a game only through the registry's hooks (``Hooks.observation``,
``Hooks.action_codec``), so a system that registers them gets both environments.
"""
