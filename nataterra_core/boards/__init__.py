"""Board toolkits shared by the games: geometry and search that know no game's rules.

A game builds its own map on top (which cells exist, what is on them, what a mover may do) and
asks these modules for distances and paths. They import only the kernel.
"""
