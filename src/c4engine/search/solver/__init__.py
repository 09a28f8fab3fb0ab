"""The exact solver: perfect-play scores from compiled kernels, and small solves in pure Python.

:class:`~c4engine.search.solver.exact.Solver` drives the kernels; its parts: the steps on bitboards
in Python (:mod:`.bits`), the proofs about a position's columns under a limit (:mod:`.columns`),
its own answers (:mod:`.answers`), one run under way and its deadline (:mod:`.run`), the search on
several threads sharing one table (:mod:`.threads`), and nearly decided positions answered before
numba could load (:mod:`.small`).
"""
