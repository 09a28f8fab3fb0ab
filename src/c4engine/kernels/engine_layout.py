"""The arrays of the compiled heuristic search (:mod:`c4engine.kernels.heuristic`), named without numba.

:class:`c4engine.search.engine.compiled.KernelSearch` makes and reads them;
its kernel comes from the shared library (:mod:`c4engine.kernels.library`)
when the package was built with one, and the process then never imports
numba.  Per ply ``d`` of a board with ``plies(width, height)`` rows::

    ustack[d] = current, mask                      (uint64)
    fstack[d] = alpha, beta, best, alpha at entry  (float64, F_*)
    istack[d] = move count, next move, best move   (int64, I_*)
    mstack[d, i] = the columns in search order     (int64, one a column)
    pv[d, :pvlen[d]] = the principal variation from ply d

Its state (``state[S_*]``, int64) is the exact search's (:mod:`c4engine.kernels.layout`): the
same indices for the phase, the ply under way, whether it is being entered and the nodes, the same
phases and the same return values.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Weights(NamedTuple):
    """The evaluator the search scores its leaves with, packed: the arguments of
    :func:`c4engine.kernels.heuristic.evaluate`."""

    masks: np.ndarray
    """uint64: the board's windows, in the order of
    :class:`~c4engine.search.engine.evaluators.WindowTables`."""
    own: np.ndarray
    """float64, by stone count: a window holding only the side to score's stones."""
    opponent: np.ndarray
    """float64, by stone count: a window holding only the other side's."""
    center: float
    """Per stone of the side's more than the other's in ``center_mask``."""
    center_mask: np.uint64
    """The centre cells."""
    cap: float
    """The evaluation is clamped to ``[-cap, cap]``."""


# fstack columns
F_ALPHA = 0
F_BETA = 1
F_BEST = 2
F_ALPHA0 = 3

# istack columns
I_COUNT = 0
I_NEXT = 1
I_BEST = 2


def plies(width: int, height: int) -> int:
    """Rows of the search stacks: one a ply, the root's included, and one to spare.

    >>> plies(7, 6)
    44
    """
    return width * height + 2
