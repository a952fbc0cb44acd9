"""BattleLore (Richard Borg, Days of Wonder 2006) on the kernel: ``../shared/rules/battlelore.md``.

Registered as the rule system ``battlelore`` in :mod:`.system`.
"""
