"""Nataterra's rules on top of the kernel: one module per part of the rulebook.

Each module enforces its clauses of ``rules/nataterra.md`` and cites their IDs; :mod:`hexmap`
holds the board geometry (rules §2a).
"""
