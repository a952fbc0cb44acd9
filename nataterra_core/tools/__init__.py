"""Tools over any registered rule system, built on the kernel (never imported by it).

- :mod:`.coverage`: which tests exercise each clause of a system's rules text and each item
  of its content (``nataterra coverage``);
- :mod:`.stats`: Wilson intervals and Bradley-Terry ratings for reports over many games;
- :mod:`.workers`: how many worker processes a batch gets and how they start.
"""
