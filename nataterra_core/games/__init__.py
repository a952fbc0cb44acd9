"""The rule systems that ship with the library, one package each.

Adding a game means adding its package and one registration line below.
"""

from nataterra_core.kernel.registry import register

from .battlelore.system import BATTLELORE
from .kaladan.system import KALADAN
from .nataterra.system import NATATERRA, SANDBOX

register(NATATERRA)
register(SANDBOX)
register(KALADAN)
register(BATTLELORE)
