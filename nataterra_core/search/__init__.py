"""Search players for any registered rule system, built on the kernel (never imported by it).

- :mod:`.ismcts`: :class:`~.ismcts.SearchPlayer`, information-set Monte Carlo tree search
  over a system's determiniser (``Hooks.determiniser``);
- :mod:`.catalogue`: every player a system offers by name (its own, ``random``, ``search``)
  and the ``search:N:POLICY`` specs front ends accept (:func:`~.catalogue.make_player`).
"""
