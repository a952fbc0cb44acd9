"""Group combat (rules §6, §11, §12): the model, the arithmetic, the flow and the sandbox.

Modules: :mod:`.model` (groups and the combat state), :mod:`.damage` (the arithmetic of
attacks, support and healing), :mod:`.messages` (commands and events), :mod:`.flow` (the
stage machine: :mod:`.options` says who decides what, :mod:`.steps` gives the automatic
steps, :mod:`.commands` what a command does, :mod:`.env` what combat reads of the game),
:mod:`.folds` (folding events), :mod:`.biome` (biome cards and pending choices),
:mod:`.effects` (effect primitives), :mod:`.tactics` (tactic windows), :mod:`.policies`
(default choices) and :mod:`.sandbox` (one combat from a description, on the kernel).
"""
