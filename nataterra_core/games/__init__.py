"""The rule systems that ship with the library, one package each.

Adding a game means adding its package and one registration line below: the system's id and
where its record is. A system's modules are imported when it is first looked up (so verifying
a log of one game imports no other), or when every system is listed.
"""

from nataterra_core.kernel.registry import register_lazily

register_lazily("nataterra", "nataterra_core.games.nataterra.system:NATATERRA")
register_lazily("nataterra-combat-sandbox", "nataterra_core.games.nataterra.system:SANDBOX")
register_lazily("kaladan", "nataterra_core.games.kaladan.system:KALADAN")
register_lazily("battlelore", "nataterra_core.games.battlelore.system:BATTLELORE")
register_lazily("liars-dice", "nataterra_core.games.liars_dice.system:LIARS_DICE")
