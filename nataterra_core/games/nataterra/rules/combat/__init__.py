"""Group combat (rules §6, §11, §12): the model, the arithmetic, the flow and the sandbox.

Modules: :mod:`.model` (groups and the combat state), :mod:`.damage` (the arithmetic of
attacks, support and healing), :mod:`.messages` (commands and events), :mod:`.flow` (who
decides what, automatic steps), :mod:`.folds` (folding events), :mod:`.biome` (biome cards
and pending choices), :mod:`.effects` (effect primitives), :mod:`.tactics` (tactic windows),
:mod:`.policies` (default choices) and :mod:`.sandbox` (one combat from a description, on
the kernel).
"""
