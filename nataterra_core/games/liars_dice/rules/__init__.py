"""The rules of Liar's Dice by topic: :mod:`.bidding` (L-BID), :mod:`.calls` (L-CALL,
L-SPOT), :mod:`.rounds` (L-SET-3, L-ROUND, L-END) and :mod:`.fold` (each event's effect)."""
