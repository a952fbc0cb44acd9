"""Group combat (rules §6, §11, §12): the model, the arithmetic, the flow and the sandbox
(its commands and events are in ``messages/combat.py``).

Modules: :mod:`.model` (groups and the combat state), :mod:`.board` (who stands and who
acts next), :mod:`.damage` (the arithmetic of attacks, support and healing),
:mod:`.stages` (the stage machine as one table:
:mod:`.options` says who decides what, :mod:`.steps` gives the automatic steps,
:mod:`.attacks` resolves an attack),
:mod:`.flow` (runs the machine; :mod:`.commands` says what a command does), :mod:`.env`
and :mod:`.host` (what combat reads of the game or the sandbox), :mod:`.folds` (folding
events), :mod:`.biome` (biome cards and pending choices), :mod:`.effects` (effect
primitives), :mod:`.tactics` (tactic windows), :mod:`.policies` (default choices) and
:mod:`.sandbox` (one combat from a description, on the kernel: :mod:`.sandbox_model` its
records, :mod:`.sandbox_steps` its decisions).
"""
